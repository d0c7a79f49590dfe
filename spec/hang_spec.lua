--- spec/hang_spec.lua: bad refs and hung pages get errors that say what to
-- do: a ref that is not a ref is an InvalidArgument; a page whose main
-- thread never returns times out with the way to recover, and
-- browser_close does recover.
local tools = require "vdx.tools"
local roles_mod = require "vdx.roles"
local errors = require "vdx.errors"
local helpers = require "helpers"

describe("bad refs and hung pages", function()
  local srv, reg, roles, ctx

  setup(function()
    srv = helpers.serve {}
    reg = tools.new()
    require("vdx.builtin").register_all(reg)
    roles = roles_mod.new { launch = { headless = true, timeout_ms = 10000 } }
    local role = roles:current()
    ctx = { roles = roles, role = role, role_name = role.name, errors = errors, tools = reg,
      log = function() end }
    function ctx.page(c) return c.role:page() end
  end)

  teardown(function()
    roles:close()
    srv:close()
  end)

  local function call(name, args)
    local res = reg:call(name, args, ctx)
    return res, res.content[1].text
  end

  it("answers a ref that is not a ref with InvalidArgument", function()
    call("browser_navigate", { url = srv.url .. "/core/index.html" })
    for _, tool in ipairs { "resolve_container", "inspect_pattern", "extract_anchors" } do
      local res, text = call(tool, { ref = "../../etc/passwd", level = tool ~= "resolve_container" and 1 or nil })
      assert.is_true(res.isError)
      assert.equal("❌ Invalid argument", text:match("^[^\n]*"), tool)
      assert.matches("'../../etc/passwd' is not a ref: refs are e<N> or f<K>e<N> with N, K >= 1, as in e3 or f1e7",
        text, 1, true)
      assert.is_nil(text:find("Unexpected error", 1, true))
    end
  end)

  it("says how to recover from a page whose main thread never returns", function()
    call("browser_navigate", { url = srv.url .. "/core/index.html" })
    ctx.role:page():evaluate("setTimeout(() => { for (;;) {} }, 0); true")
    local res, text = call("browser_snapshot", {})
    assert.is_true(res.isError)
    assert.equal("❌ Timed out", text:match("^[^\n]*"))
    assert.matches("call browser_close() to end it", text, 1, true)
    assert.matches("browser_navigate(url=…) to another site", text, 1, true)
    res, text = call("browser_close", {})
    assert.is_nil(res.isError, text)
    res, text = call("browser_navigate", { url = srv.url .. "/core/index.html" })
    assert.is_nil(res.isError, text)
    res, text = call("browser_snapshot", {})
    assert.is_nil(res.isError, text)
  end)
end)
