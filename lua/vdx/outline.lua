--- vdx.outline: the outline of a snapshot's text that browser_navigate
-- and a report of an action that loaded another page give: its headings
-- and named controls with their refs, so an agent can act at once.
local diff = require "vdx.snapshot_diff"
local clip = require "vdx.clip"

local outline = {}

-- At most this many characters of outline.
local MAX_CHARS = 700

-- The roles an outline keeps: what a user reads first and acts on.
local OUTLINED = { heading = true, button = true, link = true, textbox = true, searchbox = true,
  combobox = true, checkbox = true, radio = true, tab = true, switch = true, slider = true,
  spinbutton = true, menuitem = true }

-- The live regions an outline gives with their text: what the page
-- says of itself ("1 service has problems", an error), which a test
-- checks first (run Y read them with a snapshot after every load).
local SAID = { status = true, alert = true }

-- How many characters of a live region's text an outline keeps, and how
-- many regions it gives at most (a status in every row is no headline).
local SAID_CHARS = 120
local SAID_MAX = 3

-- A named region without a heading of its own (a banner `region
-- "Maintenance"` of one line) is outlined with its first text, when the
-- page has at most this many (a guide of 150 sections outlines its
-- headings): nothing else there names it (run FN's countdown, left out).
local REGIONS_MAX = 3

-- The containers an outline lists with a count, and the role counted:
-- tables, with their header rows (a list is left out: its links and
-- buttons are outlined already, a menu's as a nav's).
local COUNTED_ROWS = { table = "row", grid = "row", treegrid = "row" }

-- A table of at most this many rows has them shown, each's text cut at
-- ROW_CHARS characters.
local SHOWN_ROWS = 4
local ROW_CHARS = 80
-- The roles of a row's cells.
local CELLS = { cell = true, gridcell = true, columnheader = true, rowheader = true }

-- A control repeated at most this many times is listed with each one's
-- ref and the title of the card or row it is in (its heading, else an
-- item's first text or cell), when those tell them apart: the agent acts
-- on the one it wants without a find (run CF spent one per product).
local TITLED_REPEATS = 4
local ITEMS = diff.ITEM_ROLES

-- A card's first short text with a number after its title (a price, a
-- count) is said beside the title, at most this long: what a test of a
-- shop checks (runs CL and CP read each card with a find for its price).
local NOTE_CHARS = 24

--- What the live regions with text in a snapshot's text say, as
-- "status: …; alert: …" (outline.of's, at most SAID_MAX), or nil when
-- none shows any.
function outline.still_said(text)
  if not (text:find("status", 1, true) or text:find("alert", 1, true)) then return nil end
  local said = {}
  for _, l in ipairs((outline.of(text))) do
    local role = l:match("^%- (%a+)")
    if SAID[role] and l:find(": ", 1, true) then said[#said + 1] = l:sub(3):gsub(" %[ref=[%w_]+%]", "", 1) end
  end
  return #said > 0 and table.concat(said, "; ") or nil
end

-- The line of a control repeated it.n times as each one's ref in what
-- titles it (`- button "Add" ×2: [ref=e5] in "Tea" ($4.00), [ref=e9] in
-- "Mug"`, a card's note the first time: noted is the set of cards said),
-- or nil when they are too many, or their titles do not tell them apart.
local function titled(it, noted)
  if it.n > TITLED_REPEATS or #it.each ~= it.n then return nil end
  local titles = {}
  for _, x in ipairs(it.each) do
    if not x.ref or not x.title or titles[x.title] then return nil end
    titles[x.title] = true
  end
  local parts = {}
  for i, x in ipairs(it.each) do
    -- (A card's note, its price, the first time it titles a control.)
    local note = x.card and not noted[x.card] and x.card.note
    if note then noted[x.card] = true end
    parts[i] = ("[ref=%s] in %q%s"):format(x.ref, clip(x.title, 40), note and (" (%s)"):format(note) or "")
  end
  return ("%s ×%d: %s"):format(it.bare, it.n, table.concat(parts, ", "))
end

--- A text with its numbers as one ("Rate # star"), so a card's "Rate 1
-- star" … "Rate 5 stars" read as one kind of control, and "1 item left"
-- and "2 items left" as one counter.
function outline.numbers_as_one(s)
  return (s:gsub("%d+", "#"):gsub("(#%s+%a+)s%f[%A]", "%1"))
end

-- Marks the repeated controls of items whose names differ only in their
-- numbers from one listed before them, repeated as often (a card's five
-- rating buttons): each is folded into that first one's `alike`, which
-- the outline gives one line (run CM's three Add to cart buttons were
-- left out behind fifteen rating buttons).
local function fold_alike(items)
  local first = {}
  for _, it in ipairs(items) do
    if it.n > 1 and it.role and it.name:find("%d") then
      local key = it.role .. "\0" .. outline.numbers_as_one(it.name) .. "\0" .. it.n
      local lead = first[key]
      if lead then
        lead.alike = lead.alike or {}
        lead.alike[#lead.alike + 1] = it
        it.folded = true
      else
        first[key] = it
      end
    end
  end
end

--- The outline of a snapshot's text, as a navigation's answer gives it:
-- the lines of headings and named controls with their refs, of tables
-- with how many rows they show (a small one's rows too, and whether it
-- holds no control), and of the first SAID_MAX status and
-- alert regions with their text (first within the bound), unindented,
-- at most MAX_CHARS characters; returns them, how many were left out,
-- and every line, those left out too, as one text (what tells one page
-- from another that outlines the same within the bound).  A control
-- whose role and name repeat (a button "Edit" in every row) is listed
-- once with its count: with each one's ref and its card's
-- or row's title when it repeats at most TITLED_REPEATS times and those
-- tell them apart, else with no ref, which would not say which row
-- (browser_find(role=, name=) lists them with their containers); those
-- repeated as often whose names differ from its only in numbers ("Rate 2
-- stars" after "Rate 1 star") follow it on one line, with no refs.
function outline.of(text)
  local items, seen = {}, {}
  local open = {}   -- the tables the lines are in: { indent, item }
  local said        -- a live region whose text is on the lines under it
  local up = {}     -- the line's ancestors: { indent, role, title, heading }
  local regions, region = {}, nil   -- the named regions; the one the lines are in
  for line in text:gmatch("[^\n]+") do
    local indent, content = line:match("^(%s*)%- (.*)$")
    local e = content and diff.parse(content)
    if e then
      while #up > 0 and up[#up].indent >= #indent do up[#up] = nil end
      local parent, t = up[#up], e.name ~= nil and e.name ~= "" and e.name or e.value
      -- A card's title is its heading; an item's, else, its first text.
      if parent and e.role == "heading" and (e.name or "") ~= "" and not parent.heading then
        parent.title, parent.heading = e.name, true
      elseif parent and not parent.title and ITEMS[parent.role] and t and t ~= "" and not e.ref then
        parent.title = t
      elseif parent and parent.title and not parent.note and not e.ref and (e.name or "") == ""
          and (e.value or ""):find("%d") and #e.value <= NOTE_CHARS then
        parent.note = e.value
      end
      up[#up + 1] = { indent = #indent, role = e.role }
    end
    while e and #open > 0 and #indent <= open[#open].indent do open[#open] = nil end
    if said and e and #indent <= said.indent then said = nil end
    if said and e and (e.value or "") ~= "" then
      said.item.line = said.item.line .. ": " .. e.value
      said = nil
    end
    if region and e and #indent <= region.indent then region = nil end
    if region and e then
      if e.role == "heading" then region.item.headed = true end
      if not region.item.text and (e.value or "") ~= "" then region.item.text = e.value end
    end
    if e and e.role == "region" and (e.name or "") ~= "" and e.ref then
      local it = { line = ("- region %q [ref=%s]"):format(e.name, e.ref), n = 1, region = true,
        text = (e.value or "") ~= "" and e.value or nil }
      items[#items + 1], regions[#regions + 1] = it, it
      region = { indent = #indent, item = it }
    end
    if e and SAID[e.role] then
      -- (With its ref: a check of what it says starts from it.)
      local it = { line = "- " .. e.role .. (e.name and e.name ~= "" and (" %q"):format(e.name) or "")
        .. (e.ref and (" [ref=%s]"):format(e.ref) or ""), n = 1, said = true }
      if (e.value or "") ~= "" then it.line = it.line .. ": " .. e.value
      else said = { indent = #indent, item = it } end
      items[#items + 1] = it
    end
    -- A control in a table counts for it (the outline lists it apart).
    if e and e.ref and OUTLINED[e.role] and #open > 0 then open[#open].item.controls = open[#open].item.controls + 1 end
    if e and e.ref and COUNTED_ROWS[e.role] then
      -- A table, with how many rows it shows.
      local it = { line = "- " .. content:gsub(":$", ""), n = 1, rows = 0, of = COUNTED_ROWS[e.role], cells = {},
        controls = 0 }
      items[#items + 1] = it
      open[#open + 1] = { indent = #indent, item = it }
    elseif e and #open > 0 and e.role == open[#open].item.of then
      local it = open[#open].item
      it.rows = it.rows + 1
      if it.rows <= SHOWN_ROWS + 1 then it.cells[it.rows] = {} end
      -- (A first row of column headers alone is the table's head.)
      if it.rows == 1 then it.head = true end
    elseif e and #open > 0 and CELLS[e.role] then
      local it = open[#open].item
      local row = it.cells[it.rows]
      if row then row[#row + 1] = e.name ~= "" and e.name or (e.value or "") end
      if it.rows == 1 and e.role ~= "columnheader" then it.head = false end
    end
    if e and OUTLINED[e.role] and (e.name or "") ~= "" then
      local key = e.role .. "\0" .. e.name
      if seen[key] then
        seen[key].n = seen[key].n + 1
      else
        seen[key] = { line = "- " .. content:gsub(":$", ""), n = 1, bare = ("- %s %q"):format(e.role, e.name),
          each = {}, role = e.role, name = e.name }
        items[#items + 1] = seen[key]
      end
      local title, card
      for k = #up - 1, 1, -1 do
        if up[k].title then title, card = up[k].title, up[k] break end
      end
      local each = seen[key].each
      if #each <= TITLED_REPEATS then each[#each + 1] = { ref = e.ref, title = title, card = card } end
    end
  end
  fold_alike(items)
  -- The named regions that no heading names, each with its first text,
  -- when they are few.
  local bare = 0
  for _, it in ipairs(regions) do if not it.headed then bare = bare + 1 end end
  for _, it in ipairs(regions) do
    if it.headed or bare > REGIONS_MAX then it.folded = true
    elseif it.text then it.line = clip(it.line .. ": " .. it.text, SAID_CHARS) end
  end
  -- What the page says first within the bound, each where it stands; an
  -- empty live region says nothing.
  local len, left, said_n = 0, 0, 0
  for _, it in ipairs(items) do
    if it.said then
      if not it.line:find(": ", 1, true) then it.cut = true
      elseif said_n >= SAID_MAX then it.cut, left = true, left + 1
      else
        said_n = said_n + 1
        it.line = clip(it.line, SAID_CHARS)
        len = len + #it.line + 1
      end
    end
  end
  local out, noted, whole = {}, {}, {}
  for _, it in ipairs(items) do
    if it.said then
      whole[#whole + 1] = it.line
      if not it.cut then out[#out + 1] = it.line end
    elseif not it.folded then
      local l = it.n > 1 and (titled(it, noted) or ("%s ×%d"):format(it.bare, it.n)) or it.line
      if it.alike then
        -- (One line more, for the names alike after it.)
        local a = it.alike
        l = l .. (#a == 1 and ("\n- %s %q ×%d beside those"):format(it.role, a[1].name, it.n)
          or ("\n- %s %q … %q: %d more alike, ×%d each beside those"):format(it.role, a[1].name, a[#a].name, #a, it.n))
          .. " (browser_find(role=, name=) gives their refs)"
      end
      if it.of then
        -- Its head apart, under which its rows are counted (run BZ read
        -- "1 row" of an empty table as a product).
        local head = it.head and #(it.cells[1] or {}) > 0 and table.remove(it.cells, 1) or nil
        local rows = it.rows - (head and 1 or 0)
        l = ("%s: %d row%s"):format(l, rows, rows == 1 and "" or "s")
        if head then
          while #head > 0 and head[#head] == "" do head[#head] = nil end
          if #head > 0 then l = l .. " under " .. clip(table.concat(head, " | "), ROW_CHARS) end
        end
        -- A small table's rows as they read (a cart, a summary): no call
        -- to read them (run AE took a snapshot after each look at its cart).
        local shown = rows <= SHOWN_ROWS and {} or nil
        for i, row in ipairs(shown and it.cells or {}) do
          if i > rows then break end
          -- (A last cell that holds only controls reads as nothing.)
          while #row > 0 and row[#row] == "" do row[#row] = nil end
          shown[i] = "[" .. clip(table.concat(row, " | "), ROW_CHARS) .. "]"
        end
        -- One that holds no control says so: run AM's cart, whose Qty
        -- column it could not tell from a field, cost it two reads.
        if shown and #shown > 0 then
          l = l .. (it.controls == 0 and ", no controls: " or ": ") .. table.concat(shown, " ")
        end
      end
      whole[#whole + 1] = l
      if len + #l > MAX_CHARS then left = left + 1 else out[#out + 1], len = l, len + #l + 1 end
    end
  end
  return out, left, table.concat(whole, "\n")
end

return outline
