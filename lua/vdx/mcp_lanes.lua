--- vdx.mcp_lanes: which tool calls of an MCP server wait for which.
-- Each role has a lane: the calls acting in it run one at a time, in the
-- order they arrived, while the calls of other roles run beside them.  A
-- call's role is fixed when the call arrives (before anything yields): the
-- role its `role` argument names, else the current role, which a
-- select_role changes as it arrives, so a select_role sent later cannot
-- move a call already queued.  Tools of scope "server" (vdx.tools: the
-- session's export, list_roles) wait for every call that arrived before
-- them, in every lane, and hold no lane (later calls do not wait for
-- them); those of scope "none" wait for nothing.
--
-- A lane is a chain of tasks: each call waits for the task of the call
-- before it (vdx.wait, woken by the loop when that task ends), so nothing
-- polls.
local vdx = require "vdx"
local tools = require "vdx.tools"

local lanes = {}

local Lanes = {}
Lanes.__index = Lanes

-- The lane of the calls of scope "server" (they keep their order among
-- themselves).
local SERVER = "*"

--- New lanes for the server of roles (a vdx.roles manager).
function lanes.new(roles)
  return setmetatable({ roles = roles, tails = {}, running = {}, selects = 0 }, Lanes)
end

--- Fixes what the call of tool def with args acts in and waits for, as it
-- arrives: returns a ticket { role =, scope =, waits = {tasks}, … } for
-- Lanes:run.  From now on later calls of its lane wait for it, unless it
-- only reads (reader: it waits a bounded time and holds no place).
-- Raises RoleUnknown (naming the roles) when the call names a role that is
-- not configured; a select_role makes its role the current one at once
-- (Lanes:finish puts the old one back when it fails).
function Lanes:arrive(def, args, reader)
  local scope = def.scope or "role"
  local roles = self.roles
  local key = tools.role_arg(def)
  local name = key and args[key]
  local role = type(name) == "string" and roles:role(name) or roles:current()
  local me = vdx.current_task()
  local t = { role = role, scope = scope, waits = {}, task = me }
  if scope == "none" then return t end
  if scope == "server" then
    for _, task in pairs(self.tails) do t.waits[#t.waits + 1] = task end
    t.lane = SERVER
  else
    t.waits[1] = self.tails[role.name]
    t.lane = role.name
  end
  if me and not reader then self.tails[t.lane] = me end
  if scope == "select" then
    self.selects = self.selects + 1
    t.select = { seq = self.selects, before = roles.current_ }
    roles:select(role.name)
  end
  return t
end

-- Waits for each task of list (the calls that arrived before), at most
-- wait_ms in all when given; true when every one has ended.
local function wait_all(list, me, wait_ms)
  local deadline = wait_ms and vdx.now() + wait_ms
  for _, task in ipairs(list) do
    if task ~= me and not task:done() then
      local left = deadline and deadline - vdx.now()
      if left and left <= 0 then return false end
      -- The earlier call's own failure is its own reply's business.
      pcall(vdx.wait, task, left)
      if not task:done() then return false end
    end
  end
  return true
end

--- Runs fn() for the call of ticket t (request rq) once the calls it waits
-- for have ended; returns what fn returns, or nil for a call cancelled
-- while it waited (it is skipped).  With wait_ms (a call that only reads,
-- as list_roles), the call waits at most that long and then runs beside
-- the calls still running: rq.behind then lists them ({name, role, since}).
-- While fn runs, rq.task is its task, which a cancellation interrupts.
function Lanes:run(t, rq, name, fn, wait_ms)
  local me = t.task
  local all = wait_all(t.waits, me, wait_ms)
  if not all then rq.behind = self:running_calls() end
  if rq.cancelled then return nil end
  local entry = { name = name, role = t.role.name, since = vdx.now() }
  self.running[rq] = entry
  rq.task = me
  local ok, res = pcall(fn)
  rq.task = nil
  self.running[rq] = nil
  if not ok then error(res, 0) end
  return res
end

--- Ends the call of ticket t: a select_role that failed puts the role
-- that was current back, unless a later select_role has chosen since.
function Lanes:finish(t, failed)
  local s = t.select
  if s and failed and self.selects == s.seq and self.roles.current_ == t.role then
    self.roles.current_ = s.before
  end
end

--- The calls running now: a list of { name, role, since }, oldest first.
function Lanes:running_calls()
  local out = {}
  for _, r in pairs(self.running) do out[#out + 1] = r end
  table.sort(out, function(a, b) return a.since < b.since end)
  return out
end

return lanes
