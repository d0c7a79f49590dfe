--- The error formatter: every typed error's text, the generic one, and the
-- failure log's decision.
local errors = require "vdx.errors"

describe("vdx.errors #unit", function()
  it("formats UnknownRef exactly", function()
    assert.equal(table.concat({
      "❌ Unknown element reference",
      "Acting as: customer",
      "Ref: e42",
      "Message: no element has ref e42",
      "",
      "Possible causes:",
      "• The ref is from an earlier document: a navigation or reload replaced the page (a ref lives as long as its document)",
      "• The ref belongs to another role or tab, or was typed by hand",
      "• An element inside an iframe was given without its frame prefix (f1e7, not e7)",
      "",
      "🔧 Action Required:",
      "1. Call browser_find(role=…, name=…, within=<its row, card or section's text>) for its ref now, or "
        .. "browser_snapshot() for the whole page.",
      "2. Retry with the new ref.",
    }, "\n"), errors.format({ type = "UnknownRef", message = "no element has ref e42", ref = "e42" },
      { as_role = "customer" }))
  end)

  local expected = {
    UnknownRef = { "Unknown element reference", "browser_snapshot()" },
    StaleRef = { "Element is no longer on the page", "browser_snapshot()" },
    FrameDetached = { "Frame detached", "browser_snapshot()" },
    NavigationFailed = { "Navigation failed", "browser_navigate(url=…)" },
    AuthenticationFailed = { "Authentication state could not be loaded", "list_roles()" },
    Timeout = { "Timed out", "browser_wait_for(text=…)" },
    ElementCovered = { "Another element would receive the click", "browser_click(ref=…)" },
    ElementNotVisible = { "Element is not visible", "browser_hover" },
    ElementNotEnabled = { "Element is disabled", "browser_fill_form(fields=[…])" },
    NoMatch = { "No element matches the description", "browser_snapshot()" },
    BrowserClosed = { "The browser is closed", "browser_navigate(url=…)" },
    PageClosed = { "The page is closed", "browser_tabs(action=\"list\")" },
    PageCrashed = { "The page crashed", "Navigate or reload to recover" },
    InvalidArgument = { "Invalid argument", "tools/list" },
    RoleUnknown = { "Unknown role", "select_role(role=…)" },
    BrowserNotFound = { "No browser to start", "--executable" },
    TargetNotFound = { "No element matches the target", "within = {" },
  }
  for t, e in pairs(expected) do
    it("formats " .. t, function()
      local text = errors.format { type = t, message = "m", ref = "e1", url = "http://x/" }
      local lines = {}
      for l in (text .. "\n"):gmatch("([^\n]*)\n") do lines[#lines + 1] = l end
      assert.equal("❌ " .. e[1], lines[1])
      assert.matches("\nRef: e1\n", text, 1, true)
      assert.matches("\nURL: http://x/\n", text, 1, true)
      assert.matches("\nPossible causes:\n• ", text, 1, true)
      assert.matches("\n🔧 Action Required:\n1. ", text, 1, true)
      assert.matches(e[2], text, 1, true)
    end)
  end

  it("gives an error's message whole, where a fact's value is cut short", function()
    local long = ("word "):rep(180):sub(1, -2)
    local vdx = require "vdx"
    local text = errors.format(vdx.error("InvalidArgument", long, { expected = long }))
    assert.matches("\nMessage: " .. long .. "\n", text, 1, true)
    assert.matches("\nExpected: " .. long:sub(1, 300) .. "…[truncated]\n", text, 1, true)
    -- A runaway message (a page's text in it) is still bounded.
    text = errors.format(vdx.error("InvalidArgument", ("x"):rep(5000)))
    assert.matches("\nMessage: " .. ("x"):rep(1200) .. "…[truncated]", text, 1, true)
  end)

  it("says that a detached frame is often normal", function()
    assert.matches("^❌ Frame detached\nℹ️ This is often normal", errors.format { type = "FrameDetached", message = "" })
  end)

  it("shows the facts of ElementCovered and NoMatch", function()
    local text = errors.format { type = "ElementCovered", message = "covered", ref = "e3",
      covered_by = { tag = "div", id = "cookie-banner", text = "We use cookies" } }
    assert.matches("Covered by: id=cookie-banner, tag=div, text=We use cookies", text, 1, true)
    text = errors.format { type = "NoMatch", message = "no match", description = "the Place order button",
      counts = { role = 0, label = 0, placeholder = 0, text = 2 }, links = { "Home", "Cart" } }
    assert.matches("Description: the Place order button", text, 1, true)
    assert.matches("Matches: label=0, placeholder=0, role=0, text=2", text, 1, true)
    assert.matches("Links on the page: Home, Cart", text, 1, true)
    text = errors.format { type = "NotUnique", message = "refused", description = "Delete", count = 2,
      candidates = { { ref = "e4", role = "button", name = "Delete", around = "Buy milk Delete" },
        { ref = "e7", role = "button", name = "", around = "" } } }
    assert.matches("The locator or text matches 2 elements, not one", text, 1, true)
    assert.matches('\nCandidates: e4 button "Delete" in "Buy milk Delete"; e7 button\n', text)
    assert.matches("an action given an element description and no ref", text, 1, true)
  end)

  it("turns unknown Lua errors into a generic formatted error", function()
    local text = errors.format("lua/vdx/x.lua:3: attempt to call a nil value")
    assert.matches("^❌ Unexpected error\nMessage: lua/vdx/x.lua:3: attempt to call a nil value\n", text)
    assert.matches("🔧 Action Required:\n1. Call browser_snapshot()", text, 1, true)
    assert.matches("^❌ Unexpected error %(CustomThing%)", errors.format { type = "CustomThing", message = "x" })
  end)

  it("decides partial failures: warnings, and a main-frame failure as the error", function()
    local log = errors.failure_log()
    log:add { kind = "frame", frame = "f2", message = "bridge injection failed" }
    log:add { kind = "auth", message = "auth/a.json: cannot open" }
    local fatal, warnings = errors.decide(log:drain())
    assert.is_nil(fatal)
    assert.same({ "frame (frame f2): bridge injection failed", "auth: auth/a.json: cannot open" }, { warnings[1], warnings[2] })
    assert.equal("\n⚠️ Warnings (non-critical):\n- frame (frame f2): bridge injection failed\n- auth: auth/a.json: cannot open",
      errors.warnings_text(warnings))
    assert.same({}, log:drain())
    log:add { kind = "frame", frame = "main", critical = true, message = "main frame detached" }
    fatal = errors.decide(log:drain())
    assert.equal("FrameDetached", fatal.type)
    assert.equal("", errors.warnings_text({}))
  end)
end)
