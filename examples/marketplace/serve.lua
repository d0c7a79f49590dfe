--- Runs the demo marketplace on its own until interrupted:
--   build/vdxlua examples/marketplace/serve.lua [PORT]
-- It prints the URLs and the Chromium flag that maps shop.test and pay.test
-- to 127.0.0.1 (open http://127.0.0.1:PORT in any browser without it).
local here = arg[0]:match("^(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. package.path
local vdx = require "vdx"
local app = require("app").start { port = tonumber(arg[1]) or 0 }
print("shop:  " .. app.url)
print("pay:   " .. app.pay_url)
print("local: " .. app.local_url)
print("flag:  " .. app.browser_args[1])
io.stdout:flush()
while true do vdx.sleep(3600 * 1000) end
