--- bench/mcp_cost.lua: where the time of an MCP browser_snapshot goes,
-- part by part, in one process (so the parts are ratios in the same run):
--   snapshot    page:snapshot with the tool's budget (the in-process figure)
--   tool        the browser_snapshot tool through the registry (validation,
--               the reply text built in Lua)
--   encode      json.encode of the whole JSON-RPC response
--   write       the encoded line written and flushed to a pipe (framing)
--   message     the whole server path: decode the request line, run the
--               tool, encode, write
--   gc          a full collection right after (what the garbage of one
--               call costs when it is collected at once)
-- and, for the bridge's idle warm-up competing with the call, the first
-- snapshot right after navigate and 0.5 s later.  Progress notifications
-- are sent only for a request with a progressToken, once a second: none
-- within these calls.
--
-- Usage: build/vdxlua bench/mcp_cost.lua [PAGE] [REPS]   (PAGE: shop.html)
package.path = "bench/?.lua;" .. package.path
local vdx = require "vdx"
local lib = require "lib"
local json = require "vdx.json"

local PAGE = arg[1] or "shop.html"
local REPS = tonumber(arg[2] or "") or 11
local BUDGET = 12000

local h = lib.mcp_harness(PAGE)
local server, reg, mgr, page, url, sink = h.server, h.registry, h.roles, h.page, h.url, h.sink
local ctx = { roles = mgr, role = mgr:current(), role_name = "default", tools = reg, log = function() end }
function ctx.page(c) return c.role:page() end

local parts = { snapshot = {}, tool = {}, encode = {}, write = {}, message = {}, gc = {} }
local time = lib.timed
local line = json.encode { jsonrpc = "2.0", id = 7, method = "tools/call",
  params = { name = "browser_snapshot", arguments = {} } }
local chars
for i = 0, REPS do
  local keep = i > 0 and function(list, fn) return time(list, fn) end or function(_, fn) return fn() end
  keep(parts.snapshot, function() return page:snapshot { budget_tokens = BUDGET } end)
  local res = keep(parts.tool, function() return reg:call("browser_snapshot", {}, ctx) end)
  local msg = { jsonrpc = "2.0", id = 7, result = res }
  local text = keep(parts.encode, function() return json.encode(msg) end)
  chars = #text
  keep(parts.write, function() sink:write(text, "\n") sink:flush() end)
  keep(parts.message, function() return server:handle_line(line) end)
  keep(parts.gc, function() collectgarbage() end)
end

-- The first snapshot of a fresh document: right away, and after 0.5 s.
local now, later = {}, {}
for _ = 1, math.max(3, REPS // 2) do
  page:navigate(url)
  time(now, function() return page:snapshot { budget_tokens = BUDGET } end)
  page:navigate(url)
  vdx.sleep(500)
  time(later, function() return page:snapshot { budget_tokens = BUDGET } end)
end

local m = lib.machine()
print(("%s, %s reps, load %s, reply %d chars, Lua heap %.0f KiB"):format(PAGE, REPS, m.load1, chars,
  collectgarbage("count")))
local base_med = lib.stats(parts.snapshot).median
for _, k in ipairs { "snapshot", "tool", "encode", "write", "message", "gc" } do
  local st = lib.stats(parts[k])
  print(("  %-9s median %7s ms  p95 %7s ms  %5.2fx the snapshot"):format(k, lib.fmt(st.median), lib.fmt(st.p95),
    st.median / base_med))
end
local a, b = lib.stats(now), lib.stats(later)
print(("  first snapshot of a fresh document: right away %s ms (p95 %s), 0.5 s later %s ms (p95 %s)"):format(
  lib.fmt(a.median), lib.fmt(a.p95), lib.fmt(b.median), lib.fmt(b.p95)))
h.close()
