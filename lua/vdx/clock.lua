--- vdx.clock: a controlled clock for a page, with the semantics of
-- Playwright's Clock API (page.clock): page:clock{ time = … } installs
-- fake Date, performance.now and timers in the page's main world before
-- any script of the next document, and at once in the current one; then
-- page:clock_pause_at, clock_fast_forward, clock_run_for, clock_resume,
-- clock_set_fixed_time and clock_set_system_time move it.
--
-- The clock itself is page code (bridge/page/clock.js); this module is
-- the policy: it checks times and durations, sends each command to every
-- frame that can run it (bridge/page/clock-command.js), and keeps the
-- script a new document gets up to date with the clock's state, so after
-- a navigation the page's time goes on where it stood (paused, fixed or
-- flowing).  Same-origin iframes get the clock with their document;
-- out-of-process frames do not yet (their sessions need the script too).
local vdx = require "vdx"
local json = require "vdx.json"

local clock = {}

local states = setmetatable({}, { __mode = "k" })   -- page -> { key, script }

local INSTALL, COMMAND = vdx.page_script("clock", true), vdx.page_script("clock-command", true)

local function bad(message, fields)
  error(vdx.error("InvalidArgument", message, fields or {}), 0)
end

-- Days from 1970-01-01 to the civil date y-m-d (proleptic Gregorian).
local function days_from_civil(y, m, d)
  y = m <= 2 and y - 1 or y
  local era = (y >= 0 and y or y - 399) // 400
  local yoe = y - era * 400
  local doy = (153 * (m + (m > 2 and -3 or 9)) + 2) // 5 + d - 1
  local doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
  return era * 146097 + doe - 719468
end

local MAX_TIME = 8.64e15   -- the largest time a JavaScript Date holds

--- clock.time(t, what) -> epoch ms, literal: t is milliseconds since
-- the epoch (an integer) or an ISO 8601 string, a date
-- ("2026-12-24", midnight UTC) or a date and time with its zone
-- ("2026-12-24T10:00:00Z", "…T10:00:00.250+01:00"); literal is the
-- JavaScript that makes the same Date.  A time without a zone is refused:
-- it would mean the test machine's local time.  what names the argument
-- in the InvalidArgument error.
function clock.time(t, what)
  what = what or "time"
  if math.type(t) == "float" and t == math.floor(t) then t = math.tointeger(t) end
  if math.type(t) == "integer" then
    if math.abs(t) > MAX_TIME then bad(what .. " " .. t .. " ms is outside the range of a Date", { field = what }) end
    return t, ("new Date(%d)"):format(t)
  end
  if type(t) ~= "string" then
    bad(("%s must be milliseconds since 1970 (an integer) or an ISO 8601 string such as "
      .. "\"2026-12-24T10:00:00Z\", got %s"):format(what, math.type(t) or type(t)), { field = what })
  end
  local y, mo, d, rest = t:match("^(%d%d%d%d)%-(%d%d)%-(%d%d)(.*)$")
  local h, mi, s, ms, zone = 0, 0, 0, 0, "Z"
  if y and rest ~= "" then
    local hh, mm, tail = rest:match("^T(%d%d):(%d%d)(.*)$")
    if not hh then y = nil else
      h, mi = tonumber(hh), tonumber(mm)
      local ss, t2 = tail:match("^:(%d%d)(.*)$")
      if ss then s, tail = tonumber(ss), t2 end
      local frac, t3 = tail:match("^%.(%d%d?%d?)(.*)$")
      if frac then ms, tail = tonumber((frac .. "00"):sub(1, 3)), t3 end
      zone = tail
    end
  end
  local off
  if zone == "Z" then off = 0 else
    local sign, zh, zm = zone:match("^([+-])(%d%d):(%d%d)$")
    if sign then off = (tonumber(zh) * 60 + tonumber(zm)) * (sign == "-" and -1 or 1) end
  end
  y, mo, d = tonumber(y), tonumber(mo), tonumber(d)
  if not y or not off or mo < 1 or mo > 12 or d < 1 or d > 31 or h > 23 or mi > 59 or s > 59 then
    local hint = (y and zone == "") and " (add its zone, Z or +01:00, so it means the same instant on every machine)"
      or ""
    bad(("%s %q is not an ISO 8601 time such as \"2026-12-24T10:00:00Z\"%s"):format(what, t, hint), { field = what })
  end
  local days = days_from_civil(y, mo, d)
  if days_from_civil(y, mo, 1) + d - 1 ~= days or d > 28 and days_from_civil(mo == 12 and y + 1 or y,
      mo == 12 and 1 or mo + 1, 1) <= days then
    bad(("%s %q names a day that does not exist"):format(what, t), { field = what })
  end
  local epoch = ((days * 24 + h) * 60 + mi - off) * 60000 + s * 1000 + ms
  return epoch, "new Date(" .. json.encode(t) .. ")"
