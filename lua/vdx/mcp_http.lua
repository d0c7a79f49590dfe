--- vdx.mcp_http: `vdxlua mcp --port N`, MCP over the Streamable HTTP
-- transport (revisions 2025-03-26 to 2025-11-25, and 2026-07-28 without
-- sessions) on vdx.serve.  One endpoint, /mcp: POST carries the client's
-- messages and is answered with JSON, or with a stream of server-sent
-- events when the call asked for progress; GET opens the session's stream
-- of server messages (or resumes a stream from Last-Event-ID); DELETE ends
-- the session.  Each session is its own vdx.mcp Server with its own roles
-- (browser contexts of the one shared browser) and session log.
local vdx = require "vdx"
local json = require "vdx.json"
local mcp = require "vdx.mcp"
local sse = require "vdx.mcp_sse"

local M = {}

--- The path of the endpoint.
M.PATH = "/mcp"
--- Sessions open at once; one more is refused with 503.
M.MAX_SESSIONS = 64
--- A session without a request, a call or a connected stream for this
-- long is ended (its client went without DELETE).
M.IDLE_MS = 30 * 60 * 1000

local PARSE_ERROR, INVALID_REQUEST, SERVER_ERROR = -32700, -32600, -32000
local META_VERSION = "io.modelcontextprotocol/protocolVersion"

-- A JSON-RPC error answer for HTTP-level trouble (id null), as status.
local function refuse(status, message, code, headers)
  headers = headers or {}
  headers["content-type"] = "application/json"
  return { status = status, headers = headers, body = json.encode { jsonrpc = "2.0", id = json.null,
    error = { code = code or SERVER_ERROR, message = message } } }
end

