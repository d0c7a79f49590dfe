--- bench/first_snapshot.lua: a page's navigate, its first snapshot right
-- after (a fresh document's, as the MCP navigate's outline is) and a
-- second one of the same document, in one process, for comparing two
-- builds run one after the other (each binary embeds its own bridge).
--
-- Usage: BUILD/vdxlua bench/first_snapshot.lua [ROUNDS] [PAGE]
-- (ROUNDS 25, PAGE frames.html: 5 nested same-origin frames and 5
-- cross-origin ones, in the page's process as vdx.launch runs them).
-- Prints median / p95 of each of the three.
package.path = "bench/?.lua;" .. package.path
local vdx = require "vdx"
local fx = require "fixtures"
local lib = require "lib"

local ROUNDS = tonumber(arg[1] or "") or 25
local PAGE = arg[2] or "frames.html"

local srv, base = fx.serve(vdx)
local url = (PAGE:match("^frames") and base.a or base["local"]) .. "/" .. PAGE
local browser, close = lib.launch { args = { fx.RESOLVER } }
local page = browser:new_context():new_page()
page:navigate(url)
page:snapshot()                      -- the browser's caches, the bundle's compile
local nav, first, second = {}, {}, {}
for i = 1, ROUNDS do
  local t0 = lib.ms()
  page:navigate(url)
  local t1 = lib.ms()
  page:snapshot()
  local t2 = lib.ms()
  page:snapshot()
  nav[i], first[i], second[i] = t1 - t0, t2 - t1, lib.ms() - t2
end
local m = lib.machine()
print(("%s, %d rounds, load %.2f, %s"):format(PAGE, ROUNDS, m.load1, m.date))
for _, c in ipairs { { "navigate", nav }, { "first snapshot", first }, { "second snapshot", second } } do
  local s = lib.stats(c[2])
  print(("  %-16s %7.1f / %7.1f ms"):format(c[1], s.median, s.p95))
end
close()
srv:close()
