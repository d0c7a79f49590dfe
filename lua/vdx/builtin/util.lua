--- vdx.builtin.util: helpers shared by the built-in tools: capability
-- checks, targets (ref or description), compact text rendering of result
-- tables and the common argument schemas.
local vdx = require "vdx"
local assertions = require "vdx.assertions"
local json = require "vdx.json"
local slow_checks = require "vdx.slow_checks"

local util = {}

local default_paths

--- The vdx.paths policy of the call: the server's, else one with no
-- workspace (file URLs refused, files written under ./vdx-output).
function util.paths(ctx)
  if ctx.paths then return ctx.paths end
  default_paths = default_paths or require("vdx.paths").new {}
  return default_paths
end

--- The typed target of an action from a tool's arguments, and its label
-- for the answer: { ref = … } when the ref is given (checked against the
-- ref grammar by the action), else { description = … } from the element
-- description.  Raises InvalidArgument when neither is there.
function util.target(args, refkey, elemkey)
  refkey, elemkey = refkey or "ref", elemkey or "element"
  local ref, desc = args[refkey], args[elemkey]
  -- The description given with a ref is kept as said: util.locator_of
  -- refuses a ref it does not describe.
  if ref ~= nil and ref ~= "" then return { ref = ref, said = desc ~= "" and desc or nil }, ref end
  if desc ~= nil and desc ~= "" then return { description = desc }, desc end
  error(vdx.error("InvalidArgument", ("field %s: expected a ref from browser_snapshot() (or %s, a description)")
    :format(refkey, elemkey), { field = refkey, expected = "string" }), 0)
end

-- True when role has a step of the current test in log (one carried
-- over a cut by browser_start_test does not count: the new test opens the
-- role's page where it is now; nor does a setting of its world, a route
-- or a clock, which comes before the page loads).
local function started(log, role)
  for _, s in ipairs(log:list()) do
    if s.role == role and not s.carried and not s.world then return true end
  end
  return false
end

--- The URL of the role's page when it shows an http(s) document, else
-- nil (about:blank, a page that cannot be read).
function util.page_url(ctx)
  local url = require("vdx.urls").of(ctx:page())
  if url and url:match("^https?:") then return url end
end

--- Whether the test of ctx's session has steps of ctx's role already, so
-- its page is where the role's page is now (false when nothing records).
function util.started(ctx)
  return ctx.session ~= nil and ctx.role ~= nil and started(ctx.session, ctx.role.name)
end

--- Runs f(...) noting first the URL of the page of a role that has no
-- step in the test yet: the page the test opens, as the agent found it
-- (the action may leave it, by a link or a hash), which util.record takes
-- for the role's first step.  Returns what f returns; raises what it raises.
function util.from_start(ctx, f, ...)
  local log = ctx.session
  if not log or not ctx.role or started(log, ctx.role.name) then return f(...) end
  local ok, url = pcall(util.page_url, ctx)
  ctx.start_url = ok and url and { role = ctx.role.name, url = url } or nil
  local r = table.pack(pcall(f, ...))
  ctx.start_url = nil
  if not r[1] then error(r[2], 0) end
  return table.unpack(r, 2, r.n)
end

