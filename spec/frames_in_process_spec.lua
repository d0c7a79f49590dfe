-- frames_in_process_spec.lua: a cross-origin frame as the headless shell
-- runs it by default (vdx.launch adds no --site-per-process): in the
-- page's own renderer, as under Playwright's headless runs.  The frame is
-- read, acted on and located as an out-of-process one is (snapshot_spec
-- and frame_bridge_spec cover that), and what the page is told about its
-- device reaches it with no session of its own to tell.
local h = require "helpers"

describe("a cross-origin frame in the page's process (the headless default)", function()
  local browser, srv, page, base

  setup(function() srv, browser, page, base = h.open_sites(nil, true) end)
  teardown(function() h.shut(browser, srv) end)

  it("has no session of its own, and is read, acted on and located like any frame", function()
    page:navigate(base .. "/frames/xo-main.html")
    local snap = page:snapshot()
    assert.matches('%- iframe "Payment" %[ref=e1%]:\n  %- textbox "Card number" %[ref=f1_e1%]\n  %- button "Pay now" %[ref=f1_e2%]', snap.text)
    local frame
    for _, f in ipairs(page:frames()) do if f.frame == "f1" then frame = f end end
    assert.is_table(frame)
    assert.is_falsy(frame.out_of_process)
    -- No target of its own in the browser either.
    local kinds = {}
    for _, t in ipairs(browser:send("Target.getTargets", {}).targetInfos) do kinds[t.type] = true end
    assert.is_nil(kinds.iframe)
    page:type("f1_e1", "4242")
    assert.equal("4242", page:bridge("evaluateOn", { "f1_e1", "(el) => el.value", {} }, { frame = "f1" }))
    local loc = page:generate_locator("f1_e2")
    assert.equal("getByTitle('Payment').contentFrame().getByRole('button', { name: 'Pay now' })", loc.locator)
  end)

  it("sees the page's emulation", function()
    page:navigate(base .. "/frames/xo-main.html")
    page:snapshot()
    page:emulate { color_scheme = "dark" }
    assert.is_true(page:bridge("evaluateOn", { "f1_e1",
      "() => matchMedia('(prefers-color-scheme: dark)').matches", {} }, { frame = "f1" }))
    page:emulate { color_scheme = "light" }
    assert.is_false(page:bridge("evaluateOn", { "f1_e1",
      "() => matchMedia('(prefers-color-scheme: dark)').matches", {} }, { frame = "f1" }))
  end)
end)
