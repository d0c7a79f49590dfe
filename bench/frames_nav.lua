--- bench/frames_nav.lua: the frames page's two cells, navigate and the
-- first snapshot right after it, against a raw CDP page in the same run.
--
-- Each round, in an order that alternates: page:navigate(url) then
-- page:snapshot() twice (the first one right after the navigate, the second
-- a same-document one), and the raw floor: a page vdx sets nothing up on
-- (its own target and flattened session, attached with browser:send), on
-- which Page.navigate is timed until Page.loadEventFired, every
-- out-of-process frame auto-attached paused and only resumed, no bridge;
-- then Accessibility.getFullAXTree on it, the tree a CDP client reads
-- (its main frame only), as the first snapshot's reference.
--
-- The browser is started with --site-per-process, so the cross-origin
-- frames are out of process.  With SITE=1 a second pair runs beside the
-- first in a browser started without it, as vdx.launch starts the
-- headless shell: the cross-origin frames stay in the page's process, no
-- child sessions (bench/site_isolation.lua compares the two loads alone).
--
-- Prints median and p95 of each cell and the ratios to the raw floor of the
-- same browser.  Usage: build/vdxlua bench/frames_nav.lua [REPS] [PAGE]
-- (REPS 15, PAGE frames.html).
package.path = "bench/?.lua;" .. package.path
local vdx = require "vdx"
local fx = require "fixtures"
local lib = require "lib"

local REPS = tonumber(arg[1] or "") or 15
local PAGE = arg[2] or "frames.html"
local SITE = os.getenv("SITE") == "1"
local TIMEOUT = 60000

local srv, base = fx.serve(vdx)

