--- spec/routes_mcp_spec.lua: browser_route, browser_route_list and
-- browser_unroute over a real `vdxlua mcp`: a checkout's payment API
-- mocked for the role, the route listed and removed, bad arguments
-- answered with typed errors, and browser_export_test writing the same
-- context.route(…) into a test that the flake gate replays and real
-- Playwright passes (the app's own API answers differently).
local helpers = require "helpers"
local client = require "mcp_client"

local read, q = helpers.read, helpers.quote

local function has(s, needle) return s:find(needle, 1, true) ~= nil end

describe("the route tools", function()
  local srv, dir, s, call
  local pays = 0

  setup(function()
    srv = helpers.serve { ["POST /api/pay"] = function()
      pays = pays + 1
      return { json = { ok = true, id = "SERVER" } }
    end, ["GET /api/pay"] = function() return { json = { open = true } } end }
    dir = client.tmpdir()
    os.execute("mkdir -p " .. q(dir .. "/out"))
    s = client.start("--caps network --output-dir " .. q(dir .. "/out"), (helpers.playwright_env()))
    client.caller(s)
    local n = 100
    call = function(name, args)
      n = n + 1
      s:send(client.call(n, name, args))
      local m = assert(s:wait_for(n, 240000), name .. " did not answer")
      return m.result, client.text(m)
    end
  end)
  teardown(function()
    if s then s:close(30000) end
    if srv then srv:close() end
    if dir then os.execute("rm -rf " .. q(dir)) end
  end)

  it("mocks the payment API, lists and exports the route, and the exported test passes", function()
    local r, text = call("browser_route", { pattern = "**/api/pay", status = 200,
      body = '{"ok":true,"id":"MCP-9"}', contentType = "application/json" })
    assert.is_falsy(r.isError, text)
    -- What the route does, said back.
    -- With its step's number, which drop takes (run FE guessed it).
    assert.equal('Route added: **/api/pay (status=200, body={"ok":true,"id":"MCP-9"}, contentType=application/json)',
      text:gsub(" %(step %d+%)$", ""))
    assert.matches(" %(step %d+%)$", text)
    r, text = call("browser_route", { pattern = "**/tracker.js", abort = "blockedbyclient" })
    assert.is_falsy(r.isError, text)
    r, text = call("browser_route_list", {})
    assert.equal('1. **/api/pay (status=200, body={"ok":true,"id":"MCP-9"}, contentType=application/json)\n' ..
      "2. **/tracker.js (abort=BlockedByClient)\n" ..
      "A request several match goes to the one added last; one that falls back (delay) passes it to the one " ..
      "before, as in Playwright.", text)
    r, text = call("browser_navigate", { url = srv.url .. "/routes/checkout.html" })
    assert.is_falsy(r.isError, text)
    r, text = call("browser_click", { element = 'the "Pay now" button' })
    assert.is_falsy(r.isError, text)
    r, text = call("browser_wait_for", { text = "Paid, receipt MCP-9" })
    assert.is_falsy(r.isError, text)
    r, text = call("browser_verify_text_visible", { text = "Paid, receipt MCP-9" })
    assert.is_falsy(r.isError, text)
    assert.equal(0, pays)

    r, text = call("browser_export_test", { filename = "checkout.spec.ts", runs = 1 })
    assert.is_falsy(r.isError, text)
    local spec = assert(read(dir .. "/out/checkout.spec.ts"), text)
    assert.matches("\n  await %w*[cC]ontext%.route%('%*%*/api/pay', route => route%.fulfill%(%{ body: " ..
      "'%{\"ok\":true,\"id\":\"MCP%-9\"%}', contentType: 'application/json', status: 200 %}%)%);\n", spec)
    assert.matches("\n  await %w*[cC]ontext%.route%('%*%*/tracker%.js', route => route%.abort%('blockedbyclient'%)%);\n", spec)
    assert.is_true(has(text, "Flake gate: 1 runs in fresh contexts, every step passed 1/1"), text)
    if helpers.playwright() then
      assert.is_true(has(text, "Playwright (1 runs of the file): ✅"), text)
    end
    -- Neither the gate's replay nor Playwright's run reached the real API,
    -- and the answer does not say they did.
    assert.equal(0, pays)
    assert.is_nil(text:find("The runs sent", 1, true), text)
  end)

  it("removes routes, after which the app's own API answers", function()
    local _, text = call("browser_unroute", { pattern = "**/api/pay" })
    assert.matches("^Removed 1 route%(s%) for pattern: %*%*/api/pay %(step %d+%)$", text)
    _, text = call("browser_route_list", {})
    assert.equal("1. **/tracker.js (abort=BlockedByClient)", text)
    call("browser_navigate", { url = srv.url .. "/routes/checkout.html" })
    call("browser_click", { element = 'the "Pay now" button' })
    local r
    r, text = call("browser_wait_for", { text = "Paid, receipt SERVER" })
    assert.is_falsy(r.isError, text)
    assert.equal(1, pays)
    _, text = call("browser_unroute", {})
    assert.matches("^Removed all 1 route%(s%) %(step %d+%)$", text)
    _, text = call("browser_route_list", {})
    assert.equal("No active routes", text)
  end)

  -- The answer of Pay now on the checkout page with route (browser_route's
  -- arguments) in place, the route removed after.
  local function pay_with(route)
    call("browser_route", route)
    call("browser_navigate", { url = srv.url .. "/routes/checkout.html" })
    local _, text = call("browser_click", { element = 'the "Pay now" button' })
    call("browser_unroute", {})
    return text
  end

  it("says when what the page shows after an action is the body a route answered with", function()
    local text = pay_with { pattern = "**/api/pay", status = 503, contentType = "application/json",
      body = '{"error":"Payment service unavailable"}' }
    -- (Runs BC and BH checked their mock's message as the app's.)
    assert.is_true(has(text, "Payment refused: Payment service unavailable"), text)
    assert.is_true(has(text, '\nⓘ "Payment service unavailable" is the body of your route **/api/pay: the page shows '
      .. "what the route answered, not what the app's server says"), text)
  end)

  it("says when what the page shows is the status text of a route's answer, not its body", function()
    -- (Run ET read its JSON body's "Internal Server Error" as what the
    -- page showed, where the app showed the status's text.)
    local text = pay_with { pattern = "**/api/pay", status = 503, body = "upstream down" }
    assert.is_true(has(text, "Payment refused: Service Unavailable"), text)
    assert.is_true(has(text, '\nⓘ "Service Unavailable" is the status text of your route **/api/pay\'s 503: the page '
      .. "shows the response's status, what the route answered, not what the app's server says"), text)
    assert.is_nil(text:find("is the body of your route", 1, true), text)
    -- A body that says the status text too: either may be what shows
    -- (run FK needed a second route of its own words to tell).
    text = pay_with { pattern = "**/api/pay", status = 503, contentType = "application/json",
      body = '{"error":"Service Unavailable"}' }
    assert.is_true(has(text, '\nⓘ "Service Unavailable" is both the status text of your route **/api/pay\'s 503 and '
      .. "its body's: the page shows what the route answered, not what the app's server says, and a body of other "
      .. "words tells which of the two it reads"), text)
  end)

  it("names the route that answered this time, not what the page said before", function()
    -- (Run FE's note, after a 503 whose body the page showed, named the
    -- 500 of the route before, from its `(was "Internal Server Error")`.)
    call("browser_route", { pattern = "**/api/pay", status = 500, body = "oops" })
    call("browser_navigate", { url = srv.url .. "/routes/checkout.html" })
    local _, first = call("browser_click", { element = 'the "Pay now" button' })
    call("browser_route", { pattern = "**/api/pay", status = 503, contentType = "application/json",
      body = '{"error":"Checkout service down"}' })
    local _, second = call("browser_click", { element = 'the "Pay now" button' })
    call("browser_unroute", {})
    assert.is_true(has(first, '\nⓘ "Internal Server Error" is the status text of your route **/api/pay\'s 500'), first)
    assert.is_true(has(second, "Payment refused: Checkout service down"), second)
    assert.is_true(has(second, '\nⓘ "Checkout service down" is the body of your route **/api/pay: '), second)
    assert.is_nil(second:find("Internal Server Error\" is", 1, true), second)
  end)

  it("says which of two routes on one pattern answers", function()
    local _, text = call("browser_route", { pattern = "**/api/status", status = 500, body = "down" })
    assert.is_nil(text:find("in place of", 1, true), text)
    -- (Run CF removed each route before it tried the next failure.)
    _, text = call("browser_route", { pattern = "**/api/status", status = 200, body = "{}" })
    assert.is_true(has(text, "\nIt answers in place of the route added before on this pattern (no browser_unroute "
      .. "needed); a test started now keeps only it"), text)
    _, text = call("browser_route_list", {})
    assert.is_true(has(text, "1. **/api/status (status=500, body=down) — not reached while 2 stands (same pattern, "
      .. "added later)\n2. **/api/status (status=200, body={})\n"), text)
    -- One that changes the headers sends the request on to the network.
    call("browser_route", { pattern = "**/api/status", headers = { "X-Test: 1" } })
    _, text = call("browser_route_list", {})
    assert.is_true(has(text, "2. **/api/status (status=200, body={}) — not reached while 3 stands"), text)
    call("browser_unroute", {})
  end)

  it("routes one method of a URL and lets the others reach the server, in the session and the test", function()
    -- (A test of its own: the steps before paid the server.)
    call("browser_start_test", {})
    local before = pays
    local r, text = call("browser_route", { pattern = "**/api/pay", method = "post", status = 402,
      body = '{"error":"card declined"}', contentType = "application/json" })
    assert.is_falsy(r.isError, text)
    assert.is_true(has(text, 'Route added: POST **/api/pay (status=402, body={"error":"card declined"}'), text)
    _, text = call("browser_route_list", {})
    assert.is_true(has(text, '1. POST **/api/pay (status=402, body={"error":"card declined"}'), text)
    -- A GET of the same URL is not this route's: the server answers it.
    call("browser_navigate", { url = srv.url .. "/routes/payopen.html" })
    r, text = call("browser_verify_text_visible", { text = "Service open" })
    assert.is_falsy(r.isError, text)
    call("browser_navigate", { url = srv.url .. "/routes/checkout.html" })
    call("browser_click", { element = 'the "Pay now" button' })
    call("browser_verify_text_visible", { text = "Payment refused: card declined" })
    r, text = call("browser_export_test", { filename = "declined.spec.ts", runs = 1 })
    assert.is_falsy(r.isError, text)
    local spec = assert(read(dir .. "/out/declined.spec.ts"), text)
    assert.is_true(has(spec, "ontext.route('**/api/pay', async route => {\n"
      .. "    if (route.request().method() !== 'POST') return route.fallback();\n"
      .. "    await route.fulfill({ body: '{\"error\":\"card declined\"}', contentType: 'application/json', "
      .. "status: 402 });\n  });\n"), spec)
    assert.is_true(has(text, "Flake gate: 1 runs in fresh contexts, every step passed 1/1"), text)
    if helpers.playwright() then
      assert.is_true(has(text, "Playwright (1 runs of the file): ✅"), text)
    end
    assert.equal(before, pays)
    call("browser_unroute", {})
  end)

  it("answers bad patterns and arguments with typed errors, and keeps serving", function()
    for _, bad in ipairs {
      { { pattern = "**/{a,b", status = 200 }, "Field: pattern", "unmatched '{'" },
      { { pattern = "**/x", headers = { "NoColon" } }, "Field: headers", 'invalid header "NoColon"' },
      { { pattern = "**/x", abort = "nope" }, "Field: abort", 'unknown abort reason "nope"' },
      { { pattern = "**/x", abort = "failed", status = 200 }, "Field: abort", "abort cannot be combined" },
      { { pattern = "**/x" }, "Field: pattern", "give status or body" },
      { { pattern = "**/x", status = 99 }, "status", "100" },
      { { pattern = "**/x", status = 200, method = "GET ME" }, "Field: method", 'not "GET ME"' },
      { { status = 200 }, "pattern", "" },
    } do
      local r, text = call("browser_route", bad[1])
      assert.is_true(r.isError == true, text)
      assert.is_true(has(text, "❌ Invalid argument\n"), text)
      assert.is_true(has(text, bad[2]), text)
      assert.is_true(has(text, bad[3]), text)
    end
    local _, text = call("browser_route_list", {})
    assert.equal("No active routes", text)
  end)

  it("starts the next test with the world cleared when asked: no route kept, none left in the browser", function()
    call("browser_route", { pattern = "**/api/pay", status = 500, body = "down" })
    call("browser_navigate", { url = srv.url .. "/routes/checkout.html" })
    local _, kept = call("browser_start_test", {})
    assert.is_true(has(kept, "\nKept: 1 setting of the roles' world still in effect"), kept)
    -- What the route does, said as browser_route said it (run EN read the
    -- first line of its code, which named neither status nor body).
    assert.is_true(has(kept, "\n- route **/api/pay (status=500, body=down)"), kept)
    -- Offline too: a start without the world brings the network back.
    call("browser_network_state_set", { state = "offline" })
    local r, cleared = call("browser_start_test", { keep_world = false })
    assert.is_falsy(r.isError, cleared)
    assert.is_true(has(cleared, "\nWorld cleared: 1 route removed, emulation and network reset."), cleared)
    assert.is_nil(cleared:find("Kept:", 1, true), cleared)
    local _, text = call("browser_route_list", {})
    assert.equal("No active routes", text)
    -- A route set first in the new test comes before its page loads: one goto, after it.
    call("browser_route", { pattern = "**/api/pay", status = 200, body = '{"ok":true,"id":"FIRST"}',
      contentType = "application/json" })
    call("browser_navigate", { url = srv.url .. "/routes/checkout.html" })
    call("browser_click", { element = 'the "Pay now" button' })
    -- (The page loaded and paid: the network is online again since the start.)
    local rv, seen = call("browser_verify_text_visible", { text = "Paid, receipt FIRST" })
    assert.is_falsy(rv.isError, seen)
    call("browser_export_test", { filename = "first-route" })
    local file = read(dir .. "/out/first-route.spec.ts")
    local route_at, goto_at = file:find("route('**/api/pay'", 1, true), file:find(".goto(", 1, true)
    assert.is_truthy(route_at and goto_at, file)
    assert.is_true(route_at < goto_at, file)
    local _, gotos = file:gsub("%.goto%(", "")
    assert.equal(1, gotos, file)
  end)

  it("holds a request with delay: a slow server the test writes, which the gate and Playwright replay", function()
    call("browser_start_test", { keep_world = false })
    local r, text = call("browser_route", { pattern = "**/api/pay", delay = 1500, status = 200,
      body = '{"ok":true,"id":"SLOW"}', contentType = "application/json" })
    assert.is_falsy(r.isError, text)
    -- A delay alone lets the request go on, held: here to the fulfilment above.
    call("browser_route", { pattern = "**/api/pay", delay = 300 })
    _, text = call("browser_route_list", {})
    assert.equal('1. **/api/pay (status=200, body={"ok":true,"id":"SLOW"}, contentType=application/json, ' ..
      "delay=1500 ms)\n2. **/api/pay (delay=300 ms)\nA request several match goes to the one added last; one that " ..
      "falls back (delay) passes it to the one before, as in Playwright.", text)
    call("browser_navigate", { url = srv.url .. "/routes/checkout.html" })
    local _, clicked = call("browser_click", { element = 'the "Pay now" button' })
    -- The answer shows the page while the payment is held, and says so.
    assert.is_true(has(clicked, "\n~ paragraph: Processing payment… (was empty)"), clicked)
    assert.is_true(has(clicked, "\nHeld by a route (delay 300 ms): POST " .. srv.url .. "/api/pay; "), clicked)
    r, text = call("browser_verify_text_visible", { text = "Processing payment…" })
    assert.is_falsy(r.isError, text)
    r, text = call("browser_wait_for", { text = "Paid, receipt SLOW" })
    assert.is_falsy(r.isError, text)
    r, text = call("browser_export_test", { filename = "slow-pay", runs = 1 })
    assert.is_falsy(r.isError, text)
    assert.is_true(has(text, "Flake gate: 1 runs in fresh contexts, every step passed 1/1"), text)
    if helpers.playwright() then assert.is_true(has(text, "Playwright (1 runs of the file): ✅"), text) end
    local file = read(dir .. "/out/slow-pay.spec.ts")
    assert.is_true(has(file, "route('**/api/pay', async route => {\n" ..
      "    await new Promise(resolve => setTimeout(resolve, 1500));\n" ..
      "    await route.fulfill({ body: '{\"ok\":true,\"id\":\"SLOW\"}', contentType: 'application/json', " ..
      "status: 200 });\n  });"), file)
    assert.is_true(has(file, "route('**/api/pay', async route => {\n" ..
      "    await new Promise(resolve => setTimeout(resolve, 300));\n    await route.fallback();\n  });"), file)
    for _, bad in ipairs { -1, 60001, 1.5 } do
      r, text = call("browser_route", { pattern = "**/x", delay = bad })
      assert.is_true(r.isError == true, text)
      assert.is_true(has(text, "delay"), text)
    end
  end)

  it("answers a held request as its route said though the route is removed while it holds it", function()
    call("browser_start_test", { keep_world = false })
    local before = pays
    call("browser_route", { pattern = "**/api/pay", delay = 1500, abort = "timedout" })
    call("browser_navigate", { url = srv.url .. "/routes/checkout.html" })
    local _, clicked = call("browser_click", { element = 'the "Pay now" button' })
    assert.is_true(has(clicked, "\nHeld by a route (delay 1500 ms): POST "), clicked)
    -- Run AL unrouted while its payment was held to time out, and the
    -- payment went on to the server: Fetch was turned off under it.
    local _, text = call("browser_unroute", {})
    assert.matches("^Removed all 1 route%(s%) %(step %d+%)$", text)
    local r
    r, text = call("browser_wait_for", { text = "Payment failed" })
    assert.is_falsy(r.isError, text)
    assert.equal(before, pays)
    -- With the handler done, Fetch is off: the next payment reaches the server.
    call("browser_click", { element = 'the "Pay now" button' })
    r, text = call("browser_wait_for", { text = "Paid, receipt SERVER" })
    assert.is_falsy(r.isError, text)
    assert.equal(before + 1, pays)
  end)
end)
