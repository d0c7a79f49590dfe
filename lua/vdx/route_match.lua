--- vdx.route_match: URL patterns of routes.
--
-- A pattern is a glob with Playwright's rules (its urlMatches): it must
-- match the whole URL; `*` matches any run of characters but `/`, `**`
-- any run at all, `**/` zero or more whole path segments after a `/`,
-- `{a,b}` one of the comma-separated alternatives (not nested), `\`
-- escapes the next character, and every other character, `?` included,
-- stands for itself.  With { lua_pattern = true } it is a Lua pattern
-- instead, found anywhere in the URL (string.find), for what a glob cannot
-- say (`^https?://[^/]*%.test/`).
local vdx = require "vdx"

local match = {}

local function bad(pattern, why)
  error(vdx.error("InvalidArgument", ("bad URL pattern %q: %s"):format(pattern, why),
    { field = "pattern", value = pattern }), 0)
end

-- The glob's alternatives ({a,b} expanded): a list of globs without braces.
local function expand(glob)
  local out = { "" }
  local i, n = 1, #glob
  while i <= n do
    local c = glob:sub(i, i)
    if c == "\\" and i < n then
      for k = 1, #out do out[k] = out[k] .. glob:sub(i, i + 1) end
      i = i + 2
    elseif c == "{" then
      local close = i + 1
      local parts, cur = {}, ""
      while close <= n and glob:sub(close, close) ~= "}" do
        local d = glob:sub(close, close)
        if d == "{" then bad(glob, "nested '{' is not supported") end
        if d == "," then parts[#parts + 1], cur = cur, "" else cur = cur .. d end
        close = close + 1
      end
      if close > n then bad(glob, "unmatched '{'") end
      parts[#parts + 1] = cur
      local next_out = {}
      for _, prefix in ipairs(out) do
        for _, p in ipairs(parts) do next_out[#next_out + 1] = prefix .. p end
      end
      out = next_out
      i = close + 1
    elseif c == "}" then
      bad(glob, "unmatched '}'")
    else
      for k = 1, #out do out[k] = out[k] .. c end
      i = i + 1
    end
  end
  return out
end

-- One brace-free glob as tokens: { "lit", c } a character that stands
-- for itself, { "star" } `*`, { "any" } `**`, { "segs", after_slash }
-- `**/` (zero or more whole segments when a `/` is before it, else any
-- run that ends in `/`).
local function tokens(glob)
  local out, i, n = {}, 1, #glob
  while i <= n do
    local c = glob:sub(i, i)
    if c == "\\" and i < n then
      out[#out + 1] = { "lit", glob:sub(i + 1, i + 1) }
      i = i + 2
    elseif c == "*" then
      local before, stars = glob:sub(i - 1, i - 1), 1
      while glob:sub(i + 1, i + 1) == "*" do stars, i = stars + 1, i + 1 end
      if stars > 1 and glob:sub(i + 1, i + 1) == "/" then
        out[#out + 1] = { "segs", before == "/" }
        i = i + 2
      else
        out[#out + 1] = { stars > 1 and "any" or "star" }
        i = i + 1
      end
    else
      out[#out + 1] = { "lit", c }
      i = i + 1
    end
  end
  return out
end

-- One brace-free glob as anchored Lua patterns (a `/**/` becomes two: with
-- and without the segments).
local function compile(glob)
  local outs = { "^" }
  local function add(s) for k = 1, #outs do outs[k] = outs[k] .. s end end
  for _, t in ipairs(tokens(glob)) do
    if t[1] == "lit" then add((t[2]:gsub("%W", "%%%0")))
    elseif t[1] == "star" then add("[^/]*")
    elseif t[1] == "any" then add(".*")
    elseif t[2] then
      local with = {}
      for k = 1, #outs do with[k] = outs[k] .. ".+/" end
      for k = 1, #with do outs[#outs + 1] = with[k] end
    else
      add(".*/")
    end
  end
  add("$")
  return outs
end

--- The JavaScript regular expression literal that matches what the glob
-- pattern matches, by the same rules (a test's `toHaveURL` takes no
-- glob): `**/done#step-2` -> `/\/done#step-2$/` (a glob that starts with
-- `**` needs no anchor at the start), `/a/{b,c}` ->
-- `/^(?:\/a\/b|\/a\/c)$/`.  Raises as match.compile does for unbalanced
-- braces.
function match.js_regex(pattern)
  local alts = {}
  for _, g in ipairs(expand(pattern)) do
    local out = {}
    for _, t in ipairs(tokens(g)) do
      if t[1] == "lit" then out[#out + 1] = t[2]:match("[%^%$%.%*%+%?%(%)%[%]{}|/\\]") and ("\\" .. t[2]) or t[2]
      elseif t[1] == "star" then out[#out + 1] = "[^/]*"
      elseif t[1] == "any" then out[#out + 1] = ".*"
      else out[#out + 1] = t[2] and "(?:.+\\/)?" or ".*\\/" end
    end
    alts[#alts + 1] = table.concat(out)
  end
  -- `^(?:.*X)$` is `X$` for a URL (no line breaks): the form a person writes.
  if #alts == 1 and alts[1]:sub(1, 2) == ".*" and #alts[1] > 2 then return "/" .. alts[1]:sub(3) .. "$/" end
  return "/^(?:" .. table.concat(alts, "|") .. ")$/"
end

--- A matcher for pattern: a function(url) -> bool.  Raises
-- InvalidArgument for a pattern that is not a string, a glob with
-- unbalanced braces or a malformed Lua pattern.
function match.compile(pattern, lua_pattern)
  if type(pattern) ~= "string" or pattern == "" then
    error(vdx.error("InvalidArgument", "a route's pattern must be a non-empty string (a glob such as " ..
      "\"**/api/*\", or a Lua pattern with lua_pattern = true)", { field = "pattern" }), 0)
  end
  if lua_pattern then
    local ok, err = pcall(string.find, "", pattern)
    if not ok then bad(pattern, "not a Lua pattern: " .. tostring(err):gsub("^.-:%d+: ", "")) end
    return function(url) return url:find(pattern) ~= nil end
  end
  local pats = {}
  for _, g in ipairs(expand(pattern)) do
    for _, p in ipairs(compile(g)) do pats[#pats + 1] = p end
  end
  return function(url)
    for _, p in ipairs(pats) do if url:find(p) then return true end end
    return false
  end
end

return match
