--- vdx.wait: page:wait_for, the general wait (docs/world.md, Waits).  The
-- policy is here; what it waits on is said by events, never by a timer
-- that looks again:
--
-- * an element (ref, locator, selector) in a state: one call into the
--   frame's bridge (waitState, bridge/src/waits.js) that re-checks on DOM
--   mutations, CSS transition and animation ends and resizes;
-- * text, text_gone, ref_gone: one call into the bridge (waitFor), re-checked
--   on DOM mutations;
-- * url: the page's own navigation events (Page.frameNavigated at commit,
--   Page.navigatedWithinDocument for pushState, replaceState and anchors);
-- * fn: a read-only predicate run in the main world under the engine's
--   side-effect check (vdx.readonly), again after each change the bridge's
--   change counter (changeSince) reports: a DOM mutation, a transition or
--   animation end, a resize; a navigation starts it over.
local vdx = require "vdx"
local readonly = require "vdx.readonly"
local json = require "vdx.json"

local wait = {}

--- The states an element wait takes (Playwright's locator.waitFor).
wait.STATES = { visible = true, hidden = true, attached = true, detached = true }

local KNOWN = { ref = true, locator = true, selector = true, text = true, text_gone = true, ref_gone = true,
  url = true, url_pattern = true, fn = true, state = true, frame = true, time_ms = true, timeout_ms = true }

local function misuse(msg)
  error(vdx.error("InvalidArgument", "wait_for: " .. msg), 3)
end

local function now_ms()
  return math.floor(vdx.now())
end

--- wait.glob_match(glob, url) -> bool: Playwright's URL glob against the
-- whole URL, read as routes read it (vdx.route_match).
function wait.glob_match(g, url)
  return require("vdx.route_match").compile(g)(url)
end

--- wait.url_matches(opts, url) -> bool: url equals opts.url, or matches it
-- as a glob when it has `*` or `{`, or matches the Lua pattern
-- opts.url_pattern.
function wait.url_matches(o, url)
  if o.url_pattern then return url:find(o.url_pattern) ~= nil end
  if o.url:find("[*{]") then return wait.glob_match(o.url, url) end
  return url == o.url
end

-- A frame's whole URL: CDP's Frame.url leaves out the fragment, which
-- urlFragment holds ("#details"); a hash route is the page's URL too.
local function whole_url(frame)
  if type(frame) ~= "table" then return "" end
  local frag = type(frame.urlFragment) == "string" and frame.urlFragment or ""
  return tostring(frame.url or "") .. frag
end

-- The URL of the main frame's document now (its frame tree).
local function tree_url(page)
  local t = page:send("Page.getFrameTree", {})
  return t.frameTree and whole_url(t.frameTree.frame) or ""
end

-- One listener per page feeds every url wait of that page.
local listeners = setmetatable({}, { __mode = "k" })

local function main_id(page)
  for _, f in ipairs(page:frames({ cdp_ids = true })) do
    if f.frame == "main" then return f.id end
  end
end

local function url_waiters(page)
  local l = listeners[page]
  if l then return l end
  l = {}
  listeners[page] = l
  local function seen(frame_id, url)
    if frame_id ~= main_id(page) then return end
    l[0] = url      -- the last URL committed or pushed, as the events said
    for w in pairs(l) do if w ~= 0 then w(url) end end
  end
  page:on("Page.frameNavigated", function(ev) seen(ev.frame.id, whole_url(ev.frame)) end)
  page:on("Page.navigatedWithinDocument", function(ev) seen(ev.frameId, ev.url) end)
  return l
end

-- Sleeps in a task of its own up to ms; wake() ends the sleep early.
-- Returns true when woken, false at the timeout.
local function sleeper(ms)
  local woken = false
  -- The sleep ends by itself, or woken (Cancelled, caught: not an error).
  local t = vdx.spawn(function() pcall(vdx.sleep, ms) end)
  local function wake()
    if not woken and not t:done() then woken = true t:cancel("wait_for: the condition is met") end
  end
  local function sleep()
    local ok, err = pcall(vdx.wait, t)
    if not ok then
      -- The waiting task itself was cancelled: its sleeper goes too.
      if not t:done() then t:cancel("wait_for was cancelled") end
      error(err, 0)
    end
    return woken
  end
  return wake, sleep
end

local function wait_url(page, o, timeout)
  local what = o.url_pattern and ("the Lua pattern " .. o.url_pattern) or o.url
  local hit
  local wake, sleep = sleeper(timeout)
  local l = url_waiters(page)
  local function w(url) if not hit and wait.url_matches(o, url) then hit = url wake() end end
  l[w] = true
  local ok, err = pcall(function()
    -- Now: the last URL the events said, and the frame tree's, so that an
    -- event whose handler has not run yet is not missed.
    for _, now in ipairs({ l[0] or "", tree_url(page) }) do
      if not hit and wait.url_matches(o, now) then
        hit = now
        wake()
      end
    end
    if not hit then sleep() end
  end)
  l[w] = nil
  if not ok then error(err, 0) end
  if not hit then
    error(vdx.error("Timeout", ("the page's URL did not match %s within %d ms (it is %s)")
      :format(what, timeout, l[0] or tree_url(page)), { timeout_ms = timeout }), 0)
  end
  wake()
  return { url = hit }
end

local function truthy(v)
  return v ~= nil and v ~= false and v ~= 0 and v ~= ""
end

local function wait_fn(page, src, timeout, frame)
  local deadline = now_ms() + timeout
  local seq, doc, checks = -1, nil, 0
  while true do
    local left = deadline - now_ms()
    local ok, r = pcall(page.bridge, page, "changeSince", { seq, { timeout = math.max(0, left), doc = doc } },
      { frame = frame, timeout_ms = math.max(0, left) + 2000 })
    if not ok then
      -- The document was replaced under the call: start over in the new one.
      if vdx.is_error(r, "Timeout") or now_ms() >= deadline then error(r, 0) end
      seq = -1
    else
      if seq >= 0 and not r.changed then
        error(vdx.error("Timeout", ("the predicate stayed falsy within %d ms (checked %d times, after each change "
          .. "of the page)"):format(timeout, checks), { timeout_ms = timeout }), 0)
      end
      seq, doc = r.seq, r.doc
      checks = checks + 1
      local v = readonly.evaluate_checked(page, src)
      if truthy(v) then return { value = v, checks = checks } end
      if now_ms() >= deadline then
        error(vdx.error("Timeout", ("the predicate stayed falsy within %d ms (checked %d times)")
          :format(timeout, checks), { timeout_ms = timeout }), 0)
      end
    end
  end
end

--- page:wait_for{ ref | locator | selector | text | text_gone | ref_gone |
-- url | url_pattern | fn | time_ms, state =, frame =, timeout_ms = } ->
-- { waited_ms, … }.  See docs/world.md, Waits.  Raises Timeout saying
-- what was still false.
function wait.wait_for(page, opts)
  if type(opts) ~= "table" then misuse("options must be a table") end
  for k in pairs(opts) do
    if not KNOWN[k] then misuse(("unexpected key '%s'"):format(tostring(k))) end
  end
  local start = now_ms()
  local conds = {}
  for _, k in ipairs({ "ref", "locator", "selector", "text", "text_gone", "ref_gone", "url", "url_pattern", "fn" }) do
    if opts[k] ~= nil then
      if type(opts[k]) ~= "string" then misuse(k .. " must be a string") end
      conds[#conds + 1] = k
    end
  end
  if opts.time_ms ~= nil then
    if #conds > 0 then misuse("time_ms goes alone") end
    local ms = math.tointeger(opts.time_ms)
    if not ms or ms < 0 then misuse("time_ms must be a non-negative integer") end
    vdx.sleep(ms)
    return { waited_ms = ms }
  end
  if #conds == 0 then
    misuse("needs one of ref, locator, selector, text, text_gone, ref_gone, url, url_pattern, fn or time_ms")
  end
  local textual = (opts.text or opts.text_gone) and #conds == ((opts.text and 1 or 0) + (opts.text_gone and 1 or 0))
  if #conds > 1 and not textual then misuse("give one condition (" .. table.concat(conds, ", ") .. ")") end
  if opts.state ~= nil and not wait.STATES[opts.state] then
    misuse("state is visible, hidden, attached or detached, not " .. tostring(opts.state))
  end
  local kind = conds[1]
  if opts.state ~= nil and kind ~= "ref" and kind ~= "locator" and kind ~= "selector" then
    misuse("state goes with ref, locator or selector")
  end
  local timeout = opts.timeout_ms == nil and page:default_timeout() or math.tointeger(opts.timeout_ms)
  if not timeout or timeout < 0 then misuse("timeout_ms must be a non-negative integer") end
  local frame = opts.frame
  local res
  if kind == "url" or kind == "url_pattern" then
    res = wait_url(page, opts, timeout)
  elseif kind == "fn" then
    if frame ~= nil then misuse("fn runs in the main frame; frame does not go with it") end
    res = wait_fn(page, opts.fn, timeout, "main")
  elseif kind == "ref" or kind == "locator" or kind == "selector" then
    local args = { state = opts.state or "visible", timeout = timeout }
    if kind == "ref" then
      vdx.check_ref(opts.ref)
      args.ref, frame = opts.ref, frame or opts.ref
    elseif kind == "selector" then
      args.locator = "locator(" .. json.encode(opts.selector) .. ")"
    else
      args.locator = opts.locator
    end
    res = page:bridge("waitState", { args }, { frame = frame, timeout_ms = timeout + 2000 })
    res.state = args.state
  else
    if opts.ref_gone then vdx.check_ref(opts.ref_gone) frame = frame or opts.ref_gone end
    page:bridge("waitFor", { { text = opts.text, textGone = opts.text_gone, refGone = opts.ref_gone,
      timeout = timeout } }, { frame = frame, timeout_ms = timeout + 2000 })
    res = {}
  end
  res.waited_ms = math.max(0, now_ms() - start)
  return res
end

--- wait.code_lines(opts, locator [, timeout_ms [, frame_path]]) -> { line }
-- | nil: the Playwright statement of a wait_for (an element's as
-- `expect(…).toBeVisible()` and its kin; opts as page:wait_for takes
-- them; locator the Playwright locator of opts.ref, taken before the
-- wait; timeout_ms, when given, written as its `{ timeout }`), with "{page}"
-- for the role's page; a wait in a child frame (opts.frame) goes through
-- frame_path, the frame's path from the page (locators.frame_path); nil
-- for waits a test does not need to repeat (a text to show, a time) or
-- cannot say (a Lua pattern, a frame without its path, a frame's URL).
-- A text that goes is a check of the test's (an item a filter hid): no
-- visible element shows it.
function wait.code_lines(o, locator, timeout_ms, frame_path)
  local framed = o.frame and o.frame ~= "main"
  if framed and not frame_path then return nil end
  -- A wait in a child frame reaches it through its owners.
  local at = framed and "{page}." .. frame_path or "{page}"
  -- A wait that took long writes a timeout as long (util.waited).
  local t = timeout_ms and ("{ timeout: %d }"):format(timeout_ms)
  if o.text_gone and not (o.text or o.ref_gone or o.ref or o.locator or o.selector or o.url or o.fn) then
    return { ("await expect(%s.getByText(%s).filter({ visible: true })).toHaveCount(0%s);")
      :format(at, require("vdx.pw_spec").quote(o.text_gone), t and (", " .. t) or "") }
  end
  local state = o.state or "visible"
  local loc = o.locator or locator or (o.selector and "locator(" .. require("vdx.pw_spec").quote(o.selector) .. ")")
  if loc then
    -- As a web-first assertion, which waits the same way and says what it
    -- checks (a waitFor is no check of the test's).
    local matcher = ({ visible = "toBeVisible", hidden = "toBeHidden", attached = "toBeAttached",
      detached = "not.toBeAttached" })[state]
    return { ("await expect(%s.%s).%s(%s);"):format(at, loc, matcher, t or "") }
  elseif framed then
    return nil
  elseif o.url then
    -- A check of the test's, as the element waits are: toHaveURL takes an
    -- exact URL, or a regular expression for a glob.
    local want = o.url:find("[*{]") and require("vdx.route_match").js_regex(o.url) or json.encode(o.url)
    return { ("await expect({page}).toHaveURL(%s%s);"):format(want, t and (", " .. t) or "") }
  elseif o.fn then
    -- A function's source goes in as code; an expression as a string,
    -- which Playwright evaluates in the page (a string that is a function
    -- would be truthy at once).
    local src = o.fn:match("^%s*(.-)%s*$")
    local is_fn = src:match("^function[%s(]") or src:match("^async[%s(]") or src:match("^[%w_$]+%s*=>")
      or (src:match("^%b()%s*=>"))
    return { ("await {page}.waitForFunction(%s%s);"):format(is_fn and src or json.encode(src),
      t and (", undefined, " .. t) or "") }
  end
  return nil
end

--- Adds page:wait_for to a table of page methods (vdx.Page).
function wait.install(methods)
  methods.wait_for = wait.wait_for
end

return wait
