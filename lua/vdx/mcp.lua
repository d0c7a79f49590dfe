--- vdx.mcp: the MCP server over stdio (`vdxlua mcp`).  JSON-RPC 2.0, one
-- message a line; nothing but protocol on stdout.  Legacy revisions
-- (2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25) open with `initialize`;
-- the 2026-07-28 revision has no handshake: every request carries its
-- protocol version and client capabilities in `_meta`, and
-- `server/discover` tells what the server supports.  Each request runs as
-- its own task on the loop, so browser events keep flowing and a slow
-- call does not hold up the next message.
local vdx = require "vdx"
local json = require "vdx.json"
local tools = require "vdx.tools"
local errors = require "vdx.errors"
local skills_mod = require "vdx.skills"

local mcp = {}

--- Revisions that use the initialize handshake, newest first.
mcp.LEGACY = { "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05" }
--- Revisions that carry the version on every request.
mcp.MODERN = { "2026-07-28" }
--- Every revision served, newest first.
mcp.SUPPORTED = { "2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05" }

local META_VERSION = "io.modelcontextprotocol/protocolVersion"
local META_CAPS = "io.modelcontextprotocol/clientCapabilities"
local META_SERVER = "io.modelcontextprotocol/serverInfo"

local PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL =
  -32700, -32600, -32601, -32602, -32603
local UNSUPPORTED_VERSION, RESOURCE_NOT_FOUND_LEGACY = -32022, -32002

local INSTRUCTIONS = "vdxlua drives a real Chromium. Start with browser_navigate and browser_snapshot; " ..
  "use refs from the latest snapshot. To write a stable locator: resolve_container(ref) -> " ..
  "inspect_pattern(ref, level) -> extract_anchors(ref, level), then prove it with " ..
  "browser_verify_locator. Roles: list_roles, select_role."

local function contains(list, v)
  for _, x in ipairs(list) do if x == v then return true end end
  return false
end

local Server = {}
Server.__index = Server

--- A server.  opts: registry (vdx.tools), roles (vdx.roles), skills (list),
-- write(line) (one complete line of output), log(level, fmt, …),
-- max_bytes (the message limit, for error text).
function mcp.new(opts)
  local self = setmetatable({
    registry = opts.registry, roles = opts.roles, skills = opts.skills or {},
    write_line = opts.write, log = opts.log or function() end, max_bytes = opts.max_bytes,
    version = nil, ready = false, inflight = {},
    info = { name = "vdxlua", title = "vdxlua", version = vdx.version },
  }, Server)
  self.registry:on_change(function()
    if self.ready then self:notify("notifications/tools/list_changed", nil) end
  end)
  return self
end

--- Writes one message (a table) as one line; never a partial line.
function Server:send(msg)
  local text, err = json.encode(msg)
  if not text then
    self.log("error", "cannot encode a message: %s", err)
    text = json.encode { jsonrpc = "2.0", id = msg.id == nil and json.null or msg.id,
      error = { code = INTERNAL, message = "internal error: the result could not be encoded: " .. err } }
  end
  self.write_line(text)
end

--- Sends a notification.
function Server:notify(method, params)
  self:send { jsonrpc = "2.0", method = method, params = params }
end

local function err_obj(code, message, data)
  return { code = code, message = message, data = data }
end

-- A protocol error raised inside a handler: error(proto(code, msg, data)).
local PROTO = {}
local function proto(code, message, data)
  return setmetatable(err_obj(code, message, data), PROTO)
end

local function is_object(v)
  return type(v) == "table" and (next(v) == nil or not json.looks_like_array(v))
end

-- Tool definition as listed for the negotiated version.
local function tool_entry(t, version)
  local input = {}
  for k, v in pairs(t.input) do input[k] = v end
  if input.required and #input.required == 0 then input.required = nil end
  input.properties = input.properties or {}
  local e = { name = t.name, description = t.description, inputSchema = input }
  if version >= "2025-03-26" and t.annotations then
    local a = {}
    for k, v in pairs(t.annotations) do a[k] = v end
    if version < "2025-06-18" then a.title = a.title or t.title end
    e.annotations = a
  end
  if version >= "2025-06-18" then
    e.title = t.title
    e.outputSchema = t.output
  end
  return e
end

local handlers = {}

handlers["ping"] = function() return {} end

