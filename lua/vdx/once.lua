--- vdx.once: a start-up that runs once at a time per key.  Callers that
-- arrive while it runs wait for the same task, woken by the loop when it
-- ends (no polling), and get its result or its error.  Used for launching
-- a role's browser and opening a flow role's page.
local vdx = require "vdx"

local once = {}

--- Runs fn() in its own task unless one already runs for key in slots (a
-- table the caller owns), waits for that task and returns what fn
-- returned, or raises its error.  The slot is free again when fn ends, so
-- a start that failed is tried afresh by the next caller.  A caller
-- cancelled while it waits leaves the start running for the others.
function once.run(slots, key, fn)
  local t = slots[key]
  if not t then
    t = vdx.spawn(function()
      local ok, res = pcall(fn)
      slots[key] = nil
      if not ok then error(res, 0) end
      return res
    end)
    slots[key] = t
  end
  return vdx.wait(t)
end

return once