-- 32 hex digits from /dev/urandom (Lua's file reader; the device never blocks).
local function random_id()
  local f = assert(io.open("/dev/urandom", "rb"))
  local bytes = f:read(16)
  f:close()
  return (bytes:gsub(".", function(c) return ("%02x"):format(c:byte()) end))
end

local function accepts(req, kind)
  local a = (req.headers.accept or ""):lower()
  return a:find(kind, 1, true) ~= nil or a:find("*/*", 1, true) ~= nil
end

local function token_key(t)
  if type(t) == "number" then return ("n:%.17g"):format(t) end
  return type(t) .. ":" .. tostring(t)
end

-- ------------------------------------------------------------ sessions

local Http = {}
Http.__index = Http

-- A new session (id nil: the one sessionless server of 2026-07-28).
function Http:open_session(id)
  local sess = { id = id, streams = {}, order = {}, next_stream = 1, by_token = {} }
  sess.mgr = self.template:sibling()
  local tag = id and id:sub(1, 8) or "sessionless"
  local log = self.log
  -- The registry is shared: its changes reach every session through one
  -- listener (Http:changed), not one per session that would outlive it.
  local reg = setmetatable({ on_change = function() end }, { __index = self.registry })
  local server = mcp.new { registry = reg, roles = sess.mgr, skills = self.skills, paths = self.paths,
    max_bytes = self.max_bytes, log = function(level, fmt, ...) log(level, "[" .. tag .. "] " .. fmt, ...) end,
    write = function(text) self:route(sess, text) end }
  server.watching = self.watching
  -- Progress goes on the stream of the POST that asked for it; every
  -- other message of the server on the session's own stream (GET).
  local notify = getmetatable(server).__index.notify
  function server.notify(srv, method, params)
    local outer = sess.target
    if method == "notifications/progress" and type(params) == "table" and params.progressToken ~= nil then
      sess.target = sess.by_token[token_key(params.progressToken)]
    end
    notify(srv, method, params)
    sess.target = outer
  end
  sess.server = server
  sess.standalone = sse.new_stream(sess, 0)
  sess.last = vdx.now()
  if id then
    self.sessions[id], self.count = sess, self.count + 1
    -- Wakes when the session would have been idle for IDLE_MS, and again
    -- from its last use while it is in use.
    vdx.spawn(function()
      while not sess.closed do
        local due = sess.last + M.IDLE_MS - vdx.now()
        if due <= 0 and next(server.inflight) == nil and not self:connected(sess) then
          return self:close_session(sess, ("idle for %d min"):format(M.IDLE_MS // 60000))
        end
        vdx.sleep(math.max(due, 1000))
        if due <= 0 then sess.last = vdx.now() end
      end
    end)
  end
  log("info", "session %s opened (%d open)", tag, self.count)
  return sess
end

-- Does a client of sess hold one of its streams open?
function Http:connected(sess)
  for _, st in pairs(sess.streams) do if st.http then return true end end
  return false
end

-- Where a message of sess's server goes: a capture (a JSON answer being
-- built), a POST's stream, or the session's own stream.
function Http:route(sess, text)
  local t = sess.target
  if t and t.capture then t.capture[#t.capture + 1] = text return end
  sse.emit(t or sess.standalone, text)
end

--- Ends a session: its calls are cancelled, its roles' contexts closed
-- (the shared browser stays), its streams ended.
function Http:close_session(sess, why)
  if sess.closed then return end
  sess.closed = true
  if sess.id and self.sessions[sess.id] then self.sessions[sess.id], self.count = nil, self.count - 1 end
  for _, rq in pairs(sess.server.inflight) do
    rq.cancelled = true
    if rq.task then pcall(rq.task.cancel, rq.task, why) end
  end
  sess.mgr.closed = true
  for _, r in ipairs(sess.mgr.list_) do
    if r.ctx then pcall(r.ctx.close, r.ctx) end
    r.ctx, r.pages, r.page_ = nil, {}, nil
  end
  for _, st in pairs(sess.streams) do sse.finish(st) end
  self.log("info", "session %s closed: %s", sess.id and sess.id:sub(1, 8) or "sessionless", why)
end

--- Every open page of every session (the URL guard leaves them).
function Http:open_pages()
  local out = {}
  for _, s in pairs(self.sessions) do
    for _, o in ipairs(s.mgr:open_pages()) do out[#out + 1] = o end
  end
  if self.sessionless then
    for _, o in ipairs(self.sessionless.mgr:open_pages()) do out[#out + 1] = o end
  end
  return out
end

-- Every live session's server.
function Http:servers()
  local out = {}
  for _, s in pairs(self.sessions) do out[#out + 1] = s.server end
  if self.sessionless then out[#out + 1] = self.sessionless.server end
  return out
end

--- Hot reload's view of the servers: runs fn once, then every session
-- says what changed (vdx.mcp Server:batch); skills replace every session's.
function Http:batch(fn)
  local list = self:servers()
  local function nest(i)
    if i > #list then return fn() end
    list[i]:batch(function() nest(i + 1) end)
  end
  if #list == 0 then
    local ok, err = pcall(fn)
    if not ok then self.log("error", "reload failed: %s", tostring(err)) end
  else
    nest(1)
  end
end

function Http:set_skills(base, extra)
  local all = {}
  for _, s in ipairs(base or {}) do all[#all + 1] = s end
  for _, s in ipairs(extra or {}) do all[#all + 1] = s end
  self.skills = all
  for _, s in ipairs(self:servers()) do s:set_skills(base, extra) end
end

-- ---------------------------------------------------------------- checks

-- nil when the request may go on, else the refusal: a foreign Origin or
-- Host (DNS rebinding), an unsupported MCP-Protocol-Version.
function Http:check(req)
  local origin = req.headers.origin
  if origin ~= nil and not self.origins[origin:lower()] then
    return refuse(403, "Forbidden: Origin " .. origin .. " is not allowed (only this server's own origin, " ..
      self.srv.url .. " or its localhost name)")
  end
  local host = req.headers.host
  if self.hosts and (host == nil or not self.hosts[host:lower()]) then
    return refuse(403, "Forbidden: Host " .. tostring(host) .. " is not this server")
  end
  local pv = req.headers["mcp-protocol-version"]
  if pv ~= nil then
    local ok = false
    for _, v in ipairs(mcp.SUPPORTED) do ok = ok or v == pv end
    if not ok then
      return refuse(400, "Bad Request: unsupported MCP-Protocol-Version " .. pv .. " (supported: " ..
        table.concat(mcp.SUPPORTED, ", ") .. ")")
    end
  end
end

-- The session named by the request: sess, or nil and the refusal.
function Http:session_of(req)
  local id = req.headers["mcp-session-id"]
  if id == nil then
    return nil, refuse(400, "Bad Request: the Mcp-Session-Id header is required (send initialize first; its " ..
      "answer carries the id)")
  end
  local sess = self.sessions[id]
  if not sess then return nil, refuse(404, "Session not found: it ended or never was; initialize again") end
  sess.last = vdx.now()
  return sess
end

-- ------------------------------------------------------------------ POST

local function is_request(m) return type(m) == "table" and m.method ~= nil and m.id ~= nil end

local function modern(m)
  local meta = type(m) == "table" and type(m.params) == "table" and m.params._meta
  return (type(meta) == "table" and meta[META_VERSION] ~= nil) or (type(m) == "table" and m.method == "server/discover")
end

-- msg as sess's server writes it (secrets redacted), for a JSON answer.
-- Server:send does not yield, so the target set around it is the one its
-- write sees, whatever other tasks do.
function Http:encode(sess, msg)
  local cap = { capture = {} }
  sess.target = cap
  sess.server:send(msg)
  sess.target = nil
  return cap.capture[1]
end

-- Runs the messages on sess and answers: JSON, or a stream of events
-- when a request asked for progress.  Requests of a batch run one after
-- another, as on stdio.
function Http:answer(req, sess, list, raw, batch)
  local server = sess.server
  local requests, wants_stream = 0, false
  for _, m in ipairs(list) do
    if is_request(m) then
      requests = requests + 1
      local meta = type(m.params) == "table" and m.params._meta
      if type(meta) == "table" and meta.progressToken ~= nil then wants_stream = true end
    end
  end
  if requests == 0 then
    for i, m in ipairs(list) do server:message(m, raw[i]) end
    return { status = 202 }
  end
  local headers = { ["mcp-session-id"] = sess.id }
  if not wants_stream or not accepts(req, "text/event-stream") then
    local out = json.array {}
    for i, m in ipairs(list) do
      local r = server:message(m, raw[i])
      if r then out[#out + 1] = r end
    end
    if #out == 0 then return { status = 202, headers = headers } end
    headers["content-type"] = "application/json"
    return { status = 200, headers = headers, body = self:encode(sess, batch and out or out[1]) }
  end
  local st = sse.new_stream(sess, sess.next_stream)
  sess.next_stream = sess.next_stream + 1
  sse.attach(req, sess, st)
  local tokens = {}
  for _, m in ipairs(list) do
    local meta = is_request(m) and type(m.params) == "table" and m.params._meta
    if type(meta) == "table" and meta.progressToken ~= nil then
      local k = token_key(meta.progressToken)
      sess.by_token[k], tokens[#tokens + 1] = st, k
    end
  end
  local out = json.array {}
  for i, m in ipairs(list) do
    local r = server:message(m, raw[i])
    if r and not batch then
      sess.target = st
      server:send(r)
      sess.target = nil
    elseif r then
      out[#out + 1] = r
    end
  end
  if batch and #out > 0 then
    sess.target = st
    server:send(out)
    sess.target = nil
  end
  for _, k in ipairs(tokens) do if sess.by_token[k] == st then sess.by_token[k] = nil end end
  sse.finish(st)
end

function Http:post(req)
  if not (accepts(req, "application/json") and accepts(req, "text/event-stream")) then
    return refuse(406, "Not Acceptable: the Accept header must list application/json and text/event-stream")
  end
  local ctype = (req.headers["content-type"] or ""):lower()
  if not ctype:find("application/json", 1, true) then
    return refuse(415, "Unsupported Media Type: the body must be application/json")
  end
  if #req.body > self.max_bytes then
    return refuse(413, ("Invalid Request: message of %d bytes is over the limit of %d bytes"):format(#req.body,
      self.max_bytes), INVALID_REQUEST)
  end
  local msg, derr = json.decode(req.body)
  if msg == nil then return refuse(400, "Parse error: " .. tostring(derr), PARSE_ERROR) end
  if not utf8.len(req.body) then return refuse(400, "Invalid Request: the body is not UTF-8", INVALID_REQUEST) end
  local batch = type(msg) == "table" and json.looks_like_array(msg)
  if type(msg) == "table" and next(msg) == nil and req.body:match("^%s*%[") then
    return refuse(400, "Invalid Request: empty batch", INVALID_REQUEST)
  end
  local list = batch and msg or { msg }
  local raw = json.raw_ids(req.body)
  local init = false
  for _, m in ipairs(list) do init = init or (type(m) == "table" and m.method == "initialize") end
  local id = req.headers["mcp-session-id"]
  if init then
    if batch then return refuse(400, "Invalid Request: initialize must be sent alone", INVALID_REQUEST) end
    if id ~= nil then return refuse(400, "Invalid Request: this request already names a session; initialize " ..
      "opens one, without Mcp-Session-Id", INVALID_REQUEST) end
    if self.count >= M.MAX_SESSIONS then
      return refuse(503, ("Service Unavailable: %d sessions are open, the most this server keeps; end one " ..
        "(DELETE) first"):format(self.count))
    end
    local sess = self:open_session(random_id())
    local r = sess.server:message(msg, raw[1])
    local body = self:encode(sess, r)
    if r.error then
      self:close_session(sess, "initialize failed")
      return { status = 400, headers = { ["content-type"] = "application/json" }, body = body }
    end
    return { status = 200, headers = { ["content-type"] = "application/json", ["mcp-session-id"] = sess.id },
      body = body }
  end
  if id == nil then
    local all_modern = true
    for _, m in ipairs(list) do all_modern = all_modern and (not is_request(m) or modern(m)) end
    if all_modern and not batch then
      self.sessionless = self.sessionless or self:open_session(nil)
      local res = self:answer(req, self.sessionless, list, raw, false)
      if type(res) == "table" and res.headers then res.headers["mcp-session-id"] = nil end
      return res
    end
  end
  local sess, why = self:session_of(req)
  if not sess then return why end
  if batch and sess.server.version ~= "2025-03-26" then
    return refuse(400, ("Invalid Request: revision %s has no batches; send one message per POST"):format(
      tostring(sess.server.version)), INVALID_REQUEST)
  end
  return self:answer(req, sess, list, raw, batch)
end

-- ------------------------------------------------------------ GET, DELETE

function Http:get(req)
  if not accepts(req, "text/event-stream") then
    return refuse(406, "Not Acceptable: the Accept header must list text/event-stream")
  end
  if req.headers["mcp-session-id"] == nil and self.sessionless then
    return refuse(405, "Method Not Allowed: revision 2026-07-28 has no session stream", nil,
      { allow = "POST" })
  end
  local sess, why = self:session_of(req)
  if not sess then return why end
  local last = req.headers["last-event-id"]
  if last == nil then
    local st = sess.standalone
    if st.http then return refuse(409, "Conflict: this session's stream is open on another connection") end
    sse.attach(req, sess, st)
    return
  end
  local n, seq = last:match("^(%d+)%-(%d+)$")
  local st = n and sess.streams[tonumber(n)]
  if not st then return refuse(404, "Not Found: no stream of this session has event " .. last) end
  if st.http then return refuse(409, "Conflict: that stream is open on another connection") end
  local h = sse.attach(req, sess, st)
  seq = tonumber(seq)
  for _, ev in ipairs(st.events) do
    if ev.seq > seq and not h:write(sse.frame(ev)) then break end
  end
  if st.done then sse.finish(st) end
end

function Http:delete(req)
  local sess, why = self:session_of(req)
  if not sess then return why end
  self:close_session(sess, "the client ended it (DELETE)")
  return { status = 200 }
end

-- Runs method m of the endpoint for req, after the checks every request gets.
function Http:handle(m, req)
  local bad = self:check(req)
  if bad then return bad end
  return self[m](self, req)
end

-- ------------------------------------------------------------------ start

--- Is host a loopback name or address?
function M.loopback(host)
  return host == "localhost" or host == "::1" or host:match("^127%.%d+%.%d+%.%d+$") ~= nil
end

--- Starts serving; returns the transport, or nil and a message.  opts:
-- host, port, allow_remote, registry, roles (the manager whose roles
-- every session copies and whose browsers they share), skills, paths,
-- max_bytes, log.
function M.start(opts)
  local self = setmetatable({ registry = opts.registry, template = opts.roles, skills = opts.skills or {},
    paths = opts.paths, max_bytes = opts.max_bytes or 4 * 1024 * 1024, log = opts.log or function() end,
    sessions = {}, count = 0, watching = false }, Http)
  local host = opts.host or "127.0.0.1"
  local routes = {}
  for _, m in ipairs { "POST", "GET", "DELETE" } do
    local name = m:lower()
    routes[m .. " " .. M.PATH] = function(req) return self:handle(name, req) end
  end
  local srv, err = vdx.serve { host = host, port = opts.port or 0, routes = routes,
    allow_remote = opts.allow_remote or nil }
  if not srv then return nil, err end
  self.srv, self.url = srv, srv.url .. M.PATH
  local port = srv.port
  self.origins = {}
  for _, h in ipairs { "127.0.0.1", "localhost", "[::1]", srv.url:match("^http://(.-):%d+$") } do
    self.origins[("http://%s:%d"):format(h, port)] = true
  end
  if M.loopback(host) then
    self.hosts = {}
    for _, h in ipairs { "127.0.0.1", "localhost", "[::1]", srv.url:match("^http://(.-):%d+$") } do
      self.hosts[("%s:%d"):format(h, port)] = true
    end
  end
  opts.registry:on_change(function()
    for _, s in ipairs(self:servers()) do s:changed("tools") end
  end)
  return self
end

--- Ends every session and stops listening.
function Http:close()
  local list = {}
  for _, s in pairs(self.sessions) do list[#list + 1] = s end
  if self.sessionless then list[#list + 1] = self.sessionless end
  for _, s in ipairs(list) do self:close_session(s, "the server is shutting down") end
  self.srv:close()
end

return M
