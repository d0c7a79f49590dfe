--- bench/css_cost.lua: what a page's style sheets cost a snapshot.  The
-- same 200 cards under a one-rule sheet and under a big one, side by
-- side in one browser: the same-document snapshot's median and p95, and
-- a locator check's.  The big sheet is RULES synthetic rules (class and
-- id selectors setting display, geometry, colour, in turn), or the CSS
-- file CSS names (a framework's, say: `npm pack bootstrap` gives one).
--
-- Usage: build/vdxlua bench/css_cost.lua [RULES] [ROUNDS]
--        CSS=path/to/framework.css build/vdxlua bench/css_cost.lua
-- (RULES 3000, ROUNDS 20.)  docs/scale.md says what the time goes to.
package.path = "bench/?.lua;" .. package.path
local vdx = require "vdx"
local lib = require "lib"

local RULES = tonumber(arg[1] or "") or 3000
local ROUNDS = tonumber(arg[2] or "") or 20

local css
if os.getenv("CSS") then
  css = assert(lib.slurp(os.getenv("CSS")), "cannot read " .. os.getenv("CSS"))
else
  local props = { "color: red", "display: block", "width: 10px", "margin: 2px", "font-size: 12px",
    "padding: 1px", "background: #eee", "border: 1px solid #ccc", "line-height: 1.2", "text-align: left" }
  local t = {}
  for i = 1, RULES do
    t[i] = (".c%d .d%d > span.e%d:hover, #x%d { %s; %s }"):format(i, i % 50, i % 7, i,
      props[i % #props + 1], props[(i * 3) % #props + 1])
  end
  css = table.concat(t, "\n")
end
local cards = {}
for i = 1, 200 do
  cards[i] = ('<div class="card c%d m-2 p-3 d-flex"><h5 class="card-title">Item %d</h5>' ..
    '<p class="text-muted small">Text %d</p><button class="btn btn-primary">Add %d</button></div>'):format(i, i, i, i)
end
local function page_html(sheet)
  return "<!doctype html><title>css cost</title><style>" .. sheet .. '</style><div class="container">' ..
    table.concat(cards) .. "</div>"
end
local srv = vdx.serve { port = 0, routes = {
  ["GET /plain"] = function() return page_html(".card { margin: 4px }") end,
  ["GET /heavy"] = function() return page_html(css) end,
} }
local browser, close = lib.launch {}
local sides = {}
for _, name in ipairs { "plain", "heavy" } do
  local page = browser:new_context():new_page()
  page:navigate(srv.url .. "/" .. name)
  page:snapshot()
  sides[#sides + 1] = { name = name, page = page, snap = {}, check = {} }
end
local CHECK = "getByRole('button', { name: 'Add 7', exact: true })"
for i = 1, ROUNDS do
  for k = 0, 1 do
    local s = sides[(i + k) % 2 + 1]
    local t0 = lib.ms()
    s.page:snapshot()
    local t1 = lib.ms()
    s.page:bridge("locatorFacts", { CHECK, {} })
    s.snap[i], s.check[i] = t1 - t0, lib.ms() - t1
  end
end
local m = lib.machine()
print(("%s, %d rounds, load %.2f, %s"):format(os.getenv("CSS") or (RULES .. " synthetic rules"), ROUNDS,
  m.load1, m.date))
for _, s in ipairs(sides) do
  local a, b = lib.stats(s.snap), lib.stats(s.check)
  print(("  %-6s same-document snapshot %6.2f / %6.2f ms   locator check %5.2f / %5.2f ms")
    :format(s.name, a.median, a.p95, b.median, b.p95))
end
close()
srv:close()
