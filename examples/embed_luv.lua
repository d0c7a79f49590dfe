--- examples/embed_luv.lua: vdx inside a luv program, which owns the loop.
--
--   LUA_CPATH="build/?.so;;" LUA_PATH="lua/?.lua;;" lua5.4 examples/embed_luv.lua
--
-- The program runs uv.run() and has a timer of its own.  vdx is one more
-- fd (and one timer) of luv's loop: the adapter turns vdx when it has
-- something to do, and a vdx call made in one of the program's coroutines
-- yields it until the answer is there.  Two pages load at once while the
-- host's timer keeps ticking.
local here = (arg and arg[0] or "examples/embed_luv.lua"):match("^(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. here .. "/marketplace/?.lua;" .. package.path

local uv = require "luv"
local vdx = require "vdx"
local work = require "embed_work"

local host = require("vdx.luv").install(uv)
local app = require("app").start()

-- The host's own timer.
local ticker = work.ticker(function() return uv.hrtime() / 1e9 end)
local timer = uv.new_timer()
local function on_tick()
  uv.update_time()
  timer:start(math.ceil(ticker.tick() * 1000), 0, on_tick)
end
timer:start(math.ceil(work.PERIOD * 1000), 0, on_tick)

local lines = {}

-- vdx calls in plain coroutines of the program: each yields while vdx
-- works, and the adapter resumes it.
coroutine.wrap(function()
  work.open_pages(app, function(fn) coroutine.wrap(fn)() end,
    function(browser, loaded)
      print(ticker.report())
      lines = loaded
      timer:close()
      browser:close()
      app:close()
      host:close()
    end)
end)()

uv.run()
for _, line in ipairs(lines) do print(line) end
