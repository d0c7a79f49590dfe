--- vdx.builtin.verify_absent: the verify tools' `absent`, a check that
-- the page shows no element of a role and name, or no text (in one
-- element, with ref or locator): `toHaveCount(0)`, which a test writes
-- for a product a refused form must not add, a list a search left empty,
-- an error that should have gone.  Runs CN, CR, DC and DD asked for it
-- (a wait for the locator to be hidden records toBeHidden, which holds
-- for a locator that finds nothing too, and they were told so).  With
-- in_viewport, the check that one element is out of view instead:
-- `not.toBeInViewport()`.
local assertions = require "vdx.assertions"
local common = require "vdx.builtin.verify_common"

local M = {}

--- The argument's schema (shared by the tools that take it).
M.SCHEMA = { type = "boolean", description = "Check none shows: toHaveCount(0)" }

--- The step of the check that no element shows text, within the
-- locator scope (nil: the page): getByText, a substring in any case, of
-- the visible elements only (a hidden template holds it too).
function M.text_step(text, scope)
  local loc = assertions.by_text(text) .. ".filter({ visible: true })"
  return { matcher = "toHaveCount", locator = scope and (scope .. "." .. loc) or loc, value = 0 }
end

--- The step of the check that no element of role and name shows.
function M.role_step(role, name)
  return { matcher = "toHaveCount", locator = assertions.by_role(role, name), value = 0 }
end

--- The answer of tool called with absent: step (M.text_step's or
-- M.role_step's) recorded when no element matches it now; a
-- VerifyFailed error naming those that show otherwise.
function M.check(ctx, tool, step)
  local f = assertions.facts(ctx:page(), step.locator, { limit = common.SHOWN })
  if f.count > 0 then
    common.fail(("%s matches %d element%s: it shows. If the app should not show it here, that is its bug "
      .. "(known_bug records the check failing)"):format(step.locator, f.count, f.count == 1 and "" or "s"),
      { expected = "no element", actual = common.described(f), counts = f.count })
  end
  -- What such a check proves, said once a session (run EF read it at its
  -- third check as noise).
  local log = ctx.session
  local told = log and log.absent_told
  if log then log.absent_told = true end
  return common.agreed(ctx, tool, step, nil, not told and ("(It holds for a text or name the page never shows, a "
    .. "misspelt one too: it counts beside a check, in this test or another, that it shows where it should.)") or nil)
end

--- The answer of tool called with absent and in_viewport for the one
-- element of locator: `not.toBeInViewport()` recorded when it is out of
-- view now (scrolled away, or hidden); a VerifyFailed error when it is in
-- view, or when the locator does not single one element out.  Run EG
-- meant to check that a jump scrolled the guide's first heading away.
function M.out_of_view(ctx, tool, locator)
  local step = { matcher = "not.toBeInViewport", locator = locator }
  local f = assertions.facts_for(ctx:page(), step)
  if f.count ~= 1 then
    common.fail(("%s matches %d elements: not.toBeInViewport checks one"):format(locator, f.count),
      { expected = "one element, out of view", actual = common.described(f), counts = f.count })
  end
  if not assertions.judge(step, f) then
    common.fail(("%s is in the viewport"):format(locator),
      { expected = "out of the viewport", actual = common.described(f), counts = f.count })
  end
  return common.agreed(ctx, tool, step)
end

return M
