--- vdx.find_within: which of a find's matches lie in the container that
-- shows a text (browser_find's `within`), and what `within` given alone
-- names: the row, card or named part of the page that shows the text.
-- items are the parsed snapshot lines (vdx.find), each { indent, role,
-- name, text }; hits index into them.
local diff = require "vdx.snapshot_diff"

local M = {}

-- The last index (into items) of the subtree of items[a].
local function subtree_end(items, a)
  local j = a
  while j < #items and items[j + 1].indent > items[a].indent do j = j + 1 end
  return j
end

-- Roles whose element holds items (rows, list items, options): the text
-- such a container shows (a column header) labels none of them.
local OF_ITEMS = { table = true, grid = true, treegrid = true, rowgroup = true, list = true, listbox = true,
  tree = true, tablist = true, menu = true, menubar = true, radiogroup = true, feed = true }

--- The hits (indexes into items, in order) that lie in a container which
-- shows text `within` (case-insensitive, in a name or text of its
-- lines): the nearest ancestor whose lines show it, unless what shows it
-- there is a branch holding a hit of its own (another item's label), or
-- it is a table or list (OF_ITEMS) holding other hits.  A
-- card that shows "Oak Stool" and one "Add to cart" keeps its button; the
-- grid around every card, which shows it too, keeps no other card's; a
-- row that shows "Oak Shelf" beside a price field and its button keeps
-- both.  Returns those hits, the line that shows the text for each kept
-- by a branch beside it (anchors: hit -> line), and, when some show it
-- whole and others only in a longer text, the names of the latter.
function M.within(items, hits, text)
  local needle, out = text:lower():gsub("%s+", " "):match("^ ?(.-) ?$"), {}
  local is_hit = {}
  for _, h in ipairs(hits) do is_hit[h] = true end
  local function shows(j)
    local it = items[j]
    return it.name:lower():find(needle, 1, true) or it.text:lower():find(needle, 1, true)
  end
  -- Whether the lines a..b show the text (the first that does), and
  -- whether they hold a hit.
  local function branch(a, b)
    local s, hit = false, false
    for j = a, b do
      if not s and shows(j) then s = j end
      hit = hit or is_hit[j] == true
    end
    return s, hit
  end
  -- The line that shows the text for each hit kept: the answer shows it
  -- (the card's title above its button).
  local anchors, by = {}, {}
  for _, h in ipairs(hits) do
    local indent = items[h].indent
    -- A hit that shows it itself, or in its own lines (a row whose cell
    -- does: run BO's role=row within its order's number found nothing).
    local own = shows(h) and h or (branch(h + 1, subtree_end(items, h)))
    if own then out[#out + 1] = h; by[h] = own; indent = -1 end
    for a = h - 1, 1, -1 do
      if indent < 0 then break end
      if items[a].indent < indent then
        indent = items[a].indent
        local last = subtree_end(items, a)
        local seen, other = false, false
        if OF_ITEMS[items[a].role] then
          -- A table or list that shows the text (a header) holds items:
          -- it scopes h only when it holds no other hit.
          seen = branch(a, last)
          for j = a, last do if is_hit[j] and j ~= h then other = true end end
        else
          if shows(a) then out[#out + 1] = h; by[h] = a break end
          -- a's children branches, h's own aside: one that shows the text
          -- tells whether it labels h or another item.
          local c = a + 1
          while c <= last do
            local e = subtree_end(items, c)
            if not (c <= h and h <= e) then
              local s, hit = branch(c, e)
              if s then seen = seen or s; other = other or hit end
            end
            c = e + 1
          end
        end
        if seen then
          if not other then out[#out + 1] = h; anchors[h] = seen; by[h] = seen end
          break
        end
        if indent == 0 then break end
      end
    end
  end
  -- Containers that show the text as a whole name or text (a card titled
  -- "Modern Lamp") win over those that show it inside a longer one
  -- ("Modern Lamp 2"), which the answer names (run AK, whose within=
  -- "Modern Lamp" found both cards' buttons).
  -- (A row shows it in its name, all its cells': one of its lines, the
  -- cell, shows it whole.)
  local function whole(s) return s:lower():gsub("%s+", " "):match("^ ?(.-) ?$") == needle end
  local exact, inexact = {}, {}
  for _, h in ipairs(out) do
    local b, is = by[h], false
    for j = b, subtree_end(items, b) do is = is or whole(items[j].name) or whole(items[j].text) end
    if is then exact[#exact + 1] = h
    else inexact[#inexact + 1] = items[b].name ~= "" and items[b].name or items[b].text end
  end
  if #exact > 0 and #inexact > 0 then return exact, anchors, inexact end
  return out, anchors
end

local ITEM = diff.ITEM_ROLES

-- The roles of a page's named parts, which `within` may name.
local NAMED_PART = { region = true, form = true, dialog = true, alertdialog = true, article = true, group = true,
  navigation = true, complementary = true, main = true, banner = true, contentinfo = true, search = true,
  table = true, grid = true, list = true, tabpanel = true, listitem = true, row = true }

--- The hits (indexes into items) `within` alone asks for: those in an
-- item (ITEM), when any is, else all (run CA's status "Added “Teak Lamp”
-- …" is no row); then those whose name or text is text itself, when any
-- is (run CE's "Products" region, not the "Search products" box), each
-- given as the row or card it is in.  path_of(parsed, i): the indexes of
-- line i's ancestors (vdx.find's).
function M.alone(parsed, index, items, hits, text, path_of)
  -- A container named just that is what was named (run DB's section
  -- "6. Installation internals", not its contents' link to it).
  local named, needle = {}, text:lower()
  for _, h in ipairs(hits) do
    if NAMED_PART[items[h].role] and items[h].name:lower() == needle then named[#named + 1] = h end
  end
  if #named > 0 then return named end
  local kept, item_of = {}, {}
  for _, h in ipairs(hits) do
    local inside = ITEM[items[h].role]
    for _, j in ipairs(inside and {} or path_of(parsed, index[h])) do
      if ITEM[parsed[j].role] then inside, item_of[h] = true, j break end
    end
    if inside then kept[#kept + 1] = h end
  end
  if #kept == 0 then kept = hits end
  local exact = {}
  for _, h in ipairs(kept) do
    if items[h].name:lower() == needle or items[h].text:lower() == needle then exact[#exact + 1] = h end
  end
  -- Each as its row or card, whole: the line that shows the text may
  -- come after others of it (run DI's order row, from its Items cell
  -- on, without its number and customer); item_of holds its parsed line.
  local at = {}
  for h, i in pairs(index) do at[i] = h end
  local out, seen = {}, {}
  for _, h in ipairs(#exact > 0 and exact or kept) do
    local lifted = item_of[h] and at[item_of[h]] or h
    if not seen[lifted] then seen[lifted], out[#out + 1] = true, lifted end
  end
  return out
end

return M
