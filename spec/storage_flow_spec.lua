--- A flow role's cookies and storage (spec/fixtures/flow/storage_flow.lua):
-- set by the flow, seen by the app, kept from another role, saved as a
-- storageState another role starts from, and exported with
-- `--emit-playwright` as a test whose printed command passes under real
-- Playwright.
local helpers = require "helpers"

local read, q = helpers.read, helpers.quote
local FLOW = "spec/fixtures/flow/storage_flow.lua"

-- True when the plain text needle is in s.
local function has(s, needle) return s:find(needle, 1, true) ~= nil end

describe("a flow's cookies and storage", function()
  local dir, pw, pw_why, out, status

  lazy_setup(function()
    dir = os.tmpname()
    os.remove(dir)
    os.execute("mkdir -p " .. q(dir .. "/work") .. " " .. q(dir .. "/elsewhere"))
    pw, pw_why = helpers.playwright()
    if pw and not pw:match("^/") then pw = io.popen("pwd"):read("l") .. "/" .. pw end
    out, status = helpers.run(("%s%s %s --emit-playwright %s -- %s"):format(
      pw and ("VDX_PLAYWRIGHT_DIR=" .. q(pw) .. " ") or "", helpers.vdxlua, FLOW, q(dir .. "/out/prefs.spec.ts"),
      q(dir .. "/work")))
  end)

  lazy_teardown(function()
    if dir then os.execute("rm -rf " .. q(dir)) end
  end)

  it("sets them from the flow, keeps them from the other role and saves the state", function()
    assert.equal(0, status, out)
    for _, line in ipairs {
      "  ✓ [shopper] the flow sets a cookie and storage",
      "  ✓ [guest] the guest has none of it",
      "  ✓ [returning] the saved state comes back",
    } do
      assert.is_true(has(out, line), out)
    end
    local saved = require("vdx.storage").read_state(dir .. "/work/shopper.json")
    assert.is_table(saved, out)
    assert.equal("shopper-1", saved.cookies[1].value)
    assert.same({ { name = "theme", value = "dark" } }, saved.origins[1].localStorage)
  end)

  it("writes each change as Playwright code", function()
    local spec = read(dir .. "/out/prefs.spec.ts")
    assert.is_string(spec, out)
    for _, line in ipairs {
      "    await shopperContext.addCookies([{ name: 'sid', value: 'shopper-1', domain: '127.0.0.1', path: '/', "
        .. "expires: -1, httpOnly: false, secure: false }]);",
      "    await shopper.evaluate(([k, v]) => localStorage.setItem(k, v), ['theme', 'dark']);",
      "    await shopper.evaluate(([k, v]) => sessionStorage.setItem(k, v), ['tab', '2']);",
      "    savedState1 = await shopperContext.storageState();",
      "  returningContext = await browser.newContext({ storageState: savedState1 });",
      "    await returningContext.clearCookies({ name: 'sid' });",
      "    await returning.evaluate((k) => localStorage.removeItem(k), 'theme');",
    } do
      assert.is_true(has(spec, line .. "\n"), line .. "\n-- not in --\n" .. spec)
    end
  end)

  it("passes under real Playwright when the printed command is run as printed", function()
    if not pw then
      pending(pw_why)
      return
    end
    local cmd = assert(out:match("\nRun it with:\n  ([^\n]+)\n"), out)
    local res, st = helpers.run(("cd %s && timeout 300 sh -c %s"):format(q(dir .. "/elsewhere"), q(cmd)))
    assert.equal(0, st, res)
    assert.matches("1 passed", res)
  end)
end)
