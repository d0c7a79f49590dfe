--- vdx.secrets: values that must never leave in an answer, a log or a
-- report (docs/world.md, Secrets).  A dotenv file names them
-- (`vdxlua mcp --secrets FILE`, `vdxlua --secrets FILE flow.lua`,
-- vdx.secrets.load); each value is then written as `<secret>NAME</secret>`
-- wherever vdx writes text for someone to read (Playwright MCP's
-- convention), an agent types one by giving its NAME (or that marker) as
-- the text, and an exported test reads it from `process.env['NAME']`.
--
-- One set per process (the MCP server and a flow run are one each).
local vdx = require "vdx"
local json = require "vdx.json"

local secrets = {}

--- The shortest value a secret may have: a shorter one would be found
-- inside ordinary words and numbers, and hiding it would garble answers.
secrets.MIN_LENGTH = 4

local names = {}        -- name -> value
local order = {}        -- { name, … }, the longest value first

local function sort()
  order = {}
  for n in pairs(names) do order[#order + 1] = n end
  -- Longest first, so a value that contains another is hidden whole.
  table.sort(order, function(a, b)
    if #names[a] ~= #names[b] then return #names[a] > #names[b] end
    return a < b
  end)
end

local function bad(path, line, msg)
  return vdx.error("InvalidArgument", ("%s:%d: %s"):format(path, line, msg), { path = path, line = line })
end

-- The value of one dotenv line's right-hand side: 'single' (as it is),
-- "double" (\n, \t, \", \\ unescaped) or bare (up to a ` #` comment).
local function value_of(rest)
  local q = rest:sub(1, 1)
  if q == "'" or q == '"' then
    local close = rest:find(q, 2, true)
    if q == '"' then
      close = 2
      while close <= #rest do
        local c = rest:sub(close, close)
        if c == "\\" then close = close + 2
        elseif c == '"' then break
        else close = close + 1 end
      end
      if close > #rest then close = nil end
    end
    if not close then return nil, "the quote " .. q .. " is not closed" end
    local after = rest:sub(close + 1):match("^%s*(.-)$")
    if after ~= "" and after:sub(1, 1) ~= "#" then return nil, "text after the closing quote" end
    local v = rest:sub(2, close - 1)
    if q == '"' then
      v = v:gsub("\\(.)", function(c) return ({ n = "\n", t = "\t", r = "\r" })[c] or c end)
    end
    return v
  end
  return (rest:gsub("%s+#.*$", ""):match("^(.-)%s*$"))
end

--- secrets.parse(text, path) -> { NAME = value } or raises
-- InvalidArgument naming the line: dotenv lines `NAME=value`, with
-- `export ` before the name allowed, `#` comments, blank lines, 'single'
-- or "double" quotes.  A value shorter than MIN_LENGTH is refused.
function secrets.parse(text, path)
  path = path or "secrets"
  local out, n = {}, 0
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    n = n + 1
    line = line:gsub("\r$", "")
    local body = line:match("^%s*(.-)%s*$")
    if body ~= "" and body:sub(1, 1) ~= "#" then
      body = body:gsub("^export%s+", "")
      local name, rest = body:match("^([%a_][%w_]*)%s*=%s*(.*)$")
      if not name then
        error(bad(path, n, "expected NAME=value (a name of letters, digits and _), got " ..
          json.encode(body:sub(1, 40):gsub("=.*", "=…"))), 0)
      end
      local v, why = value_of(rest)
      if not v then error(bad(path, n, name .. ": " .. why), 0) end
      if #v < secrets.MIN_LENGTH then
        error(bad(path, n, ("%s: the value has %d characters; a secret needs at least %d (a shorter one "
          .. "would be hidden inside ordinary words and numbers)"):format(name, #v, secrets.MIN_LENGTH)), 0)
      end
      out[name] = v
    end
  end
  return out
end

--- vdx.secrets.load(path) -> names: reads the dotenv file at path with
-- vdx.read_file (without blocking the loop) and adds its secrets to the
-- process's set; returns their names, sorted.  Raises InvalidArgument for
-- a file that cannot be read or a line that is not NAME=value.
function secrets.load(path)
  local text, msg = vdx.read_file(path, { max_bytes = 1024 * 1024 })
  if not text then
    error(vdx.error("InvalidArgument", ("cannot read the secrets file %s: %s"):format(path, tostring(msg)),
      { path = path }), 2)
  end
  return secrets.add(secrets.parse(text, path))
end

--- secrets.add({ NAME = value }) -> names: adds secrets to the set (the
-- same checks as a file's).
function secrets.add(t)
  local added = {}
  for k, v in pairs(t) do
    if type(k) ~= "string" or not k:match("^[%a_][%w_]*$") or type(v) ~= "string" or #v < secrets.MIN_LENGTH then
      error(vdx.error("InvalidArgument", ("secrets.add: %s must be a NAME (letters, digits, _) with a string "
        .. "value of at least %d characters"):format(tostring(k), secrets.MIN_LENGTH)), 2)
    end
    names[k] = v
    added[#added + 1] = k
  end
  sort()
  table.sort(added)
  return added
end

--- secrets.clear(): forgets every secret.
function secrets.clear()
  names, order = {}, {}
end

--- secrets.names() -> { NAME, … }, sorted.
function secrets.names()
  local out = {}
  for n in pairs(names) do out[#out + 1] = n end
  table.sort(out)
  return out
end

--- vdx.secrets.value(NAME) -> the value of the secret NAME, for a flow or
-- script to type (its reports, errors and export still show the name).
-- Raises InvalidArgument for a name no file loaded.
function secrets.value(name)
  local v = names[name]
  if not v then
    error(vdx.error("InvalidArgument", ("no secret is named %s (loaded: %s); give --secrets FILE or call "
      .. "vdx.secrets.load(path)"):format(tostring(name), table.concat(secrets.names(), ", ")), { field = "name" }), 2)
  end
  return v
end

--- secrets.active() -> bool: true when at least one secret is loaded.
function secrets.active()
  return next(names) ~= nil
end

-- The Lua pattern that matches s literally.
local function plain(s) return (s:gsub("%W", "%%%0")) end

--- secrets.redact(text) -> text with every secret's value replaced by
-- `<secret>NAME</secret>` (text itself when no secret is loaded or it is
-- not a string).
function secrets.redact(text)
  if type(text) ~= "string" or not next(names) then return text end
  for _, n in ipairs(order) do
    local v = names[n]
    if text:find(v, 1, true) then
      text = text:gsub(plain(v), (("<secret>" .. n .. "</secret>"):gsub("%%", "%%%%")))
    end
  end
  return text
end

--- secrets.redact_all(value) -> a copy of value (a string or a table of
-- them, nested) with every string, key or value, redacted; image data
-- (`{ type = "image", data = … }`) is left whole.
function secrets.redact_all(v)
  if not next(names) then return v end
  if type(v) == "string" then return secrets.redact(v) end
  if type(v) ~= "table" then return v end
  local out = {}
  for k, x in pairs(v) do
    if k == "data" and v.type == "image" then out[k] = x
    else out[secrets.redact_all(k)] = secrets.redact_all(x) end
  end
  return setmetatable(out, getmetatable(v))
end

--- secrets.lookup(text) -> value, NAME | nil: the secret text names, as
-- an agent types one: its NAME or `<secret>NAME</secret>`.
function secrets.lookup(text)
  if type(text) ~= "string" then return nil end
  local n = text:match("^<secret>([%a_][%w_]*)</secret>$") or text
  if names[n] then return names[n], n end
  return nil
end

--- secrets.resolve(text) -> text with each `<secret>NAME</secret>` marker
-- replaced by the value (what an agent copies from an answer).
function secrets.resolve(text)
  if type(text) ~= "string" or not next(names) then return text end
  return (text:gsub("<secret>([%a_][%w_]*)</secret>", function(n) return names[n] end))
end

-- The arguments an agent types with, by tool: a secret's bare NAME there
-- stands for its value (Playwright MCP's convention).
local TYPED = {
  browser_type = function(a) return a, "text" end,
  browser_fill_form = function(a, each)
    for _, f in ipairs(type(a.fields) == "table" and a.fields or {}) do
      if type(f) == "table" and f.type == "textbox" then each(f, "value") end
    end
  end,
}

--- secrets.arguments(tool, args) -> args with each `<secret>NAME</secret>`
-- in a string replaced by the value, and in the text an agent types
-- (browser_type's text, browser_fill_form's textbox values) a secret's
-- bare NAME too.  args itself when no secret is loaded.
function secrets.arguments(tool, args)
  if not next(names) or type(args) ~= "table" then return args end
  local function walk(v)
    if type(v) == "string" then return secrets.resolve(v) end
    if type(v) ~= "table" then return v end
    local out = {}
    for k, x in pairs(v) do out[k] = walk(x) end
    return setmetatable(out, getmetatable(v))
  end
  local out = walk(args)
  local typed = TYPED[tool]
  if typed then
    local function each(t, key)
      local v = secrets.lookup(t[key])
      if v then t[key] = v end
    end
    local t, key = typed(out, each)
    if t then each(t, key) end
  end
  return out
end

--- secrets.shell_exports() -> the text of a shell script that exports
-- every secret (`export NAME='value'` lines), for a process vdx starts
-- (a Playwright run) to read from a file rather than its command line.
function secrets.shell_exports()
  local out = {}
  for _, n in ipairs(secrets.names()) do
    out[#out + 1] = "export " .. n .. "='" .. names[n]:gsub("'", "'\\''") .. "'\n"
  end
  return table.concat(out)
end

--- secrets.for_test(text) -> the text of a Playwright test with each
-- secret's string literal ('value' or "value") written as
-- `process.env['NAME']`, and any other place the value appears redacted.
function secrets.for_test(text)
  if type(text) ~= "string" or not next(names) then return text end
  for _, n in ipairs(order) do
    local v = names[n]
    local env = "process.env['" .. n .. "']"
    local single = require("vdx.flow_locator").quote(v)
    text = text:gsub(plain(single), (env:gsub("%%", "%%%%")))
    local double = json.encode(v)
    if double then text = text:gsub(plain(double), (env:gsub("%%", "%%%%"))) end
  end
  return secrets.redact(text)
end

return secrets
