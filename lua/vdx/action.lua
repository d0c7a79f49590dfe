--- vdx.action: one action on a page, step by step -- the object every
-- action of vdx.actions is written on, and a team's own actions too (see
-- examples/select_custom_listbox.lua): `action.begin(page, opts)` (also
-- `actions.begin`) starts one, `a:resolve(target)` turns a target into a
-- ref, `a:point(ref)` waits until the element can take a press and gives
-- its point in page coordinates, `a:mouse(events, x, y)` and
-- `a:keys(events)` send input (making sure a press into a frame of
-- another process arrived there), facts go in `a.extra`, and
-- `a:finish(ref)` settles and reports.
local vdx = require "vdx"

local action = {}

-- ------------------------------------------------------------ targets

--- The typed target of an action: `{ ref = "f1e7" }`, `{ description =
-- "the Sign in button" }`, or a string, which must be a ref.  Raises
-- InvalidArgument (naming the ref grammar for a malformed ref).  A ref's
-- target also names its frame (`frame = "f1"`): the ref is parsed here,
-- once, and the calls of the action name the frame.
function action.target(t)
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
  error(vdx.error("InvalidArgument", "a target is a ref (e3, f1e7), { ref = … } or "
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

-- NotUnique for a description several visible elements match alike
-- (the bridge's ladder names none of them): its candidates, each with
-- its ref, role, name and the text around it.
local function ambiguous_error(amb)
  local candidates = {}
  for i, c in ipairs(type(amb.candidates) == "table" and amb.candidates or {}) do
    candidates[i] = { ref = c.ref, role = c.role, name = type(c.name) == "string" and c.name or nil,
      around = type(c.around) == "string" and c.around or nil }
  end
  return vdx.error("NotUnique", amb.message or "the description matches several elements", {
    description = amb.description, by = amb.by, count = math.tointeger(amb.count), candidates = candidates })
end

-- ------------------------------------------------------------ an action

local Action = {}
Action.__index = Action

-- The pages whose actions wait for an element that is not visible at
-- most so many ms (action.hidden_wait), weakly.
local hidden_waits = setmetatable({}, { __mode = "k" })

--- action.hidden_wait(page, ms): the actions on page wait for an element
-- that is not visible at most ms (an integer, or nil for the whole
-- timeout), each a page's option as opts.hidden_ms is an action's.  The
-- MCP server sets it for its agents' pages: a ref of a part the page hid
-- since is a mistake far more often than an element about to show, and
-- waited out the whole timeout (run FM).
function action.hidden_wait(page, ms)
  if ms ~= nil and math.type(ms) ~= "integer" then
    error(vdx.error("InvalidArgument", "action.hidden_wait: ms must be an integer or nil"), 2)
  end
  hidden_waits[page] = ms
end

--- Starts an action on page: checks that it is open, fixes the deadline
-- (opts.timeout_ms, else the page's default) and how long an element not
-- visible is waited for (opts.hidden_ms, else action.hidden_wait's, else
-- to the deadline), and marks the page's counters.  Returns the action,
-- whose methods below do the steps.
function action.begin(page, opts)
  opts = opts or {}
  local timeout = opts.timeout_ms or page:default_timeout()
  if math.type(timeout) ~= "integer" then
    error(vdx.error("InvalidArgument", "option 'timeout_ms' must be an integer"), 3)
  end
  local hidden = opts.hidden_ms or hidden_waits[page]
  if hidden ~= nil and math.type(hidden) ~= "integer" then
    error(vdx.error("InvalidArgument", "option 'hidden_ms' must be an integer"), 3)
  end
  if opts.alongside ~= nil and (getmetatable(opts.alongside) or {}).__name ~= "vdx.Task" then
    error(vdx.error("InvalidArgument", "option 'alongside' must be a task (vdx.spawn)", { field = "alongside" }), 3)
  end
  return setmetatable({ page = page, deadline = vdx.now() + timeout, timeout = timeout, hidden = hidden,
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
-- an actionability error names, hidden = how long an element not visible
-- is waited for, when set}); one that waits for the element to hold
-- still brings its frame into view first (Action:reveal).
function Action:call(ref, method, opts, ...)
  if not READS[method] then self:join() end
  if STILL[method] then self:reveal(ref) end
  local o = opts or {}
  o.timeout = self:left()
  o.asked = self.timeout          -- what an actionability error names
  if self.hidden then o.hidden = self.hidden end
  local args = { ref, ... }
  args[#args + 1] = o
  return self.page:bridge(method, args, { frame = self.frames[ref] or ref, timeout_ms = self:left() + 1000 })
end

--- The entry of the frame named name in page:frames (the core's frame
-- table; nothing reaches the browser), or nil when the page has none.
function Action:frame_entry(name)
  for _, f in ipairs(self.page:frames()) do
    if f.frame == name then return f end
  end
  return nil
end

--- True when the page has a frame of that name.
function Action:has_frame(name)
  return self:frame_entry(name) ~= nil
end

--- The ref of a target (see action.target); a description goes through
-- the bridge's ladder in the main frame (NoMatch says what it tried,
-- NotUnique which elements it matched alike, and nothing is done), and
-- how it was found is reported as found_by.
function Action:resolve(target)
  local t = action.target(target)
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
  if type(r.ambiguous) == "table" then error(ambiguous_error(r.ambiguous), 0) end
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
  local f = self:frame_entry(name)
  return f ~= nil and f.out_of_process == true
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
-- action's time runs out: InputNotRouted.  A frame that loaded a new
-- document since the watch was armed (a submit button's press, before the
-- question came) has no watch to answer from: the input is not sent again,
-- since it would act on that new document, and input_arrival says
-- "new document".
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
    if r.armed == false then
      self.extra.input_arrival = "new document"
      return
    end
    tries = tries + 1
    self.extra.input_retries = tries
    if vdx.now() >= self.deadline then
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

return action
