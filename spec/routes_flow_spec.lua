--- spec/routes_flow_spec.lua: a flow's routes (r:route with a static
-- answer or a Lua function, r:route_from_har) act in the flow and are
-- exported by --emit-playwright as page.route(…) with the same fulfilment
-- (page.routeFromHAR for a HAR); the exported checkout test passes under
-- real Playwright, against the app the config starts, because the mock
-- came along: the app's own payment API answers differently.
local helpers = require "helpers"

local read, q = helpers.read, helpers.quote
local FLOW = "spec/fixtures/flow/routes_checkout.lua"

local function has(s, needle) return s:find(needle, 1, true) ~= nil end

describe("a flow with routes", function()
  local dir, pw, pw_why, out, status

  lazy_setup(function()
    local r = helpers.export_flow(FLOW, "checkout.spec.ts")
    dir, pw, pw_why, out, status = r.dir, r.pw, r.pw_why, r.out, r.status
  end)

  lazy_teardown(function()
    if dir then os.execute("rm -rf " .. q(dir)) end
  end)

  it("pays against the mocked API and writes the routes as Playwright code", function()
    assert.equal(0, status, out)
    local spec = assert(read(dir .. "/out/checkout.spec.ts"), out)
    assert.is_true(has(spec, "  await shopper.route('**/api/pay', route => route.fulfill({ json: { id: 'MOCK-7', ok: true }, " ..
      "status: 200 }));\n"), spec)
    assert.is_true(has(spec, "  await shopper.route('**/tracker.js', route => route.abort('blockedbyclient'));\n"), spec)
    assert.is_true(has(spec, "  // not exported: the route on '**/never-requested' has a Lua function handler, " ..
      "which cannot be translated; write its handler here by hand\n"), spec)
    -- The routes come before the click they serve.
    assert.is_true(spec:find("shopper.route('**/api/pay'", 1, true) < spec:find("Pay now", 1, true), spec)
  end)

  it("the exported test passes under real Playwright, mock included", function()
    if not pw then return pending(pw_why) end
    local cmd = assert(out:match("\nRun it with:\n  ([^\n]+)\n"), out)
    local res, st = helpers.run(("cd %s && timeout 300 sh -c %s"):format(q(dir .. "/elsewhere"), q(cmd)))
    assert.equal(0, st, res)
    assert.matches("1 passed", res)
  end)
end)

describe("r:route_from_har in a flow", function()
  it("replays the HAR with no server and exports routeFromHAR", function()
    local flow = require "vdx.flow"
    local out = os.tmpname()
    os.remove(out)
    out = out .. ".spec.ts"
    local st = flow.run({ name = "recorded checkout", base_url = "http://shop.test", quiet = true,
      emit_playwright = out, browser_args = { "--host-resolver-rules=MAP shop.test 127.0.0.1" } }, function(f)
      f:role("shopper", {})
      f:as("shopper", function(s)
        s:route_from_har("spec/fixtures/routes/checkout.har", { url = "http://shop.test/**" })
        s:navigate("/checkout")
        s:expect_text("Paid, receipt R-2026")
      end)
    end)
    local text = read(out) or ""
    os.remove(out)
    os.remove((out:gsub("%.spec%.ts$", ".config.ts")))
    assert.equal(0, st)
    local abs = io.popen("pwd"):read("l") .. "/spec/fixtures/routes/checkout.har"
    assert.is_true(has(text, "  await shopper.routeFromHAR('" .. abs .. "', { url: 'http://shop.test/**' });\n"), text)
  end)
end)