--- Records the emulation change o (page:emulate's keys) that tool name
-- made, as a "code" step: the exported test sets the same world
-- (vdx.emulation_export), and the replay sets it again.
function util.record_emulation(ctx, name, o)
  local change = require("vdx.emulation_export").change(o)
  return util.record(ctx, { kind = "code", world = true, emulation = true, tool = name, lines = change.lines,
    context_emulate = change.context, replay = function(page) page:emulate(o) end })
end

--- " (step N)" of the step st (util.record's) that a change of the page's
-- world was recorded as, which drop takes (runs FE and FN guessed the
-- numbers of their routes and media changes to plan drop=), or "".
function util.step_no(st)
  return type(st) == "table" and st.no and (" (step %d)"):format(st.no) or ""
end

--- The answer { text, structured } of a change to how page is shown (a
-- viewport, a device, a colour scheme): text, then what it changed since
-- the agent's last look, with checks of the new layout proposed, once the
-- page shows it (want: { width =, height =, media = { query… } }, the
-- bridge's afterView) and its own handlers of the change (matchMedia
-- listeners, resize handlers) have run.  The next action compares with
-- this picture.  A page laid out wider than the viewport (a phone's, and
-- no viewport meta tag) is said so.
function util.relaid(ctx, page, text, structured, want)
  want = want or {}
  local ok, view = pcall(page.bridge, page, "afterView", { want }, { frame = "main" })
  local laid = ok and type(view) == "table" and math.tointeger(view.width)
  -- (Not of a blank page, which has no tag either: run EK emulated a
  -- phone right after browser_start_test had closed its page.)
  local url = laid and require("vdx.urls").of(page) or ""
  local blank = url == "" or url:match("^about:") ~= nil
  if laid and want.width and laid > want.width and view.viewport_meta == false and not blank then
    text = text .. ("\nThe page lays out %d CSS pixels wide, not the device's %d: it does not set <meta name=\"viewport\" "
      .. "content=\"width=device-width\">, so a phone shows it zoomed out and its media queries see %d.")
      :format(laid, want.width, laid)
  end
  return require("vdx.builtin.report").with_changes(ctx, { text = text, structured = structured or {} }, { view = true })
end

--- Tells the role that what the agent waited for took elapsed_ms to show
-- (run AH's held payment: its confirmation came after 10 s, and the check
-- recorded after the wait failed in the test at Playwright's 5 s): the
-- checks recorded before the role's next action or navigation carry a
-- timeout as long (vdx.slow_checks), which the test writes and the gate's
-- replay waits.  Returns that timeout, or nil.
function util.waited(ctx, elapsed_ms)
  return slow_checks.waited(ctx.role, elapsed_ms)
end

--- Records step (see vdx.session_log) in the session of the call, in the
-- current role, with loc (from util.locator_of) as its locator.  The
-- first step of a role that is not a navigation is preceded by one to the
-- page's URL as the agent found it (util.from_start, else its current
-- one), so the test starts where the agent did.
function util.record(ctx, step, loc)
  local log = ctx.session
  if not log then return end
  step.role = ctx.role.name
  -- A check after a slow wait waits as long (util.waited).
  slow_checks.stamp(ctx.role, step)
  if loc and loc.frame and loc.frame ~= "main" and not loc.frame_locator then
    -- A frame with no locator from the page (its owner was never read).
    step.unlocated = ("the target is inside frame %s, whose iframe has no locator from the page"):format(loc.frame)
  elseif loc then
    -- A target inside a frame has the whole chain (`getByTitle('Pay')
    -- .contentFrame().getByRole(…)`), which the replay follows too.
    step.locator, step.positional = loc.locator, loc.positional or nil
  end
  if step.kind ~= "navigate" and not step.world and not started(log, step.role) then
    local at = ctx.start_url
    local url = at and at.role == step.role and at.url or util.page_url(ctx)
    if url then log:add { kind = "navigate", role = step.role, url = url, tool = step.tool } end
  end
  return log:add(step)
end

--- Copies t without nil values and with the keys renamed per map
-- ({from = "to"}); keys not in map are dropped.
function util.pick(t, map)
  local out = {}
  for from, to in pairs(map) do
    if t[from] ~= nil then out[to] = t[from] end
  end
  return out
end

local function scalar(v)
  if v == json.null then return "null" end
  if type(v) == "string" then
    local s = v:gsub("\n", "\\n")
    if #s > 200 then s = s:sub(1, 200) .. "…[+" .. (#s - 200) .. " chars]" end
    if s == "" or s:match("^[%s%-%[{]") or s:match(": ") or s:match("^%d") then
      return ("%q"):format(s):gsub("\\\n", "\\n")
    end
    return s
  end
  return tostring(v)
end

local function sorted_keys(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  return keys
end

local function is_flat(t)
  for _, v in pairs(t) do if type(v) == "table" then return false end end
  return true
end

-- Renders t into out at indent, YAML-like, bounded in depth and length.
local function render(t, out, indent, depth)
  local pad = ("  "):rep(indent)
  if depth > 6 then out[#out + 1] = pad .. "…" return end
  if json.looks_like_array(t) then
    for i, v in ipairs(t) do
      if i > 60 then out[#out + 1] = pad .. ("- … (%d more)"):format(#t - 60) break end
      if type(v) == "table" and next(v) ~= nil and is_flat(v) and not json.looks_like_array(v) then
        local parts = {}
        for _, k in ipairs(sorted_keys(v)) do parts[#parts + 1] = k .. ": " .. scalar(v[k]) end
        out[#out + 1] = pad .. "- {" .. table.concat(parts, ", ") .. "}"
      elseif type(v) == "table" and next(v) ~= nil then
        out[#out + 1] = pad .. "-"
        render(v, out, indent + 1, depth + 1)
      else
        out[#out + 1] = pad .. "- " .. (type(v) == "table" and "[]" or scalar(v))
      end
    end
    return
  end
  for _, k in ipairs(sorted_keys(t)) do
    local v = t[k]
    if type(v) == "table" and next(v) ~= nil then
      if is_flat(v) and json.looks_like_array(v) and #v <= 20 then
        local parts = {}
        for i, x in ipairs(v) do parts[i] = scalar(x) end
        out[#out + 1] = pad .. k .. ": [" .. table.concat(parts, ", ") .. "]"
      elseif is_flat(v) and not json.looks_like_array(v) then
        local parts = {}
        for _, kk in ipairs(sorted_keys(v)) do parts[#parts + 1] = kk .. "=" .. scalar(v[kk]) end
        out[#out + 1] = pad .. k .. ": {" .. table.concat(parts, ", ") .. "}"
      else
        out[#out + 1] = pad .. k .. ":"
        render(v, out, indent + 1, depth + 1)
      end
    elseif type(v) == "table" then
      -- An empty list (marked with json.array) reads as one, as in JSON.
      out[#out + 1] = pad .. k .. (json.is_array(v) and ": []" or ": {}")
    else
      out[#out + 1] = pad .. k .. ": " .. scalar(v)
    end
  end
end

--- Compact, YAML-like text of a result table, for the model.
function util.render(t)
  if type(t) ~= "table" then return scalar(t) end
  local out = {}
  render(t, out, 0, 0)
  return table.concat(out, "\n")
end

--- The element a tool checks, as { locator =, relative =, frame =,
-- positional =, elsewhere = }: from ref, locator or target (a ref or a
-- locator, Playwright MCP's argument).  locator is what an assertion
-- records; relative and frame (a ref in the frame, or nil) where its facts
-- are read; elsewhere says why it cannot be recorded (a frame without a
-- path from the page).  A locator must match exactly one element.  avoid:
-- the text the check is of, which a ref's locator is not to find the
-- element by (assertions.locator_of).
function util.checked_target(page, args, avoid)
  local ref, expr = assertions.str(args.ref), assertions.str(args.locator)
  if assertions.str(args.target) then
    if vdx.is_ref(args.target) then ref = args.target else expr = args.target end
  end
  if ref and ref ~= "" then
    local l, why = assertions.locator_of(page, ref, nil, avoid)
    if not l then
      error(vdx.error("VerifyFailed", ("no locator matches %s alone: %s"):format(ref, tostring(why)), { ref = ref }), 0)
    end
    return { locator = l.locator, relative = l.relative, frame = l.frame ~= "main" and ref or nil,
      positional = l.positional or nil,
      elsewhere = not l.from_page and ("the element is inside frame %s, whose iframe has no locator from the page")
        :format(l.frame) or nil }
  end
  if not expr or expr == "" then
    -- (Words alone find nothing to check: run BF gave only element.)
    local words = assertions.str(args.element)
    error(vdx.error("InvalidArgument", (words and ("element (%q) only says in words what ref or locator points at: "):format(words)
      or "") .. "give ref (from the snapshot or browser_find) or locator (a Playwright locator expression)",
      { field = "ref", expected = "string" }), 0)
  end
  return { locator = expr, relative = expr }
end

--- Schema of the `element` description argument (Playwright MCP's name).
util.ELEMENT = { type = "string",
  description = "The element in words" }

--- Schema of the `ref` argument.
util.REF = { type = "string", description = "[ref=…] from the snapshot" }

--- The RefMismatch error of a ref whose element the description said
-- with it does not describe, while another element matches it alone (d:
-- generate_locator's described).  Nothing was done.
function util.mismatch(ref, said, d)
  local o = d.other
  local function el(role, name) return name ~= "" and ("%s %q"):format(role, name) or role end
  return vdx.error("RefMismatch", ("ref %s is %s, not %q: %s is %s now (refs are given anew when the page loads). "
    .. "Nothing was done: act again with ref %s, or give the ref without element if you meant %s")
    :format(ref, el(d.role, d.name), said, el(o.role, o.name), o.ref, o.ref, ref),
    { ref = ref, element = said, other = o.ref })
end

-- loc (page:generate_locator's answer for ref) with a price, a count in
-- parentheses or an app-numbered id in its names left free (vdx.volatile:
-- `{ name: /Pay \$[\d.,]+/ }`), when the page confirms that the freed
-- locator still finds ref alone: the next run's cart holds another amount.
local function steadied(ctx, page, loc, ref)
  if not (loc and loc.locator) or loc.positional then return loc end
  local volatile = require "vdx.volatile"
  local kept = require("vdx.proposals").remembered_ids(ctx.session)
  local loose = volatile.loosen(loc.locator, kept)
  if not loose then return loc end
  local ok, f = pcall(assertions.facts, page, loose, { limit = 2 })
  if not ok and vdx.is_error(f, "Cancelled") then error(f, 0) end
  if ok and f.count == 1 and f.matches[1].ref == ref then
    loc.locator = loose
    loc.frame_relative = loc.frame_relative and volatile.loosen(loc.frame_relative, kept) or loc.frame_relative
    -- Why, once a session (run BE read `/Pay \$[\d.,]+/` for "Pay $10.80"
    -- with no word on it).
    local log = ctx.session
    if not loc.note and not (log and log.loose_told) then
      if log then log.loose_told = true end
      loc.note = "the amount, count or id in its name is left free: a later run's page may show another"
    end
  end
  return loc
end

--- The verified Playwright locator of an action's target (util.target's
-- table), taken BEFORE the action, since the element may be gone after:
-- page:generate_locator's answer for the ref, or for the element a
-- description finds.  nil when the target resolves to nothing: the
-- action then raises its own error; the page's error (a StaleRef, with
-- the role and name the element had) comes second.
function util.locator_of(ctx, target)
  local page = ctx:page()
  -- page:method(...), or nil when it fails; a cancelled call stays cancelled.
  local function try(method, ...)
    local ok, r = pcall(page[method], page, ...)
    if not ok and vdx.is_error(r, "Cancelled") then error(r, 0) end
    return ok and r or nil
  end
  local ref = target.ref
  if ref == nil and target.description ~= nil then
    local r = try("bridge", "findByDescription", { target.description }, { frame = "main" })
    ref = type(r) == "table" and r.ref
  end
  if type(ref) ~= "string" then return nil end
  local ok, loc = pcall(page.generate_locator, page, ref, { alternatives = 0, described = target.said })
  if not ok and vdx.is_error(loc, "Cancelled") then error(loc, 0) end
  if ok and loc.described then error(util.mismatch(ref, target.said, loc.described), 0) end
  if not ok and target.ref and vdx.is_error(loc, "StaleRef") then
    -- A framework re-rendered the element after the agent read its ref:
    -- the one live element with the same role, name and tag succeeds it
    -- (what the locator of either would find) and takes the action.
    local s = try("bridge", "successor", { ref }, { frame = ref })
    if not (s and s.from) then return nil, loc end
    target.ref = s.ref
    loc = try("generate_locator", s.ref, { alternatives = 0 }) or {}
    loc.healed = { from = ref, to = s.ref }
    return steadied(ctx, page, loc, s.ref)
  end
  if not ok then return nil, loc end
  return loc and loc.locator and steadied(ctx, page, loc, ref) or nil
end

--- page[method](page, target, opts) with the target's verified locator
-- read beside it: -> result, locator (util.locator_of's).  The read runs
-- as a task the action waits for before its first input event (opts
-- .alongside), so it fills the action's own waits (a click waits for a
-- frame to tell that its element holds still) instead of coming before
-- them.  A target given by description is read first, as the action's
-- own resolution would race it.  A ref that a framework re-rendered
-- fails the action (StaleRef) while the read finds its successor: the
-- action is then made again on the successor, as when the read came first.
function util.act_located(ctx, method, target, opts)
  local page = ctx:page()
  if target.ref == nil then
    local loc = util.locator_of(ctx, target)
    return page[method](page, target, opts), loc
  end
  local task = vdx.spawn(util.locator_of, ctx, target)
  opts.alongside = task
  local ok, res = pcall(page[method], page, target, opts)
  if ok then return res, vdx.wait(task) end
  if vdx.is_error(res, "Cancelled") then
    task:cancel()
    error(res, 0)
  end
  local lok, loc = pcall(vdx.wait, task)
  if vdx.is_error(res, "StaleRef") and lok and loc and loc.healed then
    opts.alongside = nil
    return page[method](page, target, opts), loc
  end
  error(res, 0)
end

-- The chain every one of exprs (two or more locators) starts with, up to
-- a call's closing parenthesis followed by a dot in each, or nil:
-- `getByRole('region', { name: 'Live' })` of the fields a fill_form
-- filled in one section.
local function shared_scope(exprs)
  if #exprs < 2 then return nil end
  local n = #exprs[1]
  for i = 2, #exprs do
    local a, b, k = exprs[1], exprs[i], 0
    while k < n and k < #b and a:byte(k + 1) == b:byte(k + 1) do k = k + 1 end
    n = k
  end
  local head = exprs[1]:sub(1, n)
  -- Back to the last ")." that every locator continues after.
  while #head > 0 do
    local cut = head:match("^(.*%))%.")
    if not cut then return nil end
    local ok = true
    for _, e in ipairs(exprs) do
      if #e <= #cut + 1 or e:sub(#cut + 1, #cut + 1) ~= "." then ok = false end
    end
    if ok then return cut end
    head = cut:sub(1, -2)
  end
  return nil
end

-- The answer lines and structured fields of the locators (util.locator_of
-- results, nil ones skipped) of an action's targets.  Several in one
-- container are written once under it.
local function locator_lines(locs, structured)
  local lines, exprs = {}, {}
  for i = 1, locs.n or #locs do
    local l = locs[i]
    if l and l.locator then exprs[#exprs + 1] = l.locator end
  end
  local scope = shared_scope(exprs)
  if scope then lines[1] = "Locators, each in " .. scope .. ":" end
  for i = 1, locs.n or #locs do
    local l = locs[i]
    if l and l.locator then
      lines[#lines + 1] = scope and ("- " .. l.locator:sub(#scope + 2)) or ("Locator: " .. l.locator)
      if l.note then lines[#lines + 1] = "Note: " .. l.note end
    end
    if l and l.healed then
      -- (Not the successor's ref: a page that renders again after the
      -- action gives it another, which the changes list; run AZ read two
      -- new refs for one checkbox in one answer.)
      lines[#lines + 1] = ("Note: %s was re-rendered; acted on its successor (same role and name)"):format(l.healed.from)
    end
  end
  if structured and #exprs > 0 then
    structured.locator = exprs[1]
    if #exprs > 1 then structured.locators = exprs end
  end
  return lines
end

-- Facts of an action's result that its text leaves out (they stay in
-- structured): the locators have their own lines, the ref is in the
-- first line, and the change report says where a navigation went and
-- what changed; how a description was found is in the Locator line.
local QUIET = { locator = true, locators = true, ref = true, navigation = true, found_by = true, changed = true,
  had_text = true, selected = true }

-- The facts of t worth telling (QUIET keys and zero console errors left
-- out, in nested tables too; fill_form's per-field facts), or nil.  The
-- options a select took are said by the answer's first line or the change
-- report (a fill_form answer read "fields: 3: selected: [Editor]").
local function told(t)
  local out, any = {}, false
  for k, v in pairs(t) do
    if not QUIET[k] and not (k == "console_errors" and v == 0) and not (k == "count" and type(t.fields) == "table") then
      if type(v) == "table" then v = told(v) end
      if v ~= nil then out[k], any = v, true end
    end
  end
  return any and out or nil
end

--- The result of an action: the facts it returned, as text and structure,
-- and the locator of each target (locs: a util.locator_of result, or a
-- list of them, table.pack'ed when one may be nil) as `Locator: <expr>`
-- lines and `locator` (`locators` when there are several).
function util.action_result(what, res, locs)
  if type(locs) == "table" and locs.locator then locs = { locs } end
  local structured = type(res) == "table" and res or nil
  local text = what
  local lines = locator_lines(locs or {}, structured)
  if #lines > 0 then text = text .. "\n" .. table.concat(lines, "\n") end
  if structured and next(structured) ~= nil then
    local facts = told(structured)
    if facts then text = text .. "\n" .. util.render(facts) end
  end
  return { text = text, structured = structured }
end

--- Where a console message (page:console's) came from, as its answer
-- line ends: " (url:line)", or "" when it names no URL.
function util.message_at(m)
  if not m.url or m.url == "" then return "" end
  return " (" .. tostring(m.url) .. (m.line and (":" .. m.line) or "") .. ")"
end

return util
