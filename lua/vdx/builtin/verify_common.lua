--- vdx.builtin.verify_common: what the verify tools share: the one
-- element a target names, a match told as a reader sees it, the failure
-- (VerifyFailed) and the answer of a check the page agreed with, recorded
-- as a web-first assertion (vdx.builtin.verify, vdx.builtin.verify_value).
local vdx = require "vdx"
local assertions = require "vdx.assertions"
local util = require "vdx.builtin.util"
local clip = require "vdx.clip"

local quote = assertions.quote

local M = {}

--- How many matches a failure lists.
M.SHOWN = 8
local SHOWN = M.SHOWN

--- Fails with a VerifyFailed error: message, and fields (expected,
-- actual, counts) for the error's answer.
function M.fail(message, fields)
  error(vdx.error("VerifyFailed", message, fields), 0)
end

--- One match as a reader sees it: `button "Save" <button> hidden [ref=e3]`.
function M.describe(m)
  local parts = { m.role or "(no role)" }
  if m.name ~= "" then parts[#parts + 1] = quote(m.name) end
  parts[#parts + 1] = "<" .. (m.tag or "?") .. ">"
  if m.text ~= "" and m.text ~= m.name then
    local t = clip(m.text, 60)
    parts[#parts + 1] = "text " .. quote(t)
  end
  if m.value and m.checked == nil then parts[#parts + 1] = "value " .. quote(m.value) end
  if m.checked ~= nil then parts[#parts + 1] = m.checked == true and "checked" or m.checked == "mixed" and "mixed" or "unchecked" end
  if m.disabled then parts[#parts + 1] = "disabled" end
  if not m.visible then parts[#parts + 1] = "hidden" end
  if m.ref then parts[#parts + 1] = "[ref=" .. m.ref .. "]" end
  return table.concat(parts, " ")
end

--- The first SHOWN matches of facts f, each as describe tells it, then
-- how many more there are.
function M.described(f)
  local out = {}
  for i, m in ipairs(f.matches) do
    if i > SHOWN then break end
    out[i] = M.describe(m)
  end
  if f.count > SHOWN then out[#out + 1] = ("… %d more"):format(f.count - SHOWN) end
  return out
end


--- The target an argument names (util.checked_target).
M.target = util.checked_target

--- The facts of the one element t names; fails when its locator matches
-- none or several.
function M.the_one(page, t, limit, text_max)
  local f = assertions.facts(page, t.relative, { frame = t.frame, limit = limit or SHOWN, text_max = text_max })
  if f.count ~= 1 then
    M.fail(("%s matches %d elements, not exactly one"):format(t.locator, f.count),
      { expected = "exactly one element", actual = f.count == 0 and { "no element" } or M.described(f),
        counts = f.count })
  end
  return f.matches[1], f
end

-- The first number the app gave that step's locator or value holds
-- ("#1001": an order, an invoice; two digits or more), or nil.  The change
-- reports' proposals free such ids themselves (proposals.without_ids); a
-- locator or text the agent wrote is told instead, unless the test
-- remembered a number the app gave (browser_remember), which it then
-- reads in each run.
local function numbered(step, log)
  -- A value the test remembered (browser_remember) is read in each run:
  -- an id that is one ("#{order}" with order "1021") is no literal.
  local kept = require("vdx.proposals").remembered_ids(log) or {}
  for _, v in ipairs { step.locator, type(step.value) == "string" and step.value or nil } do
    for id in (type(v) == "string" and v or ""):gmatch("#%d%d+") do
      if not kept[id] then return id end
    end
  end
end

-- step with the number the app gave (numbered) left free, as the change
-- reports' proposals free it (proposals.without_ids: a regex name, the
-- longest part of a text), when the page still agrees; else nil.  Run FB
-- dropped "Order #1001 is confirmed…", which it was told of only once
-- recorded, and recorded its test again.
local function freed(ctx, step)
  local free = require("vdx.proposals").without_ids(step, require("vdx.proposals").remembered_ids(ctx.session))
  if free == step or numbered(free, ctx.session) then return nil end
  local ok, holds = pcall(assertions.holds, ctx:page(), free)
  if not ok and vdx.is_error(holds, "Cancelled") then error(holds, 0) end
  return ok and holds and free or nil
end

--- The check that an element within locator shows text as its whole
-- text (`locator.getByText('Paid', { exact: true })`), alone and visible:
-- a container's toContainText('Paid') holds for 'Paid in part' too.  ->
-- the step when the page holds it, else nil; a cancelled call raises.
function M.exact_within(page, locator, text, positional)
  local step = { matcher = "toBeVisible", locator = locator .. "." .. assertions.by_text(text, true),
    positional = positional }
  local ok, holds = pcall(assertions.holds, page, step)
  if not ok and vdx.is_error(holds, "Cancelled") then error(holds, 0) end
  return ok and holds and step or nil
end

--- The one visible match of text's getByText in frame (nil: the main
-- one) -> the match and its index among the matches; nil and true when
-- several show (or more matched than were read), nil when none.  A
-- cancelled call raises.
function M.one_visible(page, text, frame)
  local ok, f = pcall(assertions.facts, page, assertions.by_text(text), { limit = 5, frame = frame })
  if not ok then
    if vdx.is_error(f, "Cancelled") then error(f, 0) end
    return nil
  end
  local hit, at
  for i, m in ipairs(f.matches) do
    if m.visible then
      if hit then return nil, true end
      hit, at = m, i
    end
  end
  if hit and f.count > #f.matches then return nil, true end
  return hit, at
end

--- Calls fn(frame) for each child frame of page with a context, in
-- order, until it returns a value; -> that frame's name and what fn
-- returned, or nil.  (The verify tools look in every frame, as
-- Playwright MCP does.)
function M.in_child_frames(page, fn)
  local ok, frames = pcall(page.frames, page)
  for _, fr in ipairs(ok and frames or {}) do
    if fr.frame ~= "main" and fr.has_context then
      local a, b = fn(fr.frame)
      if a ~= nil then return fr.frame, a, b end
    end
  end
  return nil
end

--- Records step beside the check whose answer res is (res.text gains
-- `✅ <what>: <code> (step N)`, the step drop takes: run CQ worked it out).
function M.also(ctx, res, what, step, tool)
  local kept = assertions.record(ctx, step, tool)
  res.text = res.text .. ("\n✅ %s: %s"):format(what, assertions.code(kept))
    .. (type(kept) == "table" and kept.no and (" (step %d)"):format(kept.no) or "")
  return res
end

--- The answer of a check the page agreed with: step recorded as a
-- Playwright line, or, when there is why_not, why it could not be.
function M.agreed(ctx, tool, step, why_not, extra)
  local out = {}
  if why_not then step = nil end
  local warned = extra ~= nil and extra:find("^⚠️") ~= nil
  local kept
  local id = step and numbered(step, ctx.session)
  local free = id and ctx.session and freed(ctx, step)
  if free then step = free end
  if step then
    kept = assertions.record(ctx, step, tool)
    local code = require("vdx.remembered").in_test(assertions.code(step), ctx.session)
    out[1] = (ctx.session and "✅ Page agrees. Recorded: " or "✅ Page agrees: ") .. code
    -- Its step's number, which drop takes (runs BG, BI and BJ exported
    -- to learn the numbers of checks they meant to drop).
    if ctx.session and type(kept) == "table" and kept.no then
      out[1] = out[1] .. (kept.replaced and kept == step and " (step %d, in place of its toContainText)" or " (step %d)")
        :format(kept.no)
    end
    if step.positional then
      out[#out + 1] = "⚠️ The locator is positional: nothing else singles the element out."
      warned = true
    end
    if free then
      out[#out + 1] = ("%s looks like a number the app gave (an order, an invoice): the next run's is another, so "
        .. "the check leaves it free; to check that very number, browser_remember it first (pattern #\\d+) and "
        .. "write {name} in the text"):format(id)
    elseif id then
      out[#out + 1] = ("⚠️ %s looks like a number the app gave (an order, an invoice): the next run's is another, "
        .. "and this check would find the old one. Check through the test's own data ({run}) instead"):format(id)
      warned = true
    end
    -- A check recorded with a warning names its step, so it can go (run
    -- AS counted steps by hand to drop one).
    if extra then out[#out + 1] = extra end
    if warned and ctx.session and type(kept) == "table" and kept.no then
      out[#out] = out[#out] .. ("; browser_export_test drop=[%d] takes this check out"):format(kept.no)
    end
  else
    out[1] = "✅ Page agrees. Not recorded: " .. tostring(why_not)
    if extra then out[#out + 1] = extra end
  end
  local structured = { verified = true, recorded = step ~= nil and ctx.session ~= nil }
  if step then
    -- (no: its step's number in the session, which drop takes.)
    structured.assertion = { matcher = step.matcher, locator = step.locator, value = step.value,
      attribute = step.attribute, no = ctx.session and type(kept) == "table" and kept.no or nil }
  end
  return { text = table.concat(out, "\n"), structured = structured }
end

return M
