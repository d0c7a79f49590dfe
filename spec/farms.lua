--- spec/farms.lua: browserless farms for the specs (spec/farm_spec.lua,
-- spec/farm_auth_spec.lua, spec/farm_recipe_spec.lua).  A farm is
-- build-aux/farm.mjs started with --pidfile, so the start returns once it
-- serves, and with --parent set to this test process, so a run that dies
-- leaves no farm behind.  `make deps` installs browserless into build/farm
-- (or $VDX_FARM_DIR); the specs install nothing and are pending, saying
-- why, without it.
local helpers = require "helpers"
local client = require "mcp_client"

local farms = {}

farms.DIR = os.getenv("VDX_FARM_DIR") or "build/farm"
farms.TOKEN = "vdx-farm-spec"

local q, read = helpers.quote, helpers.read

--- A new empty folder under /tmp; wait_until(pred, ms) turns the loop
-- until pred() is true (spec/mcp_client.lua's).
farms.tmpdir, farms.wait_until = client.tmpdir, client.wait_until

--- Nil when browserless is installed in farms.DIR and Node can run it, or
-- why not.
function farms.missing()
  local _, has = helpers.run("command -v node")
  if has ~= 0 then return "Node is not installed: browserless cannot run here" end
  if not read(farms.DIR .. "/node_modules/@browserless.io/browserless/package.json") then
    return "browserless is not installed in " .. farms.DIR .. ": run make deps (it needs Node and npm)"
  end
end

--- A TCP port nobody listens on now.
function farms.free_port()
  local s = helpers.serve {}
  local port = s.url:match(":(%d+)")
  s:close()
  return port
end

--- This process's id (the test run's).
function farms.my_pid()
  return tonumber(read("/proc/self/stat"):match("^(%d+)"))
end

--- Processes descended from pid (pid itself excluded), as { pid = comm }.
function farms.descendants(pid)
  local procs = {}
  local p = io.popen("ps -e -o pid=,ppid=,stat=,comm=")
  for line in p:lines() do
    local id, ppid, stat, comm = line:match("(%d+)%s+(%d+)%s+(%S+)%s+(.*)")
    if id and not stat:match("Z") then procs[#procs + 1] = { tonumber(id), tonumber(ppid), comm } end
  end
  p:close()
  local mine, grew = { [pid] = true }, true
  local out = {}
  while grew do
    grew = false
    for _, k in ipairs(procs) do
      if mine[k[2]] and not mine[k[1]] then
        mine[k[1]], out[k[1]], grew = true, k[3], true
      end
    end
  end
  return out
end

--- Starts a farm; env is extra environment ("CONCURRENT=1 QUEUED=0").
-- Returns { port, pid, endpoint, http, log, stop, kill } or nil and the
-- end of its log.
function farms.start(env)
  local dir = client.tmpdir()
  local port = farms.free_port()
  -- Its browsers' profiles go in dir, which stop() removes: a killed
  -- farm cleans up nothing.
  local out, rc = helpers.run(("DATA_DIR=%s %s node build-aux/farm.mjs %s %s %s --pidfile %s --parent %d"):format(
    q(dir .. "/data"), env or "", q(farms.DIR), port, farms.TOKEN, q(dir .. "/pid"), farms.my_pid()))
  if rc ~= 0 then
    os.execute("rm -rf " .. q(dir))
    return nil, out
  end
  local f = { port = port, dir = dir, log = dir .. "/pid.log", pid = tonumber(read(dir .. "/pid")),
    endpoint = ("ws://127.0.0.1:%s/chromium?token=%s"):format(port, farms.TOKEN),
    http = ("http://127.0.0.1:%s?token=%s"):format(port, farms.TOKEN) }
  local stopped = false
  local function gone() return not helpers.alive(f.pid) end
  --- Stops the farm (SIGTERM: it ends its browsers) and waits for it.
  function f.stop()
    if stopped then return end
    stopped = true
    os.execute("kill -TERM " .. f.pid .. " 2>/dev/null")
    client.wait_until(gone, 20000)
    os.execute("rm -rf " .. q(dir))
  end
  --- Kills the farm at once (SIGKILL), as a crash would, then the browsers
  -- it leaves behind (stop() then removes what they left on disk).
  function f.kill()
    local kids = farms.descendants(f.pid)
    os.execute("kill -KILL " .. f.pid)
    client.wait_until(gone, 20000)
    for pid in pairs(kids) do os.execute("kill -KILL " .. pid .. " 2>/dev/null") end
  end
  return f
end

--- The browsers a farm has open for clients (distinct browsers among the
-- targets its /sessions route lists), or nil and the reason.
function farms.sessions(f)
  local out, st = helpers.run(("node -e %s"):format(q(
    ("fetch('http://127.0.0.1:%s/sessions?token=%s').then(r => r.json())" ..
     ".then(j => console.log(new Set(j.map((s) => s.browserId)).size))"):format(f.port, farms.TOKEN))))
  if st ~= 0 then return nil, out end
  return tonumber(out:match("(%d+)"))
end

--- Chromium processes the farm process started.
function farms.browsers(f)
  local n = 0
  for _, comm in pairs(farms.descendants(f.pid)) do
    if comm:match("chrom") then n = n + 1 end
  end
  return n
end

--- Waits until the farm has no session and no browser process left;
-- returns the last counts seen.
function farms.drained(f)
  local s, b
  client.wait_until(function()
    s, b = farms.sessions(f), farms.browsers(f)
    return s == 0 and b == 0
  end, 20000)
  return s, b
end

return farms
