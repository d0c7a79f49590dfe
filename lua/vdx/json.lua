--- vdx.json: JSON for the protocol layer, on top of lua-cjson.
-- lua-cjson 2.1.0 encodes every empty table as `{}`; a JSON array that may
-- be empty is built with `json.array(t)`, which marks it so that it is
-- written as `[]`.  Encoding never raises: a value that cannot be encoded
-- gives nil and the reason.
local cjson = require "cjson"

local json = {}

local codec = cjson.new()
codec.encode_sparse_array(true)
codec.encode_invalid_numbers("null")
codec.decode_invalid_numbers(false)
codec.encode_max_depth(200)
codec.decode_max_depth(200)

local ARRAY = { __name = "vdx.json.array" }
local NONCE = ("\1vdx-empty-array-%08x\1"):format(math.random(0, 0x7fffffff))

--- The JSON null value (cjson's lightuserdata).
json.null = cjson.null

--- Marks t (a new table when nil) as a JSON array and returns it.
function json.array(t)
  return setmetatable(t or {}, ARRAY)
end

-- Copies v, replacing every empty marked array with the placeholder.
local function prepare(v, depth)
  if type(v) ~= "table" then return v end
  if depth > 190 then error("nesting too deep", 0) end
  if getmetatable(v) == ARRAY and next(v) == nil then return NONCE end
  local out = {}
  for k, x in pairs(v) do out[k] = prepare(x, depth + 1) end
  return out
end

--- Encodes v as one line of JSON; returns the text, or nil and a message.
function json.encode(v)
  local ok, text = pcall(function() return codec.encode(prepare(v, 0)) end)
  if not ok then return nil, tostring(text) end
  local quoted = codec.encode(NONCE)
  return (text:gsub(quoted:gsub("%p", "%%%0"), "[]"))
end

--- Decodes text; returns the value, or nil and a message.
function json.decode(text)
  local ok, v = pcall(codec.decode, text)
  if not ok then return nil, tostring(v) end
  return v
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
