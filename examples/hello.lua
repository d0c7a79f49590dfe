-- examples/hello.lua: the smallest vdxlua script.  It serves a page from
-- this process, opens it in headless Chromium and reads it back.
--   build/vdxlua examples/hello.lua
local vdx = require "vdx"

local srv <close> = vdx.serve {
  port = 0,
  routes = {
    ["GET /"] = function()
      return [[<!doctype html><title>Hello</title>
        <h1>Hello from vdx.serve</h1><p id="n">0</p>
        <button onclick="n.textContent = +n.textContent + 1">Add one</button>]]
    end,
    ["GET /api/time"] = function() return { json = { now = os.time() } } end,
  },
}

local browser <close> = vdx.launch()
local page = browser:new_page()
local nav = page:navigate(srv.url .. "/")
print(("loaded %s (HTTP %d): %q"):format(nav.url, nav.status, nav.title))
print("heading:", page:evaluate("document.querySelector('h1').textContent"))
print("api:", page:evaluate("fetch('/api/time').then(r => r.json()).then(j => typeof j.now)"))
print("browser:", browser:version().product)
