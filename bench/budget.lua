--- bench/budget.lua: a budgeted snapshot against the whole one on the same
-- page, interleaved rep by rep in one process, so the ratio holds on a
-- noisy machine.  Prints median and p95 of each and the budgeted
-- snapshot's ratio to the whole one, and checks that every budgeted text
-- is the whole text's first lines plus the truncation note.
--
-- Usage: build/vdxlua bench/budget.lua [PAGE] [REPS]
--        (PAGE: elements-100000.html, REPS: 7)
package.path = "bench/?.lua;" .. package.path
local vdx = require "vdx"
local fx = require "fixtures"
local lib = require "lib"

local PAGE = arg[1] or "elements-100000.html"
local REPS = tonumber(arg[2] or "") or 7
local CASES = {
  { name = "whole", budget = 100000000 },
  { name = "budget 8000", budget = 8000 },
  { name = "budget 12000", budget = 12000 },
}

local srv, base = fx.serve(vdx)
local browser, close = lib.launch { headless = true }
local page = browser:new_page()
page:navigate(base["local"] .. "/" .. PAGE)

local times, last = {}, {}
for _, c in ipairs(CASES) do times[c.name] = {} end
for i = 0, REPS do
  for _, c in ipairs(CASES) do
    local snap = i == 0 and page:snapshot { budget_tokens = c.budget }
      or lib.timed(times[c.name], function() return page:snapshot { budget_tokens = c.budget } end)
    last[c.name] = snap
  end
end

local whole = last.whole.text
local m = lib.machine()
print(("page %s, %d reps, load %.2f %.2f %.2f"):format(PAGE, REPS, m.load1, m.load5, m.load15))
local w = lib.stats(times.whole)
for _, c in ipairs(CASES) do
  local st = lib.stats(times[c.name])
  local text = last[c.name].text
  local body = last[c.name].truncated and text:gsub("[^\n]*\n$", "") or text
  local prefix = whole:sub(1, #body) == body
  print(("%-13s median %8.1f ms  p95 %8.1f ms  ratio to whole %.2fx / %.2fx  %d chars  prefix of whole: %s")
    :format(c.name, st.median, st.p95, st.median / w.median, st.p95 / w.p95, #text, tostring(prefix)))
  if last[c.name].truncated then print("  " .. text:match("[^\n]*\n$"):sub(1, -2)) end
end
close()
srv:close()
