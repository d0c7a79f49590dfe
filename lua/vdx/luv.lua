--- vdx.luv: runs vdx inside a luv program, whose `uv.run()` owns the loop.
--
--   local uv = require "luv"
--   local vdx = require "vdx"
--   local host = require("vdx.luv").install(uv)
--   coroutine.wrap(function() print(page:navigate(url).title) end)()
--   uv.run()
--
-- vdx's loop is watched as one fd of luv's loop (a uv_poll on
-- vdx.pollfd()) plus one timer armed to vdx.timeout() before luv blocks
-- (a prepare handle re-arms it each turn of luv's loop): vdx turns only
-- when it has something to do, and nothing polls on a fixed period.
--
-- vdx tasks (vdx.spawn) progress on their own.  A vdx call made in a
-- plain coroutine of the program yields it; the adapter resumes it when
-- vdx has turned, until what the call waits for is done.  The coroutine's
-- resumer (the program) gets control back at the first wait, as with any
-- luv callback-driven coroutine.
local vdx = require "vdx"
local host = require "vdx.host"
local errors = require "vdx.errors"

local M = {}

-- Resumes every parked coroutine once; each re-parks itself if it still
-- waits.  An error that ends such a coroutine has no caller left to take
-- it, so it is reported on stderr with its traceback.
local function wake_parked(self)
  local list = self.parked
  if #list == 0 then return end
  self.parked = {}
  for _, co in ipairs(list) do
    if self.closed then return end  -- one of them closed the adapter
    local ok, err = coroutine.resume(co)
    if not ok then
      io.stderr:write("vdx.luv: error in a coroutine waiting on vdx: ",
                      debug.traceback(co, tostring(err)), "\n")
    end
  end
end

-- Arms the luv timer to vdx's next deadline, or stops it.
local function rearm(self)
  if self.closed then return end
  local t = vdx.timeout()
  if t == nil then
    self.timer:stop()
  else
    self.timer:start(math.ceil(t * 1000), 0, self.on_due)
  end
end

local function turn(self)
  if self.closed then return end
  vdx.step(0)
  wake_parked(self)
  rearm(self)
end

--- Installs the adapter on the luv module `uv` (what `require "luv"`
-- returned) and returns a handle whose :close() removes it and closes its
-- luv handles (coroutines still waiting in vdx calls are not resumed
-- again).  Raises when another host adapter is installed or uv is not luv.
function M.install(uv)
  if type(uv) ~= "table" or type(uv.new_poll) ~= "function" then
    errors.misuse("vdx.luv.install(uv): uv must be the luv module (require 'luv')", 2)
  end
  local self
  self = host.install("luv", function()
    self.parked[#self.parked + 1] = coroutine.running()
    rearm(self)
    coroutine.yield()
  end, function()
    for _, h in ipairs { self.poll, self.timer, self.prepare } do
      if not h:is_closing() then h:close() end
    end
  end)
  self.parked = {}
  self.on_due = function() turn(self) end
  self.poll = uv.new_poll(vdx.pollfd())
  self.timer = uv.new_timer()
  self.prepare = uv.new_prepare()
  self.poll:start("r", function(err)
    if err then
      io.stderr:write("vdx.luv: polling vdx failed: ", tostring(err), "\n")
    end
    turn(self)
  end)
  -- vdx's fd alone never keeps luv's loop alive: vdx's pending waits all
  -- have timeouts, and the timer that stands for them does.
  self.poll:unref()
  self.prepare:start(function() rearm(self) end)
  self.prepare:unref()
  rearm(self)
  return self
end

return M
