--- spec/mcp_http_client.lua: a small blocking HTTP/1.1 client (luasocket)
-- for the specs of `vdxlua mcp --port`: requests with any headers, bodies
-- by Content-Length or chunked, and server-sent events read one at a time
-- from a stream the spec may drop halfway.  The server under test runs in
-- another process, so blocking here holds up nothing it needs.
local socket = require "socket"
local cjson = require "cjson"

local client = {}

local Conn = {}
Conn.__index = Conn

--- Opens a connection to 127.0.0.1:port and sends one request; returns
-- the connection, whose :response() reads the answer.  headers: a table
-- of name = value (a Host header is added unless given).
function client.send(port, method, path, headers, body)
  local c = assert(socket.tcp())
  c:settimeout(60)
  assert(c:connect("127.0.0.1", port))
  local lines = { ("%s %s HTTP/1.1"):format(method, path) }
  headers = headers or {}
  local has_host = false
  for k, v in pairs(headers) do
    lines[#lines + 1] = k .. ": " .. v
    has_host = has_host or k:lower() == "host"
  end
  if not has_host then lines[#lines + 1] = "Host: 127.0.0.1:" .. port end
  if body then lines[#lines + 1] = "Content-Length: " .. #body end
  assert(c:send(table.concat(lines, "\r\n") .. "\r\n\r\n" .. (body or "")))
  return setmetatable({ sock = c, buf = "" }, Conn)
end

--- Reads the status line and headers: sets self.status, self.headers
-- (lower-case names); returns self.
function Conn:head()
  local line = assert(self.sock:receive("*l"))
  self.status = tonumber(line:match("^HTTP/1%.1 (%d+)"))
  self.headers = {}
  while true do
    local l = assert(self.sock:receive("*l"))
    if l == "" then break end
    local k, v = l:match("^([^:]+):%s*(.-)%s*$")
    self.headers[k:lower()] = v
  end
  self.chunked = (self.headers["transfer-encoding"] or ""):lower() == "chunked"
  return self
end

-- The next piece of the body: a chunk's data, "" at its end (nil, err
-- when the connection ends).
function Conn:piece()
  if not self.chunked then
    local n = tonumber(self.headers["content-length"] or "0")
    if self.read_all then return "" end
    self.read_all = true
    if n == 0 then return "" end
    return self.sock:receive(n)
  end
  local size, err = self.sock:receive("*l")
  if not size then return nil, err end
  local n = tonumber(size:match("^%x+"), 16)
  if n == 0 then self.sock:receive("*l") return "" end
  local data = assert(self.sock:receive(n))
  self.sock:receive("*l")
  return data
end

--- Reads the whole answer: status, headers and body (decoded as JSON in
-- .json when it is JSON, as events in .events when it is a stream).
function Conn:response()
  if not self.status then self:head() end
  local parts = {}
  while true do
    local p = assert(self:piece())
    if p == "" then break end
    parts[#parts + 1] = p
  end
  self.body = table.concat(parts)
  local ctype = self.headers["content-type"] or ""
  if ctype:find("application/json", 1, true) and #self.body > 0 then self.json = cjson.decode(self.body) end
  if ctype:find("text/event-stream", 1, true) then
    self.buf = self.body
    self.events = {}
    while true do
      local ev = self:parse_event()
      if not ev then break end
      self.events[#self.events + 1] = ev
    end
  end
  self.sock:close()
  return self
end

-- One event off the front of self.buf, or nil.
function Conn:parse_event()
  local s, e = self.buf:find("\n\n", 1, true)
  if not s then return nil end
  local text = self.buf:sub(1, s - 1)
  self.buf = self.buf:sub(e + 1)
  local ev = { data = {} }
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    local k, v = line:match("^(%w+): ?(.*)$")
    if k == "id" then ev.id = v elseif k == "data" then ev.data[#ev.data + 1] = v end
  end
  ev.data = table.concat(ev.data, "\n")
  ev.msg = cjson.decode(ev.data)
  return ev
end

--- The next event of a stream (reading as needed), or nil at its end.
function Conn:event()
  if not self.status then self:head() end
  while true do
    local ev = self:parse_event()
    if ev then return ev end
    local p = self:piece()
    if p == nil or p == "" then return nil end
    self.buf = self.buf .. p
  end
end

--- Drops the connection (the client goes away).
function Conn:drop()
  self.sock:close()
end

--- One request, answered whole.
function client.request(port, method, path, headers, body)
  return client.send(port, method, path, headers, body):response()
end

return client
