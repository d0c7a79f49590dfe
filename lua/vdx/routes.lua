--- vdx.routes: network routes of a page or of a browser context, Lua
-- policy over Fetch (vdx.fetch owns the domain; routes are one client).
--
--   page:route(pattern, handler [, { lua_pattern =, resource_type =, times = }])
--   ctx:route(…)            -- every page of the context, present and new
--   page:unroute(pattern [, handler]), page:unroute_all(), page:routes()
--
-- handler(route, request) runs as a task for each matching request;
-- request = { url, method, headers, post_data, resource_type, frame,
-- is_navigation, network_id (Network's requestId) }; it answers with route:continue{…}, route:fulfill{…},
-- route:abort{…} or passes it on with route:fallback().  Routes are tried
-- the last registered first, the page's before its context's (Playwright's
-- order).  A handler that raises, or returns without answering, is logged
-- (routes.log; page:route_errors()) and the request continues unchanged,
-- so a page is never left waiting on a broken handler.
local vdx = require "vdx"
local json = require "vdx.json"
local fetch = require "vdx.fetch"
local matcher = require "vdx.route_match"

local routes = {}

local CLIENT = "vdx.routes"

-- page or context -> { list = { route entries }, errors = { … } }; weak.
local state = setmetatable({}, { __mode = "k" })

local function misuse(msg, field)
  error(vdx.error("InvalidArgument", msg, field and { field = field } or nil), 0)
end

--- Where a failing handler is reported: routes.log(level, fmt, …), stderr
-- by default.
function routes.log(level, fmt, ...)
  io.stderr:write(("vdx: %s: " .. fmt .. "\n"):format(level, ...))
end

-- ------------------------------------------------------------ base64

local B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

--- The base64 text of the bytes s.
function routes.base64(s)
  local out = {}
  for i = 1, #s, 3 do
    local a, b, c = s:byte(i, i + 2)
    local n = a * 65536 + (b or 0) * 256 + (c or 0)
    local q = {}
    for k = 1, 4 do
      local v = (n >> (6 * (4 - k))) & 63
      q[k] = B64:sub(v + 1, v + 1)
    end
    if not b then q[3], q[4] = "=", "=" elseif not c then q[4] = "=" end
    out[#out + 1] = table.concat(q)
  end
  return table.concat(out)
end

-- ------------------------------------------------------------ answers

-- CDP's ErrorReason names, also reached by Playwright's lower-case codes.
local REASONS = {}
for _, r in ipairs { "Failed", "Aborted", "TimedOut", "AccessDenied", "ConnectionClosed", "ConnectionReset",
  "ConnectionRefused", "ConnectionAborted", "ConnectionFailed", "NameNotResolved", "InternetDisconnected",
  "AddressUnreachable", "BlockedByClient", "BlockedByResponse" } do
  REASONS[r] = r
  REASONS[r:lower()] = r
end
routes.REASONS = REASONS

local TYPES = { html = "text/html", htm = "text/html", js = "text/javascript", mjs = "text/javascript",
  css = "text/css", json = "application/json", txt = "text/plain", svg = "image/svg+xml", png = "image/png",
  jpg = "image/jpeg", jpeg = "image/jpeg", gif = "image/gif", webp = "image/webp", woff2 = "font/woff2" }

local function header_list(h, field)
  if h == nil then return nil end
  if type(h) ~= "table" then misuse(field .. " must be a table { [name] = value }", field) end
  local out, names = {}, {}
  for k in pairs(h) do
    if type(k) ~= "string" then misuse(field .. ": header names must be strings", field) end
    names[#names + 1] = k
  end
  table.sort(names)
  for _, k in ipairs(names) do out[#out + 1] = { name = k, value = tostring(h[k]) } end
  return json.array(out)
end

local function check_keys(t, known, what)
  if t == nil then return {} end
  if type(t) ~= "table" then misuse(what .. " takes a table of options") end
  for k in pairs(t) do
    if not known[k] then misuse(("%s: unknown option %q"):format(what, tostring(k)), tostring(k)) end
  end
  return t
end

local Route = {}
Route.__index = Route

local function answered(self, how)
  if self.done then
    misuse(("route for %s was already answered (%s); answer once"):format(self.request.url, self.done))
  end
  self.done = how
end

local function send(self, method, params)
  local ok, err = pcall(self.page.send, self.page, method, params, { session = self.sid })
  -- The request may be gone (its frame navigated away): the chain logs it
  -- and lets the request continue when it still can.
  if not ok then
    self.failed = tostring(type(err) == "table" and err.message or err)
    return nil, err
  end
  return true
end

--- route:continue{ url?, method?, headers?, post_data? }: lets the request
-- go to the network, changed as given (headers replace all of them).
function Route:continue(o)
  o = check_keys(o, { url = true, method = true, headers = true, post_data = true }, "route:continue")
  answered(self, "continue")
  local p = { requestId = self.id, url = o.url, method = o.method, headers = header_list(o.headers, "headers") }
  if o.post_data ~= nil then p.postData = routes.base64(tostring(o.post_data)) end
  return send(self, "Fetch.continueRequest", p)
end

--- The CDP parameters of a fulfilment table { status, headers, body |
-- json | path, content_type } (also what HAR replay and MCP tools build).
function routes.fulfil_params(o, read)
  o = check_keys(o, { status = true, headers = true, body = true, json = true, path = true,
    content_type = true }, "route:fulfill")
  local n = (o.body ~= nil and 1 or 0) + (o.json ~= nil and 1 or 0) + (o.path ~= nil and 1 or 0)
  if n > 1 then misuse("route:fulfill takes one of body, json and path", "body") end
  local status = o.status == nil and 200 or math.tointeger(o.status)
  if not status or status < 100 or status > 599 then
    misuse("route:fulfill: status must be an integer in 100..599", "status")
  end
  local headers, ctype = {}, o.content_type
  for k, v in pairs(o.headers or {}) do headers[k] = v end
  local body = o.body
  if o.json ~= nil then
    body = json.encode(o.json)
    ctype = ctype or "application/json"
  elseif o.path ~= nil then
    if type(o.path) ~= "string" then misuse("route:fulfill: path must be a string", "path") end
    local data, err = (read or vdx.read_file)(o.path)
    if not data then
      error(vdx.error("IOError", ("route:fulfill: cannot read %s: %s"):format(o.path, tostring(err)),
        { field = "path", file = o.path }), 0)
    end
    body = data
    ctype = ctype or TYPES[(o.path:match("%.(%w+)$") or ""):lower()]
  elseif body ~= nil and type(body) ~= "string" then
    misuse("route:fulfill: body must be a string (json = a table is encoded for you)", "body")
  end
  local has = false
  for k in pairs(headers) do if k:lower() == "content-type" then has = true end end
  if ctype and not has then headers["Content-Type"] = ctype end
  return { responseCode = status, responseHeaders = header_list(headers, "headers"),
    body = routes.base64(body or "") }
end

--- route:fulfill{ status = 200, headers, body | json | path, content_type }:
-- answers the request without the network.
function Route:fulfill(o)
  local p = routes.fulfil_params(o)
  answered(self, "fulfill")
  p.requestId = self.id
  return send(self, "Fetch.fulfillRequest", p)
end

--- route:abort{ reason = "Failed" }: fails the request with a CDP
-- ErrorReason (or Playwright's lower-case code of one).
function Route:abort(o)
  o = check_keys(o, { reason = true }, "route:abort")
  local reason = REASONS[o.reason or "Failed"]
  if not reason then
    misuse(("route:abort: unknown reason %q (one of Failed, Aborted, TimedOut, AccessDenied, BlockedByClient, " ..
      "ConnectionRefused, …, CDP's ErrorReason)"):format(tostring(o.reason)), "reason")
  end
  answered(self, "abort")
  return send(self, "Fetch.failRequest", { requestId = self.id, errorReason = reason })
end

--- route:fallback(): hands the request to the next matching route (or
-- the network when none is left).
function Route:fallback()
  answered(self, "fallback")
  return true
end

-- ------------------------------------------------------------ the chain

local function request_of(ev)
  local r = ev.request or {}
  local post = r.postData
  if post == nil and type(r.postDataEntries) == "table" then
    local parts = {}
    for _, e in ipairs(r.postDataEntries) do
      if e.bytes then parts[#parts + 1] = vdx.base64_decode(e.bytes) end
    end
    post = table.concat(parts)
  end
  local headers = {}
  for k, v in pairs(r.headers or {}) do headers[k:lower()] = v end
  return { url = r.url, method = r.method, headers = headers, post_data = post,
    resource_type = (ev.resourceType or "Other"):lower(), frame = ev.frame,
    is_navigation = ev.resourceType == "Document", network_id = ev.networkId }
end

local function note_error(owner_state, entry, req, msg)
  local errs = owner_state.errors
  errs[#errs + 1] = { pattern = entry.pattern, url = req.url, message = msg }
  if #errs > 100 then table.remove(errs, 1) end
  routes.log("error", "route %s for %s: %s; the request continues", entry.pattern, req.url, msg)
end

-- The handlers still running on each page (one that holds its request
-- for a delay): Fetch stays on until they answered, since turning it off
-- lets every paused request go on to the server (run AL unrouted a route
-- that held a payment to time it out, and the payment went through).
local running = setmetatable({}, { __mode = "k" })
local uninstall_if_idle

-- Runs the matching routes of lists (each tried last registered first);
-- returns true when one answered.
local function run_chain(page, ev, sid, lists)
  local req
  for _, holder in ipairs(lists) do
    local list = holder.list
    for i = #list, 1, -1 do
      local e = list[i]
      if e and not e.removed then
        req = req or request_of(ev)
        if e.match(req.url) and (not e.types or e.types[req.resource_type]) then
          if e.times then
            e.times = e.times - 1
            if e.times <= 0 then routes.remove(holder, e) end
          end
          local r = setmetatable({ page = page, sid = sid, id = ev.requestId, request = req }, Route)
          running[page] = (running[page] or 0) + 1
          local ok, err = pcall(e.handler, r, req)
          running[page] = running[page] - 1
          if running[page] == 0 then
            running[page] = nil
            -- Routes removed while it ran leave Fetch to turn off now.
            uninstall_if_idle(page)
          end
          if not ok then
            note_error(holder, e, req, "the handler raised: " ..
              tostring(type(err) == "table" and err.message or err))
            if not r.done then send(r, "Fetch.continueRequest", { requestId = r.id }) end
            return true
          end
          if r.failed then
            note_error(holder, e, req, "its answer failed: " .. r.failed)
            if r.done ~= "continue" then send(r, "Fetch.continueRequest", { requestId = r.id }) end
            return true
          end
          if r.done ~= "fallback" then
            if not r.done then
              note_error(holder, e, req, "the handler returned without route:continue, fulfill, abort or fallback")
              send(r, "Fetch.continueRequest", { requestId = r.id })
            end
            return true
          end
        end
      end
    end
  end
  return false
end

-- The holders whose routes apply to page: its own, then its context's.
local function holders(page)
  local out = {}
  if state[page] then out[#out + 1] = state[page] end
  local ok, ctx = pcall(page.context, page)
  if ok and ctx and state[ctx] then out[#out + 1] = state[ctx] end
  return out
end

-- Makes sure page's Fetch owner has the routes client.
local function install(page)
  local owner = fetch.owner(page)
  if owner:has(CLIENT) then return end
  owner:add(CLIENT, { patterns = { { urlPattern = "*" } }, on_paused = function(ev, sid, p)
    if ev.responseStatusCode or ev.responseErrorReason then return false end
    return run_chain(p, ev, sid, holders(p))
  end })
end

-- Removes page's routes client when no route applies to it and no
-- handler runs there (running).
function uninstall_if_idle(page)
  if running[page] then return end
  for _, h in ipairs(holders(page)) do if #h.list > 0 then return end end
  if not page:is_closed() and fetch.owner(page):has(CLIENT) then fetch.owner(page):remove(CLIENT) end
end

local function holder(target)
  local h = state[target]
  if not h then
    h = { list = {}, errors = {} }
    state[target] = h
  end
  return h
end

local ROUTE_OPTS = { lua_pattern = true, resource_type = true, times = true, fulfil = true }

--- The entry of a new route (checked): pattern, handler, options.
function routes.entry(pattern, handler, opts)
  opts = check_keys(opts, ROUTE_OPTS, "route")
  if type(handler) ~= "function" then
    misuse("route: the handler must be a function(route, request)", "handler")
  end
  local e = { pattern = pattern, handler = handler, match = matcher.compile(pattern, opts.lua_pattern),
    lua_pattern = opts.lua_pattern and true or nil, fulfil = opts.fulfil }
  local rt = opts.resource_type
  if rt ~= nil then
    e.types = {}
    for _, t in ipairs(type(rt) == "table" and rt or { rt }) do
      if type(t) ~= "string" then misuse("route: resource_type must be a string or a list of strings",
        "resource_type") end
      e.types[t:lower()] = true
    end
  end
  if opts.times ~= nil then
    if math.type(opts.times) ~= "integer" or opts.times < 1 then
      misuse("route: times must be a positive integer", "times")
    end
    e.times = opts.times
  end
  return e
end

--- Removes entry e from holder h.
function routes.remove(h, e)
  for i, x in ipairs(h.list) do
    if x == e then
      table.remove(h.list, i)
      e.removed = true
      return
    end
  end
end

-- The pages a context's routes apply to now.
local function pages_of(target)
  if getmetatable(target) and tostring(target):match("^vdx%.Page") then return { target } end
  local ok, list = pcall(target.pages, target)
  return ok and list or {}
end

--- target:route(pattern, handler [, opts]) for a page or a context.
function routes.route(target, pattern, handler, opts)
  local e = routes.entry(pattern, handler, opts)
  local h = holder(target)
  h.list[#h.list + 1] = e
  for _, p in ipairs(pages_of(target)) do install(p) end
  return e
end

--- target:unroute(pattern [, handler]) -> the number of routes removed.
function routes.unroute(target, pattern, handler)
  if type(pattern) ~= "string" then misuse("unroute: pattern must be the string given to route", "pattern") end
  local h, n = state[target], 0
  if not h then return 0 end
  for i = #h.list, 1, -1 do
    local e = h.list[i]
    if e.pattern == pattern and (handler == nil or e.handler == handler) then
      table.remove(h.list, i)
      e.removed = true
      n = n + 1
    end
  end
  for _, p in ipairs(pages_of(target)) do uninstall_if_idle(p) end
  return n
end

--- target:unroute_all() -> the number of routes removed.
function routes.unroute_all(target)
  local h = state[target]
  local n = h and #h.list or 0
  if h then
    for _, e in ipairs(h.list) do e.removed = true end
    h.list = {}
  end
  for _, p in ipairs(pages_of(target)) do uninstall_if_idle(p) end
  return n
end

--- target:routes() -> { { pattern, lua_pattern, fulfil }, … }, in the order they were added.
function routes.list(target)
  local out = {}
  for _, e in ipairs(state[target] and state[target].list or {}) do
    out[#out + 1] = { pattern = e.pattern, lua_pattern = e.lua_pattern, fulfil = e.fulfil }
  end
  return out
end

--- target:route_errors() -> { { pattern, url, message }, … }: the handlers
-- that failed (the last 100).
function routes.errors(target)
  local out = {}
  for i, e in ipairs(state[target] and state[target].errors or {}) do out[i] = e end
  return out
end

--- Adds the route methods to vdx.Page and vdx.Context; a context's new
-- pages (ctx:new_page, and the popups ctx:pages() reports) get its routes.
function routes.install(Page, Context)
  for _, T in ipairs { Page, Context } do
    T.route = routes.route
    T.unroute = routes.unroute
    T.unroute_all = routes.unroute_all
    T.routes = routes.list
    T.route_errors = routes.errors
    T.route_from_har = function(target, path, opts) return require("vdx.har_replay").route(target, path, opts) end
  end
  local new_page, pages = Context.new_page, Context.pages
  Context.new_page = function(ctx, ...)
    local page = new_page(ctx, ...)
    if state[ctx] and #state[ctx].list > 0 then install(page) end
    return page
  end
  if pages then
    Context.pages = function(ctx, ...)
      local list = pages(ctx, ...)
      if state[ctx] and #state[ctx].list > 0 then
        for _, p in ipairs(list) do if not p:is_closed() then install(p) end end
      end
      return list
    end
  end
end

return routes
