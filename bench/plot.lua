--- bench/plot.lua: renders bench/results.json as bench/plot.png with
-- gnuplot: snapshot time and snapshot size against page size (elements),
-- one line per tool (vdxlua in process, the floor walk, and each MCP server
-- of the peers run when there is one).  Usage:
--   build/vdxlua bench/plot.lua [results.json [plot.png]]
local json = require "cjson"

local IN = arg[1] or "bench/results.json"
local OUT = arg[2] or "bench/plot.png"

local f = assert(io.open(IN))
local r = json.decode(f:read("a"))
f:close()

-- The element-count pages, in order of size.
local ORDER = { "shop", "elements-2000", "elements-20000", "elements-100000" }

local elements = {}
local series = {}   -- { {title=, time={[page]=ms}, size={[page]=chars}} }

if r.vdxlua then
  local full = { title = "vdxlua snapshot (whole page)", time = {}, size = {} }
  local budget = { title = "vdxlua snapshot (default budget)", time = {}, size = {} }
  local walk = { title = "floor: bare walk + computed style", time = {}, size = {} }
  for _, p in ipairs(r.vdxlua.pages or {}) do
    if p.elements then elements[p.name] = p.elements end
    if p.snapshot_full then full.time[p.name], full.size[p.name] = p.snapshot_full.median, p.chars_full end
    if p.snapshot then budget.time[p.name], budget.size[p.name] = p.snapshot.median, p.chars end
    if p.floor_walk then walk.time[p.name] = p.floor_walk.median end
  end
  series[#series + 1] = full
  series[#series + 1] = budget
  series[#series + 1] = walk
end
if r.peers and r.peers.servers then
  for _, name in ipairs { "playwright-mcp", "chrome-devtools-mcp", "vdxlua-mcp" } do
    local s = r.peers.servers[name]
    if s and s.pages then
      local t = { title = name .. " (MCP tool call)", time = {}, size = {} }
      for page, p in pairs(s.pages) do
        if p.snapshot then t.time[page], t.size[page] = p.snapshot.median, p.snapshot_chars end
      end
      series[#series + 1] = t
    end
  end
end

local tmp = os.tmpname()
local data = assert(io.open(tmp, "w"))
local blocks = {}
for i, s in ipairs(series) do
  data:write(("# %s\n"):format(s.title))
  local rows = {}
  for _, page in ipairs(ORDER) do
    if elements[page] and (s.time[page] or s.size[page]) then
      rows[#rows + 1] = { elements[page], s.time[page] or "NaN", s.size[page] or "NaN" }
    end
  end
  table.sort(rows, function(a, b) return a[1] < b[1] end)
  for _, row in ipairs(rows) do data:write(("%d %s %s\n"):format(row[1], row[2], row[3])) end
  data:write("\n\n")
  blocks[i] = #rows
end
data:close()

local m = r.vdxlua and r.machine or (r.peers and r.peers.machine) or {}
local subtitle = ("%s, %s cores, load %s; medians"):format(
  m.date or "?", m.cpus and math.floor(m.cpus) or "?", m.load1 or (m.load and m.load[1]) or "?")

local plots_t, plots_s = {}, {}
for i, s in ipairs(series) do
  if blocks[i] > 0 then
    local title = s.title:gsub('"', "'")
    plots_t[#plots_t + 1] = ('"%s" index %d using 1:2 with linespoints lt %d lw 2 title "%s"'):format(tmp, i - 1, i, title)
    if next(s.size) then
      plots_s[#plots_s + 1] = ('"%s" index %d using 1:3 with linespoints lt %d lw 2 title "%s"'):format(tmp, i - 1, i, title)
    end
  end
end

local gp = ([[
set terminal pngcairo size 1400,560 font "DejaVu Sans,10" noenhanced
set output "%s"
set multiplot layout 1,2 title "vdxlua and peers: snapshot against page size (%s)"
set logscale xy
set grid
set key top left box opaque
set xlabel "elements on the page"
set ylabel "snapshot time, ms (median)"
set title "snapshot time"
plot %s
set ylabel "snapshot size, characters"
set title "snapshot size"
plot %s
unset multiplot
]]):format(OUT, subtitle, table.concat(plots_t, ", \\\n  "), table.concat(plots_s, ", \\\n  "))

local script = tmp .. ".gp"
local g = assert(io.open(script, "w"))
g:write(gp)
g:close()
local ok = os.execute("gnuplot " .. script)
if not ok then
  -- pngcairo may be missing from gnuplot builds without cairo: fall back.
  local g2 = assert(io.open(script, "w"))
  g2:write((gp:gsub("pngcairo", "png")))
  g2:close()
  ok = os.execute("gnuplot " .. script)
end
os.remove(script)
os.remove(tmp)
if not ok then
  io.stderr:write("plot: gnuplot failed\n")
  os.exit(1)
end
print("wrote " .. OUT)
