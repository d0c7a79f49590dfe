--- vdx.har_replay: answers a page's (or a context's) requests from a HAR
-- 1.2 file, as Playwright's routeFromHAR does.
--
--   page:route_from_har(path, { url = "**/api/**", not_found = "abort" | "fallback" })
--
-- A request matching `url` (a glob; every URL when absent) is looked up by
-- method and URL among log.entries; when several entries share them, the
-- one whose request.postData.text equals the request's post data wins,
-- else the first.  The entry's status, headers and body (content.text,
-- base64 when content.encoding says so) answer it.  A request with no
-- entry is aborted (not_found = "abort", the default) or passed to the
-- next route, and to the network when none is left ("fallback").
local vdx = require "vdx"
local json = require "vdx.json"
local routes = require "vdx.routes"

local har = {}

-- Response headers a replayed body must not carry: the body is stored
-- decoded, and the browser counts its own length.
local DROP = { ["content-encoding"] = true, ["content-length"] = true, ["transfer-encoding"] = true }

local function invalid(path, why)
  error(vdx.error("InvalidHar", ("%s is not a usable HAR 1.2 file: %s"):format(path, why),
    { file = path }), 0)
end

--- The entries of the HAR file at path, indexed by "METHOD URL"; raises
-- IOError (unreadable) or InvalidHar (not HAR).
function har.load(path, read)
  if type(path) ~= "string" or path == "" then
    error(vdx.error("InvalidArgument", "route_from_har: path must be the HAR file's path", { field = "path" }), 0)
  end
  local text, err = (read or vdx.read_file)(path, { max_bytes = 256 * 1024 * 1024 })
  if not text then
    error(vdx.error("IOError", ("route_from_har: cannot read %s: %s"):format(path, tostring(err)),
      { file = path }), 0)
  end
  local doc, jerr = json.decode(text)
  if type(doc) ~= "table" then invalid(path, "not JSON (" .. tostring(jerr) .. ")") end
  if type(doc.log) ~= "table" or type(doc.log.entries) ~= "table" then
    invalid(path, "it has no log.entries list")
  end
  local index = {}
  for i, e in ipairs(doc.log.entries) do
    local rq, rs = type(e) == "table" and e.request, type(e) == "table" and e.response
    if type(rq) ~= "table" or type(rs) ~= "table" or type(rq.url) ~= "string" or type(rq.method) ~= "string" then
      invalid(path, ("entry %d lacks request.method, request.url or response"):format(i))
    end
    local key = rq.method:upper() .. " " .. rq.url
    index[key] = index[key] or {}
    table.insert(index[key], e)
  end
  return index
end

-- The entry answering req, or nil.
local function find(index, req)
  local list = index[(req.method or "GET"):upper() .. " " .. req.url]
  if not list then return nil end
  if req.post_data then
    for _, e in ipairs(list) do
      local pd = e.request.postData
      if type(pd) == "table" and pd.text == req.post_data then return e end
    end
  end
  return list[1]
end

--- The CDP fulfilment of a HAR entry.
function har.fulfilment(e)
  local rs = e.response
  local headers = {}
  for _, h in ipairs(type(rs.headers) == "table" and rs.headers or {}) do
    if type(h.name) == "string" and not h.name:match("^:") and not DROP[h.name:lower()] then
      headers[#headers + 1] = { name = h.name, value = tostring(h.value) }
    end
  end
  local c = type(rs.content) == "table" and rs.content or {}
  local text = type(c.text) == "string" and c.text or ""
  local body = c.encoding == "base64" and text:gsub("%s", "") or routes.base64(text)
  local status = math.tointeger(rs.status) or 200
  if status < 100 or status > 599 then status = 200 end
  return { responseCode = status, responseHeaders = json.array(headers), body = body }
end

--- target:route_from_har(path [, { url =, not_found = }]) for a page or a
-- context: loads the file now (errors raise here) and adds one route.
function har.route(target, path, opts)
  opts = opts or {}
  if type(opts) ~= "table" then
    error(vdx.error("InvalidArgument", "route_from_har: options must be a table", { field = "opts" }), 0)
  end
  for k in pairs(opts) do
    if k ~= "url" and k ~= "not_found" then
      error(vdx.error("InvalidArgument", ("route_from_har: unknown option %q (url, not_found)"):format(tostring(k)),
        { field = tostring(k) }), 0)
    end
  end
  local nf = opts.not_found or "abort"
  if nf ~= "abort" and nf ~= "fallback" then
    error(vdx.error("InvalidArgument", "route_from_har: not_found must be \"abort\" or \"fallback\"",
      { field = "not_found" }), 0)
  end
  local index = har.load(path)
  return routes.route(target, opts.url or "**", function(route, req)
    local e = find(index, req)
    if not e then
      if nf == "fallback" then return route:fallback() end
      return route:abort { reason = "Failed" }
    end
    local p = har.fulfilment(e)
    route.done = "fulfill"
    p.requestId = route.id
    local ok, err = pcall(route.page.send, route.page, "Fetch.fulfillRequest", p, { session = route.sid })
    if not ok then route.failed = tostring(type(err) == "table" and err.message or err) end
  end)
end

return har
