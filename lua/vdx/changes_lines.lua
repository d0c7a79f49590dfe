--- vdx.changes_lines: the lines of a change report (vdx.changes): the
-- bounded list of what an action changed, added and removed, the one
-- line of a brief report (an action with expect=), a container's new
-- order and the elements a list made anew.  Each takes the diff of
-- vdx.snapshot_diff.compare; the bounds come from vdx.changes (lim).
local diff = require "vdx.snapshot_diff"
local clip = require "vdx.clip"
local proposals = require "vdx.proposals"

local lines = {}

-- e's line as the snapshot gives it now, saying `: (empty)` where its
-- text was emptied (run BT read `~ status (was "Service unavailable")`
-- and had to work out that the status is empty now); a field a submit
-- emptied says it by its was alone.
local TYPED = { textbox = true, searchbox = true, combobox = true, spinbutton = true }
local function now_of(e)
  if e.was and (e.value or "") == "" and (e.was.value or "") ~= "" and not e.norm:find(":$") and not TYPED[e.role] then
    return e.norm .. ": (empty)"
  end
  return e.norm
end

-- The line of an entry for the report: its content, and its container
-- when that is not shown next to it.  A changed line's colon, which
-- opens children the report does not give (a field's /placeholder), goes
-- (run EY read `textbox "Discount (%)" [ref=e7]: (was "25")`).
local function shown(mark, e, context)
  local line = mark .. " " .. now_of(e)
  if e.was then line = line:gsub(":$", "") .. " (" .. diff.was(e) .. ")" end
  if context and e.parent then
    local p = e.parent.norm:gsub(":$", "")
    p = clip(p, 50)
    line = line .. " (in " .. p .. ")"
  end
  return line
end

-- The root of e among the entries marked `mark`: its furthest marked
-- ancestor in an unbroken chain (e itself when its parent is not marked).
local function root_of(e, mark)
  local r = e
  while r.parent and r.parent[mark] do r = r.parent end
  return r
end

-- True when e lies in a container whose children changed order: its
-- "change" (a cell now named as another row's was) is the new order,
-- which the report's ↕ line says once; a line whose name and value stayed
-- changed a state (a header's [sort=…]), which is its own news.
local function within_moved(d, e)
  -- A state of its own that changed (a column header now sorted) is news.
  if e.was and e.was.name == e.name and e.was.value == e.value then return false end
  local p = e.parent
  while p do
    for _, m in ipairs(d.moved) do if m.parent == p then return true end end
    p = p.parent
  end
  return false
end

-- The bounded lines of a diff: changed lines and the roots of added and
-- removed subtrees first (each root says how many lines it holds that
-- are not shown), then the added ones' descendants while the bound allows
-- (a removed subtree's are gone: its root's count says enough).
local function render(d, lim)
  local items = {}
  for _, e in ipairs(d.changed) do
    if not within_moved(d, e) then items[#items + 1] = { e = e, mark = "~", side = 1 } end
  end
  for _, e in ipairs(d.added) do items[#items + 1] = { e = e, mark = "+", side = 1, flag = "added" } end
  for _, e in ipairs(d.removed) do items[#items + 1] = { e = e, mark = "-", side = 2, flag = "removed" } end
  local inside = {}
  for _, it in ipairs(items) do
    if it.flag then
      local r = root_of(it.e, it.flag)
      it.root = r == it.e
      if not it.root then inside[r] = (inside[r] or 0) + 1 end
    else
      it.root = true
    end
  end
  local chosen, lines, chars = {}, 0, 0
  for pass = 1, 2 do
    for _, it in ipairs(items) do
      -- What a removed subtree held is gone: its root says how much.
      if it.root == (pass == 1) and lines < lim.MAX_LINES and not (pass == 2 and it.flag == "removed") then
        local len = #it.e.content + 40
        if chars + len <= lim.MAX_CHARS or lines == 0 then
          it.chosen, lines, chars = true, lines + 1, chars + len
          chosen[#chosen + 1] = it
        end
      end
    end
  end
  table.sort(chosen, function(a, b)
    if a.side ~= b.side then return a.side < b.side end
    return a.e.i < b.e.i
  end)
  local shown_set = {}
  for _, it in ipairs(chosen) do shown_set[it.e] = true end
  local out, last_parent = {}, nil
  for _, it in ipairs(chosen) do
    local e = it.e
    -- A named container says where the line is.
    local p = e.parent
    local context = p and not shown_set[p] and p ~= last_parent and (p.name or "") ~= ""
    local line = shown(it.mark, e, context)
    local hidden = 0
    if it.root and inside[e] then
      for _, other in ipairs(items) do
        if not other.chosen and other.flag == it.flag and root_of(other.e, it.flag) == e then hidden = hidden + 1 end
      end
    end
    if hidden > 0 then
      -- A nameless item (a row, a list item) is told by what it shows; a
      -- named part that went (a tab panel hidden) by the first text in it.
      local l = (e.name or "") == "" and (e.value or "") == "" and diff.label(e)
      if (e.name or "") ~= "" and it.flag == "removed" then
        for _, c in ipairs(e.children or {}) do
          l = diff.label(c)
          if l then break end
        end
      end
      if l then l = clip(l, 40) end
      line = line .. (" …(+%d lines inside%s)"):format(hidden, l and (', the first "' .. l:gsub('"', '\\"') .. '"') or "")
    end
    line = clip(line, 200)
    out[#out + 1] = line
    last_parent = e.parent
  end
  local more = 0
  for _, it in ipairs(items) do
    if not it.chosen and not (it.flag == "removed" and not it.root) then more = more + 1 end
  end
  return out, more
end

-- Roles whose text is news (ARIA live regions): their own role locates them.
local LIVE = proposals.LIVE
-- The fields, whose new value the agent typed itself.
local FIELDS = { textbox = true, searchbox = true, combobox = true, spinbutton = true }
-- The rows and items a brief report names by what they show.
local ITEM_ROLES = diff.ITEM_ROLES

-- The one line of a brief report: the named elements with refs that
-- were added or changed (what the agent may act on next) and the live
-- regions that were (a status, an alert: what the page says it did,
-- which has no ref), bounded.
local function brief_line(d, lim, told)
  local parts, len = {}, 0
  -- An added row or item with a ref says what it shows, its cells' text
  -- (the snapshot gives a row no name of its own), when that is more than
  -- the named controls listed beside it.
  local shows = {}
  for _, e in ipairs(d.added) do
    local t = (e.name ~= nil and e.name ~= "") and e.name or e.value
    local listed = e.ref and (e.name or "") ~= ""
    local a = e.parent
    while t and t ~= "" and a do
      local s = shows[a] or (ITEM_ROLES[a.role] and a.ref and {}) or nil
      if s then
        shows[a] = s
        s[#s + 1] = t
        s.news = s.news or not listed
        break
      end
      a = a.parent
    end
  end
  local taken = {}
  -- What the page says first (a live region), then what is new (what the
  -- agent acts on next), then what changed: run BD's added row lost its
  -- Update price button to the form fields its submit had cleared.
  local order = {}
  for _, list in ipairs { d.changed, d.added } do
    for _, e in ipairs(list) do
      if LIVE[e.role] then order[#order + 1] = e end
    end
  end
  for _, list in ipairs { d.added, d.changed } do
    for _, e in ipairs(list) do
      if not LIVE[e.role] then order[#order + 1] = e end
    end
  end
  for _, e in ipairs(order) do
    local content = (e.name or "") == "" and shows[e] and shows[e].news and table.concat(shows[e], " ")
    if (e.ref and (e.name or "") ~= "") or LIVE[e.role] or content then
      local p = e.norm:gsub(":$", "")
      if content then
        content = clip(content, 80)
        p = p:gsub("^(%a+)", "%1 " .. ('"' .. content:gsub('"', '\\"') .. '"'):gsub("%%", "%%%%"), 1)
      end
      if len + #p > lim.BRIEF_CHARS then parts[#parts + 1] = "…" return table.concat(parts, ", ") end
      parts[#parts + 1], len, taken[e] = p, len + #p + 2, #parts + 1
    end
  end
  -- Where the first new element is: its nearest named container with a
  -- ref, which was there before (run BR's new todo's list, to check its
  -- items, took another call to find), once a page for each (told).
  for _, e in ipairs(d.added) do
    if taken[e] and not LIVE[e.role] then
      local a = e.parent
      while a and (a.added or not a.ref or (a.name or "") == "") do a = a.parent end
      local key = a and "in\0" .. a.norm
      if a and not (told and told[key]) then
        parts[taken[e]] = parts[taken[e]] .. " (in " .. clip(a.norm:gsub(":$", ""), 50) .. ")"
        if told then told[key] = true end
      end
      break
    end
  end
  -- Then a short line whose text changed (a price cell, a total): what
  -- an action on a row is often for, with what it was.
  for _, e in ipairs(d.changed) do
    if not taken[e] and e.was and #e.norm <= 60 and ((e.value or "") ~= (e.was.value or "")
        or (e.name or "") ~= (e.was.name or "")) and not FIELDS[e.role] then
      local p = now_of(e):gsub(":$", "") .. " (" .. diff.was(e) .. ")"
      if len + #p > lim.BRIEF_CHARS then parts[#parts + 1] = "…" break end
      parts[#parts + 1], len = p, len + #p + 2
    end
  end
  -- Then a short text that came alone, in no new element ("Saved" beside
  -- a row's button): run CA read "+1" and no line of it.
  for _, e in ipairs(d.added) do
    if not taken[e] and not e.ref and (e.name or "") == "" and (e.value or "") ~= "" and #e.norm <= 60
        and not (e.parent and e.parent.added) then
      local p = e.norm:gsub(":$", "")
      if len + #p > lim.BRIEF_CHARS then parts[#parts + 1] = "…" break end
      parts[#parts + 1], len = p, len + #p + 2
    end
  end
  return table.concat(parts, ", ")
end

-- The line of a container whose children changed order: its line and
-- the first of its children, in the new order.
local function moved_line(m)
  local labels, len = {}, 0
  for i, l in ipairs(m.labels) do
    if len > 100 then labels[#labels + 1] = ("… %d more"):format(#m.labels - i + 1) break end
    labels[#labels + 1], len = l, len + #l + 2
  end
  return ("↕ %s new order: %s%s"):format(m.parent.norm, table.concat(labels, ", "),
    -- (Its items', not its own: run DD read a table's header button,
    -- which kept its ref, as gone.)
    m.rebuilt and "\n  (these items made anew: their refs are new, the old ones gone)" or "")
end

-- The line of the elements the action made anew (a list rendered again)
-- whose role and name the page shows more than once now, or nil: an old
-- ref of one of them fails (which of the alike ones it was, no name
-- tells), where one of a unique name still acts on its successor.  Not
-- said of a list sorted and made anew (moved_line says so), nor again of
-- what told (a set kept by the role, for one test) says was told: a list
-- that renders again at each add would repeat it at each.
local function renewed_line(d, text, told)
  for _, m in ipairs(d.moved) do if m.rebuilt then return nil end end
  local seen, parts = {}, {}
  for _, e in ipairs(d.renewed or {}) do
    local id = ("%s %q"):format(e.role, e.name or "")
    if (e.name or "") ~= "" and not seen[id] and not told[id] then
      seen[id] = true
      local n = diff.count_named(text, e.role, e.name, true, 100)
      if n and n >= 2 then parts[#parts + 1], told[id] = ("%s ×%d"):format(id, n), true end
    end
  end
  if #parts == 0 then return nil end
  -- (Run AG, told only of the Delete buttons, looked up the checkboxes
  -- made anew beside them again: 4 calls its old refs would have spared.)
  return ("↻ Made anew: %s (an old ref may fail: browser_find within=… gives the new; old refs of unique names "
    .. "still act)"):format(table.concat(parts, ", "))
end

-- The lines of what a filter left (proposals_items.left_in): `Left in
-- region "Products" [ref=e7]: "Oak Chair", "Oak Table" (2 of 12)`.
local function left_lines(d)
  local out = {}
  for _, x in ipairs(require("vdx.proposals_items").left_in(d)) do
    local names = {}
    for i, t in ipairs(x.titles) do names[i] = '"' .. clip(t, 40):gsub('["\\]', "\\%0") .. '"' end
    out[#out + 1] = ("Left in %s: %s (%d of %d)"):format(x.container.content:gsub(":$", ""),
      table.concat(names, ", "), #x.titles, x.of)
  end
  return out
end

--- render(d, lim) -> the bounded lines of diff d (lim.MAX_LINES,
-- lim.MAX_CHARS) and how many were left out.
lines.render = render
--- brief(d, lim, told) -> the one line of a brief report, within
-- lim.BRIEF_CHARS; told (a table, optional) keeps the containers it named
-- where a new element went, each named once.
lines.brief = brief_line
--- moved(m) -> the line of a container whose children changed order.
lines.moved = moved_line
--- renewed(d, text, told) -> the line of the elements made anew, or nil.
lines.renewed = renewed_line
--- left(d) -> the lines of the containers whose items an action took
-- all but a few of (a filter), each naming those left.
lines.left = left_lines

return lines
