--- vdx.schema: checks a decoded JSON value against the subset of JSON Schema
-- that tool inputs use: `type` (one or a list), `properties`, `required`,
-- `additionalProperties` (unknown keys are refused unless it is true or a
-- schema), `enum`, `const`, `minimum`/`maximum` (and the exclusive forms),
-- `minLength`/`maxLength`, `items`, `minItems`/`maxItems`, `anyOf`/`oneOf`.
-- A failure names the field and what was expected:
-- `field ref: expected string, got number`.
local json = require "vdx.json"

local schema = {}

-- The JSON type name of a decoded value.
local function json_type(v)
  local t = type(v)
  if v == json.null then return "null" end
  if t == "string" or t == "boolean" then return t end
  if t == "number" then
    return (math.type(v) == "integer" or v == math.floor(v)) and "integer" or "number"
  end
  if t == "table" then
    if next(v) == nil then return "empty" end
    return json.looks_like_array(v) and "array" or "object"
  end
  return t
end

local function matches_type(want, got)
  if want == got then return true end
  if want == "number" and got == "integer" then return true end
  if got == "empty" and (want == "array" or want == "object") then return true end
  return false
end

local function show(v)
  if type(v) == "string" then return ("%q"):format(v) end
  return tostring(v)
end

local function field(path)
  return path == "" and "arguments" or "field " .. path
end

local function join(path, key)
  if path == "" then return tostring(key) end
  if math.type(key) == "integer" then return ("%s[%d]"):format(path, key - 1) end
  return path .. "." .. key
end

local check

