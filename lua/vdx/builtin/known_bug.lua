--- vdx.builtin.known_bug: a check of what the app should do and does
-- not (the verify tools' `known_bug`).  An agent that found a bug (an
-- error the shop never shows) states the check it means and why it fails;
-- the check is recorded although the page disagrees, and the exported
-- test calls `test.fail(true, why)` right before that check, which it
-- writes as `expect.soft` so that the steps after it run: Playwright
-- passes it while the bug is there (a step before it that fails is a
-- failure still) and fails it once the app is mended, and the flake gate
-- expects that check to fail in each run.  Runs CF, CH and CK wrote that
-- test by hand.
local assertions = require "vdx.assertions"

local M = {}

--- The argument's schema.
-- (tools/list is paid by every session: short, no minLength.)
M.SCHEMA = { type = "string", description = "The app's bug it shows: recorded failing, the test marked test.fail()" }

--- The answer of a verify tool called with known_bug = why: step (the
-- check it would record, { matcher, locator, value? }) recorded, with
-- why, when the page disagrees now; when it agrees, nothing is recorded
-- and the answer says the bug did not show.
function M.check(ctx, tool, step, why)
  if not why:find("%S") then
    error(require("vdx").error("InvalidArgument", "known_bug: say what the app does wrong (it is the test's "
      .. "test.fail() reason), or leave it out for an ordinary check", { field = "known_bug" }), 0)
  end
  local page = ctx:page()
  local holds = assertions.holds(page, step)
  local code = require("vdx.remembered").in_test(assertions.code(step), ctx.session)
  if holds then
    return { text = ("✅ Page agrees: %s holds, so it shows no bug now. Nothing recorded: call again without "
      .. "known_bug to record it as an ordinary check"):format(code),
      structured = { verified = true, recorded = false, known_bug = false } }
  end
  step.known_bug = why
  local kept = assertions.record(ctx, step, tool)
  local no = ctx.session and type(kept) == "table" and kept.no
  return { text = ("❌ Page disagrees, as the bug does. Recorded as a known bug: %s%s\nThe test is written with "
    .. "test.fail() right before this check, and the check as expect.soft: the steps before it must pass as ever; "
    .. "Playwright passes the test while this check fails, and fails it once the app is mended. The steps after "
    .. "it run, but a failure of theirs would pass as the expected one: check what matters in another test")
    :format(code,
      no and (" (step %d)"):format(no) or ""),
    structured = { verified = false, recorded = ctx.session ~= nil, known_bug = why,
      assertion = { matcher = step.matcher, locator = step.locator, value = step.value, no = no or nil } } }
end

return M
