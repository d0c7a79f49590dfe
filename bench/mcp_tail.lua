--- bench/mcp_tail.lua: where the slow calls of `vdxlua mcp` lose their
-- time.  Runs the shop steps of bench/peers.mjs (navigate + snapshot,
-- click + snapshot, type, the three structure queries) through the whole
-- server path in one process (request line decoded, tool run, reply
-- encoded and written to a pipe), REPS times, and times every page
-- primitive inside each call: the bridge calls (by method), frame_offset,
-- input, settle, since, snapshot, navigate.  For each tool it prints the
-- median and p95 of the whole call and of each part ("rest": the host's
-- own work outside the parts: Lua, JSON, GC), the CPU time the page's
-- renderer main thread spent in the call (which a loaded machine moves far
-- less than the wall time: compare builds by it), the Lua heap, and the
-- slowest call split the same way.
--
-- Usage: build/vdxlua bench/mcp_tail.lua [REPS] [PAGE]   (REPS 15, PAGE shop.html)
-- GAP=ms waits that long between a snapshot and the click or type after
-- it, as an agent thinks between two calls (0: back to back, as
-- bench/peers.mjs calls them).
package.path = "bench/?.lua;" .. package.path
local lib = require "lib"
local json = require "vdx.json"

local REPS = tonumber(arg[1] or "") or 15
local PAGE = arg[2] or "shop.html"
local GAP = tonumber(os.getenv("GAP") or "") or 0
local vdx = require "vdx"

local last_reply
local h = lib.mcp_harness(PAGE, function(line) last_reply = line end)
local server, page, url = h.server, h.page, h.url

-- Every page primitive timed into the current call's parts.
local parts
local methods = getmetatable(page).__index
for _, name in ipairs { "bridge", "frame_offset", "input", "settle", "since", "mark", "snapshot", "snapshot_frames",
  "navigate", "send", "resolve_container", "inspect_pattern", "extract_anchors" } do
  local orig = methods[name]
  methods[name] = function(self, a, ...)
    local t0 = lib.ms()
    local r = table.pack(orig(self, a, ...))
    if parts then
      local key = name == "bridge" and "bridge " .. tostring(a) or name
      parts[key] = (parts[key] or 0) + lib.ms() - t0
    end
    return table.unpack(r, 1, r.n)
  end
end

local id = 0
local CPU = {}   -- tool -> the renderer main thread's CPU ms of each call
local per = {}   -- tool -> { whole = {…}, parts = { key -> {…} }, rest = {…} }
local function call(name, args)
  id = id + 1
  local line = json.encode { jsonrpc = "2.0", id = id, method = "tools/call",
    params = { name = name, arguments = args } }
  local c0 = lib.thread_ms(page)
  parts = {}
  local t0 = lib.ms()
  server:handle_line(line)
  local ms = lib.ms() - t0
  -- The metrics read is no part of the call.
  local got = parts
  parts = nil
  CPU[name] = CPU[name] or {}
  table.insert(CPU[name], lib.thread_ms(page) - c0)
  parts = got
  local rec = per[name] or { whole = {}, parts = {}, rest = {} }
  per[name] = rec
  rec.whole[#rec.whole + 1] = ms
  local inside = 0
  for k, v in pairs(parts) do
    rec.parts[k] = rec.parts[k] or {}
    table.insert(rec.parts[k], v)
    inside = inside + v
  end
  rec.rest[#rec.rest + 1] = ms - inside
  if not rec.slowest or ms > rec.slowest.ms then
    parts.rest = ms - inside
    rec.slowest = { ms = ms, parts = parts }
  end
  parts = nil
  local reply = json.decode(last_reply)
  local text = reply.result and reply.result.content[1].text or ""
  if reply.result and reply.result.isError then error(name .. ": " .. text) end
  return text
end

local snap = call("browser_snapshot", {})
for _ = 1, REPS do
  call("browser_navigate", { url = url })
  snap = call("browser_snapshot", {})
end
for _ = 1, REPS do
  local ref = snap:match('button "Add to Cart" %[ref=(e%d+)%]')
  if GAP > 0 then vdx.sleep(GAP) end
  call("browser_click", { element = "Add to Cart", ref = ref })
  snap = call("browser_snapshot", {})
end
local input = snap:match('textbox "Full name"[^\n]-%[ref=(e%d+)%]')
for _ = 1, REPS do
  if GAP > 0 then vdx.sleep(GAP) end
  call("browser_type", { element = "Full name", ref = input, text = "Ada Lovelace" })
end
local button = snap:match('button "Add to Cart" %[ref=(e%d+)%]')
for _, t in ipairs { "resolve_container", "inspect_pattern", "extract_anchors" } do
  for _ = 1, REPS do call(t, { ref = button, level = t ~= "resolve_container" and 1 or nil }) end
end

local m = lib.machine()
print(("%s, %d reps, gap %d ms, load %s, Lua heap %.0f KiB"):format(PAGE, REPS, GAP, m.load1,
  collectgarbage("count")))
for _, name in ipairs { "browser_navigate", "browser_snapshot", "browser_click", "browser_type",
  "resolve_container", "inspect_pattern", "extract_anchors" } do
  local rec = per[name]
  local w = lib.stats(rec.whole)
  local cs = lib.stats(CPU[name])
  print(("%-18s renderer main-thread CPU median %7s p95 %7s"):format(name, lib.fmt(cs.median), lib.fmt(cs.p95)))
  print(("%-18s median %7s  p95 %7s  (p95/median %.1f)"):format(name, lib.fmt(w.median), lib.fmt(w.p95),
    w.p95 / w.median))
  local keys = {}
  for k in pairs(rec.parts) do keys[#keys + 1] = k end
  table.sort(keys)
  keys[#keys + 1] = "rest"
  rec.parts.rest = rec.rest
  for _, k in ipairs(keys) do
    local st = lib.stats(rec.parts[k])
    print(("    %-26s median %7s  p95 %7s   slowest call %7s"):format(k, lib.fmt(st.median), lib.fmt(st.p95),
      lib.fmt(rec.slowest.parts[k] or 0)))
  end
end
h.close()
