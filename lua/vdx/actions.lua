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
local action = require "vdx.action"

local actions = {}

-- The target of an action and the start of one (lua/vdx/action.lua).
actions.target = action.target
actions.begin = action.begin

-- ----------------------------------------------------------- options

local COMMON = { timeout_ms = true, hidden_ms = true, snapshot = true, alongside = true }

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
-- timeout_ms=, snapshot=}]) -> result (had_text: whether the field held
-- text before).  Focuses the input, textarea or contenteditable element;
-- clear replaces what it holds; text goes in with Input.insertText, or key
-- by key (keydown, keypress, input, keyup) when slowly; submit presses
-- Enter afterwards.
function actions.type(page, target, text, opts)
  opts = check_opts("type", opts, set { "clear", "submit", "slowly" })
  if type(text) ~= "string" and type(text) ~= "number" then
    error(vdx.error("InvalidArgument", "type: text must be a string", { field = "text" }), 2)
  end
  text = tostring(text)
  local a = actions.begin(page, opts)
  local ref = a:resolve(target)
  local r = a:call(ref, "prepareType", { clear = opts.clear and true or false })
  -- Whether the field held text before: typed into an empty field is
  -- the same as a fill (the MCP export writes it so).
  a.extra.had_text = r.had_text == true
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
