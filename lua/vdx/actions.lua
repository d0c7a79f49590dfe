--- vdx.actions: acting on a page like a user -- click, hover, type, check,
-- uncheck, select_option, set_slider, press_key, drag, upload_file,
-- click_at and fill_form -- written top to bottom on the primitives of the
-- core, and installed as methods of vdx.Page when `vdx` loads:
--
--   page:bridge(method, args, {frame = name|ref, timeout_ms=})  a call in a frame's world
--   page:input(events, {timeout_ms=})      Input.dispatch* calls, in order (vdx.input builds them)
--   page:frame_offset(frame, x, y, {timeout_ms=})  a frame's point in the top viewport
--   page:mark() / page:settle(mark, {timeout_ms=}) / page:since(mark)  what an action caused
--   page:set_input_files(ref, paths, {timeout_ms=})  the files of a file input
--
-- A team writes a new action the same way (see examples/select_custom_listbox.lua):
-- `actions.begin(page, opts)` starts one, `a:resolve(target)` turns a
-- target into a ref, `a:point(ref)` waits until the element can take a
-- press and gives its point in page coordinates, `a:mouse(events, x, y)`
-- (events from actions.press_events or vdx.input.mouse) and
-- `a:keys(events)` send input, facts go in `a.extra`, and
-- `a:finish(ref)` settles and reports.
local vdx = require "vdx"

local actions = {}

-- ----------------------------------------------------------- options

local COMMON = { timeout_ms = true, snapshot = true, alongside = true }

