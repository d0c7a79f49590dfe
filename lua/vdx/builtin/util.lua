--- vdx.builtin.util: helpers shared by the built-in tools: capability
-- checks, targets (ref or description), compact text rendering of result
-- tables and the common argument schemas.
local vdx = require "vdx"
local json = require "vdx.json"

local util = {}

local default_paths

--- The vdx.paths policy of the call: the server's, else one with no
-- workspace (file URLs refused, files written under ./vdx-output).
function util.paths(ctx)
  if ctx.paths then return ctx.paths end
  default_paths = default_paths or require("vdx.paths").new {}
  return default_paths
end

--- The typed target of an action from a tool's arguments, and its label
-- for the answer: { ref = … } when the ref is given (checked against the
-- ref grammar by the action), else { description = … } from the element
-- description.  Raises InvalidArgument when neither is there.
function util.target(args, refkey, elemkey)
  refkey, elemkey = refkey or "ref", elemkey or "element"
  local ref, desc = args[refkey], args[elemkey]
  if ref ~= nil and ref ~= "" then return { ref = ref }, ref end
  if desc ~= nil and desc ~= "" then return { description = desc }, desc end
  error(vdx.error("InvalidArgument", ("field %s: expected a ref from browser_snapshot() (or %s, a description)")
    :format(refkey, elemkey), { field = refkey, expected = "string" }), 0)
end

--- Copies t without nil values and with the keys renamed per map
-- ({from = "to"}); keys not in map are dropped.
function util.pick(t, map)
  local out = {}
  for from, to in pairs(map) do
    if t[from] ~= nil then out[to] = t[from] end
  end
  return out
end

local function scalar(v)
  if v == json.null then return "null" end
  if type(v) == "string" then
    local s = v:gsub("\n", "\\n")
    if #s > 200 then s = s:sub(1, 200) .. "…[+" .. (#s - 200) .. " chars]" end
    if s == "" or s:match("^[%s%-%[{]") or s:match(": ") or s:match("^%d") then
      return ("%q"):format(s):gsub("\\\n", "\\n")
    end
    return s
  end
  return tostring(v)
end

local function sorted_keys(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  return keys
end

local function is_flat(t)
  for _, v in pairs(t) do if type(v) == "table" then return false end end
  return true
end

-- Renders t into out at indent, YAML-like, bounded in depth and length.
local function render(t, out, indent, depth)
  local pad = ("  "):rep(indent)
  if depth > 6 then out[#out + 1] = pad .. "…" return end
  if json.looks_like_array(t) then
    for i, v in ipairs(t) do
      if i > 60 then out[#out + 1] = pad .. ("- … (%d more)"):format(#t - 60) break end
      if type(v) == "table" and next(v) ~= nil and is_flat(v) and not json.looks_like_array(v) then
        local parts = {}
        for _, k in ipairs(sorted_keys(v)) do parts[#parts + 1] = k .. ": " .. scalar(v[k]) end
        out[#out + 1] = pad .. "- {" .. table.concat(parts, ", ") .. "}"
      elseif type(v) == "table" and next(v) ~= nil then
        out[#out + 1] = pad .. "-"
        render(v, out, indent + 1, depth + 1)
      else
        out[#out + 1] = pad .. "- " .. (type(v) == "table" and "[]" or scalar(v))
      end
    end
    return
  end
  for _, k in ipairs(sorted_keys(t)) do
    local v = t[k]
    if type(v) == "table" and next(v) ~= nil then
      if is_flat(v) and json.looks_like_array(v) and #v <= 20 then
        local parts = {}
        for i, x in ipairs(v) do parts[i] = scalar(x) end
        out[#out + 1] = pad .. k .. ": [" .. table.concat(parts, ", ") .. "]"
      elseif is_flat(v) and not json.looks_like_array(v) then
        local parts = {}
        for _, kk in ipairs(sorted_keys(v)) do parts[#parts + 1] = kk .. "=" .. scalar(v[kk]) end
        out[#out + 1] = pad .. k .. ": {" .. table.concat(parts, ", ") .. "}"
      else
        out[#out + 1] = pad .. k .. ":"
        render(v, out, indent + 1, depth + 1)
      end
    elseif type(v) == "table" then
      -- An empty list (marked with json.array) reads as one, as in JSON.
      out[#out + 1] = pad .. k .. (json.is_array(v) and ": []" or ": {}")
    else
      out[#out + 1] = pad .. k .. ": " .. scalar(v)
    end
  end
end

--- Compact, YAML-like text of a result table, for the model.
function util.render(t)
  if type(t) ~= "table" then return scalar(t) end
  local out = {}
  render(t, out, 0, 0)
  return table.concat(out, "\n")
end

--- Schema of the `element` description argument (Playwright MCP's name).
util.ELEMENT = { type = "string",
  description = "Human-readable element description used to obtain permission to interact with the element (also used to find it when ref is omitted)" }

--- Schema of the `ref` argument.
util.REF = { type = "string", description = "Exact target element reference from the page snapshot" }

--- The result of an action: the facts it returned, as text and structure.
function util.action_result(what, res)
  local text = what
  if type(res) == "table" and next(res) ~= nil then
    text = text .. "\n" .. util.render(res)
  end
  return { text = text, structured = type(res) == "table" and res or nil }
end

return util
