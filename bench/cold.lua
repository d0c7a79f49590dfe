--- bench/cold.lua: one cold start, run as a fresh process by bench/run.lua:
-- serve the fixtures, launch Chromium, open a page, navigate to the shop
-- and take the first snapshot.  Prints {launch_ms=, first_snapshot_ms=}
-- measured inside the process (the parent times the whole process).
-- With VDX_TRACE_START=1 the process writes its start-up timeline to
-- stderr (docs/api.md, "Start-up timeline").
package.path = "bench/?.lua;" .. package.path
local vdx = require "vdx"
local fx = require "fixtures"
local lib = require "lib"
local trace = vdx.trace
trace("bench/cold.lua running")
local t0 = lib.ms()
local srv, base = fx.serve(vdx)
trace("fixtures served")
-- A temporary profile, as an agent's first run has (lib.launch keeps one
-- for the memory figures).
local browser = vdx.launch {}
trace("launched")
local t1 = lib.ms()
local page = browser:new_page()
trace("page ready")
page:navigate(base["local"] .. "/shop.html")
trace("navigated")
local snap = page:snapshot {}
trace("snapshot taken")
local t2 = lib.ms()
browser:close()
trace("browser closed")
srv:close()
print(require("cjson").encode { launch_ms = t1 - t0, first_snapshot_ms = t2 - t0, chars = #snap.text })
