--- vdx.route_export: the Playwright lines of a route, for a flow's
-- --emit-playwright and an MCP session's browser_export_test ("code"
-- steps; "{page}" and "{context}" stand for the role's variables).
--
-- A static answer translates: a fulfilment table becomes
-- route.fulfill({...}), an abort route.abort(code), a header change
-- route.fallback({ headers }), a HAR file routeFromHAR.  A Lua function
-- handler or a Lua pattern cannot be translated: the line is a
-- `// not exported:` comment that says so.
local json = require "vdx.json"
local locator = require "vdx.flow_locator"

local rx = {}

local q = locator.quote

-- A JavaScript literal of a JSON value (objects with sorted keys).
local function js(v)
  if type(v) == "table" then
    if next(v) == nil then return "{}" end
    if #v > 0 then
      local parts = {}
      for i, x in ipairs(v) do parts[i] = js(x) end
      return "[" .. table.concat(parts, ", ") .. "]"
    end
    local keys = {}
    for k in pairs(v) do keys[#keys + 1] = tostring(k) end
    table.sort(keys)
    local parts = {}
    for _, k in ipairs(keys) do
      local key = k:match("^[%a_][%w_]*$") and k or q(k)
      parts[#parts + 1] = key .. ": " .. js(v[k])
    end
    return "{ " .. table.concat(parts, ", ") .. " }"
  elseif type(v) == "string" then
    return q(v)
  end
  return (json.encode(v))
end
rx.js = js

--- The options object of route.fulfill for a fulfilment table { status,
-- headers, body | json | path, content_type }.
function rx.fulfil_options(f)
  local o = {}
  if f.status then o.status = f.status end
  if f.content_type then o.contentType = f.content_type end
  if f.headers and next(f.headers) then o.headers = f.headers end
  if f.json ~= nil then o.json = f.json end
  if f.body ~= nil then o.body = f.body end
  if f.path ~= nil then o.path = require("vdx.pw_spec").absolute(f.path) end
  return js(o)
end

-- The lines of a route held delay ms before it answers as the lines
-- of the answer alone say (one `route => route.x(…));` line, or an async
-- handler's block).
local function delayed(head, lines, delay)
  local out = { head .. "async route => {",
    ("  await new Promise(resolve => setTimeout(resolve, %d));"):format(delay) }
  local one = #lines == 1 and lines[1]:match("^.-route => (route%..*)%);$")
  if one then
    out[3] = "  await " .. one .. ";"
  elseif #lines == 0 then
    out[3] = "  await route.fallback();"
  else
    for i = 2, #lines - 1 do out[#out + 1] = lines[i] end
  end
  out[#out + 1] = "});"
  return out
end

-- The lines of a route that answers only requests of one method: the
-- lines of its answer as an async handler's block, which falls back
-- first for any other method.
local function of_method(head, lines, method)
  local test = ("  if (route.request().method() !== %s) return route.fallback();"):format(q(method))
  local one = #lines == 1 and lines[1]:match("^.-route => (route%..*)%);$")
  if one then return { head .. "async route => {", test, "  await " .. one .. ";", "});" } end
  if #lines > 1 and lines[1] == head .. "async route => {" then
    local out = { lines[1], test }
    for i = 2, #lines do out[#out + 1] = lines[i] end
    return out
  end
  return lines
end

--- The lines of target:route(pattern, answer) where target is "{page}"
-- or "{context}" and answer is { fulfil = {…} } | { abort = reason } |
-- { headers = {…}, remove = {…} } | { handler = true } (a Lua function),
-- or {} with delay (ms; with any of the others, the request is held that
-- long first), and method ("POST": other requests fall back).
function rx.route_lines(target, pattern, answer, lua_pattern)
  if lua_pattern then
    return { ("// not exported: the route on the Lua pattern %s (Playwright takes a glob or a RegExp; " ..
      "write its RegExp here by hand)"):format(q(pattern)) }
  end
  local head = "await " .. target .. ".route(" .. q(pattern) .. ", "
  if answer.method then
    local rest = {}
    for k, v in pairs(answer) do if k ~= "method" then rest[k] = v end end
    return of_method(head, rx.route_lines(target, pattern, rest), answer.method)
  end
  if answer.delay then
    local rest = {}
    for k, v in pairs(answer) do if k ~= "delay" then rest[k] = v end end
    return delayed(head, next(rest) and rx.route_lines(target, pattern, rest) or {}, answer.delay)
  end
  if answer.fulfil then
    return { head .. "route => route.fulfill(" .. rx.fulfil_options(answer.fulfil) .. "));" }
  elseif answer.abort then
    return { head .. "route => route.abort(" .. q(answer.abort:lower()) .. "));" }
  elseif answer.headers or answer.remove then
    local lines = { head .. "async route => {",
      "  const headers = { ...route.request().headers(), ..." .. js(answer.headers or {}) .. " };" }
    for _, name in ipairs(answer.remove or {}) do lines[#lines + 1] = "  delete headers[" .. q(name:lower()) .. "];" end
    lines[#lines + 1] = "  await route.fallback({ headers });"
    lines[#lines + 1] = "});"
    return lines
  end
  return { ("// not exported: the route on %s has a Lua function handler, which cannot be translated; " ..
    "write its handler here by hand"):format(q(pattern)) }
end

--- The line of target:routeFromHAR(path, opts).
function rx.har_lines(target, path, opts)
  local o = {}
  if opts and opts.url then o.url = opts.url end
  if opts and opts.not_found then o.notFound = opts.not_found end
  local abs = require("vdx.pw_spec").absolute(path)
  return { "await " .. target .. ".routeFromHAR(" .. q(abs) .. (next(o) and ", " .. js(o) or "") .. ");" }
end

return rx
