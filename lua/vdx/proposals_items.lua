--- vdx.proposals_items: the proposals of what an action took away or
-- counted anew (vdx.proposals): a dialog, menu or listbox closed
-- (`toBeHidden`), an item gone by the text it showed (`toHaveCount(0)`),
-- a list's new count, the items a filter left (`toHaveText([…])`).
-- install(Proposer) adds the methods to vdx.proposals' checker; the sets
-- and finders below serve its order.
local assertions = require "vdx.assertions"
local diff = require "vdx.snapshot_diff"

local ITEM_ROLE = assertions.ITEM_ROLE

local M = {}

local P = {}

-- A dialog, menu or listbox the action closed (the root of a removed
-- subtree): hidden now; so is a named navigation a narrow screen folded
-- behind its menu button.
local CLOSABLE = { dialog = true, alertdialog = true, menu = true, listbox = true, tabpanel = true,
  navigation = true }
-- A locator that finds nothing is hidden too (a panel that never showed,
-- or lost its name): kept, the check is written with its locator visible
-- before the action (`before`, vdx.session_log's keep), which it was.
function P:closed(e)
  if e.in_frame or (e.role == "navigation" and (e.name or "") == "") then return end
  local name = e.name ~= "" and e.name or nil
  self:try { matcher = "toBeHidden", locator = assertions.by_role(e.role, name), before = "toBeVisible" }
end

-- The item roles of lists (a row, a list item, an option): the role of
-- an item that can leave.
local ITEM_OF = {}
for _, item in pairs(ITEM_ROLE) do ITEM_OF[item] = true end

-- An item the action removed (a row deleted), by the text it showed: no
-- item of its role shows that text now.  The count of its list says how
-- many are left, not which one went.
-- item_role: e is a named line (a checkbox "Buy milk") that left an item
-- of that role the page drew again for another (a filter re-rendering its
-- rows): that item, by e's name, is gone.
function P:gone(e, item_role)
  if e.in_frame then return end
  local l = item_role and assertions.normalize(e.name or "") or diff.label(e)
  if not l or #l < 3 or #l > 80 then return end
  local tail = ("getByRole('%s').filter({ hasText: %s })"):format(item_role or e.role, assertions.quote(l))
  -- In its named list first, as the list's count is proposed (runs BF
  -- and BL read the page-wide check beside the list-scoped count); that
  -- also says it left the list when its text is still on the page (the
  -- task moved to the Done list).
  -- (A re-rendered item's list is its item's parent: run BX's filtered
  -- item was proposed page-wide, the one before in its list.)
  local list = (item_role and e.parent and e.parent.parent) or (not item_role and e.parent) or nil
  if list and not list.removed and ITEM_ROLE[list.role] and (list.name or "") ~= "" then
    local loc = assertions.by_role(list.role, list.name)
    if self:try { matcher = "toHaveCount", locator = loc .. "." .. tail, value = 0 } or self:full() then return end
  end
  if self:try { matcher = "toHaveCount", locator = tail, value = 0 } or item_role then return end
  if not list or list.removed or not ITEM_ROLE[list.role] or self:full() then return end
  for loc in self:locators(list) do
    if self:try { matcher = "toHaveCount", locator = loc .. "." .. tail, value = 0 } or self:full() then return end
  end
end

-- The item role of the parent of a removed named line whose item stayed
-- (drawn again for another item), or nil.
local function left_item(e)
  local p = e.parent
  if (e.name or "") == "" or e.role == "text" or not p or p.removed or not ITEM_OF[p.role] then return nil end
  return p.role
end

-- toHaveCount on the items of a list whose number of items changed.
function P:count(list, n)
  local item = ITEM_ROLE[list.role]
  if not item then return end
  for loc in self:locators(list) do
    if self:try { matcher = "toHaveCount", locator = loc .. ".getByRole('" .. item .. "')", value = n } then return end
    if self:full() then return end
  end
  if not list.name and not list.ref then
    self:try { matcher = "toHaveCount", locator = assertions.by_role(list.role) .. ".getByRole('" .. item .. "')", value = n }
  end
end

-- The lists whose number of item lines differs between the two texts.
local function recounted(d)
  local function counts(entries)
    local c = {}
    for _, e in ipairs(entries) do
      local p = e.parent
      if p and ITEM_ROLE[p.role] == e.role then c[p.key] = (c[p.key] or 0) + 1 end
    end
    return c
  end
  local before, after = counts(d.old), counts(d.new)
  local out, seen = {}, {}
  for _, e in ipairs(d.new) do
    if ITEM_ROLE[e.role] and not seen[e.key] and (after[e.key] or 0) ~= (before[e.key] or 0) then
      seen[e.key] = true
      out[#out + 1] = { list = e, n = after[e.key] or 0 }
    end
  end
  return out
end

-- The heading at the top of entry e's subtree (a card's title), or nil.
local function heading_in(e, depth)
  if e.role == "heading" and (e.name or "") ~= "" then return e end
  if (depth or 0) >= 3 then return nil end
  for _, c in ipairs(e.children or {}) do
    local h = heading_in(c, (depth or 0) + 1)
    if h then return h end
  end
  return nil
