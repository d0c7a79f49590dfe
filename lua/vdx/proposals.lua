--- vdx.proposals: the assertions a change report proposes (vdx.changes).
-- From the comparison of the snapshots before and after an action
-- (vdx.snapshot_diff), candidates in a fixed order (a new order, field
-- states, changed lines, list counts, what appeared), each checked on the
-- live page before it is offered (vdx.assertions), at most MAX_CANDIDATES
-- of them and MAX_CHECKS checks a report.
local assertions = require "vdx.assertions"
local diff = require "vdx.snapshot_diff"

local proposals = {}
local ids = require "vdx.proposals_ids"
proposals.without_ids, proposals.remembered_ids, proposals.clock_text = ids.without_ids, ids.remembered_ids,
  ids.clock_text

--- How many assertion candidates a report proposes, and how many it may check.
proposals.MAX_CANDIDATES = 2
proposals.MAX_CHECKS = 12
-- More candidates when an action changed more fields than MAX_CANDIDATES
-- (a fill_form of five): one a field, up to this many.
proposals.MAX_FIELDS = 6

--- The roles of live regions: what a page says it did (a report keeps
-- their lines; a nameless one is proposed by its text).
proposals.LIVE = { status = true, alert = true, log = true, timer = true, marquee = true }
local LIVE = proposals.LIVE

-- The controls whose leaving a report proposes (toBeHidden).
local CONTROL = { button = true, link = true }

local state = require "vdx.proposals_state"
local CHECKABLE, FIELD = state.CHECKABLE, state.FIELD

-- The start of a long text, cut at a word, for getByText (a substring match).
local function text_part(s)
  s = assertions.normalize(s or "")
  if #s <= 80 then return s end
  local cut = s:sub(1, 60):match("^(.*%S)%s") or s:sub(1, 60)
  return cut
end

-- The getByText of a text element's value: exact when it is the whole
-- text (a longer one, "Subscribed: Grace (weekly)" for "Subscribed:
-- Grace", would pass the part: runs AT and AZ made theirs exact by hand,
-- and the verify tools record it so), else its first part.
local function by_value(value)
  local t = text_part(value)
  return assertions.by_text(t, t == assertions.normalize(value))
end

-- A checker of candidates on the page, bounded in checks.
local Proposer = {}
Proposer.__index = Proposer
state.install(Proposer)
local items = require "vdx.proposals_items"
items.install(Proposer)
local CLOSABLE, ITEM_OF, left_item, recounted = items.CLOSABLE, items.ITEM_OF, items.left_item, items.recounted

function Proposer:full() return #self.out >= self.max or self.checks >= proposals.MAX_CHECKS end

-- The text step checks: its value, or the text its locator finds by.
local function checked_text(step)
  if type(step.value) == "string" then return step.value end
  return step.locator:match("getByText%('(.-)'[,)]")
end

