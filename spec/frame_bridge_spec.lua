-- frame_bridge_spec.lua: when an out-of-process frame's document gets the
-- bridge (src/page/frames.c).  By default ("deferred") it gets it once it
-- has loaded, so the bundle's start-up is not part of the page's load;
-- refs in the frame work right after navigate all the same, also after
-- the frame navigates by itself.  page:frame_bridge("eager") gives it at
-- the document's start, as before.
local vdx = require "vdx"
local h = require "helpers"

describe("an out-of-process frame's bridge, and raw sessions:", function()
  local browser, srv, page, base

  setup(function() srv, browser, page, base = h.open_sites() end)
  teardown(function() h.shut(browser, srv) end)

  -- The events of the child sessions, in the order they came:
  -- "load" (Page.loadEventFired) and "vdx" (the vdx world of a b.test
  -- document made).  Starts a fresh page; returns it, the list and
  -- until(what), which returns once an event of that kind has come (a
  -- sleeping task the handler cancels; 30 s at most, a bound only against a hang).
  local function watched(mode)
    local p = browser:new_context():new_page()
    if mode then assert.equal(mode, p:frame_bridge(mode)) end
    local seen, want, sleeper = {}, nil, nil
    local function note(what)
      seen[#seen + 1] = what
      if what == want and sleeper then sleeper:cancel() end
    end
    p:on("*", function(method, params)
      if method == "Page.loadEventFired" then
        note("load")
      elseif method == "Runtime.executionContextCreated" and params.context.name == "vdx"
          and params.context.origin:match("^http://b%.test:") then
        note("vdx")
      end
    end, { sessions = "children" })
    local function has(what)
      for _, s in ipairs(seen) do if s == what then return true end end
      return false
    end
    local function until_seen(what)
      vdx.sleep(0)              -- the handlers of events already in run first
      if has(what) then return end
      want, sleeper = what, vdx.spawn(vdx.sleep, 30000)
      pcall(vdx.wait, sleeper)
      want, sleeper = nil, nil
      if not has(what) then error("no " .. what .. " event in 30 s: " .. table.concat(seen, " ")) end
    end
    return p, seen, until_seen
  end

  local function value(p, js)
    return p:send("Runtime.evaluate", { expression = js, returnByValue = true }, { frame = "f1" }).result.value
  end

  it("the bridge comes after the frame's document has loaded, not at its start", function()
    local p, seen, until_seen = watched()
    assert.equal("deferred", p:frame_bridge())
    p:navigate(base .. "/frames/xo-main.html")
    until_seen("vdx")
    assert.equal("load", seen[1], table.concat(seen, " "))
    p:close()
  end)

  it("the bridge comes at the document's start with page:frame_bridge(\"eager\")", function()
    local p, seen, until_seen = watched("eager")
    p:navigate(base .. "/frames/xo-main.html")
    until_seen("load")
    assert.equal("vdx", seen[1], table.concat(seen, " "))
    p:close()
  end)

  it("the frame answers a call and gives refs right after navigate, and after the frame navigates itself", function()
    local p, seen, until_seen = watched()
    p:navigate(base .. "/frames/xo-main.html")
    -- A call before any snapshot waits for the frame's bridge.
    assert.matches("^http://b%.test:%d+/frames/xo%-child%.html$",
      p:bridge("pageInfo", {}, { frame = "f1" }).url)
    p:navigate(base .. "/frames/xo-main.html")
    local snap = p:snapshot()
    assert.matches('%- iframe "Payment" %[ref=e1%]:\n  %- textbox "Card number" %[ref=f1e1%]\n  %- button "Pay now" %[ref=f1e2%]',
      snap.text)
    p:type("f1e1", "4242")
    assert.equal("4242", value(p, "document.querySelector('input').value"))
    -- The form's submit loads a new document in the frame's own process:
    -- no bridge script is registered there, it gets the bundle when asked.
    for k in pairs(seen) do seen[k] = nil end
    p:click("f1e2")
    until_seen("load")
    assert.matches("card=4242", value(p, "location.href"))
    snap = p:snapshot()
    assert.matches('  %- textbox "Card number" %[ref=f1e1%]\n  %- button "Pay now" %[ref=f1e2%]', snap.text)
    p:type("f1e1", "99")
    assert.equal("99", value(p, "document.querySelector('input').value"))
    p:close()
  end)

  it("browser:send and browser:on reach a session the caller attached itself", function()
    -- The bench's raw floor (bench/frames_nav.lua): a page vdx sets nothing up on.
    local target = browser:send("Target.createTarget", { url = "about:blank" }).targetId
    local sid = browser:send("Target.attachToTarget", { targetId = target, flatten = true }).sessionId
    local loaded, sleeper = 0, nil
    browser:on("Page.loadEventFired", function()
      loaded = loaded + 1
      if sleeper then sleeper:cancel() end
    end, { session = sid })
    browser:send("Page.enable", {}, { session = sid })
    sleeper = vdx.spawn(vdx.sleep, 10000)
    browser:send("Page.navigate", { url = base .. "/frames/xo-child.html" }, { session = sid })
    assert.is_false(pcall(vdx.wait, sleeper), "no load event in 10 s")
    assert.equal(1, loaded)
    local r = browser:send("Runtime.evaluate", { expression = "document.title + typeof __vdxBridge",
      returnByValue = true }, { session = sid })
    assert.equal("Payment formundefined", r.result.value)
    local e = h.error_of(browser.send, browser, "Runtime.evaluate", {}, { sesion = sid })
    assert.is_true(vdx.is_error(e, "InvalidArgument"), tostring(e))
    browser:send("Target.closeTarget", { targetId = target })
  end)

  it("page:frame_bridge refuses a mode it does not know, naming both", function()
    local e = h.error_of(page.frame_bridge, page, "lazy")
    assert.is_true(vdx.is_error(e, "InvalidArgument"), tostring(e))
    assert.equal('page:frame_bridge: mode must be "deferred" or "eager"; got lazy', e.message)
  end)
end)
