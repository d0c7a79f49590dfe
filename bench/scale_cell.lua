--- bench/scale_cell.lua: one vdxlua cell of `make bench-scale`
-- (bench/scale.mjs runs it as a child process).  N pages, each in a
-- browser context of its own, loop navigate + snapshot for SECONDS; each
-- page is driven by its own task (vdx.spawn), so the N run concurrently
-- over the one pipe to the browser.
--
--   inproc  page:navigate(url) then page:snapshot(), as a script does.
--   floor   the browser's own cost, on the same transport: a raw
--           Page.navigate until its Page.loadEventFired, then a bare DOM
--           walk (bridge/page/floor-walk.js) by Runtime.evaluate in the
--           main world.  The bridge's script to evaluate on new documents
--           is removed from these pages first, so no document gets it;
--           the cell counts the "vdx" worlds created and reports them (0).
--
-- Usage: build/vdxlua bench/scale_cell.lua MODE N SECONDS URL
-- Prints one JSON line (cycles, seconds, per-cycle median and p95 in ms,
-- the browser's pid), then keeps the browser open until its standard input
-- closes, so the parent can read the process tree's memory first.
package.path = "bench/?.lua;" .. package.path
local vdx = require "vdx"
local json = require "vdx.json"
local lib = require "lib"
local fx = require "fixtures"

local MODE, N, SECONDS, URL = arg[1], tonumber(arg[2] or ""), tonumber(arg[3] or ""), arg[4]
if not (MODE == "inproc" or MODE == "floor") or not N or not SECONDS or not URL then
  io.stderr:write("usage: vdxlua bench/scale_cell.lua inproc|floor N SECONDS URL\n")
  os.exit(2)
end

local browser, close = lib.launch { headless = true, args = { fx.RESOLVER } }

local vdx_worlds = 0

-- A page for the floor (lib.floor_page: the bridge's new-document script
-- removed); the "vdx" worlds created on it are counted, and must be none.
local function floor_page(page)
  local fp = lib.floor_page(page)
  page:on("Runtime.executionContextCreated", function(p)
    if p.context and p.context.name == "vdx" then vdx_worlds = vdx_worlds + 1 end
  end)
  return function()
    fp.navigate(URL, 120000)
    return #fp.walk()
  end
end

local function inproc_page(page)
  return function()
    page:navigate(URL, { timeout_ms = 120000 })
    return #page:snapshot().text
  end
end

local cycles = {}
for i = 1, N do
  local page = browser:new_context():new_page()
  cycles[i] = MODE == "floor" and floor_page(page) or inproc_page(page)
end

-- A cycle that fails (a navigation that times out on a saturated machine)
-- is counted, not fatal: the cell reports how many failed and the first
-- error, and goes on.
local errors, first_error = 0, nil
local function try(cycle)
  local ok, r = pcall(cycle)
  if ok then return r end
  errors = errors + 1
  first_error = first_error or tostring(r)
  return nil
end

-- One warm-up cycle per page, all at once, outside the timed window.
local function all(fn)
  local tasks = {}
  for i = 1, N do tasks[i] = vdx.spawn(fn, i) end
  local out = {}
  for i, t in ipairs(tasks) do out[i] = vdx.wait(t) end
  return out
end
local chars = all(function(i) return try(cycles[i]) end)
errors, first_error = 0, nil

local times, count = {}, 0
local t0 = lib.ms()
local deadline = t0 + SECONDS * 1000
all(function(i)
  local cycle = cycles[i]
  while lib.ms() < deadline do
    local c0 = lib.ms()
    if try(cycle) then
      times[#times + 1] = lib.ms() - c0
      count = count + 1
    end
  end
end)
local elapsed = (lib.ms() - t0) / 1000
local st = lib.stats(times)

io.stdout:write(json.encode { mode = MODE, n = N, cycles = count, seconds = elapsed,
  rate = count / elapsed, median_ms = st.median, p95_ms = st.p95, chars = chars[1],
  errors = errors, first_error = first_error,
  browser_pid = browser:pid(), vdx_worlds = MODE == "floor" and vdx_worlds or nil }, "\n")
io.stdout:flush()

-- Hold the browser until the parent has read the memory and closes stdin.
local waiter = vdx.spawn(vdx.sleep, 600000)
local reader = vdx.read_lines(0, function(line)
  if line == nil then waiter:cancel() end
end)
pcall(vdx.wait, waiter)
reader:close()
close()
