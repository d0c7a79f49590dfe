--- vdx.mcp_idle: gives memory back while an MCP server waits for its
-- client.  A large page's snapshot passes megabytes through the host
-- (the CDP message, its decoded text, the reply line); Lua frees them,
-- but glibc keeps the freed pages, so a server that once read a
-- 100,000-element page stayed at its peak RSS for the rest of the
-- session.  An agent thinks for seconds between calls: DELAY_MS after
-- the last call ended, with none in flight, the trimmer runs a full
-- collection and vdx.trim_memory().  Nothing runs while calls keep
-- coming, so no call waits for it.
local vdx = require "vdx"

local idle = {}

--- How long the server must have been idle before it trims (ms).
idle.DELAY_MS = 200

local Trimmer = {}
Trimmer.__index = Trimmer

--- A trimmer.  busy() tells whether a request is in flight; opts:
-- delay_ms (default idle.DELAY_MS), trim (default vdx.trim_memory) and
-- collect (default collectgarbage), both called with no arguments but
-- "collect" for collect.
function idle.new(busy, opts)
  opts = opts or {}
  return setmetatable({ busy = busy, delay_ms = opts.delay_ms or idle.DELAY_MS,
    trim = opts.trim or vdx.trim_memory, collect = opts.collect or collectgarbage,
    dirty = false, pending = false, trims = 0 }, Trimmer)
end

--- Tells the trimmer that a call ended: arms one trim DELAY_MS later
-- unless one is armed already.  When that time comes with a request in
-- flight it does nothing; the end of that request arms it again.
function Trimmer:call_ended()
  self.dirty = true
  if self.pending then return end
  self.pending = true
  vdx.spawn(function()
    vdx.sleep(self.delay_ms)
    self.pending = false
    if not self.dirty or self.busy() then return end
    self.dirty = false
    self.collect("collect")
    self.trim()
    self.trims = self.trims + 1
  end)
end

return idle
