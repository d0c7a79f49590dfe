--- spec/clock_spec.lua: a page's controlled clock (vdx.clock,
-- bridge/page/clock.js) against the real browser: a "sale ends in 2 hours"
-- countdown (spec/fixtures/clock/sale.html, driven by setInterval and new
-- Date()) frozen reads the same on two runs; fast_forward, pause_at then
-- run_for, set_fixed_time and set_system_time move it as Playwright's
-- page.clock does; a same-origin iframe follows; a navigation keeps the
-- clock's time; bad arguments are typed errors; the tools record code
-- steps; and a flow's export runs in real Playwright with the same
-- countdown.
local vdx = require "vdx"
local h = require "helpers"
local clock = require "vdx.clock"

local T0, T10 = "2026-12-24T09:59:00Z", "2026-12-24T10:00:00Z"

-- The sale page's countdown, clock text, interval ticks and fired timeouts.
local function sale(page, frame)
  local doc = frame and "document.getElementById('sale').contentDocument" or "document"
  return page:evaluate(("[%s.getElementById('ends').textContent, %s.getElementById('now').textContent, "
    .. "%s.getElementById('ticks').textContent, %s.getElementById('fired').textContent].join(' | ')")
    :format(doc, doc, doc, doc))
end

-- The value of expr in the main world of the page's main frame.
local function main_world(page, expr)
  local r = page:send("Runtime.evaluate", { expression = expr, returnByValue = true })
  assert(not r.exceptionDetails, expr)
  return r.result.value
end

local function kind_of(f, ...)
  local err = h.error_of(f, ...)
  return err.type, tostring(err.message)
end

