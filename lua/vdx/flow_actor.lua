--- vdx.flow_actor: a role of a flow as its script sees it (the `p` of
-- `f:as("provider", function(p) … end)`): how an action's arguments name
-- its target, how a target is resolved to exactly one element (retrying,
-- scoped by p:within and p:in_frame), and how an action is run and
-- recorded.  The actions themselves are vdx.flow_actions and
-- vdx.flow_expect; the flow that owns the actors is vdx.flow.
local vdx = require "vdx"
local locator = require "vdx.flow_locator"

local M = {}

--- The actor class (its methods below and those the action modules add).
local Actor = {}
Actor.__index = Actor
M.Actor = Actor

local function now() return vdx.now() end

--- Raises the typed error type_ with message and fields.
function M.fail(type_, message, fields)
  error(vdx.error(type_, message, fields or {}), 0)
end
local fail = M.fail

--- The keys of set, sorted, as "a, b, c".
function M.key_list(set)
  local names = {}
  for k in pairs(set) do names[#names + 1] = k end
  table.sort(names)
  return table.concat(names, ", ")
end
local key_list = M.key_list

--- Raises InvalidArgument when opts (a table or nil) has a key that is
-- not in known (a set); what names the call ("click").
function M.check_options(opts, known, what)
  if opts == nil then return end
  if type(opts) ~= "table" then
    fail("InvalidArgument", what .. ": options must be a table, got " .. type(opts))
  end
  for k in pairs(opts) do
    if not known[k] then
      fail("InvalidArgument", ("%s: unknown option '%s' (known: %s)"):format(what, tostring(k), key_list(known)),
        { field = tostring(k) })
    end
  end
end
local check_options = M.check_options

-- The options of actions and target expectations, and of the locator
-- spec table ({ role=, name=, … }).
local TARGET_OPTS = { within = true, frame = true, exact = true, nth = true, timeout_ms = true }
local SPEC_KEYS = { role = true, name = true, label = true, placeholder = true, text = true, test_id = true,
  css = true, ref = true, within = true, frame = true, exact = true, nth = true }

-- Splits the arguments of an action into target spec, values and opts:
-- (ref | role [, name] | spec-table) values… [opts].
local function parse(args, nvalues, what)
  local n = args.n
  local opts = {}
  if n > 0 and type(args[n]) == "table" and not locator.is_spec(args[n]) then
    opts = args[n]
    n = n - 1
  end
  local values = {}
  for i = nvalues, 1, -1 do
    values[i] = args[n]
    n = n - 1
  end
  check_options(opts, TARGET_OPTS, what)
  local spec
  local a1, a2 = args[1], args[2]
  if n == 1 and type(a1) == "table" then
    check_options(a1, SPEC_KEYS, what .. " target")
    spec = {}
    for k, v in pairs(a1) do spec[k] = v end
  elseif n == 1 and locator.is_ref(a1) then
    spec = { ref = a1 }
  elseif n >= 1 and n <= 2 and type(a1) == "string" and (n == 1 or type(a2) == "string") then
    spec = { role = a1, name = a2 }
  else
    error(what .. ": expected (ref), (role, name) or ({role=, name=, …}) then the values", 3)
  end
  for _, k in ipairs { "within", "frame", "exact", "nth" } do
    if opts[k] ~= nil then spec[k] = opts[k] end
  end
  return spec, values, opts
end

-- Applies the block scopes (p:within, p:in_frame) to spec.
function Actor:scoped(spec)
  local scope = self.flow:task_state().scope
  for i = #scope, 1, -1 do
    local s = scope[i]
    if s.actor == self then
      if s.frame and spec.frame == nil then spec.frame = s.frame end
      if s.within and spec.within == nil then spec.within = s.within end
    end
  end
  return spec
end

-- The name ("f3") of the frame of the iframe titled title (from the
-- snapshot), or nil.
function Actor:frame_named(title, text)
  text = text or self.page:snapshot { budget_tokens = 50000 }.text
  local lines = {}
  for line in text:gmatch("[^\n]+") do lines[#lines + 1] = line end
  for i, line in ipairs(lines) do
    local indent = line:match("^(%s*)%- iframe \"" .. title:gsub("%p", "%%%0") .. "\"")
    if indent then
      for j = i + 1, #lines do
        local ind2 = lines[j]:match("^(%s*)")
        if #ind2 <= #indent then break end
        local name = lines[j]:match("%[ref=(f%d+)e%d+%]")
        if name then return name end
      end
    end
  end
  return nil
end

-- The frame option of locator_count for spec (nil: the main frame): the
-- name of the frame of the iframe spec.frame titles.
function Actor:frame_of(spec)
  if not spec.frame then return nil end
  local name = self:frame_named(spec.frame)
  if not name then
    return nil, "the frame titled \"" .. spec.frame .. "\" is not on the page (or has nothing to act on yet)"
  end
  return name
end

function Actor:timeout(opts)
  return (opts and opts.timeout_ms) or self.flow.timeout_ms
end

-- Snapshot lines that mention the role or name of spec: context for errors.
function Actor:nearby(spec)
  local ok, s = pcall(self.page.snapshot, self.page, { budget_tokens = 4000 })
  if not ok then return nil end
  local out = {}
  for line in s.text:gmatch("[^\n]+") do
    local l = line:gsub("^%s+", "")
    if (spec.role and l:find("- " .. spec.role .. " ", 1, true)) or
       (spec.name and l:find(spec.name, 1, true)) then
      out[#out + 1] = l
      if #out >= 8 then break end
    end
  end
  return #out > 0 and out or nil
end

--- Resolves spec to { ref=, expr=, frame= } once it matches exactly one
-- element, retrying until the timeout.  Raises TargetNotFound or
-- AmbiguousTarget.
function Actor:resolve(spec, opts)
  spec = self:scoped(spec)
  if spec.ref then
    local expr, note = locator.synthesize(self.page, spec.ref)
    return { ref = spec.ref, expr = expr, note = note, frame = spec.frame }
  end
  local expr = locator.of(spec)
  local deadline = now() + self:timeout(opts)
  local last, why
  self.page:snapshot { budget_tokens = 50000 }
  while true do
    local frame
    frame, why = self:frame_of(spec)
    if frame or not spec.frame then
      local ok, r = pcall(self.page.locator_count, self.page, expr, { frame = frame })
      if ok then
        last = r
        if r.count == 1 and r.refs and r.refs[1] then
          return { ref = r.refs[1], expr = expr, frame = spec.frame, spec = spec }
        elseif r.count == 1 then
          self.page:snapshot { budget_tokens = 50000 }
        elseif r.count > 1 then
          fail("AmbiguousTarget", ("%d elements match %s"):format(r.count, expr),
            { expected = "exactly one element", counts = r.count, url = self:current_url(),
              frame = spec.frame, available = self:nearby(spec), look_for = locator.look_of(spec) })
        end
      elseif vdx.is_error(r, "LocatorSyntax") then
        error(r, 0)
      else
        why = tostring(r)
      end
    end
    if now() >= deadline then
      fail("TargetNotFound", ("nothing matches %s after %d ms"):format(expr, self:timeout(opts))
        .. (why and ("; " .. why) or ""),
        { expected = "exactly one element", counts = last and last.count or 0, url = self:current_url(),
          frame = spec.frame, available = self:nearby(spec), look_for = locator.look_of(spec) })
    end
    vdx.sleep(100)
  end
end

function Actor:current_url()
  if not self.page then return nil end
  return require("vdx.urls").of(self.page)
end

-- Runs one action: resolve, act (retrying once when the element was
-- re-rendered in between), record the event and the export node.
function Actor:act(kind, spec, opts, fn, export)
  return self:tagged(self.act_, kind, spec, opts, fn, export)
end

-- Calls method(self, …), adding the role to a typed error it raises.
function Actor:tagged(method, ...)
  local res = table.pack(pcall(method, self, ...))
  if not res[1] then
    local e = res[2]
    if type(e) == "table" then e.flow_role = e.flow_role or self.name end
    error(e, 0)
  end
  return table.unpack(res, 2, res.n)
end

function Actor:act_(kind, spec, opts, fn, export)
  local t0 = now()
  if self.flow.slow_mo > 0 then vdx.sleep(self.flow.slow_mo) end
  local target, result
  for attempt = 1, 3 do
    target = self:resolve(spec, opts)
    local ok, err = pcall(fn, target.ref)
    if ok then result = err break end
    if not (vdx.is_error(err, "StaleRef") or vdx.is_error(err, "UnknownRef")) or attempt == 3 or spec.ref then
      if type(err) == "table" then
        err.target = err.target or target.expr
        err.look_for = err.look_for or { ref = target.ref }
      end
      error(err, 0)
    end
  end
  self.flow:event { kind = kind, role = self.name, target = target.expr, ref = target.ref,
    frame = target.frame, ms = now() - t0, url = self:current_url() }
  self.flow:record { kind = "action", role = self.name, frame = target.frame, target = target.expr,
    call = export, note = target.note }
  return result
end

local helpers = { parse = parse, fail = fail, check_options = check_options }
require("vdx.flow_actions").install(Actor, helpers)
require("vdx.flow_expect").install(Actor, helpers)
require("vdx.flow_world_clock").install(Actor, helpers)
require("vdx.flow_world_waits").install(Actor, helpers)
require("vdx.flow_world_routes").install(Actor, helpers)
require("vdx.flow_world_network").install(Actor, helpers)
require("vdx.flow_world_storage").install(Actor, helpers)

return M
