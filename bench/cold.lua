--- bench/cold.lua: one cold start, run as a fresh process by bench/run.lua:
-- serve the fixtures, launch Chromium, open a page, navigate to the shop
-- and take the first snapshot.  Prints {launch_ms=, first_snapshot_ms=}
-- measured inside the process (the parent times the whole process).
package.path = "bench/?.lua;" .. package.path
local vdx = require "vdx"
local fx = require "fixtures"
local lib = require "lib"
local t0 = lib.ms()
local srv, base = fx.serve(vdx)
local browser, close_browser = lib.launch {}
local t1 = lib.ms()
local page = browser:new_page()
page:navigate(base["local"] .. "/shop.html")
local snap = page:snapshot {}
local t2 = lib.ms()
close_browser()
srv:close()
print(require("cjson").encode { launch_ms = t1 - t0, first_snapshot_ms = t2 - t0, chars = #snap.text })
