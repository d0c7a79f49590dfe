--- bench/stress.lua: `make stress`.  STRESS_N (default 1000) mixed
-- operations against one browser, with a snapshot (and, when page:click is
-- there, an action) after each:
--   cross-document navigations, SPA route changes, iframes (same-origin and
--   cross-origin) added and removed while a snapshot runs, reloads (some in
--   the middle of a click), tabs opened and closed.
-- Counts unexpected errors (must be 0), "cannot find context" (must be 0),
-- host memory growth and the frames the page tracks (both bounded), prints
-- the counts and exits non-zero on a violation.
--
-- Expected, and counted apart: an action on a ref that a navigation or a
-- churned frame took away (StaleRef, UnknownRef, FrameDetached,
-- ElementCovered, NavigationFailed for a navigation replaced by another,
-- an action Timeout).  Snapshots, navigations and tabs have no expected
-- errors: every error there is unexpected.
--
-- Environment: STRESS_N, STRESS_SEED (default 1), STRESS_MEM_MIB (allowed
-- host RSS growth after warm-up, default 24), STRESS_FRAMES (allowed
-- tracked frames, default 40), STRESS_VERBOSE=1 (one line per operation),
-- STRESS_SECONDS (stop early after that long; the report says so).
package.path = "bench/?.lua;" .. package.path
local vdx = require "vdx"
local fx = require "fixtures"
local lib = require "lib"

local N = tonumber(os.getenv("STRESS_N") or "") or 1000
local SEED = tonumber(os.getenv("STRESS_SEED") or "") or 1
local MEM_BOUND = (tonumber(os.getenv("STRESS_MEM_MIB") or "") or 24) * 1024
local FRAME_BOUND = tonumber(os.getenv("STRESS_FRAMES") or "") or 40
local VERBOSE = os.getenv("STRESS_VERBOSE") == "1"
local SECONDS = tonumber(os.getenv("STRESS_SECONDS") or "")
math.randomseed(SEED)

local EXPECTED_ACTION = { StaleRef = true, UnknownRef = true, FrameDetached = true, ElementCovered = true,
                          NavigationFailed = true, Timeout = true, PageClosed = true,
                          ElementNotVisible = true, ElementNotEnabled = true }

local counts = { ops = 0, snapshots = 0, actions = 0, expected = 0, unexpected = 0, no_context = 0,
                 warnings = 0, tabs = 0, by_kind = {}, expected_by_type = {} }
local unexpected_log = {}

local function etype(e)
  if type(e) == "table" and e.type then return e.type end
  return "Error"
end

local function note_error(where, e, expected_set)
  local msg = tostring(e)
  if msg:lower():find("cannot find context", 1, true) then counts.no_context = counts.no_context + 1 end
  local t = etype(e)
  if expected_set and expected_set[t] then
    counts.expected = counts.expected + 1
    counts.expected_by_type[t] = (counts.expected_by_type[t] or 0) + 1
  else
    counts.unexpected = counts.unexpected + 1
    local line = where .. ": " .. msg:gsub("\n.*", "")
    if #unexpected_log < 20 then unexpected_log[#unexpected_log + 1] = line end
    -- Say it at once too: a long run that dies or is stopped still shows it.
    io.stderr:write(("stress: unexpected after %d ops: %s\n"):format(counts.ops, line))
  end
end

local function try(where, expected_set, fn, ...)
  local ok, r = pcall(fn, ...)
  if not ok then note_error(where, r, expected_set) return nil end
  return r
end

local srv, base = fx.serve(vdx)
local routes_churn = [[(() => {
  const n = %d, cross = %s, base = %q;
  let made = 0;
  const t = setInterval(() => {
    const f = document.createElement('iframe');
    f.title = 'churn ' + made;
    f.src = cross ? base + '/cross-' + (1 + made %% 5) + '.html' : '/nest-5.html';
    document.body.appendChild(f);
    setTimeout(() => f.remove(), %d);
    if (++made >= n) clearInterval(t);
  }, 15);
  return true; })()]]

