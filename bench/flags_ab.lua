--- bench/flags_ab.lua: two browsers alike but for extra command-line
-- flags (V8's among them: --js-flags=...), in the navigate + snapshot loop
-- of `make bench-scale`, cycle by cycle in turn.  What a flag costs or
-- saves per document shows in the browser tree's CPU per cycle (every
-- process of each browser's group, read from /proc before and after the
-- cycle), which holds on a loaded machine where wall times do not.
--
-- Usage: FLAGS="--js-flags=--no-maglev" build/vdxlua bench/flags_ab.lua [CYCLES] [PAGE]
-- (CYCLES 25, PAGE shop.html; FLAGS is split on spaces).  SNAPS=N takes N
-- snapshots a cycle instead of one (the later ones of the same document).
-- Prints per browser the medians of navigate and of the first snapshot,
-- and the mean tree CPU per cycle, and B/A.
package.path = "bench/?.lua;" .. package.path
local vdx = require "vdx"
local fx = require "fixtures"
local lib = require "lib"

local CYCLES = tonumber(arg[1] or "") or 25
local PAGE = arg[2] or "shop.html"
local FLAGS = os.getenv("FLAGS") or ""
local SNAPS = tonumber(os.getenv("SNAPS") or "") or 1
if FLAGS == "" then
  io.stderr:write("usage: FLAGS='--flag ...' vdxlua bench/flags_ab.lua [CYCLES] [PAGE]\n")
  os.exit(2)
end

local srv, base = fx.serve(vdx)
local url = fx.url(base, PAGE)

local cpu_ms = lib.cpu_ms
local function tree_ms(b)
  local t = 0
  for _, pid in ipairs(lib.group_pids(b:pid())) do t = t + cpu_ms(pid) end
  return t
end

local sides = {}
for _, extra in ipairs { "", FLAGS } do
  local args = { fx.RESOLVER }
  for a in extra:gmatch("%S+") do args[#args + 1] = a end
  local b, close = lib.launch { args = args }
  local page = b:new_context():new_page()
  page:navigate(url)
  page:snapshot()
  sides[#sides + 1] = { name = extra == "" and "A (as launched)" or "B " .. extra, b = b, close = close,
    page = page, nav = {}, snap = {}, cpu = {} }
end
for i = 1, CYCLES do
  for k = 0, 1 do
    local s = sides[(i + k) % 2 + 1]
    local c0 = tree_ms(s.b)
    local t0 = lib.ms()
    s.page:navigate(url)
    local t1 = lib.ms()
    s.page:snapshot()
    local t2 = lib.ms()
    for _ = 2, SNAPS do s.page:snapshot() end
    s.nav[i], s.snap[i], s.cpu[i] = t1 - t0, t2 - t1, tree_ms(s.b) - c0
  end
end
local m = lib.machine()
print(("%s, %d cycles of navigate + %d snapshot(s), load %.2f, %s"):format(PAGE, CYCLES, SNAPS, m.load1, m.date))
local means = {}
for _, s in ipairs(sides) do
  local total = 0
  for _, x in ipairs(s.cpu) do total = total + x end
  means[#means + 1] = total / #s.cpu
  local a, b = lib.stats(s.nav), lib.stats(s.snap)
  print(("  %-40s navigate %6.1f / %6.1f  first snapshot %5.1f / %5.1f ms  tree CPU %6.1f ms/cycle")
    :format(s.name:sub(1, 40), a.median, a.p95, b.median, b.p95, means[#means]))
  s.close()
end
print(("  B/A tree CPU per cycle %.2f"):format(means[2] / means[1]))
srv:close()
