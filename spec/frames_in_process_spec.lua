-- frames_in_process_spec.lua: a cross-origin frame as the headless shell
-- runs it by default (vdx.launch adds no --site-per-process): in the
-- page's own renderer, as under Playwright's headless runs.  The frame is
-- read, acted on and located as an out-of-process one is (snapshot_spec
-- and frame_bridge_spec cover that), and what the page is told about its
-- device reaches it with no session of its own to tell.
local vdx = require "vdx"
local h = require "helpers"

describe("a cross-origin frame in the page's process (the headless default)", function()
  local browser, srv, page, base

  -- A page of two frames, one cross-origin, whose load event comes well
  -- after they attached (its image takes 400 ms).
  local cross
  setup(function()
    srv, browser, page, base = h.open_sites({
      ["GET /tagged.html"] = function()
        return ([[<!doctype html><title>Tagged</title><main>
<iframe title="Payment" src="%s/frames/xo-child.html"></iframe>
<iframe title="Local" srcdoc="<button>Here</button>"></iframe><img src="/slow.png" alt=""></main>]]):format(cross)
      end,
      ["GET /slow.png"] = function()
        vdx.sleep(400)
        return { status = 204 }
      end,
    }, true)
    cross = base:gsub("a%.test", "b.test")
  end)
  teardown(function() h.shut(browser, srv) end)

  it("has no session of its own, and is read, acted on and located like any frame", function()
    page:navigate(base .. "/frames/xo-main.html")
    local snap = page:snapshot()
    assert.matches('%- iframe "Payment" %[ref=e1%]:\n  %- textbox "Card number" %[ref=f1e1%]\n  %- button "Pay now" %[ref=f1e2%]', snap.text)
    local frame
    for _, f in ipairs(page:frames()) do if f.frame == "f1" then frame = f end end
    assert.is_table(frame)
    assert.is_falsy(frame.out_of_process)
    -- No target of its own in the browser either.
    local kinds = {}
    for _, t in ipairs(browser:send("Target.getTargets", {}).targetInfos) do kinds[t.type] = true end
    assert.is_nil(kinds.iframe)
    page:type("f1e1", "4242")
    assert.equal("4242", page:bridge("evaluateOn", { "f1e1", "(el) => el.value", {} }, { frame = "f1" }))
    local loc = page:generate_locator("f1e2")
    assert.equal("getByTitle('Payment').contentFrame().getByRole('button', { name: 'Pay now' })", loc.locator)
  end)

  it("has its frames tagged in their parents while the page loads, before any snapshot", function()
    -- Each iframe's owner element gets the frame's key in its parent's
    -- bridge as the frame attaches (src/page/snapshot.c), so a first
    -- snapshot right after navigate need not make three round trips per
    -- frame first.  The main frame's bridge alone, asked for its snapshot
    -- with no tagging at all, shows where each frame goes: "f1", not "?"
    -- (an untagged owner).
    page:navigate(base .. "/tagged.html")
    local r = page:bridge("snapshot", { {} })
    local keys = {}
    for key in r.text:gmatch("\1frame:([^\n]*)") do keys[#keys + 1] = key end
    table.sort(keys)
    assert.same({ "f1", "f2" }, keys)
    local snap = page:snapshot()
    assert.matches('iframe "Payment" %[ref=e%d+%]:\n    %- textbox "Card number" %[ref=f%de1%]', snap.text)
    assert.matches('iframe "Local" %[ref=e%d+%]:\n    %- button "Here" %[ref=f%de1%]', snap.text)
  end)

  it("sees the page's emulation", function()
    page:navigate(base .. "/frames/xo-main.html")
    page:snapshot()
    page:emulate { color_scheme = "dark" }
    assert.is_true(page:bridge("evaluateOn", { "f1e1",
      "() => matchMedia('(prefers-color-scheme: dark)').matches", {} }, { frame = "f1" }))
    page:emulate { color_scheme = "light" }
    assert.is_false(page:bridge("evaluateOn", { "f1e1",
      "() => matchMedia('(prefers-color-scheme: dark)').matches", {} }, { frame = "f1" }))
  end)
end)
