--- vdx.flow_serve: the app a flow serves in its own process, for the
-- exported test.  A flow script often starts its app with vdx.serve before
-- flow.run, on a port the system picks, and the app ends with the flow; the
-- Playwright test written from the run then has nothing to run against.
-- So the written playwright.config starts the same app again with
-- `vdxlua FLOW --serve-only PORT`: the script runs up to flow.run as
-- before, the server that served the flow's base URL listens on PORT, and
-- flow.run serves instead of acting until the process is ended.  To know
-- which server that is, and to give it its port, vdx.serve is wrapped once,
-- when flows are loaded: it numbers the servers the program starts (the
-- same script starts them in the same order).
local vdx = require "vdx"

local M = {}

-- The servers this program started, in order: { asked = port or nil,
-- server = vdx.Server or nil }.
local started = {}
-- The server that gets a fixed port: { port = n, index = i } (--serve-only).
local reserved

local original = vdx.serve
--- vdx.serve as documented (docs/api.md); also numbers the server and,
-- under --serve-only, gives the reserved one its port.
function vdx.serve(opts)
  local index = #started + 1
  local o = opts
  if reserved and reserved.index == index and type(opts) == "table" and (opts.port == nil or opts.port == 0) then
    o = {}
    for k, v in pairs(opts) do o[k] = v end
    o.port = reserved.port
  end
  local srv, err = original(o)
  started[index] = { asked = type(opts) == "table" and opts.port or nil, server = srv }
  return srv, err
end

--- How many servers the program has started so far.
function M.count()
  return #started
end

--- Parses the value of --serve-only, "PORT" or "PORT@N" (the Nth server
-- the script starts; the first by default); returns port, index or nil.
function M.parse(value)
  local s = tostring(value)
  local port, index = s:match("^(%d+)$"), "1"
  if not port then port, index = s:match("^(%d+)@(%d+)$") end
  port, index = tonumber(port), tonumber(index)
  if not port or port < 1 or port > 65535 or not index or index < 1 then return nil end
  return port, index
end

--- Reserves port for the index-th server the program starts.
function M.reserve(port, index)
  reserved = { port = port, index = index or 1 }
end

--- The server of this process that serves base_url, started before the
-- flow began (the first `before` servers): { index, port } or nil.
function M.app_of(base_url, before)
  local port = tonumber(tostring(base_url or ""):match("^%a[%w+.-]*://[^/:]+:(%d+)"))
  if not port then return nil end
  for i = 1, math.min(before, #started) do
    local s = started[i].server
    if s and not s.closed and s.port == port then return { index = i, port = port } end
  end
  return nil
end

-- The absolute path of file, or nil.
local function real(file)
  local ok, path = pcall(vdx.realpath, file)
  return ok and path or nil
end

--- The program and script that run this flow again: vdxlua's absolute
-- path, the script's, and the script's own arguments; or nil and why not
-- (the flow did not run from a script under vdxlua).
function M.rerun()
  local a = rawget(_G, "arg")
  local exe = real("/proc/self/exe") or (a and a[-1] and a[-1]:find("/", 1, true) and real(a[-1]))
  if not package.loaded["vdx.cli"] or not exe or not exe:match("/vdxlua[^/]*$") then
    return nil, "the flow did not run under vdxlua"
  end
  local script = a and type(a[0]) == "string" and a[0]:match("%.lua$") and real(a[0])
  if not script then return nil, "the flow did not run from a script file" end
  local args = {}
  for i = 1, #a do args[i] = a[i] end
  return { exe = exe, script = script, args = args }
end

--- Serves, for flow.run under --serve-only: says where, then waits until
-- the process is ended.  Returns 1 (having said why) when the script
-- started no server to serve before flow.run.
function M.serve_forever(name, base_url)
  local rec = reserved and started[reserved.index]
  if not (rec and rec.server) then
    io.stderr:write(("vdxlua --serve-only: the script started %d servers before flow.run, so there is no server %d "
      .. "to serve on port %d; run the flow again with --emit-playwright to write a config that matches the "
      .. "script, or start the app yourself and set BASE_URL\n"):format(#started, reserved and reserved.index or 1,
      reserved and reserved.port or 0))
    return 1
  end
  io.stdout:write(("serving %s for the flow \"%s\" on port %d (--serve-only: its steps do not run; "
    .. "end it with Ctrl-C)\n"):format(base_url or rec.server.url, name, rec.server.port))
  io.stdout:flush()
  while true do vdx.sleep(3600 * 1000) end
end

return M