local browser, close_browser = lib.launch { args = { fx.RESOLVER }, timeout_ms = 60000 }
local ctx = browser:new_context()
local page = ctx:new_page()
local pages = { "/shop.html", "/blank.html", "/elements-2000.html", "/shadow.html", "/spa.html", "/frames.html" }
local current = nil
local last_snap = nil

local function navigate(path)
  local url = (path == "/frames.html" and base.a or base["local"]) .. path
  local r = try("navigate " .. path, nil, page.navigate, page, url, { timeout_ms = 30000 })
  if r then current = path end
  return r
end

local function snapshot(where)
  local s = try("snapshot after " .. where, nil, page.snapshot, page, { timeout_ms = 20000 })
  counts.snapshots = counts.snapshots + 1
  if s then
    last_snap = s
    counts.warnings = counts.warnings + #(s.warnings or {})
  end
  return s
end

local function random_ref()
  if not last_snap then return nil end
  local refs = {}
  for ref in last_snap.text:gmatch('%- button "[^"]*" %[ref=([%w_]+)%]') do refs[#refs + 1] = ref end
  for ref in last_snap.text:gmatch('%- link "[^"]*" %[ref=([%w_]+)%]') do
    if current ~= "/shop.html" or math.random() < 0.2 then refs[#refs + 1] = ref end
  end
  if #refs == 0 then return nil end
  return refs[math.random(#refs)]
end

local function action(where)
  if type(page.click) ~= "function" then return end
  local ref = random_ref()
  if not ref then return end
  counts.actions = counts.actions + 1
  try("click after " .. where, EXPECTED_ACTION, page.click, page, ref, { timeout_ms = 3000 })
end

local ops = {
  { "navigate", 30, function()
      navigate(pages[math.random(#pages)])
    end },
  { "spa_route", 20, function()
      if current ~= "/spa.html" then navigate("/spa.html") end
      try("spa route", nil, page.evaluate, page, ("go('/spa/%d')"):format(math.random(1, 50)))
    end },
  { "iframe_churn", 20, function()
      if current ~= "/blank.html" and current ~= "/shop.html" then navigate("/blank.html") end
      local cross = math.random() < 0.5
      try("churn", nil, page.evaluate, page, routes_churn:format(math.random(2, 6), tostring(cross), base.b,
                                                               math.random(0, 60)))
      -- the snapshot below runs while frames come and go
    end },
  { "reload", 10, function()
      if page.reload then try("reload", nil, page.reload, page, { timeout_ms = 30000 })
      else navigate(current or "/blank.html") end
    end },
  { "reload_mid_click", 8, function()
      if not (page.reload and type(page.click) == "function") then return navigate("/shop.html") end
      local ref = random_ref()
      local t = vdx.spawn(function() return pcall(page.reload, page, { timeout_ms = 30000 }) end)
      if ref then
        counts.actions = counts.actions + 1
        try("click during reload", EXPECTED_ACTION, page.click, page, ref, { timeout_ms = 3000 })
      end
      local ok, r = vdx.wait(t)
      if not ok then note_error("reload during click", r, { NavigationFailed = true }) end
    end },
  { "tab", 12, function()
      local p2 = try("new tab", nil, ctx.new_page, ctx)
      if not p2 then return end
      counts.tabs = counts.tabs + 1
      try("tab navigate", nil, p2.navigate, p2, base["local"] .. pages[math.random(#pages - 1)], { timeout_ms = 30000 })
      try("tab snapshot", nil, p2.snapshot, p2, { timeout_ms = 20000 })
      try("tab close", nil, p2.close, p2)
    end },
}
local total_w = 0
for _, o in ipairs(ops) do total_w = total_w + o[2] end
local function pick()
  local x = math.random() * total_w
  for _, o in ipairs(ops) do
    x = x - o[2]
    if x <= 0 then return o end
  end
  return ops[1]
end

navigate("/shop.html")
snapshot("start")
local t0 = lib.ms()
local mem_warm, max_frames, max_tabs = nil, 0, 0
for i = 1, N do
  local o = pick()
  if VERBOSE then io.stderr:write(("stress: op %d %s (%.1f s)\n"):format(i, o[1], (lib.ms() - t0) / 1000)) end
  counts.ops = counts.ops + 1
  counts.by_kind[o[1]] = (counts.by_kind[o[1]] or 0) + 1
  o[3]()
  snapshot(o[1])
  action(o[1])
  local fr = try("frames", nil, page.frames, page)
  if fr and #fr > max_frames then max_frames = #fr end
  local tabs = ctx.pages and try("pages", nil, ctx.pages, ctx)
  if tabs and #tabs > max_tabs then max_tabs = #tabs end
  if i == math.max(1, N // 10) then
    collectgarbage()
    mem_warm = lib.mem()
  end
  if SECONDS and lib.ms() - t0 > SECONDS * 1000 then
    io.stderr:write(("stress: time budget of %d s spent after %d operations; stopping\n"):format(SECONDS, i))
    counts.stopped_early = true
    break
  end
  if browser:is_closed() then
    io.stderr:write(("stress: the browser died after %d operations; stopping\n"):format(i))
    break
  end
  if i % 50 == 0 then
    io.stderr:write(("stress: %d/%d ops, %d unexpected, %.0f s\n"):format(i, N, counts.unexpected, (lib.ms() - t0) / 1000))
  end
end
navigate("/blank.html")
snapshot("end")
collectgarbage()
collectgarbage()
local mem_end = lib.mem()
local frames_end = #(try("frames", nil, page.frames, page) or {})
local died = browser:is_closed()
local browser_mem = died and { processes = 0, rss_kib = 0 } or lib.group_mem(browser:pid())
close_browser()
srv:close()

local growth = mem_end.rss_kib - (mem_warm or mem_end).rss_kib
local kinds = {}
for k, v in pairs(counts.by_kind) do kinds[#kinds + 1] = k .. "=" .. v end
table.sort(kinds)
local exp = {}
for k, v in pairs(counts.expected_by_type) do exp[#exp + 1] = k .. "=" .. v end
table.sort(exp)
print(("stress: %d operations%s in %.0f s (%s); load %s"):format(counts.ops,
  counts.stopped_early and (" of " .. N .. " (time budget spent)") or "", (lib.ms() - t0) / 1000,
  table.concat(kinds, " "), (lib.slurp("/proc/loadavg") or ""):match("^(%S+ %S+ %S+)")))
print(("stress: %d snapshots (%d frame warnings), %d actions, %d tabs opened and closed"):format(
  counts.snapshots, counts.warnings, counts.actions, counts.tabs))
print(("stress: unexpected errors %d, \"cannot find context\" %d, expected action errors %d (%s)"):format(
  counts.unexpected, counts.no_context, counts.expected, table.concat(exp, " ")))
print(("stress: host RSS %.1f MiB after warm-up, %.1f MiB at the end (growth %.1f MiB, bound %.0f); PSS %.1f MiB"):format(
  (mem_warm or mem_end).rss_kib / 1024, mem_end.rss_kib / 1024, growth / 1024, MEM_BOUND / 1024, mem_end.pss_kib / 1024))
print(("stress: tracked frames max %d (bound %d), %d at the end on a blank page; tabs max %d; browser tree %d processes, RSS %.0f MiB"):format(
  max_frames, FRAME_BOUND, frames_end, max_tabs, browser_mem.processes, browser_mem.rss_kib / 1024))
for _, l in ipairs(unexpected_log) do print("  unexpected: " .. l) end
if died then print("stress: the browser process died during the run (killed from outside, or a crash)") end
local bad = died or counts.unexpected > 0 or counts.no_context > 0 or growth > MEM_BOUND or max_frames > FRAME_BOUND or frames_end > 2
print(bad and "stress: FAILED" or "stress: ok")
return bad and 1 or 0
