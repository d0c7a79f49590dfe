--- vdx.cqueues: runs vdx inside a cqueues program, whose controller owns
-- the loop.
--
--   local cqueues = require "cqueues"
--   local vdx = require "vdx"
--   local cq = cqueues.new()
--   local host = require("vdx.cqueues").install(cq)
--   cq:wrap(function() print(page:navigate(url).title) ... host:close() end)
--   assert(cq:loop())
--
-- vdx is a pollable object in cqueues' sense (vdx.pollfd, vdx.events,
-- vdx.timeout), so a vdx call made in a cqueues coroutine waits with
-- `cqueues.poll(vdx)`: the coroutine yields to its controller, which
-- watches vdx's fd and timeout beside everything else it watches, and vdx
-- turns when the coroutine wakes.  With a controller given, a small pump
-- coroutine on it turns vdx whenever it has work, so vdx tasks
-- (vdx.spawn) and servers (vdx.serve) progress while no coroutine waits.
local vdx = require "vdx"
local host = require "vdx.host"
local errors = require "vdx.errors"

local M = {}

--- Installs the adapter and returns a handle whose :close() removes it.
-- cq, a cqueues controller, is optional: with it, vdx also turns while no
-- cqueues coroutine waits on it, until the handle is closed.  Raises when
-- another host adapter is installed.  Closing the handle ends the pump.
function M.install(cq)
  local cqueues = require "cqueues"
  if cq ~= nil and not (cqueues.type and cqueues.type(cq) == "controller") then
    errors.misuse("vdx.cqueues.install([cq]): cq must be a cqueues controller "
                  .. "(cqueues.new())", 2)
  end
  local stop = cq and require("cqueues.condition").new()
  local self = host.install("cqueues", function() cqueues.poll(vdx) end,
                            function() if stop then stop:signal() end end)
  if cq then
    cq:wrap(function()
      while not self.closed do
        cqueues.poll(vdx, stop)
        if not self.closed then vdx.step(0) end
      end
    end)
  end
  return self
end

return M