-- Offers step when it holds on the page and is new (and, when ref is
-- given, its locator matches the element of that ref).  facts: its
-- locator's facts when the caller has read them already.  A clock's text
-- (proposals.clock_text) is not offered unless the page's clock is the
-- test's (browser_clock_install).
function Proposer:try(step, ref, facts)
  if self:full() or not step.locator then return false end
  if proposals.clock_text(checked_text(step)) then
    if self.clock == nil then self.clock = require("vdx.clock").controls(self.page) end
    if not self.clock then return false end
  end
  local free = proposals.without_ids(step, self.kept)
  if free ~= step then step, facts = free, nil end
  local id = step.matcher .. "\n" .. step.locator
  if self.seen[id] then return false end
  self.seen[id] = true
  self.checks = self.checks + 1
  local holds, f
  if facts then holds, f = assertions.judge(step, facts), facts
  else holds, f = assertions.holds(self.page, step, nil, self.batch) end
  if f then self.read[step.locator] = f end
  if holds and ref then holds = f.count == 1 and f.matches[1].ref == ref end
  if holds then
    step.code = assertions.code(step)
    self.out[#self.out + 1] = step
    return true
  end
  return false
end

local scope_of = assertions.scope_of

-- What a page opens over itself: its elements' checks go through it, as
-- their locators do (the bridge's locgen.js inPopup).
local POPUPS = { dialog = true, alertdialog = true, menu = true, listbox = true }

--- Containers whose name is a label of their own (not read from what they
-- show): a live region in one is checked through it.
proposals.LABELLED = { form = true, region = true, dialog = true, alertdialog = true, group = true, tabpanel = true,
  search = true, navigation = true, complementary = true }
local LABELLED = proposals.LABELLED

--- The container a live region showing value is checked through: a, its
-- nearest named ancestor ({ role, name }), when that is a form or section
-- labelled of its own (LABELLED) whose name does not hold value, else
-- nil.  A bare getByRole('status') is unique only until the page shows a
-- second (runs BQ, BZ and CA scoped theirs to the form by hand); the
-- report's proposals and expect= read the scope here, so they agree.
function proposals.labelled_scope(a, value)
  if not a or not LABELLED[a.role] or (a.name or "") == "" then return nil end
  return not a.name:find(value, 1, true) and a or nil
end

-- The container of the action's target (its locator's scope: the card,
-- row or section it acted in), or nil: a change inside it is checked
-- there first, so the check of the right card's or section's change does
-- not pass for another's (twelve sections of a guide show the same live
-- example; one toggled anywhere would pass a page-wide check).  Only
-- for checks that an element shows something: one that a thing went
-- would pass in a container that went too.  With no action's container,
-- the named dialog, menu or listbox e is in.
function Proposer:scope(e)
  if e.in_frame then return nil end
  if self.acted and self.acted.locator then return scope_of(self.acted.locator) end
  -- Else the named dialog, menu or listbox it is in, as the actions'
  -- locators go through it (run BI's fill_form in a dialog was proposed
  -- page-wide beside its dialog-scoped actions).
  local a = e.parent
  while a do
    if POPUPS[a.role] and (a.name or "") ~= "" then return assertions.by_role(a.role, a.name) end
    a = a.parent
  end
  return nil
end

-- The locators of an entry's element, best first, as an iterator that
-- reads the page only for the ones asked for: role and name (then
-- exact), else its text; for the element the action targeted, its new
-- role and name in the scope of the action's locator (verified to match
-- that element, as the scope may now hold another); else its ref's
-- verified locator (a generator search, the costly one).  Each value is
-- a locator, and the ref the match must be (nil: any one element).
-- strict: the locator must match one element (not a scope of a longer
-- one), so a role and name form the new snapshot already shows matching
-- two elements is passed over unread.
function Proposer:locators(e, strict)
  local anchored = self:anchored(e)
  local rest = self:own_locators(e, strict)
  if not anchored then return rest end
  local gave = false
  return function()
    if not gave then gave = true; return anchored, e.ref end
    return rest()
  end
end

