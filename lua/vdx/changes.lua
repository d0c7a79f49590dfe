--- vdx.changes: what an action changed on the page, for the answer of
-- every acting tool, so the agent sees the effect without a snapshot of
-- its own (a snapshot of a busy page is tens of thousands of characters;
-- the report is bounded at about a thousand).  After the action it takes
-- a snapshot, compares it with the role's previous one (vdx.snapshot_diff)
-- and keeps it as the next baseline, so each report covers one step.  A
-- navigation to another document is told as its URL and title.  From the
-- change it proposes web-first assertions, each checked on the live page
-- (vdx.assertions): proposals only; a verify tool records one.
local vdx = require "vdx"
local assertions = require "vdx.assertions"
local json = require "vdx.json"
local diff = require "vdx.snapshot_diff"
local snapshot = require "vdx.snapshot"
local proposals = require "vdx.proposals"
local outline = require "vdx.outline"
local frames_ready = require "vdx.frames_ready"
local opened_options = require "vdx.opened_options"
local report_lines = require "vdx.changes_lines"

local changes = {}

--- How much of the change the answer shows: lines and characters.
changes.MAX_LINES = 12
changes.MAX_CHARS = 1000
--- How many characters a brief report (opts.brief) lists elements in.
changes.BRIEF_CHARS = 240
--- The budget of the snapshot taken after the action (the whole page, to
-- compare whole pages).
changes.BUDGET_TOKENS = 100000

