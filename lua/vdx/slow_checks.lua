--- vdx.slow_checks: the timeout a recorded check of a slow app gets.
-- Playwright's expect waits 5 s; an app that took longer to show what an
-- agent waited for (run AH's payment service, held back 10 s) fails a
-- check recorded right after the wait, in the test and in the flake
-- gate's replay.  A wait over SLOW_MS marks its role; the checks recorded
-- before the role's next action or navigation carry a timeout of twice
-- the wait (vdx.builtin.util.record stamps them, vdx.session_export
-- writes them, vdx.session_replay waits them).  Policy only: no page.
local slow_checks = {}

--- How long a wait may take before the checks recorded after it get a
-- timeout of their own (ms): half of Playwright's 5 s for an expect.
slow_checks.SLOW_MS = 2500

--- The timeout (ms) a check of what took elapsed_ms to show gets in the
-- test: twice that, at least 10 s, in whole seconds; nil when elapsed_ms
-- is within slow_checks.SLOW_MS.
function slow_checks.timeout(elapsed_ms)
  if elapsed_ms <= slow_checks.SLOW_MS then return nil end
  return math.max(10000, math.ceil(elapsed_ms * 2 / 1000) * 1000)
end

--- Tells role (a vdx.roles role: what it keeps is role.slow_ms) that
-- what the agent waited for took elapsed_ms to show.  Returns the
-- timeout the role's next checks get (slow_checks.timeout), or nil.
-- Two slow waits before an action keep the longer timeout.
function slow_checks.waited(role, elapsed_ms)
  local ms = slow_checks.timeout(elapsed_ms)
  if ms then role.slow_ms = math.max(role.slow_ms or 0, ms) end
  return ms
end

--- Stamps step (a vdx.session_log step of role's, about to be recorded):
-- a check gets the role's slow timeout unless it has its own; an action
-- or a navigation ends it.
function slow_checks.stamp(role, step)
  if step.kind == "assert" then step.timeout = step.timeout or role.slow_ms
  elseif step.kind == "action" or step.kind == "navigate" then role.slow_ms = nil end
end

return slow_checks
