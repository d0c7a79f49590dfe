--- bench/bundle_ab.lua: two builds of the bridge compared on one page,
-- each in an isolated world of its own (Page.createIsolatedWorld), their
-- snapshot walks interleaved call by call (the order swapped every rep),
-- so both meet the same load on a shared machine.  Prints each build's
-- page-clock time and renderer main-thread CPU time (median, p95, min),
-- the second's ratio to the first, and whether the two texts are the same
-- bytes.
--
-- Usage: build/vdxlua bench/bundle_ab.lua A.js B.js [PAGE] [REPS] [OPTS]
--        A.js: e.g. `git show main:bridge/dist/vdx-bridge.js > /tmp/a.js`;
--        PAGE: elements-100000.html; REPS: 9; OPTS: snapshot options as a
--        JavaScript object ({} whole; {maxChars: 32000} the default budget)
package.path = "bench/?.lua;" .. package.path
local vdx = require "vdx"
local fx = require "fixtures"
local lib = require "lib"

local FILES = { arg[1], arg[2] }
assert(FILES[1] and FILES[2], "usage: build/vdxlua bench/bundle_ab.lua A.js B.js [PAGE] [REPS] [OPTS]")
local PAGE = arg[3] or "elements-100000.html"
local REPS = tonumber(arg[4] or "") or 9
local OPTS = arg[5] or "{}"

local srv, base = fx.serve(vdx)
local browser, close = lib.launch { headless = true }
local page = browser:new_page()
page:navigate(base["local"] .. "/" .. PAGE)
local function thread_ms() return lib.thread_ms(page) end

-- One isolated world per build, the build evaluated in it.
local frame = page:send("Page.getFrameTree", {}).frameTree.frame.id
local worlds = {}
for i, file in ipairs(FILES) do
  local f = assert(io.open(file))
  local source = f:read("a")
  f:close()
  worlds[i] = page:send("Page.createIsolatedWorld", { frameId = frame, worldName = "vdx-ab-" .. i })
    .executionContextId
  page:send("Runtime.evaluate", { expression = source, contextId = worlds[i] })
end
local WALK = "(() => { const b = globalThis.__vdxBridge.instance(''); const t = performance.now(); " ..
  "const r = b.snapshot(" .. OPTS .. "); return [performance.now() - t, r.text.length]; })()"

local clock, cpu, chars = { {}, {} }, { {}, {} }, {}
for rep = 0, REPS do
  for k = 1, 2 do
    local i = rep % 2 == 0 and k or 3 - k
    local c0 = thread_ms()
    local r = page:send("Runtime.evaluate", { expression = WALK, contextId = worlds[i], returnByValue = true })
    assert(r.result and r.result.value, "the walk failed in " .. FILES[i])
    if rep > 0 then
      table.insert(cpu[i], thread_ms() - c0)
      table.insert(clock[i], r.result.value[1])
    end
    chars[i] = r.result.value[2]
  end
end

local m = lib.machine()
print(("%s, options %s, %d reps, load %.2f %.2f %.2f"):format(PAGE, OPTS, REPS, m.load1, m.load5, m.load15))
for i = 1, 2 do
  local w, c = lib.stats(clock[i]), lib.stats(cpu[i])
  print(("  %-36s %8d chars  wall median %8.1f p95 %8.1f | main-thread CPU median %8.1f p95 %8.1f min %8.1f")
    :format(FILES[i]:sub(-36), chars[i], w.median, w.p95, c.median, c.p95, c.min))
end
print(("  second / first: CPU %.2fx, wall %.2fx"):format(lib.stats(cpu[2]).median / lib.stats(cpu[1]).median,
  lib.stats(clock[2]).median / lib.stats(clock[1]).median))

-- The two builds' texts, byte for byte (each world numbers its own refs
-- from e1, so equal builds print equal texts).
local TEXT = "globalThis.__vdxBridge.instance('').snapshot(" .. OPTS .. ").text"
local texts = {}
for i = 1, 2 do
  texts[i] = page:send("Runtime.evaluate", { expression = TEXT, contextId = worlds[i], returnByValue = true })
    .result.value
end
local same = texts[1] == texts[2]
local at = 1
while not same and at <= #texts[1] and texts[1]:byte(at) == texts[2]:byte(at) do at = at + 1 end
print(same and "  texts: identical" or ("  texts: DIFFER from byte %d"):format(at))
close()
srv:close()
