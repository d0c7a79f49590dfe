--- bench/serve_fixtures.lua: serves the benchmark's fixture pages
-- (bench/fixtures.lua) for other processes, such as the Node peers of
-- bench/peers.mjs and bench/agent.mjs (whose apps are under /apps/).
-- Usage: build/vdxlua bench/serve_fixtures.lua URLFILE
-- Writes {"local": "http://127.0.0.1:P", "a": "http://a.test:P",
-- "b": "http://b.test:P"} to URLFILE once listening, then serves until it
-- is killed or its standard input closes (at most FIXTURES_TTL seconds,
-- default 3 hours, so a forgotten server ends by itself).
package.path = "bench/?.lua;" .. package.path
local vdx = require "vdx"
local fx = require "fixtures"

local file = arg[1] or error("usage: vdxlua bench/serve_fixtures.lua URLFILE")
-- The agent benchmark's apps (bench/agent.mjs) under /apps/: the static
-- pages (and the status page's data, /apps/api/status.json) and the long
-- documentation page, built by bench/agent/apps/docs.lua.
local docs = dofile("bench/agent/apps/docs.lua")
local srv, base = fx.serve(vdx, { root = "bench/agent",
  routes = { ["GET /apps/docs.html"] = function() return docs() end } })
local tmp = file .. ".tmp"
local f = assert(io.open(tmp, "w"))
f:write(require("cjson").encode(base), "\n")
f:close()
assert(os.rename(tmp, file))
io.stderr:write("fixtures: serving on ", base["local"], "\n")

local ttl = (tonumber(os.getenv("FIXTURES_TTL") or "") or 3 * 3600) * 1000
local stdin_closed = false
local ok, reader = pcall(vdx.read_lines, 0, function(line, why)
  if line == nil and why == "eof" then stdin_closed = true end
end)
local t0 = vdx.now()
while not stdin_closed and vdx.now() - t0 < ttl do vdx.sleep(200) end
if ok then reader:close() end
srv:close()
