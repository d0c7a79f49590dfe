--- bench/scale_probe.lua: where a navigate + snapshot cycle's CPU goes,
-- against the raw floor of `make bench-scale`.  One browser, one page per
-- variant (each in its own context), cycles run one at a time and
-- alternated variant by variant, so each cycle's CPU is its own: the host's
-- (this process) and the browser tree's (every process of its group), from
-- /proc/PID/stat, split into the navigation and the read.
--
--   floor         raw Page.navigate -> load, bare walk (no bridge on the page)
--   floor+bridge  the same on a page that keeps the bridge's new-document
--                 script: what injecting it into every document costs
--   floor+layout  the floor that first has the page styled and laid out
--                 (one getBoundingClientRect), which any read of what is
--                 visible needs and the bare walk never asks for
--   raw+snapshot  raw Page.navigate -> load, then page:snapshot()
--   inproc        page:navigate(url), page:snapshot()
--
-- CPU time moves far less than wall time on a shared machine; read the
-- ratios.  Usage: build/vdxlua bench/scale_probe.lua [REPS] [PAGE]
-- (REPS 20, PAGE shop.html).
package.path = "bench/?.lua;" .. package.path
local vdx = require "vdx"
local json = require "vdx.json"
local lib = require "lib"
local fx = require "fixtures"

local REPS = tonumber(arg[1] or "") or 20
local PAGE = arg[2] or "shop.html"

local srv, base = fx.serve(vdx)
local URL = base["local"] .. "/" .. PAGE
local browser, close = lib.launch { headless = true, args = { fx.RESOLVER } }

local cpu_ms = lib.cpu_ms
local pids
local function tree_ms()
  local t = 0
  for _, pid in ipairs(pids) do t = t + cpu_ms(pid) end
  return t
end
-- A mark: the tree read before the host at the start and after it at the
-- end, so the host's figure leaves out the reading itself.
local function mark_start() local b = tree_ms() return { host = cpu_ms("self"), tree = b } end
local function mark_end(m)
  local h = cpu_ms("self")
  return { host = h - m.host, tree = tree_ms() - m.tree }
end

-- Each page's floor (lib.floor_page): the raw navigation until the load
-- event, and the bare walk.
local floors = setmetatable({}, { __mode = "k" })
local function raw_nav(page) floors[page].navigate(URL) end
local function bare_walk(page) return #floors[page].walk() end

local function new_page(keep_bridge)
  local page = browser:new_context():new_page()
  floors[page] = lib.floor_page(page, keep_bridge)
  return page
end

local variants = {
  { name = "floor", page = new_page(false), nav = raw_nav, read = bare_walk },
  { name = "floor+bridge", page = new_page(true), nav = raw_nav, read = bare_walk },
  -- The floor that also lays the page out (any read of visibility must),
  -- which the bare walk never asks for: a cycle may navigate away before
  -- the renderer's first frame, and then the page is never styled at all.
  { name = "floor+layout", page = new_page(false), nav = raw_nav, read = function(p)
    p:send("Runtime.evaluate", { expression = "document.documentElement.getBoundingClientRect().height" })
    return bare_walk(p)
  end },
  { name = "raw+snapshot", page = new_page(true), nav = raw_nav,
    read = function(p) return #p:snapshot().text end },
  { name = "inproc", page = new_page(true), nav = function(p) p:navigate(URL) end,
    read = function(p) return #p:snapshot().text end },
}
for _, v in ipairs(variants) do
  v.page:navigate(URL)
  v.nav(v.page); v.read(v.page)
  v.x = { nav_host = {}, nav_tree = {}, read_host = {}, read_tree = {}, wall = {} }
end
pids = lib.group_pids(browser:pid())

for i = 1, REPS do
  for k = 0, #variants - 1 do
    local v = variants[(i + k) % #variants + 1]
    local t0 = lib.ms()
    local m = mark_start()
    v.nav(v.page)
    local a = mark_end(m)
    m = mark_start()
    v.read(v.page)
    local b = mark_end(m)
    local x = v.x
    x.wall[i] = lib.ms() - t0
    x.nav_host[i], x.nav_tree[i], x.read_host[i], x.read_tree[i] = a.host, a.tree, b.host, b.tree
  end
end

local function mean(xs) local s = 0 for _, x in ipairs(xs) do s = s + x end return s / #xs end
local mach = lib.machine()
print(("CPU per cycle, mean of %d, ms (host = vdxlua, tree = the browser's processes); %s, load %.2f %.2f %.2f")
  :format(REPS, PAGE, mach.load1, mach.load5, mach.load15))
print(("%-14s %9s %9s %9s %9s %9s %9s %9s"):format("variant", "nav host", "nav tree", "read host",
  "read tree", "total", "× floor", "wall med"))
local floor_total
local out = {}
for _, v in ipairs(variants) do
  local x = v.x
  local total = mean(x.nav_host) + mean(x.nav_tree) + mean(x.read_host) + mean(x.read_tree)
  floor_total = floor_total or total
  print(("%-14s %9.1f %9.1f %9.1f %9.1f %9.1f %9.2f %9.0f"):format(v.name, mean(x.nav_host), mean(x.nav_tree),
    mean(x.read_host), mean(x.read_tree), total, total / floor_total, lib.stats(x.wall).median))
  out[v.name] = { nav_host = mean(x.nav_host), nav_tree = mean(x.nav_tree), read_host = mean(x.read_host),
    read_tree = mean(x.read_tree), total = total }
end
print(json.encode(out))
close()
srv:close()
