--- spec/network_flow_spec.lua: a flow's roles change their network
-- (r:network offline and back, a throttling preset, r:cpu_throttle) and
-- record their traffic (r:record_har, written when the flow's browser
-- closes); --emit-playwright writes context.setOffline() and comments for
-- what Playwright has no API for.
local cjson = require "cjson"
local helpers = require "helpers"

local q = helpers.quote
local FLOW = "spec/fixtures/flow/network.lua"

describe("a flow's network world", function()
  local dir, out, status

  setup(function()
    dir = os.tmpname()
    os.remove(dir)
    os.execute("mkdir -p " .. q(dir))
    out, status = helpers.run(("%s %s --emit-playwright %s -- %s"):format(helpers.vdxlua, FLOW,
      q(dir .. "/network.spec.ts"), q(dir)))
  end)

  teardown(function() if dir then os.execute("rm -rf " .. q(dir)) end end)

  it("runs offline and online, and writes the role's HAR when the flow ends", function()
    assert.equal(0, status, out)
    local text = assert(helpers.read(dir .. "/buyer.har"), out)
    local doc = cjson.decode(text)
    assert.equal("1.2", doc.log.version)
    local posts = {}
    for _, e in ipairs(doc.log.entries) do
      if e.request.method == "POST" then posts[#posts + 1] = e end
    end
    -- Two orders went through; the one sent offline never had a response.
    assert.equal(2, #posts)
    assert.equal('{"item":"tea"}', posts[1].request.postData.text)
    assert.equal('{"n":1}', posts[1].response.content.text)
    assert.equal('{"n":2}', posts[2].response.content.text)
    -- Only the buyer's traffic: the slow role's order is not in it.
    for _, e in ipairs(doc.log.entries) do assert.is_nil(e.response.content.text:find('"n":3', 1, true)) end
  end)

  it("exports setOffline and comments for the HAR and the throttling", function()
    local test = assert(helpers.read(dir .. "/network.spec.ts"), out)
    local function at(s, from)
      local i = test:find(s, from or 1, true)
      assert.truthy(i, s .. " not in:\n" .. test)
      return i
    end
    local i = at("// vdx recorded this role's traffic to " .. dir .. "/buyer.har")
    i = at("await buyerContext.setOffline(true);", i)
    i = at("await buyerContext.setOffline(false);", i)
    i = at("await slowContext.setOffline(false);", i)
    i = at("// vdx throttled the network here (latency 2000 ms, download 50000 B/s, upload 50000 B/s)", i)
    at("// vdx throttled the CPU 4x here", i)
  end)

  it("refuses a bad rate or option with a typed error naming the role", function()
    local bad = os.tmpname() .. ".lua"
    local f = assert(io.open(bad, "w"))
    f:write([[
local flow = require "vdx.flow"
return flow.run({ name = "bad", base_url = "data:text/html,x" }, function(f)
  f:role("r")
  f:as("r", function(r) r:step("bad", function() r:network { speed = 1 } end) end)
end)]])
    f:close()
    local res, st = helpers.run(helpers.vdxlua .. " " .. bad)
    os.remove(bad)
    assert.is_not.equal(0, st)
    assert.matches('unknown option "speed"', res, 1, true)
    assert.matches("Invalid argument", res, 1, true)
  end)
end)
