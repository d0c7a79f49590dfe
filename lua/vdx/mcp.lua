--- vdx.mcp: the MCP server over stdio (`vdxlua mcp`).  JSON-RPC 2.0, one
-- message a line; nothing but protocol on stdout.  Legacy revisions
-- (2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25) open with `initialize`;
-- the 2026-07-28 revision has no handshake: every request carries its
-- protocol version and client capabilities in `_meta`, and
-- `server/discover` tells what the server supports.  Each request runs as
-- its own task on the loop, so browser events keep flowing and a slow
-- call does not hold up the next message; tool calls queue per role
-- (vdx.mcp_lanes), so one role's slow call does not hold up another's.
local vdx = require "vdx"
local json = require "vdx.json"
local errors = require "vdx.errors"
local skills_mod = require "vdx.skills"
local busy = require "vdx.busy"
local schema = require "vdx.schema"
local limits = require "vdx.mcp_limits"
local tools = require "vdx.tools"
local secrets = require "vdx.secrets"
local run_token = require "vdx.run_token"
local remembered = require "vdx.remembered"
local locators = require "vdx.locators"
local action = require "vdx.action"
local pw_spec = require "vdx.pw_spec"
local lanes = require "vdx.mcp_lanes"
local notes = require "vdx.mcp_notes"

local mcp = {}

--- Revisions that use the initialize handshake, newest first.
mcp.LEGACY = { "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05" }
--- Revisions that carry the version on every request.
mcp.MODERN = { "2026-07-28" }
--- Every revision served, newest first.
mcp.SUPPORTED = { "2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05" }

--- How long an agent's action waits for its element to show, when it is
-- not visible (vdx.action.hidden_wait): 5 s, the time Playwright gives an
-- expect, where the action's whole timeout is 30 s.
mcp.HIDDEN_MS = 5000

local META_VERSION = "io.modelcontextprotocol/protocolVersion"
local META_CAPS = "io.modelcontextprotocol/clientCapabilities"
local META_SERVER = "io.modelcontextprotocol/serverInfo"

local PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL =
  -32700, -32600, -32601, -32602, -32603
local UNSUPPORTED_VERSION, RESOURCE_NOT_FOUND_LEGACY = -32022, -32002

local INSTRUCTIONS = "vdxlua drives a real Chromium and writes Playwright tests with you. The loop: " ..
  "browser_navigate (a small page comes outlined) -> browser_find(text | role, name, context) for the refs you " ..
  "need (a full browser_snapshot only for an unknown page, or with root=<container ref>) -> act by ref or by " ..
  "the element's name, with expect=[texts] to check and record what it should show; each action answers with " ..
  "the verified Locator of its target, what changed and proposed assertions [aN], so rarely snapshot again -> " ..
  "browser_verify_* for other facts -> browser_export_test(filename, assertions=[aN…], runs=3) writes the spec " ..
  "and names any flaky step. Structure questions (resolve_container, inspect_pattern, extract_anchors) when a " ..
  "locator needs judgment.{roles} A test that needs mocked requests, a fake clock, " ..
  "another device or dark mode: enable_tools. More, for a client that reads MCP prompts or resources: the " ..
  "prompt vdx-selector-authoring (skill://vdx-selector-authoring/SKILL.md); the tools alone do the job."

--- What the server tells a client in initialize: the agent loop in brief,
-- the role tools when it has roles to choose among (more than one), and
-- the folder the specs are written to, when given (output: a path; runs
-- FJ and FL learned it only from their first export).
function mcp.instructions(roles, output)
  local told = roles > 1 and " Roles: list_roles, select_role, or role= on a page tool." or ""
  local text = INSTRUCTIONS:gsub("{roles}", told)
  if type(output) == "string" then text = text .. " Specs are written to " .. output .. "." end
  return text
end

-- Tools that only read (list_roles): they wait for the calls before them at
-- most this long, so a page whose script never yields cannot hold them up.
local READERS = { list_roles = 2000 }

local function contains(list, v)
  for _, x in ipairs(list) do if x == v then return true end end
  return false
end

local Server = {}
Server.__index = Server

