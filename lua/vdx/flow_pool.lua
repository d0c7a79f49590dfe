--- vdx.flow_pool: a flow's pool of endpoints (vdx.pool) from its options,
-- and f:close_role, which frees a role's session for the roles waiting.
-- `--endpoint` given twice or more, `--max-sessions N`, or pool = {…}
-- makes a pool; every role without an endpoint of its own then takes a
-- session there.  One endpoint alone, without max_sessions, keeps the
-- shared connection every role used before (one browser on the farm).
local vdx = require "vdx"
local errors = require "vdx.errors"

local M = {}

local function misuse(msg, field) errors.misuse("flow.run: " .. msg, 4, { field = field }) end

--- The pool of flow options o (pool, endpoint, max_sessions,
-- pool_wait_ms, connect), or nil when they ask for none; a pool made
-- from endpoint takes its place (o.endpoint becomes nil).
function M.make(o)
  local list = o.pool
  if type(list) == "table" and getmetatable(list) and list.connect then
    o.endpoint = nil
    return list
  end
  if list ~= nil and type(list) ~= "table" then
    misuse("pool must be a list of endpoints ({ url = …, max_sessions = … }) or a vdx.pool", "pool")
  end
  if not list and (type(o.endpoint) == "table" or (o.endpoint and o.max_sessions)) then
    list = type(o.endpoint) == "table" and o.endpoint or { o.endpoint }
  end
  if o.endpoint ~= nil and type(o.endpoint) ~= "string" and type(o.endpoint) ~= "table" then
    misuse("endpoint must be a URL or a list of URLs", "endpoint")
  end
  if not list then return nil end
  -- The pool is where every role without an endpoint of its own goes.
  o.endpoint = nil
  local spec = { max_sessions = o.max_sessions, wait_ms = o.pool_wait_ms, connect = o.connect,
    log = not o.quiet and function(level, fmt, ...)
      if level ~= "info" then io.stderr:write("vdx.flow: ", fmt:format(...), "\n") end
    end or nil }
  for i, e in ipairs(list) do spec[i] = e end
  return vdx.pool(spec)
end

--- Installs f:close_role on the flow class.
function M.install(Flow)
  --- f:close_role(name): closes the role's context and pages and frees
  -- its pool session (another role waiting for one takes it); the role's
  -- next f:as starts it anew.
  function Flow:close_role(name)
    local entry = self.roles[name]
    if not entry then self:actor(name) end
    entry.actor = nil
    entry.role:close()
    self:event { kind = "close_role", role = name }
    self:say("  ✓ [%s] closed", name)
  end
end

return M
