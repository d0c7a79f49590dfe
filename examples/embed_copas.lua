--- examples/embed_copas.lua: vdx inside a copas program, whose
-- dispatcher owns the loop.
--
--   LUA_CPATH="build/?.so;;" LUA_PATH="lua/?.lua;;/usr/share/lua/5.1/?.lua" \
--     lua5.4 examples/embed_copas.lua
--
-- (Debian's lua-copas, copas 1.x, installs its module for Lua 5.1 and
-- 5.2 only; it is plain Lua that runs on 5.4, hence the extra path.)
--
-- A vdx call made in a copas thread waits the way copas threads wait for
-- sockets, so the dispatcher runs the program's other threads meanwhile.
-- copas 1.x has no timers: the program's own timer is its main loop,
-- which steps the dispatcher until the next deadline.  Two pages load at
-- once while that timer keeps ticking.
local here = (arg and arg[0] or "examples/embed_copas.lua"):match("^(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. here .. "/marketplace/?.lua;" .. package.path
  .. ";/usr/share/lua/5.1/?.lua"

local copas = require "copas"
local socket = require "socket"
local vdx = require "vdx"
local work = require "embed_work"

local host = require("vdx.copas").install(copas)
local app = require("app").start()
local lines, browser = nil, nil

copas.addthread(function()
  work.open_pages(app, copas.addthread, function(b, loaded)
    browser, lines = b, loaded
  end)
end)

-- The host's own timer: the main loop ticks at its deadlines and lets the
-- dispatcher run in between.
local ticker = work.ticker(socket.gettime)
local next_tick = socket.gettime() + work.PERIOD
while not lines do
  copas.step(math.max(0, next_tick - socket.gettime()))
  if socket.gettime() >= next_tick then
    next_tick = socket.gettime() + ticker.tick()
  end
end
print(ticker.report())
-- Outside the dispatcher the main chunk's vdx calls block, as in any
-- plain lua5.4 script.
host:close()
browser:close()
app:close()
for _, line in ipairs(lines) do print(line) end
