--- vdx.busy: a page whose own script never yields (an endless loop in a
-- click handler, a timer or an evaluate) holds its main thread, so nothing
-- sent to it answers.  The browser process still answers, and V8 takes
-- Runtime.terminateExecution as an interrupt even then.  This module tells
-- a busy page from a slow one after a call timed out or was cancelled,
-- stops the page's script, and names the failure PageBusy (not Timeout,
-- which blames the network).
local vdx = require "vdx.core"

local busy = {}

--- How long a page may take to answer a trivial evaluate before its main
-- thread counts as busy (ms), and how long the stop may take.
busy.PROBE_MS = 1500
busy.STOP_MS = 5000

--- True when page's main thread does not answer a trivial evaluate
-- within probe_ms (default busy.PROBE_MS); false when it answers, fails
-- otherwise, or is closed.
function busy.is_busy(page, probe_ms)
  if page == nil or page:is_closed() then return false end
  local ok, err = pcall(page.send, page, "Runtime.evaluate", { expression = "0" },
    { timeout_ms = probe_ms or busy.PROBE_MS })
  return not ok and vdx.is_error(err, "Timeout")
end

--- Stops the script that keeps page's main thread busy: probes the page
-- and, when it does not answer, sends Runtime.terminateExecution to its
-- session.  Returns true when it stopped a script, false when the page
-- answered (it was only slow, or waited on something else) or is gone.
function busy.stop(page, probe_ms)
  if not busy.is_busy(page, probe_ms) then return false end
  local ok = pcall(page.send, page, "Runtime.terminateExecution", {}, { timeout_ms = busy.STOP_MS })
  return ok
end

--- The PageBusy error for a call (named what, as "page:evaluate" or a
-- tool name) that failed with err (a Timeout or Cancelled) while the
-- page's script held its main thread; its script has been stopped.
function busy.error(err, what)
  local ms = type(err) == "table" and err.timeout_ms or nil
  local waited = ms and (" for %d ms"):format(ms) or ""
  return vdx.error("PageBusy", ("%s: the page's main thread stayed busy%s and answered nothing (a script " ..
    "that never yields, such as an endless loop, or more work than the timeout allows); this is not the " ..
    "network. vdx stopped the running script (Runtime.terminateExecution) and the page answers again")
    :format(what, waited), { timeout_ms = ms, stopped = true })
end

--- Adds the busy-page stop to page:evaluate on the methods table Page:
-- an evaluate that times out on a busy page stops the page's script and
-- raises PageBusy instead of Timeout.
function busy.install(Page)
  local raw = Page.evaluate
  function Page.evaluate(page, expression, opts)
    local ok, v = pcall(raw, page, expression, opts)
    if ok then return v end
    if vdx.is_error(v, "Timeout") and busy.stop(page) then error(busy.error(v, "page:evaluate"), 2) end
    error(v, 0)
  end
end

return busy
