--- bench/inproc.lua: vdxlua's in-process figures for bench/peers.mjs, so
-- the MCP figures can be set beside the same work done without MCP, in
-- the same run and on the same pages.  Each page is measured the way the
-- MCP client measures it: navigate, then snapshot right away (with
-- browser_snapshot's budget, 12,000 tokens), REPS times; on the shop also click, type and the three
-- structure queries.
--
-- Usage: build/vdxlua bench/inproc.lua PAGES.json
-- PAGES.json: [{"name": "shop", "url": "http://…/shop.html", "reps": 7}, …]
-- Prints one JSON object: { pages = { NAME = { navigate, snapshot, … } } },
-- each figure {median, p95, min, max, n}.
package.path = "bench/?.lua;" .. package.path
local vdx = require "vdx"
local json = require "cjson"
local fx = require "fixtures"
local lib = require "lib"

local file = arg[1] or error("usage: vdxlua bench/inproc.lua PAGES.json")
local pages = json.decode((assert(lib.slurp(file), "cannot read " .. file)))

local timed = lib.timed

local function shop_extra(page, text, reps, out)
  local button = text:match('button "Add to Cart" %[ref=(e%d+)%]')
  local input = text:match('textbox "Full name"[^\n]-%[ref=(e%d+)%]')
  local click, typ, rc, ip, ea = {}, {}, {}, {}, {}
  for _ = 1, reps do
    timed(click, function() return page:click(button) end)
    text = page:snapshot { budget_tokens = 12000 }.text
    button = text:match('button "Add to Cart" %[ref=(e%d+)%]')
  end
  for _ = 1, reps do timed(typ, function() return page:type(input, "Ada Lovelace", { clear = true }) end) end
  for _ = 1, reps do timed(rc, function() return page:resolve_container(button) end) end
  for _ = 1, reps do timed(ip, function() return page:inspect_pattern(button, 1) end) end
  for _ = 1, reps do timed(ea, function() return page:extract_anchors(button, 1) end) end
  out.click, out.type = lib.stats(click), lib.stats(typ)
  out.resolve_container, out.inspect_pattern, out.extract_anchors = lib.stats(rc), lib.stats(ip), lib.stats(ea)
end

local browser, close_browser = lib.launch { args = { fx.RESOLVER }, timeout_ms = 120000 }
local page = browser:new_context():new_page()
local result = { pages = {} }
for i, pg in ipairs(pages) do
  local out = {}
  local ok, err = pcall(function()
    local nav, snap = {}, {}
    local text
    if i == 1 then page:navigate(pg.url) end  -- the MCP client's first navigation, timed apart
    for _ = 1, pg.reps do
      timed(nav, function() return page:navigate(pg.url, { timeout_ms = 120000 }) end)
      text = timed(snap, function() return page:snapshot { budget_tokens = 12000, timeout_ms = 120000 } end).text
    end
    out.navigate, out.snapshot, out.snapshot_chars = lib.stats(nav), lib.stats(snap), #text
    if pg.name == "shop" then shop_extra(page, text, pg.reps, out) end
  end)
  if not ok then out.error = tostring(err) end
  result.pages[pg.name] = out
end
close_browser()
io.stdout:write(json.encode(result), "\n")