end

-- The units a duration may name, in milliseconds.
local UNITS = { ms = 1, s = 1000, sec = 1000, secs = 1000, seconds = 1000, second = 1000, m = 60000, min = 60000,
  mins = 60000, minute = 60000, minutes = 60000, h = 3600000, hr = 3600000, hour = 3600000, hours = 3600000 }

--- clock.duration(d, what) -> ms, literal: d is milliseconds (an integer
-- >= 0) or a string of seconds "08", minutes and seconds "01:30" or hours,
-- minutes and seconds "02:00:00", as Playwright's fastForward takes, or a
-- number and a unit ("5s", "10 min", "2h", "250ms"), written as its
-- milliseconds; literal is the same duration in JavaScript.
function clock.duration(d, what)
  what = what or "duration"
  if math.type(d) == "float" and d == math.floor(d) then d = math.tointeger(d) end
  if math.type(d) == "integer" then
    if d < 0 then bad(what .. " must not be negative, got " .. d, { field = what }) end
    return d, tostring(d)
  end
  if type(d) == "string" then
    local parts = {}
    for p in (d .. ":"):gmatch("([^:]*):") do parts[#parts + 1] = p end
    local ok = #parts >= 1 and #parts <= 3
    local ms = 0
    for _, p in ipairs(parts) do
      if not p:match("^%d%d?$") then ok = false break end
      ms = ms * 60 + tonumber(p)
    end
    if ok then return ms * 1000, json.encode(d) end
    -- A number and a unit ("5s", "10 min", "2h", "250ms"), as a person
    -- writes it (run AD's "5s"): in whole seconds, the clock's form
    -- Playwright takes ("07:00" for "7m": run EK read 420000 beside the
    -- "03:00" it wrote), else its milliseconds.
    local n, unit = d:match("^%s*(%d+)%s*(%a+)%s*$")
    local scale = unit and UNITS[unit:lower()]
    if scale then
      local v = math.tointeger(tonumber(n) * scale)
      if v % 1000 ~= 0 then return v, tostring(v) end
      local s = v // 1000
      local text = s < 3600 and ("%02d:%02d"):format(s // 60, s % 60)
        or ("%02d:%02d:%02d"):format(s // 3600, s // 60 % 60, s % 60)
      return v, json.encode(text)
    end
  end
  bad(("%s must be milliseconds (an integer >= 0), \"ss\", \"mm:ss\", \"hh:mm:ss\" or a number and a unit "
    .. "(\"5s\", \"10m\"), got %s"):format(what,
    type(d) == "string" and ("%q"):format(d) or (math.type(d) or type(d))), { field = what })
end

-- The script a new document gets: the clock at state st.
local function source(key, st)
  return "(" .. INSTALL .. ")(" .. json.encode(key) .. "," .. json.encode {
    wall = st.wall, real = st.real, paused = st.paused == true,
    fixed = type(st.fixed) == "number" and st.fixed or nil } .. ");"
end

-- Registers the script of state st for the page's next documents, in
-- place of the one before; now = true runs it in the current document too.
local function register(page, cs, st, now)
  local old = cs.script
  local r = page:send("Page.addScriptToEvaluateOnNewDocument", { source = source(cs.key, st),
    runImmediately = now or nil })
  cs.script = r.identifier
  if old then pcall(page.send, page, "Page.removeScriptToEvaluateOnNewDocument", { identifier = old }) end
end

-- Runs cmd(arg) on the page's clock in every frame it reaches; answers the
-- main frame's state.  A page whose document has no clock (a navigation
-- raced the install) gets it first.
local function command(page, cs, cmd, arg)
  local expr = "(" .. COMMAND .. ")(" .. json.encode(cs.key) .. "," .. json.encode(cmd) .. ","
    .. (arg == nil and "null" or json.encode(arg)) .. ")"
  local r = page:send("Runtime.evaluate", { expression = expr, returnByValue = true, silent = true })
  if r.exceptionDetails then
    local e = type(r.exceptionDetails.exception) == "table" and r.exceptionDetails.exception or {}
    local text = tostring(e.description or r.exceptionDetails.text or "the clock refused"):match("^[^\n]*")
    text = text:gsub("^Error: ", ""):gsub("^vdx%-clock: ", "")
    if text:find("not installed in this document", 1, true) then
      error(vdx.error("ClockNotInstalled", "the page's current document has no clock (it was loaded before the "
        .. "clock was installed and not reloaded); navigate or reload, then call again"), 0)
    end
    if text:find("cannot pause at a time before", 1, true) then
      -- (Run EW paused at its install time, which the clock had passed.)
      bad("clock " .. cmd .. ": " .. text .. "; to stand still at a time from the start, install the clock "
        .. "before it and pause there (browser_clock_install {time, paused: true} does both)", { field = "time" })
    end
    -- A timer that always sets another at once, or a page that broke the
    -- clock's object: the page's doing.
    error(vdx.error("JavaScriptError", "clock " .. cmd .. ": " .. text .. "; the page's timers or scripts stopped "
      .. "the clock's step (move it by less, or fix the timer that sets itself again at once)"), 0)
  end
  local st = r.result and r.result.value or {}
  if st.fixed == json.null then st.fixed = nil end
  register(page, cs, st)
  return { now = st.now, paused = st.paused, fixed = st.fixed, fired = st.fired, pending = st.pending,
    frames = st.frames }
end

local function installed(page, what)
  local cs = states[page]
  if not cs then
    error(vdx.error("ClockNotInstalled", what .. ": the page has no controlled clock; call page:clock{ time = … } "
      .. "first (browser_clock_install as a tool, r:clock{ time = … } in a flow)"), 0)
  end
  return cs
end

-- A fresh name for the page's clock object: a fixed prefix and 64 random bits.
local function fresh_key()
  local hex = {}
  for i = 1, 4 do hex[i] = ("%04x"):format(math.random(0, 0xffff)) end
  return "__vdxClock_" .. table.concat(hex)
end

local Page = {}

--- page:clock([opts]) -> state: installs the controlled clock in the
-- current document and every later one of the page.  opts: time (when the
-- clock starts: epoch ms or an ISO 8601 string; default now).  The clock
-- then flows with real time until page:clock_pause_at.  state: { now =
-- the page's Date.now(), paused, fixed, fired, pending, frames }.  A second
-- call raises InvalidArgument: move an installed clock with its methods.
function Page:clock(opts)
  if opts ~= nil and type(opts) ~= "table" then bad("clock: options must be a table, got " .. type(opts)) end
  for k in pairs(opts or {}) do
    if k ~= "time" then bad("clock: unknown option " .. tostring(k) .. " (the option is time)", { field = k }) end
  end
  if states[self] then
    bad("clock: the page's clock is installed already; move it with page:clock_set_system_time, "
      .. "clock_pause_at or clock_fast_forward", { field = "time" })
  end
  local wall
  if opts and opts.time ~= nil then wall = clock.time(opts.time, "time") end
  -- The browser's real time now: the clock starts at wall (default: that
  -- time) and flows from this instant.
  local real = self:evaluate("Date.now()")
  local cs = { key = fresh_key() }
  register(self, cs, { wall = wall or real, real = real, paused = false }, true)
  states[self] = cs
  return command(self, cs, "state")
end

--- page:clock_fast_forward(d) -> state: jumps the clock forward by d
-- (ms, or "ss", "mm:ss", "hh:mm:ss") and runs each timer due by then once,
-- as Playwright's clock.fastForward.
function Page:clock_fast_forward(d)
  local cs = installed(self, "clock_fast_forward")
  return command(self, cs, "fastForward", (clock.duration(d, "duration")))
end

--- page:clock_run_for(d) -> state: moves the clock forward by d, running
-- every timer as it falls due (an interval as often as it does), as
-- Playwright's clock.runFor.
function Page:clock_run_for(d)
  local cs = installed(self, "clock_run_for")
  return command(self, cs, "runFor", (clock.duration(d, "duration")))
end

--- page:clock_pause_at(t) -> state: jumps to time t (not before the
-- clock's time), running each timer due by then once, and stops the clock
-- there: no timer runs until fast_forward, run_for or resume.
function Page:clock_pause_at(t)
  local cs = installed(self, "clock_pause_at")
  return command(self, cs, "pauseAt", (clock.time(t, "time")))
end

--- page:clock_resume() -> state: time flows again from where it stood.
function Page:clock_resume()
  local cs = installed(self, "clock_resume")
  return command(self, cs, "resume")
end

-- The clock of the page, installed first when it has none (as
-- Playwright's setFixedTime and setSystemTime do).
local function ensure(page)
  if not states[page] then page:clock() end
  return states[page]
end

--- page:clock_set_fixed_time(t) -> state: Date.now() and new Date() give
-- t from now on, while timers keep running.  Installs the clock first
-- when the page has none.
function Page:clock_set_fixed_time(t)
  local wall = clock.time(t, "time")
  return command(self, ensure(self), "setFixedTime", wall)
end

--- page:clock_set_system_time(t) -> state: the clock's time becomes t and
-- flows (or stays paused) from there; no timer runs and a fixed time is
-- dropped.  Installs the clock first when the page has none.
function Page:clock_set_system_time(t)
  local wall = clock.time(t, "time")
  return command(self, ensure(self), "setSystemTime", wall)
end

--- The Playwright names of the operations (page.clock.X).
clock.PLAYWRIGHT = { install = "install", fast_forward = "fastForward", run_for = "runFor", pause_at = "pauseAt",
  resume = "resume", set_fixed_time = "setFixedTime", set_system_time = "setSystemTime" }

-- How each operation reads its argument: a time, a duration or none.
local ARGS = { install = "time", fast_forward = "duration", run_for = "duration", pause_at = "time",
  resume = "none", set_fixed_time = "time", set_system_time = "time" }

--- clock.step(op, arg) -> line, run: op is an operation ("install",
-- "fast_forward", "run_for", "pause_at", "resume", "set_fixed_time",
-- "set_system_time") and arg its time or duration (nil for resume, and
-- for install at the current time).  line is the Playwright statement
-- ("await {page}.clock.fastForward('01:00:00');", "{page}" for the page's
-- variable); run(page) does the same on a page and returns its state.
-- Raises InvalidArgument for a bad op or argument before anything runs.
function clock.step(op, arg)
  local kind = ARGS[op]
  if not kind then
    bad(("clock: no operation %s (the operations are install, fast_forward, run_for, pause_at, resume, "
      .. "set_fixed_time, set_system_time)"):format(tostring(op)), { field = "op" })
  end
  local literal
  if kind == "time" and (arg ~= nil or op ~= "install") then literal = select(2, clock.time(arg, "time"))
  elseif kind == "duration" then literal = select(2, clock.duration(arg, "duration")) end
  local call
  if op == "install" then call = literal and ("{ time: " .. literal .. " }") or ""
  else call = literal or "" end
  local line = ("await {page}.clock.%s(%s);"):format(clock.PLAYWRIGHT[op], call)
  local function run(page)
    if op == "install" then return page:clock(arg ~= nil and { time = arg } or nil) end
    return page["clock_" .. op](page, arg)
  end
  return line, run
end

--- How long before the time it pauses at clock.step_paused installs the
-- clock.
clock.EARLY_MS = 60000

--- clock.step_paused(t) -> lines, run: the clock installed and paused at
-- time t, as clock.step gives a step: installed clock.EARLY_MS before t
-- and paused at t, the form a person writes in Playwright, whose pauseAt
-- refuses a time the clock has passed (and an installed clock flows on
-- in the moment between the two calls: run EW paused at its install
-- time and was refused).  lines are the two statements.
function clock.step_paused(t)
  local epoch, literal = clock.time(t, "time")
  local early = clock.iso(epoch - clock.EARLY_MS):gsub("%.000Z$", "Z")
  local lines = { ("await {page}.clock.install({ time: new Date(%s) }); // a minute early: pauseAt cannot go back")
      :format(json.encode(early)),
    ("await {page}.clock.pauseAt(%s);"):format(literal) }
  local function run(page)
    page:clock { time = epoch - clock.EARLY_MS }
    return page:clock_pause_at(epoch)
  end
  return lines, run
end

--- clock.iso(ms) -> "2026-12-24T10:00:00.000Z": a time as ISO 8601 UTC.
function clock.iso(ms)
  if type(ms) ~= "number" then return tostring(ms) end
  ms = math.floor(ms)
  return os.date("!%Y-%m-%dT%H:%M:%S", ms // 1000) .. (".%03dZ"):format(ms % 1000)
end

--- Adds the clock methods to the page class.
--- True when page has the controlled clock installed (page:clock).
function clock.installed(page)
  return states[page] ~= nil
end

--- True when page's controlled clock (page:clock) is installed and
-- paused: its time texts ("starts in 9:55") then stay as they are, the
-- test's to check.  A flowing clock still moves them.
function clock.controls(page)
  local cs = states[page]
  if not cs then return false end
  local ok, st = pcall(command, page, cs, "state")
  return ok and type(st) == "table" and st.paused == true
end

function clock.install(PageClass)
  for k, f in pairs(Page) do PageClass[k] = f end
end

return clock