describe("vdx.clock times and durations #unit", function()
  it("reads ISO 8601 times with their zone, dates as UTC midnight, and epoch milliseconds", function()
    assert.same({ 1798106400000, 'new Date("2026-12-24T10:00:00Z")' }, { clock.time(T10) })
    assert.equal(1798106400000, (clock.time("2026-12-24T11:00:00+01:00")))
    assert.equal(1798106400250, (clock.time("2026-12-24T10:00:00.25Z")))
    assert.equal(1798106400000, (clock.time("2026-12-24T10:00Z")))
    assert.equal(1798070400000, (clock.time("2026-12-24")))
    assert.equal(951782400000, (clock.time("2000-02-29")))
    assert.same({ 1798106400000, "new Date(1798106400000)" }, { clock.time(1798106400000) })
  end)

  it("refuses a time without a zone, a day that does not exist and other values, naming the argument", function()
    local kind, msg = kind_of(clock.time, "2026-12-24T10:00:00")
    assert.equal("InvalidArgument", kind)
    assert.matches("add its zone, Z or %+01:00", msg)
    for _, bad in ipairs { "2026-02-30", "2026-02-29", "2026-13-01", "2026-12-24T25:00:00Z", "soon", "",
        "2026-12-24T10:00:00+1" } do
      assert.equal("InvalidArgument", (kind_of(clock.time, bad)), bad)
    end
    assert.matches("^time must be milliseconds", select(2, kind_of(clock.time, true)))
    assert.matches("got float", select(2, kind_of(clock.time, 1.5)))
    assert.matches("outside the range", select(2, kind_of(clock.time, 9e15)))
  end)

  it("reads durations as milliseconds or ss, mm:ss and hh:mm:ss", function()
    assert.same({ 3600000, '"01:00:00"' }, { clock.duration("01:00:00") })
    assert.equal(90000, (clock.duration("01:30")))
    assert.equal(8000, (clock.duration("08")))
    assert.same({ 250, "250" }, { clock.duration(250) })
    -- A number and a unit (run AD's "5s"), written in the clock's form
    -- when whole seconds (run EK's "7m" read as 420000), else as its
    -- milliseconds.
    assert.same({ 5000, '"00:05"' }, { clock.duration("5s") })
    assert.same({ 420000, '"07:00"' }, { clock.duration("7m") })
    assert.same({ 7200000, '"02:00:00"' }, { clock.duration("2h") })
    assert.same({ 250, "250" }, { clock.duration("250ms") })
    assert.same({ 600000, '"10:00"' }, { clock.duration("10 min") })
    for _, bad in ipairs { -1, "1:2:3:4", "1 fortnight", "h", "", "01:", 2.5, {} } do
      local kind, msg = kind_of(clock.duration, bad)
      assert.equal("InvalidArgument", kind, tostring(bad))
      assert.matches(bad == -1 and "must not be negative" or "\"hh:mm:ss\"", msg)
    end
  end)

  it("writes each operation as its page.clock call", function()
    assert.equal('await {page}.clock.install({ time: new Date("2026-12-24T09:59:00Z") });',
      (clock.step("install", T0)))
    assert.equal("await {page}.clock.install();", (clock.step("install")))
    assert.equal('await {page}.clock.fastForward("01:00:00");', (clock.step("fast_forward", "01:00:00")))
    assert.equal("await {page}.clock.runFor(5000);", (clock.step("run_for", 5000)))
    assert.equal('await {page}.clock.pauseAt(new Date("2026-12-24T10:00:00Z"));', (clock.step("pause_at", T10)))
    assert.equal("await {page}.clock.resume();", (clock.step("resume")))
    assert.equal("await {page}.clock.setFixedTime(new Date(0));", (clock.step("set_fixed_time", 0)))
    assert.equal('await {page}.clock.setSystemTime(new Date("2026-12-24"));',
      (clock.step("set_system_time", "2026-12-24")))
    assert.equal("InvalidArgument", (kind_of(clock.step, "rewind", 1)))
    assert.equal("InvalidArgument", (kind_of(clock.step, "pause_at", nil)))
  end)
end)

describe("a page's controlled clock", function()
  local srv, browser

  setup(function()
    srv = h.serve()
    browser = vdx.launch {}
  end)

  teardown(function() h.shut(browser, srv) end)

  -- A page in a fresh context with its clock installed at T0 and paused at
  -- T10, on the sale page.
  local function frozen(path)
    local page = browser:new_context():new_page()
    page:clock { time = T0 }
    page:clock_pause_at(T10)
    page:navigate(srv.url .. (path or "/clock/sale.html"))
    return page
  end

  it("refuses to move a clock that is not installed", function()
    local page = browser:new_page()
    for _, call in ipairs { { page.clock_fast_forward, 1000 }, { page.clock_run_for, 1000 },
        { page.clock_pause_at, T10 }, { page.clock_resume } } do
      local kind, msg = kind_of(call[1], page, call[2])
      assert.equal("ClockNotInstalled", kind)
      assert.matches("call page:clock{ time = … } first", msg, 1, true)
    end
    page:close()
  end)

  it("frozen at the same time, shows the same countdown and new Date() on two runs in fresh contexts", function()
    local seen = {}
    for run = 1, 2 do
      local page = frozen()
      seen[run] = sale(page)
      assert.equal('"2026-12-24T10:00:00.000Z"', main_world(page, "JSON.stringify(new Date())"))
      assert.equal(T10:gsub("Z$", ".000Z"), main_world(page, "new Date().toISOString()"))
      -- Real time passes; the paused clock runs no timer.
      vdx.sleep(1100)
      assert.equal(seen[run], sale(page))
      page:context():close()
    end
    assert.equal("Sale ends in 2h 00m 00s | 2026-12-24T10:00:00.000Z | 0 | ", seen[1])
    assert.equal(seen[1], seen[2])
  end)

  it("fast-forwards an hour, running each due timer once", function()
    local page = frozen()
    local st = page:clock_fast_forward("01:00:00")
    -- The interval once, the 10 and 30 minute timeouts; the interval and
    -- the 90 minute timeout stay.
    assert.same({ fired = 3, pending = 2, now = 1798110000000, paused = true }, { fired = st.fired,
      pending = st.pending, now = st.now, paused = st.paused })
    assert.equal("Sale ends in 1h 00m 00s | 2026-12-24T11:00:00.000Z | 1 | 10m,30m", sale(page))
    page:context():close()
  end)

  it("pauses at a time, then runs for a while firing every timer as it falls due", function()
    local page = browser:new_context():new_page()
    page:clock { time = T0 }
    page:clock_pause_at("2026-12-24T09:59:30Z")
    page:navigate(srv.url .. "/clock/sale.html")
    local st = page:clock_pause_at(T10)
    assert.is_true(st.paused)
    assert.equal(1, st.fired)      -- the interval, once, for all 30 seconds
    assert.equal("Sale ends in 2h 00m 00s | 2026-12-24T10:00:00.000Z | 1 | ", sale(page))
    st = page:clock_run_for(5000)
    assert.equal(5, st.fired)
    assert.equal("Sale ends in 1h 59m 55s | 2026-12-24T10:00:05.000Z | 6 | ", sale(page))
    st = page:clock_run_for("10:00")
    assert.equal(601, st.fired)    -- 600 seconds of the interval and the 10 minute timeout
    assert.equal("Sale ends in 1h 49m 55s | 2026-12-24T10:10:05.000Z | 606 | 10m", sale(page))
    local kind, msg = kind_of(page.clock_pause_at, page, T10)
    assert.equal("InvalidArgument", kind)
    assert.matches("cannot pause at a time before the clock's time 2026-12-24T10:10:05.000Z", msg, 1, true)
    page:context():close()
  end)

  it("fixes Date while timers run, and sets the system time without running timers", function()
    local page = frozen()
    local st = page:clock_set_fixed_time("2026-12-24T11:30:00Z")
    assert.equal(1798111800000, st.fixed)
    page:clock_run_for(3000)
    assert.equal("Sale ends in 0h 30m 00s | 2026-12-24T11:30:00.000Z | 3 | ", sale(page))
    assert.equal(1798111800000, main_world(page, "Date.now()"))
    st = page:clock_set_system_time("2026-12-24T11:00:00Z")
    assert.same({ 0, nil }, { st.fired, st.fixed })
    page:clock_run_for(1000)
    assert.equal("Sale ends in 0h 59m 59s | 2026-12-24T11:00:01.000Z | 4 | ", sale(page))
    page:context():close()
  end)

  it("fixes the time of a page with no clock yet, installing it, as Playwright's setFixedTime does", function()
    local page = browser:new_context():new_page()
    page:clock_set_fixed_time(T10)
    page:navigate(srv.url .. "/clock/sale.html")
    assert.equal("Sale ends in 2h 00m 00s | 2026-12-24T10:00:00.000Z | 0 | ", sale(page))
    page:context():close()
  end)

  it("keeps the clock's time across a navigation", function()
    local page = frozen()
    page:clock_fast_forward("01:00:00")
    page:navigate(srv.url .. "/clock/sale.html")
    assert.equal("Sale ends in 1h 00m 00s | 2026-12-24T11:00:00.000Z | 0 | ", sale(page))
    page:context():close()
  end)

  it("moves the clock of a same-origin iframe with the page's", function()
    local page = frozen("/clock/frame.html")
    assert.equal("Sale ends in 2h 00m 00s | 2026-12-24T10:00:00.000Z | 0 | ", sale(page, true))
    local st = page:clock_fast_forward("01:00:00")
    assert.equal(2, st.frames)
    assert.equal("Sale ends in 1h 00m 00s | 2026-12-24T11:00:00.000Z | 1 | 10m,30m", sale(page, true))
    page:context():close()
  end)

  it("fakes Date, performance.now and the timers in the main world, in order of due time then creation", function()
    local page = frozen("/clock/frame.html")
    assert.same({ true, true, true, "string", 1798106400000, 0, true, "Date" }, main_world(page, [[(() => {
      class Sub extends Date {}
      return [new Date() instanceof Date, new Sub() instanceof Date, new Date(5).getTime() === 5, typeof Date(),
        new Sub().getTime(), Date.UTC(1970, 0, 1), Date.parse('2026-12-24T10:00:00Z') === Date.now(),
        new Date().constructor.name];
    })()]]))
    local p0 = main_world(page, "performance.now()")
    main_world(page, [[(() => {
      window.log = [];
      const a = setTimeout(() => log.push('a'), 100);
      setTimeout(() => log.push('b'), 100);
      clearTimeout(a);
      requestAnimationFrame(() => log.push('frame'));
      requestIdleCallback(() => log.push('idle'));
      setTimeout(() => log.push('c'), 50);
      const i = setInterval(() => {
        log.push('i');
        if (log.filter(x => x === 'i').length === 2) clearInterval(i);
      }, 40);
    })()]])
    page:clock_run_for(200)
    assert.same({ "frame", "i", "idle", "c", "i", "b" }, main_world(page, "log"))
    assert.is_true(math.abs(main_world(page, "performance.now()") - p0 - 200) < 1e-6)
    page:context():close()
  end)

  it("is not reached or broken by a page that replaces the timer functions and lists its globals", function()
    local page = frozen()
    assert.is_false(main_world(page, [[(() => {
      const listed = Object.keys(window).some((k) => /clock/i.test(k));
      window.setTimeout = () => 0;
      window.clearTimeout = () => {};
      Date.now = () => 0;
      return listed;
    })()]]))
    local st = page:clock_fast_forward("01:00:00")
    assert.equal(3, st.fired)
    assert.equal("Sale ends in 1h 00m 00s | 2026-12-24T11:00:00.000Z | 1 | 10m,30m", sale(page))
    page:context():close()
  end)

  it("gives typed errors for bad times, durations, options and a second install", function()
    local page = browser:new_context():new_page()
    local kind, msg = kind_of(page.clock, page, { time = "2026-12-24T10:00:00" })
    assert.equal("InvalidArgument", kind)
    assert.matches("add its zone", msg)
    assert.matches("unknown option when", select(2, kind_of(page.clock, page, { when = T10 })))
    assert.matches("options must be a table", select(2, kind_of(page.clock, page, T10)))
    page:clock { time = T0 }
    assert.matches("installed already", select(2, kind_of(page.clock, page, { time = T0 })))
    assert.equal("InvalidArgument", (kind_of(page.clock_fast_forward, page, -5)))
    assert.equal("InvalidArgument", (kind_of(page.clock_run_for, page, "1:2:3:4")))
    assert.equal("InvalidArgument", (kind_of(page.clock_set_fixed_time, page, "tomorrow")))
    -- The clock still answers after the refusals.
    assert.equal(1798106400000, page:clock_pause_at(T10).now)
    page:context():close()
  end)

  it("stops a step that a page's self-renewing timer would never end, and keeps answering", function()
    local page = frozen()
    main_world(page, "(() => { const again = () => setTimeout(again, 0); again(); })()")
    local kind, msg = kind_of(page.clock_run_for, page, 10)
    assert.equal("JavaScriptError", kind)
    assert.matches("more than 100000 timer callbacks in one step", msg, 1, true)
    assert.equal(2, page:evaluate("1 + 1"))
    assert.equal("Sale ends in 2h 00m 00s | 2026-12-24T10:00:00.000Z | 0 | ", sale(page))
    page:context():close()
  end)
end)

describe("the clock tools", function()
  local t = {}
  setup(function() h.start_tool_session(t) end)
  teardown(function() h.stop_tool_session(t) end)

  it("install, pause, fast-forward and fix the time of the current tab, and record page.clock steps", function()
    local res, text = t.call("browser_clock_fast_forward", { duration = "01:00" })
    assert.is_true(res.isError)
    assert.matches("The page has no controlled clock", text, 1, true)
    _, text = t.call("browser_clock_install", { time = T0 })
    assert.matches("^Installed: the page's time is 2026%-12%-24T09:59:00%.%d%d%dZ; flowing with real time", text)
    assert.matches('A time the page shows from now ("5 minutes ago") moves on while the test runs: '
      .. "browser_clock_pause_at holds the clock still.", text, 1, true)
    _, text = t.call("browser_clock_pause_at", { time = T10 })
    assert.equal("Paused: the page's time is 2026-12-24T10:00:00.000Z; paused (no timer runs until the clock is "
      .. "moved or resumed); 0 timer callbacks ran, 0 pending.", text)
    t.call("browser_navigate", { url = t.srv.url .. "/clock/sale.html" })
    res, text = t.call("browser_clock_fast_forward", { duration = "01:00:00" })
    assert.equal("Fast-forwarded: the page's time is 2026-12-24T11:00:00.000Z; paused (no timer runs until the "
      .. "clock is moved or resumed); 3 timer callbacks ran, 2 pending. A repeating timer (a countdown's tick) ran "
      .. "once on the way: browser_clock_run_for runs it each time it falls due; browser_export_test drop=[4] takes "
      .. "this step out if that is what you meant.", text:match("^[^\n]*"))
    -- What the timers changed, as an action's answer says it; the paused
    -- clock's texts hold still, so they are proposed.
    assert.matches('\n~ paragraph: "Interval ticks: 1" (was "Interval ticks: 0")', text, 1, true)
    assert.matches("\n[a1] getByText('Sale ends in 1h 00m 00s', { exact: true }) toBeVisible", text, 1, true)
    local st = res.structuredContent
    assert.same({ now = "2026-12-24T11:00:00.000Z", paused = true, fired = 3, pending = 2, frames = 1 },
      { now = st.now, paused = st.paused, fired = st.fired, pending = st.pending, frames = st.frames })
    assert.equal(4, st.changes.changed)
    t.call("browser_clock_run_for", { duration = 5000 })
    t.call("browser_clock_set_fixed_time", { time = 1798111800000 })
    _, text = t.call("browser_clock_resume", {})
    assert.matches("fixed %(Date.now%(%) and new Date%(%) stay there; timers run%)", text)
    assert.equal("Sale ends in 0h 59m 55s | 2026-12-24T11:00:05.000Z | 6 | 10m,30m", sale(t.ctx:page()))
    res, text = t.call("browser_clock_pause_at", { time = "noon" })
    assert.is_true(res.isError)
    assert.matches("Invalid argument", text, 1, true)

    local lines = {}
    for _, s in ipairs(t.ctx.session:list()) do
      lines[#lines + 1] = s.kind == "code" and s.lines[1] or s.kind
    end
    assert.same({
      'await {page}.clock.install({ time: new Date("2026-12-24T09:59:00Z") });',
      'await {page}.clock.pauseAt(new Date("2026-12-24T10:00:00Z"));',
      "navigate",
      'await {page}.clock.fastForward("01:00:00");',
      "await {page}.clock.runFor(5000);",
      "await {page}.clock.setFixedTime(new Date(1798111800000));",
      "await {page}.clock.resume();",
    }, lines)
    local export = require "vdx.session_export"
    assert.same({ "await defaultPage.clock.runFor(5000);" }, export.statements(t.ctx.session:list()[5]))
  end)

  it("installs a clock paused at its time from the start, written as install a minute early and pauseAt", function()
    local page = t.roles:current():context():new_page()
    local was = t.ctx.page
    t.ctx.page = function() return page end
    -- (Run EW paused at its install time, which the clock had passed.)
    local ok, res, text = pcall(t.call, "browser_clock_install", { time = T10, paused = true })
    local missing = ok and { pcall(t.call, "browser_clock_install", { paused = true }) }
    local pages_time = page:evaluate("Date.now()")
    t.ctx.page = was
    page:close()
    assert(ok, res)
    assert.equal("Installed: the page's time is 2026-12-24T10:00:00.000Z; paused (no timer runs until the clock is "
      .. "moved or resumed); 0 timer callbacks ran, 0 pending.", text)
    assert.equal(1798106400000, pages_time)
    local step = t.ctx.session:list()[#t.ctx.session:list()]
    assert.same({ 'await {page}.clock.install({ time: new Date("2026-12-24T09:59:00Z") }); // a minute early: '
      .. "pauseAt cannot go back", 'await {page}.clock.pauseAt(new Date("2026-12-24T10:00:00Z"));' }, step.lines)
    assert.is_true(missing[2].isError)
    assert.matches("paused: give the time to pause at", missing[3], 1, true)
  end)

  it("says that a page loaded before the install keeps its timers on the real clock", function()
    local page = t.roles:current():context():new_page()
    local was = t.ctx.page
    t.ctx.page = function() return page end
    page:navigate(t.srv.url .. "/clock/sale.html")
    local ok, res, text = pcall(t.call, "browser_clock_install", { time = T0 })
    t.ctx.page = was
    page:close()
    assert(ok, res)
    assert.matches("The page had loaded before: the timers it set then run on the real clock, not this one; load "
      .. "it again (browser_navigate) for its scripts to start on the clock.", text, 1, true)
  end)

  it("replays a recorded step on a fresh page", function()
    local step = t.ctx.session:list()[1]
    local page = t.roles:current():context():new_page()
    step.replay(page)
    page:clock_pause_at(T10)
    page:navigate(t.srv.url .. "/clock/sale.html")
    assert.equal("Sale ends in 2h 00m 00s | 2026-12-24T10:00:00.000Z | 0 | ", sale(page))
    page:close()
  end)
end)

describe("a flow with a frozen clock, exported", function()
  local dir, out, status, pw, pw_why

  lazy_setup(function()
    dir = os.tmpname()
    os.remove(dir)
    os.execute("mkdir -p " .. h.quote(dir))
    pw, pw_why = h.playwright()
    if pw and not pw:match("^/") then pw = io.popen("pwd"):read("l") .. "/" .. pw end
    out, status = h.run(("%s%s spec/fixtures/clock/flow.lua --emit-playwright %s"):format(
      pw and ("VDX_PLAYWRIGHT_DIR=" .. h.quote(pw) .. " ") or "", h.vdxlua, h.quote(dir .. "/sale.spec.ts")))
  end)

  lazy_teardown(function()
    if dir then os.execute("rm -rf " .. h.quote(dir)) end
  end)

  it("passes, and writes the page.clock calls", function()
    assert.equal(0, status, out)
    local spec = assert(h.read(dir .. "/sale.spec.ts"))
    for _, line in ipairs {
      'await shopper.clock.install({ time: new Date("2026-12-24T09:59:00Z") });',
      'await shopper.clock.pauseAt(new Date("2026-12-24T10:00:00Z"));',
      'await shopper.clock.fastForward("01:00:00");',
      "await shopper.clock.runFor(5000);",
      'await shopper.clock.setFixedTime(new Date("2026-12-24T11:30:00Z"));',
      "await expect(shopper.locator('body')).toContainText('Sale ends in 0h 59m 55s');",
    } do
      assert.is_truthy(spec:find(line, 1, true), line)
    end
  end)

  it("runs in Playwright and shows the same countdown", function()
    if not pw then
      pending(pw_why)
      return
    end
    local cmd = assert(out:match("\nRun it with:\n  ([^\n]+)\n"), out)
    local res, st = h.run(("cd %s && timeout 300 sh -c %s"):format(h.quote(dir), h.quote(cmd)))
    assert.equal(0, st, res)
    assert.matches("1 passed", res)
  end)
end)

describe("the clock tools over MCP, exported", function()
  local client = require "mcp_client"
  local srv, dir

  setup(function()
    srv = h.serve()
    dir = client.tmpdir()
  end)

  teardown(function()
    if srv then srv:close() end
    if dir then os.execute("rm -rf " .. h.quote(dir)) end
  end)

  it("writes page.clock calls that the flake gate replays 3/3 and Playwright passes", function()
    local pw, pw_why = h.playwright()
    if pw and not pw:match("^/") then pw = io.popen("pwd"):read("l") .. "/" .. pw end
    local s = client.start("--caps clock --output-dir " .. h.quote(dir .. "/out"),
      pw and ("VDX_PLAYWRIGHT_DIR=" .. h.quote(pw)) or nil)
    client.caller(s)
    local n = 100
    local function text(name, args)
      n = n + 1
      s:send(client.call(n, name, args))
      local m = s:wait_for(n, 240000)
      if not m or m.result.isError then
        s:close(30000)
        error(name .. ": " .. (m and tostring(m.result.content[1].text) or "no answer"), 2)
      end
      return m.result.content[1].text
    end
    text("browser_clock_install", { time = T0 })
    text("browser_clock_pause_at", { time = T10 })
    text("browser_navigate", { url = srv.url .. "/clock/sale.html" })
    text("browser_verify_text_visible", { text = "Sale ends in 2h 00m 00s" })
    text("browser_clock_fast_forward", { duration = "01:00:00" })
    text("browser_verify_text_visible", { text = "Sale ends in 1h 00m 00s" })
    text("browser_verify_text_visible", { text = "10m,30m" })
    local answer = text("browser_export_test", { filename = "sale", runs = 3 })
    s:close(30000)
    local spec = assert(h.read(dir .. "/out/sale.spec.ts"), answer)
    for _, line in ipairs {
      'await page.clock.install({ time: new Date("2026-12-24T09:59:00Z") });',
      'await page.clock.pauseAt(new Date("2026-12-24T10:00:00Z"));',
      'await page.clock.fastForward("01:00:00");',
    } do
      assert.is_truthy(spec:find(line, 1, true), line .. "\n" .. spec)
    end
    assert.matches("Flake gate: 3 runs in fresh contexts, every step passed 3/3\n", answer, 1, true)
    if not pw then
      pending(pw_why)
      return
    end
    assert.matches("Playwright (3 runs of the file): ✅ 3 passed", answer, 1, true)
  end)
end)
