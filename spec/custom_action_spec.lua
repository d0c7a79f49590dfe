-- A new action written in Lua on the core's primitives
-- (examples/select_custom_listbox.lua) runs from a script, from a flow and
-- as an MCP tool; and the typed targets of the built-in actions: a
-- malformed ref is InvalidArgument naming the grammar, ControlOrMeta is a
-- modifier the core accepts and the tool schemas offer.
local vdx = require "vdx"
local h = require "helpers"
local flow = require "vdx.flow"
local client = require "mcp_client"

local listbox = dofile "examples/select_custom_listbox.lua"

local GRAMMAR = "refs are e<N> or f<K>e<N> with N, K >= 1, as in e3 or f1e7, taken from the latest snapshot"

describe("a custom action in Lua", function()
  local srv, browser, page

  setup(function()
    srv, browser, page = h.open(nil, { timeout_ms = 20000 })
  end)
  teardown(function() h.shut(browser, srv) end)

  local function trigger_ref()
    page:navigate(srv.url .. "/actions/listbox.html")
    return page:snapshot().text:match('button "Fruit Choose…" %[ref=(e%d+)%]')
  end

  it("opens the listbox and picks an option by name with real clicks", function()
    local ref = assert(trigger_ref())
    local r = listbox.select(page, ref, "Banana")
    assert.same({ ref = ref, selected = "Banana", console_errors = 0 }, r)
    assert.equal("picked Banana", page:evaluate("document.getElementById('out').textContent"))
    r = listbox.select(page, { description = 'the "Fruit Banana" button' }, "Cherry")
    assert.equal("Cherry", r.selected)
    assert.equal("picked Cherry", page:evaluate("document.getElementById('out').textContent"))
    local err = h.error_of(listbox.select, page, ref, "Durian", { timeout_ms = 1500 })
    assert.is_true(vdx.is_error(err, "Timeout"), tostring(err))
    err = h.error_of(listbox.select, page, "e1x", "Apple")
    assert.is_true(vdx.is_error(err, "InvalidArgument"), tostring(err))
    assert.equal("'e1x' is not a ref: " .. GRAMMAR, err.message)
  end)

  it("runs from a flow", function()
    local status, f = flow.run({ name = "listbox", base_url = srv.url, quiet = true }, function(f)
      f:role("user", { url = "/actions/listbox.html" })
      f:as("user", function(c)
        c:act("select", { role = "button", name = "Fruit Choose…" }, {}, function(ref)
          return listbox.select(c.page, ref, "Apple")
        end, ".click()")
        assert.equal("picked Apple", c.page:evaluate("document.getElementById('out').textContent"))
      end)
    end)
    assert.equal(0, status, f.failure and f.failure.text)
  end)

  it("sends ControlOrMeta as Control, and refuses an unknown modifier or button", function()
    page:navigate("data:text/html,<button onclick=\"document.title = 'ctrl=' + event.ctrlKey + "
      .. "' meta=' + event.metaKey\">Go</button>")
    local ref = page:snapshot().text:match('button "Go" %[ref=(e%d+)%]')
    page:click(ref, { modifiers = { "ControlOrMeta" } })
    assert.equal("ctrl=true meta=false", page:evaluate("document.title"))
    assert.same({ "Alt", "Control", "ControlOrMeta", "Meta", "Shift" }, vdx.input.MODIFIERS)
    assert.same({ "left", "right", "middle" }, vdx.input.BUTTONS)
    local err = h.error_of(page.click, page, ref, { modifiers = { "Hyper" } })
    assert.is_true(vdx.is_error(err, "InvalidArgument"), tostring(err))
    assert.equal("unknown modifier 'Hyper' (Alt, Control, ControlOrMeta, Meta, Shift)", err.message)
    err = h.error_of(page.click, page, ref, { button = "back" })
    assert.is_true(vdx.is_error(err, "InvalidArgument"), tostring(err))
  end)

  it("takes explicit targets and one ref grammar", function()
    page:navigate("data:text/html,<button>Go</button>")
    for _, bad in ipairs { "e0", "e01", "f0e1", "f1x_e1", "f1_e1", "e1x", "E1" } do
      local err = h.error_of(page.click, page, bad)
      assert.is_true(vdx.is_error(err, "InvalidArgument"), bad .. ": " .. tostring(err))
      assert.equal("'" .. bad .. "' is not a ref: " .. GRAMMAR, err.message)
      err = h.error_of(page.describe, page, bad)
      assert.is_true(vdx.is_error(err, "InvalidArgument"), bad .. ": " .. tostring(err))
      assert.is_false(vdx.is_ref(bad))
    end
    assert.same({ true, 0 }, { vdx.is_ref("e12") })
    assert.same({ true, 3 }, { vdx.is_ref("f3e1") })
    local err = h.error_of(page.click, page, { ref = "e1", description = "Go" })
    assert.is_true(vdx.is_error(err, "InvalidArgument"), tostring(err))
    assert.is_table(page:click({ description = "Go" }))
  end)
end)

describe("a custom action as an MCP tool", function()
  local srv
  setup(function() srv = h.serve() end)
  teardown(function() srv:close() end)

  it("is called like a built-in tool, next to typed targets and the core's enums", function()
    local s = client.start("--tools examples/select_custom_listbox.lua")
    local request, call = client.caller(s)
    local tools = request("tools/list", {}).tools
    local click
    for _, t in ipairs(tools) do if t.name == "browser_click" then click = t end end
    assert.same(vdx.input.MODIFIERS, click.inputSchema.properties.modifiers.items.enum)
    assert.same(vdx.input.BUTTONS, click.inputSchema.properties.button.enum)
    call("browser_navigate", { url = srv.url .. "/actions/listbox.html" })
    local ref = call("browser_snapshot", {}).content[1].text:match('button "Fruit Choose…" %[ref=(e%d+)%]')
    local picked = call("select_custom_listbox", { ref = ref, option = "Apple" })
    assert.is_nil(picked.isError, picked.content[1].text)
    assert.matches('^Picked "Apple" in ' .. ref, picked.content[1].text)
    local out = call("browser_evaluate", { ["function"] = "() => document.querySelector('#out').textContent" })
    assert.equal('Result: "picked Apple"', out.content[1].text)
    local bad = call("browser_click", { ref = "e1x" })
    assert.is_true(bad.isError)
    assert.matches("^❌ Invalid argument\n", bad.content[1].text)
    assert.matches("'e1x' is not a ref: " .. GRAMMAR, bad.content[1].text, 1, true)
    local ctrl = call("browser_click", { ref = ref, modifiers = { "ControlOrMeta" } })
    assert.is_nil(ctrl.isError, ctrl.content[1].text)
    assert.equal(0, (s:close(20000)))
  end)
end)
