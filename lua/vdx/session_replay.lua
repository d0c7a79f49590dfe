--- vdx.session_replay: the flake gate of browser_export_test.  Replays a
-- session's steps N times, each run in fresh browser contexts (one per
-- role, with its auth), resolving every recorded locator on the live page
-- the way the exported test will (it must match exactly one element, with
-- Playwright's matching rules, retried up to a timeout like Playwright's
-- auto-wait), acting on it or checking the assertion.  A step that does
-- not pass in every run is flaky: the agent hears it before it calls the
-- test done.
local vdx = require "vdx"
local quote = require("vdx.pw_spec").quote

local replay = {}

--- How long one step waits for its locator or assertion (Playwright's
-- default expect timeout).
replay.TIMEOUT_MS = 5000

-- Polls check() (-> ok, detail) until ok or the timeout; returns ok and
-- the last detail.
local function poll(check, timeout_ms)
  local deadline = vdx.now() + timeout_ms
  while true do
    local ok, res, detail = pcall(check)
    if not ok then detail = type(res) == "table" and tostring(res.message or res.type) or tostring(res) end
    if ok and res then return true end
    if vdx.now() >= deadline then return false, detail end
    vdx.sleep(100)
  end
end

-- The one match of expr: its ref and facts, or nil and why.
local function one(page, expr)
  local r = page:locator_count(expr, { details = 1 })
  if r.count ~= 1 then return nil, ("%s matches %d elements"):format(expr, r.count or 0) end
  local m = r.matches and r.matches[1] or {}
  if type(m.ref) ~= "string" then m.ref = type(r.refs and r.refs[1]) == "string" and r.refs[1] or nil end
  return m
end

-- The ref of expr's one match (waits for it).
local function resolve(page, expr, timeout_ms)
  local ref
  local ok, why = poll(function()
    local m, err = one(page, expr)
    if not m then return false, err end
    if not m.ref then return false, expr .. " matches an element without a ref (not one to act on)" end
    ref = m.ref
    return true
  end, timeout_ms)
  if not ok then error(vdx.error("NoMatch", why or (expr .. " did not resolve")), 0) end
  return ref
end

-- The first line of the snapshot of ref ("- checkbox "X" [checked] [ref=e3]: v").
local function snapshot_line(page, ref)
  local snap = page:snapshot { root = ref, budget_tokens = 2000 }
  return (snap.text or ""):match("[^\n]*%[ref=" .. ref:gsub("%p", "%%%0") .. "%][^\n]*") or ""
end

local function norm(s) return (tostring(s or ""):gsub("%s+", " "):gsub("^ ", ""):gsub(" $", "")) end

