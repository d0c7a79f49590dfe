--- vdx.quiet through the MCP tools: an action's answer and a navigation's
-- outline wait for the requests they started (a form posted by fetch, a
-- list fetched after load), and say so when one is still under way.
local vdx = require "vdx"
local helpers = require "helpers"

local function html(body)
  return { headers = { ["Content-Type"] = "text/html" }, body = "<!doctype html><meta charset=utf-8><title>Q</title>"
    .. body }
end

local ticks = 0

local ROUTES = {
  -- The order is placed by fetch; the answer comes 300 ms later.
  ["GET /q/order.html"] = function()
    return html([[<main><h1>Cart</h1><button id=b>Place order</button><p role=status id=s></p></main>
<script>
b.onclick = async () => {
  const r = await fetch('/q/api/order', { method: 'POST' });
  const o = await r.json();
  b.hidden = true;
  s.textContent = 'Order #' + o.id + ' is confirmed';
};
</script>]])
  end,
  ["POST /q/api/order"] = function()
    vdx.sleep(300)
    return { json = { id = 7 } }
  end,
  -- The list arrives after the load event.
  ["GET /q/list.html"] = function()
    return html([[<main><h1>Products</h1><ul id=l aria-label=Products></ul></main>
<script>
addEventListener('load', async () => {
  const items = await (await fetch('/q/api/items')).json();
  for (const n of items) {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.textContent = 'Buy ' + n;
    li.append(b);
    l.append(li);
  }
});
</script>]])
  end,
  -- The card is declined: the API says why in its 402's body.
  ["GET /q/pay.html"] = function()
    return html([[<h1>Pay</h1><script>
addEventListener('load', () => fetch('/q/api/pay', { method: 'POST' }));
</script>]])
  end,
  ["POST /q/api/pay"] = function()
    return { status = 402, json = { error = "Card declined" } }
  end,
  ["GET /q/api/items"] = function()
    vdx.sleep(300)
    return { json = { "Lamp", "Desk" } }
  end,
  -- A page that logs an error of its order.
  ["GET /q/log-1002.html"] = function()
    return html("<h1>Order</h1><script>console.error('payment failed for 1002')</script>")
  end,
  ["GET /q/log-1003.html"] = function()
    return html("<h1>Order</h1><script>console.error('payment failed for 1003')</script>")
  end,
  -- A page that polls: three requests alike, one after another.
  ["GET /q/poll.html"] = function()
    return html([[<h1>Poll</h1><script>
(async () => { for (let i = 0; i < 3; i++) await (await fetch('/q/api/tick')).json(); })();
</script>]])
  end,
  ["GET /q/poll7.html"] = function()
    return html([[<h1>Poll</h1><script>
(async () => { for (let i = 0; i < 7; i++) await (await fetch('/q/api/tick?n=' + i)).json(); })();
</script>]])
  end,
  ["GET /q/api/tick"] = function()
    ticks = ticks + 1
    return { json = ticks }
  end,
  -- A page that polls its list every 100 ms, and saves by a POST that
  -- takes 400 ms, then fetches its list once more.
  ["GET /q/live.html"] = function()
    return html([[<h1>Live</h1><button id=b>Save</button><p role=status id=s></p><script>
setInterval(() => fetch('/q/api/live'), 100);
b.onclick = async () => { await fetch('/q/api/save', { method: 'POST' }); await fetch('/q/api/saved');
  s.textContent = 'Saved'; };
</script>]])
  end,
  ["GET /q/api/live"] = function() return { json = {} } end,
  ["GET /q/api/saved"] = function() return { json = {} } end,
  ["POST /q/api/save"] = function()
    vdx.sleep(400)
    return { json = true }
  end,
  -- A request that outlasts the budget.
  ["GET /q/slow.html"] = function()
    return html([[<button id=b>Start</button><p id=s></p>
<script>b.onclick = async () => { await fetch('/q/api/slow'); s.textContent = 'Started'; };</script>]])
  end,
  ["GET /q/api/slow"] = function()
    vdx.sleep(1500)
    return { json = true }
  end,
}

