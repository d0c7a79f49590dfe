--- bench/site_isolation.lua: what putting cross-origin frames out of
-- process costs a page's load.  Two browsers launched alike but for
-- `--site-per-process` (the full browser's default; the headless shell,
-- which vdx.launch runs headless, keeps such frames in the page's
-- renderer without it), one page each, navigated to the frames page of
-- the benchmarks (5 nested same-origin and 5 cross-origin iframes) in
-- turn, round by round.  Prints per browser the median and p95 of the
-- page's own load time (Navigation Timing's loadEventEnd) and of
-- page:navigate's wall time, and the ratios.
--
-- Usage: build/vdxlua bench/site_isolation.lua [REPS] [PAGE]   (12, frames.html)
package.path = "bench/?.lua;" .. package.path
local vdx = require "vdx"
local fx = require "fixtures"
local lib = require "lib"

local REPS = tonumber(arg[1] or "") or 12
local PAGE = arg[2] or "frames.html"
local srv, base = fx.serve(vdx)
local url = base.a .. "/" .. PAGE
local LOAD = "performance.timing.loadEventEnd - performance.timing.navigationStart"

local V = {}
for _, v in ipairs { { name = "in process (default)", args = { fx.RESOLVER } },
                     { name = "--site-per-process", args = { fx.RESOLVER, "--site-per-process" } } } do
  local browser, close = lib.launch { headless = true, args = v.args }
  v.close, v.page, v.load, v.wall = close, browser:new_page(), {}, {}
  v.page:navigate(url)
  V[#V + 1] = v
end
for r = 1, REPS do
  for k = 0, #V - 1 do
    local v = V[(r + k) % #V + 1]
    local t0 = lib.ms()
    v.page:navigate(url)
    v.wall[r] = lib.ms() - t0
    v.load[r] = v.page:evaluate(LOAD)
  end
end
local m = lib.machine()
print(("%s, %d rounds, load %.2f %.2f %.2f"):format(PAGE, REPS, m.load1, m.load5, m.load15))
local l1, w1 = lib.stats(V[1].load), lib.stats(V[1].wall)
for _, v in ipairs(V) do
  local l, w = lib.stats(v.load), lib.stats(v.wall)
  print(("  %-22s loadEventEnd %6.0f / %6.0f ms (%.2fx)   navigate %6.0f / %6.0f ms (%.2fx)"):format(v.name,
    l.median, l.p95, l.median / l1.median, w.median, w.p95, w.median / w1.median))
  v.close()
end
srv:close()
