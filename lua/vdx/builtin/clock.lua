--- vdx.builtin.clock: the controlled clock of the current tab
-- (vdx.clock) as tools: install, fast-forward, run for, pause at, resume,
-- set a fixed or a system time (install with paused: true stands still at
-- its time from the start).  Each records a "code" step, so the
-- exported test calls page.clock the same way, and the flake gate's
-- replay redoes it on its fresh page.
local clock = require "vdx.clock"
local util = require "vdx.builtin.util"

local TIME = { type = { "string", "integer" },
  description = "An ISO 8601 time with its zone (\"2026-12-24T10:00:00Z\", \"2026-12-24T11:00:00+01:00\") "
    .. "or a date (\"2026-12-24\", midnight UTC), or milliseconds since 1970" }
local DURATION = { type = { "string", "integer" },
  description = "Milliseconds (an integer), \"ss\", \"mm:ss\" or \"hh:mm:ss\" (\"01:00:00\" is one hour), or \"5s\", \"10m\"" }

-- The state of the clock told in one line.
local function told(what, st)
  local parts = { what .. ": the page's time is " .. clock.iso(st.now) }
  if st.fixed then parts[#parts + 1] = "fixed (Date.now() and new Date() stay there; timers run)"
  elseif st.paused then parts[#parts + 1] = "paused (no timer runs until the clock is moved or resumed)"
  else parts[#parts + 1] = "flowing with real time" end
  parts[#parts + 1] = ("%d timer callback%s ran, %d pending"):format(st.fired or 0, st.fired == 1 and "" or "s",
    st.pending or 0)
  if (st.frames or 1) > 1 then parts[#parts + 1] = ("%d frames"):format(st.frames) end
  return table.concat(parts, "; ") .. "."
end

-- A tool for operation op (vdx.clock.step) whose argument is args[field].
local function tool(name, title, description, op, field, input, what)
  return {
    name = name, title = title, description = description,
    input = { type = "object", required = input and field and { field } or nil,
      properties = field and { [field] = input } or {} },
    annotations = { readOnlyHint = false },
    run = function(ctx, args)
      local arg = field and args[field] or nil
      local lines, run
      if op == "install" and args.paused then
        if arg == nil then
          error(require("vdx").error("InvalidArgument", "paused: give the time to pause at (time), as "
            .. "\"2026-12-24T10:00:00Z\"", { field = "time" }), 0)
        end
        lines, run = clock.step_paused(arg)
      else
        local line
        line, run = clock.step(op, arg)
        lines = { line }
      end
      local page = ctx:page()
      -- A document loaded before the clock: its timers are the browser's.
      local loaded = op == "install" and not clock.installed(page) and util.page_url(ctx) ~= nil
      local st = run(page)
      local step = util.record(ctx, { kind = "code", world = true, tool = name, lines = lines, replay = run })
      local text = told(what, st)
      if op == "fast_forward" and (st.pending or 0) > 0 then
        -- (Run T's countdown ticked once over ten minutes and still read 9:56.)
        text = text .. " A repeating timer (a countdown's tick) ran once on the way: browser_clock_run_for runs "
          .. "it each time it falls due" .. (type(step) == "table" and step.no
            and ("; browser_export_test drop=[%d] takes this step out if that is what you meant"):format(step.no) or "")
          .. "."
      elseif op == "install" and not st.paused and not st.fixed then
        text = text .. " A time the page shows from now (\"5 minutes ago\") moves on while the test runs: "
          .. "browser_clock_pause_at holds the clock still."
      end
      if op == "install" and loaded then
        -- (Run X's countdown kept ticking on the real clock, "0 pending".)
        text = text .. " The page had loaded before: the timers it set then run on the real clock, not this one; "
          .. "load it again (browser_navigate) for its scripts to start on the clock."
      end
      local result = { text = text, structured = { now = clock.iso(st.now), paused = st.paused == true,
        fixed = st.fixed and clock.iso(st.fixed) or nil, fired = st.fired, pending = st.pending,
        frames = st.frames } }
      -- What the timers that ran changed ("Maintenance in progress"), as
      -- an action's answer says it; the install changes nothing yet.
      if op == "install" or not require("vdx.changes").baseline_text(ctx.role, page) then return result end
      return require("vdx.builtin.report").with_changes(ctx, result)
    end,
  }
end

local install = tool("browser_clock_install", "Install a controlled clock",
  "Install a controlled clock in the current tab, now and for every later page it loads: Date, "
    .. "performance.now, setTimeout, setInterval, requestAnimationFrame and requestIdleCallback follow it. "
    .. "It starts at time (default: now) and flows with real time until paused (browser_clock_pause_at), "
    .. "or with paused: true stands still at time from the start. "
    .. "Install before browser_navigate so the page's own scripts see it from the start.",
  "install", "time", nil, "Installed")
install.input.properties.time = TIME
install.input.properties.paused = { type = "boolean",
  description = "Paused at time from the start (written as install a minute early, then pauseAt(time))" }

return {
  install,
  tool("browser_clock_fast_forward", "Fast-forward the clock",
    "Jump the clock forward by a duration, running each timer that falls due on the way once (like a "
      .. "laptop lid closed and opened again: a countdown ticks once; browser_clock_run_for ticks it through). "
      .. "Needs browser_clock_install first.",
    "fast_forward", "duration", DURATION, "Fast-forwarded"),
  tool("browser_clock_run_for", "Run the clock for a duration",
    "Move the clock forward by a duration, running every timer as it falls due (an interval as often as "
      .. "it does). Needs browser_clock_install first.",
    "run_for", "duration", DURATION, "Ran"),
  tool("browser_clock_pause_at", "Pause the clock at a time",
    "Jump the clock to a time (not before its current time), running each timer due by then once, and "
      .. "pause it there: no timer runs until the clock is moved or resumed. Needs browser_clock_install first.",
    "pause_at", "time", TIME, "Paused"),
  tool("browser_clock_resume", "Resume the clock",
    "Let a paused clock flow with real time again; timers run as they fall due.",
    "resume", nil, nil, "Resumed"),
  tool("browser_clock_set_fixed_time", "Fix Date at a time",
    "Make Date.now() and new Date() return one time from now on, while timers keep running. Installs "
      .. "the clock first when the tab has none.",
    "set_fixed_time", "time", TIME, "Fixed"),
}
