--- bench/cycle_ab.lua: two builds of bridge/dist/vdx-bridge.js in the
-- navigate + snapshot loop of `make bench-scale`, side by side in one
-- browser.  Each build gets a page of its own (its own context), on which
-- the compiled-in bundle's new-document script is replaced by that build's
-- (the same world name, so page:navigate and page:snapshot use it as
-- theirs).  Cycles alternate build by build, one at a time, and each
-- cycle's CPU is read: the renderer main thread's (Performance.getMetrics
-- ThreadTime), the whole browser tree's and this host's (/proc).  What one build costs every document (its
-- evaluation, idle-time work such as the warm-up, the first snapshot in a
-- fresh world) shows as the ratio of the two, which holds on a loaded
-- machine where wall times do not.
--
-- Usage: build/vdxlua bench/cycle_ab.lua A.js B.js [REPS] [PAGE] [GAP_MS]
-- (REPS 20, PAGE shop.html; GAP_MS: a pause between navigate and snapshot,
-- as an agent thinks, default 0).  Prints per build the mean CPU per cycle
-- and the median wall time, and B/A.
package.path = "bench/?.lua;" .. package.path
local vdx = require "vdx"
local lib = require "lib"
local fx = require "fixtures"

local A, B = arg[1], arg[2]
if not A or not B then
  io.stderr:write("usage: vdxlua bench/cycle_ab.lua A.js B.js [REPS] [PAGE] [GAP_MS]\n")
  os.exit(2)
end
local REPS = tonumber(arg[3] or "") or 20
local PAGE = arg[4] or "shop.html"
local GAP = tonumber(arg[5] or "") or 0

local function read(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("a")
  f:close()
  return s
end

local srv, base = fx.serve(vdx)
local URL = base["local"] .. "/" .. PAGE
local browser, close = lib.launch { headless = true, args = { fx.RESOLVER } }

local cpu_ms = lib.cpu_ms

-- A page whose documents get the bundle at path instead of the built-in
-- one: every script registered on its session before ours is removed.
local function page_with(path)
  local page = browser:new_context():new_page()
  local mine = page:send("Page.addScriptToEvaluateOnNewDocument", { source = "" }).identifier
  for id = 1, tonumber(mine) do
    page:send("Page.removeScriptToEvaluateOnNewDocument", { identifier = tostring(id) })
  end
  page:send("Page.addScriptToEvaluateOnNewDocument", { source = read(path), worldName = "vdx" })
  return page
end

local builds = { { name = "A", path = A }, { name = "B", path = B } }
for _, b in ipairs(builds) do
  b.page = page_with(b.path)
  b.page:navigate(URL)
  b.page:snapshot()
  b.page:navigate(URL)
  b.page:snapshot()
  b.tree, b.host, b.snap_cpu, b.cycle_cpu, b.wall, b.chars = {}, {}, {}, {}, {}, nil
end
local pids = lib.group_pids(browser:pid())
local function tree_ms()
  local t = 0
  for _, pid in ipairs(pids) do t = t + cpu_ms(pid) end
  return t
end

for i = 1, REPS do
  for k = 0, 1 do
    local b = builds[(i + k) % 2 + 1]
    local r0 = lib.thread_ms(b.page)
    local t0, tree0, host0 = lib.ms(), tree_ms(), cpu_ms("self")
    b.page:navigate(URL)
    if GAP > 0 then vdx.sleep(GAP) end
    local c0 = lib.thread_ms(b.page)
    b.chars = #b.page:snapshot().text
    local c1 = lib.thread_ms(b.page)
    local host1 = cpu_ms("self")
    local tree1 = tree_ms()
    b.wall[i], b.snap_cpu[i], b.cycle_cpu[i] = lib.ms() - t0, c1 - c0, c1 - r0
    b.host[i], b.tree[i] = host1 - host0, tree1 - tree0
  end
end

local function mean(xs) local s = 0 for _, x in ipairs(xs) do s = s + x end return s / #xs end
local m = lib.machine()
print(("navigate + snapshot of %s, %d cycles each, gap %d ms, load %.2f %.2f %.2f"):format(PAGE, REPS, GAP,
  m.load1, m.load5, m.load15))
for _, b in ipairs(builds) do
  local s, c, w = lib.stats(b.snap_cpu), lib.stats(b.cycle_cpu), lib.stats(b.wall)
  print(("  %s %-32s renderer CPU per cycle %5.1f / %5.1f ms, of it the snapshot %5.1f / %5.1f; browser tree %6.1f ms/cycle (mean); host %4.1f; wall %5.0f / %5.0f ms; %d chars")
    :format(b.name, b.path:sub(-32), c.median, c.p95, s.median, s.p95, mean(b.tree), mean(b.host), w.median, w.p95, b.chars))
end
local a, b = builds[1], builds[2]
print(("  B/A: renderer CPU per cycle %.2f (medians), snapshot renderer CPU %.2f (medians), browser tree CPU %.2f (means), wall %.2f (medians)")
  :format(lib.stats(b.cycle_cpu).median / lib.stats(a.cycle_cpu).median,
    lib.stats(b.snap_cpu).median / lib.stats(a.snap_cpu).median, mean(b.tree) / mean(a.tree),
    lib.stats(b.wall).median / lib.stats(a.wall).median))
close()
srv:close()
