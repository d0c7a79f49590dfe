--- examples/embed.lua: vdx from a stock Lua 5.4 with `require "vdx"`.
--
--   LUA_CPATH="build/?.so;;" LUA_PATH="lua/?.lua;;" lua5.4 examples/embed.lua
--
-- The main chunk of lua5.4 cannot yield, so each call runs vdx's event loop
-- until it completes (the demo app's server answers meanwhile, on the same
-- loop).  Inside vdx.spawn tasks the same calls yield, so two pages load at
-- once.
local here = (arg and arg[0] or "examples/embed.lua"):match("^(.*)/[^/]*$") or "."
package.path = here .. "/marketplace/?.lua;" .. package.path

local vdx = require "vdx"
local app = require("app").start()

local browser <close> = vdx.launch { args = app.browser_args }
local page = browser:new_context():new_page()
local nav = page:navigate(app.url .. "/customer/login")
print(("%s (%d) %s"):format(nav.title, nav.status, nav.url))
print(page:snapshot().text)

-- Two roles at once, each in its own context, as tasks on the loop.
local function title_of(path)
  local p = browser:new_context():new_page()
  return p:navigate(app.url .. path).title
end
local a = vdx.spawn(title_of, "/provider/login")
local b = vdx.spawn(title_of, "/admin/login")
print(vdx.wait(a))
print(vdx.wait(b))

browser:close()
app:close()