describe("the MCP tools let the requests an action started finish", function()
  local t = {}
  setup(function()
    t.srv = helpers.serve(ROUTES)
    t.call, t.ctx, t.roles = helpers.tool_session()
  end)
  teardown(function() helpers.stop_tool_session(t) end)

  local function ok(name, args)
    local res, text = t.call(name, args)
    assert.is_nil(res.isError, text)
    return text, res.structuredContent
  end

  it("reports what a click's fetch changed, not 'No change'", function()
    ok("browser_navigate", { url = t.srv.url .. "/q/order.html" })
    local text = ok("browser_click", { element = "Place order" })
    assert.matches("Order #7 is confirmed", text, 1, true)
    assert.is_nil(text:find("No change", 1, true), text)
    assert.is_nil(text:find("Still loading", 1, true), text)
  end)

  it("outlines a page with the list it fetched after its load event", function()
    local text = ok("browser_navigate", { url = t.srv.url .. "/q/list.html" })
    assert.matches('button "Buy Lamp"', text, 1, true)
    assert.matches('button "Buy Desk"', text, 1, true)
  end)

  it("lists the page's requests since it loaded, those alike once with their count", function()
    ticks = 0
    ok("browser_navigate", { url = t.srv.url .. "/q/order.html" })
    ok("browser_click", { element = "Place order" })
    ok("browser_navigate", { url = t.srv.url .. "/q/poll.html" })
    local text, structured = ok("browser_network_requests", {})
    local base = t.srv.url:gsub("%p", "%%%0")
    assert.matches("^Since the page loaded %(%d+ earlier requests of this tab: all=true lists them too%):\n", text)
    assert.matches("\n%[GET%] " .. base .. "/q/poll%.html => 200 %(Document, %d+ ms%)\n", text)
    assert.matches("\n%[GET%] " .. base .. "/q/api/tick => 200 %(Fetch, %d+ ms%) ×3$", text)
    assert.is_nil(text:find("/q/api/order", 1, true), text)
    assert.equal(3, structured.requests[#structured.requests].count)
    local all = ok("browser_network_requests", { all = true })
    assert.matches("\n%[POST%] " .. base .. "/q/api/order => 200 %(Fetch, %d+ ms%)[^\n]*\n", all)
    local only = ok("browser_network_requests", { filter = "tick" })
    assert.matches("^%[GET%] " .. base .. "/q/api/tick => 200 %(Fetch, %d+ ms%) ×3$", only)
    -- With their bodies, still once, with the newest's body: the browser
    -- holds that one (run EB's shop polled 24 times, each listed with a
    -- body it no longer held).
    local bodies = ok("browser_network_requests", { filter = "tick", body = true })
    assert.matches("^%[GET%] " .. base .. "/q/api/tick => 200 %(Fetch, %d+ ms%) ×3\n  body: 3$", bodies)
    -- Over five, the newest are shown (run BT's one real body was the last).
    ticks = 0
    ok("browser_navigate", { url = t.srv.url .. "/q/poll7.html" })
    -- (The navigation's answer waited for the page's fetches after its load.)
    bodies = ok("browser_network_requests", { filter = "tick", body = true })
    said = {}
    for b in bodies:gmatch("\n  body: (%d+)") do said[#said + 1] = tonumber(b) end
    assert.same({ 3, 4, 5, 6, 7 }, said)
    assert.matches("\n%(2 earlier bodies not shown: narrow the list with filter%)$", bodies)
  end)

  it("lists the page's console messages since it loaded, an earlier page's with all", function()
    ok("browser_navigate", { url = t.srv.url .. "/q/log-1002.html" })
    ok("browser_navigate", { url = t.srv.url .. "/q/log-1003.html" })
    local text, structured = ok("browser_console_messages", { onlyErrors = true })
    assert.matches("^Since the page loaded %(1 earlier messages of this tab: all=true lists them too%):\n"
      .. "%[error%] payment failed for 1003[^\n]*$", text)
    assert.equal(1, #structured.messages)
    local all = ok("browser_console_messages", { onlyErrors = true, all = true })
    assert.matches("^%[error%] payment failed for 1002[^\n]*\n%[error%] payment failed for 1003", all)
  end)

  it("shows the response text of the page's API calls with body, what a test would mock", function()
    ok("browser_navigate", { url = t.srv.url .. "/q/list.html" })
    local text = ok("browser_network_requests", { body = true })
    local base = t.srv.url:gsub("%p", "%%%0")
    -- The document's own body is not the data: only fetch and XHR answers.
    assert.matches("%[GET%] " .. base .. "/q/list%.html => 200 %(Document, %d+ ms%)\n%[GET%]", text)
    assert.matches("\n%[GET%] " .. base .. '/q/api/items => 200 %(Fetch, %d+ ms%)\n  body: %["Lamp",%s*"Desk"%]', text)
    -- An empty body (a route's, with no type) is said to be empty (run BH
    -- read "(no type, not text)").
    ok("browser_route", { pattern = "**/q/api/items", body = "" })
    ok("browser_navigate", { url = t.srv.url .. "/q/list.html" })
    text = ok("browser_network_requests", { body = true })
    ok("browser_unroute", {})
    assert.matches("\n%[GET%] " .. base .. '/q/api/items => 200 %(Fetch, %d+ ms%)\n  body: %(empty%)', text)
  end)

  it("keeps on an action's step the requests it made, not those the page repeats on its own", function()
    ok("browser_navigate", { url = t.srv.url .. "/q/live.html" })
    vdx.sleep(500)
    local text = ok("browser_click", { element = "Save" })
    assert.matches("Saved", text, 1, true)
    local step = t.ctx.session:last_action(t.ctx.role.name)
    -- (The poll ran four times in the click's 400 ms: a test that waited
    -- for its response would wait for its next tick, run CH.)
    assert.same({ "POST /q/api/save", "GET /q/api/saved" }, step.fetched)
  end)

  it("keeps a failed API answer's body after its page is gone", function()
    ok("browser_navigate", { url = t.srv.url .. "/q/pay.html" })
    ok("browser_navigate", { url = t.srv.url .. "/q/list.html" })
    -- The browser dropped the body with its page (runs CF and CH read
    -- "no longer holds it" for the 400 they wanted to see).
    local text = ok("browser_network_requests", { all = true, body = true, filter = "api/" })
    local base = t.srv.url:gsub("%p", "%%%0")
    assert.matches("\n?%[POST%] " .. base .. '/q/api/pay => 402 %(Fetch, %d+ ms%)\n'
      .. '  body: {"error":%s*"Card declined"}\n', text)
    -- A success's body is not kept: the browser is asked, and has dropped it.
    ok("browser_navigate", { url = t.srv.url .. "/q/order.html" })
    text = ok("browser_network_requests", { all = true, body = true, filter = "api/items" })
    assert.matches("/q/api/items => 200 %(Fetch, %d+ ms%)[^\n]*\n  body: %(the browser no longer holds it", text)
  end)

  it("says which request is still under way when the budget ends, and the call still answers", function()
    local quiet = require "vdx.quiet"
    local budget = quiet.BUDGET_MS
    quiet.BUDGET_MS = 400
    ok("browser_navigate", { url = t.srv.url .. "/q/slow.html" })
    local okc, text, structured = pcall(ok, "browser_click", { element = "Start" })
    quiet.BUDGET_MS = budget
    assert.is_true(okc, text)
    assert.matches("\nStill loading after 0.4 s: GET " .. t.srv.url .. "/q/api/slow; the page may change again", text, 1,
      true)
    -- The answer came before the request's end: it is listed as open.
    assert.equal(t.srv.url .. "/q/api/slow", structured.loading[1].url)
  end)
end)

describe("vdx.quiet", function()
  it("does not wait for a cross-origin frame's document, whose end the page's session never sees", function()
    local quiet = require "vdx.quiet"
    local port
    local srv = helpers.serve {
      ["GET /q/host.html"] = function()
        return html('<button>Go</button><iframe title="Pay" src="http://b.test:' .. port .. '/q/frame.html"></iframe>')
      end,
      ["GET /q/frame.html"] = function() return html("<p>frame</p>") end,
    }
    port = srv.url:match(":(%d+)$")
    local browser = vdx.launch { args = { "--host-resolver-rules=MAP b.test 127.0.0.1", "--site-per-process" } }
    local page = browser:new_page()
    local w = quiet.watch(page)
    local ok, err = pcall(function()
      page:navigate(srv.url .. "/q/host.html")
      return w:wait(nil, { open_only = true })
    end)
    w:stop()
    browser:close()
    srv:close()
    assert.is_true(ok, tostring(err))
    -- Nothing reads as still loading: the frame's document is not waited for.
    assert.is_nil(err)
  end)

  it("shows the content of a frame the action added once its document came, not an empty iframe", function()
    local port
    local srv = helpers.serve {
      ["GET /q/checkout.html"] = function()
        return html('<button onclick="const f = document.createElement(\'iframe\'); f.title = \'Payment\'; '
          .. 'f.src = \'http://b.test:' .. port .. '/q/payform.html\'; document.body.append(f)">Checkout</button>')
      end,
      ["GET /q/payform.html"] = function()
        -- The payment service takes its time.
        vdx.sleep(400)
        return html('<label>Card number <input name="card"></label><button>Pay</button>')
      end,
    }
    port = srv.url:match(":(%d+)$")
    local call, ctx, roles = helpers.tool_session { launch = { args = {
      "--host-resolver-rules=MAP b.test 127.0.0.1", "--site-per-process" } } }
    local ok, err = pcall(function()
      local res, text = call("browser_navigate", { url = srv.url .. "/q/checkout.html" })
      assert.is_nil(res.isError, text)
      res, text = call("browser_snapshot", {})
      local ref = assert(text:match('button "Checkout" %[ref=(e%d+)%]'), text)
      res, text = call("browser_click", { ref = ref })
      assert.is_nil(res.isError, text)
      assert.matches('\n%+ iframe "Payment" %[ref=e%d+%]:?\n[^\n]*textbox "Card number" %[ref=f%d+e%d+%]', text)
      -- A text wait reads the main document: the frame that shows it is named.
      local wres, wtext = call("browser_wait_for", { text = "Card number", timeout = 300 })
      assert.is_true(wres.isError, wtext)
      assert.matches("it shows in frame f%d+, which a wait without frame does not look into: give frame \"f%d+\"", wtext)
      -- A long wait stops once it sees the frame show it (run AH waited 30 s).
      wres, wtext = call("browser_wait_for", { text = "Card number", timeout = 60000 })
      assert.is_true(wres.isError, wtext)
      local within = tonumber(wtext:match("did not show in the main document within (%d+) ms, and the wait stopped there: "
        .. "it shows in frame f%d+"))
      assert.is_true(within ~= nil and within < 60000, wtext)
      -- One that never shows says the whole wait's timeout, not its last
      -- slice's (run AP read "Timeout (ms): 1775" over "within 70000 ms").
      wres, wtext = call("browser_wait_for", { text = "Never shown anywhere", timeout = 2500 })
      assert.is_true(wres.isError, wtext)
      assert.matches("within 2500 ms", wtext, 1, true)
      assert.matches("\nTimeout (ms): 2500\n", wtext, 1, true)
      -- The page loaded again and its new frame has the name the first
      -- had (run AB): it is waited for as well.
      call("browser_navigate", { url = srv.url .. "/q/checkout.html" })
      res, text = call("browser_snapshot", {})
      res, text = call("browser_click", { ref = assert(text:match('button "Checkout" %[ref=(e%d+)%]'), text) })
      assert.is_nil(res.isError, text)
      assert.matches('\n%+ iframe "Payment" %[ref=e%d+%]:?\n[^\n]*textbox "Card number" %[ref=f%d+e%d+%]', text)
    end)
    roles:close()
    srv:close()
    assert.is_true(ok, tostring(err))
    assert.is_table(ctx)
  end)
end)