--- CPU milliseconds used so far by process group pgid (a launched
-- browser's tree: utime + stime of each live process, /proc ticks of
-- 10 ms) plus this process's own.  On a loaded machine wall times swing
-- with the neighbours; the CPU a navigate costs does not.
local function group_cpu(pgid)
  local total = 0
  local p = io.popen("cat /proc/[0-9]*/stat 2>/dev/null")
  for line in p:lines() do
    local rest = line:match("%) (.*)$")
    if rest then
      local f = {}
      for w in rest:gmatch("%S+") do f[#f + 1] = w end
      -- after the name: state ppid pgrp session tty tpgid flags minflt
      -- cminflt majflt cmajflt utime stime
      if tonumber(f[3]) == pgid then total = total + tonumber(f[12]) + tonumber(f[13]) end
    end
  end
  p:close()
  return total * 10 + os.clock() * 1000
end
local url = fx.url(base, PAGE)

--- A raw page on browser (lib.raw_page) with auto-attach (paused, then
-- only resumed).  Returns navigate(url) (ms until load, and the browser
-- tree's CPU) and axtree() (ms of a full AX tree read).
local function raw_page(browser, bridge)
  local pgid = browser:pid()
  local raw
  -- bridge: the bundle added for new documents in a "vdx" world of the
  -- session ("main": the page's session only, "all": each child's too).
  local function add_bridge(session)
    raw.send("Page.enable", {}, session)
    raw.send("Runtime.enable", {}, session)
    if bridge.source then
      raw.send("Page.addScriptToEvaluateOnNewDocument", { source = bridge.source, worldName = "vdx" }, session)
    end
  end
  -- Each child is resumed at once; a child's own children likewise.
  local function attached(p)
    browser:on("Target.attachedToTarget", attached, { session = p.sessionId })
    if bridge and bridge.all then add_bridge(p.sessionId) end
    raw.send("Target.setAutoAttach", { autoAttach = true, waitForDebuggerOnStart = true, flatten = true },
      p.sessionId)
    browser:send("Runtime.runIfWaitingForDebugger", {}, { session = p.sessionId })
  end
  raw = lib.raw_page(browser, attached, TIMEOUT)
  if bridge then add_bridge(raw.sid) end
  raw.send("Target.setAutoAttach", { autoAttach = true, waitForDebuggerOnStart = true, flatten = true })
  local r = {}
  function r.navigate(u)
    local c0 = group_cpu(pgid)
    local ms = raw.navigate(u)
    return ms, group_cpu(pgid) - c0
  end
  function r.axtree()
    local t0 = lib.ms()
    raw.send("Accessibility.getFullAXTree", {})
    return lib.ms() - t0
  end
  return r
end

--- A vdx page on browser: navigate, then the first and a second snapshot.
local function vdx_page(browser, mode)
  local pgid = browser:pid()
  local page = browser:new_context():new_page()
  if mode then page:frame_bridge(mode) end
  local r = {}
  function r.navigate(u)
    local c0 = group_cpu(pgid)
    local t0 = lib.ms()
    page:navigate(u, { timeout_ms = TIMEOUT })
    local ms = lib.ms() - t0
    return ms, group_cpu(pgid) - c0
  end
  function r.snapshot()
    local c0 = group_cpu(pgid)
    local t0 = lib.ms()
    local s = page:snapshot { timeout_ms = TIMEOUT }
    local ms = lib.ms() - t0
    return ms, group_cpu(pgid) - c0, s
  end
  r.page = page
  return r
end

-- The cells are of out-of-process frames: the headless shell keeps
-- cross-origin frames in the page's renderer unless told otherwise.
local SETUPS = { { name = "out of process (--site-per-process)", args = { fx.RESOLVER, "--site-per-process" } } }
if SITE then
  SETUPS[2] = { name = "in process (vdx.launch's default)", args = { fx.RESOLVER } }
end
-- RAW_BRIDGE=1 adds two raw pages that carry the bundle as vdx registers
-- it (main frame only; every frame), to split navigate's cost.
local RAW_BRIDGE = os.getenv("RAW_BRIDGE") == "1"
local bundle
if RAW_BRIDGE then
  local f = assert(io.open("bridge/dist/vdx-bridge.js"))
  bundle = f:read("a")
  f:close()
end
-- BUNDLE_B=FILE: a second build of the bundle (minified, say) beside it.
local bundle2
if RAW_BRIDGE and os.getenv("BUNDLE_B") then
  local f = assert(io.open(os.getenv("BUNDLE_B")))
  bundle2 = f:read("a")
  f:close()
end

local function count_cross(text)
  local n = 0
  for _ in text:gmatch("Cross%-origin frame %d") do n = n + 1 end
  return n
end

local closers = {}
for _, s in ipairs(SETUPS) do
  local browser, close = lib.launch { headless = true, args = s.args }
  closers[#closers + 1] = close
  s.vdxs = { { name = "vdx (deferred)", page = vdx_page(browser) } }
  if os.getenv("EAGER") ~= "0" then
    s.vdxs[2] = { name = "vdx eager (as 1c3b903)", page = vdx_page(browser, "eager") }
  end
  s.raws = { { name = "raw", page = raw_page(browser), nav = {}, cpu = {}, ax = {} } }
  if RAW_BRIDGE then
    s.raws[2] = { name = "raw + bundle (main session)", page = raw_page(browser, { source = bundle }),
                  nav = {}, cpu = {} }
    s.raws[3] = { name = "raw + bundle (every session)",
                  page = raw_page(browser, { source = bundle, all = true }), nav = {}, cpu = {} }
    s.raws[4] = { name = "raw + domains only (every session)",
                  page = raw_page(browser, { all = true }), nav = {}, cpu = {} }
    if bundle2 then
      s.raws[5] = { name = "raw + bundle B (every session)",
                    page = raw_page(browser, { source = bundle2, all = true }), nav = {}, cpu = {} }
    end
  end
  for _, v in ipairs(s.vdxs) do
    v.cells = { nav = {}, snap1 = {}, snap2 = {}, nav_cpu = {}, snap1_cpu = {}, snap2_cpu = {} }
  end
  -- One untimed round each: the browser's caches and the bridge's code.
  for _, r in ipairs(s.raws) do r.page.navigate(url) end
  s.raws[1].page.axtree()
  for _, v in ipairs(s.vdxs) do
    v.page.navigate(url)
    local _, _, snap = v.page.snapshot()
    assert(count_cross(snap.text) == 5, "the snapshot after navigate lacks cross-origin frames")
  end
end

local function vdx_round(s, i)
  for k = 0, #s.vdxs - 1 do
    local v = s.vdxs[(i + k) % #s.vdxs + 1]
    local c = v.cells
    c.nav[#c.nav + 1], c.nav_cpu[#c.nav + 1] = v.page.navigate(url)
    local ms, cpu, snap = v.page.snapshot()
    c.snap1[#c.snap1 + 1], c.snap1_cpu[#c.snap1 + 1] = ms, cpu
    local n = count_cross(snap.text)
    assert(n == 5, "a first snapshot saw " .. n .. " cross-origin frames of 5")
    c.snap2[#c.snap2 + 1], c.snap2_cpu[#c.snap2 + 1] = v.page.snapshot()
  end
end

local function raw_round(s, i)
  for k = 0, #s.raws - 1 do
    local r = s.raws[(i + k) % #s.raws + 1]
    r.nav[#r.nav + 1], r.cpu[#r.nav + 1] = r.page.navigate(url)
    if r.ax then r.ax[#r.ax + 1] = r.page.axtree() end
  end
end

local m = lib.machine()
print(("frames_nav: %s, %d rounds, load %.2f %.2f %.2f, %s"):format(PAGE, REPS, m.load1, m.load5, m.load15,
  m.date))
for i = 1, REPS do
  for k = 0, #SETUPS - 1 do
    local s = SETUPS[(i + k) % #SETUPS + 1]
    if i % 2 == 0 then vdx_round(s, i); raw_round(s, i) else raw_round(s, i); vdx_round(s, i) end
  end
end

local function sum2(x, y)
  local z = {}
  for i = 1, #x do z[i] = x[i] + y[i] end
  return z
end

local function cell(label, xs, floor, cpu, cpu_floor)
  local a = lib.stats(xs)
  local line = ("  %-34s %7.1f / %7.1f ms"):format(label, a.median, a.p95)
  if floor then
    local b = lib.stats(floor)
    line = line .. ("  %5.2fx / %5.2fx"):format(a.median / b.median, a.p95 / b.p95)
  else
    line = line .. (" "):rep(17)
  end
  if cpu then
    local c = lib.stats(cpu)
    line = line .. ("   CPU %6.0f / %6.0f ms"):format(c.median, c.p95)
    if cpu_floor then
      local d = lib.stats(cpu_floor)
      line = line .. ("  %5.2fx / %5.2fx"):format(c.median / d.median, c.p95 / d.p95)
    end
  end
  print(line)
  return a
end

print("cell: wall median / p95, ratio to the raw floor; CPU of the browser tree and this process, ratio")
for _, s in ipairs(SETUPS) do
  local raw = s.raws[1]
  print(("%s:"):format(s.name))
  cell("raw Page.navigate to load", raw.nav, nil, raw.cpu)
  for k = 2, #s.raws do cell(s.raws[k].name, s.raws[k].nav, raw.nav, s.raws[k].cpu, raw.cpu) end
  for _, v in ipairs(s.vdxs) do cell(v.name .. " navigate", v.cells.nav, raw.nav, v.cells.nav_cpu, raw.cpu) end
  cell("raw Accessibility.getFullAXTree", raw.ax)
  for _, v in ipairs(s.vdxs) do
    local c = v.cells
    print(("  %s, snapshots (ratio: to the AX tree read; CPU: to the eager page's):"):format(v.name))
    local e = s.vdxs[2] and s.vdxs[2].cells or {}
    cell("first snapshot after navigate", c.snap1, raw.ax, c.snap1_cpu, v ~= s.vdxs[2] and e.snap1_cpu or nil)
    cell("second snapshot (same doc)", c.snap2, raw.ax, c.snap2_cpu, v ~= s.vdxs[2] and e.snap2_cpu or nil)
    local a, b = lib.stats(c.snap1), lib.stats(c.snap2)
    print(("    first / second snapshot: %.2fx median, %.2fx p95"):format(a.median / b.median, a.p95 / b.p95))
  end
  if s.vdxs[2] then
    local a, b = s.vdxs[1].cells, s.vdxs[2].cells
    local function r(x, y, k) return lib.stats(x)[k] / lib.stats(y)[k] end
    print(("  deferred / eager: navigate %.2fx / %.2fx, navigate + first snapshot %.2fx / %.2fx (median / p95)")
      :format(r(a.nav, b.nav, "median"), r(a.nav, b.nav, "p95"),
        r(sum2(a.nav, a.snap1), sum2(b.nav, b.snap1), "median"), r(sum2(a.nav, a.snap1), sum2(b.nav, b.snap1), "p95")))
  end
end
for _, close in ipairs(closers) do close() end
srv:close()