-- How many navigations page has seen (page:mark's count), or nil for a
-- page that does not count them.
local function navigations(page)
  local ok, m = pcall(function() return page:mark() end)
  return ok and type(m) == "table" and m.nav or nil
end

-- True when snap shows the current document of page: taken of this page,
-- with no navigation since (nav: the action's own navigation, within the
-- document, is allowed).
local function comparable(snap, page, nav)
  if not (snap and snap.whole_text) then return false end
  if snap.page ~= page then return false end
  return nav ~= nil or snap.nav == navigations(page)
end

--- Whether snap, a role's snapshot stamped by changes.stamp (or nil),
-- was taken of page's current document, whole or a part: the agent has
-- its refs.
function changes.current(snap, page)
  return snap ~= nil and snap.page == page and snap.nav == navigations(page)
end

-- True when a snapshot taken with opts shows part of the page (a root,
-- a depth, an offset, the interactive lines): it is no whole baseline.
local function partial(opts)
  return opts.root or opts.depth or opts.offset or opts.interactive
end

--- Stamps snap, a snapshot of page taken with opts (those of
-- snapshot.take), with what a later report needs to compare the page
-- with it: which page, the page's navigation count, and the text of the
-- whole page (snap.whole_text, and its lines, snap.whole_lines, when the
-- take gave them, which spare the comparison a split; a snapshot cut by its budget takes the
-- whole one again for it, unless it was taken with changes.whole_tokens
-- and carries it already; one limited by root, depth or offset has none,
-- and the report compares with the one before: given the role, whose
-- last_snapshot snap is about to replace, that one is kept for it, or,
-- when the role has no whole look at this document, one is taken now).
function changes.stamp(page, snap, opts, role)
  opts = opts or {}
  snap.page, snap.nav = page, navigations(page)
  if partial(opts) then
    snap.whole_text, snap.whole_lines = nil, nil
    if role and role.last_snapshot and role.last_snapshot.whole_text then role.change_base = role.last_snapshot end
    if role and not comparable(role.change_base, page, nil) then
      -- The agent's first look at this document is a part: the next
      -- action's report still compares with the whole page, taken now.
      local ok, whole = pcall(snapshot.take, page, { budget_tokens = changes.BUDGET_TOKENS }, nil, nil, true)
      if not ok and vdx.is_error(whole, "Cancelled") then error(whole, 0) end
      if ok then
        whole.page, whole.nav, whole.whole_text, whole.whole_lines = page, snap.nav, whole.text, whole.lines
        role.change_base = whole
      end
    end
    return snap
  end
  if snap.whole_text then return snap end -- taken with changes.whole_tokens(opts)
  if snap.truncated and (opts.budget_tokens or 0) < changes.BUDGET_TOKENS then
    local ok, whole = pcall(snapshot.take, page, { budget_tokens = changes.BUDGET_TOKENS }, nil, nil, true)
    snap.whole_text, snap.whole_lines = ok and whole.text or nil, ok and whole.lines or nil
  else
    snap.whole_text, snap.whole_lines = snap.text, snap.lines
  end
  return snap
end

--- The whole_tokens to give snapshot.take for a snapshot taken with opts
-- (those of snapshot.take) that changes.stamp will stamp: its one walk then
-- also yields the whole page's text, where stamp would otherwise walk the
-- page again when the budget cut it.  nil when stamp keeps no whole text
-- for such a snapshot, or its own budget is the whole one.
function changes.whole_tokens(opts)
  if partial(opts) then return nil end
  if (opts.budget_tokens or snapshot.DEFAULT_BUDGET) >= changes.BUDGET_TOKENS then return nil end
  return changes.BUDGET_TOKENS
end

-- The snapshot the report compares with: the role's last one when it
-- shows the current document, else the last one taken here.
local function baseline(role, page, nav)
  if comparable(role.last_snapshot, page, nav) then return role.last_snapshot end
  if comparable(role.change_base, page, nav) then return role.change_base end
  return nil
end

--- The whole text of the snapshot an action's report on role's page
-- would compare with now (the page as the agent last saw it), and its
-- lines (read only), or nil.
function changes.baseline_text(role, page)
  local b = role and page and baseline(role, page, nil)
  if not b then return nil end
  return b.whole_text, b.whole_lines
end

-- The set of what renewed_line told the role's agent already.
local function told_anew(role)
  role.anew_told = role.anew_told or {}
  return role.anew_told
end

-- The new URL of a navigation within the document: only its fragment
-- when that is all that changed.
local function moved_to(old, new)
  old, new = tostring(old), tostring(new)
  local path = new:match("^([^#]*)#")
  if path and old:match("^[^#]*") == path then return new:sub(#path + 1) end
  return new
end

-- The focused element's line of a snapshot text (the one marked
-- [active]), unindented, without the mark, or nil.
local function focused_line(text)
  text = text or ""
  -- (A plain find, then the line around it: a pattern that starts with
  -- [^\n]* tries every position of a 40 KB text, 20 ms a report.)
  local at = text:find("[active]", 1, true)
  if not at then return nil end
  local from = at
  while from > 1 and text:byte(from - 1) ~= 10 do from = from - 1 end
  local line = text:match("^[^\n]*", from)
  return (line:gsub("^%s*%- ", ""):gsub(" %[active%]", ""))
end

-- A submit the form's validation stopped: the browser focuses the first
-- invalid field and sends nothing, which the comparison (states it had
-- already) may not show.  Returns the line that says so, with the message
-- the browser shows there (run BD's brief asked what the form says, and
-- the answer had only the focus), or nil, and (with propose) the check
-- that the field is invalid (proposals.invalid).
local function refused_submit(page, snap, base, propose)
  local now, was = focused_line(snap.text), focused_line(base.whole_text)
  if not (now and now:find("[invalid]", 1, true)) or (was and was:find("[invalid]", 1, true)) then return nil end
  local role, name, ref = now:match('^(%a+) "(.-)".-%[ref=([%w_]+)%]')
  local ok, d = pcall(page.describe, page, ref)
  local says = ok and type(d) == "table" and type(d.validation) == "string"
    and (' (the browser says "%s")'):format(d.validation) or ""
  return "Focus now: " .. now .. " — the form's validation stopped the submit there" .. says,
    role and propose and proposals.invalid(page, role, name, ref) or nil
end

-- The scope calls the action's `Locator:` lines show whole (res.locator,
-- res.locators): a proposal under the same scope need not repeat them.
local function scopes_shown(res)
  local set = {}
  if type(res) ~= "table" then return set end
  local list = type(res.locators) == "table" and res.locators or { res.locator }
  for _, l in ipairs(list) do
    local segs = type(l) == "string" and assertions.segments(l)
    for i = 1, segs and #segs - 1 or 0 do set[segs[i]] = true end
  end
  return set