-- Raises InvalidArgument naming the first key of opts that is not allowed.
local function check_opts(what, opts, allowed)
  if opts == nil then return {} end
  if type(opts) ~= "table" then
    error(vdx.error("InvalidArgument", what .. ": options must be a table"), 3)
  end
  for k in pairs(opts) do
    if not (COMMON[k] or allowed[k]) then
      local names = {}
      for n in pairs(COMMON) do names[#names + 1] = n end
      for n in pairs(allowed) do names[#names + 1] = n end
      table.sort(names)
      error(vdx.error("InvalidArgument", ("%s: unexpected key '%s' (known: %s)")
        :format(what, tostring(k), table.concat(names, ", ")), { field = tostring(k) }), 3)
    end
  end
  return opts
end

local function set(list)
  local t = {}
  for _, k in ipairs(list) do t[k] = true end
  return t
end

-- ------------------------------------------------------------ targets

--- The typed target of an action: `{ ref = "f1_e7" }`, `{ description =
-- "the Sign in button" }`, or a string, which must be a ref.  Raises
-- InvalidArgument (naming the ref grammar for a malformed ref).  A ref's
-- target also names its frame (`frame = "f1"`): the ref is parsed here,
-- once, and the calls of the action name the frame.
function actions.target(t)
  if type(t) == "string" then
    local ref, frame = vdx.check_ref(t)
    return { ref = ref, frame = frame }
  end
  if type(t) == "table" then
    if type(t.ref) == "string" and t.description == nil then
      local ref, frame = vdx.check_ref(t.ref)
      return { ref = ref, frame = frame }
    end
    if type(t.description) == "string" and t.description ~= "" and t.ref == nil then
      return { description = t.description }
    end
  end
  error(vdx.error("InvalidArgument", "a target is a ref (e3, f1_e7), { ref = … } or "
    .. "{ description = … }", { expected = "ref or { ref= } or { description= }" }), 3)
end

-- ------------------------------------------------------------- errors

local function covered_error(ref, cov)
  local msg
  if not cov.tag or cov.tag == "" then
    msg = ("the point to press %s is outside the page's viewport; nothing there would receive it")
      :format(ref)
  else
    local who = "<" .. cov.tag
    if cov.id and cov.id ~= "" then who = who .. (' id="%s"'):format(cov.id) end
    if cov.class and cov.class ~= "" then who = who .. (' class="%s"'):format(cov.class) end
    who = who .. ">"
    if cov.text and cov.text ~= "" then who = who .. (' "%s"'):format(cov.text) end
    if type(cov.layer) == "table" then
      who = who .. (', inside <%s id="%s">'):format(cov.layer.tag or "", cov.layer.id or "")
    end
    msg = ("%s is covered by %s, which would receive the click; deal with that element "
      .. "first (close or accept it), retrying will not help"):format(ref, who)
  end
  return vdx.error("ElementCovered", msg, { ref = ref, covering = cov })
end

local function nomatch_error(miss)
  return vdx.error("NoMatch", miss.message or "nothing matches", {
    description = miss.description, tried = miss.tried, links = miss.links,
    href = miss.href, url = miss.url })
end

-- ------------------------------------------------------------ an action

local Action = {}
Action.__index = Action

--- Starts an action on page: checks that it is open, fixes the deadline
-- (opts.timeout_ms, else the page's default) and marks the page's
-- counters.  Returns the action, whose methods below do the steps.
function actions.begin(page, opts)
  opts = opts or {}
  local timeout = opts.timeout_ms or page:default_timeout()
  if math.type(timeout) ~= "integer" then
    error(vdx.error("InvalidArgument", "option 'timeout_ms' must be an integer"), 3)
  end
  if opts.alongside ~= nil and (getmetatable(opts.alongside) or {}).__name ~= "vdx.Task" then
    error(vdx.error("InvalidArgument", "option 'alongside' must be a task (vdx.spawn)", { field = "alongside" }), 3)
  end
  return setmetatable({ page = page, deadline = vdx.now() + timeout, timeout = timeout,
    snapshot = opts.snapshot, mark = page:mark(), extra = {}, frames = {}, alongside = opts.alongside }, Action)
end

--- Waits for the task given as opts.alongside, once: whatever of the
-- action touches the page (its input, a bridge call that is no read, a
-- file input's files, the settling) waits for it, so a read of the page
-- as it was before the action, run as that task, is over before the page
-- is touched.
function Action:join()
  local t = self.alongside
  if t then
    self.alongside = nil
    vdx.wait(t, self:left())
  end
end

--- Milliseconds left before the action's deadline (at least 1).
function Action:left()
  return math.max(1, self.deadline - vdx.now())
end

-- The bridge methods of the actions that only read the page: a task
-- given as opts.alongside may still run beside them (every other call
-- waits for it first, see Action:join).
local READS = { actionPoint = true, checkState = true, fileInputInfo = true }

-- The bridge methods that wait for their element to hold still over a
-- frame (see Action:reveal).
local STILL = { actionPoint = true, selectOption = true, setSlider = true }

--- The name of the frame of ref ("main" or "f<K>").
function Action:frame_of(ref)
  return self.frames[ref] or select(2, vdx.check_ref(ref))
end

--- Brings the frame of ref into view when none of it is in view, level by
-- level (page:frame_offset's reveal): a frame out of view draws no frames
-- and its timers run about once a second, so a wait there for a frame to
-- tell that the element holds still took 0.8 s (bench/frame_below.lua).
function Action:reveal(ref)
  local frame = self:frame_of(ref)
  if frame ~= "main" then
    self.page:frame_offset(frame, 0, 0, { timeout_ms = self:left(), reveal = true })
  end
end

--- Calls a bridge method in the frame of ref with (ref, opts + {timeout =
-- what is left of the action's time, asked = its whole timeout, which
-- an actionability error names}); one that waits for the element to hold
-- still brings its frame into view first (Action:reveal).
function Action:call(ref, method, opts, ...)
  if not READS[method] then self:join() end
  if STILL[method] then self:reveal(ref) end
  local o = opts or {}
  o.timeout = self:left()
  o.asked = self.timeout          -- what an actionability error names
  local args = { ref, ... }
  args[#args + 1] = o
  return self.page:bridge(method, args, { frame = self.frames[ref] or ref, timeout_ms = self:left() + 1000 })
end

--- True when the page has a frame of that name (page:frames reads the
-- core's frame table; nothing reaches the browser).
function Action:has_frame(name)
  for _, f in ipairs(self.page:frames()) do
    if f.frame == name then return true end
  end
  return false
end

--- The ref of a target (see actions.target); a description goes through
-- the bridge's ladder in the main frame (NoMatch says what it tried), and
-- how it was found is reported as found_by.
function Action:resolve(target)
  local t = actions.target(target)
  if t.ref then
    if t.frame ~= "main" and not self:has_frame(t.frame) then
      error(vdx.error("UnknownRef", ("ref %s is not known: its frame %s is gone"):format(t.ref, t.frame),
        { ref = t.ref, frame = t.frame }), 0)
    end
    self.frames[t.ref] = t.frame
    return t.ref
  end
  local r = self.page:bridge("findByDescription", { t.description },
    { frame = "main", timeout_ms = self:left() + 1000 })
  if type(r.miss) == "table" then error(nomatch_error(r.miss), 0) end
  self.extra.found_by = r.by
  self.frames[r.ref] = "main"
  return r.ref
end

--- Waits until the element of ref can take a press and returns its point
-- in the top page's viewport (ElementCovered when something else, in its
-- frame or an ancestor frame, would get it).  position = {x=, y=} is
-- relative to the element's top-left corner.
function Action:point(ref, position)
  local oop = self:out_of_process(self:frame_of(ref))
  local p = self:call(ref, "actionPoint", { position = position, arm = oop })
  if type(p.covered) == "table" then error(covered_error(ref, p.covered), 0) end
  local o = self.page:frame_offset(self.frames[ref] or ref, p.x, p.y, { timeout_ms = self:left() })
  if type(o.covered) == "table" then error(covered_error(ref, o.covered), 0) end
  self.aim = oop and { ref = ref, x = o.x, y = o.y } or nil
  return o.x, o.y
end

--- True when the frame named name runs in a process of its own (page:frames
-- reads the core's frame table).
function Action:out_of_process(name)
  if name == nil or name == "main" then return false end
  for _, f in ipairs(self.page:frames()) do
    if f.frame == name then return f.out_of_process == true end
  end
  return false
end

-- What events ({method, params} lists from vdx.input.mouse), all at
-- (x, y), do there: "press" when one presses a button, "move" when they
-- only move the pointer; nil when any is elsewhere (a drag).
local function input_kind(events, x, y)
  local kind = "move"
  for _, e in ipairs(events) do
    local p = e[2]
    if p.x ~= x or p.y ~= y then return nil end
    if p.type == "mousePressed" then kind = "press" end
  end
  return kind
end

--- Sends mouse events (a list from vdx.input.mouse) and records where the
-- pointer ends up.  When they press or hover at the point Action:point
-- gave for an element in an out-of-process frame, it makes sure the input
-- reached that frame: the browser routes input there by what it has
-- drawn, and now and then (mostly just after the frame was scrolled into
-- view; reported for a covered headed window) it sends it to the <iframe>
-- element in the parent instead, where it does nothing
-- (bridge/src/arrival.js).  Input that did not arrive is sent again once
-- the frame has drawn (the count is reported as input_retries), until the
-- action's time runs out: InputNotRouted.
function Action:mouse(events, x, y)
  local aim = self.aim
  self.aim = nil
  local kind = aim and input_kind(events, aim.x, aim.y)
  local tries = 0
  while true do
    self:join()
    self:input(events)
    if x then self.page:pointer(x, y) end
    if not kind then return end
    local r = self:call(aim.ref, "pointerArrived", { kind = kind })
    if r.arrived then return end
    tries = tries + 1
    self.extra.input_retries = tries
    if r.armed == false or vdx.now() >= self.deadline then
      local frame = self.frames[aim.ref] or aim.ref
      error(vdx.error("InputNotRouted", ("the browser sent the %s at (%g, %g) to the page around frame %s, "
        .. "not into it, %d times within the action's %d ms: it has not drawn that frame. %s was not %s")
        :format(kind == "press" and "press" or "pointer", aim.x, aim.y, frame, tries, self.timeout, aim.ref,
          kind == "press" and "pressed" or "hovered"),
        { ref = aim.ref, frame = frame, x = aim.x, y = aim.y }), 0)
    end
  end
end

--- Sends input events with what is left of the action's time.  A page
-- that is hidden (its window minimized, its tab in the background) draws
-- no frames, and the browser hands it a pointer move only at a frame: the
-- move's answer never comes, and the Timeout becomes PageHidden, which
-- says so.
function Action:input(events)
  local page = self.page
  local ok, err = pcall(page.input, page, events, { timeout_ms = self:left() })
  if ok then return err end
  if vdx.is_error(err, "Timeout") and not page:is_closed() then
    local read, hidden = pcall(page.bridge, page, "isHidden", {}, { frame = "main", timeout_ms = 1000 })
    if read and hidden == true then
      error(vdx.error("PageHidden", ("the page is hidden (its window is minimized or its tab is in the "
        .. "background): it draws no frames, and the browser hands it the pointer's moves only at a frame, "
        .. "so the input waited %d ms for an answer"):format(self.timeout),
        { timeout_ms = self.timeout }), 0)
    end
  end
  error(err, 0)
end

--- Sends key events (a list from vdx.input.press / vdx.input.type).
function Action:keys(events)
  self:join()
  return self:input(events)
end

--- Lets a navigation the action started load (or be abandoned), then
-- returns the result: ref, what happened since the mark (navigation,
-- popups, dialogs, downloads, console_errors), the facts the steps
-- recorded (found_by, selected, changed, value…) and, when asked, the
-- snapshot after it.  shot, when given, runs after the settle to add facts
-- of its own (click_at's screenshot).  Works when the action closed the page.
function Action:finish(ref, shot)
  local page = self.page
  self:join()
  page:settle(self.mark, { timeout_ms = self:left() })
  if shot and not page:is_closed() then shot(self) end
  local r = page:since(self.mark)
  r.ref = ref
  for k, v in pairs(self.extra) do r[k] = v end
  if self.snapshot and not page:is_closed() then r.snapshot = page:snapshot().text end
  return r
end

-- ------------------------------------------------------------- mouse

local function check_mouse(what, opts)
  local count = opts.click_count or 1
  if math.type(count) ~= "integer" or count < 1 or count > 3 then
    error(vdx.error("InvalidArgument", what .. ": click_count must be 1, 2 or 3",
      { field = "click_count" }), 3)
  end
  if opts.position ~= nil and type(opts.position) ~= "table" then
    error(vdx.error("InvalidArgument", what .. ": position must be a table {x=, y=}",
      { field = "position" }), 3)
  end
  vdx.input.mouse("mouseMoved", 0, 0, { button = opts.button or "left", modifiers = opts.modifiers })
  return count
end

--- The mouse events of moving onto (x, y) and pressing button count
-- times (0: only the move), for Action:mouse.
function actions.press_events(x, y, button, count, modifiers)
  local ev = { vdx.input.mouse("mouseMoved", x, y, { modifiers = modifiers }) }
  for i = 1, count do
    local o = { button = button, click_count = i, modifiers = modifiers }
    ev[#ev + 1] = vdx.input.mouse("mousePressed", x, y, o)
    ev[#ev + 1] = vdx.input.mouse("mouseReleased", x, y, o)
  end
  return ev
end

local CLICK = set { "button", "click_count", "modifiers", "position" }

--- page:click(target [, {button="left", click_count=1, modifiers=,
-- position={x=,y=}, timeout_ms=, snapshot=false}]) -> result.  Waits until
-- the element is visible, enabled and still (its box the same across a
-- frame's start: the latest snapshot's box, or the next frame's), scrolls
-- it into view,
-- hit-tests its point (ElementCovered names what is on top) and sends real
-- mouse events.  The result: { ref=, navigation=, popups=, dialogs=,
-- downloads=, console_errors=n, found_by= (for a description), snapshot=
-- (when asked) }.
function actions.click(page, target, opts)
  opts = check_opts("click", opts, CLICK)
  local count = check_mouse("click", opts)
  local a = actions.begin(page, opts)
  local ref = a:resolve(target)
  local x, y = a:point(ref, opts.position)
  a:mouse(actions.press_events(x, y, opts.button or "left", count, opts.modifiers), x, y)
  return a:finish(ref)
end

--- page:hover(target [, {position=, modifiers=, timeout_ms=, snapshot=}])
-- -> result: moves the pointer onto the element (after the same waits as
-- click).
function actions.hover(page, target, opts)
  opts = check_opts("hover", opts, set { "position", "modifiers" })
  check_mouse("hover", opts)
  local a = actions.begin(page, opts)
  local ref = a:resolve(target)
  local x, y = a:point(ref, opts.position)
  a:mouse(actions.press_events(x, y, nil, 0, opts.modifiers), x, y)
  return a:finish(ref)
end

--- page:drag(from, to [, {steps=5, timeout_ms=, snapshot=}]) -> result:
-- presses on from, moves in steps onto to and releases there (pointer
-- events; HTML5 drag-and-drop is not synthesized).
function actions.drag(page, from, to, opts)
  opts = check_opts("drag", opts, set { "steps" })
  local steps = math.max(1, opts.steps or 5)
  local a = actions.begin(page, opts)
  local ref = a:resolve(from)
  local x, y = a:point(ref)
  local m = vdx.input.mouse
  -- In a frame of another process the pointer goes there first, until it
  -- arrives (see Action:mouse): a drag's own events are not checked, as
  -- half of one sent again is no repair.
  if a.aim then a:mouse({ m("mouseMoved", x, y) }, x, y) end
  local x2, y2 = a:point(a:resolve(to))
  local ev = { m("mouseMoved", x, y), m("mousePressed", x, y, { button = "left", click_count = 1 }) }
  for i = 1, steps do
    ev[#ev + 1] = m("mouseMoved", x + (x2 - x) * i / steps, y + (y2 - y) * i / steps,
      { button = "left" })
  end
  ev[#ev + 1] = m("mouseReleased", x2, y2, { button = "left", click_count = 1 })
  a:mouse(ev, x2, y2)
  return a:finish(ref)
end

--- page:click_at(x, y [, {hold_ms=0, steps=10, button="left", modifiers=,
-- path=, timeout_ms=}]) -> result with png = the PNG bytes of the viewport
-- after the release (or screenshot = {path=, size=} when path is given).
-- Moves the pointer from where it was to (x, y) in steps, presses, holds,
-- and releases: for sliders, canvases and press-and-hold widgets.
function actions.click_at(page, x, y, opts)
  opts = check_opts("click_at", opts, set { "hold_ms", "steps", "button", "path", "modifiers" })
  if type(x) ~= "number" or type(y) ~= "number" then
    error(vdx.error("InvalidArgument", "click_at: x and y must be numbers"), 2)
  end
  check_mouse("click_at", opts)
  local steps = math.max(1, opts.steps or 10)
  local a = actions.begin(page, opts)
  local px, py = page:pointer()
  local m, o = vdx.input.mouse, { button = opts.button or "left", click_count = 1, modifiers = opts.modifiers }
  local ev = {}
  for i = 1, steps do
    ev[#ev + 1] = m("mouseMoved", px + (x - px) * i / steps, py + (y - py) * i / steps,
      { modifiers = opts.modifiers })
  end
  ev[#ev + 1] = m("mousePressed", x, y, o)
  if (opts.hold_ms or 0) > 0 then ev[#ev + 1] = { sleep = opts.hold_ms } end
  ev[#ev + 1] = m("mouseReleased", x, y, o)
  a:mouse(ev, x, y)
  return a:finish(nil, function()
    local data = page:send("Page.captureScreenshot", { format = "png" }, { timeout_ms = a:left() }).data
    if opts.path then
      a.extra.screenshot = vdx.write_base64(opts.path, data)
    else
      a.extra.png = vdx.base64_decode(data)
    end
  end)
end

-- -------------------------------------------------------------- keys

--- page:type(target, text [, {clear=false, submit=false, slowly=false,
-- timeout_ms=, snapshot=}]) -> result.  Focuses the input, textarea or
-- contenteditable element; clear replaces what it holds; text goes in with
-- Input.insertText, or key by key (keydown, keypress, input, keyup) when
-- slowly; submit presses Enter afterwards.
function actions.type(page, target, text, opts)
  opts = check_opts("type", opts, set { "clear", "submit", "slowly" })
  if type(text) ~= "string" and type(text) ~= "number" then
    error(vdx.error("InvalidArgument", "type: text must be a string", { field = "text" }), 2)
  end
  text = tostring(text)
  local a = actions.begin(page, opts)
  local ref = a:resolve(target)
  local r = a:call(ref, "prepareType", { clear = opts.clear and true or false })
  local ev = {}
  if #text > 0 and opts.slowly then
    ev = vdx.input.type(text)
  elseif #text > 0 then
    ev = { { "Input.insertText", { text = text } } }
  elseif opts.clear and r.had_text then
    ev = vdx.input.press("Delete")
  end
  if opts.submit then
    for _, e in ipairs(vdx.input.press("Enter")) do ev[#ev + 1] = e end
  end
  a:keys(ev)
  return a:finish(ref)
end

--- page:press_key(key [, {target=, timeout_ms=, snapshot=}]) -> result.
-- key is a key or a combination: "Enter", "Tab", "Shift+Tab",
-- "Control+A", "ArrowDown", "a".  With target the element is focused
-- first; otherwise the key goes to whatever has focus.
function actions.press_key(page, key, opts)
  opts = check_opts("press_key", opts, set { "target" })
  if type(key) ~= "string" then
    error(vdx.error("InvalidArgument", "press_key: key must be a string", { field = "key" }), 2)
  end
  local ev = vdx.input.press(key)           -- validates the key first
  local a = actions.begin(page, opts)
  local ref
  if opts.target ~= nil then
    ref = a:resolve(opts.target)
    a:call(ref, "focus")
  end
  a:keys(ev)
  return a:finish(ref)
end

-- ------------------------------------------------------ form controls

--- page:check(target [, {position=, timeout_ms=, snapshot=}]) -> result
-- with changed = true|false: clicks a checkbox, radio or switch unless it
-- is checked already, then verifies that it is (CheckFailed otherwise).
function actions.check(page, target, opts)
  return actions.set_checked(page, target, true, check_opts("check", opts, set { "position" }))
end

--- page:uncheck(target [, opts]) -> result: the same towards unchecked
-- (NotCheckable for a radio button, which only another one unchecks).
function actions.uncheck(page, target, opts)
  return actions.set_checked(page, target, false, check_opts("uncheck", opts, set { "position" }))
end

--- Checks (want = true) or unchecks the target; what check and uncheck
-- run, with their options already checked.
function actions.set_checked(page, target, want, opts)
  local a = actions.begin(page, opts)
  local ref = a:resolve(target)
  local s = a:call(ref, "checkState")
  local mixed = type(s.checked) == "string"
  if not want and s.role == "radio" and s.checked == true then
    error(vdx.error("NotCheckable", ("%s is a radio button: it cannot be unchecked, check another one")
      :format(ref)), 0)
  end
  if not mixed and (s.checked == true) == want then
    a.extra.changed = false
    return a:finish(ref)
  end
  a.extra.changed = true
  local x, y = a:point(ref, opts.position)
  a:mouse(actions.press_events(x, y, "left", 1), x, y)
  s = a:call(ref, "checkState")
  if type(s.checked) == "string" or (s.checked == true) ~= want then
    error(vdx.error("CheckFailed", ("clicking %s (%s) did not %s it")
      :format(ref, s.role or "?", want and "check" or "uncheck")), 0)
  end
  return a:finish(ref)
end

--- page:select_option(target, values [, {timeout_ms=, snapshot=}]) ->
-- result with selected = {values}.  values is a string or a list; each
-- matches an option's value or its label.  NoOption lists the options
-- there are when one does not match.
function actions.select_option(page, target, values, opts)
  opts = check_opts("select_option", opts, {})
  if type(values) == "string" or type(values) == "number" then values = { tostring(values) } end
  if type(values) ~= "table" then
    error(vdx.error("InvalidArgument", "select_option: values must be a string or a list",
      { field = "values" }), 2)
  end
  local a = actions.begin(page, opts)
  local ref = a:resolve(target)
  a.extra.selected = a:call(ref, "selectOption", nil, values).selected
  return a:finish(ref)
end

--- page:set_slider(target, value [, opts]) -> result with value: sets a
-- range input and fires input and change (what fill_form does for sliders).
function actions.set_slider(page, target, value, opts)
  opts = check_opts("set_slider", opts, {})
  value = tonumber(value)
  if value == nil then
    error(vdx.error("InvalidArgument", "set_slider: value must be a number", { field = "value" }), 2)
  end
  local a = actions.begin(page, opts)
  local ref = a:resolve(target)
  a.extra.value = a:call(ref, "setSlider", nil, value).value
  return a:finish(ref)
end

--- page:upload_file(target, paths [, {timeout_ms=, snapshot=}]) -> result:
-- sets the files of a file input (or of the input its label controls);
-- paths is a path or a list (IOError for a file that does not exist).
function actions.upload_file(page, target, paths, opts)
  opts = check_opts("upload_file", opts, {})
  if type(paths) == "string" then paths = { paths } end
  if type(paths) ~= "table" then
    error(vdx.error("InvalidArgument", "upload_file: paths must be a path or a list",
      { field = "paths" }), 2)
  end
  local abs = {}
  for i, p in ipairs(paths) do abs[i] = vdx.realpath(p) end
  local a = actions.begin(page, opts)
  local ref = a:resolve(target)
  local info = a:call(ref, "fileInputInfo")
  if not info.multiple and #abs > 1 then
    error(vdx.error("NotMultiple", ("%s takes one file, not %d"):format(ref, #abs)), 0)
  end
  a:join()
  page:set_input_files(ref, abs, { timeout_ms = a:left() })
  return a:finish(ref)
end

--- page:fill_form(fields [, {timeout_ms=}]) -> { fields = {result…},
-- count = n }.  fields is a list of { target = ref, value = v }: text boxes
-- are cleared and typed into, checkboxes and radios are checked (value
-- true) or unchecked, selects take a value or label (or a list), sliders
-- a number, file inputs a path.
function actions.fill_form(page, fields, opts)
  opts = check_opts("fill_form", opts, {})
  if type(fields) ~= "table" then
    error(vdx.error("InvalidArgument", "fill_form: a list of {target=, value=} expected"), 2)
  end
  for _, f in ipairs(fields) do
    if type(f) ~= "table" then
      error(vdx.error("InvalidArgument", "fill_form: a list of {target=, value=} expected"), 2)
    end
    actions.target(f.target)
  end
  local t = { timeout_ms = opts.timeout_ms }
  local results = {}
  for i, f in ipairs(fields) do
    local ref = actions.target(f.target).ref
    if not ref then
      error(vdx.error("InvalidArgument", "fill_form: each field needs target = a ref from the snapshot",
        { field = "target" }), 2)
    end
    local kind = page:bridge("fieldInfo", { ref }, { frame = ref }).kind
    local v = f.value
    if kind == "checkbox" or kind == "radio" then
      if v then results[i] = page:check(ref, t) else results[i] = page:uncheck(ref, t) end
    elseif kind == "select" then
      results[i] = page:select_option(ref, v, t)
    elseif kind == "slider" then
      results[i] = page:set_slider(ref, tonumber(v) or v, t)
    elseif kind == "file" then
      results[i] = page:upload_file(ref, v, t)
    else
      results[i] = page:type(ref, tostring(v), { clear = true, timeout_ms = opts.timeout_ms })
    end
  end
  return { fields = results, count = #results }
end

-- The page methods this module defines.
local METHODS = { "click", "hover", "drag", "click_at", "type", "press_key", "check", "uncheck",
  "select_option", "set_slider", "upload_file", "fill_form" }

--- Adds the actions to a table of page methods (vdx.Page, the methods
-- table of pages; lua/vdx.lua calls this when `vdx` loads).
function actions.install(methods)
  for _, name in ipairs(METHODS) do methods[name] = actions[name] end
end

return actions
