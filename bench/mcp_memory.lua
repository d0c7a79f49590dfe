--- bench/mcp_memory.lua: what a `vdxlua mcp` process holds as it reads
-- ever larger pages: navigate + snapshot of the shop, the 20,000 and the
-- 100,000-element pages and the shop again, the server's RSS (and its
-- anonymous part) right after each snapshot and 0.6 s later, when an
-- agent would still be thinking (vdx.mcp_idle trims 200 ms after the last
-- call).  Run it with two builds' binaries to compare.
--
-- Usage: build/vdxlua bench/mcp_memory.lua [VDXLUA]   (VDXLUA: the server's
-- binary, default build/vdxlua)
package.path = "bench/?.lua;spec/?.lua;" .. package.path
local vdx = require "vdx"
local fx = require "fixtures"
local client = require "mcp_client"

local bin = arg[1] or "build/vdxlua"
local srv, base = fx.serve(vdx)
local s = client.start("", nil, { vdxlua = bin })
local _, call = client.caller(s)

-- The server: the `BIN mcp` process whose parent shell reads the
-- session's folder.
local procs, pid = {}, nil
local p = io.popen("ps -eo pid=,ppid=,args=")
for l in p:lines() do
  local id, parent, args = l:match("^%s*(%d+)%s+(%d+)%s+(.*)$")
  if id then procs[#procs + 1] = { id = id, parent = parent, args = args } end
end
p:close()
local shells = {}
for _, x in ipairs(procs) do if x.args:find(s.dir .. "/in", 1, true) then shells[x.id] = true end end
for _, x in ipairs(procs) do
  if shells[x.parent] and x.args:sub(1, #bin + 4) == bin .. " mcp" then pid = x.id end
end
assert(pid, "no server process found")

local function mem()
  local t = {}
  for l in io.lines("/proc/" .. pid .. "/smaps_rollup") do
    local k, v = l:match("^(%w+):%s+(%d+) kB")
    if k then t[k] = tonumber(v) end
  end
  return t.Rss / 1024, t.Anonymous / 1024
end

print(("server %s (pid %s)"):format(bin, pid))
for _, page in ipairs { "shop.html", "elements-20000.html", "elements-100000.html", "shop.html" } do
  call("browser_navigate", { url = base["local"] .. "/" .. page })
  call("browser_snapshot", {})
  local r1, a1 = mem()
  vdx.sleep(600)
  local r2, a2 = mem()
  print(("%-22s right after: RSS %5.1f MiB (anonymous %4.1f)   0.6 s later: RSS %5.1f MiB (anonymous %4.1f)")
    :format(page, r1, a1, r2, a2))
end
s:close()
srv:close()
