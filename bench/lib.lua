--- bench/lib.lua: timing, statistics, memory and JSON helpers shared by
-- bench/run.lua, bench/stress.lua and the fault specs.
local vdx = require "vdx"

local lib = {}

--- Wall-clock milliseconds with sub-millisecond resolution when luasystem
-- (Debian lua-system, which busted brings) is there; vdx.now otherwise.
local hr = nil
do
  local ok, system = pcall(require, "system")
  if ok and type(system) == "table" and system.monotime then
    hr = function() return system.monotime() * 1000 end
  end
end
function lib.ms() return hr and hr() or vdx.now() end

--- Median and 95th percentile (nearest rank) of a list of numbers.
function lib.stats(xs)
  local s = {}
  for i, x in ipairs(xs) do s[i] = x end
  table.sort(s)
  local n = #s
  if n == 0 then return { median = nil, p95 = nil, n = 0 } end
  local med = n % 2 == 1 and s[(n + 1) // 2] or (s[n // 2] + s[n // 2 + 1]) / 2
  local p95 = s[math.min(n, math.max(1, math.ceil(0.95 * n)))]
  return { median = med, p95 = p95, min = s[1], max = s[n], n = n }
end

--- Times fn() reps times (after warm warm-up calls); returns stats and the
-- last result.  fn may raise: the error propagates.
function lib.time(reps, fn, warm)
  local last
  for _ = 1, warm or 1 do last = fn() end
  local xs = {}
  for i = 1, reps do
    local t0 = lib.ms()
    last = fn()
    xs[i] = lib.ms() - t0
  end
  local st = lib.stats(xs)
  st.samples = xs
  return st, last
end

--- Runs fn() once, appends its time in ms to list; returns fn's result.
function lib.timed(list, fn)
  local t0 = lib.ms()
  local r = fn()
  list[#list + 1] = lib.ms() - t0
  return r
end

--- The CPU time page's renderer main thread has used so far, in ms
-- (Performance.getMetrics ThreadTime; the domain is enabled on first use).
-- On a shared machine it moves far less than the wall time.
local perf_on = setmetatable({}, { __mode = "k" })
function lib.thread_ms(page)
  if not perf_on[page] then
    page:send("Performance.enable", { timeDomain = "threadTicks" })
    perf_on[page] = true
  end
  for _, m in ipairs(page:send("Performance.getMetrics", {}).metrics) do
    if m.name == "ThreadTime" then return m.value * 1000 end
  end
  error("no ThreadTime metric")
end

--- Reads a /proc file whole (nil when it cannot).
local function slurp(path)
  local f = io.open(path)
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return s
end
lib.slurp = slurp

--- { rss_kib, pss_kib } of one process from /proc/PID/smaps_rollup.
function lib.mem(pid)
  local s = slurp("/proc/" .. tostring(pid or "self") .. "/smaps_rollup")
  if not s then return nil end
  return { rss_kib = tonumber(s:match("\nRss:%s+(%d+)")) or 0,
           pss_kib = tonumber(s:match("\nPss:%s+(%d+)")) or 0 }
end

--- utime + stime of process pid ("self" for this one) in ms, from
-- /proc/PID/stat (ticks of 10 ms: CLK_TCK is 100 on Linux); 0 when it is
-- gone.
function lib.cpu_ms(pid)
  local s = slurp("/proc/" .. pid .. "/stat")
  local rest = s and s:match("%) (.*)$")
  if not rest then return 0 end
  local f = {}
  for x in rest:gmatch("%S+") do f[#f + 1] = x end
  return (tonumber(f[12]) + tonumber(f[13])) * 10
end

--- The live process ids of process group pgid (from /proc, no ps needed).
function lib.group_pids(pgid)
  local pids = {}
  local p = io.popen("ps -o pid=,stat= -g " .. math.tointeger(pgid) .. " 2>/dev/null")
  for line in p:lines() do
    local pid, stat = line:match("(%d+)%s+(%S+)")
    if pid and not stat:match("Z") then pids[#pids + 1] = tonumber(pid) end
  end
  p:close()
  return pids
end

--- Summed RSS and PSS of process group pgid (a launched browser's tree).
function lib.group_mem(pgid)
  local r = { rss_kib = 0, pss_kib = 0, processes = 0 }
  for _, pid in ipairs(lib.group_pids(pgid)) do
    local m = lib.mem(pid)
    if m then
      r.rss_kib = r.rss_kib + m.rss_kib
      r.pss_kib = r.pss_kib + m.pss_kib
      r.processes = r.processes + 1
    end
  end
  return r
end

--- Launches Chromium for the benchmarks with a profile directory of its
-- own (/tmp/vdxbench-*), so the test suite's clean-up of stray
-- vdx-chromium-* browsers on a shared machine does not end it.  Returns
-- the browser and a function that closes it and removes the profile.
function lib.launch(opts)
  opts = opts or {}
  local p = io.popen("mktemp -d /tmp/vdxbench-XXXXXX")
  local dir = p:read("l")
  p:close()
  opts.user_data_dir = dir
  local browser = vdx.launch(opts)
  return browser, function()
    browser:close()
    if dir and dir:match("^/tmp/vdxbench%-") then os.execute("rm -rf '" .. dir .. "'") end
  end
end

--- A raw page on browser, which vdx sets nothing up on: a browser context
-- and target of its own, a flattened session through browser:send, and
-- Page.enable.  Each auto-attached child session is handed to
-- on_attached(params) (default: resumed, nothing else), once the caller
-- sends Target.setAutoAttach with the set-up it wants before it.  Returns
-- { sid, send(method, params, session), navigate(url) -> ms until the
-- page's Page.loadEventFired } (a missing load event in timeout_ms raises).
function lib.raw_page(browser, on_attached, timeout_ms)
  timeout_ms = timeout_ms or 60000
  local ctx = browser:send("Target.createBrowserContext", {}).browserContextId
  local target = browser:send("Target.createTarget", { url = "about:blank", browserContextId = ctx }).targetId
  local sid = browser:send("Target.attachToTarget", { targetId = target, flatten = true }).sessionId
  local r = { sid = sid }
  function r.send(method, params, session)
    return browser:send(method, params or {}, { session = session or sid, timeout_ms = timeout_ms })
  end
  browser:on("Target.attachedToTarget", on_attached or function(p)
    browser:send("Runtime.runIfWaitingForDebugger", {}, { session = p.sessionId })
  end, { session = sid })
  local sleeper
  browser:on("Page.loadEventFired", function()
    if sleeper then sleeper:cancel() end
  end, { session = sid })
  r.send("Page.enable")
  function r.navigate(url)
    local t0 = lib.ms()
    sleeper = vdx.spawn(vdx.sleep, timeout_ms)
    r.send("Page.navigate", { url = url })
    local ok = pcall(vdx.wait, sleeper)
    sleeper = nil
    if ok then error("raw page: no load event for " .. url) end
    return lib.ms() - t0
  end
  return r
end

--- The machine's load averages and core count, for the report.
function lib.machine()
  local la = slurp("/proc/loadavg") or ""
  local l1, l5, l15 = la:match("(%S+) (%S+) (%S+)")
  local cpus = 0
  for _ in (slurp("/proc/cpuinfo") or ""):gmatch("\nprocessor") do cpus = cpus + 1 end
  local model = (slurp("/proc/cpuinfo") or ""):match("model name%s*:%s*([^\n]+)")
  local p = io.popen("chromium --version 2>/dev/null")
  local chromium = p and p:read("l") or "?"
  if p then p:close() end
  return { load1 = tonumber(l1), load5 = tonumber(l5), load15 = tonumber(l15),
           cpus = cpus + ((slurp("/proc/cpuinfo") or ""):match("^processor") and 1 or 0),
           cpu_model = model, chromium = chromium, date = os.date("!%Y-%m-%dT%H:%M:%SZ") }
end

--- Formats a number of milliseconds for the table.
function lib.fmt(x)
  if x == nil then return "n/a" end
  if type(x) ~= "number" then return tostring(x) end
  if x >= 100 then return ("%.0f"):format(x) end
  if x >= 10 then return ("%.1f"):format(x) end
  return ("%.2f"):format(x)
end

--- Pads s to width w (left-aligned, or right-aligned when right).
function lib.pad(s, w, right)
  s = tostring(s)
  if #s >= w then return s end
  return right and (" "):rep(w - #s) .. s or s .. (" "):rep(w - #s)
end

--- An MCP server in this process for the probes (bench/mcp_cost.lua,
-- bench/mcp_tail.lua): the built-in tools, one role whose browser has a
-- profile of its own, the fixture pages served, and every reply line
-- written and flushed to a pipe (as `vdxlua mcp` writes to stdout), then
-- handed to on_line when given.  The role's page has loaded page_name.
-- Returns { server, registry, roles, page, url, sink, close = fn }.
function lib.mcp_harness(page_name, on_line)
  local fx = require "fixtures"
  local mcp, tools, roles = require "vdx.mcp", require "vdx.tools", require "vdx.roles"
  local srv, base = fx.serve(vdx)
  local url = base["local"] .. "/" .. page_name
  local reg = tools.new()
  require("vdx.builtin").register_all(reg)
  local p = io.popen("mktemp -d /tmp/vdxbench-XXXXXX")
  local dir = p:read("l")
  p:close()
  local mgr = roles.new { launch = { headless = true, user_data_dir = dir } }
  local sink = assert(io.popen("cat > /dev/null", "w"))
  sink:setvbuf("full")
  local server = mcp.new { registry = reg, roles = mgr, write = function(line)
    sink:write(line, "\n")
    sink:flush()
    if on_line then on_line(line) end
  end }
  server.version, server.ready = "2025-06-18", true
  local page = mgr:current():page()
  page:navigate(url)
  return { server = server, registry = reg, roles = mgr, page = page, url = url, sink = sink,
    close = function()
      mgr:close()
      sink:close()
      srv:close()
      if dir and dir:match("^/tmp/vdxbench%-") then os.execute("rm -rf '" .. dir .. "'") end
    end }
end

--- A main-world script of bridge/page/ (vdx.page_script, which the build
-- embeds), leading comment lines dropped, as a call expression with args
-- (Lua values, JSON-encoded) for Runtime.evaluate: `(script)(args…)`.
function lib.page_call(name, ...)
  local text = vdx.page_script(name, true)
  local args = {}
  local cjson = require "cjson"
  for i = 1, select("#", ...) do args[i] = cjson.encode((select(i, ...))) end
  return "(" .. text .. ")(" .. table.concat(args, ", ") .. ")"
end

--- A page made a floor for the benchmarks: what the browser itself costs
-- over vdx's transport.  Unless keep_bridge, the bridge's new-document
-- script is removed (its identifier is one of those below ours on this
-- session, the only scripts registered before it), so no new document
-- gets it.  Returns { navigate = fn(url [, timeout_ms]): a raw
-- Page.navigate until its Page.loadEventFired (a task asleep until the
-- event cancels it: no polling), walk = fn() -> the bare walk's text,
-- eval = fn(expression) -> its value (main world, by value) }; the walk
-- is bridge/page/floor-walk.js.
function lib.floor_page(page, keep_bridge)
  if not keep_bridge then
    local mine = page:send("Page.addScriptToEvaluateOnNewDocument", { source = "" }).identifier
    for id = 1, assert(tonumber(mine)) do
      page:send("Page.removeScriptToEvaluateOnNewDocument", { identifier = tostring(id) })
    end
  end
  local sleeper
  page:on("Page.loadEventFired", function()
    if sleeper then sleeper:cancel() end
  end)
  local fp = {}
  function fp.navigate(url, timeout_ms)
    sleeper = vdx.spawn(vdx.sleep, timeout_ms or 60000)
    page:send("Page.navigate", { url = url })
    local ok = pcall(vdx.wait, sleeper)
    sleeper = nil
    if ok then error(("no load event for %s in %d ms"):format(url, timeout_ms or 60000)) end
  end
  function fp.eval(expression)
    local r = page:send("Runtime.evaluate", { expression = expression, returnByValue = true })
    if r.exceptionDetails then
      error("floor: the page's script failed: " .. tostring(r.exceptionDetails.exception
        and r.exceptionDetails.exception.description or r.exceptionDetails.text))
    end
    return r.result.value
  end
  local walk = lib.page_call("floor-walk")
  function fp.walk() return fp.eval(walk) end
  return fp
end

return lib