--- A server.  opts: registry (vdx.tools), roles (vdx.roles), skills (list),
-- paths (the vdx.paths policy the tools follow; default: no workspace),
-- write(line) (one complete line of output), log(level, fmt, …),
-- max_bytes (the message limit, for error text), idle_trim (false: keep
-- freed memory instead of trimming it while idle, see vdx.mcp_idle).
function mcp.new(opts)
  local self = setmetatable({
    registry = opts.registry, roles = opts.roles, skills = opts.skills or {},
    paths = opts.paths or require("vdx.paths").new {},
    write_line = opts.write, log = opts.log or function() end, max_bytes = opts.max_bytes,
    version = nil, ready = false, inflight = {},
    session = require("vdx.session_log").new(),
    info = { name = "vdxlua", title = "vdxlua", version = vdx.version },
  }, Server)
  self.lanes = lanes.new(self.roles)
  -- Memory a large page passed through goes back to the system while the
  -- client thinks (vdx.mcp_idle); idle_trim = false turns it off.
  if opts.idle_trim ~= false then
    self.idle = require("vdx.mcp_idle").new(function() return next(self.inflight) ~= nil end)
  end
  self.registry:on_change(function() self:changed("tools") end)
  return self
end

--- Tells the client that a list changed ("tools", "resources" or
-- "prompts"); inside Server:batch, once at the end of the batch.
function Server:changed(what)
  if self.batching then self.batching[what] = true return end
  if self.ready then self:notify("notifications/" .. what .. "/list_changed", nil) end
end

--- Runs fn, then sends one list_changed notification per list it changed.
-- An error in fn is logged; the lists keep what fn did before it.
function Server:batch(fn)
  local outer = self.batching
  self.batching = outer or {}
  local ok, err = pcall(fn)
  if not ok then self.log("error", "reload failed: %s", tostring(err)) end
  if outer then return end
  local changed = self.batching
  self.batching = nil
  for _, what in ipairs { "tools", "resources", "prompts" } do
    if changed[what] then self:changed(what) end
  end
end

