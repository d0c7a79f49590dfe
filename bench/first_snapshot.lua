--- bench/first_snapshot.lua: a page's navigate, its first snapshot right
-- after (a fresh document's, as the MCP navigate's outline is) and a
-- second one of the same document, in one process, for comparing two
-- builds run one after the other (each binary embeds its own bridge).
-- A third snapshot follows a change of the body's class, which makes the
-- browser compute every element's style again: what it costs beside the
-- first tells whether a first snapshot is slow for the page's own data
-- (styles, layout, the sheets' scan) or for the bridge's code, which runs
-- cold in every new document and warms from call to call.
--
-- With GC=1 each round also navigates once more, has the renderer collect
-- its garbage (HeapProfiler.collectGarbage, a column of its own), then
-- takes a first snapshot: what a first snapshot pays for the garbage
-- the navigation left (the old document's) rather than for its own work.
--
-- Usage: [GC=1] BUILD/vdxlua bench/first_snapshot.lua [ROUNDS] [PAGE]
-- (ROUNDS 25, PAGE frames.html: 5 nested same-origin frames and 5
-- cross-origin ones, in the page's process as vdx.launch runs them).
-- Prints median / p95 of each, and the renderer main thread's CPU time
-- of each snapshot.
package.path = "bench/?.lua;" .. package.path
local vdx = require "vdx"
local fx = require "fixtures"
local lib = require "lib"

local ROUNDS = tonumber(arg[1] or "") or 25
local PAGE = arg[2] or "frames.html"

local srv, base = fx.serve(vdx)
local url = fx.url(base, PAGE)
local browser, close = lib.launch { args = { fx.RESOLVER } }
local page = browser:new_context():new_page()
page:navigate(url)
page:snapshot()                      -- the browser's caches, the bundle's compile
local GC = os.getenv("GC") == "1"
local cols = { { "navigate" }, { "first snapshot" }, { "second snapshot" }, { "after a style change" } }
if GC then
  cols[5], cols[6] = { "collect garbage" }, { "first after collect" }
  page:send("HeapProfiler.enable", {})
end
for _, c in ipairs(cols) do c.wall, c.cpu = {}, {} end

-- Runs f as column k: its wall time and the renderer's CPU time.
local function timed(k, f)
  local c0, t0 = lib.thread_ms(page), lib.ms()
  f()
  local c = cols[k]
  c.wall[#c.wall + 1] = lib.ms() - t0
  c.cpu[#c.cpu + 1] = lib.thread_ms(page) - c0
end

for i = 1, ROUNDS do
  timed(1, function() page:navigate(url) end)
  timed(2, function() page:snapshot() end)
  timed(3, function() page:snapshot() end)
  page:evaluate(("document.body.classList.toggle('vdx-bench-%d')"):format(i))
  timed(4, function() page:snapshot() end)
  if GC then
    page:navigate(url)
    timed(5, function() page:send("HeapProfiler.collectGarbage", {}) end)
    timed(6, function() page:snapshot() end)
  end
end
local m = lib.machine()
print(("%s, %d rounds, load %.2f, %s; median / p95, wall and renderer CPU"):format(PAGE, ROUNDS, m.load1, m.date))
for _, c in ipairs(cols) do
  local w, cpu = lib.stats(c.wall), lib.stats(c.cpu)
  print(("  %-20s %7.1f / %7.1f ms   CPU %7.1f / %7.1f ms"):format(c[1], w.median, w.p95, cpu.median, cpu.p95))
end
close()
srv:close()
