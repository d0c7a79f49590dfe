--- vdx.builtin.page_outline: the outline a tool's answer gives of a
-- small page it opened (browser_navigate, browser_navigate_back,
-- select_role's first look at a role), and the one line it gives instead
-- of an outline the role was shown before (vdx.outline makes the lines).
local snapshot = require "vdx.snapshot"
local changes = require "vdx.changes"

local M = {}

-- A page of at most this many elements is outlined in the navigation's
-- answer (vdx.outline): an agent can act at once on a login form
-- or a small app, and a big page is never walked unasked.
local SMALL_ELEMENTS = 400
local outline = require("vdx.outline").of

--- The snapshot of a small page, stamped as the role's baseline for the
-- next change report, or nil for a page too big to outline.  Its before
-- is the role's look it replaces, which M.told compares with (and drops).
function M.small_snapshot(ctx, page)
  local ok, n = pcall(page.bridge, page, "elementCount", {}, { frame = "main" })
  if not ok or type(n) ~= "number" or n > SMALL_ELEMENTS then return nil end
  local opts = { budget_tokens = changes.BUDGET_TOKENS }
  local oks, snap = pcall(snapshot.take, page, opts, nil, nil, true)
  if not oks or snap.truncated then return nil end
  local before = ctx.role.last_snapshot
  ctx.role.last_snapshot = changes.stamp(page, snap, opts, ctx.role)
  -- (Not when a new test starts: it starts anew by design.)
  snap.before = not ctx.role.test_starting and before or nil
  return snap
end

-- Most lines of what a page loaded again reads otherwise than the look
-- before it.
local SINCE_LINES = 3

-- The lines that say how snap reads otherwise than snap.before, the
-- role's look before this load, when both are of one URL; "" when they
-- read alike or are not comparable.  Run FA's navigate to its shop's URL
-- said the page was as its first look showed it, and took a find to see
-- its cart back at 0.
local function since_before(snap)
  local before = snap.before
  local function bare(u) return (tostring(u or ""):gsub("#.*$", "")) end
  if not (before and before.whole_text and snap.text) or bare(before.url) ~= bare(snap.url) then return "" end
  local d = require("vdx.snapshot_diff").compare(before.whole_text, snap.text, false, before.whole_lines, snap.lines)
  if #d.added + #d.removed + #d.changed == 0 then return "" end
  local shown = require("vdx.changes_lines").render(d, changes)
  local out = { ("\nChanged against your last look (+%d -%d ~%d):"):format(#d.added, #d.removed, #d.changed) }
  -- (A line's colon opens children not given here.)
  for i = 1, math.min(SINCE_LINES, #shown) do out[#out + 1] = (shown[i]:gsub(":$", "")) end
  if #shown > SINCE_LINES then out[#out + 1] = ("… %d more changed lines"):format(#shown - SINCE_LINES) end
  return table.concat(out, "\n")
end

-- Outlines an agent was shown, by URL, per role: a page that outlines the
-- same again (the refs of an unchanged page are the same too) is answered
-- in one line.  A test started again on its page (browser_start_test
-- {url}) repeated the whole outline each time.  At most this many URLs.
local OUTLINES_KEPT = 64

-- The outline lines as the answer tells them: whole, or one line when
-- role was shown the same for url.  whole: every line of the outline,
-- those past the bound too (a shop grown by a product past the bound is
-- no page shown before: run DA was told so).
local function outline_told(role, url, lines, left, whole)
  local body = whole or table.concat(lines, "\n")
  local seen = role and role.outlines_shown
  if role and not seen then
    seen = { n = 0 }
    role.outlines_shown = seen
  end
  -- (Outline lines, not the page's: run EO read "5 lines" of a cart as
  -- the page's.)
  if seen and url and seen[url] == body then
    return ("\nOutline: not repeated, as shown before for this URL (%d outline lines, the same refs); "
      .. "browser_snapshot() reads it again"):format(#lines)
  end
  -- The page as the first look showed it, though actions changed it since
  -- (the latest picture): a test started again on its page loads that.
  local first = role and role.outlines_first
  if first and url and first[url] == body then
    seen[url] = body
    -- ("Not repeated": run DE read the one line as the outline skipped;
    -- "its lines": run FF read it as the whole page's, whose countdown
    -- had moved on.)
    return ("\nOutline: not repeated, its %d lines read as your first look at this URL showed them, before your "
      .. "actions (the same refs); browser_snapshot() reads the whole page"):format(#lines)
  end
  if seen and url then
    if seen[url] == nil then seen.n = seen.n + 1 end
    if seen.n > OUTLINES_KEPT then
      seen = { n = 1 }
      role.outlines_shown, role.outlines_first = seen, nil
    end
    seen[url] = body
    role.outlines_first = role.outlines_first or {}
    role.outlines_first[url] = role.outlines_first[url] or body
  end
  local text = "\nOutline:\n" .. table.concat(lines, "\n")
  if left > 0 then text = text .. ("\n… %d more: browser_find(text=…) or browser_snapshot()"):format(left) end
  return text
end

-- How to read a page too big to outline.
local BIG = "\nRead it: browser_snapshot(depth=2) for its layout (alike parts folded), browser_find(text=…) "
  .. "for one part, browser_snapshot() for all."

--- The outline's part of an answer for role's page at url, from snap
-- (M.small_snapshot's, or nil for a page too big to outline): the
-- outline, the one line that stands for one shown before, or how to read
-- a page not outlined (for one too big, its layout first).
function M.told(role, url, snap)
  -- A page too big to outline: its layout first (run ER read the long
  -- guide's whole snapshot twice to learn it was 150 sections alike).
  if not snap then return BIG end
  local lines, left, whole = outline(snap.text or "")
  if #lines == 0 then return "\nRead it: browser_find(text=…) or browser_snapshot()." end
  local text = outline_told(role, url, lines, left, whole)
  -- Said where the outline is not repeated: what changed is news then.
  if text:find("^\nOutline: not repeated") then text = text .. since_before(snap) end
  snap.before = nil
  return text
end

return M
