--- vdx.flow_world_clock: a flow role's controlled clock (vdx.clock) --
-- r:clock{ time = … } and r:clock_fast_forward, clock_run_for,
-- clock_pause_at, clock_resume, clock_set_fixed_time,
-- clock_set_system_time -- added to the Actor class of vdx.flow_actor.
-- Each moves the role's page clock, logs an event for the report and
-- records a "code" node, so --emit-playwright writes the same page.clock
-- call.
local vdx = require "vdx"
local clock = require "vdx.clock"

local M = {}

--- Adds the clock methods to the Actor class; h holds flow_actor's
-- check_options.
function M.install(Actor, h)
  local check_options = h.check_options

  -- Runs operation op with arg on the role's page and records it.
  local function move(self, op, arg)
    local line, run = clock.step(op, arg)
    local t0 = vdx.now()
    local st = run(self.page)
    self.flow:event { kind = "clock", role = self.name, expect = clock.PLAYWRIGHT[op] .. " " .. clock.iso(st.now),
      ms = vdx.now() - t0 }
    self.flow:record { kind = "code", role = self.name, lines = { line } }
    return st
  end

  --- Installs the role's controlled clock (opts.time: epoch ms or ISO
  -- 8601; default now), before the next page's scripts and in the current
  -- one.
  function Actor:clock(opts)
    check_options(opts, { time = true }, "clock")
    return move(self, "install", opts and opts.time)
  end

  --- Jumps the clock by d (ms, "ss", "mm:ss", "hh:mm:ss"), running each
  -- due timer once.
  function Actor:clock_fast_forward(d) return move(self, "fast_forward", d) end

  --- Moves the clock by d, running every timer as it falls due.
  function Actor:clock_run_for(d) return move(self, "run_for", d) end

  --- Jumps to time t and pauses the clock there.
  function Actor:clock_pause_at(t) return move(self, "pause_at", t) end

  --- Lets a paused clock flow again.
  function Actor:clock_resume() return move(self, "resume") end

  --- Makes Date give time t from now on; timers keep running.
  function Actor:clock_set_fixed_time(t) return move(self, "set_fixed_time", t) end

  --- Sets the clock's time to t without running timers.
  function Actor:clock_set_system_time(t) return move(self, "set_system_time", t) end
end

return M