end

-- At most this many items left are named (a filter that left more is
-- told by the list's count).
local LEFT_MAX = 6

-- The nameless lines that hold an item of a grid or list (a card's
-- element, a list item, a row).
local ITEMISH = { generic = true, article = true, listitem = true, row = true, group = true, treeitem = true }

-- What kind of item of its container a removed root line e is, or nil:
-- a nameless item (its role), or a heading of a card the snapshot does
-- not wrap ("heading 3": a grid of plain divs shows its cards' lines
-- flat in the container).
local function kind_of(e)
  if e.role == "heading" and (e.name or "") ~= "" then
    local lv
    for _, st in ipairs(e.states or {}) do lv = lv or st:match("^%[level=(%d)%]$") end
    return lv and "heading " .. lv or nil, lv
  end
  if ITEMISH[e.role] and (e.name or "") == "" then return e.role end
  return nil
end

--- left_in(d) -> { { container, titles, of, level } }: the containers of
-- which an action took 3 or more items and left 1 to LEFT_MAX (a
-- filter): container is the new entry, titles what each item left shows
-- first (its heading, else its first name or text), of how many there
-- were, level the headings' level when every title is a heading of that
-- level.  An item is a nameless line of one role (a card's element, a
-- list item), or, in a grid of plain elements the snapshot shows flat, a
-- heading of one level.  What a filter left is what a test of it checks
-- (run CE read ten removed cards and built the list of the two left by
-- hand).  Read once per diff (kept in d.left_in).
local function left_in(d)
  if d.left_in then return d.left_in end
  local took, order = {}, {}
  for _, e in ipairs(d.removed or {}) do
    local p, kind = e.parent, kind_of(e)
    if kind and p and not p.removed then
      if not took[p] then took[p] = { n = {}, kinds = {} }; order[#order + 1] = p end
      local t = took[p]
      if not t.n[kind] then t.n[kind] = 0; t.kinds[#t.kinds + 1] = kind end
      t.n[kind] = t.n[kind] + 1
    end
  end
  local out = {}
  for _, old in ipairs(order) do
    for _, kind in ipairs(took[old].kinds) do
      local n, new = took[old].n[kind], nil
      for _, e in ipairs(n >= 3 and d.new or {}) do
        if e.key == old.key and not e.added then new = e break end
      end
      local kept = {}
      for _, c in ipairs(new and new.children or {}) do
        if kind_of(c) == kind then kept[#kept + 1] = c end
      end
      if #kept >= 1 and #kept <= LEFT_MAX then
        local titles, levels = {}, {}
        for i, c in ipairs(kept) do
          local h = heading_in(c)
          levels[i] = h and select(2, kind_of(h)) or false
          titles[i] = h and h.name or diff.label(c)
          if not titles[i] then titles = nil break end
        end
        local level = levels[1] or nil
        for _, lv in ipairs(levels) do if lv ~= level then level = nil end end
        if titles then
          out[#out + 1] = { container = new, titles = titles, of = #kept + n, level = level }
          break
        end
      end
    end
  end
  d.left_in = out
  return out
end

-- The titles of the items a filter left (left_in's x), in order, as the
-- headings of its container show them: toHaveText on the list of them.
function P:left(x)
  if not x.level or x.container.in_frame then return end
  local tail = (".getByRole('heading', { level: %s })"):format(x.level)
  for loc in self:locators(x.container) do
    if self:try { matcher = "toHaveText", locator = loc .. tail, value = x.titles } or self:full() then return end
  end
end

--- The roles a closed container is proposed hidden by (P:closed).
M.CLOSABLE = CLOSABLE
--- The roles of an item that can leave its list (P:gone).
M.ITEM_OF = ITEM_OF
--- left_item(e) -> the item role a removed named line left standing, or nil.
M.left_item = left_item
--- recounted(d) -> { { list =, n = } } of the lists whose item count changed.
M.recounted = recounted
--- left_in(d) -> the containers a filter left a few items in (see above).
M.left_in = left_in

--- Adds the item proposals (closed, gone, count, left) to Proposer, the
-- checker vdx.proposals makes for each report.
function M.install(Proposer)
  for k, f in pairs(P) do Proposer[k] = f end
end

return M
