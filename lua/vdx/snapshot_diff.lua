--- vdx.snapshot_diff: what changed between two snapshot texts of one
-- document, line by line, for the change report of the acting tools
-- (vdx.changes).  A line with a ref is the same element in both texts (a
-- ref names one element for the life of its document), so it is keyed by
-- its ref and is "changed" when anything but its focus differs (checked,
-- value, expanded, name).  A line without a ref is keyed by its text and
-- its parent's key; the lines of a key that one side has more of are
-- added or removed, and an added and a removed line of the same ARIA role
-- under the same parent pair up as a change.
local json = require "vdx.json"

local diff = {}

-- The decoded string of a JSON double-quoted literal at s[i] (i at the
-- opening quote), and the index after its closing quote.
local function quoted_at(s, i)
  local j = i + 1
  while j <= #s do
    local c = s:sub(j, j)
    if c == "\\" then j = j + 2
    elseif c == '"' then
      local ok, v = pcall(json.decode, s:sub(i, j))
      return ok and type(v) == "string" and v or s:sub(i + 1, j - 1), j + 1
    else j = j + 1 end
  end
  return s:sub(i + 1), #s + 1
end

-- The key of a single-quoted YAML key at content's start, and the rest.
local function single_quoted(content)
  local buf, i = {}, 2
  while i <= #content do
    local c = content:sub(i, i)
    if c == "'" then
      if content:sub(i + 1, i + 1) ~= "'" then break end
      buf[#buf + 1], i = "'", i + 2
    else
      buf[#buf + 1], i = c, i + 1
    end
  end
  return table.concat(buf), content:sub(i + 1)
end

--- The parts of a snapshot line's content (without its indentation and
-- "- "): { role =, name =, states = { "[checked]", … }, ref =, value = },
-- where value is the text after the key (a text line's text, a field's
-- value), decoded.  A name cut by the snapshot keeps its start (no "…").
function diff.parse(content)
  local key, rest
  if content:sub(1, 1) == "'" then
    key, rest = single_quoted(content)
  else
    local at = content:find(": ", 1, true)
    if at then key, rest = content:sub(1, at - 1), content:sub(at)
    elseif content:sub(-1) == ":" then key, rest = content:sub(1, -2), ":"
    else key, rest = content, "" end
  end
  local out = { states = {} }
  local role, i = key:match("^(%S+)()")
  out.role = role or key
  i = i or #key + 1
  if key:sub(i, i + 1) == ' "' then
    out.name, i = quoted_at(key, i + 1)
    out.name = out.name:gsub("…$", "")
  end
  for st in key:sub(i):gmatch("%[[^%]]*%]") do
    local ref = st:match("^%[ref=([%w_]+)%]$")
    if ref then out.ref = ref
    elseif not st:match("^%[name=%d+ chars%]$") then out.states[#out.states + 1] = st end
  end
  local v = rest:match("^: (.*)$")
  if v then
    out.value = v:sub(1, 1) == '"' and (quoted_at(v, 1)) or v
  end
  return out
end

-- s in double quotes, for a reader.
local function dq(s)
  return '"' .. tostring(s):gsub('["\\]', "\\%0") .. '"'
end

--- The lines of a snapshot text as entries { i, depth, content, role,
-- name, states, ref, value, norm, key, parent, in_frame }, in order.
-- Notes are left out.  norm is the content without focus, the text two
-- sides compare.
function diff.lines(text)
  local entries, stack, top = {}, {}, -1
  for line in (text or ""):gmatch("[^\n]+") do
    local indent, rest = line:match("^( *)(.*)$")
    local content = rest:gsub("^%- ", "")
    if not content:match("^note: ") then
      local d = #indent // 2
      local e = diff.parse(content)
      e.i, e.depth, e.content = #entries + 1, d, content
      for k = math.min(d - 1, top), 0, -1 do
        if stack[k] then e.parent = stack[k] break end
      end
      e.norm = content:gsub(" %[active%]", "")
      e.key = e.ref and ("#" .. e.ref) or ((e.parent and e.parent.key or "") .. "\n" .. e.norm)
      e.in_frame = e.parent ~= nil and (e.parent.in_frame or e.parent.role == "iframe")
      for k = d, top do stack[k] = nil end
      stack[d], top = e, d
      entries[#entries + 1] = e
    end
  end
  return entries
end

local function index(entries)
  local byref, bykey = {}, {}
  for _, e in ipairs(entries) do
    if e.ref then byref[e.ref] = e
    else
      local l = bykey[e.key]
      if not l then l = {}; bykey[e.key] = l end
      l[#l + 1] = e
    end
  end
  return byref, bykey
end

-- The entries of `from` whose key `other` has fewer of (the last ones of
-- each key), marked with mark.
local function surplus(from_keys, other_keys, mark, out)
  for key, list in pairs(from_keys) do
    local n = #list - #(other_keys[key] or {})
    if n > 0 then
      for k = #list - n + 1, #list do list[k][mark] = true; out[#out + 1] = list[k] end
    end
  end
end

local function by_index(a, b) return a.i < b.i end

--- diff.compare(old_text, new_text) -> { added = {…}, removed = {…},
-- changed = {…}, old = entries, new = entries }: entries of the new text
-- (added; changed, each with .was, its old entry) and of the old one
-- (removed), in document order.  Entries are those of diff.lines.
function diff.compare(old_text, new_text)
  local old, new = diff.lines(old_text), diff.lines(new_text)
  local oref, okey = index(old)
  local nref, nkey = index(new)
  local added, removed, changed = {}, {}, {}
  for ref, e in pairs(nref) do
    local was = oref[ref]
    if not was then e.added = true; added[#added + 1] = e
    elseif was.norm ~= e.norm then e.was = was; changed[#changed + 1] = e end
  end
  for ref, e in pairs(oref) do
    if not nref[ref] then e.removed = true; removed[#removed + 1] = e end
  end
  surplus(nkey, okey, "added", added)
  surplus(okey, nkey, "removed", removed)
  table.sort(added, by_index)
  table.sort(removed, by_index)
  -- A line without a ref that changed its text: one added and one removed
  -- line of the same ARIA role under the same parent.
  local pool = {}
  for _, r in ipairs(removed) do
    if not r.ref and not (r.parent and r.parent.removed) then
      local k = (r.parent and r.parent.key or "") .. "\n" .. r.role
      pool[k] = pool[k] or {}
      table.insert(pool[k], r)
    end
  end
  local kept = {}
  for _, a in ipairs(added) do
    local k = (a.parent and a.parent.key or "") .. "\n" .. a.role
    local r = not a.ref and not (a.parent and a.parent.added) and pool[k] and table.remove(pool[k], 1)
    if r then
      a.added, r.removed, a.was = nil, nil, r
      changed[#changed + 1] = a
    else
      kept[#kept + 1] = a
    end
  end
  local still = {}
  for _, r in ipairs(removed) do if r.removed then still[#still + 1] = r end end
  table.sort(changed, by_index)
  return { added = kept, removed = still, changed = changed, old = old, new = new }
end

--- What differs between a changed entry and its old one, in a few words:
-- `was not [checked]`, `was "old value"`, `was named "Play"`.
function diff.was(e)
  local w, parts = e.was, {}
  if (w.name or "") ~= (e.name or "") then parts[#parts + 1] = "named " .. dq(w.name or "") end
  local old_s, new_s = {}, {}
  for _, s in ipairs(w.states) do if s ~= "[active]" then old_s[s] = true end end
  for _, s in ipairs(e.states) do if s ~= "[active]" then new_s[s] = true end end
  local gone, came = {}, {}
  for _, s in ipairs(w.states) do if old_s[s] and not new_s[s] then gone[#gone + 1] = s end end
  for _, s in ipairs(e.states) do if new_s[s] and not old_s[s] then came[#came + 1] = s end end
  if #gone > 0 then parts[#parts + 1] = table.concat(gone, " ") end
  if #came > 0 then parts[#parts + 1] = "not " .. table.concat(came, " ") end
  if (w.value or "") ~= (e.value or "") then
    parts[#parts + 1] = (w.value or "") == "" and "empty" or dq(w.value)
  end
  if w.role ~= e.role then parts[#parts + 1] = "a " .. w.role end
  if #parts == 0 then return "was " .. w.content end
  return "was " .. table.concat(parts, ", ")
end

return diff