end

--- Records that the answer of role's current call told page's URL and
-- title (a navigation's answer or report, a snapshot's head); title false
-- when it told the URL alone.
function changes.told_page(role, page, url, title)
  if type(role) == "table" then role.page_told = { page = page, url = url, title = title, call = role.calls } end
end

--- The head of a snapshot of page ("Page URL: …\nPage Title: …\n"), or ""
-- when the answer of role's call just before told this page with this URL
-- and title (its navigation, the snapshot before; what came between an
-- error or another action, the head is told again): the agent has just
-- read them.  Records the page as told.  always: the head in any case
-- (a snapshot with nothing else to show).
function changes.page_head(role, page, url, title, always)
  title = title or ""
  local t = type(role) == "table" and role.page_told
  local told = not always and t and t.page == page and t.url == url and t.title == title
    and t.call ~= nil and role.calls ~= nil and t.call == role.calls - 1
  changes.told_page(role, page, url, title)
  if told then return "" end
  return ("Page URL: %s\nPage Title: %s\n"):format(tostring(url), title)
end

local function headline(snap)
  return ('%s — "%s"'):format(tostring(snap.url), tostring(snap.title or ""))
end

-- The action's target in the main frame ({ ref =, locator = }, its
-- locator taken before the action) of its result res, or nil.
local function acted_of(res)
  if type(res) == "table" and type(res.ref) == "string" and type(res.locator) == "string"
    and res.ref:find("^e%d") then
    return { ref = res.ref, locator = res.locator }
  end
end

