--- examples/embed_work.lua: what the three host-loop examples
-- (embed_luv.lua, embed_cqueues.lua, embed_copas.lua) have in common, so
-- each of them shows only how its host is wired: the two pages they open
-- at once, and the bookkeeping of the host's own timer.
local work = {}

--- The pages each example opens at the same time, each in its own
-- context (two roles of the marketplace demo).
work.PATHS = { "/provider/login", "/admin/login" }

--- The period of the host's own timer, in seconds: 50 ms, or
-- EMBED_TICK_MS milliseconds from the environment.
work.PERIOD = (tonumber(os.getenv("EMBED_TICK_MS")) or 50) / 1000

--- Opens app.url .. path in a new context of browser, snapshots it and
-- returns one line: the path, the page's title and its first heading as
-- the snapshot shows it.
function work.visit(browser, app, path)
  local page = browser:new_context():new_page()
  local nav = page:navigate(app.url .. path)
  local heading = page:snapshot().text:match('heading "([^"]*)"')
  page:close()
  return ("%s: %s | %s"):format(path, nav.title, tostring(heading))
end

--- Launches a browser and opens every page of PATHS at once, each in a
-- coroutine of the host started with spawn(fn) (the host's own way:
-- coroutine.wrap, cq:wrap, copas.addthread).  Call it from a coroutine of
-- the host.  When all are loaded, calls done(browser, lines) in the last
-- one, with lines in the order of PATHS.
function work.open_pages(app, spawn, done)
  local browser = require("vdx").launch { args = app.browser_args }
  local lines, left = {}, #work.PATHS
  for i, path in ipairs(work.PATHS) do
    spawn(function()
      lines[i] = work.visit(browser, app, path)
      left = left - 1
      if left == 0 then done(browser, lines) end
    end)
  end
end

--- The host's timer, counted against its deadlines: one every PERIOD
-- from now().  A host calls tick() each time its timer fires and re-arms
-- the timer with the delay tick() returns (to the next deadline still
-- ahead, so a late tick does not push the later ones back); report()
-- returns "host timer: K of E ticks" (E: the deadlines passed so far).
function work.ticker(now)
  local t = { start = now(), kept = 0 }
  local due = t.start + work.PERIOD
  function t.tick()
    local at = now()
    if at >= due - 0.001 then  -- a timer that fires early is not a tick
      t.kept = t.kept + 1
      repeat due = due + work.PERIOD until due > at
    end
    return math.max(0, due - at)
  end
  function t.report()
    local expected = math.floor((now() - t.start) / work.PERIOD)
    return ("host timer: %d of %d ticks"):format(t.kept, expected)
  end
  return t
end

return work
