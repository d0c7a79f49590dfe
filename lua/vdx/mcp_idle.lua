--- vdx.mcp_idle: gives memory back while an MCP server waits for its
-- client.  A large page's snapshot passes megabytes through the host
-- (the CDP message, its decoded text, the reply line); Lua frees them,
-- but glibc keeps the freed pages, so a server that once read a
-- 100,000-element page stayed at its peak RSS for the rest of the
-- session.  An agent thinks for seconds between calls: DELAY_MS after
-- the last call ended, with none in flight, the trimmer looks at the
-- process's RSS and, when it grew by GROWTH_KIB or more since the last
-- trim, runs a full collection and vdx.trim_memory().  A trim costs the
-- next call the pages it touches again (about 0.3 ms of host CPU on the
-- shop page), so a server whose pages stay small does not trim at all
-- after the first time.  Nothing runs while calls keep coming, so no call
-- waits for it.
local vdx = require "vdx"

local idle = {}

--- How long the server must have been idle before it trims (ms).
idle.DELAY_MS = 200
--- How much the RSS must have grown since the last trim (KiB).
idle.GROWTH_KIB = 2048

--- The process's resident set in KiB (/proc/self/status), or nil where
-- the system does not say.
function idle.rss_kib()
  local f = io.open("/proc/self/status")
  if not f then return nil end
  local text = f:read("a")
  f:close()
  return tonumber(text:match("\nVmRSS:%s+(%d+) kB"))
end

local Trimmer = {}
Trimmer.__index = Trimmer

--- A trimmer.  busy() tells whether a request is in flight; opts:
-- delay_ms (default idle.DELAY_MS), growth_kib (default
-- idle.GROWTH_KIB), rss (default idle.rss_kib: nil means trim every
-- time), trim (default vdx.trim_memory) and collect (default
-- collectgarbage, called with "collect").
function idle.new(busy, opts)
  opts = opts or {}
  return setmetatable({ busy = busy, delay_ms = opts.delay_ms or idle.DELAY_MS,
    growth_kib = opts.growth_kib or idle.GROWTH_KIB, rss = opts.rss or idle.rss_kib,
    trim = opts.trim or vdx.trim_memory, collect = opts.collect or collectgarbage,
    dirty = false, pending = false, trims = 0, after = nil }, Trimmer)
end

-- Trims when the RSS grew enough since the last trim (or when it cannot
-- be read), and keeps the RSS after it.
function Trimmer:maybe_trim()
  local now = self.rss()
  if now and self.after and now - self.after < self.growth_kib then return end
  self.collect("collect")
  self.trim()
  self.trims = self.trims + 1
  self.after = self.rss()
end

--- Tells the trimmer that a call ended: arms one look DELAY_MS later
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
    self:maybe_trim()
  end)
end

return idle
