--- vdx.cookies: the policy of cookies as Playwright states it, with no
-- browser: a cookie a script or an agent gives is checked and completed
-- (Playwright's addCookies: name, value, url | domain and path, expires,
-- httpOnly, secure, sameSite), turned into CDP's CookieParam, read back
-- from CDP's Cookie in Playwright's shape, matched against URLs
-- (context.cookies(urls)) and against a clear filter (clearCookies({ name,
-- domain, path })).  vdx.storage sends what this module builds.
local vdx = require "vdx.core"
local json = require "vdx.json"

local cookies = {}

-- The latest expiry Chromium and Playwright accept (9999-12-31T23:59:59Z).
local MAX_EXPIRES = 253402300799

-- The SameSite values, by how a caller may spell them.
local SAMESITE = { strict = "Strict", lax = "Lax", none = "None" }

-- The keys of a cookie a caller gives.
local KEYS = { name = true, value = true, url = true, domain = true, path = true, expires = true,
  httpOnly = true, secure = true, sameSite = true }

-- Raises InvalidArgument about cookie i's field.
local function bad(i, field, msg)
  error(vdx.error("InvalidArgument", ("cookie %d: %s"):format(i, msg),
    { field = ("cookies[%d].%s"):format(i, field) }), 0)
end

--- The parts of an http(s) URL: { scheme, host (lower case, brackets
-- kept for IPv6), port, path ("/" when empty) }, or nil when url is not
-- one.
function cookies.parse_url(url)
  if type(url) ~= "string" then return nil end
  local scheme, authority, rest = url:match("^(%a[%w+.-]*)://([^/?#]*)(.*)$")
  if not scheme then return nil end
  scheme = scheme:lower()
  if scheme ~= "http" and scheme ~= "https" then return nil end
  authority = authority:gsub("^.*@", "")
  local host, port = authority:match("^(%[[^%]]*%]):?(%d*)$")
  if not host then host, port = authority:match("^([^:]*):?(%d*)$") end
  if not host or host == "" then return nil end
  local path = rest:match("^[^?#]*")
  if path == "" then path = "/" end
  return { scheme = scheme, host = host:lower(), port = port ~= "" and tonumber(port) or nil, path = path }
end

--- The origin of an http(s) URL ("http://host:port"), or nil.
function cookies.origin(url)
  local u = cookies.parse_url(url)
  if not u then return nil end
  return u.scheme .. "://" .. u.host .. (u.port and (":" .. u.port) or "")
end

