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
  local j, escaped = i + 1, false
  while true do
    local k = s:find('["\\]', j)
    if not k then return s:sub(i + 1), #s + 1 end
    if s:byte(k) == 92 then
      escaped, j = true, k + 2
    else
      -- Without an escape the literal is its own text.
      if not escaped then return s:sub(i + 1, k - 1), k + 1 end
      local ok, v = pcall(json.decode, s:sub(i, k))
      return ok and type(v) == "string" and v or s:sub(i + 1, k - 1), k + 1
    end
  end
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

-- The lines of a snapshot text.
local function split(text)
  local lines = {}
  for line in (text or ""):gmatch("[^\n]+") do lines[#lines + 1] = line end
  return lines
end

-- The depth of a line (two spaces a level), and whether it is a note.
local function depth_of(line)
  return ((line:find("[^ ]") or #line + 1) - 1) // 2
end
local function is_note(line)
  return line:find("^ *%- note: ") ~= nil
end

-- Whether two lines are the same but for focus (" [active]", which is no
-- change: the focus an action moves from one element to another far away
-- would otherwise widen what is read to the whole page).
local function same(x, y)
  return x == y or x:gsub(" %[active%]", "") == y:gsub(" %[active%]", "")
end

--- diff.focus(a, b) -> picks_a, picks_b: the indexes of the lines of a and
-- b (the two texts' lines) a comparison needs to read, or nil when it is
-- all of them.  The lines both share at their start and at their end are
-- the same elements in the same places (focus aside), so only the differing lines in
-- between are read, within the subtree of the nearest shared line above
-- them that holds them all (so a container whose children moved, or a
-- list whose items were counted, is read whole) and under its ancestors
-- (for every line's parents).  Two equal texts give two empty lists.
function diff.focus(a, b)
  local na, nb = #a, #b
  local p = 0
  while p < na and p < nb and (a[p + 1] == b[p + 1] or same(a[p + 1], b[p + 1])) do p = p + 1 end
  if p == na and p == nb then return {}, {} end
  local s = 0
  while s < na - p and s < nb - p and (a[na - s] == b[nb - s] or same(a[na - s], b[nb - s])) do s = s + 1 end
  local least = math.huge
  for i = p + 1, na - s do if not is_note(a[i]) then least = math.min(least, depth_of(a[i])) end end
  for i = p + 1, nb - s do if not is_note(b[i]) then least = math.min(least, depth_of(b[i])) end end
  local c = p
  while c > 0 and (is_note(a[c]) or depth_of(a[c]) >= least) do c = c - 1 end
  if c == 0 then return nil end
  local cd = depth_of(a[c])
  -- The shared lines after the differing ones that are still in c's subtree.
  local e = 0
  while e < s and (is_note(a[na - s + 1 + e]) or depth_of(a[na - s + 1 + e]) > cd) do e = e + 1 end
  local above, d = {}, cd
  for i = c - 1, 1, -1 do
    if d == 0 then break end
    -- The depth first: most lines are deeper, and a note seldom is not.
    local di = depth_of(a[i])
    if di < d and not is_note(a[i]) then table.insert(above, 1, i); d = di end
  end
  local function picks(n)
    local out = table.move(above, 1, #above, 1, {})
    for i = c, n - s + e do out[#out + 1] = i end
    return out
  end
  return picks(na), picks(nb)
end

-- s in double quotes, for a reader.
local function dq(s)
  return '"' .. tostring(s):gsub('["\\]', "\\%0") .. '"'
end

--- The roles of an item of a list or table (a row, a list item, a card):
-- what a report names by the text it shows and a find keeps as "the row".
diff.ITEM_ROLES = { row = true, listitem = true, article = true, treeitem = true, option = true }

-- The roles whose value a snapshot line shows after its key.
local VALUED = { textbox = true, searchbox = true, combobox = true, spinbutton = true }

-- Gives entry p (a field whose line is a key over its children) the value
-- v of its text child: its content, norm and sig read as the inline form
-- (`textbox "X" [ref=e7]: "10"`), so the field compares by its value.
local function fold_value(p, v)
  p.value = v
  local inline = p.content:gsub(":$", "") .. ": " .. dq(v)
  p.content = inline
  p.norm = inline:gsub(" %[active%]", "")
  p.sig = p.norm:gsub(" %[ref=[%w_]+%]", "")
end

-- The entries of lines (a text's lines, see split), or of those at the
-- indexes picks, in order (each a line's ancestors before it); e.i is the
-- entry's place among them, or its line's index when picks are given.
local function entries_of(lines, picks)
  local entries, stack, top = {}, {}, -1
  for j = 1, picks and #picks or #lines do
    local line = lines[picks and picks[j] or j]
    if not is_note(line) then
      local indent, rest = line:match("^( *)(.*)$")
      local content = rest:gsub("^%- ", "")
      local d = #indent // 2
      local e = diff.parse(content)
      e.i, e.depth, e.content = picks and picks[j] or #entries + 1, d, content
      for k = math.min(d - 1, top), 0, -1 do
        if stack[k] then e.parent = stack[k] break end
      end
      local p = e.parent
      if e.role == "text" and p and VALUED[p.role] and p.value == nil and p.depth == d - 1 then
        -- A field with a placeholder shows its value as a text line under
        -- it: it is the field's value, as `textbox "X": v` would have it.
        fold_value(p, e.value or "")
        goto next
      end
      e.norm = content:gsub(" %[active%]", "")
      e.sig = e.norm:gsub(" %[ref=[%w_]+%]", "")
      -- Where the line is: its ancestors' roles and names, which neither a
      -- state nor a re-render (new refs) changes.
      e.path = (e.parent and e.parent.path or "") .. "/" .. e.role .. (e.name and (' "' .. e.name .. '"') or "")
      e.in_frame = e.parent ~= nil and (e.parent.in_frame or e.parent.role == "iframe")
      e.children = {}
      if e.parent then table.insert(e.parent.children, e) end
      for k = d, top do stack[k] = nil end
      stack[d], top = e, d
      entries[#entries + 1] = e
    end
    ::next::
  end
  return entries
end

--- The lines of a snapshot text as entries { i, depth, content, role,
-- name, states, ref, value, norm, sig, path, parent, children, in_frame },
-- in order (diff.compare adds key).  Notes are left out.  norm is the content without
-- focus, the text two sides compare; sig the same without the ref; path
-- the roles and names of the line and its ancestors.
function diff.lines(text)
  return entries_of(split(text))
end

-- Keys every entry: a line with a ref by its ref (a re-rendered element's
-- new ref by the old one it replaced, from `map`), any other line by its
-- parent's key and its own text.  Returns the entries by ref and the
-- lines without a ref by key.
local function index(entries, map)
  local byref, bykey = {}, {}
  for _, e in ipairs(entries) do
    if e.ref then
      e.key = "#" .. (map and map[e.ref] or e.ref)
      byref[e.ref] = e
    else
      e.key = (e.parent and e.parent.key or "") .. "\n" .. e.norm
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

-- The text of e's subtree without refs and focus, bottom-up (cached).
local function tree(e)
  if not e.tree then
    local parts = {}
    for i, c in ipairs(e.children) do parts[i] = tree(c) end
    e.tree = e.sig .. "{" .. table.concat(parts, "|") .. "}"
  end
  return e.tree
end

-- Where a line sits, as a key: its parent element's ref (for a new line
-- whose parent was re-rendered and paired already, the old ref it took,
-- from map), a ref-less parent's place, or the top.
local function under(e, map)
  local p = e.parent
  if p == nil then return "\0top" end
  if p.ref then return "#" .. (map and map[p.ref] or p.ref) end
  return p.path
end

-- Appends e to the list of key in t.
local function file(t, key, e)
  local l = t[key]
  if not l then l = { at = 1 }; t[key] = l end
  l[#l + 1] = e
end

-- The first line of list not taken yet (list.at skips those taken, so a
-- run of calls reads each line once).
local function take(list, taken)
  if not list then return nil end
  while list[list.at] and taken[list[list.at]] do list.at = list.at + 1 end
  return list[list.at]
end

-- Pairs the ref lines that left with the new ones of the same role, name
-- and place (a framework re-rendered the element: same thing, new ref):
-- a pair is no change, or a change when its text differs.  Two passes in
-- document order, so a parent is paired before its children: first the
-- lines whose whole subtree reads the same under the same element (a
-- list's rows, told apart by what they hold: after a filter re-renders a
-- list, its "Walk dog" row pairs with the old "Walk dog" row, not with
-- the first row of the list), then the rest, those under the same
-- element first, else in order.  Each line is looked up by key, so a
-- table of thousands of re-rendered rows pairs in linear time.  Returns
-- the added and removed lines left, the map of new refs to old ones and
-- the re-rendered lines.
local function rerendered(added, removed, changed)
  local wanted = {}
  for _, a in ipairs(added) do if a.ref then wanted[a.path] = true end end
  local by_tree, by_parent, by_path = {}, {}, {}
  for _, r in ipairs(removed) do
    if r.ref and wanted[r.path] then
      local at = r.path .. "\1" .. under(r)
      file(by_tree, at .. "\1" .. tree(r), r)
      file(by_parent, at, r)
      file(by_path, r.path, r)
    end
  end
  local map, renewed, taken = {}, {}, {}
  local function pair(a, r)
    taken[r], map[a.ref] = true, r.ref
    a.added, r.removed = nil, nil
    renewed[#renewed + 1] = a
    if r.sig ~= a.sig then a.was = r; changed[#changed + 1] = a end
  end
  for _, a in ipairs(added) do
    if a.ref and wanted[a.path] then
      local r = take(by_tree[a.path .. "\1" .. under(a, map) .. "\1" .. tree(a)], taken)
      if r then pair(a, r) end
    end
  end
  for _, a in ipairs(added) do
    if a.ref and a.added then
      local r = take(by_parent[a.path .. "\1" .. under(a, map)], taken) or take(by_path[a.path], taken)
      if r then pair(a, r) end
    end
  end
  local fresh, gone = {}, {}
  for _, a in ipairs(added) do if a.added then fresh[#fresh + 1] = a end end
  for _, r in ipairs(removed) do if r.removed then gone[#gone + 1] = r end end
  table.sort(renewed, by_index)
  return fresh, gone, map, renewed
end


--- The first name or text in the subtree of entry e (of diff.compare's
-- old or new lists), or nil: how a moved child, or a nameless item that
-- left, is told.
function diff.label(e)
  if (e.name or "") ~= "" then return e.name end
  if (e.value or "") ~= "" and e.role ~= "/url" then return e.value end
  for _, c in ipairs(e.children) do
    local l = diff.label(c)
    if l then return l end
  end
  return nil
end
local label = diff.label

-- The refs in the subtrees of entries' children, as a set.
local function refs_under(e, set)
  set = set or {}
  for _, c in ipairs(e.children) do
    if c.ref then set[c.ref] = true end
    refs_under(c, set)
  end
  return set
end

-- Whether entry e is a table's header row: a row of column headers only.
local function header_row(e)
  if e.role ~= "row" or #e.children == 0 then return false end
  for _, c in ipairs(e.children) do
    if c.role ~= "columnheader" then return false end
  end
  return true
end

-- The containers whose children are the same but in another order (a
-- sorted table, a moved list item): { parent = new entry, labels = {…},
-- head = the header rows left out of labels, rebuilt = bool }, rebuilt
-- when its children have refs it did not have (the app made them again:
-- the old refs are gone).  Only a container whose place is unique on
-- both sides is compared.
local function reordered(old, new)
  local function by_path(entries)
    local m = {}
    for _, e in ipairs(entries) do
      if #e.children > 1 then m[e.path] = m[e.path] == nil and e or false end
    end
    return m
  end
  local before, after, out = by_path(old), by_path(new), {}
  for _, e in ipairs(new) do
    local o = after[e.path] and before[e.path]
    if o and #o.children == #e.children and tree(o) ~= tree(e) then
      -- The children both sides hold alike, each side in its order: a
      -- child that changed (a header row now sorted) is left out.
      local left = {}
      for _, c in ipairs(o.children) do local t = tree(c); left[t] = (left[t] or 0) + 1 end
      local now, kept = {}, {}
      for _, c in ipairs(e.children) do
        local t = tree(c)
        if (left[t] or 0) > 0 then left[t] = left[t] - 1; now[#now + 1] = t; kept[t] = (kept[t] or 0) + 1 end
      end
      local was = {}
      for _, c in ipairs(o.children) do
        local t = tree(c)
        if (kept[t] or 0) > 0 then kept[t] = kept[t] - 1; was[#was + 1] = t end
      end
      local moved = false
      for i = 1, #now do moved = moved or now[i] ~= was[i] end
      if moved and #now >= 2 and #now >= #e.children - 1 then
        -- (A header row is no item: run ES read "new order: Name, Ken
        -- Thompson" of a sorted table.)
        local labels, head = {}, 0
        for _, c in ipairs(e.children) do
          if header_row(c) then head = head + 1 else labels[#labels + 1] = label(c) or "?" end
        end
        -- Rebuilt: all its children with a ref but one (a header row kept) have new ones.
        local had, with, fresh = refs_under(o), 0, 0
        for _, c in ipairs(e.children) do
          if c.ref then with, fresh = with + 1, fresh + (had[c.ref] and 0 or 1) end
        end
        out[#out + 1] = { parent = e, labels = labels, head = head, rebuilt = fresh >= 2 and fresh >= with - 1 }
      end
    end
  end
  return out
end

--- diff.count_named(text, role, name, exact, limit) -> n or nil: how many
-- elements of the main frame the snapshot text shows with role `role`
-- and a name that getByRole(role, { name, exact }) matches (exact: the
-- same name; else one that holds name, case aside), counted up to limit.
-- Only lines with a main-frame ref count, and a name the snapshot cut
-- counts only when its kept start holds name (never when exact), so n is
-- at most what the locator matches on the page the text shows: an n of
-- 2 proves that a locator which must match one element would not.  nil
-- when it cannot tell: a role that is not a word, or a case-insensitive
-- match of a name that is not ASCII (Lua lowers ASCII letters only).
-- whole reads every line of the role, as for a name a line escapes (what
-- the reading of the name's lines alone agrees with, for a test).
function diff.count_named(text, role, name, exact, limit, whole)
  if not role:find("^%a+$") or (not exact and name:find("[\128-\255]")) then return nil end
  local want = exact and name or name:lower()
  local n = 0
  -- Whether the line content (after "- ") counts.
  local function counts(content)
    local e = diff.parse(content)
    if not (e.ref and e.ref:find("^e%d+$") and e.role == role and e.name) then return false end
    if exact then return e.name == want and not content:find('\u{2026}"', 1, true) end
    return e.name:lower():find(want, 1, true) ~= nil
  end
  local line = "^ *%- ('?" .. role .. ' ".*)$'
  -- A name that the text holds as it is (no quote, backslash, control
  -- character or single quote, which a line escapes or doubles): only the
  -- lines that hold it are read, which on a page of 200 alike cards is a
  -- few lines, not all of them.
  if not whole and want ~= "" and not want:find("[%c\\\"']") then
    local hay = exact and text or text:lower()
    local needle = exact and (role .. ' "' .. want .. '"') or want
    local at, len = 1, #text
    while n < limit do
      local i = hay:find(needle, at, true)
      if not i then break end
      local s = i
      while s > 1 and text:byte(s - 1) ~= 10 do s = s - 1 end
      local e = (text:find("\n", i, true) or len + 1) - 1
      local content = text:sub(s, e):match(line)
      if content and counts(content) then n = n + 1 end
      at = e + 2
    end
    return n
  end
  for content in ("\n" .. text):gmatch("\n *%- ('?" .. role .. ' "[^\n]*)') do
    if counts(content) then
      n = n + 1
      if n >= limit then break end
    end
  end
  return n
end

--- diff.compare(old_text, new_text [, whole [, old_lines, new_lines]]) ->
-- { added = {…}, removed = {…},
-- changed = {…}, moved = {…}, renewed = {…}, old = entries, new = entries }:
-- entries of the new text (added; changed, each with .was, its old entry;
-- renewed, the elements re-rendered with a new ref) and of the old one
-- (removed), in document order, and the containers whose children only
-- changed order (moved).  Entries are those of diff.lines.
-- Only the lines diff.focus picks are read, unless whole is true (every
-- line: what the focused reading agrees with, for a test).  old_lines and
-- new_lines, when given, are the texts' lines (a snapshot's lines or
-- whole_lines, read only), which spare splitting the texts.
function diff.compare(old_text, new_text, whole, old_lines, new_lines)
  local a, b = old_lines or split(old_text), new_lines or split(new_text)
  local pa, pb
  if not whole then pa, pb = diff.focus(a, b) end
  local old, new = entries_of(a, pa), entries_of(b, pb)
  local oref = {}
  for _, e in ipairs(old) do if e.ref then oref[e.ref] = e end end
  local added, removed, changed = {}, {}, {}
  local nref = {}
  for _, e in ipairs(new) do
    if e.ref then
      nref[e.ref] = e
      local was = oref[e.ref]
      if not was then e.added = true; added[#added + 1] = e
      elseif was.norm ~= e.norm then e.was = was; changed[#changed + 1] = e end
    end
  end
  for _, e in ipairs(old) do
    if e.ref and not nref[e.ref] then e.removed = true; removed[#removed + 1] = e end
  end
  local map, renewed
  added, removed, map, renewed = rerendered(added, removed, changed)
  local _, okey = index(old)
  local _, nkey = index(new, map)
  surplus(nkey, okey, "added", added)
  surplus(okey, nkey, "removed", removed)
  table.sort(added, by_index)
  table.sort(removed, by_index)
  -- A line that gained or lost its ref (a list that was empty, with no
  -- ref, holds items now, or the reverse): the same element, one removed
  -- and one added line of the same role and name under the same parent,
  -- one of them with a ref.
  local named = {}
  local function key(e) return (e.parent and e.parent.key or "") .. "\n" .. e.role .. "\n" .. (e.name or "") end
  for _, r in ipairs(removed) do
    if (r.name or "") ~= "" and not (r.parent and r.parent.removed) then named[key(r)] = r end
  end
  if next(named) then
    for _, a in ipairs(added) do
      local r = (a.name or "") ~= "" and not (a.parent and a.parent.added) and named[key(a)]
      if r and r.removed and (r.ref == nil) ~= (a.ref == nil) then
        a.added, r.removed = nil, nil
        if (r.value or "") ~= (a.value or "") then a.was = r; changed[#changed + 1] = a end
      end
    end
    local left = {}
    for _, a in ipairs(added) do if a.added then left[#left + 1] = a end end
    added = left
  end
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
  return { added = kept, removed = still, changed = changed, moved = reordered(old, new), renewed = renewed,
    old = old, new = new }
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
  -- A state that took another value ([sort=ascending] for [sort=descending])
  -- is said once, by its old value.
  local keyed = {}
  for _, s in ipairs(gone) do keyed[s:match("^%[([%w-]+)=") or s] = true end
  for _, s in ipairs(e.states) do
    if new_s[s] and not old_s[s] and not keyed[s:match("^%[([%w-]+)=") or ""] then came[#came + 1] = s end
  end
  for i, s in ipairs(gone) do
    -- A folded list's count, now shown item by item: how many it shows
    -- (runs AV, BA and BI read "-0" for a filter that left 1 of 21).
    local n = s:match("^%[options=(%d+)%]$")
    if n then
      local now = 0
      for _, c in ipairs(e.children or {}) do if c.role == "option" then now = now + 1 end end
      gone[i] = ("%s options, now %d"):format(n, now)
    end
  end
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
