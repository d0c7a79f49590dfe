--- vdx.copas: runs vdx inside a copas program, whose dispatcher owns the
-- loop.
--
--   local copas = require "copas"
--   local vdx = require "vdx"
--   local host = require("vdx.copas").install(copas)
--   copas.addthread(function() print(page:navigate(url).title) end)
--   copas.loop()
--
-- A vdx call made in a copas thread waits the way copas threads wait for
-- a socket: the thread yields to the dispatcher with a small object whose
-- fd is vdx.pollfd(), the dispatcher's select watches it beside the
-- program's sockets, and the thread is resumed (and vdx turns) when it is
-- readable.  vdx's fd also becomes readable when one of vdx's timers is
-- due, so this works with copas versions that have no timers of their
-- own, such as Debian's copas 1.x.
local vdx = require "vdx"
local host = require "vdx.host"
local errors = require "vdx.errors"

local M = {}

-- The set copas threads yield to when they wait to read: an upvalue of
-- copas.receive, the only place copas 1.x exposes it.
local function reading_set(copas)
  local fn = copas.receive
  for i = 1, math.huge do
    local name, value = debug.getupvalue(fn, i)
    if name == nil then break end
    if name == "_reading" then return value end
  end
  errors.misuse(("vdx.copas: cannot find the reading set of %s; this adapter knows "
                 .. "copas 1.x"):format(tostring(copas._VERSION)), 3)
end

-- The object the pump waits on: copas's select asks it for its fd.
local Waitable = {}
Waitable.__index = Waitable
function Waitable:getfd() return vdx.pollfd() end
function Waitable:dirty() return false end
function Waitable:close() end  -- copas closes what a finished thread held
function Waitable:settimeout() end

-- Resumes a parked copas thread the way copas's dispatcher does: if it
-- yields to wait for a socket, it is queued where it asked to be; an
-- error that ends it is reported, as copas reports one.
local function tick(co)
  local ok, res, queue = coroutine.resume(co)
  if ok and res and queue then
    queue:insert(res)
    queue:push(res, co)
  elseif not ok then
    io.stderr:write("vdx.copas: error in a copas thread waiting on vdx: ",
                    debug.traceback(co, tostring(res)), "\n")
  end
end

--- Installs the adapter for the copas module (what `require "copas"`
-- returned) and returns a handle whose :close() removes it.  Raises when
-- another host adapter is installed or copas is not a copas it knows.
-- After :close() the pump ends at vdx's next event, and threads still
-- waiting in vdx calls are not resumed again.
--
-- One copas thread, the pump, waits on vdx's fd; threads waiting in vdx
-- calls are parked in the adapter (copas sees them as waiting on a set of
-- the adapter's own), and the pump turns vdx and resumes them each time
-- the fd is readable.  So one event wakes every waiting thread, and vdx
-- tasks and servers progress while no thread waits.
function M.install(copas)
  if type(copas) ~= "table" or type(copas.addthread) ~= "function" then
    errors.misuse("vdx.copas.install(copas): copas must be the copas module "
                  .. "(require 'copas')", 2)
  end
  local reading = reading_set(copas)
  local waitable = setmetatable({}, Waitable)
  local self, parking
  self = host.install("copas", function()
    coroutine.yield(waitable, parking)
  end)
  self.parked = {}
  -- The queue a waiting thread yields to: copas calls insert then push.
  parking = {
    insert = function() end,
    push = function(_, _, co) self.parked[#self.parked + 1] = co end,
  }
  copas.addthread(function()
    while not self.closed do
      coroutine.yield(waitable, reading)
      if self.closed then break end
      vdx.step(0)
      local list = self.parked
      self.parked = {}
      for _, co in ipairs(list) do
        if self.closed then break end  -- one of them closed the adapter
        tick(co)
      end
    end
  end)
  return self
end

return M