handlers["initialize"] = function(self, rq)
  local p = rq.params
  if type(p.protocolVersion) ~= "string" then
    error(proto(INVALID_PARAMS, "initialize: params.protocolVersion must be a string"), 0)
  end
  local v = contains(mcp.LEGACY, p.protocolVersion) and p.protocolVersion or mcp.LEGACY[1]
  self.version, self.ready = v, true
  self.client = p.clientInfo
  self.log("info", "initialize: client asked %s, serving %s", p.protocolVersion, v)
  return { protocolVersion = v, capabilities = self:capabilities(), serverInfo = self.info,
    instructions = INSTRUCTIONS }
end

handlers["server/discover"] = function(self)
  return { supportedVersions = json.array { table.unpack(mcp.SUPPORTED) },
    capabilities = self:capabilities(), serverInfo = self.info, instructions = INSTRUCTIONS }
end

handlers["tools/list"] = function(self, rq)
  local list = json.array {}
  for _, t in ipairs(self.registry:list()) do list[#list + 1] = tool_entry(t, rq.version) end
  return { tools = list }
end

handlers["tools/call"] = function(self, rq)
  local p = rq.params
  if type(p.name) ~= "string" then error(proto(INVALID_PARAMS, "tools/call: params.name must be a string"), 0) end
  if not self.registry:get(p.name) then
    error(proto(INVALID_PARAMS, "Unknown tool: " .. p.name, { tool = p.name }), 0)
  end
  if p.arguments ~= nil and not is_object(p.arguments) then
    error(proto(INVALID_PARAMS, "tools/call: params.arguments must be an object"), 0)
  end
  return self:call_tool(rq, p.name, p.arguments or {})
end

handlers["resources/list"] = function(self)
  local list = json.array {}
  for _, s in ipairs(self.skills) do
    for _, r in ipairs(skills_mod.resources(s)) do
      list[#list + 1] = { uri = r.uri, name = r.name, description = r.description, mimeType = "text/markdown" }
    end
  end
  return { resources = list }
end

handlers["resources/templates/list"] = function() return { resourceTemplates = json.array {} } end

handlers["resources/read"] = function(self, rq)
  local uri = rq.params.uri
  if type(uri) ~= "string" then error(proto(INVALID_PARAMS, "resources/read: params.uri must be a string"), 0) end
  for _, s in ipairs(self.skills) do
    for _, r in ipairs(skills_mod.resources(s)) do
      if r.uri == uri then
        local text = skills_mod.read(r.path)
        if text then
          return { contents = json.array { { uri = uri, mimeType = "text/markdown", text = text } } }
        end
      end
    end
  end
  local code = rq.modern and INVALID_PARAMS or RESOURCE_NOT_FOUND_LEGACY
  error(proto(code, "Resource not found", { uri = uri }), 0)
end

handlers["prompts/list"] = function(self)
  local list = json.array {}
  for _, s in ipairs(self.skills) do
    list[#list + 1] = { name = s.name, description = s.description, arguments = json.array {
      { name = "task", description = "What you are working on (added to the prompt)", required = false } } }
  end
  return { prompts = list }
end

handlers["prompts/get"] = function(self, rq)
  local name, args = rq.params.name, rq.params.arguments
  if type(name) ~= "string" then error(proto(INVALID_PARAMS, "prompts/get: params.name must be a string"), 0) end
  for _, s in ipairs(self.skills) do
    if s.name == name then
      local text = skills_mod.body(s)
      if type(args) == "table" and type(args.task) == "string" and args.task ~= "" then
        text = text .. "\n\nTask: " .. args.task
      end
      return { description = s.description, messages = json.array {
        { role = "user", content = { type = "text", text = text } } } }
    end
  end
  error(proto(INVALID_PARAMS, "Unknown prompt: " .. name, { name = name }), 0)
end

--- The server's capabilities.
function Server:capabilities()
  return { tools = { listChanged = true }, resources = { subscribe = false, listChanged = false },
    prompts = { listChanged = false } }
end

-- Sends a progress notification for rq (monotonic progress values).
function Server:progress(rq, progress, total, message)
  if rq.progress_token == nil or rq.cancelled or rq.done then return end
  rq.progress_n = math.max((rq.progress_n or 0) + 1, progress or 0)
  local p = { progressToken = rq.progress_token, progress = rq.progress_n, total = total }
  if message and rq.version >= "2025-03-26" then p.message = message end
  self:notify("notifications/progress", p)
end

--- Runs a tool for request rq; returns the result shaped for its version.
function Server:call_tool(rq, name, args)
  local role = self.roles:current()
  local ctx = { roles = self.roles, role = role, role_name = role.name, errors = errors,
    log = self.log, tools = self.registry, server = self }
  function ctx.page(c) return c.role:page() end
  function ctx.cancelled() return rq.cancelled end
  function ctx.progress(p, total, message) self:progress(rq, p, total, message) end
  if rq.progress_token ~= nil then
    vdx.spawn(function()
      local t0 = vdx.now and vdx.now() or 0
      while not rq.done and not rq.cancelled do
        vdx.sleep(1000)
        if rq.done or rq.cancelled then break end
        local secs = vdx.now and math.floor((vdx.now() - t0) / 1000) or nil
        self:progress(rq, nil, nil, ("%s still running%s"):format(name, secs and (" (" .. secs .. " s)") or ""))
      end
    end)
  end
  local res = self:serialized(rq, function() return self.registry:call(name, args, ctx) end)
  rq.done = true
  if res == nil then return {} end
  if res.error then
    self.log("info", "tools/call %s failed: %s: %s", name, res.error.type, tostring(res.error.message))
    res.error = nil
  end
  if rq.version < "2025-06-18" or type(res.structuredContent) ~= "table"
      or json.looks_like_array(res.structuredContent) then
    res.structuredContent = nil
  end
  return res
end

--- Runs fn for rq after every earlier tool call has finished (calls act
-- on shared pages, so they run one at a time, in arrival order); a call
-- cancelled while it waits is skipped (nil).  Each call waits for the task
-- of the call before it, so the queue is a chain of tasks woken by the
-- loop, with no polling.  A queued call cannot be woken early: it holds
-- no rq.task until its turn, so a cancellation only marks it skipped.
function Server:serialized(rq, fn)
  local me = vdx.current_task()
  local prev = self.last_call
  if me then self.last_call = me end
  -- The earlier call's own failure is its own reply's business.
  if prev and prev ~= me and not prev:done() then pcall(vdx.wait, prev) end
  if rq.cancelled then return nil end
  -- A cancellation wakes this task out of whatever it waits for
  -- (task:cancel raises Cancelled inside it).
  rq.task = me
  local ok, res = pcall(fn)
  rq.task = nil
  if not ok then error(res, 0) end
  return res
end

local function inflight_key(id)
  return type(id) .. ":" .. tostring(id)
end

-- Handles a notification (no answer is ever sent).
function Server:notification(msg)
  local m, p = msg.method, type(msg.params) == "table" and msg.params or {}
  if m == "notifications/initialized" then
    self.ready = true
  elseif m == "notifications/cancelled" then
    local rid = type(p.requestId) == "number" and math.tointeger(p.requestId) or p.requestId
    local rq = rid ~= nil and self.inflight[inflight_key(rid)]
    if rq and rq.method ~= "initialize" then
      rq.cancelled = true
      if rq.task then rq.task:cancel("cancelled by the client") end
      self.log("info", "request %s cancelled: %s", tostring(p.requestId), tostring(p.reason or "no reason"))
    end
  end
end

-- Works out the revision of request rq; returns nil or a protocol error.
function Server:negotiate(rq)
  local meta = type(rq.params._meta) == "table" and rq.params._meta or {}
  local pv = meta[META_VERSION]
  if pv ~= nil then
    if pv ~= mcp.MODERN[1] then
      return err_obj(UNSUPPORTED_VERSION, "Unsupported protocol version",
        { supported = json.array { table.unpack(mcp.SUPPORTED) }, requested = pv })
    end
    if type(meta[META_CAPS]) ~= "table" then
      return err_obj(INVALID_PARAMS, "Invalid params: _meta." .. META_CAPS .. " is required")
    end
    rq.version, rq.modern = pv, true
  elseif rq.method == "initialize" or rq.method == "server/discover" or rq.method == "ping" then
    rq.version = self.version or mcp.LEGACY[1]
  else
    rq.version = self.version or mcp.LEGACY[1]
    if not self.version then
      self.log("warn", "%s before initialize; serving it as %s", rq.method, rq.version)
    end
  end
  rq.progress_token = meta.progressToken
end

--- Handles one decoded message; returns the response table, or nil when
-- none is due (notifications, responses, cancelled requests).
function Server:message(msg)
  if type(msg) ~= "table" or json.looks_like_array(msg) then
    return { jsonrpc = "2.0", id = json.null, error = err_obj(INVALID_REQUEST, "Invalid Request: expected an object") }
  end
  local id = msg.id
  if type(id) == "number" then id = math.tointeger(id) or id end
  local id_ok = id == nil or type(id) == "string" or math.type(id) == "integer"
  local reply_id = id_ok and id or json.null
  if msg.method == nil and (msg.result ~= nil or msg.error ~= nil) then return nil end
  if msg.jsonrpc ~= "2.0" or type(msg.method) ~= "string" or not id_ok then
    return { jsonrpc = "2.0", id = reply_id == nil and json.null or reply_id,
      error = err_obj(INVALID_REQUEST, "Invalid Request: need jsonrpc \"2.0\", a string method and a string or integer id") }
  end
  if msg.params ~= nil and not is_object(msg.params) then
    if id == nil then return nil end
    return { jsonrpc = "2.0", id = id, error = err_obj(INVALID_PARAMS, "Invalid params: params must be an object") }
  end
  if id == nil then
    self:notification(msg)
    return nil
  end
  local rq = { id = id, method = msg.method, params = msg.params or {} }
  local perr = self:negotiate(rq)
  if perr then return { jsonrpc = "2.0", id = id, error = perr } end
  local h = handlers[msg.method]
  if not h then
    return { jsonrpc = "2.0", id = id, error = err_obj(METHOD_NOT_FOUND, "Method not found: " .. msg.method) }
  end
  local key = inflight_key(id)
  self.inflight[key] = rq
  local ok, res = xpcall(h, function(e)
    if getmetatable(e) == PROTO then return e end
    return debug.traceback(tostring(e), 2)
  end, self, rq)
  self.inflight[key] = nil
  if rq.cancelled then return nil end
  if not ok then
    if getmetatable(res) == PROTO then
      return { jsonrpc = "2.0", id = id, error = setmetatable(res, nil) }
    end
    self.log("error", "%s: %s", msg.method, tostring(res))
    return { jsonrpc = "2.0", id = id, error = err_obj(INTERNAL, "Internal error: " .. tostring(res):match("^[^\n]*")) }
  end
  if rq.modern then
    res.resultType = "complete"
    res._meta = { [META_SERVER] = self.info }
  end
  return { jsonrpc = "2.0", id = id, result = res }
end

--- Handles one input line (runs inside its own task); never raises.
function Server:handle_line(line)
  if line:match("^%s*$") then return end
  local msg, err = json.decode(line)
  if msg == nil then
    return self:send { jsonrpc = "2.0", id = json.null, error = err_obj(PARSE_ERROR, "Parse error: " .. tostring(err)) }
  end
  local ok, perr = pcall(function()
    if type(msg) == "table" and json.looks_like_array(msg) then
      local out = json.array {}
      for _, m in ipairs(msg) do
        local r = self:message(m)
        if r then out[#out + 1] = r end
      end
      if #out > 0 then self:send(out) end
    elseif type(msg) == "table" and next(msg) == nil and line:match("^%s*%[") then
      self:send { jsonrpc = "2.0", id = json.null, error = err_obj(INVALID_REQUEST, "Invalid Request: empty batch") }
    else
      local r = self:message(msg)
      if r then self:send(r) end
    end
  end)
  if not ok then
    self.log("error", "internal error: %s", tostring(perr))
    local id = type(msg) == "table" and (type(msg.id) == "string" or math.type(msg.id) == "integer") and msg.id or json.null
    self:send { jsonrpc = "2.0", id = id, error = err_obj(INTERNAL, "Internal error") }
  end
end

--- Answers a line that was over the limit.
function Server:too_long(bytes)
  self:send { jsonrpc = "2.0", id = json.null, error = err_obj(INVALID_REQUEST,
    ("Invalid Request: message of %d bytes is over the limit of %d bytes"):format(bytes or 0, self.max_bytes or 0),
    { bytes = bytes, limit = self.max_bytes }) }
end

-- The logger: level-filtered lines on stderr or the --log file.
local LEVELS = { error = 1, warn = 2, info = 3, debug = 4 }
local function make_logger(o)
  local out = io.stderr
  if o.log then
    local f, err = io.open(o.log, "a")
    if not f then return nil, err end
    f:setvbuf("line")
    out = f
  end
  local max = LEVELS[o.log_level] or 3
  return function(level, fmt, ...)
    if (LEVELS[level] or 3) > max then return end
    local ok, msg = pcall(string.format, fmt, ...)
    out:write(("vdxlua mcp [%s] %s\n"):format(level, ok and msg or tostring(fmt)))
    out:flush()
  end
end

-- Where the built-in skills live: $VDX_SKILLS, else skills/ next to the
-- binary's parent folder, else ./skills.
local function default_skills_dir()
  local env = os.getenv("VDX_SKILLS")
  if env then return env end
  local exe = arg and arg[-1] or (arg and arg[0]) or ""
  local dir = exe:match("^(.*)/[^/]*$")
  if dir then
    local up = dir:match("^(.*)/[^/]*$") or "."
    local f = io.open(up .. "/skills", "r")
    if f then f:close() return up .. "/skills" end
  end
  return "skills"
end

-- Builds the registry, roles and skills from the options; returns the
-- server parts, or nil and a message.
local function setup(o, log)
  local roles_mod = require "vdx.roles"
  local reg = tools.new()
  require("vdx.builtin").register_all(reg)
  local mgr = roles_mod.new { log = log, launch = { headless = o.headless,
    args = #o.browser_args > 0 and o.browser_args or nil, executable = o.executable } }
  if o.config then
    local cfg, err = mgr:load_config(o.config)
    if not cfg then return nil, "--config " .. o.config .. ": " .. tostring(err) end
    for _, f in ipairs(cfg.tools or {}) do o.tools[#o.tools + 1] = f end
    for _, d in ipairs(cfg.skills or {}) do o.skills[#o.skills + 1] = d end
    if cfg.headless == false then mgr.launch_opts.headless = false end
    if cfg.browser_args then mgr.launch_opts.args = cfg.browser_args end
  end
  local ok, err = pcall(function()
    for _, r in ipairs(o.roles) do mgr:add(r) end
    for _, e in ipairs(o.endpoints) do mgr:set_endpoint(e.name, e.url) end
    for _, n in ipairs(o.required) do mgr:role(n).auth_required = true end
  end)
  if not ok then return nil, type(err) == "table" and tostring(err.message) or tostring(err) end
  for _, f in ipairs(o.tools) do
    local added, lerr = reg:load_file(f)
    if added then log("info", "loaded %d tools from %s", #added, f)
    else log("error", "cannot load tool file %s (the other tools keep serving):\n%s", f, lerr) end
  end
  local dirs = {}
  if o.default_skills then dirs[1] = default_skills_dir() end
  for _, d in ipairs(o.skills) do dirs[#dirs + 1] = d end
  local all = {}
  for _, d in ipairs(dirs) do
    local list, problems = skills_mod.load_dir(d, reg, { workspace = o.workspace })
    for _, s in ipairs(list) do all[#all + 1] = s end
    for _, p in ipairs(problems) do log("error", "skill in %s: %s", d, p) end
  end
  return reg, mgr, all
end

--- `vdxlua mcp [options]`: serves MCP on stdin/stdout until stdin ends;
-- returns the exit status.
function mcp.main(args)
  local options = require "vdx.options"
  local o, perr = options.parse(args)
  if not o then
    io.stderr:write("vdxlua mcp: ", perr, "\n", options.USAGE, "\n")
    return 2
  end
  if o.help then io.stderr:write(options.USAGE, "\n") return 0 end
  local log, lerr = make_logger(o)
  if not log then io.stderr:write("vdxlua mcp: --log: ", tostring(lerr), "\n") return 2 end
  -- stdout carries protocol only: prints and io.write from tools go to the log.
  local stdout = io.stdout
  stdout:setvbuf("full")
  _G.print = function(...)
    local parts = table.pack(...)
    for i = 1, parts.n do parts[i] = tostring(parts[i]) end
    log("info", "print: %s", table.concat(parts, "\t", 1, parts.n))
  end
  io.output(io.stderr)
  local reg, mgr, skill_list = setup(o, log)
  if not reg then
    io.stderr:write("vdxlua mcp: ", mgr, "\n")
    return 2
  end
  local server = mcp.new { registry = reg, roles = mgr, skills = skill_list, log = log,
    max_bytes = o.max_bytes, write = function(line)
      stdout:write(line, "\n")
      stdout:flush()
    end }
  log("info", "serving %d tools, %d skills, protocol %s", #reg:list(), #skill_list,
    table.concat(mcp.SUPPORTED, ", "))
  -- Each line runs as its own task; the ones still running at end of input
  -- are waited for (at most a minute in all) before the browsers close.
  local running = {}
  local reader = vdx.read_lines(0, function(line, what, n)
    local me = vdx.current_task()
    running[me] = true
    if line then
      pcall(server.handle_line, server, line)
    elseif what == "too_long" then
      server:too_long(n)
    end
    running[me] = nil
  end, { max_bytes = o.max_bytes })
  reader:wait()
  -- Every line task was queued before the end of input was reported, so
  -- each has started and is in `running` by now.
  local t0, left = vdx.now(), 0
  for t in pairs(running) do
    local rest = 60000 - (vdx.now() - t0)
    if rest <= 0 or not pcall(vdx.wait, t, rest) and vdx.now() - t0 >= 60000 then break end
  end
  for _ in pairs(running) do left = left + 1 end
  log("info", "input closed (waited %d ms; %d calls still running); closing the browsers",
    vdx.now() - t0, left)
  mgr:close()
  stdout:flush()
  return 0
end

return mcp
