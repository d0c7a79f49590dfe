--- vdx.builtin.expect: an acting tool's `expect` argument.  An agent that
-- knows what its action should show ("Subscribed: Ada") says so in the
-- same call: after the action the texts are waited for (bounded), each is
-- checked as browser_verify_text_visible checks it and recorded as an
-- assertion of the exported test, and the change report is taken once
-- they show (a list that re-renders on the next task is then in it).  A
-- text that does not show makes the answer an error that still says what
-- the action did and what the page has instead.
local errors = require "vdx.errors"

local expect = {}

--- How long an expected text may take to show, in milliseconds.
expect.WAIT_MS = 5000

--- The schema of the argument.
expect.SCHEMA = { type = "array", minItems = 1, maxItems = 10, items = { type = "string", minLength = 1 },
  description = "Texts it should show (waited for, kept as assertions)" }

local verify_text

-- The run function of browser_verify_text_visible (loaded on first use:
-- vdx.builtin.verify requires this module's neighbours).
local function verifier()
  if not verify_text then
    for _, def in ipairs(require "vdx.builtin.verify") do
      if def.name == "browser_verify_text_visible" then verify_text = def.run end
    end
  end
  return verify_text
end

--- Waits for each text of list on the role's page, each within
-- expect.WAIT_MS (one that does not show is left to expect.check to
-- report).
function expect.wait(ctx, list)
  local page = ctx:page()
  for _, text in ipairs(list) do
    local ok, e = pcall(page.wait_for, page, { text = text, timeout_ms = expect.WAIT_MS })
    -- A text that never showed is expect.check's to report; a cancelled
    -- call stays cancelled and a misuse is this module's bug to see.
    local kind = not ok and errors.normalize(e).type
    if kind == "Cancelled" or kind == "InvalidArgument" then error(e, 0) end
    -- One that took long is checked in the test as long (util.waited).
    if ok and type(e) == "table" then require("vdx.builtin.util").waited(ctx, tonumber(e.waited_ms) or 0) end
  end
end

-- How many times text occurs in s.
local function count(s, text)
  local n, at = 0, 1
  while true do
    local i, j = s:find(text, at, true)
    if not i then return n end
    n, at = n + 1, j + 1
  end
end

-- The roles whose snapshot line ends in the field's value.
local FIELDS = { textbox = true, searchbox = true, combobox = true, spinbutton = true }

-- Snapshot text s without the values of its text fields, which getByText
-- does not read (a name just typed is no text the page showed).
local function without_fields(s)
  return (s:gsub("[^\n]+", function(line)
    local role = line:match("^%s*%- (%a+)")
    if FIELDS[role] then return (line:gsub("(%])%: .*$", "%1")) end
  end))
end

--- The text of the page as the agent last saw it (the snapshot the
-- action's change report compares with), or nil; taken before the action.
function expect.before(ctx)
  local okp, page = pcall(ctx.page, ctx)
  return okp and require("vdx.changes").baseline_text(ctx.role, page) or nil
end

-- How many lines of snapshot text s show text as their whole text
-- (`- status: "1"`, `- text: 1`).
local function whole_lines(s, text)
  local n = 0
  for line in s:gmatch("[^\n]+") do
    local v = line:match(": (.*)$")
    if v and (v == text or v == '"' .. text .. '"') then n = n + 1 end
  end
  return n
end

-- How many lines of snapshot text s show text as their whole text or
-- name (`- button "Save"` too): what an exact getByText can find.
local function exact_lines(s, text)
  local n = whole_lines(s, text)
  for name in s:gmatch('\n%s*%- [%a]+ "([^"\n]*)"') do
    if name == text then n = n + 1 end
  end
  return n
end

-- Checks that an element of container scope shows text as its whole text
-- (`scope.getByText('1', { exact: true })`), alone and visible, and
-- records it as the verify tools record; -> true and a result as theirs,
-- or false.
local function exact_in(ctx, scope, text)
  local step = require("vdx.builtin.verify_common").exact_within(ctx:page(), scope, text)
  if not step then return false end
  require("vdx.assertions").record(ctx, step, "browser_verify_text_visible")
  return true, { structured = { assertion = step }, exact = true }
end

-- Live regions: what the page says of itself.  A text one of them shows
-- is checked there, as the change report proposes it
-- (`expect(getByRole('status')).toHaveText('2 items left')`), rather
-- than as a text anywhere on the page: run AT hand-edited two such
-- checks into the status's.
local LIVE = { status = true, alert = true, log = true, timer = true }

--- Whether the expected texts' facts (expect.check's) cover what the
-- live region of diff entry e says: one of them holds its whole text
-- ("Count: 1" of a count's "1"), or was checked on a region of its role.
-- A brief report proposes what a status said only when none does
-- (vdx.changes' said).
function expect.covers(facts, e)
  local assertions = require "vdx.assertions"
  local said = assertions.normalize(e.value or "")
  for _, f in ipairs(facts or {}) do
    if f.ok and assertions.normalize(f.text or ""):find(said, 1, true) then return true end
    local a = type(f.assertion) == "table" and f.assertion.locator
    if type(a) == "string" and a:find("getByRole('" .. e.role .. "'", 1, true) then return true end
  end
  return false
end

-- Whether a live region (LIVE) of snapshot text s shows text, on its
-- line or one under it.
local function live_said(s, text)
  local live
  for line in s:gmatch("[^\n]+") do
    local indent, role = line:match("^(%s*)%- (%a+)")
    if indent then
      if live and #indent <= live then live = nil end
      if not live and LIVE[role] then live = #indent end
      if live and line:find(text, 1, true) then return true end
    end
  end
  return false
end

-- The one visible match of text's getByText in the main frame, else in
-- one child frame: the match, its index among the matches, and the
-- frame's name ("main" or "f1") and chain into it ("" or
-- "getByTitle('Payment').contentFrame()."); nil when none or several.
local function one_shown(page, text)
  local common = require "vdx.builtin.verify_common"
  local function one(frame) return common.one_visible(page, text, frame) end
  local hit, at = one(nil)
  if hit then return hit, at, "main", "" end
  if at == true then return nil end
  -- (A payment form's status: run AY's expect there was a page text.)
  local frame, hit2, at2 = common.in_child_frames(page, one)
  if not frame then return nil end
  local okp, path = pcall(require("vdx.locators").frame_path, page, frame)
  if not okp or not path then return nil end
  return hit2, at2, frame, path .. "."
end

-- The locator of the labelled form or section (proposals.labelled_scope)
-- that the live region of role showing text is in, read from the role's
-- last whole snapshot (the report's, just taken), else nil: as the
-- report proposes it.
local function labelled_scope(ctx, page, role, text)
  local whole, lines = require("vdx.changes").baseline_text(ctx.role, page)
  if not whole then return nil end
  if not lines then
    lines = {}
    for line in whole:gmatch("[^\n]+") do lines[#lines + 1] = line end
  end
  local A, find = require "vdx.assertions", require "vdx.find"
  local needle = A.normalize(text)
  -- (Each line parsed only when read: a page's whole snapshot is long.)
  local parsed = setmetatable({}, { __index = function(t, j)
    local p = lines[j] and find.parse_line(lines[j]) or false
    t[j] = p
    return p
  end })
  for i, line in ipairs(lines) do
    local p = line:find("- " .. role, 1, true) and parsed[i]
    if p and p.role == role and A.normalize(p.text):find(needle, 1, true) then
      local path = find.path_of(parsed, i)
      for k = #path, 1, -1 do
        local q = parsed[path[k]]
        if q.name ~= "" then
          local a = require("vdx.proposals").labelled_scope(q, needle)
          return a and A.by_role(a.role, a.name) or nil
        end
      end
      return nil
    end
  end
  return nil
end

-- The longest text of a live region an expected part of it is checked
-- as in whole.
local FULL_MAX = 160

-- Checks that the one visible element showing text is a live region and
-- records the check on it (toHaveText of all it shows when text is that,
-- or a part and the rest has no number, else toContainText); -> true and
-- a result as the verify tools', or false.
local function in_live_region(ctx, text)
  local A = require "vdx.assertions"
  local page = ctx:page()
  local hit, at, frame, path = one_shown(page, text)
  if not hit or not LIVE[hit.role] then return false end
  local whole = A.normalize(hit.text or "") == A.normalize(text)
  local candidates = {}
  if (hit.name or "") ~= "" then candidates[1] = path .. A.by_role(hit.role, hit.name, true) end
  local scope = frame == "main" and labelled_scope(ctx, page, hit.role, text)
  if scope then candidates[#candidates + 1] = scope .. "." .. A.by_role(hit.role) end
  candidates[#candidates + 1] = path .. A.by_role(hit.role)
  -- One status of several (a section's each): through its container, by
  -- the page's locator of it, which needs a ref (a status has none).
  local ref = hit.ref
  if not ref and frame == "main" then
    local okr, r = pcall(page.bridge, page, "locatorCount", { A.by_text(text), { max_refs = at, act = true } },
      { frame = "main" })
    ref = okr and type(r) == "table" and type(r.refs) == "table" and r.refs[at] or nil
  end
  if type(ref) == "string" then
    -- (Not one found by the very text it checks.)
    local okl, l = pcall(A.locator_of, page, ref, nil, text)
    if okl and l and not l.positional and l.from_page and frame == "main"
        and not l.locator:find(A.normalize(text), 1, true) then
      candidates[#candidates + 1] = l.locator
    end
  end
  -- A part of what it says is checked as all it says when the rest holds
  -- no number (an id, a time, a count the next run may change): runs CE
  -- and CG each spent a verify on the status's whole text after it.
  -- (The test's own token is no such number: it is the run's, written
  -- ${run}, run CO.)
  local full = not whole and A.normalize(hit.text or "")
  local plain = require("vdx.remembered").plain
  local rest = full and full:gsub(plain(A.normalize(text)), "")
  local token = rest and ctx.session and ctx.session:run_token()
  if token then rest = rest:gsub(plain(token), "") end
  if full and (#full > FULL_MAX or rest:find("%d")) then full = nil end
  for _, loc in ipairs(candidates) do
    local okc, c = pcall(A.facts, page, loc, { limit = 2 })
    if okc and c.count == 1 then
      for _, step in ipairs { full and { matcher = "toHaveText", locator = loc, value = full } or false,
          { matcher = whole and "toHaveText" or "toContainText", locator = loc, value = text } } do
        if step and A.holds(page, step) then
          A.record(ctx, step, "browser_verify_text_visible")
          return true, { structured = { assertion = step } }
        end
      end
    end
  end
  return false
end

-- " (step N)" of a recorded check a, as the verify tools' answers end
-- (run CJ worked out by elimination which step to drop), or "".
local function step_of(a)
  return a and a.no and (" (step %d)"):format(a.no) or ""
end

--- Checks and records each text of list; returns the answer's lines and
-- whether all held ({ text, ok, assertion? } per text in the third).  A
-- text that before (expect.before's) already showed as often as the page
-- shows it now is not recorded: it would pass without the action; the
-- line says so.  acted: the action's locator; a text its container shows
-- is checked there (`expect(<the section>).toContainText(…)`), so a page
-- of alike widgets does not lend another's, else on the whole page.
function expect.check(ctx, list, before, acted)
  local scope = require("vdx.assertions").scope_of(acted)
  local run, lines, all, facts = verifier(), {}, true, {}
  -- (Texts as getByText reads them: no field's value.)
  local after = before and without_fields(expect.before(ctx) or "")
  before = before and without_fields(before)
  for i, text in ipairs(list) do
    local ok, r
    -- As often on the page as before ("Usage", a tab's name, expected of
    -- a key press that did nothing): shown without the action.
    local was = before and count(before, text) or 0
    if was > 0 and after and count(after, text) <= was then
      -- What a live region still says is the app's word that the action
      -- left it so (run BX's "1 item left" after Clear completed): kept as
      -- that; any other text proves nothing of the action.
      local kept, lr = in_live_region(ctx, text)
      local a = kept and lr.structured.assertion
      -- (A live region that says it only now, the text shown elsewhere
      -- before, an option's "Iceland" then "Shipping to Iceland", run CE:
      -- the action made it say so.)
      local still = a and live_said(before, text)
      lines[#lines + 1] = a and ("✅ Expected %q: recorded %s%s%s"):format(text, require("vdx.assertions").short(a),
          step_of(a), still and " (its live region said it before the action too: this checks it still does)" or "")
        or ("⚠️ Expected %q was on the page before the action too: it proves nothing of it, so it "
        .. "is not recorded; expect a text the action makes appear"):format(text)
      facts[i] = { text = text, ok = true, before = still or not a or nil, assertion = a or nil }
      goto next
    end
    ok, r = false, nil
    -- A live region that shows it, first: what the app says of the action
    -- (run BO's payment status, in the form's frame, was checked as a text
    -- of the form where a plain click proposed the status).
    ok, r = in_live_region(ctx, text)
    -- Then an element of the container that shows it exactly: the
    -- container's whole text would hold a text the page showed before
    -- ("1", a count's new value, in a section's prose too), and "Count:
    -- 20" for "Count: 2" (run BF read the region's toContainText as
    -- looser than the exact checks the change report proposed).
    if not ok and scope and not scope:find(text, 1, true) then ok, r = exact_in(ctx, scope, text) end
    -- (Not a container found by that very text: the check would hold there by construction.)
    if not ok and scope and not scope:find(text, 1, true) then
      ok, r = pcall(run, ctx, { text = text, locator = scope })
    end
    if ok and not (type(r) == "table" and r.structured and r.structured.assertion) then
      -- Agreed but not recorded there (the scope is in a frame): as a page's text.
      ok = false
    end
    if not ok then
      if scope and errors.normalize(r).type == "Cancelled" then error(r, 0) end
      ok, r = pcall(run, ctx, { text = text })
    end
    if ok then
      local a = type(r) == "table" and r.structured and r.structured.assertion
      -- The check as recorded, in short, whatever it looks in: runs AV and
      -- AZ read a bare "recorded" and opened the file to see where.
      local A = require "vdx.assertions"
      local where = a and (" " .. A.short(a)) or ""
      lines[#lines + 1] = a and ("✅ Expected %q: recorded%s%s"):format(text, where, step_of(a))
        or ("✅ Expected %q: %s"):format(text, (tostring(r.text or ""):gsub("^✅ Page agrees%.? ?", "")))
      -- (A role and name the page did not show before, a link of a
      -- menu that was closed, found nothing that was there.)
      local role, name
      if a then role, name = a.locator:match("^getByRole%('(%a+)', { name: '([^'\\]*)' }%)$") end
      local shown_before = not role or not before
        or (require("vdx.snapshot_diff").count_named(before, role, name, false, 1) or 1) > 0
      -- (An exact text in the container: only a line that showed just it
      -- may have been there.)
      -- (And counted so, as an exact check finds it: run ER's "1" was
      -- said to have shown 727 times, its count inside longer texts.)
      if type(r) == "table" and r.exact then
        was = whole_lines(before or "", text)
        shown_before = was > 0
      elseif a and tostring(a.locator):find("exact: true", 1, true) then
        was = exact_lines("\n" .. (before or ""), text)
      end
      if a and was > 0 and shown_before then
        -- More often now than before ("Usage": a tab's name, now a panel's
        -- too): the check may have found the element that was there.
        lines[#lines + 1] = ("⚠️ %q showed %d time%s before the action: if that line finds what was there "
          .. "already, it proves nothing of the action; expect a longer text the action made appear")
          :format(text, was, was == 1 and "" or "s")
      end
      -- (Run BM's expect= "Cart (1)" got no word of the count a proposal gets.)
      local note = a and require("vdx.changes").count_note(ctx.session, text:match("[^\n]-%(%d+%)"), ctx.role.name)
      -- With the check's step, which drop takes (run BY could not tell it).
      local no = note and a.no
      if no then note = note:gsub("%.%)$", ("; browser_export_test drop=[%d] takes this check out.)"):format(no)) end
      if note then lines[#lines + 1] = note end
      facts[i] = { text = text, ok = true, assertion = a or nil }
    else
      local e = errors.normalize(r)
      if e.type == "Cancelled" then error(r, 0) end
      all = false
      local actual = type(e.actual) == "table" and table.concat(e.actual, " | ") or nil
      lines[#lines + 1] = ("❌ Expected %q: %s%s. The action was done%s; no check of it is recorded: verify what "
        .. "the page shows (browser_verify_text_visible)"):format(text, tostring(e.message):match("^[^\n]*"),
        actual and ("; the page has: " .. actual) or "", ctx.session and " and is a step of the test" or "")
      facts[i] = { text = text, ok = false, error = e.type }
    end
    ::next::
  end
  return lines, all, facts
end

return expect