--- Checks cookie c (the i-th given) and returns it completed, in
-- Playwright's shape: { name, value, domain, path, expires, httpOnly,
-- secure, sameSite } plus url when given (a url sets domain, path up to
-- its last "/" and secure from the scheme, as Playwright's addCookies
-- does).  Raises InvalidArgument naming the field.  opts.lenient ignores
-- keys it does not know (a storageState file written by a newer
-- Playwright); otherwise an unknown key is an error.
function cookies.check(c, i, opts)
  i = i or 1
  if type(c) ~= "table" then
    error(vdx.error("InvalidArgument", ("cookie %d must be a table { name =, value =, url = | domain = and path = }, " ..
      "got %s"):format(i, type(c)), { field = ("cookies[%d]"):format(i) }), 0)
  end
  if not (opts and opts.lenient) then
    for k in pairs(c) do
      if not KEYS[k] then
        local names = {}
        for n in pairs(KEYS) do names[#names + 1] = n end
        table.sort(names)
        bad(i, tostring(k), ("unknown key '%s' (known: %s)"):format(tostring(k), table.concat(names, ", ")))
      end
    end
  end
  if type(c.name) ~= "string" or c.name == "" then bad(i, "name", "name must be a non-empty string") end
  if type(c.value) ~= "string" then
    bad(i, "value", ("value must be a string, got %s (write tostring(v) for a number)"):format(type(c.value)))
  end
  local out = { name = c.name, value = c.value }
  if c.url ~= nil then
    if c.domain ~= nil or c.path ~= nil then
      bad(i, "url", "give url, or domain and path, not both (url sets the domain and the path)")
    end
    local u = cookies.parse_url(c.url)
    if not u then
      bad(i, "url", ("url %q is not an http or https URL with a host (a blank or data: page cannot have cookies)")
        :format(tostring(c.url)))
    end
    out.url, out.domain = c.url, u.host
    out.path = u.path:match("^(.*/)") or "/"
    out.secure = u.scheme == "https"
  elseif c.domain ~= nil then
    if type(c.domain) ~= "string" or c.domain == "" or c.domain:find("[/%s]") then
      bad(i, "domain", "domain must be a host name such as \"example.com\" or \".example.com\" (no scheme, no path)")
    end
    out.domain = c.domain:lower()
    local path = c.path == nil and "/" or c.path
    if type(path) ~= "string" or path:sub(1, 1) ~= "/" then bad(i, "path", "path must be a string starting with \"/\"") end
    out.path = path
  else
    bad(i, "url", "a cookie needs url (\"http://host/path\"), or domain (and path, default \"/\")")
  end
  local e = c.expires
  if e ~= nil then
    if type(e) ~= "number" or e ~= e or (e ~= -1 and e <= 0) or e > MAX_EXPIRES then
      bad(i, "expires", "expires must be -1 (a session cookie) or the Unix time in seconds when it ends, at most "
        .. MAX_EXPIRES)
    end
  end
  out.expires = e or -1
  for _, k in ipairs { "httpOnly", "secure" } do
    if c[k] ~= nil and type(c[k]) ~= "boolean" then bad(i, k, k .. " must be true or false") end
  end
  out.httpOnly = c.httpOnly == true
  if c.secure ~= nil then out.secure = c.secure end
  out.secure = out.secure == true
  if c.sameSite ~= nil then
    local s = type(c.sameSite) == "string" and SAMESITE[c.sameSite:lower()]
    if not s then
      bad(i, "sameSite", ("sameSite must be \"Strict\", \"Lax\" or \"None\", got %s"):format(
        type(c.sameSite) == "string" and ("%q"):format(c.sameSite) or type(c.sameSite)))
    end
    out.sameSite = s
    if s == "None" and not out.secure then
      bad(i, "sameSite", "a SameSite=None cookie must be secure (Chromium drops it otherwise): add secure = true, "
        .. "or choose \"Lax\"")
    end
  end
  return out
end

--- Checks a list of cookies (cookies.check for each); raises
-- InvalidArgument when list is not a list.
function cookies.check_list(list, opts)
  if type(list) ~= "table" or (next(list) ~= nil and list[1] == nil) then
    error(vdx.error("InvalidArgument", "cookies must be a list of cookie tables ({ { name =, value =, url = } })",
      { field = "cookies" }), 0)
  end
  local out = {}
  for i, c in ipairs(list) do out[i] = cookies.check(c, i, opts) end
  return out
end

--- CDP's CookieParam of a checked cookie (Storage.setCookies).
function cookies.to_cdp(c)
  local p = { name = c.name, value = c.value, domain = c.domain, path = c.path, secure = c.secure,
    httpOnly = c.httpOnly, sameSite = c.sameSite, url = c.url }
  if c.expires and c.expires > 0 then p.expires = c.expires end
  return p
end

--- A cookie of CDP (Storage.getCookies) in Playwright's shape: { name,
-- value, domain, path, expires, httpOnly, secure, sameSite } (Chromium
-- leaves sameSite out when the cookie did not set it: "Lax", as
-- Playwright reports it).
function cookies.from_cdp(c)
  return { name = c.name, value = c.value, domain = c.domain, path = c.path,
    expires = (c.session or not c.expires) and -1 or c.expires,
    httpOnly = c.httpOnly == true, secure = c.secure == true, sameSite = c.sameSite or "Lax" }
end

local function local_host(host)
  return host == "localhost" or host:match("%.localhost$") ~= nil or host == "[::1]"
    or host:match("^127%.%d+%.%d+%.%d+$") ~= nil
