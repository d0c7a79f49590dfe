--- bench/transfer.lua: where a whole snapshot's time goes between the walk
-- and the text's trip to the host, part by part on one page, the parts
-- interleaved rep by rep: the walk alone (its text kept in the page), the
-- kept text returned by value (what a bridge call does), the same text
-- read as a Blob through IO.resolveBlob / IO.read (the renderer only makes
-- the Blob; the browser process reads it and sends it as base64, which the
-- host decodes), and a whole page:snapshot.  Each part: wall time and the
-- renderer main thread's CPU time, median, p95 and min.  Checks that both
-- ways bring back the bytes page:snapshot shows.
--
-- The parts run in an isolated world of their own with the committed
-- bundle (bridge/dist/vdx-bridge.js) evaluated in it, as bundle_ab.lua
-- does, so that Runtime.evaluate can hand back the Blob as a remote object.
--
-- Usage: build/vdxlua bench/transfer.lua [PAGE] [REPS]
--        (PAGE: elements-100000.html, REPS: 7)
package.path = "bench/?.lua;" .. package.path
local vdx = require "vdx"
local fx = require "fixtures"
local lib = require "lib"

local PAGE = arg[1] or "elements-100000.html"
local REPS = tonumber(arg[2] or "") or 7

local srv, base = fx.serve(vdx)
local browser, close = lib.launch { headless = true }
local page = browser:new_page()
page:navigate(base["local"] .. "/" .. PAGE)

local frame = page:send("Page.getFrameTree", {}).frameTree.frame.id
local world = page:send("Page.createIsolatedWorld", { frameId = frame, worldName = "vdx-transfer" })
  .executionContextId
local f = assert(io.open("bridge/dist/vdx-bridge.js"))
page:send("Runtime.evaluate", { expression = f:read("a"), contextId = world })
f:close()
local function eval(expression, by_value)
  local r = page:send("Runtime.evaluate", { expression = expression, contextId = world, returnByValue = by_value })
  assert(r.result and not r.exceptionDetails, expression)
  return r.result
end

local PARTS = {
  walk = function()
    return eval("globalThis.__kept = globalThis.__vdxBridge.instance('').snapshot({}).text; __kept.length", true)
      .value
  end,
  value = function() return eval("globalThis.__kept", true).value end,
  blob = function()
    local obj = eval("new Blob([globalThis.__kept])", false).objectId
    local uuid = page:send("IO.resolveBlob", { objectId = obj }).uuid
    local parts = {}
    repeat
      local r = page:send("IO.read", { handle = "blob:" .. uuid, size = 8 * 1024 * 1024 })
      parts[#parts + 1] = r.base64Encoded and vdx.base64_decode(r.data) or r.data
    until r.eof
    page:send("IO.close", { handle = "blob:" .. uuid })
    page:send("Runtime.releaseObject", { objectId = obj })
    return table.concat(parts)
  end,
  ["page:snapshot"] = function() return page:snapshot({ budget_tokens = 100000000 }).text end,
}
local ORDER = { "walk", "value", "blob", "page:snapshot" }

-- The same bytes every way (the host's stitching ends every line, the
-- last one too, with a newline).
local snap = PARTS["page:snapshot"]()
PARTS.walk()
assert(PARTS.value() .. "\n" == snap, "the text by value differs from page:snapshot's")
assert(PARTS.blob() .. "\n" == snap, "the text read from the Blob differs from page:snapshot's")

local wall, cpu = {}, {}
for _, k in ipairs(ORDER) do wall[k], cpu[k] = {}, {} end
for rep = 1, REPS do
  -- The walk first (it keeps the text), then the other parts, their order
  -- turned every rep.
  local order = { "walk" }
  for i = 0, 2 do order[#order + 1] = ORDER[2 + (rep + i) % 3] end
  for _, k in ipairs(order) do
    local c0, t0 = lib.thread_ms(page), lib.ms()
    PARTS[k]()
    wall[k][rep], cpu[k][rep] = lib.ms() - t0, lib.thread_ms(page) - c0
  end
end

local m = lib.machine()
print(("%s, %d reps, %d chars, load %.2f %.2f %.2f"):format(PAGE, REPS, #snap, m.load1, m.load5, m.load15))
for _, k in ipairs(ORDER) do
  local w, c = lib.stats(wall[k]), lib.stats(cpu[k])
  print(("  %-14s wall median %7.1f p95 %7.1f min %7.1f | renderer CPU median %7.1f p95 %7.1f min %7.1f ms")
    :format(k, w.median, w.p95, w.min, c.median, c.p95, c.min))
end
close()
srv:close()
