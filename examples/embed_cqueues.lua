--- examples/embed_cqueues.lua: vdx inside a cqueues program, whose
-- controller owns the loop.
--
--   LUA_CPATH="build/?.so;;" LUA_PATH="lua/?.lua;;" lua5.4 examples/embed_cqueues.lua
--
-- vdx is a pollable object for cqueues (vdx.pollfd, vdx.events,
-- vdx.timeout): a vdx call made in a cqueues coroutine waits with
-- cqueues.poll(vdx), so the controller runs the program's other
-- coroutines meanwhile.  Two pages load at once while the host's own
-- timer coroutine keeps ticking.
local here = (arg and arg[0] or "examples/embed_cqueues.lua"):match("^(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. here .. "/marketplace/?.lua;" .. package.path

local cqueues = require "cqueues"
local vdx = require "vdx"
local work = require "embed_work"

local cq = cqueues.new()
local host = require("vdx.cqueues").install(cq)
local app = require("app").start()
local lines, done = {}, false

-- The host's own timer.
local ticker = work.ticker(cqueues.monotime)
cq:wrap(function()
  cqueues.sleep(work.PERIOD)
  while not done do cqueues.sleep(ticker.tick()) end
end)

cq:wrap(function()
  work.open_pages(app, function(fn) cq:wrap(fn) end, function(browser, loaded)
    print(ticker.report())
    lines, done = loaded, true
    browser:close()
    app:close()
    host:close()
  end)
end)

assert(cq:loop())
for _, line in ipairs(lines) do print(line) end
