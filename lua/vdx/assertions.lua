--- vdx.assertions: web-first assertions checked on the live page before
-- anyone records or proposes them.  The verify tools and the change
-- report (vdx.changes) share it, so an assertion is judged by one rule
-- wherever it comes from: its locator matches exactly the element it
-- names (a count, for toHaveCount) and the state it claims holds now,
-- read by the bridge with Playwright's own matching (locatorFacts).
-- An assertion is a session-log step (see vdx.session_log):
-- { kind = "assert", matcher =, locator =, value = }.
local vdx = require "vdx"
local flow_locator = require "vdx.flow_locator"

local assertions = {}

--- The JavaScript single-quoted literal of s (as Playwright's codegen writes it).
assertions.quote = flow_locator.quote

--- The ARIA role of the items of a list-like role: what toHaveText and
-- toHaveCount read of a list (`<list>.getByRole('listitem')`).
assertions.ITEM_ROLE = { list = "listitem", listbox = "option", menu = "menuitem", menubar = "menuitem",
  tablist = "tab", tree = "treeitem", grid = "row", table = "row", treegrid = "row", rowgroup = "row",
  radiogroup = "radio", feed = "article" }

--- v when it is a string, else nil: the bridge's null (a userdata in Lua)
-- and any other value read as absent.
function assertions.str(v)
  return type(v) == "string" and v or nil
end
local str = assertions.str

--- s with its white space collapsed and trimmed, as Playwright compares texts.
function assertions.normalize(s)
  return (tostring(s):gsub("%s+", " "):gsub("^ ", ""):gsub(" $", ""))
end

--- The facts of the elements expr matches: { count, matches = { { ref,
-- role, name, tag, text, visible, value, label, checked, disabled }… } }
-- (the first opts.limit, 20 by default; ref, value, label and checked nil
-- where the element has none; disabled as toBeDisabled reads it; text
-- cut at opts.text_max characters, 500 by default; with opts.viewport, in_viewport: whether part of its box is in the
-- viewport; with opts.attribute, a name, attribute: that attribute's
-- value, nil where the element has none; with opts.css, a property's
-- name, css: its computed value).  opts.frame runs it in a frame (a ref
-- or a frame name);
-- opts.batch (a string) shares the bridge's locator engine with the other
-- calls of the same batch while the page does not change (a run of checks).
function assertions.facts(page, expr, opts)
  opts = opts or {}
  -- A chain through frames is read in the frame it reaches.
  local frame, inner = require("vdx.locators").descend(page, expr, opts.frame)
  if frame == false then return { count = 0, matches = {}, why = inner } end
  local res = page:bridge("locatorFacts", { inner, { limit = opts.limit or 20, batch = opts.batch,
    text_max = opts.text_max, viewport = opts.viewport or nil, attribute = opts.attribute, css = opts.css } },
    { frame = frame })
  local out = { count = math.tointeger(res.count) or 0, matches = {} }
  for i, m in ipairs(res.matches or {}) do
    out.matches[i] = { ref = str(m.ref), role = str(m.role), name = str(m.name) or "", tag = str(m.tag),
      text = str(m.text) or "", visible = m.visible == true, value = str(m.value), label = str(m.label),
      checked = nil, disabled = m.disabled == true }
    if m.checked == true or m.checked == false or m.checked == "mixed" then out.matches[i].checked = m.checked end
    if opts.viewport then out.matches[i].in_viewport = m.in_viewport == true end
    if opts.attribute then out.matches[i].attribute = str(m.attribute) end
    if opts.css then out.matches[i].css = str(m.css) end
  end
  return out
end

--- The locator of ref, verified on the live page to match it alone, as
-- { locator =, positional =, relative =, frame =, from_page = }: locator
-- is what a test writes, relative the part that matches in the ref's own
-- document (the same for the main frame), frame the name of that frame
-- ("main" or "f<K>"), and from_page whether locator starts at the page (a
-- ref in a child frame needs the path into it).  The one place a ref
-- becomes a locator here: page:generate_locator when the page has it,
-- else vdx.flow_locator.  Raises UnknownRef or StaleRef for a ref the page
-- does not have; returns nil and why when no locator matches it alone.
-- batch: as assertions.facts takes it; avoid: a text the locator is not
-- to find the element by (page:generate_locator's), the one a check of
-- it records.
function assertions.locator_of(page, ref, batch, avoid)
  local _, frame = vdx.check_ref(ref)
  if page.generate_locator then
    local r = page:generate_locator(ref, { alternatives = 0, batch = batch, avoid = avoid })
    if type(r) ~= "table" or not str(r.locator) then return nil, r and str(r.note) or "no locator" end
    return { locator = r.locator, positional = r.positional == true, relative = str(r.frame_relative) or r.locator,
      frame = frame, from_page = frame == "main" or str(r.frame_locator) ~= nil }
  end
  local expr, note = flow_locator.synthesize(page, ref)
  if not expr then return nil, note end
  -- A CSS path that counts siblings is as positional as nth().
  return { locator = expr, positional = note ~= nil or expr:find(":nth%-") ~= nil, relative = expr, frame = frame,
    from_page = frame == "main" }
end

--- getByRole(role, { name }) in codegen's form (exact when asked).
function assertions.by_role(role, name, exact)
  return flow_locator.of { role = role, name = name ~= "" and name or nil, exact = exact }
end

--- getByText(text) in codegen's form (exact when asked).
function assertions.by_text(text, exact)
  return flow_locator.of { text = text, exact = exact }
end

-- A JavaScript literal of an assertion value.
local function literal(v)
  if type(v) == "table" then
    local parts = {}
    for i, x in ipairs(v) do parts[i] = literal(x) end
    return "[" .. table.concat(parts, ", ") .. "]"
  end
  if math.type(v) then return tostring(v) end
  return assertions.quote(v)
end

--- The arguments of step's matcher, as JavaScript: its value's literal,
-- after the attribute's name for toHaveAttribute (`'aria-sort', 'ascending'`)
-- or the property's for toHaveCSS (step.attribute holds either).
function assertions.args(step)
  local arg = literal(step.value)
  if step.attribute then arg = assertions.quote(step.attribute) .. ", " .. arg end
  return arg
end

--- The Playwright line of an assertion step:
-- `await expect(page.getByText('Saved')).toBeVisible();` (a toHaveAttribute
-- step names its attribute: { attribute = "aria-sort", value = "ascending" }).
function assertions.code(step, receiver)
  local matcher = step.matcher
  local arg = step.value ~= nil and assertions.args(step) or ""
  return ("await expect(%s).%s(%s);"):format(require("vdx.pw_spec").on(receiver or "page", step.locator), matcher, arg)
end

--- The calls of a locator, in order (`getByTestId('card')`,
-- `filter({ hasText: 'P2' })`, `getByRole('button')`), or nil when it
-- is not a plain chain of calls (each a name and balanced parentheses).
function assertions.segments(locator)
  local segs = {}
  for seg in (locator .. "."):gmatch("(%a+%b())%.") do segs[#segs + 1] = seg end
  if #segs == 0 or table.concat(segs, ".") ~= locator then return nil end
  return segs
end

--- The scope of a locator: everything before its last call
-- (`getByTestId('card').filter({ hasText: 'P2' })` of `getByTestId('card')
-- .filter({ hasText: 'P2' }).getByRole('button', …)`), or nil when it is
-- one call or no plain chain.
function assertions.scope_of(locator)
  local segs = type(locator) == "string" and assertions.segments(locator)
  if not segs or #segs < 2 then return nil end
  return table.concat(segs, ".", 1, #segs - 1)
end

--- The short form of step for a list of proposals: the locator, the
-- matcher and its argument, without the `await expect(page.…)` around
-- them (`getByText('Saved') toBeVisible`, `getByRole('list', { name:
-- 'Tasks' }).getByRole('listitem') toHaveCount(2)`).  A scope's options
-- longer than SHORT_OPTIONS characters are elided (`getByTestId('row',
-- …)`), and so are those of a scope the answer shows whole already (shown:
-- a set of scope calls, from its `Locator:` lines): what is printed whole
-- can be pasted as it is, and the export writes every verified locator
-- whole.
local SHORT_OPTIONS = 40
function assertions.short(step, shown)
  local arg = step.value ~= nil and ("(" .. assertions.args(step) .. ")") or ""
  local segs = assertions.segments(step.locator)
  local loc = step.locator
  if segs and #segs > 1 then
    for i = 1, #segs - 1 do
      local head, opts = segs[i]:match("^(%a+%([^,)]*),(.*)%)$")
      if head and (#opts > SHORT_OPTIONS or (shown and shown[segs[i]])) then segs[i] = head .. ", …)" end
    end
    loc = table.concat(segs, ".")
  end
  return ("%s %s%s"):format(loc, step.matcher, arg)
end

--- True when the element texts (normalized) match the texts want in
-- order, as Playwright's array forms do: toHaveText, each equal and as
-- many (contains false); toContainText, a subset in order, each
-- containing its text (contains true).
function assertions.texts_match(texts, want, contains)
  if not contains then
    if #texts ~= #want then return false end
    for i, w in ipairs(want) do
      if texts[i] ~= assertions.normalize(w) then return false end
    end
    return true
  end
  local j = 1
  for _, t in ipairs(texts) do
    if j <= #want and t:find(assertions.normalize(want[j]), 1, true) then j = j + 1 end
  end
  return j > #want
end
local texts_match = assertions.texts_match

--- Checks step on the live page: true when its locator matches exactly
-- one element (toHaveCount: exactly step.value; the array forms of
-- toHaveText and toContainText: the items; toBeHidden and
-- not.toBeVisible: none, or one that is hidden) and its state holds;
-- else false and the facts read.  frame and batch: as assertions.facts
-- takes them.
function assertions.holds(page, step, frame, batch)
  local ok, f = pcall(assertions.facts_for, page, step, frame, batch)
  if not ok then return false, nil end
  return assertions.judge(step, f), f
end

-- The matchers that read where the element is on screen.
local VIEWPORT = { toBeInViewport = true, ["not.toBeInViewport"] = true }

--- The facts a check of step reads on the live page: assertions.facts of
-- its locator with what its matcher needs (every match up to 200, the
-- whole text of one element, whether it is in the viewport, the value of
-- the attribute a toHaveAttribute names).
function assertions.facts_for(page, step, frame, batch)
  return assertions.facts(page, step.locator, { frame = frame, limit = 200, batch = batch,
    text_max = assertions.text_max(step), viewport = VIEWPORT[step.matcher],
    attribute = step.matcher == "toHaveAttribute" and step.attribute or nil,
    css = step.matcher == "toHaveCSS" and step.attribute or nil })
end

--- The characters of an element's text a check of step reads (the
-- text_max of assertions.facts): the whole text, up to 200,000, for a
-- toHaveText or toContainText of one element (a section's text runs past
-- the default 500, and its end is what a check may be of), the default
-- for the rest.
function assertions.text_max(step)
  if (step.matcher == "toHaveText" or step.matcher == "toContainText") and type(step.value) ~= "table" then
    return 200000
  end
  return nil
end

--- The matchers assertions.judge decides, as a set (the flake gate's
-- replay checks each of them through it).
assertions.JUDGED = { toBeVisible = true, toHaveCount = true, toHaveText = true, toContainText = true,
  toBeHidden = true, ["not.toBeVisible"] = true, toHaveValue = true, toBeChecked = true,
  ["not.toBeChecked"] = true, toBeInViewport = true, ["not.toBeInViewport"] = true, toBeEmpty = true,
  toHaveAttribute = true, toHaveCSS = true, toBeDisabled = true, toBeEnabled = true }

--- True when step holds on the facts f its locator has (assertions.facts
-- with a limit that covers what the matcher reads: every match for the
-- array forms, the first one for the others).
function assertions.judge(step, f)
  local m, matcher, v = f.matches[1], step.matcher, step.value
  if matcher == "toHaveCount" then return f.count == math.tointeger(tonumber(v)) end
  if matcher == "toBeHidden" or matcher == "not.toBeVisible" then
    return f.count == 0 or (f.count == 1 and not m.visible)
  end
  if type(v) == "table" then
    local texts = {}
    for i, x in ipairs(f.matches) do texts[i] = x.text end
    if f.count > #f.matches then return false end
    return texts_match(texts, v, matcher == "toContainText")
  end
  if f.count ~= 1 then return false end
  if matcher == "toBeVisible" then return m.visible end
  if matcher == "toBeInViewport" then return m.in_viewport == true end
  if matcher == "toBeEmpty" then return m.text == "" and (m.value == nil or m.value == "") end
  if matcher == "not.toBeInViewport" then return m.in_viewport == false end
  if matcher == "toHaveText" then return m.text == assertions.normalize(v) end
  if matcher == "toContainText" then return m.text:find(assertions.normalize(v), 1, true) ~= nil end
  if matcher == "toHaveValue" then return m.value == v end
  if matcher == "toHaveAttribute" then return m.attribute == v end
  if matcher == "toHaveCSS" then return m.css == v end
  if matcher == "toBeChecked" then return m.checked == true end
  if matcher == "not.toBeChecked" then return m.checked == false end
  if matcher == "toBeDisabled" then return m.disabled == true end
  if matcher == "toBeEnabled" then return m.disabled == false end
  return false
end

--- Records step in the session log (when the tool runs in the MCP
-- server) under the current role, naming the tool; returns the step, or
-- the same check recorded just before it, which stands for it.
function assertions.record(ctx, step, tool)
  step.kind, step.tool = "assert", tool
  if ctx.session then
    -- As an action's step: the role's first step of a test opens its page
    -- first (a role first used after browser_start_test had none).
    local kept = require("vdx.builtin.util").record(ctx, step)
    -- The same check made just before is that step (vdx.session_log).
    if type(kept) == "table" then return kept end
  end
  return step
end

return assertions
