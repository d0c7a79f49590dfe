--- bench/walk_cpu.lua: the bridge's snapshot walk alone, in the page: its
-- time by the page's clock and the renderer main thread's CPU time
-- (Performance.getMetrics ThreadTime) per call, then the same for a whole
-- page:snapshot (which adds the reply's transfer and the host's part).  On
-- a shared machine the CPU time moves far less than the wall time, so it
-- is what to compare between two builds.  With PROF=1 it also takes a CDP
-- CPU profile (Profiler.start/stop) of PROFN more walks and prints the
-- functions by self and by inclusive share and the hottest lines of the
-- bundle.
--
-- Usage: build/vdxlua bench/walk_cpu.lua [PAGE] [REPS] [OPTS]
--        PAGE: elements-100000.html; REPS: 7; OPTS: the bridge's snapshot
--        options as JSON ({} whole; {"maxChars":32000} the default budget)
package.path = "bench/?.lua;" .. package.path
local vdx = require "vdx"
local cjson = require "cjson"
local fx = require "fixtures"
local lib = require "lib"

local PAGE = arg[1] or "elements-100000.html"
local REPS = tonumber(arg[2] or "") or 7
local OPTS = cjson.decode(arg[3] or "{}")

local srv, base = fx.serve(vdx)
local browser, close = lib.launch { headless = true }
local page = browser:new_page()
page:navigate(base["local"] .. "/" .. PAGE)
local function thread_ms() return lib.thread_ms(page) end

-- A ref to run the walk from (evaluateOn runs in the bridge's world).
local ref = page:snapshot({ budget_tokens = 100 }).text:match("%[ref=(e%d+)%]")
assert(ref, PAGE .. " has no ref to run the walk from")
local WALK = [[(el, opts) => { const b = globalThis.__vdxBridge.instance('');
  const t = performance.now(); const r = b.snapshot(opts); return [performance.now() - t, r.text.length]; }]]
local function walk() return page:bridge("evaluateOn", { ref, WALK, { OPTS } }) end

walk()
local clock, cpu, chars = {}, {}, 0
for i = 1, REPS do
  local c0 = thread_ms()
  local r = walk()
  cpu[i], clock[i], chars = thread_ms() - c0, r[1], r[2]
end
local budget = OPTS.maxChars and OPTS.maxChars // 4 or 100000000
local whole, whole_cpu, host = {}, {}, {}
for i = 1, REPS do
  local c0, t0, h0 = thread_ms(), lib.ms(), os.clock()
  page:snapshot { budget_tokens = budget }
  host[i], whole[i], whole_cpu[i] = (os.clock() - h0) * 1000, lib.ms() - t0, thread_ms() - c0
end

local m = lib.machine()
print(("%s, options %s, %d reps, %d chars, load %.2f %.2f %.2f"):format(PAGE, cjson.encode(OPTS), REPS,
  chars, m.load1, m.load5, m.load15))
local function line(name, wall, thread)
  local w, c = lib.stats(wall), lib.stats(thread)
  print(("  %-14s wall median %8.1f p95 %8.1f min %8.1f | main-thread CPU median %8.1f min %8.1f ms")
    :format(name, w.median, w.p95, w.min, c.median, c.min))
end
line("walk", clock, cpu)
line("page:snapshot", whole, whole_cpu)
print(("  host CPU per page:snapshot: median %.1f ms"):format(lib.stats(host).median))

if os.getenv("PROF") == "1" then
  page:send("Profiler.enable", {})
  page:send("Profiler.setSamplingInterval", { interval = 100 })
  page:send("Profiler.start", {})
  for _ = 1, tonumber(os.getenv("PROFN") or "") or 3 do walk() end
  local prof = page:send("Profiler.stop", {}).profile
  local node, parent, hits, total = {}, {}, {}, 0
  for _, n in ipairs(prof.nodes) do
    node[n.id] = n
    for _, c in ipairs(n.children or {}) do parent[c] = n.id end
  end
  for _, id in ipairs(prof.samples) do hits[id] = (hits[id] or 0) + 1; total = total + 1 end
  local function key(id)
    local f = node[id].callFrame
    return (f.functionName ~= "" and f.functionName or "(anonymous)") .. ":" .. f.lineNumber
  end
  local self, incl, lines = {}, {}, {}
  for id, c in pairs(hits) do
    self[key(id)] = (self[key(id)] or 0) + c
    local seen, x = {}, id
    while x do
      local k = key(x)
      if not seen[k] then seen[k] = true; incl[k] = (incl[k] or 0) + c end
      x = parent[x]
    end
  end
  for _, n in ipairs(prof.nodes) do
    for _, t in ipairs(n.positionTicks or {}) do lines[t.line] = (lines[t.line] or 0) + t.ticks end
  end
  local src = {}
  for l in io.lines("bridge/dist/vdx-bridge.js") do src[#src + 1] = l end
  local function top(title, t, label)
    local ks = {}
    for k in pairs(t) do ks[#ks + 1] = k end
    table.sort(ks, function(a, b) return t[a] > t[b] end)
    print("-- " .. title)
    for i = 1, math.min(30, #ks) do print(("%5.1f%%  %s"):format(100 * t[ks[i]] / total, label(ks[i]))) end
  end
  top("self", self, tostring)
  top("inclusive", incl, tostring)
  top("lines of bridge/dist/vdx-bridge.js", lines, function(l)
    return ("%5d %s"):format(l, (src[l] or "?"):gsub("^%s+", ""):sub(1, 100))
  end)
end
close()
srv:close()
