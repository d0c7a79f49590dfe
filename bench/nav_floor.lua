--- bench/nav_floor.lua: how much of page:navigate is the browser's own
-- load.  On one page, alternately: page:navigate(url) (wait_until "load",
-- url, title and status read), and the floor: a raw Page.navigate on the
-- same page session, timed until its Page.loadEventFired arrives.  Both
-- run with everything vdx sets up on a page (its isolated worlds, frame
-- sessions of cross-origin iframes), so the difference is navigate's own
-- cost.  Prints median and p95 of each and of the difference, per page.
--
-- Usage: build/vdxlua bench/nav_floor.lua [REPS] [PAGE...]
--        (REPS 11; pages: shop.html elements-2000.html frames.html shadow.html)
package.path = "bench/?.lua;" .. package.path
local vdx = require "vdx"
local fx = require "fixtures"
local lib = require "lib"

local REPS = tonumber(arg[1] or "") or 11
local PAGES = { table.unpack(arg, 2) }
if #PAGES == 0 then PAGES = { "shop.html", "elements-2000.html", "frames.html", "shadow.html" } end

local srv, base = fx.serve(vdx)
local browser, close = lib.launch { headless = true, args = { fx.RESOLVER } }
local page = browser:new_page()

-- The raw navigation: Page.navigate, then its load event (lib.floor_page,
-- the bridge's script kept: the page is vdx's own).
local raw = lib.floor_page(page, true).navigate

local m = lib.machine()
print(("navigate against the browser's own load, %d reps, load %.2f %.2f %.2f")
  :format(REPS, m.load1, m.load5, m.load15))
for _, name in ipairs(PAGES) do
  local url = fx.url(base, name)
  page:navigate(url)
  page:snapshot()
  local nav, floor = {}, {}
  for i = 1, REPS do
    -- Alternate which goes first, so a load swing falls on both alike.
    local order = i % 2 == 0 and { "nav", "raw" } or { "raw", "nav" }
    for _, which in ipairs(order) do
      local t0 = lib.ms()
      if which == "nav" then page:navigate(url) else raw(url) end
      local ms = lib.ms() - t0
      if which == "nav" then nav[#nav + 1] = ms else floor[#floor + 1] = ms end
    end
  end
  local a, b = lib.stats(nav), lib.stats(floor)
  print(("  %-20s navigate %7.1f / %7.1f ms   browser's load %7.1f / %7.1f ms   navigate/load %.2fx (median), %.2fx (p95)")
    :format(name, a.median, a.p95, b.median, b.p95, a.median / b.median, a.p95 / b.p95))
end
close()
srv:close()
