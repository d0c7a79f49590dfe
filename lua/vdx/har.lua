--- vdx.har: records a page's or a context's traffic as a HAR 1.2 file
-- (http://www.softwareishard.com/blog/har-12-spec/): page:record_har{…}
-- and ctx:record_har{…} return a recorder whose :stop() writes the file
-- (also when the context closes).  The entries are what a replay (the
-- routes' route_from_har) matches and serves: method + URL (+ post data)
-- -> status, headers, content.text (base64 when content.encoding is
-- "base64").  Built from the Network events of vdx.netwatch; the bodies,
-- when asked, with Network.getResponseBody as each response finishes.
local vdx = require "vdx.core"
local json = require "vdx.json"
local netwatch = require "vdx.netwatch"

local har = {}

local Recorder = {}
Recorder.__index = Recorder
Recorder.__name = "vdx.HarRecorder"

local OPTS = { path = true, content = true, url = true, paths = true }

local function bad(msg, field)
  error(vdx.error("InvalidArgument", msg, { field = field }), 4)
end

-- ISO 8601 in UTC with milliseconds, from seconds since the epoch.
local function iso(wall)
  wall = wall or os.time()
  local s = math.floor(wall)
  return os.date("!%Y-%m-%dT%H:%M:%S", s) .. (".%03dZ"):format(math.floor((wall - s) * 1000))
end

-- A HAR list of { name, value } from a CDP header object, sorted by name
-- so that a file is the same for the same traffic.
local function header_list(h)
  local out = json.array()
  for k, v in pairs(h or {}) do
    -- CDP joins repeated headers with "\n": each is its own HAR header.
    for line in (tostring(v) .. "\n"):gmatch("([^\n]*)\n") do out[#out + 1] = { name = k, value = line } end
  end
  table.sort(out, function(a, b) return a.name < b.name or (a.name == b.name and a.value < b.value) end)
  return out
end

local function unescape(s)
  return (s:gsub("+", " "):gsub("%%(%x%x)", function(x) return string.char(tonumber(x, 16)) end))
end

local function query_list(url)
  local out = json.array()
  local q = url:match("^[^#]*%?([^#]*)")
  if not q or q == "" then return out end
  for pair in q:gmatch("[^&]+") do
    local k, v = pair:match("^([^=]*)=?(.*)$")
    out[#out + 1] = { name = unescape(k), value = unescape(v) }
  end
  return out
end

local function http_version(protocol)
  local p = tostring(protocol or ""):lower()
  if p == "h2" or p == "http/2" or p == "http/2.0" then return "HTTP/2.0" end
  if p == "h3" or p:match("^h3%-") or p == "quic" then return "HTTP/3.0" end
  if p == "http/1.0" then return "HTTP/1.0" end
  return "HTTP/1.1"
end

local function header_value(h, name)
  for k, v in pairs(h or {}) do if k:lower() == name then return v end end
end

-- HAR timings from CDP's ResourceTiming (ms after requestTime) and the
-- end of the load (a monotonic timestamp in seconds).
local function timings(rec)
  local t = rec.response and rec.response.timing
  local total = rec.done_ts and rec.ts and math.max(0, (rec.done_ts - rec.ts) * 1000) or 0
  if type(t) ~= "table" then
    return { blocked = -1, dns = -1, connect = -1, ssl = -1, send = 0, wait = total, receive = 0 }, total
  end
  local function span(a, b)
    local x, y = t[a], t[b]
    if type(x) ~= "number" or type(y) ~= "number" or x < 0 or y < 0 then return -1 end
    return math.max(0, y - x)
  end
  local first = t.dnsStart >= 0 and t.dnsStart or t.connectStart >= 0 and t.connectStart or t.sendStart
  local blocked = math.max(0, first or 0) + math.max(0, (t.requestTime - rec.ts) * 1000)
  local dns, connect, ssl = span("dnsStart", "dnsEnd"), span("connectStart", "connectEnd"), span("sslStart", "sslEnd")
  local send = math.max(0, t.sendEnd - t.sendStart)
  local wait = math.max(0, t.receiveHeadersEnd - t.sendEnd)
  local receive = rec.done_ts and math.max(0, (rec.done_ts - t.requestTime) * 1000 - t.receiveHeadersEnd) or 0
  local sum = blocked + send + wait + receive + math.max(0, dns) + math.max(0, connect)
  return { blocked = blocked, dns = dns, connect = connect, ssl = ssl, send = send, wait = wait,
    receive = receive }, sum
end

-- The HAR entry of a finished record (its body is filled in later).
local function entry_of(self, rec, pageref)
  local req, res = rec.request, rec.response
  local headers = res.requestHeaders or req.headers
  local t, total = timings(rec)
  local e = {
    pageref = pageref,
    startedDateTime = iso(rec.wall),
    time = total,
    request = { method = req.method, url = req.url, httpVersion = http_version(res.protocol),
      cookies = json.array(), headers = header_list(headers), queryString = query_list(req.url),
      headersSize = -1, bodySize = 0 },
    response = { status = res.status, statusText = res.statusText or "", httpVersion = http_version(res.protocol),
      cookies = json.array(), headers = header_list(res.headers),
      content = { size = 0, mimeType = res.mimeType or header_value(res.headers, "content-type") or "x-unknown" },
      redirectURL = rec.redirected or header_value(res.headers, "location") or "", headersSize = -1,
      bodySize = -1 },
    cache = {},
    timings = t,
    _resourceType = rec.type and rec.type:lower() or nil,
    _failure = rec.failed,
  }
  if res.remoteIPAddress then e.serverIPAddress = res.remoteIPAddress end
  if req.postData or req.hasPostData then
    e.request.postData = { mimeType = header_value(req.headers, "content-type") or "", text = req.postData or "" }
    e.request.bodySize = req.postData and #req.postData or -1
  end
  if rec.encoded then e.response._transferSize = rec.encoded end
  return e
end

-- Fills in what the finished record needs from the browser: the post data
-- Chromium left out of the event, and the body when content = "embed".
local function complete(self, page, rec, e)
  local req = rec.request
  if req.hasPostData and not req.postData and not page:is_closed() then
    local ok, r = pcall(page.send, page, "Network.getRequestPostData", { requestId = rec.id })
    if ok then e.request.postData.text, e.request.bodySize = r.postData, #r.postData end
  end
  if self.content == "omit" or rec.failed or rec.redirected or page:is_closed() then return end
  local ok, r = pcall(page.send, page, "Network.getResponseBody", { requestId = rec.id })
  if not ok then e.response.content.comment = "the body was not available: " .. tostring(r.message or r) return end
  local c = e.response.content
  if r.base64Encoded then
    c.text, c.encoding, c.size = r.body, "base64", #vdx.base64_decode(r.body)
  else
    c.text, c.size = r.body, #r.body
  end
  e.response.bodySize = rec.encoded or c.size
end

-- The HAR page a document request opens.
local function open_page(self, page, rec)
  self.npages = self.npages + 1
  local p = { startedDateTime = iso(rec.wall), id = ("page@%d"):format(self.npages), title = rec.request.url,
    pageTimings = { onContentLoad = -1, onLoad = -1 }, _ts = rec.ts }
  self.pages[#self.pages + 1] = p
  self.current[page] = p
end

-- Adds the entry of the finished record rec of page, and starts reading
-- what it still needs (post data, body).
function Recorder:add(page, rec)
  local cur = self.current[page]
  local e = entry_of(self, rec, cur and cur.id or nil)
  self.entries[#self.entries + 1] = e
  local task = vdx.spawn(complete, self, page, rec, e)
  self.pending[task] = true
end

--- How long stop() waits for the requests still under way (a script
-- may read an XHR's answer before the browser has reported its response
-- and the end of its load).
har.DRAIN_MS = 2000

-- Waits until the requests of the watched pages still under way at
-- stop() have finished (the last finish wakes the wait: no polling), at
-- most DRAIN_MS; returns those still loading that have a response.
function Recorder:drain()
  local ids, left, open = {}, 0, {}
  for page in pairs(self.watched) do
    for _, rec in pairs(netwatch.open(page)) do
      if self.match(rec.request.url) then
        ids[rec], left = page, left + 1
      end
    end
  end
  if left == 0 then return open end
  self.draining = { ids = ids, left = left, task = vdx.spawn(function() vdx.sleep(har.DRAIN_MS) end) }
  pcall(vdx.wait, self.draining.task)
  for rec, page in pairs(self.draining.ids) do if rec.response then open[rec] = page end end
  self.draining = nil
  return open
end

--- Starts recording page into the recorder self.
function Recorder:watch(page)
  if self.stopped or self.watched[page] then return end
  self.watched[page] = true
  local target = page:target_id()
  self.offs[#self.offs + 1] = netwatch.subscribe(page, {
    started = function(_, rec)
      if rec.type == "Document" and rec.frame_id == target and not rec.after_redirect then
        open_page(self, page, rec)
      end
    end,
    finished = function(_, rec)
      if self.stopped then return end
      if rec.response and self.match(rec.request.url) then self:add(page, rec) end
      local d = self.draining
      if d and d.ids[rec] then
        d.ids[rec], d.left = nil, d.left - 1
        if d.left == 0 then d.task:cancel("drained") end
      end
    end,
    -- The page's timings (Page events carry the Network events' clock).
    page_event = function(_, name, p)
      local field = name == "loadEventFired" and "onLoad" or "onContentLoad"
      local cur = not self.stopped and self.current[page]
      if cur and cur.pageTimings[field] == -1 and p.timestamp then
        cur.pageTimings[field] = math.max(0, (p.timestamp - cur._ts) * 1000)
      end
    end,
  })
end

--- The HAR document (a Lua table) of what was recorded so far.
function Recorder:document()
  local pages = json.array()
  for i, p in ipairs(self.pages) do
    pages[i] = { startedDateTime = p.startedDateTime, id = p.id, title = p.title, pageTimings = p.pageTimings }
  end
  local entries = json.array()
  for i, e in ipairs(self.entries) do entries[i] = e end
  table.sort(entries, function(a, b) return a.startedDateTime < b.startedDateTime end)
  return { log = { version = "1.2", creator = { name = "vdxlua", version = vdx.version or "0" },
    browser = self.browser, pages = pages, entries = entries } }
end

--- recorder:stop() -> { path, entries }: stops recording, waits for the
-- bodies still being read, and writes the HAR file (through the paths
-- policy when the recorder has one: the MCP server's output folder).  A
-- second call returns the same answer without writing again.
function Recorder:stop()
  if self.result then return self.result end
  -- What is still loading goes in as it is (its body may be partial).
  for rec, page in pairs(self:drain()) do self:add(page, rec) end
  self.stopped = true
  for _, off in ipairs(self.offs) do off() end
  if self.close_off then self.close_off() end
  for task in pairs(self.pending) do pcall(vdx.wait, task, 10000) end
  local doc = self:document()
  local text = assert(json.encode(doc))
  local path
  if self.paths then
    path = self.paths:write_file(self.path or nil, "traffic", "har", text)
  else
    local tmp = self.path .. ".part"
    local f, err = io.open(tmp, "wb")
    if not f then error(vdx.error("IOError", "record_har: cannot write " .. self.path .. ": " .. tostring(err),
      { file = self.path }), 2) end
    local ok, werr = f:write(text)
    f:close()
    if not ok then os.remove(tmp) error(vdx.error("IOError", "record_har: " .. tostring(werr), { file = self.path }), 2) end
    assert(os.rename(tmp, self.path))
    path = self.path
  end
  self.result = { path = path, entries = #doc.log.entries }
  return self.result
end

function Recorder:__close() if not self.result then pcall(self.stop, self) end end

local function new(opts, what)
  if type(opts) ~= "table" then bad(what .. ": expected a table { path = … }", "opts") end
  for k in pairs(opts) do
    if not OPTS[k] then bad(("%s: unknown option %q (known: content, path, paths, url)"):format(what, tostring(k)),
      tostring(k)) end
  end
  -- With a paths policy, path is a name in its output folder, or false
  -- for a default one.
  local named = type(opts.path) == "string" and opts.path ~= ""
  if not named and not (opts.paths and opts.path == false) then
    bad(what .. ": path (the HAR file to write) is required", "path")
  end
  local content = opts.content or "embed"
  if content ~= "omit" and content ~= "embed" then
    bad(what .. ": content must be \"omit\" or \"embed\", got " .. tostring(content), "content")
  end
  return setmetatable({ path = opts.path, content = content, paths = opts.paths,
    match = require("vdx.network").url_matcher(opts.url, what), entries = {}, pages = {}, npages = 0,
    current = setmetatable({}, { __mode = "k" }), watched = setmetatable({}, { __mode = "k" }),
    pending = {}, offs = {} }, Recorder)
end

local function browser_of(page)
  local ok, v = pcall(function() return page:context():browser():version() end)
  if ok and type(v) == "table" and v.product then
    local name, ver = tostring(v.product):match("^([^/]+)/(.*)$")
    return { name = name or v.product, version = ver or "" }
  end
end

--- page:record_har{ path, content = "embed" | "omit", url = glob } ->
-- recorder: records the page's traffic until recorder:stop().  content
-- "embed" (the default) keeps each body (text as it is, binary in base64
-- with content.encoding = "base64"); "omit" keeps none.
function har.page_record(page, opts)
  local r = new(opts, "page:record_har")
  r.browser = browser_of(page)
  r:watch(page)
  return r
end

--- ctx:record_har{…} -> recorder: records every page of the context, those
-- it opens later included; the file is written at recorder:stop() or when
-- the context closes.
function har.context_record(ctx, opts)
  local r = new(opts, "ctx:record_har")
  local off = netwatch.on_pages(ctx, function(page)
    r.browser = r.browser or browser_of(page)
    r:watch(page)
  end)
  r.offs[#r.offs + 1] = off
  r.close_off = netwatch.on_close(ctx, function() r:stop() end)
  return r
end

return har
