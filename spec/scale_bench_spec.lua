-- `make bench-scale`'s cells (bench/scale_cell.lua, bench/scale_mcp.mjs)
-- run briefly against the fixture server: each answers its JSON line with
-- the cycles it completed, and the floor's pages never get the bridge.
-- And `make bench-peers`'s floor (bench/inproc.lua floor), request by
-- request.
local h = require "helpers"
local cjson = require "cjson"

-- Runs cmd (with URL replaced by the shop's address) beside a fixture
-- server of its own (bench/serve_fixtures.lua, ended by closing its
-- stdin); returns the first JSON line the command printed, decoded.
local function cell(cmd)
  local script = table.concat({
    "d=$(mktemp -d /tmp/vdx-scale-spec-XXXXXX)",
    "mkfifo $d/in",
    h.vdxlua .. " bench/serve_fixtures.lua $d/url < $d/in 2>/dev/null &",
    "exec 3>$d/in",
    "i=0; while [ ! -s $d/url ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done",
    "URL=$(sed 's/.*\"local\":\"\\([^\"]*\\)\".*/\\1/; s/\\\\//g' $d/url)/shop.html",
    cmd .. " < /dev/null",
    "exec 3>&-; wait; rm -rf $d",
  }, "\n")
  local out = h.run(script)
  local line = out:match("(%b{})")
  assert(line, "no JSON line in:\n" .. out)
  return cjson.decode(line), out
end

describe("make bench-peers's floor", function()
  it("navigates, walks, clicks and types on a page without the bridge", function()
    local ops = {
      '{"op":"navigate","url":"%s"}', '{"op":"snapshot"}', '{"op":"click","ref":"Add to Cart"}',
      '{"op":"snapshot"}', '{"op":"type","ref":"Full name","text":"Ada"}', '{"op":"type","ref":"Nobody","text":"x"}',
    }
    local feed = {}
    for _, op in ipairs(ops) do feed[#feed + 1] = ("printf '%s\\n' \"$URL\""):format(op) end
    local _, out = cell("( { " .. table.concat(feed, "; ") .. "; } | " .. h.vdxlua .. " bench/inproc.lua floor )")
    local replies = {}
    for line in out:gmatch("[^\n]+") do
      if line:sub(1, 1) == "{" then replies[#replies + 1] = cjson.decode(line) end
    end
    assert.are.equal(#ops, #replies, out)
    for i = 1, 5 do assert.is_number(replies[i].ms, out) end
    -- The bare walk of the shop, before and after the click: the first
    -- card's button took the click (the page renames it).
    local before, after = replies[2].text, replies[4].text
    assert.is_true(#before > 10000, out)
    assert.is_nil(before:find("Added", 1, true))
    assert.truthy(after:find("Added", 1, true), "the click did not reach the button")
    -- A field no label names is an error that says so.
    assert.truthy(tostring(replies[6].error):find("no field labelled Nobody", 1, true), out)
  end)
end)

describe("make bench-scale's cells", function()
  it("runs the floor on pages without the bridge", function()
    local r, out = cell(h.vdxlua .. " bench/scale_cell.lua floor 2 1 \"$URL\"")
    assert.are.equal("floor", r.mode, out)
    assert.are.equal(2, r.n)
    assert.is_true(r.cycles >= 2, out)
    assert.are.equal(0, r.vdx_worlds)
    -- The bare walk's text of the shop: one line per element.
    assert.is_true(r.chars > 10000, out)
  end)

  it("runs vdxlua in process, a task per page", function()
    local r, out = cell(h.vdxlua .. " bench/scale_cell.lua inproc 2 1 \"$URL\"")
    assert.are.equal("inproc", r.mode, out)
    assert.is_true(r.cycles >= 2, out)
    assert.is_nil(r.vdx_worlds)
    assert.is_true(r.chars > 10000, out)
  end)

  it("drives vdxlua mcp with one caller per role", function()
    local _, has_node = h.run("command -v node")
    if has_node ~= 0 then return pending("Node.js is not installed") end
    local r, out = cell("VDXLUA=" .. h.vdxlua .. " node bench/scale_mcp.mjs 2 1 \"$URL\"")
    assert.are.equal("mcp-stdio", r.mode, out)
    assert.is_true(r.cycles >= 2, out)
    -- One server when its tools take `role`, else one per role.
    assert.is_true(r.servers == 1 and r.role_argument or r.servers == 2 and not r.role_argument, out)
    assert.are.equal(r.servers, #r.host_pids)
    assert.is_true(r.chars > 10000, out)
  end)
end)
