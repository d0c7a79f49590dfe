--- vdx.readonly: the read-only evaluate, judged by the engine.  V8 runs
-- the script in its side-effect-free mode (`throwOnSideEffect`, the mode
-- of DevTools' eager evaluation): any call it cannot prove free of side
-- effects throws `EvalError: Possible side-effect` before it acts, and
-- that becomes EvaluateRefused.  The same road without the check is
-- browser_run_code_unsafe's (readonly.run with unsafe = true).
--
-- The source is compiled alone (Runtime.evaluate of exactly the text the
-- caller gave), never spliced into a larger expression: a source that is
-- not one whole script is a SyntaxError.  If it is a function, it is then
-- called by a fixed wrapper (Runtime.callFunctionOn) that serializes its
-- value in the page and sends back at most `max_chars` of the JSON.
--
-- Without ref it runs in the main world of the main frame: the engine
-- refuses writes to every object that existed before the call, the page's
-- own prototypes and globals included, so the script can read the page's
-- script state and still not change it.  With ref the element is taken
-- from the bridge by object id and resolved again in an isolated world of
-- its own ("vdx-evaluate", one per frame document), so no script of the
-- caller ever runs in the bridge's world.
local vdx = require "vdx"
local json = require "vdx.json"

local readonly = {}

--- The most characters of JSON an answer carries (64 KiB).
readonly.MAX_CHARS = 65536

--- How long a script may run by default (ms): the engine stops it then.
readonly.TIMEOUT_MS = 10000

--- The schema of the tools' `timeout` argument.
readonly.TIMEOUT = { type = "integer", minimum = 100, maximum = 120000,
  description = "Milliseconds it may run (default 10000)" }

--- The input schema of a tool that runs a function this way
-- (browser_evaluate, browser_run_code_unsafe): function, element, ref and
-- timeout.  A fresh table on each call, so a tool may add to its own.
-- element and ref are the tools' shared fields (vdx.builtin.util).
function readonly.input(element, ref)
  return { type = "object", required = { "function" }, properties = {
    ["function"] = { type = "string", minLength = 1,
      description = "() => { /* code */ } or (element) => { /* code */ } when ref is given" },
    element = element, ref = ref, timeout = readonly.TIMEOUT,
  } }
end


-- The fixed wrappers that call the agent's function and serialize its
-- value in the page, bounded (bridge/page/evaluate-serialize.js), and the
-- same awaiting a promise for run_code_unsafe (evaluate-awaited.js).
local SERIALIZE, SERIALIZE_AWAITED = vdx.page_script("evaluate-serialize", true), vdx.page_script("evaluate-awaited", true)

local NEXT = "Read with browser_snapshot, browser_find, resolve_container or inspect_pattern instead, "
  .. "write document.querySelector('#id') for getElementById, and act with browser_click, browser_type, "
  .. "browser_select_option, browser_press_key or browser_navigate (or browser_run_code_unsafe, which exists "
  .. "when the server was started with --allow-unsafe-code)"

--- The EvaluateRefused error for a script the engine could not prove
-- free of side effects.
function readonly.refusal()
  return vdx.error("EvaluateRefused", "browser_evaluate refused the script: the JavaScript engine could not "
    .. "prove it free of side effects (EvalError: Possible side-effect), so it was stopped before it acted and "
    .. "nothing it did is left.  The engine's check is strict: any write to an object that existed before the "
    .. "call, any timer, request, promise or event is refused, and so are some pure reads "
    .. "(getElementById, closest, matches, getRootNode, matchMedia, new URL, and on some pages "
    .. "getBoundingClientRect; property reads such as parentNode and host, and getComputedStyle, pass).  " .. NEXT,
    { pattern = "side effect" })
end

-- Raises the error for the exceptionDetails ex of a call that ran up to
-- timeout_ms.
local function raise_exception(ex, timeout_ms)
  local e = type(ex.exception) == "table" and ex.exception or {}
  local text = tostring(e.description or ex.text or "the script threw")
  if e.className == "EvalError" and text:find("Possible side-effect", 1, true) then
    error(readonly.refusal(), 0)
  end
  if text:find("Execution was terminated", 1, true) then
    error(vdx.error("Timeout", ("the script ran longer than %d ms and was stopped"):format(timeout_ms)), 0)
  end
  text = text:match("^[^\n]*")
  local hint = e.className == "SyntaxError"
    and ".  The source is compiled alone: give one function expression and nothing around it" or ""
  error(vdx.error("JavaScriptError", text .. hint, { line = ex.lineNumber, column = ex.columnNumber }), 0)
end

-- page:send that turns a call still running after timeout_ms into the
-- Timeout "the script ran longer than N ms" (and stops it: the page's
-- script thread is the page's, and would stay blocked).
local function send(page, method, params, frame, timeout_ms)
  local ok, res = pcall(page.send, page, method, params, { frame = frame, timeout_ms = timeout_ms + 1000 })
  if ok then return res end
  if vdx.is_error(res, "Timeout") then
    pcall(page.send, page, "Runtime.terminateExecution", {}, { frame = frame, timeout_ms = 2000 })
    error(vdx.error("Timeout", ("the script ran longer than %d ms and was stopped (Runtime.terminateExecution)")
      :format(timeout_ms)), 0)
  end
  if vdx.is_error(res, "CDPError") and tostring(res.message):find("Execution was terminated", 1, true) then
    error(vdx.error("Timeout", ("the script ran longer than %d ms and was stopped"):format(timeout_ms)), 0)
  end
  error(res, 0)
end

local worlds = setmetatable({}, { __mode = "k" })   -- page -> { [frame id] = context id }

-- The CDP id of the frame called name ("main", "f1").
local function frame_id(page, name)
  for _, f in ipairs(page:frames({ cdp_ids = true })) do
    if f.frame == name then return f.id end
  end
  error(vdx.error("FrameDetached", "frame " .. name .. " is gone (it was removed or navigated away)"), 0)
end

-- The execution context of the world "vdx-evaluate" of frame name, made
-- once per frame document (fresh is true after the cached one died).
local function world(page, name, fresh)
  local id = frame_id(page, name)
  local cache = worlds[page] or {}
  worlds[page] = cache
  if cache[id] and not fresh then return cache[id] end
  local r = page:send("Page.createIsolatedWorld", { frameId = id, worldName = "vdx-evaluate" }, { frame = name })
  cache[id] = r.executionContextId
  return cache[id]
end

-- The object id of ref's element in context ctx of frame name.
local function element_in(page, ref, name, ctx)
  local held = page:bridge("element", { ref }, { frame = ref, by_ref = true })
  if type(held) ~= "string" then
    error(vdx.error("StaleRef", ref .. ": the element is gone; take a new snapshot", { ref = ref }), 0)
  end
  local ok, node = pcall(page.send, page, "DOM.describeNode", { objectId = held }, { frame = name })
  pcall(page.send, page, "Runtime.releaseObject", { objectId = held }, { frame = name })
  if not ok then error(node, 0) end
  local okr, r = pcall(page.send, page, "DOM.resolveNode", { backendNodeId = node.node.backendNodeId,
    executionContextId = ctx, objectGroup = "vdx-evaluate" }, { frame = name })
  if okr then return r.object.objectId end
  -- The browser could not give the node in that world (run EO's star
  -- widget, after a reload: "Node with given id does not belong to the
  -- document"): the caller tries once more in a world made anew, then
  -- says so as a StaleRef, where the CDP error told the agent nothing.
  if not vdx.is_error(r, "CDPError") or tostring(r.message):find("context", 1, true) then error(r, 0) end
  error(vdx.error("StaleRef", ("%s: its element cannot be reached now (%s): the page may have made it anew; take a "
    .. "new snapshot, or browser_find, for its ref"):format(ref, tostring(r.message):match("^[^\n]*")),
    { ref = ref, unreachable = true }), 0)
end

-- One run of src (see readonly.run) in context ctx (nil: the main world
-- of the main frame) of frame name; el is the element's object id there.
local function call_in(page, src, o, name, ctx, el)
  local check = not o.unsafe
  local first = send(page, "Runtime.evaluate", { expression = src, contextId = ctx, throwOnSideEffect = check,
    timeout = o.timeout_ms, objectGroup = "vdx-evaluate", silent = true, returnByValue = false,
    awaitPromise = false }, name, o.timeout_ms)
  if first.exceptionDetails then raise_exception(first.exceptionDetails, o.timeout_ms) end
  local r = first.result or {}
  local out
  if not r.objectId then
    -- A primitive: the expression's value itself (undefined is null).
    local text = r.unserializableValue or (r.value == nil and "null") or json.encode(r.value) or "null"
    out = { n = #text, j = text:sub(1, o.max_chars) }
  else
    local args = { { value = o.max_chars } }
    if el then args[2] = { objectId = el } end
    for _, a in ipairs(o.args or {}) do
      args[#args + 1] = a == json.null and { value = json.null } or { value = a }
    end
    local called = send(page, "Runtime.callFunctionOn", { objectId = r.objectId,
      functionDeclaration = check and SERIALIZE or SERIALIZE_AWAITED, arguments = args, throwOnSideEffect = check,
      returnByValue = true, awaitPromise = not check, silent = true }, name, o.timeout_ms)
    if called.exceptionDetails then raise_exception(called.exceptionDetails, o.timeout_ms) end
    out = called.result and called.result.value or {}
  end
  if out.promise then
    if check then
      error(vdx.error("EvaluateRefused", "the function returned a Promise; browser_evaluate cannot wait for "
        .. "one (what runs later is outside the engine's side-effect check).  Return the value itself", {
          pattern = "promise" }), 0)
    end
    out = { n = 4, j = "null" }
  end
  return out
end

-- call_in, then the objects it held (the function, the element) released,
-- whatever happened.
local function run_in(page, src, o, name, ctx, el)
  local ok, out = pcall(call_in, page, src, o, name, ctx, el)
  pcall(page.send, page, "Runtime.releaseObjectGroup", { objectGroup = "vdx-evaluate" }, { frame = name })
  if not ok then error(out, 0) end
  return out
end

--- readonly.run(page, src, opts) -> { json = text, length = n, cut = bool }.
-- src is a function's source (called with the element of opts.ref, then
-- opts.args) or an expression.  opts: ref, args (a list of JSON values),
-- timeout_ms (default readonly.TIMEOUT_MS), max_chars (default
-- readonly.MAX_CHARS), unsafe (no side-effect check: run_code_unsafe).
-- Raises EvaluateRefused, JavaScriptError (SyntaxError for a source that
-- is not one script by itself), Timeout ("ran longer than N ms").
function readonly.run(page, src, opts)
  local o = {}
  for k, v in pairs(opts or {}) do o[k] = v end
  if type(src) ~= "string" then
    error(vdx.error("InvalidArgument", ("evaluate: the source must be a string, got %s"):format(type(src))), 2)
  end
  o.timeout_ms = math.tointeger(o.timeout_ms) or readonly.TIMEOUT_MS
  o.max_chars = math.tointeger(o.max_chars) or readonly.MAX_CHARS
  local name, ctx, el = "main", nil, nil
  local out
  if o.ref then
    name = select(2, vdx.check_ref(o.ref))
    for attempt = 1, 2 do
      ctx = world(page, name, attempt > 1)
      local ok, res = pcall(function()
        el = element_in(page, o.ref, name, ctx)
        return run_in(page, src, o, name, ctx, el)
      end)
      if ok then out = res break end
      -- The cached world died with its document, or could not reach the
      -- element: make a new one, once.
      local stale = vdx.is_error(res, "CDPError") and tostring(res.message):find("context", 1, true)
        or vdx.is_error(res, "StaleRef") and res.unreachable
      if attempt == 2 or not stale then error(res, 0) end
    end
  else
    out = run_in(page, src, o, name, nil, nil)
  end
  return { json = out.j, length = out.n, cut = out.n > #out.j }
end

--- The answer of a tool for readonly.run's result r: "Result: JSON" with
-- structured.result (the value, its numbers exact), or for a cut value
-- the first MAX_CHARS characters with what was left out said.
function readonly.answer(r)
  if not r.cut then
    return { text = "Result: " .. r.json, structured = { result = json.raw(r.json) } }
  end
  return { text = ("Result (cut: the first %d of %d characters of JSON; return less, such as a slice or a count, "
    .. "to see the rest):\n%s"):format(#r.json, r.length, r.json),
    structured = { cut = true, length = r.length, shown = #r.json, json_prefix = r.json } }
end

--- page:evaluate_checked(fn_source, ...) -> value.  The read-only
-- evaluate for Lua: fn_source is an expression, or a function called with
-- the (JSON-able) arguments that follow, run under the engine's
-- side-effect check in the page's main world; a script the engine cannot
-- prove free of side effects raises EvaluateRefused.  A value whose JSON
-- is longer than readonly.MAX_CHARS raises MessageTooLarge.
-- page:evaluate (for Lua scripts) stays unrestricted.
function readonly.evaluate_checked(page, src, ...)
  if type(src) ~= "string" then
    error(vdx.error("InvalidArgument", ("evaluate_checked: the source must be a string, got %s"):format(type(src))), 2)
  end
  local args = {}
  for i = 1, select("#", ...) do
    local v = select(i, ...)
    if v == nil then v = json.null end
    if not json.encode(v) then
      error(vdx.error("InvalidArgument", "evaluate_checked: the arguments are not JSON-able"), 2)
    end
    args[i] = v
  end
  local r = readonly.run(page, src, { args = args })
  if r.cut then
    error(vdx.error("MessageTooLarge", ("evaluate_checked: the value's JSON has %d characters, more than %d; "
      .. "return less (a slice, a count)"):format(r.length, readonly.MAX_CHARS)), 0)
  end
  local v = json.decode(r.json)
  if v == json.null then return nil end
  return v
end

--- Adds page:evaluate_checked to a table of page methods (vdx.Page's __index).
function readonly.install(methods)
  methods.evaluate_checked = readonly.evaluate_checked
end

return readonly