-- True when a match's text (cut to 80 characters with "…" by the bridge)
-- is want, whitespace collapsed, as Playwright's toHaveText compares.
local function text_matches(got, want)
  got, want = norm(got), norm(want)
  local cut = got:match("^(.-)…$")
  return got == want or (cut ~= nil and want:sub(1, #cut) == cut)
end

-- toHaveText with a list: as many matches as texts, each its own.
local function texts_match(page, expr, want)
  local r = page:locator_count(expr, { details = #want })
  if r.count ~= #want then return false, ("%d elements for %d texts"):format(r.count, #want) end
  for i, w in ipairs(want) do
    local got = r.matches[i] and r.matches[i].text
    if not text_matches(got, w) then return false, ("item %d has text %q"):format(i, norm(got)) end
  end
  return true
end

-- Each matcher: check(page, step) -> ok, what it saw.
local MATCHERS = {
  toBeVisible = function(page, s)
    local m, why = one(page, s.locator)
    if not m then return false, why end
    return m.visible == true, "hidden"
  end,
  toHaveCount = function(page, s)
    local n = page:locator_count(s.locator).count
    return n == math.tointeger(tonumber(s.value)), ("%d elements"):format(n)
  end,
  toHaveText = function(page, s)
    if type(s.value) == "table" then return texts_match(page, s.locator, s.value) end
    local m, why = one(page, s.locator)
    if not m then return false, why end
    return text_matches(m.text, s.value), ("text %q"):format(norm(m.text))
  end,
  toContainText = function(page, s)
    local m, why = one(page, s.locator)
    if not m then return false, why end
    local n = page:locator_count(s.locator .. ".filter({ hasText: " .. quote(tostring(s.value)) .. " })").count
    return n == 1, ("text %q"):format(norm(m.text))
  end,
  toBeHidden = function(page, s)
    local r = page:locator_count(s.locator, { details = 1 })
    return r.count == 0 or (r.matches[1] and r.matches[1].visible == false), ("%d visible matches"):format(r.count)
  end,
  toHaveURL = function(page, s)
    local url = page:bridge("pageInfo", {}).url
    local want = tostring(s.value)
    return url == want or (not want:match("^%a+:") and url:sub(-#want) == want), ("URL %s"):format(url)
  end,
  toHaveTitle = function(page, s)
    local title = page:bridge("pageInfo", {}).title
    return norm(title) == norm(s.value), ("title %q"):format(title)
  end,
  toHaveValue = function(page, s)
    local m, why = one(page, s.locator)
    if not m then return false, why end
    if not m.ref then return false, "no ref to read the value of" end
    local got = snapshot_line(page, m.ref):match("%[ref=[^%]]+%]:%s*(.-)%s*$") or ""
    got = got:gsub('^"(.*)"$', "%1")
    return got == tostring(s.value or ""), ("value %q"):format(got)
  end,
  toBeChecked = function(page, s)
    local m, why = one(page, s.locator)
    if not m or not m.ref then return false, why or "no ref" end
    return snapshot_line(page, m.ref):find("[checked]", 1, true) ~= nil, "not checked"
  end,
}
MATCHERS["not.toBeVisible"] = MATCHERS.toBeHidden
MATCHERS["not.toBeChecked"] = function(page, s)
  local m, why = one(page, s.locator)
  if not m or not m.ref then return false, why or "no ref" end
  return snapshot_line(page, m.ref):find("[checked]", 1, true) == nil, "checked"
end

-- Performs one action step on page.
local function act(page, s, timeout_ms)
  local a = s.action
  if a == "press" and not s.locator then return page:press_key(s.key) end
  if a == "back" then return page:back() end
  if a == "click_at" then return page:click_at(s.x, s.y) end
  local unsafe = { unsafe = true, timeout_ms = timeout_ms }
  if a == "evaluate" and not s.locator then return require("vdx.readonly").run(page, s.code, unsafe) end
  local ref = resolve(page, s.locator, timeout_ms)
  if a == "evaluate" then
    unsafe.ref = ref
    return require("vdx.readonly").run(page, s.code, unsafe)
  end
  if a == "click" or a == "dblclick" then
    return page:click(ref, { button = s.button, modifiers = s.modifiers, click_count = a == "dblclick" and 2 or nil })
  elseif a == "fill" or a == "type" then
    return page:type(ref, tostring(s.value or ""), { clear = a == "fill", submit = s.submit })
  elseif a == "press" then return page:press_key(s.key, { target = ref })
  elseif a == "check" then return page:check(ref)
  elseif a == "uncheck" then return page:uncheck(ref)
  elseif a == "select" then
    local v = s.values or s.value
    return page:select_option(ref, type(v) == "table" and v or { v })
  elseif a == "hover" then return page:hover(ref)
  elseif a == "drag" then return page:drag(ref, resolve(page, s.to_locator, timeout_ms))
  elseif a == "upload" then return page:upload_file(ref, s.files or {})
  end
  error(vdx.error("InvalidArgument", "cannot replay the action " .. tostring(a)), 0)
end

-- Runs one step; returns nil or why it failed.
local function run_step(page, s, timeout_ms)
  local ok, err = pcall(function()
    if s.kind == "navigate" then return page:navigate(s.url) end
    if s.kind == "code" then
      if s.replay then return s.replay(page) end
      return
    end
    if s.kind == "action" then
      if not s.locator and not (s.action == "press" or s.action == "back" or s.action == "click_at"
          or (s.action == "evaluate" and not s.unlocated)) then
        error("no locator was recorded", 0)
      end
      return act(page, s, timeout_ms)
    end
    local check = MATCHERS[s.matcher]
    if not check then error("the gate cannot check " .. tostring(s.matcher) .. " (the test still does)", 0) end
    local passed, saw = poll(function() return check(page, s) end, timeout_ms)
    if not passed then
      local want = s.value ~= nil and (" " .. ("%q"):format(tostring(s.value))) or ""
      error(("expected %s%s; saw %s"):format(s.matcher, want, tostring(saw)), 0)
    end
  end)
  if ok then return nil end
  return type(err) == "table" and tostring(err.message or err.type) or tostring(err)
end

--- Replays steps runs times.  open(role) -> page, close opens a fresh
-- page of role in a new context and returns it and a function that
-- closes that context.  Returns, for each step, { passed = n, failures =
-- { {run = i, reason = …, not_reached = true|nil}, … } }; a run stops at
-- its first failing step (the later steps count as not reached).
function replay.run(steps, runs, open, opts)
  local timeout_ms = opts and opts.timeout_ms or replay.TIMEOUT_MS
  local results = {}
  for i = 1, #steps do results[i] = { passed = 0, failures = {} } end
  for run = 1, runs do
    local pages, closers = {}, {}
    local stopped
    for i, s in ipairs(steps) do
      local why, skipped
      if stopped then
        why, skipped = "not reached (step " .. stopped .. " failed)", true
      else
        local page = pages[s.role]
        if not page then
          local ok, p, close = pcall(open, s.role)
          if ok then pages[s.role], closers[#closers + 1], page = p, close, p
          else why = "cannot open a fresh context: " .. tostring(type(p) == "table" and p.message or p) end
        end
        why = why or run_step(page, s, timeout_ms)
        if why then stopped = i end
      end
      if why then
        local f = results[i].failures
        f[#f + 1] = { run = run, reason = why, not_reached = skipped }
      else
        results[i].passed = results[i].passed + 1
      end
    end
    for _, c in ipairs(closers) do pcall(c) end
  end
  return results
end

return replay