--- Replaces the skills served: the lists base and extra, in order.
function Server:set_skills(base, extra)
  local all = {}
  for _, s in ipairs(base or {}) do all[#all + 1] = s end
  for _, s in ipairs(extra or {}) do all[#all + 1] = s end
  self.skills = all
  self:changed("resources")
  self:changed("prompts")
end

--- Writes one message (a table) as one line; never a partial line.
-- Every answer, notification and error leaves here, so no secret's value
-- (vdx.secrets) is in any of them: each string is redacted, and then the
-- line, for a value that JSON escapes.
function Server:send(msg)
  -- The current test's token is shown as the `{run}` that stands for it.
  -- So is a value the test remembered, as its `{name}` (vdx.remembered).
  local token = self.session and self.session.token
  local shown = remembered.shown(self.session)
  if token then table.insert(shown, 1, token) end
  if #shown > 0 then msg = run_token.answer(msg, shown) end
  local text, err = json.encode(secrets.redact_all(msg))
  if text then text = secrets.redact(text) end
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
    instructions = mcp.instructions(self.roles:count(), self.paths.output) }
end

handlers["server/discover"] = function(self)
  return { supportedVersions = json.array { table.unpack(mcp.SUPPORTED) },
    capabilities = self:capabilities(), serverInfo = self.info,
    instructions = mcp.instructions(self.roles:count(), self.paths.output) }
end

handlers["tools/list"] = function(self, rq)
  return { tools = require("vdx.mcp_list").list(self.registry, rq.version, self.roles:count() <= 1) }
end

handlers["tools/call"] = function(self, rq)
  local p = rq.params
  if type(p.name) ~= "string" then error(proto(INVALID_PARAMS, "tools/call: params.name must be a string"), 0) end
  if not self.registry:get(p.name) then
    local cap = require("vdx.builtin").cap_of(p.name)
    if cap then
      error(proto(INVALID_PARAMS, ("Tool %s is not served yet: enable_tools {\"caps\": [\"%s\"]} serves it "
        .. "(or start vdxlua mcp with --caps %s)"):format(p.name, cap, cap), { tool = p.name, cap = cap }), 0)
    end
    error(proto(INVALID_PARAMS, "Unknown tool: " .. p.name, { tool = p.name }), 0)
  end
  if p.arguments ~= nil and not is_object(p.arguments) then
    error(proto(INVALID_PARAMS, "tools/call: params.arguments must be an object"), 0)
  end
  -- Text that is not UTF-8 never reaches the browser (which drops the
  -- whole command): it is refused here, before the call queues.
  local bad, path = schema.invalid_utf8(p.arguments or {})
  if bad then
    local res = tools.error_result({ type = "InvalidArgument", message = bad, tool = p.name, field = path },
      { tool = p.name, as_role = self.roles:current().name })
    res.error = nil
    return res
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
        local text, why = skills_mod.read(r.path, r.root)
        if text then
          return { contents = json.array { { uri = uri, mimeType = "text/markdown", text = text } } }
        end
        -- A FIFO, a link or a hard link in its place: say why, at once.
        error(proto(INVALID_PARAMS, "Resource not readable: " .. tostring(why), { uri = uri }), 0)
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
  local watching = self.watching == true
  return { tools = { listChanged = true }, resources = { subscribe = false, listChanged = watching },
    prompts = { listChanged = watching } }
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
-- The call's role is fixed here, as it arrives (vdx.mcp_lanes): calls on
-- different roles run at the same time, calls on one role in the order
-- they arrived.
function Server:call_tool(rq, name, args)
  local reader = READERS[name]
  local okt, t = pcall(self.lanes.arrive, self.lanes, self.registry:get(name), args, reader ~= nil)
  if not okt then
    -- A role that is not configured: refused before the call queues.
    local res = tools.error_result(t, { tool = name, as_role = self.roles:current().name })
    res.error = nil
    return res
  end
  local role = t.role
  -- A call that names a role other than the current one says so first (run
  -- AS selected each role anyway, its navigate's answer not saying which).
  local other = t.scope == "role" and role ~= self.roles.current_ and role.name or nil
  local ctx = { roles = self.roles, role = role, role_name = role.name, errors = errors,
    log = self.log, tools = self.registry, server = self, paths = self.paths,
    session = self.session, selected = t.select ~= nil }
  -- Methods of ctx, called with a colon: ctx:page(), ctx:cancelled(),
  -- ctx:progress(p, total, message).
  -- A view of ctx in another role (a tool calling a tool with `role`,
  -- vdx.tools) counts as ctx: its methods act in the view's role.
  local function own(c, what)
    local mt = type(c) == "table" and getmetatable(c)
    if c ~= ctx and not (mt and mt.__index == ctx) then
      error(vdx.error("InvalidArgument", ("ctx.%s() was called without the colon: write ctx:%s()"):format(what, what)), 3)
    end
  end
  function ctx:page()
    own(self, "page")
    local page = self.role:page()
    -- The locators of the test's own data go through it (vdx.run_token),
    -- else through the value it remembered last (vdx.remembered).
    locators.anchor(page, ctx.session and ctx.session.token, ctx.session and remembered.anchor(ctx.session))
    action.hidden_wait(page, mcp.HIDDEN_MS)
    return page
  end
  function ctx:cancelled() own(self, "cancelled"); return rq.cancelled end
  -- A ref of the page before it loaded again (vdx.ref_renew).
  function ctx:renew_refs(err) return require("vdx.ref_renew").renewed(self, err) end
  local server = self
  function ctx:progress(p, total, message) own(self, "progress"); server:progress(rq, p, total, message) end
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
  local tell_run
  local okr, res = pcall(self.lanes.run, self.lanes, t, rq, name, function()
    -- `{run}` in a text is the current test's token (vdx.run_token).
    -- The first `{run}` of a session: the answer says what answers do with it.
    if self.session and not self.session.run_told and run_token.mentions(args) then
      self.session.run_told, tell_run = true, true
    end
    local a = remembered.arguments(run_token.arguments(secrets.arguments(name, args), self.session), self.session)
    -- A locator the agent wrote is kept in codegen's quotes, as the test writes them.
    if type(a) == "table" and type(a.locator) == "string" then
      local requoted = pw_spec.requote(a.locator)
      if requoted ~= a.locator then
        local copy = {}
        for k, v in pairs(a) do copy[k] = v end
        copy.locator, a = requoted, copy
      end
    end
    local r = self.registry:call(name, a, ctx)
    return self:unbusy(r, name, ctx)
  end, reader)
  self.lanes:finish(t, not okr or res == nil or res.isError)
  rq.done = true
  if not okr then error(res, 0) end
  if res == nil then return {} end
  notes.add(self, rq, t, res, other, tell_run)
  if res.error then
    self.log("info", "tools/call %s failed: %s: %s", name, res.error.type, tostring(res.error.message))
    res.error = nil
  end
  if rq.version < "2025-06-18" or type(res.structuredContent) ~= "table"
      or json.looks_like_array(res.structuredContent) then
    res.structuredContent = nil
  end
  local _, cut = limits.bound(res, name)
  if cut > 0 then self.log("info", "tools/call %s: %d bytes of its answer cut at the bound", name, cut) end
  return res
end

-- A tool call that failed with Timeout or Cancelled while the role's page
-- held its main thread (the page's own script never yields): stops that
-- script, so the next call works, and a Timeout becomes PageBusy, which
-- says so.  Any other result is returned as it is.
function Server:unbusy(res, name, ctx)
  local kind = res.error and res.error.type
  if kind ~= "Timeout" and kind ~= "Cancelled" then return res end
  local page = ctx.role.page_
  if page == nil or page:is_closed() or not busy.stop(page) then return res end
  self.log("info", "tools/call %s: the page's script was busy; stopped it", name)
  if kind == "Cancelled" then return res end
  return tools.error_result(busy.error(res.error, name), { tool = name, as_role = ctx.role_name })
end

-- The key of a request id in self.inflight; numbers that decode to the
-- same double share a key (as the cancellation's requestId decodes).
local function inflight_key(id)
  if type(id) == "number" then return ("number:%.17g"):format(id) end
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

-- The id of msg as it is echoed: its raw text from the input when known
-- (so "\u0041", 123456789012345678901 or 1.0 come back byte for byte),
-- else the string or integer; nil when the id is not acceptable (not a
-- string or an integral number).
local function reply_id_of(id, raw)
  if type(id) == "string" then return raw and raw:sub(1, 1) == '"' and json.raw(raw) or id end
  if type(id) ~= "number" or id ~= id or id == math.huge or id == -math.huge or id ~= math.floor(id) then
    return nil
  end
  if raw and raw:match("^%-?%d[%d.eE+-]*$") then return json.raw(raw) end
  return math.tointeger(id) or json.raw(("%.17g"):format(id))
end

--- Handles one decoded message; returns the response table, or nil when
-- none is due (notifications, responses, cancelled requests).  raw_id is
-- the id's text in the input, when known.
function Server:message(msg, raw_id)
  if type(msg) ~= "table" or json.looks_like_array(msg) then
    return { jsonrpc = "2.0", id = json.null, error = err_obj(INVALID_REQUEST, "Invalid Request: expected an object") }
  end
  local id = msg.id
  if type(id) == "number" then id = math.tointeger(id) or id end
  local reply = reply_id_of(id, raw_id)
  local id_ok = id == nil or reply ~= nil
  if msg.method == nil and (msg.result ~= nil or msg.error ~= nil) then return nil end
  if msg.jsonrpc ~= "2.0" or type(msg.method) ~= "string" or not id_ok then
    return { jsonrpc = "2.0", id = reply or json.null,
      error = err_obj(INVALID_REQUEST, "Invalid Request: need jsonrpc \"2.0\", a string method and a string or integer id") }
  end
  if msg.params ~= nil and not is_object(msg.params) then
    if id == nil then return nil end
    return { jsonrpc = "2.0", id = reply, error = err_obj(INVALID_PARAMS, "Invalid params: params must be an object") }
  end
  if id == nil then
    self:notification(msg)
    return nil
  end
  local rq = { id = id, method = msg.method, params = msg.params or {} }
  local perr = self:negotiate(rq)
  if perr then return { jsonrpc = "2.0", id = reply, error = perr } end
  local h = handlers[msg.method]
  if not h then
    return { jsonrpc = "2.0", id = reply, error = err_obj(METHOD_NOT_FOUND, "Method not found: " .. msg.method) }
  end
  local key = inflight_key(id)
  self.inflight[key] = rq
  local ok, res = xpcall(h, function(e)
    if getmetatable(e) == PROTO then return e end
    return debug.traceback(tostring(e), 2)
  end, self, rq)
  self.inflight[key] = nil
  if self.idle and msg.method == "tools/call" then self.idle:call_ended() end
  if rq.cancelled then return nil end
  if not ok then
    if getmetatable(res) == PROTO then
      return { jsonrpc = "2.0", id = reply, error = setmetatable(res, nil) }
    end
    self.log("error", "%s: %s", msg.method, tostring(res))
    return { jsonrpc = "2.0", id = reply, error = err_obj(INTERNAL, "Internal error: " .. tostring(res):match("^[^\n]*")) }
  end
  if rq.modern then
    res.resultType = "complete"
    res._meta = { [META_SERVER] = self.info }
  end
  return { jsonrpc = "2.0", id = reply, result = res }
end

--- Handles one input line (runs inside its own task); never raises.
function Server:handle_line(line)
  if line:match("^%s*$") then return end
  local msg, err = json.decode(line)
  if msg == nil then
    return self:send { jsonrpc = "2.0", id = json.null, error = err_obj(PARSE_ERROR, "Parse error: " .. tostring(err)) }
  end
  local raw = json.raw_ids(line)
  if not utf8.len(line) then
    -- JSON text is UTF-8; the decoder let other bytes through.  The
    -- request is answered with its own id (so its client does not wait),
    -- a notification only logged.
    local bad = limits.not_utf8_outside_arguments(msg)
    if bad then
      local single = type(msg) == "table" and not json.looks_like_array(msg)
      if single and msg.id == nil then return self.log("warn", "notification not UTF-8: %s", bad) end
      local id = single and not bad:match("^field id:") and reply_id_of(msg.id, raw[1]) or json.null
      return self:send { jsonrpc = "2.0", id = id, error = err_obj(INVALID_REQUEST, "Invalid Request: the message "
        .. "is not UTF-8 JSON: " .. bad) }
    end
  end
  local ok, perr = pcall(function()
    if type(msg) == "table" and json.looks_like_array(msg) then
      local out = json.array {}
      for i, m in ipairs(msg) do
        local r = self:message(m, raw[i])
        if r then out[#out + 1] = r end
      end
      if #out > 0 then self:send(out) end
    elseif type(msg) == "table" and next(msg) == nil and line:match("^%s*%[") then
      self:send { jsonrpc = "2.0", id = json.null, error = err_obj(INVALID_REQUEST, "Invalid Request: empty batch") }
    else
      local r = self:message(msg, raw[1])
      if r then self:send(r) end
    end
  end)
  if not ok then
    self.log("error", "internal error: %s", tostring(perr))
    local id = type(msg) == "table" and not json.looks_like_array(msg) and reply_id_of(msg.id, raw[1]) or json.null
    self:send { jsonrpc = "2.0", id = id, error = err_obj(INTERNAL, "Internal error") }
  end
end

--- Answers a line that was over the limit.
function Server:too_long(bytes)
  self:send { jsonrpc = "2.0", id = json.null, error = err_obj(INVALID_REQUEST,
    ("Invalid Request: message of %d bytes is over the limit of %d bytes"):format(bytes or 0, self.max_bytes or 0),
    { bytes = bytes, limit = self.max_bytes }) }
end

--- `vdxlua mcp [options]`: serves MCP on stdin/stdout until stdin ends;
-- returns the exit status.  The start-up (options, tools, skills, roles,
-- hot reload, the stdin loop) lives in vdx.mcp_main.
function mcp.main(args)
  return require("vdx.mcp_main").main(args)
end

return mcp
