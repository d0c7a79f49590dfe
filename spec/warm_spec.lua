-- The bridge's idle warm-up (bridge/src/warm.js) walks a new document
-- only after its load event: before it, the walk would cost a loop of
-- navigate + snapshot a whole walk of CPU per document for nothing (the
-- snapshot right after load runs as cold either way).  The page holds its
-- load on an image the test releases; a CPU profile of the renderer shows
-- whether the snapshot walk's functions ran.
local vdx = require "vdx"
local h = require "helpers"

-- The bundle's walk: a sample in any of these is the warm-up walking
-- (no real snapshot is asked for before the last check).
local WALK = { visitElement = true, visitChild = true, visitChildren = true, snapshotOnce = true }

local function page_html()
  local parts = { "<title>Warm</title><img src='/hold.png' alt='held'>" }
  for i = 1, 300 do
    parts[#parts + 1] = ("<section><h2>Part %d</h2><p>Text %d <a href='#%d'>link %d</a></p>" ..
      "<button>Buy %d</button></section>"):format(i, i, i, i, i)
  end
  return table.concat(parts)
end

-- Samples of the walk's functions in a profile.
local function walk_samples(profile)
  local fn, n = {}, 0
  for _, node in ipairs(profile.nodes) do fn[node.id] = node.callFrame.functionName end
  for _, id in ipairs(profile.samples or {}) do
    if WALK[fn[id]] then n = n + 1 end
  end
  return n
end

describe("the bridge's warm-up", function()
  local srv, browser, page
  local held          -- the task the image's answer waits on
  local waiter = {}   -- event name -> the task asleep until it comes
  setup(function()
    srv, browser, page = h.open {
      ["GET /"] = function() return { status = 200, headers = { ["content-type"] = "text/html" }, body = page_html() } end,
      ["GET /hold.png"] = function()
        held = vdx.spawn(vdx.sleep, 60000)
        pcall(vdx.wait, held)
        return { status = 404, body = "" }
      end,
    }
    for _, ev in ipairs { "Page.domContentEventFired", "Page.loadEventFired" } do
      page:on(ev, function()
        waiter[ev .. ".seen"] = true
        if waiter[ev] then waiter[ev]:cancel() end
      end)
    end
  end)
  teardown(function()
    if held then held:cancel() end
    h.shut(browser, srv)
  end)

  -- Waits for event (no polling: the listener cancels the sleep).
  local function await(ev)
    if waiter[ev .. ".seen"] then return end
    waiter[ev] = vdx.spawn(vdx.sleep, 30000)
    local slept = pcall(vdx.wait, waiter[ev])
    waiter[ev] = nil
    assert(not slept, "no " .. ev .. " in 30 s")
  end

  it("does not walk the document before its load event, and does after it", function()
    page:send("Profiler.enable", {})
    page:send("Profiler.setSamplingInterval", { interval = 100 })
    page:send("Profiler.start", {})
    page:send("Page.navigate", { url = srv.url .. "/" })
    await("Page.domContentEventFired")
    -- Idle time between the parse and the load: the old warm-up's first
    -- two pieces ran here (from DOMContentLoaded on).
    vdx.sleep(1500)
    assert.is_nil(waiter["Page.loadEventFired.seen"], "the load was held")
    local before = walk_samples(page:send("Profiler.stop", {}).profile)
    assert.are.equal(0, before)

    page:send("Profiler.start", {})
    held:cancel()
    await("Page.loadEventFired")
    -- The warm-up starts 250 ms after load, in idle callbacks (the first
    -- forced after at most 2 s): a generous bound, not a timing.
    vdx.sleep(4000)
    local after = walk_samples(page:send("Profiler.stop", {}).profile)
    assert.is_true(after > 0, "the warm-up walked the page after its load")

    -- The page is the agent's as before.
    assert.truthy(page:snapshot().text:find('button "Buy 300"', 1, true))
  end)
end)
