--- spec/mcp_client.lua: drives `vdxlua mcp` as a subprocess over stdio,
-- from a spec whose main chunk keeps vdx's loop turning (vdx.sleep), so
-- fixture servers in the spec process keep answering meanwhile.
local vdx = require "vdx"
local cjson = require "cjson"
local helpers = require "helpers"

local client = {}

--- A new empty folder under /tmp.
local function tmpdir()
  local p = io.popen("mktemp -d /tmp/vdx-mcp-spec.XXXXXX")
  local d = p:read("l")
  p:close()
  return d
end
client.tmpdir = tmpdir

local q = helpers.quote

local read = helpers.read

--- Shell-quotes s; reads a whole file (nil when it cannot): for specs
-- that run processes beside the MCP server.
client.quote, client.read = q, read
client.q = q

--- The names in folder dir, sorted.
function client.names(dir)
  local out = {}
  local p = io.popen("ls -A " .. q(dir) .. " 2>/dev/null")
  for l in p:lines() do out[#out + 1] = l end
  p:close()
  return out
end

--- Decodes each line of text; returns the list of messages (undecodable
-- lines become {raw = line}).
function client.decode_lines(text)
  local out = {}
  for line in (text or ""):gmatch("([^\n]*)\n") do
    local ok, v = pcall(cjson.decode, line)
    out[#out + 1] = ok and v or { raw = line }
  end
  return out
end

-- opts (optional): vdxlua, the binary (default helpers.vdxlua); cwd, the
-- folder it starts in; default_skills, true to keep the built-in skills.
local function start_process(dir, args, stdin, env, opts)
  opts = opts or {}
  -- The exit status is written to rc.tmp and renamed, so a reader never
  -- sees the file created but still empty.
  local cmd = ("( %s%s%s mcp %s%s < %s > %s/out 2> %s/err; echo $? > %s/rc.tmp; mv %s/rc.tmp %s/rc ) >/dev/null 2>&1 &")
    :format(opts.cwd and ("cd " .. q(opts.cwd) .. " && ") or "", env and (env .. " ") or "",
      opts.vdxlua or helpers.vdxlua, opts.default_skills and "" or "--no-default-skills ", args or "",
      stdin, dir, dir, dir, dir, dir)
  os.execute(cmd)
end

--- Waits (turning the loop) until pred() is true or timeout_ms passes;
-- returns pred's last value.
function client.wait_until(pred, timeout_ms)
  local waited = 0
  local v = pred()
  while not v and waited < (timeout_ms or 30000) do
    vdx.sleep(25)
    waited = waited + 25
    v = pred()
  end
  return v
end

--- Runs `vdxlua mcp ARGS` with the given lines (strings or tables) on
-- stdin; returns the decoded output messages, the raw stdout, the stderr
-- text and the exit status.
function client.batch(lines, args, timeout_ms)
  local dir = tmpdir()
  local f = assert(io.open(dir .. "/in", "wb"))
  for _, l in ipairs(lines) do
    f:write(type(l) == "table" and cjson.encode(l) or l, "\n")
  end
  f:close()
  start_process(dir, args, dir .. "/in")
  client.wait_until(function() return read(dir .. "/rc") end, timeout_ms or 60000)
  local out, err, rc = read(dir .. "/out") or "", read(dir .. "/err") or "", read(dir .. "/rc")
  os.execute("rm -rf " .. q(dir))
  return client.decode_lines(out), out, err, tonumber(rc)
end

--- Starts an interactive session (stdin is a FIFO); env, when given, is
-- a string of VAR=value assignments for the server's environment; opts
-- as start_process takes them (another binary, folder, the built-in
-- skills).  The session has :send(msg), :wait_for(id_or_pred,
-- timeout_ms), :messages(), :close().
function client.start(args, env, opts)
  local dir = tmpdir()
  os.execute("mkfifo " .. q(dir .. "/in"))
  start_process(dir, args, dir .. "/in", env, opts)
  local w = assert(io.open(dir .. "/in", "wb"))
  local s = { dir = dir }
  function s:send(msg)
    w:write(type(msg) == "table" and cjson.encode(msg) or msg, "\n")
    w:flush()
  end
  function s:messages()
    return client.decode_lines(read(dir .. "/out") or "")
  end
  function s:wait_for(want, timeout_ms)
    local pred = type(want) == "function" and want or function(m) return m.id == want end
    return client.wait_until(function()
      for _, m in ipairs(self:messages()) do if pred(m) then return m end end
    end, timeout_ms)
  end
  function s:stderr() return read(dir .. "/err") or "" end
  function s:close(timeout_ms)
    if w then w:close() w = nil end
    local rc = client.wait_until(function() return read(dir .. "/rc") end, timeout_ms or 60000)
    local msgs = self:messages()
    os.execute("rm -rf " .. q(dir))
    return tonumber(rc), msgs
  end
  return s
end

--- A describe's tear-down of what a set-up started, each that is there:
-- the session s, the fixture server srv and the folder dir.
function client.stop(s, srv, dir)
  if s then s:close(30000) end
  if srv then srv:close() end
  if dir then os.execute("rm -rf " .. q(dir)) end
end

--- Initializes session s (protocol v) and returns request(method, params
-- [, timeout_ms])
-- and call(tool, args), which send with fresh ids and return the result.
function client.caller(s, v)
  s:send(client.initialize(1, v or "2025-06-18"))
  assert(s:wait_for(1, 10000), "initialize did not answer")
  local n = 1
  local function request(method, params, timeout_ms)
    n = n + 1
    s:send { jsonrpc = "2.0", id = n, method = method, params = params }
    return assert(s:wait_for(n, timeout_ms or 60000), method .. " did not answer").result
  end
  return request, function(name, args) return request("tools/call", { name = name, arguments = args }) end
end

--- Initializes session s and returns call(tool, args) -> result, its
-- first text (a failed call is an answer too), and ok(tool, args), which
-- asserts the call is no error; each waits up to timeout_ms (120 s).
function client.tools(s, timeout_ms)
  local request = client.caller(s)
  local function call(name, args)
    local r = request("tools/call", { name = name, arguments = args }, timeout_ms or 120000)
    return r, r.content and r.content[1] and r.content[1].text or ""
  end
  return call, function(name, args)
    local r, text = call(name, args)
    assert(not r.isError, text)
    return r, text
  end
end

--- The initialize request for protocol version v.
function client.initialize(id, v)
  return { jsonrpc = "2.0", id = id, method = "initialize", params = { protocolVersion = v,
    capabilities = {}, clientInfo = { name = "spec", version = "1" } } }
end

--- A request carrying 2026-07-28 per-request _meta.
function client.modern(id, method, params)
  params = params or {}
  params._meta = params._meta or {}
  params._meta["io.modelcontextprotocol/protocolVersion"] = "2026-07-28"
  params._meta["io.modelcontextprotocol/clientCapabilities"] = {}
  params._meta["io.modelcontextprotocol/clientInfo"] = { name = "spec", version = "1" }
  return { jsonrpc = "2.0", id = id, method = method, params = params }
end

--- A tools/call request.
function client.call(id, name, args)
  return { jsonrpc = "2.0", id = id, method = "tools/call", params = { name = name, arguments = args } }
end

--- The message with this id in list.
function client.by_id(list, id)
  for _, m in ipairs(list) do if m.id == id then return m end end
end

--- The text of a tools/call result.
function client.text(msg)
  local c = msg and msg.result and msg.result.content
  return c and c[1] and c[1].text or ""
end

return client
