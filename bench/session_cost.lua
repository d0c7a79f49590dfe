--- bench/session_cost.lua: what each piece of the set-up vdx gives a
-- page's session costs that page's navigate.  Raw pages (their own context
-- and target, a flattened session through browser:send, Page.enable,
-- out-of-process frames only resumed) each with one more piece of what
-- src/page/page.c and src/page/frames.c send: Runtime.enable, a script in
-- an isolated world "vdx" at every document's start
-- (Page.addScriptToEvaluateOnNewDocument: an empty one, then the bridge's
-- bundle), the binding the load report comes through, lifecycle events,
-- Network.enable; then all of them, and a vdx page.  Navigated in turn
-- round by round; per navigate the wall time until Page.loadEventFired and
-- the page's renderer main thread CPU (Performance.getMetrics ThreadTime,
-- which counts every frame of that process), median / p95, and their
-- ratios to the bare page.
--
-- Usage: build/vdxlua bench/session_cost.lua [ROUNDS] [PAGE]
-- (ROUNDS 25, PAGE frames.html: eleven documents a navigate).
package.path = "bench/?.lua;" .. package.path
local vdx = require "vdx"
local fx = require "fixtures"
local lib = require "lib"

local ROUNDS = tonumber(arg[1] or "") or 25
local PAGE = arg[2] or "frames.html"
local TIMEOUT = 30000

local srv, base = fx.serve(vdx)
local url = fx.url(base, PAGE)
local f = assert(io.open("bridge/dist/vdx-bridge.js", "rb"))
local BUNDLE = f:read("a")
f:close()
local browser, close = lib.launch { args = { fx.RESOLVER } }

-- A raw page (lib.raw_page) with the pieces in `with`; returns
-- navigate() -> wall ms, renderer main thread CPU ms.
local function raw_page(with)
  local raw = lib.raw_page(browser, nil, TIMEOUT)
  local send = raw.send
  send("Performance.enable", { timeDomain = "threadTicks" })
  if with.runtime then send("Runtime.enable") end
  if with.script then send("Page.addScriptToEvaluateOnNewDocument", { source = with.script, worldName = "vdx" }) end
  if with.binding then send("Runtime.addBinding", { name = "__vdxLoaded", executionContextName = "vdx" }) end
  send("Target.setAutoAttach", { autoAttach = true, waitForDebuggerOnStart = true, flatten = true })
  if with.lifecycle then send("Page.setLifecycleEventsEnabled", { enabled = true }) end
  if with.network then send("Network.enable") end
  local function thread_ms()
    for _, m in ipairs(send("Performance.getMetrics").metrics) do
      if m.name == "ThreadTime" then return m.value * 1000 end
    end
  end
  return function()
    local c0 = thread_ms()
    local ms = raw.navigate(url)
    return ms, thread_ms() - c0
  end
end

local ALL = { runtime = true, script = BUNDLE, binding = true, lifecycle = true, network = true }
local rows = {
  { "bare (Page.enable)", {} },
  { "+ Runtime.enable", { runtime = true } },
  { "+ an empty vdx world", { script = "0" } },
  { "+ both", { runtime = true, script = "0" } },
  { "+ the bundle in the world", { script = BUNDLE } },
  { "+ Runtime.enable, the bundle", { runtime = true, script = BUNDLE } },
  { "+ Network.enable", { network = true } },
  { "+ lifecycle events", { lifecycle = true } },
  { "all of vdx's session set-up", ALL },
}
for i, r in ipairs(rows) do rows[i] = { name = r[1], nav = raw_page(r[2]), wall = {}, cpu = {} } end
local page = browser:new_context():new_page()
rows[#rows + 1] = { name = "vdx page:navigate", wall = {}, cpu = {}, nav = function()
  local c0, t0 = lib.thread_ms(page), lib.ms()
  page:navigate(url, { timeout_ms = TIMEOUT })
  return lib.ms() - t0, lib.thread_ms(page) - c0
end }

for _, r in ipairs(rows) do r.nav() end
for i = 1, ROUNDS do
  for k = 0, #rows - 1 do
    local r = rows[(i + k) % #rows + 1]
    r.wall[i], r.cpu[i] = r.nav()
  end
end

local m = lib.machine()
print(("session_cost: %s, %d rounds, load %s, %s"):format(PAGE, ROUNDS, m.load1, os.date("!%Y-%m-%dT%H:%M:%SZ")))
local w0, c0 = lib.stats(rows[1].wall), lib.stats(rows[1].cpu)
for _, r in ipairs(rows) do
  local w, c = lib.stats(r.wall), lib.stats(r.cpu)
  print(("  %-32s navigate %7.1f / %7.1f ms (%.2fx)   renderer CPU %6.1f / %6.1f ms (%.2fx)")
    :format(r.name, w.median, w.p95, w.median / w0.median, c.median, c.p95, c.median / c0.median))
end
close()
srv:close()
