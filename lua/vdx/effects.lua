--- vdx.effects: the read-only evaluate judged by what the script does.
-- guard's pattern check runs first (fast, and names the obvious cases);
-- then the script runs inside a watch:
--
-- * in the page (bridge/page/effects-watch.js): calls that act (click, submit, focus,
--   dispatchEvent, document.write, history, window.open, form value
--   setters, cookie and storage writes, requests that write, timers given
--   code strings) are blocked and recorded; navigations the page starts are
--   cancelled through the Navigation API; a MutationObserver records DOM
--   changes, which are undone; both storages are compared with a copy and
--   put back; timer callbacks run while the watch is on;
-- * over CDP: while the script runs, Fetch pauses every request of the
--   page, fails those that write (not GET or HEAD) and document
--   navigations, and Page.frameRequestedNavigation is recorded.
--
-- Any effect refuses the call with EvaluateRefused naming the effects, and
-- the script's value is withheld.
local vdx = require "vdx"
local json = require "vdx.json"
local guard = require "vdx.guard"
-- A main-world script of bridge/page/, its leading comment lines dropped:
-- they name the placeholders and are not sent to the page.
local function page_script(name)
  local text = vdx.page_script(name)
  while text:sub(1, 2) == "//" do text = text:sub(text:find("\n", 1, true) + 1) end
  return text
end
-- The page-side half (bridge/page/effects-watch.js), and the hold that
-- effects.around watches (effects-hold.js, ended by effects-release.js).
local TEMPLATE = page_script("effects-watch")
local HOLD, RELEASE = page_script("effects-hold"), page_script("effects-release")

local effects = {}

local watched = setmetatable({}, { __mode = "k" })   -- page -> { active = list | nil }

local function add(list, what)
  for _, x in ipairs(list) do if x == what then return end end
  list[#list + 1] = what
end

-- The CDP side of the watch of page, set up once per page.
local function state(page)
  local st = watched[page]
  if st then return st end
  st = {}
  watched[page] = st
  page:on("Fetch.requestPaused", function(ev)
    local method = tostring(type(ev.request) == "table" and ev.request.method or "GET"):upper()
    local writes = method ~= "GET" and method ~= "HEAD"
    if st.active and (writes or ev.resourceType == "Document") then
      add(st.active, writes and ("a network request that writes (" .. method .. ")") or "navigation")
      pcall(page.send, page, "Fetch.failRequest", { requestId = ev.requestId, errorReason = "BlockedByClient" })
    else
      pcall(page.send, page, "Fetch.continueRequest", { requestId = ev.requestId })
    end
  end)
  page:on("Page.frameRequestedNavigation", function()
    if st.active then add(st.active, "navigation") end
  end)
  return st
end

--- Runs fn() while the CDP side of the watch is on for page; returns
-- fn's success flag and result (as pcall does) and the effects seen.
function effects.watch(page, fn)
  local st = state(page)
  local seen = {}
  st.active = seen
  local fetch_on = pcall(page.send, page, "Fetch.enable",
    { patterns = { { urlPattern = "*", requestStage = "Request" } } })
  local ok, res = pcall(fn)
  -- One more round trip to the page, so that a request the script started
  -- reaches the interception before it is turned off.
  pcall(page.evaluate, page, "0")
  st.active = nil
  if fetch_on then pcall(page.send, page, "Fetch.disable") end
  return ok, res, seen
end

local READ_ONLY = "browser_evaluate is for reading the page; act with browser_click, browser_type, "
  .. "browser_select_option, browser_press_key or browser_navigate instead"

--- The EvaluateRefused error for src when it matches one of guard's
-- acting patterns, or nil.
function effects.pattern_refusal(src)
  local what, snippet = guard.check(src)
  if not what then return nil end
  return vdx.error("EvaluateRefused", ("browser_evaluate refused the script before running it: it contains "
    .. "%s (`%s`).  " .. READ_ONLY):format(what, snippet), { pattern = what, match = snippet })
end

--- The EvaluateRefused error for the effects in list.
function effects.refusal(list)
  return vdx.error("EvaluateRefused", ("browser_evaluate refused the script by what it did: %s.  "
    .. "Those effects were blocked or undone where the browser allows it (requests and navigations "
    .. "cancelled, DOM changes, storage and pending timers reverted) and the script's result is withheld.  "
    .. READ_ONLY):format(table.concat(list, ", ")),
    { pattern = list[1], effects = json.array { table.unpack(list) } })
end

-- The template with src in place of __VDX_SOURCE__ and nonce in place of
-- __VDX_NONCE__.
local function watcher(src, nonce)
  local mark = "__VDX_SOURCE__"
  local at = TEMPLATE:find(mark, 1, true)
  local head = TEMPLATE:sub(1, at - 1):gsub("__VDX_NONCE__", nonce)
  local tail = TEMPLATE:sub(at + #mark):gsub("__VDX_NONCE__", nonce)
  return head .. src .. tail
end

local function new_nonce()
  return ("%08x%08x"):format(math.random(0, 0x7fffffff), math.random(0, 0x7fffffff))
end

-- Raises the refusal for the page-side answer res (with nonce) and the
-- CDP-side effects seen, if there is any effect.
local function judge(ok, res, seen, nonce)
  local found = {}
  if ok then
    if type(res) == "table" and res.k == nonce then
      for _, e in ipairs(res.e or {}) do add(found, e) end
    else
      add(found, "an answer that did not come from the effect watch (the script left its parentheses)")
    end
  end
  for _, e in ipairs(seen) do add(found, e) end
  if #found > 0 then error(effects.refusal(found), 0) end
end

--- page:evaluate of src (an expression, or a function called with no
-- arguments) for reading only: refused with guard's EvaluateRefused when
-- the source matches an acting pattern, or with effects.refusal when the
-- script acts while it runs.  Returns the script's JSON value.
function effects.evaluate(page, src)
  local refused = effects.pattern_refusal(src)
  if refused then error(refused, 0) end
  local nonce = new_nonce()
  local code = watcher(src, nonce)
  local ok, res, seen = effects.watch(page, function() return page:evaluate(code) end)
  judge(ok, res, seen, nonce)
  if not ok then error(res, 0) end
  if res.v == json.null then return nil end
  return res.v
end

--- run() (a call that runs a script elsewhere: the bridge's evaluateOn in
-- vdxlua's isolated world) for reading only: the page-side watch waits in
-- the main world while run() runs (its prototypes are not the script's,
-- but DOM, storage and cookie changes and navigations are seen), with the
-- CDP side on.  Returns run()'s result, or raises the refusal.
function effects.around(page, run)
  local nonce = new_nonce()
  local key = "__w" .. nonce
  -- The watcher's "script" is a promise that the release below resolves.
  local code = watcher((HOLD:gsub("__VDX_KEY__", key)), nonce)
  local started = page:send("Runtime.evaluate", { expression = code, awaitPromise = false })
  local promise = started.result and started.result.objectId
  local ok, res, seen = effects.watch(page, run)
  local answer = {}
  pcall(page.evaluate, page, (RELEASE:gsub("__VDX_KEY__", key)))
  if promise then
    local got, out = pcall(page.send, page, "Runtime.awaitPromise", { promiseObjectId = promise, returnByValue = true })
    if got and out.result then answer = out.result.value end
  end
  judge(true, answer, seen, nonce)
  if not ok then error(res, 0) end
  return res
end

return effects
