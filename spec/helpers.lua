--- spec/helpers.lua: shared set-up for the specs.
local vdx = require "vdx"

local helpers = {}

--- The vdxlua binary of the build under test.
helpers.vdxlua = (os.getenv("VDX_BUILD") or "build") .. "/vdxlua"

--- Starts the fixture server on spec/fixtures (port 0) with extra routes.
function helpers.serve(routes)
  return vdx.serve { root = "spec/fixtures", port = 0, routes = routes }
end

--- Runs fn(err) for the error that f raises; fails when f does not raise.
function helpers.error_of(f, ...)
  local ok, err = pcall(f, ...)
  assert(not ok, "expected an error, got success")
  return err
end

--- Process ids still alive among pids (via /proc).
function helpers.alive(pid)
  local f = io.open("/proc/" .. pid .. "/stat")
  if not f then return false end
  local stat = f:read("a")
  f:close()
  return not stat:match("^%d+ %b() Z")
end

--- Number of processes in the process group pgid (zombies excluded).
function helpers.group_size(pgid)
  local p = io.popen("ps -o pid=,stat= -g " .. pgid .. " 2>/dev/null")
  local n = 0
  for line in p:lines() do
    if not line:match("%sZ") then n = n + 1 end
  end
  p:close()
  return n
end

--- Runs a shell command; returns its stdout and exit status.
function helpers.run(cmd)
  local p = io.popen(cmd .. " 2>&1; echo \"@@$?\"")
  local out = p:read("a")
  p:close()
  local body, status = out:match("^(.*)@@(%d+)%s*$")
  return body, tonumber(status)
end

--- The bytes of the file at path, or nil when it cannot be read.
function helpers.read(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return s
end

--- path quoted for sh.
function helpers.quote(s)
  return "'" .. tostring(s):gsub("'", "'\\''") .. "'"
end

return helpers
