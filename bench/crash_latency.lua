--- bench/crash_latency.lua: how long after a renderer crash (Page.crash)
-- a call waiting on the page fails with PageCrashed (5 runs, sorted ms).
--   build/vdxlua bench/crash_latency.lua
local vdx = require "vdx"
local b = vdx.launch { timeout_ms = 20000 }
local lat = {}
for i = 1, 5 do
  local page = b:new_page()
  page:navigate("data:text/html,<p>x</p>")
  local t = vdx.spawn(function()
    local ok, e = pcall(page.evaluate, page, "new Promise(() => {})")
    return vdx.now(), e.type
  end)
  vdx.sleep(50)
  local t0 = vdx.now()
  pcall(page.send, page, "Page.crash", {})
  local t1, ty = vdx.wait(t)
  lat[#lat + 1] = t1 - t0
  assert(ty == "PageCrashed", ty)
  page:close()
end
table.sort(lat)
print("PageCrashed after Page.crash, ms (5 runs, sorted): " .. table.concat(lat, " "))
b:close()
