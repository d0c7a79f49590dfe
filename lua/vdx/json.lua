--- vdx.json: the one JSON codec of vdx, on top of lua-cjson: the MCP
-- wire (vdx.mcp) and the CDP wire (the C core, src/cdp/json.c) both use it.
-- lua-cjson 2.1.0 encodes every empty table as `{}`; a JSON array that may
-- be empty is built with `json.array(t)`, which marks it so that it is
-- written as `[]`.  Debian's lua-cjson (2.1.0) writes numbers with at most
-- 14 significant digits and refuses more (encode_number_precision): here
-- every number is written exactly (integers digit for digit, floats in the
-- shortest form that reads back as the same double), and `json.raw(text)`
-- puts JSON text in the output as it is (an id echoed byte for byte).  A
-- number that is not finite is written as null, as JSON.stringify does.
-- Decoding gives every number as a float (cjson 2.1.0), which is exact for
-- every double, so for every integer up to 2^53.  The output is always
-- valid UTF-8: an invalid byte in a string becomes U+FFFD.  Encoding never
-- raises: a value that cannot be encoded gives nil and the reason.
local cjson = require "cjson"

local json = {}

local codec = cjson.new()
codec.encode_sparse_array(true)
codec.encode_invalid_numbers("null")
codec.decode_invalid_numbers(false)
-- Values nest as deep as the browser lets them (its CDP messages stop
-- near 300 levels); cjson's own default is 1000.
local MAX_DEPTH = 1000
codec.encode_max_depth(MAX_DEPTH)
codec.decode_max_depth(MAX_DEPTH)

-- The marks of an array and of raw JSON are kept in the registry, so that
-- every instance of this module in a Lua state agrees on them: the C core
-- keeps the codec of the first instance (src/cdp/json.c), and a host that
-- unloads and requires modules again (busted does between spec files) gets
-- a second instance whose json.array must still encode as [].
local REG = debug.getregistry()
REG["vdx.json.array"] = REG["vdx.json.array"] or { __name = "vdx.json.array" }
REG["vdx.json.raw"] = REG["vdx.json.raw"] or { __name = "vdx.json.raw" }
local ARRAY, RAW = REG["vdx.json.array"], REG["vdx.json.raw"]
local SALT = ("%08x"):format(math.random(0, 0x7fffffff))
local RAW_OPEN, RAW_CLOSE = ("\1vdx-raw-%s-"):format(SALT), "\1"
-- A raw text's placeholder as cjson writes it: prefix, index, suffix.
local RAW_PREFIX = codec.encode(RAW_OPEN):sub(1, -2)
local RAW_SUFFIX = codec.encode(RAW_CLOSE):sub(2)