-- The action steps of role's last call in log that acted, last first:
-- its last action step and the ones of the same call before it (a
-- browser_fill_form records one per field; a browser_type call records
-- one), up to a step of another tool or of another role's action.
local function last_call(log, role)
  local steps, out = log and log:list() or {}, {}
  for i = #steps, 1, -1 do
    local st = steps[i]
    if st.kind == "action" and st.role == role then
      if out[1] and (st.tool ~= out[1].tool or st.tool ~= "browser_fill_form") then break end
      out[#out + 1] = st
    elseif out[1] and st.kind == "action" then
      break
    end
  end
  return out
end

-- Whether the last call of role in log that acted sent a request that
-- changes data on the server (any method but GET, HEAD and OPTIONS,
-- answered).
local function sent_writes(log, role)
  for _, st in ipairs(last_call(log, role)) do
    for _, line in ipairs(type(st.fetched) == "table" and st.fetched or {}) do
      if require("vdx.session_races").write_of(line) then return true end
    end
  end
  return false
end

-- The texts the last call of role in log typed or filled into fields
-- (browser_type, browser_fill_form's text fields), as a set, or nil.
local function typed_texts(log, role)
  local set
  for _, st in ipairs(last_call(log, role)) do
    if (st.tool == "browser_type" or st.tool == "browser_fill_form") and (st.action == "fill" or st.action == "type")
      and type(st.value) == "string" then
      set = set or {}
      set[st.value] = true
    end
  end
  return set
end

--- The note, once a session of log, on a check of counted, a text that
-- names a count ('Cart (1)') after an action of role that sent the
-- server a change: it is what this run's account holds, so a test that
-- does not start from it reads another (dropped: the check is not
-- proposed, and the note says so).  nil when counted is nil, the action
-- changed nothing on a server (a cart the page keeps: a fresh context
-- starts it anew) or log said it already.
function changes.count_note(log, counted, role, dropped)
  if not log or log.count_told or type(counted) ~= "string" or not sent_writes(log, role) then return nil end
  log.count_told = true
  -- (A count alone is too short to remember: run BO's pattern \d+ was
  -- refused, so the words go with it.)
  local pattern = require("vdx.volatile").numbers_free(counted)
  return ("(%s %s what the account holds now: a test that does not start from the same count "
    .. "reads another. Check what the action added instead (the item itself), or browser_remember the count with "
    .. "its words before the action (pattern %s) to check it did not change.)"):format(counted,
      dropped and "is not proposed: it counts" or "counts", pattern)
end

-- The count a proposal names ('Cart (1)' of getByRole('link', { name:
-- 'Cart (1)' }), '4.7 (8 reviews)' of a getByText or a toHaveText: run
-- FC's rating count was proposed, and the next run reads 9), or nil.
local function counted_in(c)
  local loc = tostring(c.locator)
  return loc:match("name: '([^']-%(%d+%))'") or loc:match("'([^']-%(%d+ %a+%))'")
    or (type(c.value) == "string" and c.value:match("%(%d+ %a+%)$") and c.value) or nil
end

-- The report { text, structured } of lines out with the proposals cands
-- listed after them ("Holds now"), each with the id the export keeps it
-- by (no call of its own; outside a session its code line instead), in
-- structured.candidates.
local function with_candidates(ctx, res, out, cands, structured)
  -- A count in a name ('Cart (1)') after an action that changed data on
  -- the server is what this run's account holds: not proposed, and said
  -- so once a session (runs BC, BE and BH kept such a check, and the next
  -- run's cart held more; run EL read it proposed and warned of at once).
  local log = ctx.session
  local count_note, counted = nil, false
  for _, c in ipairs(cands) do counted = counted or counted_in(c) ~= nil end
  -- (The log is walked only when a candidate names a count.)
  if counted and log and ctx.role and sent_writes(log, ctx.role.name) then
    local kept = {}
    -- (A count in the run's own item, found through the run's token, is
    -- that item's alone: run FG's new product's "4.0 (1 reviews)".)
    local token = log:run_token()
    for _, c in ipairs(cands) do
      if counted_in(c) and not (token and tostring(c.locator):find(token, 1, true)) then
        count_note = count_note or changes.count_note(log, counted_in(c), ctx.role.name, true)
      else
        kept[#kept + 1] = c
      end
    end
    cands = kept
  end
  if #cands > 0 then
    -- How to keep one is said once a session, and so is what a scope cut
    -- to `…` stands for (run AJ read its files to see that `getByRole(
    -- 'region', …)` was the section its clicks were scoped to).
    local shown = scopes_shown(res)
    local cut, cut_shown, shorts = false, false, {}
    for i, c in ipairs(cands) do
      shorts[i] = c.short or assertions.short(c, shown)
      if not c.short and shorts[i]:find(", …)", 1, true) then
        cut = true
        for _, seg in ipairs(assertions.segments(c.locator) or {}) do cut_shown = cut_shown or shown[seg] == true end
      end
    end
    local notes = {}
    if log and not log.keep_told then notes[#notes + 1] = "export assertions=[id] keeps it" end
    if log and cut and not log.cut_told then
      notes[#notes + 1] = cut_shown and "`, …)` is the Locator line's scope, whole in the test"
        or "`, …)` is cut here, whole in the test"
      log.cut_told = true
    end
    out[#out + 1] = not log and "Holds now (browser_verify_* records one):"
      or #notes > 0 and ("Holds now (%s):"):format(table.concat(notes, "; ")) or "Holds now:"
    if log then log.keep_told = true end
    -- A check of what went is also one of what was there before the
    -- action, when the action is a step of the test (not a resize).
    local acted = log and log:last_action(ctx.role.name) ~= nil
    for i, c in ipairs(cands) do
      local before = acted and c.before or nil
      local id = log and log:propose { kind = "assert", role = ctx.role.name, matcher = c.matcher,
        locator = c.locator, value = c.value, attribute = c.attribute, positional = c.positional,
        before = before, count = c.count, tool = "change report" }
      out[#out + 1] = id and ("[%s] %s%s%s"):format(id, shorts[i],
        before and (", and " .. before .. " before the action") or "",
        c.count and (", and toHaveCount(%d)"):format(c.count) or "") or c.code
      structured.candidates[i] = { id = id, matcher = c.matcher, locator = c.locator, value = c.value,
        attribute = c.attribute, count = c.count, code = c.code }
    end
  end
  if count_note then out[#out + 1] = count_note end
  return { text = table.concat(out, "\n"), structured = structured }
end

--- result (a tool's answer, { text =, structured = }) with the checks
-- cands proposed as a change report proposes them ("Holds now:", with the
-- ids an export keeps), after the action the tool recorded; result as it
-- was when there are none.
function changes.proposed(ctx, result, cands)
  if #cands == 0 then return result end
  local r = with_candidates(ctx, nil, { result.text }, cands, { candidates = json.array {} })
  result.text = r.text
  result.structured = result.structured or {}
  result.structured.candidates = r.structured.candidates
  return result
end

-- What a live region without a name says now that it did not (a status,
-- an alert; not a count that changed), in d: a function said(covered,
-- recorded) -> { text, structured } of the verified check of one of them
-- that covered(entry) does not rule out (the texts the agent expected,
-- checked after the brief report), other than the checks recorded (a
-- list of steps), or nil; nil when no region says anything new.
local function said_later(ctx, res, page, d)
  local live = {}
  for _, list in ipairs { d.changed, d.added } do
    for _, e in ipairs(list) do
      -- (Not a counter that ticked, "1 item left" then "2 items left":
      -- the agent checks a count when it means to.)
      local ticked = e.was and (e.was.value or "") ~= ""
        and outline.numbers_as_one(e.was.value) == outline.numbers_as_one(e.value or "")
      local said = (e.name or "") == "" and (e.value or "") ~= ""
      if proposals.LIVE[e.role] and not e.in_frame and said and not ticked then live[#live + 1] = e end
    end
  end
  if #live == 0 then return nil end
  return function(covered, recorded)
    local left = {}
    for _, e in ipairs(live) do if not covered(e) then left[#left + 1] = e end end
    local cands = #left > 0 and proposals.said(page, left, acted_of(res), recorded) or {}
    if #cands == 0 then return nil end
    return with_candidates(ctx, res, {}, cands, { candidates = json.array {} })
  end
end

--- changes.report(ctx, res [, opts]) -> { text =, structured = } or nil:
-- what the action (whose result is res) changed on the role's page since
-- the previous snapshot, bounded, with verified assertion candidates
-- (none when opts.candidates is false; opts.brief: one line of counts and
-- the named elements added or changed, the checks of what went only, and
-- in the result's `said` the check of a live region's new text, for
-- after the expected texts (said_later); opts.view: a new
-- view of the page, which says nothing when there is no earlier look to
-- compare with; opts.focus: where focus is, after a press of the key
-- opts.key (on the element of opts.ref, or on what had focus), which
-- vdx.key_patterns tells of when nothing changed); nil
-- when the page is gone.  A frame added since the last
-- look is waited for first (vdx.frames_ready).  Keeps the snapshot it takes
-- as the role's last_snapshot.
function changes.report(ctx, res, opts)
  local page = ctx:page()
  if page:is_closed() then return nil end
  local role = ctx.role
  local nav = type(res) == "table" and type(res.navigation) == "table" and res.navigation or nil
  local base = baseline(role, page, nav)
  if base and not nav then
    local came = frames_ready.wait(page, role, base.whole_text)
    -- The action's step keeps the paths of the frames it brought (a
    -- payment form): its test waits for their load (session_export).
    local st = came and #came > 0 and ctx.session and ctx.session:last_action(role.name)
    if st then
      for _, name in ipairs(came) do
        local ok, info = pcall(page.bridge, page, "pageInfo", {}, { frame = name })
        local path = ok and type(info) == "table" and type(info.url) == "string" and info.url:match("^https?://[^/]+([^?#]*)")
        if path and path ~= "" then
          st.frames = st.frames or {}
          st.frames[#st.frames + 1] = path
        end
      end
    end
  end
  if nav and nav.same_document then
    -- The page's hashchange/popstate handlers run in tasks of their own,
    -- after the action settled: let them render first.
    pcall(page.bridge, page, "afterTasks", {}, { frame = "main" })
  end
  local sopts = { budget_tokens = changes.BUDGET_TOKENS }
  local snap = changes.stamp(page, snapshot.take(page, sopts, nil, nil, true), sopts)
  role.last_snapshot, role.change_base = snap, snap
  local shown = role.outlines_shown
  if shown and snap.url and shown[snap.url] then
    -- The page as the agent knows it now (the outline browser_navigate
    -- showed, and what the reports said since): a navigation answers "as
    -- shown before" only for this picture, not an older one.  A report
    -- that leaves changes out (cut, or brief) forgets it below.
    shown[snap.url] = select(3, outline.of(snap.text or ""))
  end
  -- (Run FM, after a report cut at "… 9 more changed lines", was told a
  -- reload of the cart was "as shown before", with its Checkout moved.)
  local function unseen() if shown and snap.url then shown[snap.url] = nil end end
  local lines = snap.lines and #snap.lines or select(2, (snap.text or ""):gsub("\n", "\n"))
  if nav and nav.same_document == false then
    -- The new page's outline, from the snapshot just taken, as
    -- browser_navigate gives it: the agent can act at once.
    local items, left = outline.of(snap.text or "")
    changes.told_page(role, page, snap.url, snap.title or "")
    local text = ("Navigated to %s (%d lines%s)"):format(headline(snap), lines,
      #items > 0 and "" or "; read them with browser_find or browser_snapshot")
    if #items > 0 then
      text = text .. "\nOutline:\n" .. table.concat(items, "\n")
      if left > 0 then text = text .. ("\n… %d more: browser_find(text=…) or browser_snapshot()"):format(left) end
    end
    local structured = { navigated = true, url = snap.url, title = snap.title, lines = lines }
    local cands = not (opts and opts.candidates == false)
      and require("vdx.proposals_url").arrived(page, base and base.url, snap.url, snap.text) or {}
    if #cands == 0 then return { text = text, structured = structured } end
    structured.candidates = json.array {}
    return with_candidates(ctx, res, { text }, cands, structured)
  end
  if not base or (base.url ~= snap.url and not nav) then
    -- (A new view with nothing to compare: the answer's first line says all.)
    local text = not (opts and opts.view) and ("Changes: no earlier look at this page to compare with (%d lines "
      .. "now: browser_find reads them)"):format(lines) or ""
    return { text = text, structured = { baseline = false, lines = lines } }
  end
  local d = diff.compare(base.whole_text, snap.text, false, base.whole_lines, snap.lines)
  local out = {}
  if nav then
    out[#out + 1] = "URL now " .. moved_to(base.url, snap.url)
    local t = role.page_told
    changes.told_page(role, page, snap.url, t and t.page == page and t.title == (snap.title or "") and t.title)
  end
  local n = #d.added + #d.removed + #d.changed + #d.moved + #d.renewed
  if n == 0 then
    -- (After a new URL, the content alone: the action did something.)
    out[#out + 1] = nav and "Nothing else changed on the page." or "No change on the page."
  else
    out[#out + 1] = ("Changes (+%d -%d ~%d%s):"):format(#d.added, #d.removed, #d.changed,
      #d.moved > 0 and (" ↕%d"):format(#d.moved) or "")
    if opts and opts.brief then
      -- Only what the agent may act on next; the expectations say the rest.
      -- What went no expected text can say: which row a Delete took.
      local gone = proposals.gone(page, d, acted_of(res))
      local named = report_lines.brief(d, changes, told_anew(role))
      unseen()
      if named ~= "" then out[#out] = out[#out] .. " " .. named
      elseif #gone == 0 then out[#out] = nil
      else out[#out] = out[#out]:gsub(":$", "") end
      out[#out + 1] = report_lines.renewed(d, snap.text, told_anew(role))
      local r
      if #gone == 0 then
        r = { text = table.concat(out, "\n"), structured = { added = #d.added, removed = #d.removed,
          changed = #d.changed, moved = #d.moved, brief = true } }
      else
        r = with_candidates(ctx, res, out, gone, { added = #d.added, removed = #d.removed, changed = #d.changed,
          moved = #d.moved, brief = true, candidates = json.array {} })
      end
      r.said = said_later(ctx, res, page, d)
      return r
    end
    for i, m in ipairs(d.moved) do
      if i > 2 then break end
      out[#out + 1] = report_lines.moved(m)
    end
    local shown_lines, more = report_lines.render(d, changes)
    for _, l in ipairs(shown_lines) do out[#out + 1] = l end
    for _, l in ipairs(report_lines.left(d)) do out[#out + 1] = l end
    if more > 0 then
      out[#out + 1] = ("… %d more changed lines (browser_find or browser_snapshot reads them)"):format(more)
      unseen()
    end
    for _, l in ipairs(opened_options.lines(page, d)) do out[#out + 1] = l end
    out[#out + 1] = report_lines.renewed(d, snap.text, told_anew(role))
  end
  -- A key's effect is often only where focus went, which the comparison
  -- leaves aside: said when asked (a key press), moved or not.
  local focus = opts and opts.focus and focused_line(snap.text)
  if focus then
    local still = focus == focused_line(base.whole_text)
    out[#out + 1] = (still and "Focus still on: " or "Focus now: ") .. focus
    -- A widget's key that did nothing, where its pattern has it do something
    -- (focus on the element pressed, which the press focused first).
    local on = still or (opts.ref and focus:find("[ref=" .. opts.ref .. "]", 1, true))
    out[#out + 1] = on and n == 0 and not nav and require("vdx.key_patterns").note(opts.key, focus) or nil
  end
  local refused
  if not focus and not nav then
    local line
    line, refused = refused_submit(page, snap, base, n == 0 and not (opts and opts.candidates == false))
    -- What the submit did is that line, not "no change", which an agent
    -- read as an action it only tried (run AN, told to drop it).
    if line and out[#out] == "No change on the page." then out[#out] = nil end
    out[#out + 1] = line
  end
  -- What the page still says, for the line on requests that failed
  -- (vdx.builtin.report.silent_failure): read only when some did.
  local still = n == 0 and not nav and type(res) == "table" and res.failed_requests
    and outline.still_said(snap.text or "") or nil
  -- The ids the test remembered stay in the proposals (the export reads them).
  local cands = n > 0 and not (opts and opts.candidates == false)
    and proposals.propose(page, d, acted_of(res), snap.text or "", proposals.remembered_ids(ctx.session),
      ctx.session ~= nil and sent_writes(ctx.session, ctx.role.name), typed_texts(ctx.session, ctx.role.name)) or {}
  for _, c in ipairs(refused or {}) do cands[#cands + 1] = c end
  if nav and nav.same_document and not (opts and opts.candidates == false) then
    -- A link to #s42 or a router's push: its URL, and the part it scrolled to.
    local moved = require("vdx.proposals_url").moved(page, base.url, snap.url)
    for _, c in ipairs(cands) do moved[#moved + 1] = c end
    cands = moved
  end
  return with_candidates(ctx, res, out, cands, { added = #d.added, removed = #d.removed, changed = #d.changed,
    moved = #d.moved, candidates = json.array {}, still_said = still })
end

return changes