end

--- True when cookie c (Playwright's shape) is sent to the URL u (from
-- cookies.parse_url): its domain matches the host (exactly, or a
-- ".domain" the host ends in), its path is a prefix of the URL's path on
-- a "/" boundary, and a secure cookie needs https (or a local host).
function cookies.matches_url(c, u)
  local d = c.domain
  if u.host ~= d and not (d:sub(1, 1) == "." and ("." .. u.host):sub(-#d) == d) then return false end
  local p = c.path
  if u.path ~= p then
    if u.path:sub(1, #p) ~= p then return false end
    if p:sub(-1) ~= "/" and u.path:sub(#p + 1, #p + 1) ~= "/" then return false end
  end
  if c.secure and u.scheme ~= "https" and not local_host(u.host) then return false end
  return true
end

--- The URLs a cookies(urls) call gives (nil, one string or a list),
-- parsed; raises InvalidArgument for one that is not an http(s) URL.
function cookies.parse_urls(urls)
  if urls == nil then return {} end
  if type(urls) == "string" then urls = { urls } end
  if type(urls) ~= "table" then
    error(vdx.error("InvalidArgument", "urls must be a URL string or a list of them, got " .. type(urls),
      { field = "urls" }), 0)
  end
  local out = {}
  for i, s in ipairs(urls) do
    out[i] = cookies.parse_url(s) or error(vdx.error("InvalidArgument",
      ("urls[%d]: %q is not an http or https URL"):format(i, tostring(s)), { field = "urls" }), 0)
  end
  return out
end

--- The cookies of list (Playwright's shape) sent to any of the parsed
-- URLs; all of them when parsed is empty.
function cookies.filter(list, parsed)
  local out = json.array()
  for _, c in ipairs(list) do
    local keep = #parsed == 0
    for _, u in ipairs(parsed) do
      if cookies.matches_url(c, u) then keep = true break end
    end
    if keep then out[#out + 1] = c end
  end
  return out
end

local FILTER_KEYS = { name = true, domain = true, path = true }

--- Checks a clear filter { name =, domain =, path = } (each an exact
-- string); returns it, or nil for none.  Raises InvalidArgument.
function cookies.check_filter(f)
  if f == nil then return nil end
  if type(f) ~= "table" then
    error(vdx.error("InvalidArgument", "the filter must be a table { name =, domain =, path = }, got " .. type(f),
      { field = "filter" }), 0)
  end
  for k, v in pairs(f) do
    if not FILTER_KEYS[k] then
      error(vdx.error("InvalidArgument", ("filter: unknown key '%s' (known: domain, name, path)"):format(tostring(k)),
        { field = tostring(k) }), 0)
    end
    if type(v) ~= "string" then
      error(vdx.error("InvalidArgument", ("filter.%s must be a string, got %s"):format(k, type(v)),
        { field = k }), 0)
    end
  end
  if next(f) == nil then return nil end
  return f
end

--- True when cookie c matches every field the filter gives.
function cookies.matches_filter(c, f)
  for k, v in pairs(f) do
    if c[k] ~= v then return false end
  end
  return true
end

--- The JavaScript literal of a checked cookie as Playwright's addCookies
-- takes it (domain and path, never url, so the line reads the same for
-- every way the cookie was given).
function cookies.js_literal(c)
  local quote = require("vdx.flow_locator").quote
  local parts = {}
  for _, k in ipairs { "name", "value", "domain", "path", "expires", "httpOnly", "secure", "sameSite" } do
    local v = c[k]
    if type(v) == "string" then v = quote(v)
    elseif math.type(v) == "float" and v == math.floor(v) then v = ("%d"):format(v)
    elseif type(v) == "number" then v = ("%.17g"):format(v) end
    if v ~= nil then parts[#parts + 1] = k .. ": " .. tostring(v) end
  end
  return "{ " .. table.concat(parts, ", ") .. " }"
end

return cookies