--- The JSON null value (cjson's lightuserdata).
json.null = cjson.null

--- Marks t (a new table when nil) as a JSON array and returns it.
function json.array(t)
  return setmetatable(t or {}, ARRAY)
end

--- Marks text (valid JSON) to be written as it is; returns the marker.
function json.raw(text)
  return setmetatable({ text = text }, RAW)
end

--- The exact JSON text of number n, or nil when cjson's own 14 digits
-- already are exact (or n is not finite: cjson writes null).
local function exact_number(n)
  if math.type(n) == "integer" then
    return (n >= 1e14 or n <= -1e14) and ("%d"):format(n) or nil
  end
  if n ~= n or n == math.huge or n == -math.huge then return nil end
  for digits = 14, 17 do
    local text = ("%." .. digits .. "g"):format(n)
    if tonumber(text) == n then return digits > 14 and text or nil end
  end
end

-- v, with every empty marked array, raw text and number that cjson would
-- round replaced by a placeholder string for its exact text ("[]", the raw
-- text, the number's digits), collected in raws.  Tables are copied only
-- where something in them is replaced (most CDP messages need nothing).
local function prepare(v, depth, raws)
  local t = type(v)
  if t == "number" then
    local text = exact_number(v)
    if not text then return v end
    raws[#raws + 1] = text
    return RAW_OPEN .. #raws .. RAW_CLOSE
  end
  if t ~= "table" then return v end
  if depth >= MAX_DEPTH then error("nesting too deep", 0) end
  local mt = getmetatable(v)
  if (mt == ARRAY and next(v) == nil) or mt == RAW then
    raws[#raws + 1] = mt == RAW and v.text or "[]"
    return RAW_OPEN .. #raws .. RAW_CLOSE
  end
  local out
  for k, x in pairs(v) do
    local y = prepare(x, depth + 1, raws)
    if out then
      out[k] = y
    elseif not rawequal(y, x) and y == y then
      out = {}
      for k2, x2 in pairs(v) do out[k2] = x2 end
      out[k] = y
    end
  end
  return out or v
end

-- text with every placeholder replaced by its text, found with plain
-- searches (a pattern scan of a 40 KB snapshot reply costs half a
-- millisecond; this costs a twentieth of that).
local function splice(text, raws)
  local out, pos = {}, 1
  while true do
    local a, b = text:find(RAW_PREFIX, pos, true)
    if not a then break end
    local digits = text:match("^%d+", b + 1)
    local e = digits and b + #digits
    if e and text:sub(e + 1, e + #RAW_SUFFIX) == RAW_SUFFIX then
      out[#out + 1] = text:sub(pos, a - 1)
      out[#out + 1] = raws[tonumber(digits)]
      pos = e + #RAW_SUFFIX + 1
    else
      out[#out + 1] = text:sub(pos, b)
      pos = b + 1
    end
  end
  out[#out + 1] = text:sub(pos)
  return table.concat(out)
end

local REPLACEMENT = "\u{FFFD}"

--- s with every byte that is not part of a valid UTF-8 sequence replaced
-- by U+FFFD (surrogates and overlong forms are invalid too).
function json.valid_utf8(s)
  if utf8.len(s) then return s end
  local out, pos = {}, 1
  while pos <= #s do
    local n, bad = utf8.len(s, pos)
    if n then out[#out + 1] = s:sub(pos) break end
    out[#out + 1] = s:sub(pos, bad - 1)
    out[#out + 1] = REPLACEMENT
    pos = bad + 1
  end
  return table.concat(out)
end

--- Encodes v as one line of JSON; returns the text, or nil and a message.
function json.encode(v)
  local raws = {}
  local ok, text = pcall(function() return codec.encode(prepare(v, 0, raws)) end)
  if not ok then return nil, tostring(text) end
  if #raws > 0 then text = splice(text, raws) end
  return json.valid_utf8(text)
end

--- Decodes text; returns the value, or nil and a message.
function json.decode(text)
  local ok, v = pcall(codec.decode, text)
  if not ok then return nil, tostring(v) end
  return v
end

-- The index just past the JSON string that starts at i, or nil.
local function skip_string(s, i)
  local j = i + 1
  while true do
    local q = s:find('["\\]', j)
    if not q then return nil end
    if s:byte(q) == 92 then j = q + 2 else return q + 1 end
  end
end

-- The index just past the JSON value that starts at i, or nil.
local function skip_value(s, i)
  local c = s:sub(i, i)
  if c == '"' then return skip_string(s, i) end
  if c ~= "{" and c ~= "[" then return s:find("[,%]}%s]", i) or #s + 1 end
  local depth, j = 0, i
  while true do
    local p = s:find('[%[%]{}"]', j)
    if not p then return nil end
    local ch = s:sub(p, p)
    if ch == '"' then
      j = skip_string(s, p)
      if not j then return nil end
    else
      depth = depth + ((ch == "{" or ch == "[") and 1 or -1)
      j = p + 1
      if depth == 0 then return j end
    end
  end
end

local function skip_ws(s, i) return s:find("[^ \t\r\n]", i) or #s + 1 end

-- The raw text of member "id" of the object at i (the last one, as cjson
-- keeps), or nil.
local function object_id(s, i)
  i = skip_ws(s, i + 1)
  local id
  while s:sub(i, i) == '"' do
    local ke = skip_string(s, i)
    if not ke then return nil end
    local key = s:sub(i, ke - 1)
    i = skip_ws(s, ke)
    if s:sub(i, i) ~= ":" then return nil end
    i = skip_ws(s, i + 1)
    local ve = skip_value(s, i)
    if not ve then return nil end
    if key == '"id"' then id = s:sub(i, ve - 1) end
    i = skip_ws(s, ve)
    if s:sub(i, i) ~= "," then break end
    i = skip_ws(s, i + 1)
  end
  return id
end

--- The raw text of the "id" members in text (a message that decodes):
-- for an object, { raw }; for an array, a list with the raw id of each
-- element at its index (absent for elements without one).
function json.raw_ids(text)
  local out = {}
  local i = skip_ws(text, 1)
  local c = text:sub(i, i)
  if c == "{" then
    out[1] = object_id(text, i)
  elseif c == "[" then
    i = skip_ws(text, i + 1)
    local n = 0
    while i <= #text and text:sub(i, i) ~= "]" do
      n = n + 1
      local e = skip_value(text, i)
      if not e then break end
      if text:sub(i, i) == "{" then out[n] = object_id(text, i) end
      i = skip_ws(text, e)
      if text:sub(i, i) ~= "," then break end
      i = skip_ws(text, i + 1)
    end
  end
  return out
end

--- True when v was marked with json.array (it is written as a JSON array
-- even when empty).
function json.is_array(v)
  return type(v) == "table" and getmetatable(v) == ARRAY
end

--- True when v is a Lua table that reads as a JSON array (1..n keys only).
function json.looks_like_array(v)
  if type(v) ~= "table" then return false end
  if getmetatable(v) == ARRAY then return true end
  local n = 0
  for k in pairs(v) do
    if math.type(k) ~= "integer" or k < 1 then return false end
    n = n + 1
  end
  return n > 0 and n == #v
end

return json