local function check_object(s, v, path)
  local props = s.properties or {}
  for _, name in ipairs(s.required or {}) do
    if v[name] == nil then
      return ("%s: required, expected %s"):format(field(join(path, name)),
        props[name] and props[name].type and tostring(props[name].type) or "a value")
    end
  end
  local extra = s.additionalProperties
  for k, x in pairs(v) do
    local sub = props[k]
    if sub then
      local err = check(sub, x, join(path, k))
      if err then return err end
    elseif type(extra) == "table" then
      local err = check(extra, x, join(path, k))
      if err then return err end
    elseif extra ~= true then
      local names = {}
      for n in pairs(props) do names[#names + 1] = n end
      table.sort(names)
      return ("%s: unknown field, expected one of: %s"):format(field(join(path, k)),
        #names > 0 and table.concat(names, ", ") or "(no fields)")
    end
  end
end

local function check_array(s, v, path)
  local n = #v
  if s.minItems and n < s.minItems then
    return ("%s: expected at least %d items, got %d"):format(field(path), s.minItems, n)
  end
  if s.maxItems and n > s.maxItems then
    return ("%s: expected at most %d items, got %d"):format(field(path), s.maxItems, n)
  end
  if s.items then
    for i = 1, n do
      local err = check(s.items, v[i], join(path, i))
      if err then return err end
    end
  end
end

local function check_scalar(s, v, path)
  if type(v) == "number" then
    if s.minimum and v < s.minimum then
      return ("%s: expected a number >= %s, got %s"):format(field(path), s.minimum, v)
    end
    if s.maximum and v > s.maximum then
      return ("%s: expected a number <= %s, got %s"):format(field(path), s.maximum, v)
    end
    if s.exclusiveMinimum and v <= s.exclusiveMinimum then
      return ("%s: expected a number > %s, got %s"):format(field(path), s.exclusiveMinimum, v)
    end
    if s.exclusiveMaximum and v >= s.exclusiveMaximum then
      return ("%s: expected a number < %s, got %s"):format(field(path), s.exclusiveMaximum, v)
    end
  elseif type(v) == "string" then
    local n = utf8.len(v) or #v
    if s.minLength and n < s.minLength then
      return ("%s: expected a string of at least %d characters"):format(field(path), s.minLength)
    end
    if s.maxLength and n > s.maxLength then
      return ("%s: expected a string of at most %d characters, got %d"):format(field(path), s.maxLength, n)
    end
  end
end

local function check_enum(s, v, path)
  for _, e in ipairs(s.enum) do
    if e == v then return nil end
  end
  local shown = {}
  for i, e in ipairs(s.enum) do shown[i] = show(e) end
  return ("%s: expected one of %s, got %s"):format(field(path),
    table.concat(shown, ", "), show(v))
end

local function check_any(list, v, path, exactly_one)
  local hits, first = 0, nil
  for _, sub in ipairs(list) do
    local err = check(sub, v, path)
    if err == nil then hits = hits + 1 else first = first or err end
  end
  if hits == 0 then return first end
  if exactly_one and hits > 1 then
    return ("%s: matches more than one alternative"):format(field(path))
  end
end

-- Returns nil when v satisfies s, else one message about the first problem.
function check(s, v, path)
  if type(s) ~= "table" then return nil end
  local got = json_type(v)
  if s.type then
    local ok = false
    local wants = type(s.type) == "table" and s.type or { s.type }
    for _, w in ipairs(wants) do
      if matches_type(w, got) then ok = true break end
    end
    if not ok then
      return ("%s: expected %s, got %s"):format(field(path),
        table.concat(wants, " or "), got == "empty" and "empty table" or got)
    end
  end
  if s.const ~= nil and v ~= s.const then
    return ("%s: expected %s, got %s"):format(field(path), show(s.const), show(v))
  end
  if s.enum then
    local err = check_enum(s, v, path)
    if err then return err end
  end
  local err = check_scalar(s, v, path)
  if err then return err end
  if got == "object" or (got == "empty" and s.type == "object") then
    err = check_object(s, v, path)
  elseif got == "array" or (got == "empty" and s.type == "array") then
    err = check_array(s, v, path)
  end
  if err then return err end
  if s.anyOf then return check_any(s.anyOf, v, path, false) end
  if s.oneOf then return check_any(s.oneOf, v, path, true) end
end

--- Checks value against the JSON Schema s; returns true, or nil and a
-- message naming the field and what was expected.
function schema.validate(s, value)
  local err = check(s, value, "")
  if err then return nil, err end
  return true
end

--- Makes every number of value that s types as an integer a Lua integer
-- (JSON has one number type: a decoder may give 6 as 6.0, which a tool's
-- math.type check refuses); value must satisfy s (schema.validate).
-- Tables are changed in place; returns the value.
function schema.integers(s, value)
  if type(s) ~= "table" then return value end
  local t = s.type
  if math.type(value) == "float" and (t == "integer" or (type(t) == "table" and t[1] == "integer")) then
    return math.tointeger(value) or value
  end
  if type(value) ~= "table" then return value end
  if type(s.properties) == "table" then
    for k, sub in pairs(s.properties) do
      if value[k] ~= nil then value[k] = schema.integers(sub, value[k]) end
    end
  end
  if type(s.items) == "table" and #value > 0 then
    for i = 1, #value do value[i] = schema.integers(s.items, value[i]) end
  end
  return value
end

-- The first string in v (a key or a value, depth first, keys in sorted
-- order so the answer is the same every time) that is not UTF-8: its
-- path, the offset of its first bad byte (from 0) and that byte.
local function bad_utf8(v, path)
  if type(v) == "string" then
    local ok, at = utf8.len(v)
    if not ok then return path, at - 1, v:byte(at) end
    return nil
  end
  if type(v) ~= "table" then return nil end
  local keys = {}
  for k in pairs(v) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b)
    if type(a) ~= type(b) then return type(a) < type(b) end
    return a < b
  end)
  for _, k in ipairs(keys) do
    if type(k) == "string" and not utf8.len(k) then
      local _, at = utf8.len(k)
      -- The key is shown with its bytes over 0x7F escaped, so the
      -- message itself is UTF-8.
      local shown = k:gsub("[%c\128-\255\"\\]", function(c) return ("\\x%02X"):format(c:byte()) end)
      return join(path, '"' .. shown .. '"'), at - 1, k:byte(at), true
    end
    local p, at, byte, key = bad_utf8(v[k], join(path, k))
    if p then return p, at, byte, key end
  end
end

--- The first string in a decoded value (keys included, at any depth)
-- that is not UTF-8: nil when there is none, else a message naming its
-- path (`url`, `fields[1].value`, as validate names fields) and the
-- offset of its first bad byte, then the path.  JSON text is UTF-8, but
-- the decoder passes other bytes through.
function schema.invalid_utf8(value)
  local path, at, byte, key = bad_utf8(value, "")
  if not path then return nil end
  return ("%s: %s not valid UTF-8: byte %d (counting from 0), 0x%02X, begins no valid UTF-8 " ..
    "sequence; send the text as UTF-8"):format(field(path), key and "the key is" or "the string is", at, byte), path
end

--- The JSON type name of a decoded value ("string", "integer", "array", …).
schema.type_of = json_type

return schema
