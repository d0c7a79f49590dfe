--- vdx.builtin.verify: the verify tools (names and arguments as
-- Playwright MCP's).  Each checks one fact on the live page; when the page
-- agrees it records the check in the session log as a web-first assertion
-- whose locator matches exactly the checked element, and when it does not
-- it fails with VerifyFailed saying what the page has instead, so the
-- agent corrects the expectation without another snapshot.
local vdx = require "vdx"
local assertions = require "vdx.assertions"
local snapshot = require "vdx.snapshot"
local util = require "vdx.builtin.util"

local quote, str = assertions.quote, assertions.str

local common = require "vdx.builtin.verify_common"
local SHOWN, fail, describe, described = common.SHOWN, common.fail, common.describe, common.described
local target, the_one, agreed = common.target, common.the_one, common.agreed
local verify_value = require "vdx.builtin.verify_value"
local known_bug = require "vdx.builtin.known_bug"
local absent = require "vdx.builtin.verify_absent"
local rows = require "vdx.builtin.verify_rows"
local clip = require "vdx.clip"

local ITEM_ROLE = assertions.ITEM_ROLE

-- items ordered by how many words of text each one's hay(item) holds,
-- most first, then in page order; with their scores.
local function rank(items, text, hay)
  local words, marks = {}, {}
  for w in text:lower():gmatch("[%w\128-\255]+") do
    if #w >= 2 then words[#words + 1] = w else marks[#marks + 1] = w end
  end
  local scored = {}
  for i, it in ipairs(items) do
    local h, score, tie = hay(it):lower(), 0, 0
    for _, w in ipairs(words) do if h:find(w, 1, true) then score = score + 1 end end
    -- Digits and letters alone break a tie: "4.0 (1 reviews)" before
    -- "4.5 (12 reviews)" for "4.0 (1 review)".
    for _, w in ipairs(marks) do if h:find("%f[%w]" .. w .. "%f[%W]") then tie = tie + 1 end end
    scored[i] = { item = it, score = score, tie = tie, at = i }
  end
  table.sort(scored, function(a, b)
    if a.score ~= b.score then return a.score > b.score end
    if a.tie ~= b.tie then return a.tie > b.tie end
    return a.at < b.at
  end)
  return scored
end

-- The lines of the page that share the most words with text: where an
-- expectation that finds nothing probably meant to look.
local function nearest(page, text, n)
  local ok, snap = pcall(snapshot.take, page, { budget_tokens = 50000 })
  if not ok then return {} end
  local lines = {}
  for line in (snap.text or ""):gmatch("[^\n]+") do
    if not line:find("- note:", 1, true) then lines[#lines + 1] = (line:gsub("^%s*%- ", "")) end
  end
  local out = {}
  for _, r in ipairs(rank(lines, text, function(l) return l end)) do
    if r.score == 0 or #out >= n then break end
    out[#out + 1] = clip(r.item, 100)
  end
  return out
end

-- The first of the candidate locators that matches one element, visible;
-- else the verified locator of the first visible match's ref, and how
-- many of f's matches are visible (third).  Returns the locator, or nil
-- and why not.
local function unique_visible(page, candidates, f)
  for _, expr in ipairs(candidates) do
    local ok, c = pcall(assertions.facts, page, expr, { limit = 1 })
    if ok and c.count == 1 and c.matches[1].visible then return expr end
  end
  local visible = 0
  for _, m in ipairs(f.matches) do if m.visible then visible = visible + 1 end end
  for _, m in ipairs(f.matches) do
    if m.visible and m.ref then
      local ok, l = pcall(assertions.locator_of, page, m.ref)
      if ok and l and not l.positional and l.from_page then return l.locator, nil, visible end
    end
  end
  return nil, ("%d visible elements match %s and no locator singles one out"):format(visible, candidates[1])
end

-- loc (a locator of one element of the main frame) scoped to the card or
-- row around its element that shows the test's run token (the page's
-- locators are anchored on it: vdx.locators.anchor), else loc: a text
-- unique today is in every item the earlier runs left.
local function anchored(page, loc)
  local anchor = loc and require("vdx.locators").anchor_of(page)
  if not anchor then return loc end
  local ok, scoped = pcall(page.bridge, page, "anchoredLocator", { loc, { anchor = anchor } }, { frame = "main" })
  return ok and type(scoped) == "string" and scoped or loc
end

-- The matches of f, the nearest to text first, as described lines.
local function ranked(f, text)
  local out = {}
  for i, r in ipairs(rank(f.matches, text, function(m) return m.name .. " " .. m.text end)) do
    if i > SHOWN then break end
    out[i] = describe(r.item)
  end
  if f.count > SHOWN then out[#out + 1] = ("… %d more"):format(f.count - SHOWN) end
  return out
end

-- True when one of f's matches is visible.
local function any_visible(f)
  for _, m in ipairs(f.matches) do
    if m.visible then return true end
  end
  return false
end

-- The first child frame where expr matches a visible element, as
-- Playwright MCP looks in every frame: its name, or nil.
local function frame_with(page, expr)
  return (common.in_child_frames(page, function(frame)
    local ok, f = pcall(assertions.facts, page, expr, { frame = frame, limit = 20 })
    return ok and any_visible(f) or nil
  end))
end

-- Roles whose name a text may be but that say nothing of themselves by it.
local NAMELESS = { generic = true, paragraph = true, text = true, none = true, presentation = true,
  status = true, alert = true, log = true }

-- For a text that is the whole accessible name of its one visible match
-- (a heading "Oak Chair", a cell): that role and name, plain then exact,
-- which a later "Oak Chair added to cart" does not match as getByText does.
local function named_candidates(f, text)
  local want, hit = assertions.normalize(text), nil
  for _, m in ipairs(f.matches) do
    if m.visible then
      if hit then return {} end
      hit = m
    end
  end
  if not hit or not hit.role or NAMELESS[hit.role] or assertions.normalize(hit.name or "") ~= want then return {} end
  return { assertions.by_role(hit.role, want), assertions.by_role(hit.role, want, true) }
end

-- For a text that holds a number (a count: "Cart (1)"), shown by one
-- visible element that the page locates by a test id without that text:
-- that element's toHaveText, or toContainText of a part of its text; nil
-- otherwise.  Its name changes with the count, its locator does not (run
-- BV's expect= recorded the link by its name, its click by its test id).
local function numbered_element(ctx, text)
  -- (The run's token is no count: "Teak Lamp k3x9q2ab" is a name.)
  local token = ctx.session and ctx.session:run_token()
  local bare = token and text:gsub(token:gsub("%p", "%%%0"), "") or text
  if not bare:find("%d") then return nil end
  local page = ctx:page()
  local hit = common.one_visible(page, text)
  if not hit or not hit.ref then return nil end
  local okl, l = pcall(assertions.locator_of, page, hit.ref, nil, text)
  local needle = assertions.normalize(text)
  if not okl or not l or l.positional or not l.from_page or l.frame ~= "main" then return nil end
  -- By the team's test id, not by its text or any number in it (a locator
  -- by the count is no steadier), nor a bare role (unique only until the
  -- page has a second link).
  if not l.locator:find("getByTestId(", 1, true) or l.locator:find(needle, 1, true) or l.locator:find("%d") then
    return nil
  end
  return { matcher = assertions.normalize(hit.text or "") == needle and "toHaveText" or "toContainText",
    locator = l.locator, value = text }
end

-- The check of the visible element loc singles out: toBeVisible, or with
-- in_viewport toBeInViewport, which fails here (as the test would) when
-- no part of the element shows in the viewport.
local function visible_step(page, loc, in_viewport, expected)
  if not loc then return nil end
  if not in_viewport then return { matcher = "toBeVisible", locator = loc } end
  local step = { matcher = "toBeInViewport", locator = loc }
  local ok, f = pcall(assertions.facts_for, page, step)
  if ok and not assertions.judge(step, f) then
    fail(("%s is visible but outside the viewport: bring it into view first (the link or key that scrolls to it, "
      .. "or browser_hover on it), or check it without in_viewport (with absent: true too, that it is out of view)")
      :format(loc),
      { expected = expected .. " in the viewport", actual = { "outside the viewport" } })
  end
  return step
end

-- The check that expr shows one visible element, recorded by the first
-- of candidates that singles it out (a frame's chain, the first of
-- several, anchored on the run's token).  what(page) -> the lines of the
-- page's nearest elements, a hint, and a function whose answer stands in
-- for the failure (or nil): read when expr matches nothing.  prefer(f):
-- candidates to try first; in_viewport: toBeInViewport.
local function verify_visible(ctx, tool, expr, candidates, expected, what, prefer, in_viewport)
  local page = ctx:page()
  local f = assertions.facts(page, expr, { limit = 20 })
  if prefer and any_visible(f) then
    local first = prefer(f)
    for _, c in ipairs(candidates) do first[#first + 1] = c end
    candidates = first
  end
  if not any_visible(f) then
    local frame = frame_with(page, expr)
    if frame then
      -- Recorded with the chain into its frame, as the page's locator.
      local path = require("vdx.locators").frame_path(page, frame)
      if not path then
        return agreed(ctx, tool, nil, ("the element is inside frame %s, whose iframe has no locator from the page")
          :format(frame))
      end
      local chained = {}
      for i, c in ipairs(candidates) do chained[i] = path .. "." .. c end
      local loc, why = unique_visible(page, chained, assertions.facts(page, expr, { frame = frame, limit = 20 }))
      return agreed(ctx, tool, visible_step(page, loc, in_viewport, expected), why)
    end
    local actual, hint, instead
    if f.count > 0 then
      actual = described(f)
    else
      actual, hint, instead = what(page)
      if instead then return instead() end
      if #actual == 0 then actual = { "nothing like it" } end
    end
    fail(f.count > 0 and ("%s matches %d elements, none visible"):format(expr, f.count)
      or (expr .. " matches nothing" .. (hint and ("; " .. hint) or "")),
      { expected = expected, actual = actual, counts = f.count })
  end
  local loc, why, of = unique_visible(page, candidates, f)
  loc = anchored(page, loc)
  -- (Run EB's Add to cart, one of three, was checked in the first card
  -- unsaid.)
  local picked = of and of > 1 and ("%d visible elements match %s: the check is of the first of them, as its "
    .. "locator says"):format(of, candidates[1]) or nil
  return agreed(ctx, tool, visible_step(page, loc, in_viewport, expected), why, picked)
end

-- Calls that narrow the element a chain found rather than go into it.
local NARROWS = { filter = true, first = true, last = true, nth = true, ["and"] = true, ["or"] = true }

-- Whether a string literal of locator holds needle as words of its own
-- (not "0" in '90. Queues reference': run FD's counter in that section
-- was warned of as found by its text).
local function mentions(locator, needle)
  local head, tail = needle:find("^%w") ~= nil, needle:find("%w$") ~= nil
  for _, p in ipairs(require("vdx.pw_spec").pieces(locator)) do
    local body = p.quote and p.quote ~= "/" and p.text:sub(2, -2) or ""
    local from = 1
    while true do
      local a, b = body:find(needle, from, true)
      if not a then break end
      if not (head and body:sub(a - 1, a - 1):find("^%w")) and not (tail and body:sub(b + 1, b + 1):find("^%w")) then
        return true
      end
      from = a + 1
    end
  end
  return false
end

-- The scope locator goes through (the chain before the calls that find
-- and narrow its element) when that does not mention needle and finds one
-- element (a scope of thirteen panels tells none apart: run FD's
-- getByTestId('live-example').getByText('2')), else nil.
local function outer_scope_without(page, locator, needle)
  local segs = assertions.segments(locator)
  if not segs then return false end
  local i = #segs
  while i > 1 and NARROWS[segs[i]:match("^%a+")] do i = i - 1 end
  local outer = i > 1 and table.concat(segs, ".", 1, i - 1)
  if not outer or mentions(outer, needle) then return nil end
  local ok, f = pcall(assertions.facts, page, outer, { limit = 1 })
  if not ok and vdx.is_error(f, "Cancelled") then error(f, 0) end
  return ok and f.count == 1 and outer or nil
end

-- browser_verify_text_visible with ref or locator: the element's text
-- holds args.text (as Playwright's toContainText reads it), recorded so.
local function verify_contains(ctx, args)
  local page = ctx:page()
  local t = target(page, args, args.text)
  -- The whole text: what it holds may come after the first 500 characters.
  local m = the_one(page, t, nil, assertions.text_max { matcher = "toContainText", value = args.text })
  local have = assertions.normalize(m.text or "")
  if not m.visible then
    fail(t.locator .. " is not visible", { expected = "a visible element", actual = { describe(m) } })
  end
  if not have:find(assertions.normalize(args.text), 1, true) then
    local cells = not t.elsewhere and rows.cells(page, t, m, args.text)
    if cells then return agreed(ctx, "browser_verify_text_visible", cells) end
    fail(("%s does not contain %q"):format(t.locator, args.text),
      { expected = args.text, actual = { clip(have, 200) } })
  end
  if t.elsewhere then return agreed(ctx, "browser_verify_text_visible", nil, t.elsewhere) end
  local circular
  -- Found by the text it checks, with no scope found otherwise: the check
  -- holds wherever the page shows that text.  A scope of its own (an
  -- order's row, by its number) makes it a check of what that scope shows
  -- (run BE's 'Paid' cell in its order's row was warned of).
  local needle = assertions.normalize(args.text)
  local named = mentions(t.locator, needle)
  local outer = named and outer_scope_without(page, t.locator, needle)
  if named and not outer then
    circular = "⚠️ The locator finds the element by the text it checks, so the check holds wherever it finds one: "
      .. "give the locator of its container without that text (locator=…) to check what it shows"
  end
  if not circular and have ~= needle then
    -- The element in it that shows just the text, first: a row's
    -- toContainText('Paid') holds for 'Paid in part' too (run BP asked
    -- for its cell), as an expected text in a container is checked.
    -- Within the scope around an element named by that very text (run
    -- CA's cell, named 'Update price Saved' by its button and the
    -- message), not through that name.
    local exact = outer and common.exact_within(page, outer, args.text, t.positional)
      or common.exact_within(page, t.locator, args.text, t.positional)
    if exact then return agreed(ctx, "browser_verify_text_visible", exact) end
  end
  -- Its whole text: toHaveText, as expect= records a status it fills
  -- (run BR's status check came out as toContainText, its expect= as toHaveText).
  return agreed(ctx, "browser_verify_text_visible", { matcher = have == needle and not circular and "toHaveText"
    or "toContainText", locator = t.locator, value = args.text, positional = t.positional }, nil, circular)
end

-- The items of the list t names that has no item role: its children by
-- the test id they all share and nothing else in it has (run BS's cards,
-- which the next click found by theirs), else all of them
-- (`.locator(':scope > *')`).
local function children(page, t)
  local all = ".locator(':scope > *')"
  local f = assertions.facts(page, t.relative .. all, { frame = t.frame, limit = 50, attribute = "data-testid" })
  local id = f.matches[1] and f.matches[1].attribute
  if not id or id == "" or f.count > #f.matches then return all end
  for _, m in ipairs(f.matches) do
    if m.attribute ~= id then return all end
  end
  local by_id = ".getByTestId(" .. quote(id) .. ")"
  local g = assertions.facts(page, t.relative .. by_id, { frame = t.frame, limit = 1 })
  return g.count == f.count and by_id or all
end

-- Whether the locator expr ends in a getByRole step (and filters of
-- it), which finds only elements the accessibility tree shows.
local function by_role(expr)
  local segs = assertions.segments(expr) or {}
  local i = #segs
  while i > 1 and segs[i]:match("^filter%(") do i = i - 1 end
  local last = segs[i] or ""
  return last:match("^getByRole%(") ~= nil and not last:find("includeHidden", 1, true)
end

local function verify_list(ctx, args)
  local page = ctx:page()
  local t = target(page, args)
  local items_expr, items_rel, header
  if t.relative == t.locator and not str(args.ref) and not vdx.is_ref(args.target or "")
      and assertions.facts(page, t.relative, { frame = t.frame, limit = 1 }).count > 1 then
    -- A locator of the items themselves (getByRole('article')): they are
    -- the list.
    items_expr, items_rel = t.locator, t.relative
  else
    local list = the_one(page, t)
    local item_role = ITEM_ROLE[list.role or ""]
    local items = item_role and (".getByRole(" .. quote(item_role) .. ")") or children(page, t)
    if item_role == "row" then
      -- A header row (column headers, no cell) is no item of the table's.
      local cell = list.role == "table" and "cell" or "gridcell"
      local data = items .. (".filter({ has: getByRole(%s) })"):format(quote(cell))
      local function count(x) return assertions.facts(page, t.relative .. x, { frame = t.frame, limit = 1 }).count end
      local n = count(data)
      if n > 0 and n < count(items) then
        items = data
        header = t.relative .. ".getByRole('row').filter({ has: getByRole('columnheader') })"
      end
    end
    items_expr, items_rel = t.locator .. items, t.relative .. items
  end
  local f = assertions.facts(page, items_rel, { frame = t.frame, limit = 200 })
  local texts, j, missing = {}, 1, nil
  for i, m in ipairs(f.matches) do texts[i] = m.text end
  for _, m in ipairs(f.matches) do
    if j <= #args.items and m.text:find(assertions.normalize(args.items[j]), 1, true) then
      if not m.visible then missing = ("item %s is hidden"):format(quote(args.items[j])) break end
      j = j + 1
    end
  end
  if not missing and j <= #args.items then
    missing = ("item %s not found%s"):format(quote(args.items[j]), j > 1 and (" after " .. quote(args.items[j - 1])) or "")
    -- A row's text joins its cells with no space, as Playwright reads it.
    local bare = args.items[j]:gsub("%s+", "")
    -- (Run FC gave the header row first, and read the answer's joined
    -- cells as the form to type.)
    local h = header and bare ~= "" and assertions.facts(page, header, { frame = t.frame, limit = 3 })
    for _, m in ipairs(h and h.matches or {}) do
      if m.text:gsub("%s+", "") == bare then
        missing = missing .. "; it is the table's header row, which is no item: leave it out"
        bare = ""
        break
      end
    end
    for _, x in ipairs(texts) do
      if bare ~= "" and x:gsub("%s+", ""):find(bare, 1, true) then
        missing = missing .. ("; an item reads %s: its cells' texts join without spaces (as Playwright reads an "
          .. "item's text), so give one cell's text per item, or the text as it reads"):format(quote(x))
        break
      end
    end
  end
  if missing and not t.elsewhere then
    -- Table rows given as their cells, apart (runs EC and EI).
    local res = rows.list(ctx, items_expr, items_rel, t, f, args.items)
    if res then return res end
  end
  if missing then
    local actual = {}
    for i, x in ipairs(texts) do
      if i > 12 then actual[#actual + 1] = ("… %d more"):format(f.count - 12) break end
      actual[i] = quote(clip(x, 60))
    end
    if #actual == 0 then actual[1] = "no items" end
    fail(("%s: %s"):format(items_expr, missing), { expected = "items in order: " .. table.concat(args.items, ", "),
      actual = actual, counts = f.count })
  end
  -- Items the page hides (a search's misses, left in the DOM) are no part
  -- of what was checked: the test reads the visible ones, or its
  -- assertion holds before the action too.  Items found by a role are
  -- visible ones already (getByRole leaves hidden elements out); others
  -- (cards by their test id) are filtered even when all show now, so that
  -- a page that hides them later fails the check (run FH's grid, whose
  -- cards a search hides and its clear should show again).
  local visible = {}
  for _, m in ipairs(f.matches) do if m.visible then visible[#visible + 1] = m.text end end
  if #visible < #f.matches or not by_role(items_rel) then
    items_expr, texts = items_expr .. ".filter({ visible: true })", visible
  end
  local full = f.count <= #f.matches and assertions.texts_match(texts, args.items, false)
  local step = { locator = items_expr, matcher = full and "toHaveText" or "toContainText",
    value = args.items, positional = t.positional }
  local res = agreed(ctx, "browser_verify_list_visible", step, t.elsewhere)
  if not full and not t.elsewhere and f.count <= #f.matches and #texts == #args.items and ctx.session then
    -- Every item named, each by part of its text: toContainText would
    -- pass with more items too, so their count is checked beside it.
    common.also(ctx, res, "And the count", { locator = items_expr, matcher = "toHaveCount", value = #texts,
      positional = t.positional }, "browser_verify_list_visible")
  end
  return res
end

local TARGET = { type = "string", description = "Alias: ref or locator in one (Playwright MCP's name)" }
local LOCATOR = { type = "string", description = "Or a Playwright locator of one element" }

return {
  {
    name = "browser_verify_element_visible",
    title = "Verify element visible",
    description = "Verify an element with this role and name is visible, and record the assertion.",
    input = { type = "object", required = { "role", "accessibleName" }, properties = {
      role = { type = "string", minLength = 1, description = 'ROLE in the snapshot\'s `- {ROLE} "Name"`' },
      accessibleName = { type = "string", description = 'NAME in the snapshot\'s `- role "{NAME}"` ("": any)' },
      in_viewport = { type = "boolean", description = "Also scrolled into view (toBeInViewport)" },
      absent = absent.SCHEMA,
      known_bug = known_bug.SCHEMA,
    } },
    annotations = { readOnlyHint = true },
    run = function(ctx, args)
      local role, name = args.role, args.accessibleName
      local expr = assertions.by_role(role, name)
      if args.absent and args.in_viewport and not args.known_bug then
        return absent.out_of_view(ctx, "browser_verify_element_visible", expr)
      end
      local gone = args.absent and absent.role_step(role, name)
      if args.known_bug then
        return known_bug.check(ctx, "browser_verify_element_visible",
          gone or { matcher = "toBeVisible", locator = expr }, args.known_bug)
      end
      if gone then return absent.check(ctx, "browser_verify_element_visible", gone) end
      return verify_visible(ctx, "browser_verify_element_visible", expr,
        { expr, assertions.by_role(role, name, true) }, ("%s %s visible"):format(role, quote(name)),
        function(page)
          local out, listed, hint = {}, {}, nil
          local function add(d)
            if not listed[d] then listed[d], out[#out + 1] = true, d end
          end
          local ok, same = pcall(assertions.facts, page, assertions.by_role(role), { limit = 100 })
          if ok then
            for _, d in ipairs(ranked(same, name)) do add(d) end
            -- An element of the role whose text is the name asked for, and
            -- no name: its role takes none from its content (status,
            -- alert, list, …), so only its text can be checked; the one
            -- element of the role, shown, has its text checked (run EA's
            -- `- alert: Wrong email or password.` was refused).
            for _, m in ipairs(same.matches) do
              if m.name == "" and name ~= "" and assertions.normalize(m.text) == assertions.normalize(name) then
                if same.count == 1 and m.visible then
                  return out, nil, function()
                    local res = verify_contains(ctx, { text = name, locator = assertions.by_role(role) })
                    res.text = ("%s %s takes no accessible name from its text: its text is checked.\n%s")
                      :format(role:find("^[aeiou]") and "An" or "A", role, res.text)
                    return res
                  end
                end
                hint = ("a %s takes no accessible name from its text: check the text with "
                  .. "browser_verify_text_visible(text=%s)"):format(role, quote(name))
                break
              end
            end
          end
          if name ~= "" then
            local okt, texts = pcall(assertions.facts, page, assertions.by_text(name), { limit = 3 })
            if okt then for _, d in ipairs(described(texts)) do add(d) end end
          end
          return out, hint
        end, nil, args.in_viewport == true)
    end,
  },
  {
    name = "browser_verify_text_visible",
    title = "Verify text visible",
    description = "Verify a text is visible (getByText), or in the element of ref or locator (toHaveText of its whole text, an element in it showing just that text, else toContainText); records it.",
    input = { type = "object", required = { "text" }, properties = {
      text = { type = "string", minLength = 1, description = "Text as the snapshot shows it; {run} as in browser_type" },
      ref = { type = "string", description = "Ref of the element that holds it (a card, a row)" },
      locator = LOCATOR,
      absent = absent.SCHEMA,
      known_bug = known_bug.SCHEMA,
    } },
    annotations = { readOnlyHint = true },
    run = function(ctx, args)
      if args.known_bug or args.absent then
        local step = args.absent and absent.text_step(args.text)
          or { matcher = "toBeVisible", locator = assertions.by_text(args.text) }
        if args.ref or args.locator then
          local t = target(ctx:page(), args, args.text)
          if t.elsewhere then common.fail(t.elsewhere, { expected = "a locator from the page" }) end
          step = args.absent and absent.text_step(args.text, t.locator)
            or { matcher = "toContainText", locator = t.locator, value = args.text }
        end
        if not args.known_bug then return absent.check(ctx, "browser_verify_text_visible", step) end
        return known_bug.check(ctx, "browser_verify_text_visible", step, args.known_bug)
      end
      if args.ref or args.locator then return verify_contains(ctx, args) end
      local counted = numbered_element(ctx, args.text)
      if counted then return agreed(ctx, "browser_verify_text_visible", counted) end
      local expr = assertions.by_text(args.text)
      return verify_visible(ctx, "browser_verify_text_visible", expr,
        { expr, assertions.by_text(args.text, true), expr .. ".filter({ visible: true })" },
        ("text %s visible"):format(quote(args.text)),
        function(page) return nearest(page, args.text, 3) end,
        function(f) return named_candidates(f, args.text) end)
    end,
  },
  {
    name = "browser_verify_list_visible",
    title = "Verify list visible",
    description = "Verify a list's visible items (ref or locator: the list or its items) show these texts in order.",
    input = { type = "object", required = { "items" }, properties = {
      element = { type = "string", description = "The list in words, beside ref or locator" },
      ref = { type = "string", description = "Ref of the list" },
      locator = LOCATOR,
      target = TARGET,
      items = { type = "array", minItems = 1, items = { type = "string" }, description = "Item texts" },
    } },
    annotations = { readOnlyHint = true },
    run = verify_list,
  },
  {
    name = "browser_verify_value",
    title = "Verify value",
    description = "Verify a field's value, a checkbox's or toggle's state, no text (\"\"), or a computed style (css); records toHaveValue, toBeChecked, toHaveAttribute, toBeEmpty or toHaveCSS.",
    input = { type = "object", properties = {
      type = { type = "string", enum = { "textbox", "checkbox", "radio", "combobox", "slider" },
        description = "Field type (default: from the element)" },
      element = util.ELEMENT,
      ref = util.REF,
      locator = LOCATOR,
      target = TARGET,
      value = { type = "string", description = 'Value; "true"/"false" for a checkbox or ARIA state, "disabled"/"enabled", "" for no text' },
      css = { type = "string",
        description = "A CSS property whose computed value to check instead (background-color; without value: read only)" },
    } },
    annotations = { readOnlyHint = true },
    run = verify_value,
  },
}