-- For an element of a card or row that shows the test's run token
-- (vdx.run_token; the page's locators are anchored on it) while its own
-- name and text do not: its ref's verified locator when that goes through
-- the item filtered by the token's text, else nil.  A text unique today
-- ("1 reviews") is on the next run's page in every item an earlier run
-- left; the item this run made tells it apart.
function Proposer:anchored(e)
  local anchor = require("vdx.locators").anchor_of(self.page)
  if not anchor or e.in_frame or self:full() then return nil end
  if tostring(e.name or ""):find(anchor, 1, true) or tostring(e.value or ""):find(anchor, 1, true) then return nil end
  if not e.ref then
    -- No ref (a cell, a text): in the scope of the action's locator when
    -- that is the item the token names; the check of the candidate on the
    -- page says whether e is in it.
    local scope = self.acted and self.acted.locator and scope_of(self.acted.locator)
    if not scope or not scope:find(anchor, 1, true) then return nil end
    if e.name and e.name ~= "" and e.role ~= "text" then return scope .. "." .. assertions.by_role(e.role, e.name) end
    if e.value and e.value ~= "" and not FIELD[e.role] then return scope .. "." .. by_value(e.value) end
    return nil
  end
  local ok, l = pcall(assertions.locator_of, self.page, e.ref, self.batch)
  self.checks = self.checks + 1
  if ok and l and not l.positional and l.locator:find(anchor, 1, true) then return l.locator end
  return nil
end

-- Proposer:locators without the anchored one.
function Proposer:own_locators(e, strict)
  local out = {}
  -- Inside a frame only the ref's own locator, which leads in through the
  -- frame's owner (getByTitle('Payment').contentFrame()…), can serve.
  local named = e.name and e.name ~= "" and e.role ~= "text" and not e.in_frame
  -- A name with a number ("Cart (1)", "2 items left") is matched exactly
  -- first: as a part of a name it is also "Cart (10)".
  local exact_first = named and e.name:find("%d") ~= nil
  if named then
    out[1] = assertions.by_role(e.role, e.name, exact_first)
    out[2] = assertions.by_role(e.role, e.name, not exact_first)
  elseif e.value and e.value ~= "" and not FIELD[e.role] and not e.in_frame then
    local t = text_part(e.value)
    if #t <= 3 or not t:find("%a") then
      -- A slight text ("1", "$4") is unique on the page by chance: only in
      -- its nearest named container, which says what it counts.
      local a = e.parent
      while a and ((a.name or "") == "" or a.role == "text") do a = a.parent end
      if a then out[1] = assertions.by_role(a.role, a.name) .. "." .. assertions.by_text(t, true) end
    else
      -- The whole text exactly first (by_value), then as a part.
      local exact = by_value(e.value)
      out[1], out[2] = exact, exact ~= assertions.by_text(t) and assertions.by_text(t) or nil
    end
  end
  local scope = out[1] and self:scope(e)
  local i, ref_tried = 0, false
  return function()
    if scope then
      -- In the action's container first (a slight text's own container
      -- gives way to it).
      local own = out[1]:match("^getByRole%(.-%)%.(getByText%(.*%))$") or out[1]
      local l = scope .. "." .. (own:find(scope, 1, true) == 1 and own:sub(#scope + 2) or own)
      scope = nil
      return l, e.ref
    end
    i = i + 1
    if i == 2 and out[2] and self:same_names(out[1], e.name) then i = 3 end
    while strict and named and i <= 2 and out[i] and self:shown_twice(e, (i == 2) ~= exact_first) do i = i + 1 end
    if out[i] then return out[i] end
    if ref_tried or not e.ref or self:full() then return nil end
    ref_tried = true
    local ok, l = pcall(assertions.locator_of, self.page, e.ref, self.batch)
    self.checks = self.checks + 1
    if ok and l and not l.positional and (l.frame == "main" or l.from_page) then
      out[i] = l.locator
      return l.locator
    end
    return nil
  end
end

-- True when the facts read of locator (a role and name one) show
-- several elements that all have exactly the name `name`: the exact form
-- of the locator matches them all too, and need not be read.
function Proposer:same_names(locator, name)
  local f = self.read[locator]
  if not f or f.count < 2 or f.count > #f.matches then return false end
  local want = assertions.normalize(name)
  for _, m in ipairs(f.matches) do
    if assertions.normalize(m.name) ~= want then return false end
  end
  return true
end

-- True when the snapshot taken after the action shows two elements of
-- the main frame that e's role and name locator (exact or not) matches:
-- a check on the page could only fail.
function Proposer:shown_twice(e, exact)
  return (diff.count_named(self.text, e.role, e.name, exact, 2) or 0) >= 2
end

-- Tries matcher on each locator of e until one holds.
function Proposer:first(e, matcher, value)
  for loc, ref in self:locators(e, true) do
    if self:try({ matcher = matcher, locator = loc, value = value }, ref) then return true end
    if self:full() then return false end
  end
  return false
end

-- A tab panel an action showed (a tab clicked), by the first text in it:
-- what the view shows, beside which tab is selected.
function Proposer:panel(e)
  local l
  for _, c in ipairs(e.children) do
    l = diff.label(c)
    if l then break end
  end
  if not l or #l < 3 then return end
  self:try { matcher = "toContainText", locator = assertions.by_role(e.role, e.name), value = text_part(l) }
end

-- The fields whose value changed: a field line whose value differs, or
-- the parent of changed option lines (a select's change shows on its
-- options); a field that only opened or closed is left out.
local function touched_fields(d)
  local fields, seen = {}, {}
  for _, list in ipairs { d.changed, d.added } do
    for _, e in ipairs(list) do
      local own = e.was and (e.was.value or "") ~= (e.value or "") and e or nil
      for _, f in ipairs { own or false, e.parent or false } do
        if f and FIELD[f.role] and f.ref and not seen[f] then
          seen[f] = true
          fields[#fields + 1] = f
        end
      end
    end
  end
  return fields
end

-- The text line just before entry e among its parent's lines (a label
-- such as "Count:"), or nil.
local function label_before(e)
  local kids = e.parent and e.parent.children or {}
  for i, c in ipairs(kids) do
    if c == e then
      local prev = kids[i - 1]
      local t = prev and prev.role == "text" and assertions.normalize(prev.value or "")
      return t and t ~= "" and #t <= 40 and t or nil
    end
  end
end

-- The host's key of the frame entry e is in ("f1"): the prefix of the
-- first ref under its <iframe>'s line that is that frame's own, not a
-- frame's deeper in; nil when none shows.
local function frame_key(e)
  local fr = e.parent
  while fr and fr.role ~= "iframe" do fr = fr.parent end
  local function find(x)
    for _, k in ipairs(x.children or {}) do
      local key = type(k.ref) == "string" and k.ref:match("^(f%d+)e%d")
      if key then return key end
      if k.role ~= "iframe" then
        key = find(k)
        if key then return key end
      end
    end
  end
  return fr and find(fr)
end

-- A live region's new text inside a frame (a payment form's "The card
-- number must have 16 digits."): the region by its role, through the
-- chain into the frame (run AU's was told with no proposal).
function Proposer:framed_live(e)
  if self:full() or (e.name or "") ~= "" or not LIVE[e.role] or (e.value or "") == "" then return end
  local key = frame_key(e)
  local okp, path = pcall(require("vdx.locators").frame_path, self.page, key)
  if not key or not okp or not path then return end
  self:try { matcher = "toHaveText", locator = path .. "." .. assertions.by_role(e.role),
    value = assertions.normalize(e.value) }
end

-- A changed line that is no field: its new text (toHaveText on a named
-- element) or its new name (toBeVisible).
function Proposer:changed(e)
  if FIELD[e.role] or CHECKABLE[e.role] or not e.was then return end
  if e.was.name == e.name and e.was.value == e.value then return end
  if e.in_frame then return self:framed_live(e) end
  if (e.name or "") == "" and LIVE[e.role] and (e.value or "") ~= "" then
    -- A live region's new text (a counter, a status line): the region by
    -- its role, alone or within its nearest named container, has it.
    local own = assertions.by_role(e.role)
    local value = assertions.normalize(e.value)
    local scope = self:scope(e)
    if scope and self:try { matcher = "toHaveText", locator = scope .. "." .. own, value = value } then return end
    local a = e.parent
    while a and (a.name or "") == "" do a = a.parent end
    local scoped = a and a.role ~= "text" and assertions.by_role(a.role, a.name) .. "." .. own
    -- Within the form or section it is in first, when that has a label of
    -- its own.
    local labelled = scoped and proposals.labelled_scope(a, value)
    if labelled and not self:full() and self:try { matcher = "toHaveText", locator = scoped, value = value } then
      return
    end
    if self:try { matcher = "toHaveText", locator = own, value = value } then return end
    if scoped and not labelled and not self:full() then
      if self:try { matcher = "toHaveText", locator = scoped, value = value } then return end
    end
    -- A value its label's text comes before ("Count:" then "3"): the
    -- line they make, exactly, in the action's container when it has one.
    local label = label_before(e)
    if label and not self:full() then
      local loc = assertions.by_text(label .. " " .. value, true)
      if scope and self:try({ matcher = "toBeVisible", locator = scope .. "." .. loc }) then return end
      if self:try { matcher = "toBeVisible", locator = loc } then return end
    end
  end
  if (e.name or "") ~= "" and (e.value or "") ~= "" and e.role ~= "text" then
    for loc, ref in self:locators(e, true) do
      if self:try({ matcher = "toHaveText", locator = loc, value = assertions.normalize(e.value) }, ref) then return end
    end
  else
    self:first(e, "toBeVisible")
  end
end

-- A container whose children changed order: toContainText of their texts
-- in the new order.  When the labels name every match (bar the header
-- rows, which they leave out), their count is kept beside it (step.count,
-- Log:keep): toContainText alone passes with a row added or doubled
-- anywhere (run AF's sorted table).
function Proposer:order(m)
  local kid = m.parent.children[1].role
  if m.parent.in_frame or kid == "generic" then return end
  for loc in self:locators(m.parent) do
    if self:try { matcher = "toContainText", locator = loc .. ".getByRole('" .. kid .. "')", value = m.labels } then
      local step = self.out[#self.out]
      local f = self.read[step.locator]
      if f and f.count == #m.labels + (m.head or 0) then
        step.count = f.count
        step.code = step.code .. " " .. assertions.code { locator = step.locator, matcher = "toHaveCount",
          value = f.count }
      end
      return
    end
    if self:full() then return end
  end
end

-- The lines an added subtree shows: the live regions (a status, an
-- alert) first, then its roots, then the rest, bare containers (no name,
-- no text of their own) left to their lines.
local function shown_added(d)
  local roots, rest = {}, {}
  for _, e in ipairs(d.added) do
    local bare = (e.name or "") == "" and (e.value or "") == ""
    if not e.in_frame and not bare and e.role ~= "/url" and e.role ~= "/placeholder" then
      if e.parent and e.parent.added then rest[#rest + 1] = e else roots[#roots + 1] = e end
    end
  end
  for _, e in ipairs(rest) do roots[#roots + 1] = e end
  -- What the page says it did (a status, an alert) first, wherever it is.
  local out = {}
  for _, e in ipairs(roots) do if LIVE[e.role] then out[#out + 1] = e end end
  for _, e in ipairs(roots) do if not LIVE[e.role] then out[#out + 1] = e end end
  return out
end

-- Each report's checks are one batch (see proposals.propose).
local batches = 0

--- The verified candidates of diff d (vdx.snapshot_diff.compare), in
-- this order until MAX_CANDIDATES (or one a changed field, up to
-- MAX_FIELDS): a new order, states of fields and
-- checkboxes, other changed lines (a status or an alert first, then a tab
-- selected, a disclosure expanded), list counts, dialogs and menus
-- closed, what appeared (a live region first), then the fields the
-- action emptied; each
-- an assert step with its code.  The checks of one report are one batch:
-- the page is still while they run, so they share the bridge's locator
-- engine.  acted: { ref =, locator = } of the action's target in the main
-- frame (its locator taken before the action), or nil; text: the
-- snapshot taken after the action; wrote: whether the action sent the
-- server a change (list counts then come after what appeared); typed:
-- the set of texts the action put in fields (a field showing one of them
-- is not proposed), or nil.
function proposals.propose(page, d, acted, text, kept, wrote, typed)
  batches = batches + 1
  -- A field the action emptied (a form's submit clears it) is checked
  -- last: what the submit made comes first (run BJ's Add product was
  -- proposed only as its three fields emptied, the new row not at all).
  local fields, cleared = {}, {}
  for _, f in ipairs(touched_fields(d)) do
    if (f.value or "") == "" and f.was and (f.was.value or "") ~= "" then cleared[#cleared + 1] = f
    else fields[#fields + 1] = f end
  end
  local n = #fields
  for _, e in ipairs(d.changed) do if CHECKABLE[e.role] then n = n + 1 end end
  -- Each field a form's fill changed is worth its check, up to MAX_FIELDS.
  local p = setmetatable({ page = page, out = {}, seen = {}, read = {}, checks = 0, batch = "report" .. batches,
    acted = acted, text = text, kept = kept, typed = typed,
    max = math.max(proposals.MAX_CANDIDATES, math.min(n, proposals.MAX_FIELDS)) }, Proposer)
  local steps = {}
  -- A new order first: a sort is what the action was for; so is what a
  -- filter left (one more candidate for it).
  for _, m in ipairs(d.moved) do steps[#steps + 1] = function() p:order(m) end end
  for _, x in ipairs(items.left_in(d)) do
    if x.level and not p.left_told then p.left_told, p.max = true, p.max + 1 end
    steps[#steps + 1] = function() p:left(x) end
  end
  for _, f in ipairs(fields) do steps[#steps + 1] = function() p:state(f) end end
  -- What the page says it did (a status, an alert) before the other
  -- changed lines: run BJ's "Order #1001 is confirmed" went unproposed
  -- behind a heading and the payment frame's own status.
  local changed = {}
  for _, e in ipairs(d.changed) do if LIVE[e.role] and not e.in_frame then changed[#changed + 1] = e end end
  for _, e in ipairs(d.changed) do if not (LIVE[e.role] and not e.in_frame) then changed[#changed + 1] = e end end
  for _, e in ipairs(changed) do
    if CHECKABLE[e.role] then steps[#steps + 1] = function() p:state(e) end end
    if not CHECKABLE[e.role] then steps[#steps + 1] = function() p:aria_state(e) end end
    steps[#steps + 1] = function() p:changed(e) end
  end
  -- A tab panel shown, by its text: one more candidate for it.
  for _, e in ipairs(d.added) do
    if e.role == "tabpanel" and (e.name or "") ~= "" and not e.in_frame then
      if not p.panel_told then p.panel_told, p.max = true, p.max + 1 end
      steps[#steps + 1] = function() p:panel(e) end
    end
  end
  -- An item that went, by what it showed (which one went), then the
  -- count (how many are left): one more candidate for it.
  for _, e in ipairs(d.removed or {}) do
    local item = not ITEM_OF[e.role] and left_item(e)
    if (ITEM_OF[e.role] and not (e.parent and e.parent.removed)) or item then
      if not p.gone_told then p.gone_told, p.max = true, p.max + 1 end
      steps[#steps + 1] = function() p:gone(e, item or nil) end
    end
  end
  -- A list's count after the action sent the server a change (a POST
  -- that added a row) is what the account holds: the next run's is one
  -- more, so what appeared comes first (run BU's new product's row went
  -- unproposed behind `toHaveCount(21)`).
  local counts = {}
  for _, c in ipairs(recounted(d)) do
    if not c.list.in_frame and c.n > 0 then counts[#counts + 1] = function() p:count(c.list, c.n) end end
  end
  if not wrote then
    for _, f in ipairs(counts) do steps[#steps + 1] = f end
  end
  for _, e in ipairs(d.removed or {}) do
    if CLOSABLE[e.role] and not (e.parent and e.parent.removed) then
      steps[#steps + 1] = function() p:closed(e) end
    elseif CONTROL[e.role] and (e.name or "") ~= "" and not (e.parent and e.parent.removed) and not p.control_told then
      -- A control the action took away (Clear completed, once nothing is
      -- left to clear): hidden now, one more candidate (runs CB and CJ
      -- found it unproposed behind two others).
      p.control_told, p.max = true, p.max + 1
      steps[#steps + 1] = function() p:closed(e) end
    end
  end

  for _, e in ipairs(shown_added(d)) do steps[#steps + 1] = function() p:first(e, "toBeVisible") end end
  if wrote then
    for _, f in ipairs(counts) do steps[#steps + 1] = f end
  end
  for _, f in ipairs(cleared) do steps[#steps + 1] = function() p:state(f) end end
  for _, step in ipairs(steps) do
    if p:full() then break end
    step()
  end
  return p.out
end

-- A proposer of at most one check beside what the agent expected or
-- asked (acted as proposals.propose takes it): the brief report's
-- proposers (vdx.proposals_brief) start from it.
local function one_more(page, acted)
  batches = batches + 1
  return setmetatable({ page = page, out = {}, seen = {}, read = {}, checks = 0, batch = "report" .. batches,
    acted = acted, text = "", max = 1 }, Proposer)
end
require("vdx.proposals_brief").install(proposals, one_more)

return proposals
