--- vdx.session_replay: the flake gate of browser_export_test.  Replays a
-- session's steps N times, each run in fresh browser contexts (one per
-- role, with its auth), resolving every recorded locator on the live page
-- the way the exported test will (it must match exactly one element, with
-- Playwright's matching rules, retried up to a timeout like Playwright's
-- auto-wait), acting on it or checking the assertion.  A step that does
-- not pass in every run is flaky: the agent hears it before it calls the
-- test done.
local vdx = require "vdx"
local assertions = require "vdx.assertions"
local run_token = require "vdx.run_token"

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

-- The one match of expr: its ref and facts, or nil and why.  Any element
-- it matches has a ref to act on, as Playwright acts on any (a row the
-- agent hovered through the snapshot's ref of it as a container).
local function one(page, expr)
  local frame, inner = require("vdx.locators").descend(page, expr)
  if frame == false then return nil, inner end
  local r = page:bridge("locatorCount", { inner, { details = 1, act = true } },
    { frame = frame ~= "main" and frame or nil })
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

local function norm(s) return assertions.normalize(s or "") end

-- A few texts of facts f, quoted, for a failure message.
local function texts_seen(f)
  local out = {}
  for i = 1, math.min(#f.matches, 4) do out[i] = ("%q"):format(f.matches[i].text) end
  if f.count > #out then out[#out + 1] = "…" end
  return table.concat(out, ", ")
end

-- What step's locator showed in facts f, when it does not hold.
local function seen(s, f)
  local m, matcher = f.matches[1], s.matcher
  if matcher == "toHaveCount" then return ("%d elements"):format(f.count) end
  if matcher == "toBeHidden" or matcher == "not.toBeVisible" then return ("%d visible matches"):format(f.count) end
  if type(s.value) == "table" then return ("%d elements: %s"):format(f.count, texts_seen(f)) end
  if f.count ~= 1 then return f.why or ("%s matches %d elements"):format(s.locator, f.count) end
  if matcher == "toBeVisible" then return "hidden" end
  if matcher == "toHaveValue" then return ("value %q"):format(m.value or "") end
  if matcher == "toHaveAttribute" then
    return ("%s %s"):format(s.attribute, m.attribute and ("%q"):format(m.attribute) or "absent")
  end
  if matcher == "toHaveCSS" then return ("%s %q"):format(s.attribute, m.css or "") end
  if matcher == "toBeChecked" then return "not checked" end
  if matcher == "not.toBeChecked" then return "checked" end
  if matcher == "toBeDisabled" then return "enabled" end
  if matcher == "toBeEnabled" then return "disabled" end
  if matcher == "toBeInViewport" then return m.visible and "outside the viewport" or "hidden" end
  if matcher == "not.toBeInViewport" then return "in the viewport" end
  if matcher == "toBeEmpty" then return ("text %q"):format(m.text ~= "" and m.text or m.value or "") end
  return ("text %q"):format(m.text)
end

-- What the page shows where locator (which matched nothing) names a text
-- with a number in it ('Cart (1)'): the same locator with the numbers
-- free (`getByText(/^Cart \(\d+\)$/)`), its first texts quoted, or nil.
-- Run BM's `Cart (1)` failed in runs 2 and 3 of the gate, whose page
-- said `Cart (7)`, and the reason did not say so.
local function near_text(page, locator)
  local at, quoted
  for i, q in locator:gmatch("()'([^'\\]*)'") do
    if q:find("%d") then at, quoted = i, q end
  end
  if not at then return nil end
  local exact = locator:sub(at + #quoted + 2):match("^[^)]-exact: true") ~= nil
  local source = require("vdx.volatile").numbers_free(quoted)
  source = exact and ("/^" .. source .. "$/") or ("/" .. source .. "/i")
  local alt = locator:sub(1, at - 1) .. source .. locator:sub(at + #quoted + 2)
  if exact then alt = alt:gsub("^(.-/[^/]*%$/), { exact: true }", "%1") end
  local ok, f = pcall(assertions.facts, page, alt, { limit = 3 })
  if not ok or type(f) ~= "table" or (f.count or 0) == 0 then return nil end
  local out = {}
  for i = 1, math.min(#f.matches, 3) do out[i] = ("%q"):format(norm(f.matches[i].text)) end
  return table.concat(out, ", ") .. (f.count > #out and ", …" or "")
end

-- The matchers assertions.judge decides (the verify tools' road); the
-- page's URL and title are read here.
local JUDGED = assertions.JUDGED

-- Each matcher: check(page, step) -> ok, what it saw.
local MATCHERS = {
  toHaveURL = function(page, s)
    local url = require("vdx.urls").of(page) or "?"
    local want = tostring(s.value)
    if want:find("*", 1, true) then
      return require("vdx.route_match").compile(want)(url), ("URL %s"):format(url)
    end
    return url == want or (not want:match("^%a+:") and url:sub(-#want) == want), ("URL %s"):format(url)
  end,
  toHaveTitle = function(page, s)
    local title = page:bridge("pageInfo", {}).title
    return norm(title) == norm(s.value), ("title %q"):format(title)
  end,
}
for matcher in pairs(JUDGED) do
  MATCHERS[matcher] = function(page, s)
    local f = assertions.facts_for(page, s)
    if assertions.judge(s, f) then return true end
    local why = seen(s, f)
    if f.count == 0 and s.locator and matcher ~= "toBeHidden" and matcher ~= "not.toBeVisible" then
      local near = near_text(page, s.locator)
      if near then why = why .. " (the page shows " .. near .. ")" end
    end
    return false, why
  end
end

-- Performs one action step on page, once.
local function act_once(page, s, timeout_ms)
  local a = s.action
  if a == "press" and not s.locator then return page:press_key(s.key) end
  if a == "back" then return page:back() end
  if a == "reload" then return page:reload(s.wait_until and { wait_until = s.wait_until } or nil) end
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

-- Performs one action step on page.  An element that left its document
-- between its lookup and the action (the page loaded anew after the step
-- before it, as a click's fetch then reload does) is looked up again, as
-- Playwright's actions retry, until timeout_ms.
local function act(page, s, timeout_ms)
  local deadline = vdx.now() + timeout_ms
  while true do
    local ok, res = pcall(act_once, page, s, timeout_ms)
    if ok then return res end
    if not (vdx.is_error(res, "UnknownRef") or vdx.is_error(res, "StaleRef")) or vdx.now() >= deadline then
      error(res, 0)
    end
    vdx.sleep(100)
  end
end

-- Waits, up to timeout_ms, for a frame of page at each of paths (an
-- action's step.frames) to be there and loaded, as the test does
-- (session_export.frame_waits).
local function frames_loaded(page, paths, timeout_ms)
  for _, path in ipairs(paths) do
    local ok, why = poll(function()
      for _, f in ipairs(page:frames()) do
        if f.frame ~= "main" then
          local okf, info = pcall(page.bridge, page, "pageInfo", {}, { frame = f.frame })
          local at = okf and type(info) == "table" and type(info.url) == "string" and info.url:match("^https?://[^/]+([^?#]*)")
          if at and at:gsub("%d+", "#") == path:gsub("%d+", "#") then
            local okr, state = pcall(page.bridge, page, "readyState", {}, { frame = f.frame })
            return okr and state == "complete", "its frame " .. path .. " has not loaded"
          end
        end
      end
      return false, "no frame at " .. path
    end, timeout_ms)
    if not ok then error(why, 0) end
  end
end

-- Runs one step; returns nil or why it failed.  A remember step puts the
-- value this run reads in got.value.
local function run_step(page, s, timeout_ms, got)
  local ok, err = pcall(function()
    if s.kind == "navigate" then return page:navigate(s.url, s.wait_until and { wait_until = s.wait_until } or nil) end
    if s.kind == "remember" then
      local remembered = require "vdx.remembered"
      local passed, why = poll(function()
        local v, w = remembered.read(page, s.locator, s.pattern)
        if v and #v >= remembered.MIN_LENGTH then got.value = v return true end
        return false, w or ("%q is shorter than %d characters"):format(tostring(v), remembered.MIN_LENGTH)
      end, timeout_ms)
      if not passed then error(why, 0) end
      return
    end
    if s.kind == "code" then
      -- (The step as this run has it: its {run} and remembered values
      -- this run's, for a replay that reads them from the step.)
      if s.replay then return s.replay(page, s) end
      return
    end
    if s.kind == "action" then
      if not s.locator and not (require("vdx.session_log").NO_LOCATOR[s.action]
          or (s.action == "evaluate" and not s.unlocated)) then
        error("no locator was recorded", 0)
      end
      local r = act(page, s, timeout_ms)
      if s.frames then frames_loaded(page, s.frames, timeout_ms) end
      return r
    end
    local check = MATCHERS[s.matcher]
    if not check then error("the gate cannot check " .. tostring(s.matcher) .. " (the test still does)", 0) end
    local passed, saw = poll(function() return check(page, s) end, math.max(timeout_ms, s.timeout or 0))
    -- A check of a known bug passes by failing, as test.fail() has it.
    if s.known_bug then
      if passed then error("the check held: the known bug did not show (" .. s.known_bug .. ")", 0) end
      return
    end
    if not passed then
      local want = ""
      if type(s.value) == "table" then
        local items = {}
        for i, v in ipairs(s.value) do items[i] = ("%q"):format(tostring(v)) end
        want = " [" .. table.concat(items, ", ") .. "]"
      elseif s.value ~= nil then
        want = " " .. ("%q"):format(tostring(s.value))
      end
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
-- opts: timeout_ms (a step's wait), token (the run token the steps hold,
-- vdx.run_token: each run replaces it with a fresh one).
function replay.run(steps, runs, open, opts)
  local timeout_ms = opts and opts.timeout_ms or replay.TIMEOUT_MS
  local token = opts and opts.token
  local results = {}
  local recorded = steps
  -- The steps the test makes wait for responses (a load whose page
  -- fetched its data after its load event, an action right after it; an
  -- action whose requests a load right after may race): so does the
  -- replay.
  local waits = require("vdx.session_races").response_steps(steps)
  for i = 1, #steps do
    results[i] = { passed = 0, failures = {} }
    waits[i] = waits[steps[i]]
  end
  for run = 1, runs do
    local pages, closers = {}, {}
    local fresh
    if token then
      -- A value typed with `{run}` is new in each run, as in the test.
      fresh = run_token.new()
      steps = run_token.swap(recorded, token, fresh)
    end
    local stopped
    -- The values this run read (remember steps), each written where the
    -- session's stood in the later steps, as the test's variables are.
    local read, values = {}, {}
    for i, s in ipairs(steps) do
      local why, skipped
      for _, r in ipairs(read) do s = run_token.swap(s, r[1], r[2]) end
      -- A filter by a remembered number alone, bounded as the file writes it.
      for _, v in ipairs(values) do s = run_token.bounded(s, v) end
      if stopped then
        why, skipped = "not reached (step " .. stopped .. " failed)", true
      else
        local page = pages[s.role]
        if not page then
          local ok, p, close = pcall(open, s.role)
          if ok then pages[s.role], closers[#closers + 1], page = p, close, p
          else why = "cannot open a fresh context: " .. tostring(type(p) == "table" and p.message or p) end
        end
        local got = {}
        if not why and waits[i] then
          why = (require("vdx.quiet").around(page, { open_only = s.kind == "navigate" }, run_step, page, s,
            timeout_ms, got))
        elseif not why then
          why = run_step(page, s, timeout_ms, got)
        end
        if not why and got.value and s.value and got.value ~= s.value then read[#read + 1] = { s.value, got.value } end
        if not why and got.value then values[#values + 1] = got.value end
        if why then
          stopped = i
          if fresh then why = why:gsub(fresh, run_token.PLACEHOLDER) end
        end
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
