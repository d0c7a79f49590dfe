--- browser_export_test and `vdxlua mcp --save-test`: an agent's session in
-- two roles written as a Playwright test, replayed by the flake gate, and
-- run under real Playwright where @playwright/test is installed.
local cjson = require "cjson"
local helpers = require "helpers"
local client = require "mcp_client"
local session_export = require "vdx.session_export"

local read, q, write = helpers.read, helpers.quote, helpers.write

-- True when the plain text needle is in s.
local function has(s, needle) return s:find(needle, 1, true) ~= nil end

-- The folder with @playwright/test for the runs: $VDX_PLAYWRIGHT_DIR, else
-- build/playwright, installed there from npm where Node is (as the verify
-- spec's run does); nil and why without Node or npm.
local function playwright_dir()
  local env, d = helpers.playwright_env()
  if env then return d end
  return nil, d
end

describe("vdx.session_export", function()
  it("writes each kind of step with its role's page, BASE_URL and the recorded values", function()
    local steps = {
      { kind = "navigate", role = "shop admin", url = "http://127.0.0.1:4321/app?x=1" },
      { kind = "action", role = "shop admin", action = "fill", locator = "getByLabel('Name')", value = "O'Neil" },
      { kind = "action", role = "shop admin", action = "type", locator = "getByLabel('Note')", value = "hi", submit = true },
      { kind = "action", role = "shop admin", action = "select", locator = "getByLabel('Size')", values = { "L" } },
      { kind = "action", role = "shop admin", action = "select", locator = "getByLabel('Tags')", values = { "a", "b" } },
      { kind = "action", role = "shop admin", action = "drag", locator = "getByText('A')", to_locator = "getByText('B')" },
      { kind = "action", role = "shop admin", action = "press", key = "Escape" },
      { kind = "action", role = "shop admin", action = "click", locator = "getByRole('row').nth(2)", positional = true },
      { kind = "action", role = "shop admin", action = "hover", tool = "browser_hover" },
      { kind = "navigate", role = "guest", url = "https://other.test/login" },
      { kind = "action", role = "guest", action = "click", locator = "getByRole('button', { name: 'Go' })",
        button = "right", modifiers = { "Shift" } },
      { kind = "assert", role = "guest", matcher = "toHaveCount", locator = "getByRole('listitem')", value = 3 },
      { kind = "assert", role = "guest", matcher = "not.toBeChecked", locator = "getByRole('checkbox')" },
    }
    local text = session_export.text(steps, { name = "shop", spec_dir = "/tmp/specs",
      auth_of = function(r) return r == "shop admin" and "/tmp/auth/admin.json" or nil end })
    for _, line in ipairs {
      "test('shop', async ({ browser }) => {",
      "  const shopAdminContext = await browser.newContext({ storageState: process.env.AUTH_SHOP_ADMIN ?? path.join(__dirname, '../auth/admin.json') });",
      "  const shopAdmin = await shopAdminContext.newPage();",
      "  const guestContext = await browser.newContext();",
      "  await shopAdmin.goto(`${BASE_URL}/app?x=1`);",
      "  await shopAdmin.getByLabel('Name').fill('O\\'Neil');",
      "  await shopAdmin.getByLabel('Note').pressSequentially('hi');\n  await shopAdmin.getByLabel('Note').press('Enter');",
      "  await shopAdmin.getByLabel('Size').selectOption('L');",
      "  await shopAdmin.getByLabel('Tags').selectOption(['a', 'b']);",
      "  await shopAdmin.getByText('A').dragTo(shopAdmin.getByText('B'));",
      "  await shopAdmin.keyboard.press('Escape');",
      "  // positional: no role, label, test id or container text told it apart\n  await shopAdmin.getByRole('row').nth(2).click();",
      "  // hover (browser_hover) is not in the test: no locator matched its target alone",
      "  await guest.goto('https://other.test/login');",
      "  await guest.getByRole('button', { name: 'Go' }).click({ button: 'right', modifiers: ['Shift'] });",
      "  await expect(guest.getByRole('listitem')).toHaveCount(3);",
      "  await expect(guest.getByRole('checkbox')).not.toBeChecked();",
      "  await shopAdminContext.close();\n  await guestContext.close();\n});\n",
    } do
      assert.is_true(has(text, line), line .. "\n-- not in --\n" .. text)
    end
    assert.is_true(has(text, "import * as path from 'path';\n"), text)
    -- Without a file to read a storageState from, 'path' is not imported
    -- (a play-test's export had the import unused); a nested chain starts
    -- at the role's page.
    local bare = session_export.text({ steps[1],
      { kind = "action", role = "shop admin", action = "click",
        locator = "getByRole('article').filter({ has: page.getByRole('heading', { name: 'Lamp', exact: true }) })" } },
      { name = "shop", spec_dir = "/tmp/specs" })
    assert.is_nil(bare:find("import * as path", 1, true), bare)
    -- One role, signed out: Playwright's own page fixture.
    assert.is_true(has(bare, "test('shop', async ({ page }) => {\n  await page.goto("), bare)
    assert.is_nil(bare:find("newContext", 1, true), bare)
    assert.is_true(has(bare, "await page.getByRole('article').filter({ has: page.getByRole('heading', "
      .. "{ name: 'Lamp', exact: true }) }).click();"), bare)
    local sum = session_export.summary(steps)
    assert.same({ steps = 13, actions = 9, navigations = 2, assertions = 2,
      positional = { "getByRole('row').nth(2)" }, missing = 1 }, sum)
  end)
end)

describe("vdx.pw_run.runner", function()
  it("finds a Playwright installed after a first look found none", function()
    local dir = client.tmpdir()
    local script = write(dir .. "/find.lua", table.concat({
      "local run = require 'vdx.pw_run'",
      "local d = " .. ("%q"):format(dir .. "/specs"),
      "os.execute('mkdir -p ' .. d)",
      "assert(run.runner(d) == nil, 'found one before the install')",
      "os.execute('mkdir -p ' .. d .. '/node_modules/@playwright/test && touch ' .. d .. '/node_modules/@playwright/test/cli.js')",
      "assert(run.runner(d) == nil, 'a miss is kept for a while')",
      "run.MISS_MS = 0",
      "print(run.runner(d))",
    }, "\n"))
    local vdxlua = helpers.vdxlua:match("^/") and helpers.vdxlua or (io.popen("pwd"):read("l") .. "/" .. helpers.vdxlua)
    local out = helpers.run(("cd / && env -u VDX_PLAYWRIGHT_DIR %s %s 2>&1"):format(q(vdxlua), q(script)))
    os.execute("rm -rf " .. q(dir))
    -- In the spec's own folder: npx finds it from there.
    assert.matches("^npx playwright%s", out)
  end)
end)

describe("vdx.session_replay", function()
  local replay = require "vdx.session_replay"

  it("checks each matcher on the live page and says what a failing run saw", function()
    local srv, browser = helpers.open()
    local url = srv.url .. "/export/list.html"
    local function step(matcher, locator, value)
      return { kind = "assert", role = "default", matcher = matcher, locator = locator, value = value }
    end
    local steps = {
      { kind = "navigate", role = "default", url = url },
      step("toHaveText", "getByRole('list', { name: 'Items' }).getByRole('listitem')", { "Milk", "Bread and butter", "Eggs" }),
      step("toContainText", "getByRole('list')", "Bread"),
      -- The array form: a subset of the items, in order, each containing
      -- its text (a play-test's gate read the array as "table: 0x…").
      step("toContainText", "getByRole('listitem')", { "Milk", "butter" }),
      step("toHaveCount", "getByRole('listitem')", 3),
      step("toBeHidden", "getByText('Nothing to buy')"),
      step("not.toBeVisible", "getByText('Nothing to buy')"),
      step("toHaveValue", "getByLabel('Shop')", "Corner shop"),
      step("toBeChecked", "getByLabel('Paid')"),
      step("toHaveTitle", nil, "Shopping list"),
      step("toHaveURL", nil, url),
      step("toHaveURL", nil, "/export/list.html"),
      step("toHaveText", "getByRole('heading')", "Shopping list"),
      { kind = "action", role = "default", action = "uncheck", locator = "getByLabel('Paid')" },
      step("not.toBeChecked", "getByLabel('Paid')"),
      step("toHaveCount", "getByRole('listitem')", 4),
    }
    local contexts = 0
    local function open()
      contexts = contexts + 1
      local ctx = browser:new_context()
      return ctx:new_page(), function() ctx:close() end
    end
    local results = replay.run(steps, 2, open, { timeout_ms = 300 })
    -- Each wrong expectation alone, after the navigation: what it saw.
    local wrong = {
      { step("toHaveText", "getByRole('listitem')", { "Milk", "Bread", "Eggs" }),
        '3 elements: "Milk", "Bread and butter", "Eggs"' },
      { step("toContainText", "getByRole('listitem')", { "Eggs", "Milk" }),
        '3 elements: "Milk", "Bread and butter", "Eggs"' },
      { step("toHaveValue", "getByLabel('Shop')", "Big shop"), 'value "Corner shop"' },
      { step("not.toBeChecked", "getByLabel('Paid')"), "checked" },
      { step("toHaveURL", nil, "/other.html"), "URL " .. url },
      { step("toBeVisible", "getByText('Nothing to buy')"), "hidden" },
      { step("toContainText", "getByRole('list')", "Cheese"), 'text "MilkBread and butterEggs"' },
    }
    local saw = {}
    for i, w in ipairs(wrong) do
      local r = replay.run({ steps[1], w[1] }, 1, open, { timeout_ms = 300 })
      saw[i] = r[2].failures[1] and r[2].failures[1].reason
    end
    helpers.shut(browser, srv)
    assert.equal(2 + #wrong, contexts)
    for i = 1, #steps - 1 do assert.equal(2, results[i].passed, "step " .. i) end
    assert.equal(0, results[#steps].passed)
    assert.same({ { run = 1, reason = 'expected toHaveCount "4"; saw 3 elements' },
      { run = 2, reason = 'expected toHaveCount "4"; saw 3 elements' } }, results[#steps].failures)
    for i, w in ipairs(wrong) do
      assert.is_string(saw[i], w[1].matcher .. " passed")
      assert.is_true(has(saw[i], "; saw " .. w[2]), saw[i])
    end
  end)
end)

describe("vdx.session_replay's actions", function()
  local replay = require "vdx.session_replay"
  local vdx = require "vdx"

  -- A page stand-in (the policy under test is the replay's, not the
  -- browser's): its one button's ref is gone from the document at the
  -- first click, as when the page loaded anew between lookup and click.
  local function page_losing(first_error)
    local page = { clicks = 0, lookups = 0 }
    function page.bridge() page.lookups = page.lookups + 1 return { count = 1, matches = { { ref = "e" .. page.lookups } } } end
    function page.click()
      page.clicks = page.clicks + 1
      if page.clicks == 1 then error(first_error, 0) end
    end
    return page
  end

  it("looks an element up again when its document went under the action, as Playwright retries", function()
    local page = page_losing(vdx.error("UnknownRef", "ref e1 is not known in this document"))
    local steps = { { kind = "action", role = "default", action = "click", locator = "getByRole('button')" } }
    local r = replay.run(steps, 1, function() return page, function() end end, { timeout_ms = 2000 })
    assert.same({ passed = 1, failures = {} }, r[1])
    assert.same({ 2, 2 }, { page.clicks, page.lookups })
    -- Any other failure is the step's at once.
    page = page_losing(vdx.error("NotActionable", "the button is disabled"))
    r = replay.run(steps, 1, function() return page, function() end end, { timeout_ms = 2000 })
    assert.equal(0, r[1].passed)
    assert.matches("disabled", r[1].failures[1].reason, 1, true)
    assert.equal(1, page.clicks)
  end)
end)

describe("browser_export_test", function()
  local srv, dir, auth
  local cart_visits = 0
  local widgets = cjson.empty_array and setmetatable({}, cjson.array_mt) or {}
  local items = cjson.empty_array and setmetatable({}, cjson.array_mt) or {}
  setup(function()
    local visits, orders_n, orders, carts, postcarts = 0, 0, {}, {}, {}
    srv = helpers.serve {
      ["GET /export/me"] = function(req)
        local sid = req.cookies and req.cookies.sid
        return { json = { user = sid or cjson.null } }
      end,
      -- Lucky on odd visits only: a step that passes while the agent
      -- watches and fails every other time.
      -- Each click adds a widget of the same name on the server.
      ["GET /export/widgets.html"] = function()
        return { headers = { ["Content-Type"] = "text/html" }, body = [[<!doctype html><title>Widgets</title>
<button id=b>Add widget</button><ul id=l></ul><script>
async function show() { l.replaceChildren(...(await (await fetch('/export/widgets')).json()).map((n) => {
  const li = document.createElement('li'); li.textContent = n; return li; })); }
b.onclick = async () => { await fetch('/export/widgets', { method: 'POST' }); await show(); };
show();
</script>]] }
      end,
      ["GET /export/widgets"] = function() return { json = widgets } end,
      -- A catalogue the server keeps: each run of a test adds its item.
      ["GET /export/items.html"] = function()
        return { headers = { ["Content-Type"] = "text/html" }, body = [[<!doctype html><title>Items</title>
<form id=f><label>Item name <input id=n></label><button>Add item</button></form><ul id=l></ul><script>
async function show() { l.replaceChildren(...(await (await fetch('/export/items')).json()).map((n) => {
  const li = document.createElement('li'); li.textContent = n; return li; })); }
f.onsubmit = async (e) => { e.preventDefault();
  await fetch('/export/items', { method: 'POST', body: n.value }); n.value = ''; await show(); };
show();
</script>]] }
      end,
      ["GET /export/items"] = function() return { json = items } end,
      ["POST /export/items"] = function(req)
        items[#items + 1] = req.body
        return { json = true }
      end,
      ["POST /export/widgets"] = function()
        widgets[#widgets + 1] = "Widget"
        return { json = true }
      end,
      -- Each visit places an order of its own number for the buyer of
      -- its cookie (a fresh context is a new buyer); the orders page lists
      -- the buyer's orders only.
      ["GET /export/order.html"] = function(req)
        orders_n = orders_n + 1
        local buyer = req.cookies and req.cookies.buyer
        local set
        if not buyer then buyer, set = "b" .. orders_n, "buyer=b" .. orders_n .. "; Path=/" end
        orders[buyer] = orders[buyer] or {}
        table.insert(orders[buyer], ("#%d"):format(1000 + orders_n))
        return { headers = { ["Content-Type"] = "text/html", ["Set-Cookie"] = set },
          body = ("<!doctype html><title>Order</title><h2>Payment for order #%d</h2>"
            .. "<p data-testid=confirmation>Order #%d is confirmed</p>"):format(1000 + orders_n, 1000 + orders_n) }
      end,
      -- A cart a click fills on the server, slowly, for the buyer of the
      -- cookie (a fresh context is a new buyer).
      ["GET /export/slowcart.html"] = function(req)
        local set
        if not (req.cookies and req.cookies.buyer) then
          orders_n = orders_n + 1
          set = "buyer=s" .. orders_n .. "; Path=/"
        end
        return { headers = { ["Content-Type"] = "text/html", ["Set-Cookie"] = set },
          body = "<!doctype html><title>Shop</title><button id=a>Add</button><script>"
            .. "a.onclick = () => { setTimeout(() => fetch('/export/slowcart/add', { method: 'POST' }), 300); };</script>" }
      end,
      ["POST /export/slowcart/add"] = function(req)
        local b = req.cookies and req.cookies.buyer or ""
        carts[b] = (carts[b] or 0) + 1
        return { json = true }
      end,
      ["GET /export/slowcart/cart.html"] = function(req)
        return { headers = { ["Content-Type"] = "text/html" }, body = ("<!doctype html><title>Cart</title><p>Items: %d</p>")
          :format(carts[req.cookies and req.cookies.buyer or ""] or 0) }
      end,
      -- Pays the buyer's latest order: the status names it.
      ["GET /export/pay.html"] = function(req)
        local mine = orders[req.cookies and req.cookies.buyer or ""] or {}
        return { headers = { ["Content-Type"] = "text/html" },
          body = ("<!doctype html><title>Pay</title><button id=p>Pay</button><p role=status id=st></p><script>"
            .. "p.onclick = () => { st.textContent = 'Order %s is confirmed: $10.80 paid.'; };</script>")
            :format(mine[#mine] or "#0") }
      end,
      ["GET /export/orders.html"] = function(req)
        local mine = orders[req.cookies and req.cookies.buyer or ""] or {}
        local li = {}
        for i, o in ipairs(mine) do li[i] = "<li>" .. o .. " paid</li>" end
        -- Every buyer's orders with ?all, the latest first.
        if req.query and req.query:find("all", 1, true) then
          li = {}
          for k = orders_n, 1, -1 do
            -- (No space after the number: "#1001paid", where \b finds no bound.)
            li[#li + 1] = ("<li><span>#%d</span><span>paid</span> <button>Refund</button></li>"):format(1000 + k)
          end
        end
        return { headers = { ["Content-Type"] = "text/html" },
          body = "<!doctype html><title>Orders</title><ul aria-label=Orders>" .. table.concat(li) .. "</ul>" }
      end,
      -- A Checkout there before the cart it works on has come: the page
      -- fetches the cart after its load event, slowly.
      ["GET /export/late-cart.html"] = function()
        return { headers = { ["Content-Type"] = "text/html" }, body = [[<!doctype html><title>Cart</title>
<ul id=l></ul><button id=c>Checkout</button><p role=status id=st></p><script>
let items = [];
fetch('/export/late-items/7').then((r) => r.json()).then((got) => { items = got; for (const t of got) {
  const li = document.createElement('li'); li.textContent = t; l.append(li); } });
c.onclick = () => { st.textContent = items.length ? 'Paying for ' + items.length : 'Nothing to pay'; };
</script>]] }
      end,
      ["GET /export/late-items/7"] = function()
        require("vdx").sleep(400)
        return { json = { "Oak Chair", "Steel Chair" } }
      end,
      -- A cart the server keeps per visitor (a cookie the page sets), whose
      -- Add to cart posts slowly: its page, loaded at once, may show none.
      ["GET /export/postcart/shop.html"] = function()
        return { headers = { ["Content-Type"] = "text/html" }, body = [[<!doctype html><title>Shop</title>
<script>if (!document.cookie.includes('cart=')) document.cookie = 'cart=' + Math.random().toString(36).slice(2) + '; path=/';</script>
<h1>Oak Chair</h1><button id=b>Add to cart</button><p role=status id=st></p><a href="/export/postcart/cart.html">Cart</a>
<script>b.onclick = () => fetch('/export/postcart/add', { method: 'POST' }).then(() => { st.textContent = 'Added'; });</script>]] }
      end,
      ["POST /export/postcart/add"] = function(req)
        require("vdx").sleep(400)
        local id = req.cookies and req.cookies.cart or "?"
        postcarts[id] = (postcarts[id] or 0) + 1
        return { json = { ok = true } }
      end,
      ["GET /export/cartrows.html"] = function()
        return { headers = { ["Content-Type"] = "text/html" }, body = [[<!doctype html><title>Cart</title>
<table><tr><th>Product</th><th>Qty</th><th>Total</th></tr><tr><td>Mug</td><td>2</td><td>$21.60</td></tr>
<tr><td>Tote</td><td>1</td><td>$24.00</td></tr></table>]] }
      end,
      ["GET /export/disabled.html"] = function()
        return { headers = { ["Content-Type"] = "text/html" }, body = [[<!doctype html><title>Cart</title>
<h1>Your cart is empty</h1><button disabled>Checkout</button><button>Keep shopping</button>]] }
      end,
      -- A sign-in form (it only says who signed in).
      ["GET /export/signin.html"] = function()
        return { headers = { ["Content-Type"] = "text/html" }, body = [[<!doctype html><title>Sign in</title>
<label>Email <input id=e type=email></label><button id=b>Sign in</button><p role=status id=st></p>
<script>b.onclick = () => { st.textContent = 'Signed in as ' + e.value; };</script>]] }
      end,
      -- An Add to cart posting to its product's own path.
      ["GET /export/postcart/item7.html"] = function()
        return { headers = { ["Content-Type"] = "text/html" }, body = [[<!doctype html><title>Shop</title>
<h1>Oak Chair</h1><button id=b>Add to cart</button><p role=status id=st></p>
<script>b.onclick = () => fetch('/export/postcart/items/7', { method: 'POST' }).then(() => { st.textContent = 'Added'; });</script>]] }
      end,
      ["POST /export/postcart/items/7"] = function()
        return { json = { ok = true } }
      end,
      -- An Add to cart the server refuses (500, slowly), which changes
      -- nothing on the page.
      ["GET /export/failadd.html"] = function()
        return { headers = { ["Content-Type"] = "text/html" }, body = [[<!doctype html><title>Shop</title>
<h1>Oak Chair</h1><button id=b>Add to cart</button><a href="#cart" id=c>Cart (0)</a>
<script>b.onclick = () => fetch('/export/failadd/add', { method: 'POST' }).then((r) => {
  if (r.ok) c.textContent = 'Cart (1)'; });</script>]] }
      end,
      ["POST /export/failadd/add"] = function()
        require("vdx").sleep(400)
        return { status = 500, json = { error = "no" } }
      end,
      ["GET /export/postcart/cart.html"] = function(req)
        local n = postcarts[req.cookies and req.cookies.cart or "?"] or 0
        return { headers = { ["Content-Type"] = "text/html" }, body = "<!doctype html><title>Cart</title><h1>Your cart</h1>"
          .. (n > 0 and "<ul><li>Oak Chair</li></ul>" or "<p>Your cart is empty</p>") }
      end,
      -- A payment form in a frame a click adds, whose Pay works only once
      -- the frame's script, which comes slowly, has run.
      ["GET /export/framepay/checkout.html"] = function()
        return { headers = { ["Content-Type"] = "text/html" }, body = [[<!doctype html><title>Checkout</title>
<button onclick="const f = document.createElement('iframe'); f.title = 'Payment';
f.src = '/export/framepay/form.html'; document.body.append(f)">Checkout</button>]] }
      end,
      ["GET /export/framepay/form.html"] = function()
        return { headers = { ["Content-Type"] = "text/html" }, body = [[<!doctype html><title>Pay</title>
<button id=p>Pay</button><p id=s></p><script src="/export/framepay/pay.js"></script>]] }
      end,
      ["GET /export/framepay/pay.js"] = function()
        require("vdx").sleep(500)
        return { headers = { ["Content-Type"] = "text/javascript" },
          body = "p.onclick = () => { s.textContent = 'Paid'; };" }
      end,
      ["GET /export/lucky.html"] = function()
        visits = visits + 1
        return { headers = { ["Content-Type"] = "text/html" },
          body = "<!doctype html><title>Lucky</title><p>" .. (visits % 2 == 1 and "Lucky" or "Unlucky") .. "</p>" }
      end,
      ["GET /export/cart.html"] = function()
        cart_visits = cart_visits + 1
        return { headers = { ["Content-Type"] = "text/html" },
          body = "<!doctype html><title>Cart</title><nav><a href='#cart'>Cart (" .. cart_visits .. ")</a></nav>" }
      end,
    }
    dir = client.tmpdir()
    os.execute("mkdir -p " .. q(dir .. "/out"))
    auth = write(dir .. "/alice.json", '{"cookies":[{"name":"sid","value":"alice","domain":"127.0.0.1",'
      .. '"path":"/","expires":-1,"httpOnly":false,"secure":false,"sameSite":"Lax"}],"origins":[]}')
  end)
  teardown(function()
    if srv then srv:close() end
    if dir then os.execute("rm -rf " .. q(dir)) end
  end)

  -- A started server and call(name, args) -> result, text.  A call may
  -- take four minutes: the flake gate and the Playwright runs of a busy
  -- machine.
  local function start(args, env)
    local s = client.start(args, env)
    client.caller(s)
    local n = 100
    return s, function(name, a)
      n = n + 1
      s:send(client.call(n, name, a))
      local m = s:wait_for(n, 240000)
      if not m then
        s:close(30000)
        error(name .. " did not answer", 2)
      end
      local r = m.result
      if r.isError then
        -- The server and its browser end before the spec fails.
        s:close(30000)
        error(name .. ": " .. tostring(r.content and r.content[1].text), 2)
      end
      return r, r.content[1].text
    end
  end

  local function ref_of(text, pattern)
    return assert(text:match(pattern .. " %[ref=([%w_]+)%]"), pattern .. " not in:\n" .. text)
  end

  -- A server writing to dir/out, which runs its exports under Playwright
  -- where there is one: the server, its call and that folder (or nil).
  local function start_out()
    local pw = playwright_dir()
    local s, call = start("--output-dir " .. q(dir .. "/out"), pw and ("VDX_PLAYWRIGHT_DIR=" .. q(pw)) or nil)
    return s, call, pw
  end

  local exported, answer, pw_why
  it("records a two-role session and writes it as a test the flake gate passes 3/3", function()
    local pw, why = playwright_dir()
    pw_why = why
    local s, call = start(("--role alice %s --role guest - --output-dir %s --tools spec/fixtures/export/record_assert.lua")
      :format(q(auth), q(dir .. "/out")), pw and ("VDX_PLAYWRIGHT_DIR=" .. q(pw)) or nil)
    local app = srv.url .. "/export/app.html"
    -- alice is signed in by her storageState: she adds an errand and ticks it.
    call("browser_navigate", { url = app })
    call("browser_wait_for", { text = "Welcome, alice" })
    local _, snap = call("browser_snapshot", {})
    call("browser_type", { element = "New errand field", ref = ref_of(snap, 'textbox "New errand"'),
      text = "Buy milk", submit = true })
    _, snap = call("browser_snapshot", {})
    call("browser_click", { element = "Done box", ref = ref_of(snap, 'checkbox "Done: Buy milk"') })
    call("spec_record_assert", { matcher = "toHaveText", locator = "getByRole('status')", value = "Done: Buy milk" })
    call("spec_record_assert", { matcher = "toBeChecked", locator = "getByRole('checkbox', { name: 'Done: Buy milk' })" })
    -- The guest has no auth file: it signs in by name.
    call("select_role", { role = "guest" })
    call("browser_navigate", { url = app })
    call("browser_wait_for", { text = "Who are you?" })
    _, snap = call("browser_snapshot", {})
    call("browser_type", { element = "Name", ref = ref_of(snap, 'textbox "Name"'), text = "bob", clear = true })
    call("browser_click", { element = 'the "Sign in" button' })
    call("spec_record_assert", { matcher = "toBeVisible", locator = "getByRole('heading', { name: 'Welcome, bob' })" })
    -- Back to alice, whose page kept its state.
    call("select_role", { role = "alice" })
    call("spec_record_assert", { matcher = "toHaveCount", locator = "getByTestId('errand-list').getByRole('listitem')",
      value = "1" })
    local r
    r, answer = call("browser_export_test", { filename = "errands", runs = 3 })
    assert.equal(0, (s:close(30000)))
    local path = dir .. "/out/errands.spec.ts"
    exported = read(path)
    assert.is_string(exported, answer)
    assert.is_true(has(answer, "Wrote errands.spec.ts: 10 steps (2 navigations, 4 actions, 4 assertions), roles alice, guest\n"),
      answer)
    assert.is_true(has(answer, "\nRun: cd " .. dir .. "/out && "), answer)
    assert.is_true(has(answer, "Flake gate: 3 runs in fresh contexts, every step passed 3/3\n"), answer)
    -- Every step passed: the answer does not list them.
    assert.is_nil(answer:find("\n  1. [", 1, true), answer)
    assert.is_nil(answer:find("Positional", 1, true))
    for i = 1, 10 do assert.equal(3, r.structuredContent.stability[i].passed) end
    -- No CHROMIUM_PATH: the file falls back to the browser it was written
    -- with (run EF read the variable as one to set).
    assert.is_true(has(answer, "\nRun: cd " .. dir .. "/out && AUTH_ALICE="), answer)
    -- The Playwright the server found, by its absolute path, else npx.
    assert.is_true(has(answer, "AUTH_ALICE=" .. auth .. (pw and (" NODE_PATH=" .. pw
      .. "/node_modules " .. pw .. "/node_modules/.bin/playwright") or " npx playwright") .. " test errands.spec.ts"), answer)
    assert.is_true(has(answer, "\nThe test needs the app up at " .. srv.url .. ".\nRun: "), answer)
    -- The file goes to that app unless BASE_URL says another.
    assert.is_nil(answer:match("\nRun: [^\n]*BASE_URL"), answer)
    assert.equal(3, r.structuredContent.stability[1].runs)
    io.stderr:write(("\n[export] gate %d ms, Playwright %d ms, answer %d chars\n"):format(
      r.structuredContent.gate_ms, r.structuredContent.playwright_ms, #answer))

    for _, line in ipairs {
      "  const aliceContext = await browser.newContext({ storageState: process.env.AUTH_ALICE ?? path.join(__dirname, '../alice.json') });",
      "  const alice = await aliceContext.newPage();",
      "  const guestContext = await browser.newContext();",
      "  const guest = await guestContext.newPage();",
      "  await alice.goto(`${BASE_URL}/export/app.html`);",
      "  await alice.getByRole('textbox', { name: 'New errand' }).fill('Buy milk');",
      "  await alice.getByRole('textbox', { name: 'New errand' }).press('Enter');",
      "  await alice.getByRole('checkbox', { name: 'Done: Buy milk' }).click();",
      "  await expect(alice.getByRole('status')).toHaveText('Done: Buy milk');",
      "  await expect(alice.getByRole('checkbox', { name: 'Done: Buy milk' })).toBeChecked();",
      "  await guest.goto(`${BASE_URL}/export/app.html`);",
      "  await guest.getByRole('textbox', { name: 'Name' }).fill('bob');",
      "  await guest.getByRole('button', { name: 'Sign in' }).click();",
      "  await expect(guest.getByRole('heading', { name: 'Welcome, bob' })).toBeVisible();",
      "  await expect(alice.getByTestId('errand-list').getByRole('listitem')).toHaveCount(1);",
    } do
      assert.is_true(has(exported, line .. "\n"), line .. "\n-- not in --\n" .. exported)
    end
    assert.is_nil(exported:find(".nth(", 1, true))
    -- The app's address is written once, as BASE_URL's default.
    local _, n = exported:gsub("127%.0%.0%.1", "")
    assert.equal(1, n, exported)
    assert.is_true(has(exported, "\nconst BASE_URL = (process.env.BASE_URL || 'http://127.0.0.1:"), exported)
  end)

  it("runs the exported file under real Playwright 3 times", function()
    if not exported then
      pending("the session did not export")
      return
    end
    if pw_why then
      assert.is_true(has(answer, "Playwright: not run: "), answer)
      pending(pw_why)
      return
    end
    assert.is_true(has(answer, "Playwright (3 runs of the file): ✅ 3 passed"), answer)
    -- A pass has the Run: line below, not the command it ran too.
    assert.is_nil(answer:find("\nRan: ", 1, true), answer)
    -- The runs leave their results in the temporary folder, not among the tests.
    assert.is_not.equal(0, (select(3, os.execute("test -e " .. q(dir .. "/out/test-results")))))
    -- The printed command passes as printed, through sh from another
    -- folder, while the app it names runs (this process serves it, and
    -- pw_run.shell turns the loop while it waits).
    local printed = assert(answer:match("\nRun: (cd [^\n]+ test errands%.spec%.ts)$"), answer)
    -- It names no BASE_URL: the file goes to the app it was recorded on.
    assert.is_nil(printed:find("BASE_URL", 1, true))
    local rc, out = require("vdx.pw_run").shell("cd / && sh -c " .. q(printed), 300000)
    assert.equal(0, rc, out)
    assert.matches("1 passed", out)
  end)

  it("starts the Run line in the project above the output folder, and it passes as printed", function()
    -- The folder above is a project with no config: a person runs its
    -- tests from there (five of six play-tests of stop 67 did, where the
    -- line started in the output folder).
    write(dir .. "/package.json", "{}")
    local s, call, pw = start_out()
    call("browser_navigate", { url = srv.url .. "/export/app.html" })
    call("browser_wait_for", { text = "Who are you?" })
    call("browser_verify_text_visible", { text = "Who are you?" })
    local _, text = call("browser_export_test", { filename = "from-root" })
    assert.equal(0, (s:close(30000)))
    os.remove(dir .. "/package.json")
    assert.is_true(has(text, "Wrote out/from-root.spec.ts: "), text)
    local printed = assert(text:match("\nRun: (cd [^\n]+)$"), text)
    assert.equal(1, select(2, printed:gsub("^cd " .. dir:gsub("%p", "%%%0") .. " && ", "")), printed)
    assert.matches(" test out/from%-root%.spec%.ts$", printed)
    if not pw then return pending("no Playwright to run it") end
    local rc, out = require("vdx.pw_run").shell("cd / && sh -c " .. q(printed), 300000)
    assert.equal(0, rc, out)
    assert.matches("1 passed", out)
  end)

  it("says the steps passed the flake gate when they are exported again unchanged (a new title)", function()
    local s, call = start("--output-dir " .. q(dir .. "/out"))
    call("browser_navigate", { url = srv.url .. "/export/app.html" })
    call("browser_wait_for", { text = "Who are you?" })
    call("browser_verify_text_visible", { text = "Who are you?" })
    local _, gated = call("browser_export_test", { filename = "regated", runs = 2 })
    local _, renamed = call("browser_export_test", { filename = "regated", test_name = "asks who one is" })
    call("browser_type", { element = "Name", text = "ann" })
    local _, more = call("browser_export_test", { filename = "regated", test_name = "asks who one is" })
    assert.equal(0, (s:close(30000)))
    assert.is_true(has(gated, "Flake gate: 2 runs"), gated)
    -- (Run EY exported again for a new title and was told to gate again.)
    assert.is_true(has(renamed, "\nIts steps passed the flake gate (runs=2) at the export before: no need to run it "
      .. "again."), renamed)
    assert.is_true(has(more, "\nBefore you call it done: runs=3 (the flake gate)."), more)
  end)

  it("names a step that does not pass in every run as flaky", function()
    local pw = playwright_dir()
    local s, call = start("--output-dir " .. q(dir .. "/out") .. " --tools spec/fixtures/export/record_assert.lua",
      pw and ("VDX_PLAYWRIGHT_DIR=" .. q(pw)) or nil)
    call("browser_navigate", { url = srv.url .. "/export/lucky.html" })
    call("spec_record_assert", { matcher = "toBeVisible", locator = "getByText('Lucky', { exact: true })" })
    -- A step after it that holds on either page: left unreached, not unstable.
    call("spec_record_assert", { matcher = "toBeVisible", locator = "getByText('ucky')" })
    local _, text = call("browser_export_test", { filename = "lucky.spec.ts", runs = 3 })
    -- The unstable step taken out: the test holds without it.
    s:send(client.call(900, "browser_export_test", { filename = "lucky.spec.ts", drop = { 4 } }))
    local bad = s:wait_for(900, 60000)
    local _, again = call("browser_export_test", { filename = "lucky-fixed.spec.ts", runs = 2, drop = { 2 } })
    assert.equal(0, (s:close(30000)))
    assert.is_true(bad.result.isError, bad.result.content[1].text)
    assert.is_true(has(bad.result.content[1].text, "drop: the test has no step 4 (its steps: 1-3)"),
      bad.result.content[1].text)
    assert.is_true(has(again, "\nDropped 2. [default] expect(page.getByText('Lucky', { exact: true })).toBeVisible()\n"),
      again)
    assert.is_true(has(again, "Flake gate: 2 runs in fresh contexts, every step passed 2/2"), again)
    assert.is_nil(read(dir .. "/out/lucky-fixed.spec.ts"):find("'Lucky'", 1, true))
    assert.is_true(has(text, "Flake gate: 3 runs in fresh contexts, ⚠️ 1 unstable steps (2): fix them before "
      .. "you call the test done (drop=[2] takes a step out); 1 later steps not reached in the runs that stopped\n"), text)
    assert.is_true(has(text, "\n  3. [default] expect(page.getByText('ucky')).toBeVisible()  1/3 "
      .. "(not reached in run 1, 3)\n"), text)
    assert.is_true(has(text, "\n  1. [default] page.goto(`${BASE_URL}/export/lucky.html`)  3/3\n"), text)
    assert.is_true(has(text, "\n  2. [default] expect(page.getByText('Lucky', { exact: true })).toBeVisible()  1/3 ❌ "
      .. "run 1: expected toBeVisible; saw getByText('Lucky', { exact: true }) matches 0 elements; "
      .. "run 3: expected toBeVisible; saw getByText('Lucky', { exact: true }) matches 0 elements\n"), text)
    if pw then
      assert.matches("\nPlaywright %(3 runs of the file%): ❌ [^\n]*1 failed", text)
      -- A failure says the command it ran, which leaves its results in the
      -- temporary folder, not among the tests.
      assert.is_true(has(text, "\nRan: cd '" .. dir .. "/out' && NODE_PATH="), text)
      assert.is_true(has(text, " --output='" .. require("vdx.pw_run").results_dir(dir .. "/out") .. "'"), text)
      -- Runs that pass and runs that fail: what a run leaves behind is named as one cause.
      assert.is_true(has(text, "\n↳ some runs passed and others failed: a run may find what an earlier one left"), text)
      assert.is_true(has(text, "Or a step races what the page still does (a fetch after its load, a timer)"), text)
    end
  end)

  it("says what the page shows instead of a count a run did not find", function()
    local s, call = start("--output-dir " .. q(dir .. "/out") .. " --tools spec/fixtures/export/record_assert.lua")
    cart_visits = 0
    call("browser_navigate", { url = srv.url .. "/export/cart.html" })
    call("spec_record_assert", { matcher = "toBeVisible", locator = "getByRole('navigation').getByText('Cart (1)')" })
    local _, text = call("browser_export_test", { filename = "cart.spec.ts", runs = 2 })
    assert.equal(0, (s:close(30000)))
    -- (Run BM's `Cart (1)` failed in runs 2 and 3 without a word of the page's `Cart (7)`.)
    assert.is_true(has(text, "run 1: expected toBeVisible; saw getByRole('navigation').getByText('Cart (1)') matches "
      .. "0 elements (the page shows \"Cart (2)\"); run 2: expected toBeVisible; saw "
      .. "getByRole('navigation').getByText('Cart (1)') matches 0 elements (the page shows \"Cart (3)\")"), text)
  end)

  it("remembers through the pattern a value the locator given names itself", function()
    -- (Run CF wrote `getByRole("heading", { name: /Payment for order #\d+/ })` by hand.)
    local s, call = start("--output-dir " .. q(dir .. "/out"))
    call("browser_navigate", { url = srv.url .. "/export/order.html" })
    local _, snap = call("browser_snapshot", {})
    local name = assert(snap:match('heading "(Payment for order #%d+)"'), snap)
    local _, kept = call("browser_remember", { name = "pay", pattern = "#\\d+",
      locator = ("getByRole('heading', { name: '%s' })"):format(name) })
    assert.is_true(has(kept, " from getByRole('heading', { name: /Payment for order #\\d+/ }) at /#\\d+/ (step 2). Later texts "
      .. "can say {pay} (answers show it so); the test reads it here. (The locator named the value itself, which "
      .. "the next run's differs from: it reads it through the pattern.)"), kept)
    -- A locator without the value is kept as given.
    _, kept = call("browser_remember", { name = "conf", locator = "getByTestId('confirmation')", pattern = "#\\d+" })
    assert.is_nil(kept:find("named the value itself", 1, true), kept)
    -- A proposal's id stands for its locator (run EY wrote [a12]'s by hand).
    call("browser_navigate", { url = srv.url .. "/export/app.html" })
    call("browser_wait_for", { text = "Who are you?" })
    call("browser_type", { element = "Name", text = "bobby" })
    local _, signed = call("browser_click", { element = "Sign in" })
    local id = assert(signed:match("%[(a%d+)%] getByRole%('heading', { name: 'Welcome, bobby' }%)"), signed)
    local _, by_id = call("browser_remember", { name = "user", pattern = "bob\\w+", locator = "[" .. id .. "]" })
    s:send(client.call(900, "browser_remember", { name = "nope", locator = "a999" }))
    local unknown = s:wait_for(900, 60000).result.content[1].text
    assert.equal(0, (s:close(30000)))
    assert.is_true(has(by_id, "Remembered {user} = \"bobby\" from getByRole('heading', { name: 'Welcome, "), by_id)
    assert.is_true(has(unknown, "no proposal a999 in this session"), unknown)
  end)

  it("remembers a value the app gives and uses it later as {name}, read again in each run", function()
    local pw = playwright_dir()
    local s, call = start("--output-dir " .. q(dir .. "/out"), pw and ("VDX_PLAYWRIGHT_DIR=" .. q(pw)) or nil)
    call("browser_navigate", { url = srv.url .. "/export/order.html" })
    local _, kept = call("browser_remember", { name = "order", locator = "getByTestId('confirmation')",
      pattern = "#\\d+" })
    -- Said once as it reads; every later answer shows {order}.
    -- (With its step's number, which drop takes: run ED worked it out.)
    assert.matches('Remembered {order} = "#%d%d%d%d" from getByTestId%(\'confirmation\'%) at /#\\d%+/ %(step %d+%)%.', kept)
    call("browser_navigate", { url = srv.url .. "/export/orders.html" })
    local _, seen = call("browser_verify_text_visible", { text = "{order} paid" })
    -- The line recorded is the file's, the value read into its variable
    -- (run BC read `hasText: '{orderNo}'` and opened the file to learn
    -- what it checked).
    assert.is_true(has(seen, "Recorded: await expect(page.getByText(`${order} paid`)).toBeVisible();"), seen)
    -- Among every buyer's orders, a check on the order's row goes through
    -- the row that shows the remembered value.
    call("browser_navigate", { url = srv.url .. "/export/orders.html?all" })
    local _, found = call("browser_find", { role = "button", name = "Refund", within = "{order}" })
    local refund = assert(found:match('button "Refund" %[ref=(e%d+)%]'), found)
    local _, clicked = call("browser_click", { ref = refund })
    assert.is_true(has(clicked, "Locator: getByRole('listitem').filter({ hasText: '{order}' })"), clicked)
    -- A check in that row: bounded as the file writes it.
    local _, row = call("browser_verify_text_visible", { text = "Refund",
      locator = "getByRole('listitem').filter({ hasText: '{order}' })" })
    assert.is_true(has(row, "filter({ hasText: new RegExp(`${order}(?!\\\\d)`) })"), row)
    -- A locator that names the value it reads says it as it reads, not
    -- as `getByText('{order}{state}')`, a locator that needs its value.
    local _, named = call("browser_remember", { name = "state", locator = "getByText('{order}paid')", pattern = "paid" })
    assert.matches("Remembered {state} = \"paid\" from getByText%('{order}paid'%) at /paid/ %(step %d+%)%.", named)
    local _, text = call("browser_export_test", { filename = "order", runs = 2 })
    local file = read(dir .. "/out/order.spec.ts")
    -- A step dropped is said as the file wrote it (runs BM and BN read
    -- `{orderNo}` in the export's step lines).
    local no = assert(seen:match(" %(step (%d+)%)"), seen)
    local _, less = call("browser_export_test", { filename = "order-less", drop = { tonumber(no) } })
    assert.equal(0, (s:close(30000)))
    assert.is_true(has(less, "\nDropped " .. no .. ". [default] expect(page.getByText(`${order} paid`)).toBeVisible()\n"),
      less)
    assert.is_true(has(text, "Flake gate: 2 runs in fresh contexts, every step passed 2/2"), text)
    -- (Bounded after the number: "#1015" is no "#10150", and "#1015paid" is.)
    assert.is_true(has(file, "await page.getByRole('listitem').filter({ hasText: new RegExp(`${order}(?!\\\\d)`) })"
      .. ".getByRole('button', { name: 'Refund' }).click();"), file)
    assert.is_true(has(file, "  await expect(page.getByTestId('confirmation')).toContainText(/#\\d+/);\n"
      .. "  const order = /#\\d+/.exec(await page.getByTestId('confirmation').textContent() ?? '')?.[0] ?? '';\n"), file)
    assert.is_true(has(file, "await expect(page.getByText(`${order} paid`)).toBeVisible();"), file)
    if pw then assert.is_true(has(text, "Playwright (2 runs of the file): ✅ 2 passed"), text) end
  end)

  it("makes an action right after a load wait for the data the page fetched after it, as the answer did", function()
    local s, call, pw = start_out()
    local _, nav = call("browser_navigate", { url = srv.url .. "/export/late-cart.html" })
    local _, clicked = call("browser_click", { ref = assert(nav:match('button "Checkout" %[ref=(e%d+)%]'), nav) })
    -- (The navigate's answer waited for the cart.)
    assert.is_true(has(clicked, "Paying for 2"), clicked)
    call("browser_verify_text_visible", { text = "Paying for 2" })
    local _, out = call("browser_export_test", { filename = "latecart", runs = 2 })
    -- Said once a session: the file waits in every test (run BZ read it at each export).
    local _, again = call("browser_export_test", { filename = "latecart2", runs = 1 })
    assert.equal(0, (s:close(30000)))
    assert.is_true(has(out, "\nStep 1 loads a page that fetches GET /export/late-items/7 after its load, and step 2 "
      .. "acts at once: the test waits for that response before step 2 (waitForResponse), as this answer did"), out)
    assert.is_nil(again:find("loads a page that fetches", 1, true), again)
    assert.is_true(has(read(dir .. "/out/latecart2.spec.ts"), "  await lateItemsResponse;\n"), again)
    assert.is_nil(out:find("⚠️", 1, true), out)
    assert.is_true(has(out, "Flake gate: 2 runs in fresh contexts, every step passed 2/2"), out)
    -- Its id is any segment: another run's cart may have another.
    assert.is_true(has(read(dir .. "/out/latecart.spec.ts"), "  const lateItemsResponse = page.waitForResponse((r) => "
      .. "/^\\/export\\/late-items\\/[^/]+$/.test(new URL(r.url()).pathname));\n  await page.goto("), out)
    assert.is_true(has(read(dir .. "/out/latecart.spec.ts"), "/export/late-cart.html`);\n  await lateItemsResponse;\n"
      .. "  await page.getByRole('button', { name: 'Checkout' }).click();\n"), read(dir .. "/out/latecart.spec.ts"))
    if pw then assert.is_true(has(out, "Playwright (2 runs of the file): ✅ 2 passed"), out) end
  end)

  it("makes a check that something is absent right after a load wait for the data the page fetched after it", function()
    local pw = playwright_dir()
    local s, call = start("--output-dir " .. q(dir .. "/out"), pw and ("VDX_PLAYWRIGHT_DIR=" .. q(pw)) or nil)
    call("browser_navigate", { url = srv.url .. "/export/late-cart.html" })
    -- Run AN reloaded its list and checked at once that a row was not
    -- there: a check that holds before the list came, whatever it holds.
    call("browser_wait_for", { textGone = "Pine Chair" })
    call("browser_verify_text_visible", { text = "Steel Chair" })
    local _, out = call("browser_export_test", { filename = "lategone", runs = 2 })
    assert.equal(0, (s:close(30000)))
    assert.is_true(has(out, "\nStep 1 loads a page that fetches GET /export/late-items/7 after its load, and step 2 "
      .. "checks that something is absent at once: the test waits for that response before step 2 (waitForResponse)"),
      out)
    assert.is_true(has(out, "Flake gate: 2 runs in fresh contexts, every step passed 2/2"), out)
    assert.is_true(has(read(dir .. "/out/lategone.spec.ts"), "/export/late-cart.html`);\n  await lateItemsResponse;\n"
      .. "  await expect(page.getByText('Pine Chair')"), read(dir .. "/out/lategone.spec.ts"))
    if pw then assert.is_true(has(out, "Playwright (2 runs of the file): ✅ 2 passed"), out) end
  end)

  it("makes an action right after going back wait for the data the page fetched after it, as the answer did", function()
    local pw = playwright_dir()
    local s, call = start("--output-dir " .. q(dir .. "/out"), pw and ("VDX_PLAYWRIGHT_DIR=" .. q(pw)) or nil)
    local _, nav = call("browser_navigate", { url = srv.url .. "/export/late-cart.html" })
    call("browser_navigate", { url = srv.url .. "/export/order.html" })
    -- Run AI's shop, gone back to, was read before its data came: here
    -- the click right after would find no items.
    call("browser_navigate_back", {})
    local _, clicked = call("browser_click", { ref = assert(nav:match('button "Checkout" %[ref=(e%d+)%]'), nav) })
    assert.is_true(has(clicked, "Paying for 2"), clicked)
    call("browser_verify_text_visible", { text = "Paying for 2" })
    local _, out = call("browser_export_test", { filename = "lateback", runs = 2 })
    assert.equal(0, (s:close(30000)))
    assert.is_true(has(out, "Flake gate: 2 runs in fresh contexts, every step passed 2/2"), out)
    local file = read(dir .. "/out/lateback.spec.ts")
    assert.is_true(has(file, "  const lateItemsResponse = page.waitForResponse((r) => "
      .. "/^\\/export\\/late-items\\/[^/]+$/.test(new URL(r.url()).pathname));\n  await page.goBack();\n"
      .. "  await lateItemsResponse;\n  await page.getByRole('button', { name: 'Checkout' }).click();\n"), file)
    if pw then assert.is_true(has(out, "Playwright (2 runs of the file): ✅ 2 passed"), out) end
  end)

  it("records a navigation to the page's own URL as a reload, which the runs make too", function()
    local pw = playwright_dir()
    local s, call = start("--output-dir " .. q(dir .. "/out"), pw and ("VDX_PLAYWRIGHT_DIR=" .. q(pw)) or nil)
    -- The first look at a page is the test's goto, whatever the page shows.
    local _, nav = call("browser_navigate", { url = srv.url .. "/export/postcart/shop.html" })
    assert.is_true(has(nav, "Navigated to " .. srv.url .. "/export/postcart/shop.html"), nav)
    call("browser_click", { ref = assert(nav:match('button "Add to cart" %[ref=(e%d+)%]'), nav) })
    call("browser_verify_text_visible", { text = "Added" })
    local _, again = call("browser_navigate", { url = srv.url .. "/export/postcart/shop.html" })
    assert.is_true(has(again, "Reloaded " .. srv.url .. "/export/postcart/shop.html (status 200): the test's page "
      .. "was at this URL already, so it writes page.reload() (step 4)\n"), again)
    call("browser_verify_element_visible", { role = "button", accessibleName = "Add to cart" })
    local _, out = call("browser_export_test", { filename = "reload", runs = 1 })
    assert.equal(0, (s:close(30000)))
    assert.is_true(has(out, "Flake gate: 1 runs in fresh contexts, every step passed 1/1"), out)
    local file = read(dir .. "/out/reload.spec.ts")
    assert.is_true(has(file, "  await page.goto(`${BASE_URL}/export/postcart/shop.html`);\n"), file)
    assert.is_true(has(file, "  await page.reload();\n"), file)
    if pw then assert.is_true(has(out, "Playwright (1 runs of the file): ✅ 1 passed"), out) end
  end)

  it("records no reload right after the goto of the same URL, which opens the page as it is", function()
    -- (Run EO opened its sign-in page by browser_start_test {url}, then by
    -- a navigate again, and could not tell whether a step was made.)
    local s, call = start("--output-dir " .. q(dir .. "/out"))
    local shop = srv.url .. "/export/postcart/shop.html"
    call("browser_navigate", { url = shop })
    local _, twice = call("browser_navigate", { url = shop })
    local _, out = call("browser_export_test", { filename = "goto-again" })
    assert.equal(0, (s:close(30000)))
    assert.is_true(has(twice, "Reloaded " .. shop .. " (status 200): not in the test, whose goto right before "
      .. "(step 1) opens this page already\n"), twice)
    assert.is_true(has(out, "Wrote goto-again.spec.ts: 1 steps (1 navigations"), out)
    assert.is_nil(read(dir .. "/out/goto-again.spec.ts"):find("reload", 1, true))
  end)

  it("remembers a table row's text as the checks read it, and warns of a locator that holds the value", function()
    local pw = playwright_dir()
    local s, call = start("--output-dir " .. q(dir .. "/out"), pw and ("VDX_PLAYWRIGHT_DIR=" .. q(pw)) or nil)
    call("browser_navigate", { url = srv.url .. "/export/cartrows.html" })
    -- Found by the text it remembers: the next run's would find nothing (run ED).
    local _, pinned = call("browser_remember", { name = "line", locator = "getByRole('row', { name: 'Mug 2 $21.60' })" })
    assert.is_true(has(pinned, "\n⚠️ The locator finds the element by 'Mug 2 $21.60', which the value holds"), pinned)
    local _, kept = call("browser_remember", { name = "line", locator = "getByRole('row').filter({ hasText: 'Mug' })" })
    assert.is_nil(kept:find("⚠️", 1, true), kept)
    call("browser_verify_text_visible", { text = "{line}", locator = "getByRole('row').filter({ hasText: 'Mug' })" })
    local _, out = call("browser_export_test", { filename = "cartrows", runs = 1, drop = { 2 } })
    assert.equal(0, (s:close(30000)))
    local file = read(dir .. "/out/cartrows.spec.ts")
    -- Read as textContent, the cells run together as toHaveText reads
    -- them (innerText parts them with tabs: run ED's test failed).
    assert.is_true(has(file, "const line = (await page.getByRole('row').filter({ hasText: 'Mug' }).textContent() ?? '')"
      .. ".replace(/\\s+/g, ' ').trim();"), file)
    assert.is_true(has(out, "every step passed 1/1"), out)
    if pw then assert.is_true(has(out, "Playwright (1 runs of the file): ✅ 1 passed"), out) end
  end)

  it("keeps the check that a locator matches nothing, which browser_verify_locator proposes", function()
    -- (Runs EM and EP found no tool that records an empty cart's lines.)
    local s, call = start("--output-dir " .. q(dir .. "/out"))
    call("browser_navigate", { url = srv.url .. "/export/cartrows.html" })
    local _, none = call("browser_verify_locator", { locator = "getByTestId('no-such-line')" })
    local id = assert(none:match("\n%[(a%d+)%] getByTestId%('no%-such%-line'%) toHaveCount%(0%)$"), none)
    local _, out = call("browser_export_test", { filename = "empty", assertions = { id }, runs = 1 })
    assert.equal(0, (s:close(30000)))
    assert.is_true(has(out, "every step passed 1/1"), out)
    assert.is_true(has(read(dir .. "/out/empty.spec.ts"),
      "await expect(page.getByTestId('no-such-line')).toHaveCount(0);\n"), out)
  end)

  it("names a goto that another follows with nothing between, which drop takes out", function()
    local s, call = start("--output-dir " .. q(dir .. "/out"))
    call("browser_navigate", { url = srv.url .. "/export/cartrows.html" })
    local _, second = call("browser_navigate", { url = srv.url .. "/export/disabled.html" })
    call("browser_verify_element_visible", { role = "heading", accessibleName = "Your cart is empty" })
    local _, third = call("browser_navigate", { url = srv.url .. "/export/cartrows.html" })
    assert.equal(0, (s:close(30000)))
    -- (Run EE's test opened / and then the sign-in page; run EN read
    -- "right before" as the goto it had just made.)
    assert.is_true(has(second, "\nStep 1, the goto before this one (step 2), has no step after it: "
      .. "browser_export_test drop=[1] takes it out if it was only a look."), second)
    assert.is_nil(third:find("the goto before this one", 1, true), third)
  end)

  it("names the check proposed on a goto's page, not drop, when another goto follows it", function()
    -- (Run FI's goto of /provider, which the app sent to its sign-in page,
    -- was proposed toHaveURL and then told it had no step after it.)
    local s, call = start("--output-dir " .. q(dir .. "/out"))
    call("browser_navigate", { url = srv.url .. "/export/cartrows.html" })
    local _, none = call("browser_verify_locator", { locator = "getByTestId('no-such-line')" })
    local id = assert(none:match("\n%[(a%d+)%] getByTestId"), none)
    local _, second = call("browser_navigate", { url = srv.url .. "/export/disabled.html" })
    assert.equal(0, (s:close(30000)))
    assert.is_true(has(second, ("\nStep 1, the goto before this one (step 2), has no step after it but the check "
      .. "proposed on its page, %s: browser_export_test assertions=[\"%s\"] keeps it."):format(id, id)), second)
  end)

  it("writes anew a file of the session deleted by hand since", function()
    local s, call = start("--output-dir " .. q(dir .. "/out"))
    call("browser_navigate", { url = srv.url .. "/export/disabled.html" })
    call("browser_verify_element_visible", { role = "heading", accessibleName = "Your cart is empty" })
    call("browser_export_test", { filename = "gonefile" })
    assert.is_true(os.remove(dir .. "/out/gonefile.spec.ts"))
    call("browser_start_test", {})
    call("browser_verify_element_visible", { role = "button", accessibleName = "Keep shopping" })
    local _, out = call("browser_export_test", { filename = "gonefile" })
    assert.equal(0, (s:close(30000)))
    -- (Run ED's was refused: "cannot be read now".)
    assert.is_true(has(out, "Wrote gonefile.spec.ts: "), out)
    assert.is_nil(out:find("beside", 1, true), out)
    local file = read(dir .. "/out/gonefile.spec.ts")
    assert.is_true(has(file, "import { test, expect"), file)
    assert.is_nil(file:find("Your cart is empty", 1, true), file)
  end)

  it("checks a table's rows given as their cells, each row's cells through the row, and their count", function()
    local pw = playwright_dir()
    local s, call = start("--output-dir " .. q(dir .. "/out"), pw and ("VDX_PLAYWRIGHT_DIR=" .. q(pw)) or nil)
    call("browser_navigate", { url = srv.url .. "/export/cartrows.html" })
    -- As the outline shows rows (runs EC and EI were told to give the
    -- run-together text, 'Mug2$21.60').
    local _, text = call("browser_verify_list_visible", { locator = "getByRole('table')",
      items = { "Mug 2 $21.60", "[Tote | 1 | $24.00]" } })
    -- Each row by what it is, not by the texts checked (its name holds them all).
    assert.matches("^✅ Page agrees%. Recorded: await expect%(page%.getByRole%('row'%)%.filter%({ hasText: 'Mug' }%)"
      .. "%.getByRole%('cell'%)%)%.toHaveText%(%['Mug', '2', '%$21%.60'%]%); %(step %d+%)\n✅ And: await expect%(page%."
      .. "getByRole%('row'%)%.filter%({ hasText: 'Tote' }%)%.getByRole%('cell'%)%)%.toHaveText%(%['Tote', '1', "
      .. "'%$24%.00'%]%); %(step %d+%)\n✅ And the count: await "
      .. "expect%(page%.getByRole%('table'%)%.getByRole%('row'%)%.filter%({ has: page%.getByRole%('cell'%) }%)%)%."
      .. "toHaveCount%(2%); %(step %d+%)$", text)
    local _, out = call("browser_export_test", { filename = "cellrows", runs = 1 })
    assert.equal(0, (s:close(30000)))
    assert.is_true(has(out, "every step passed 1/1"), out)
    if pw then assert.is_true(has(out, "Playwright (1 runs of the file): ✅ 1 passed"), out) end
  end)

  it("replays a control's state, toBeDisabled and toBeEnabled, in the flake gate", function()
    local s, call = start("--output-dir " .. q(dir .. "/out"))
    call("browser_navigate", { url = srv.url .. "/export/disabled.html" })
    call("browser_verify_value", { locator = "getByRole('button', { name: 'Checkout' })", value = "disabled" })
    call("browser_verify_value", { locator = "getByRole('button', { name: 'Keep shopping' })", value = "enabled" })
    local _, out = call("browser_export_test", { filename = "disabled", runs = 1 })
    assert.equal(0, (s:close(30000)))
    -- (Run ED's export refused: "the gate cannot check toBeDisabled".)
    assert.is_true(has(out, "Flake gate: 1 runs in fresh contexts, every step passed 1/1"), out)
    local file = read(dir .. "/out/disabled.spec.ts")
    assert.is_true(has(file, "await expect(page.getByRole('button', { name: 'Checkout' })).toBeDisabled();"), file)
    assert.is_true(has(file, "await expect(page.getByRole('button', { name: 'Keep shopping' })).toBeEnabled();"), file)
  end)

  it("names a write's number in its path as {id}: each run sends it for what that run made", function()
    local s, call = start("--output-dir " .. q(dir .. "/out"))
    local _, nav = call("browser_navigate", { url = srv.url .. "/export/postcart/item7.html" })
    call("browser_click", { ref = assert(nav:match('button "Add to cart" %[ref=(e%d+)%]'), nav) })
    call("browser_verify_text_visible", { text = "Added" })
    local _, out = call("browser_export_test", { filename = "item7", runs = 1 })
    assert.equal(0, (s:close(30000)))
    assert.is_true(has(out, "\nThe runs sent POST /export/postcart/items/{id} each time, for real"), out)
  end)

  it("makes a page load right after an action wait for the requests the action made, as the answer did", function()
    local pw = playwright_dir()
    local s, call = start("--output-dir " .. q(dir .. "/out"), pw and ("VDX_PLAYWRIGHT_DIR=" .. q(pw)) or nil)
    local _, nav = call("browser_navigate", { url = srv.url .. "/export/postcart/shop.html" })
    local _, added = call("browser_click", { ref = assert(nav:match('button "Add to cart" %[ref=(e%d+)%]'), nav) })
    local _, cart = call("browser_click", { ref = assert(added:match('link "Cart" %[ref=(e%d+)%]')
      or nav:match('link "Cart" %[ref=(e%d+)%]'), nav) })
    assert.is_true(has(cart, "Your cart"), cart)
    call("browser_verify_text_visible", { text = "Oak Chair" })
    local _, out = call("browser_export_test", { filename = "postcart", runs = 2 })
    assert.equal(0, (s:close(30000)))
    assert.is_true(has(out, "\nStep 2's answer waited for POST /export/postcart/add, and step 3 loads a page right "
      .. "after: the test waits for that response before step 3 (waitForResponse), as this answer did"), out)
    assert.is_nil(out:find("⚠️ Step", 1, true), out)
    assert.is_true(has(out, "Flake gate: 2 runs in fresh contexts, every step passed 2/2"), out)
    -- What the runs changed on the server is said (runs BC and BE saw
    -- their cart and shop grow with each export).
    assert.is_true(has(out, "\nThe runs sent POST /export/postcart/add each time, for real: what they made (an item, "
      .. "an order) stays on the app's server, and the session's roles see it too."), out)
    local file = read(dir .. "/out/postcart.spec.ts")
    assert.is_true(has(file, "  const addResponse = page.waitForResponse((r) => r.request().method() === 'POST' && "
      .. "new URL(r.url()).pathname === '/export/postcart/add');\n  await page.getByRole('button', { name: 'Add to "
      .. "cart' }).click();\n  await addResponse;\n  await page.getByRole('link', { name: 'Cart' }).click();\n"), file)
    if pw then assert.is_true(has(out, "Playwright (2 runs of the file): ✅ 2 passed"), out) end
  end)

  it("makes an action that wrote to the server wait for it when another role's step comes next", function()
    -- (Run EV's customer added to the cart, then the provider changed the
    -- price, with no wait between.)
    local shop = srv.url .. "/export/postcart/shop.html"
    local s, call = start(("--output-dir %s --role a - %s --role b - %s"):format(q(dir .. "/out"), shop, shop))
    local _, b_nav = call("browser_navigate", { url = shop, role = "b" })
    local _, a_nav = call("browser_navigate", { url = shop, role = "a" })
    call("browser_click", { ref = assert(a_nav:match('button "Add to cart" %[ref=(e%d+)%]'), a_nav), role = "a" })
    call("browser_click", { ref = assert(b_nav:match('button "Add to cart" %[ref=(e%d+)%]'), b_nav), role = "b" })
    local _, out = call("browser_export_test", { filename = "handoff", runs = 1 })
    assert.equal(0, (s:close(30000)))
    assert.is_true(has(out, "\nStep 3 sent POST /export/postcart/add, and step 4 is role b's: the test waits for that "
      .. "response before it (waitForResponse), so that role finds the app's server as this answer left it"), out)
    assert.is_true(has(out, "every step passed 1/1"), out)
    local file = read(dir .. "/out/handoff.spec.ts")
    assert.is_true(has(file, "  const addResponse = a.waitForResponse((r) => r.request().method() === 'POST' && "
      .. "new URL(r.url()).pathname === '/export/postcart/add');\n  await a.getByRole('button', { name: 'Add to "
      .. "cart' }).click();\n  await addResponse;\n  await b.getByRole('button', { name: 'Add to cart' }).click();\n"),
      file)
  end)

  it("makes an action wait for its request when the next one waits for the same (Add to cart twice)", function()
    -- (Run DI's second click's wait took the first click's response, and
    -- its cart showed one.)
    local s, call = start_out()
    local _, nav = call("browser_navigate", { url = srv.url .. "/export/postcart/shop.html" })
    local add = assert(nav:match('button "Add to cart" %[ref=(e%d+)%]'), nav)
    call("browser_click", { ref = add })
    local _, added = call("browser_click", { ref = add })
    call("browser_click", { ref = assert(added:match('link "Cart" %[ref=(e%d+)%]')
      or nav:match('link "Cart" %[ref=(e%d+)%]'), nav) })
    call("browser_export_test", { filename = "twice", runs = 1 })
    assert.equal(0, (s:close(30000)))
    local file = read(dir .. "/out/twice.spec.ts")
    local click = "  await page.getByRole('button', { name: 'Add to cart' }).click();\n"
    local a, b = file:match("const (%w+) = page%.waitForResponse%([^\n]*/export/postcart/add'%);\n" .. click:gsub("%p", "%%%0")
      .. "  await (%w+);\n")
    assert.is_truthy(a, file)
    assert.equal(a, b)
    local c, d = file:match("await " .. a .. ";\n  const (%w+) = page%.waitForResponse%([^\n]*/export/postcart/add'%);\n"
      .. click:gsub("%p", "%%%0") .. "  await (%w+);\n  await page%.getByRole%('link'")
    assert.is_truthy(c, file)
    assert.equal(c, d)
  end)

  it("makes a check right after an action that changed nothing, or of something absent, wait for its requests", function()
    local s, call = start_out()
    local _, nav = call("browser_navigate", { url = srv.url .. "/export/failadd.html" })
    -- Run AU's Add to cart failed (a 500) and changed nothing; its check
    -- that the cart link still said the same held before the answer came.
    local _, clicked = call("browser_click", { ref = assert(nav:match('button "Add to cart" %[ref=(e%d+)%]'), nav) })
    assert.is_true(has(clicked, "No change on the page."), clicked)
    call("browser_verify_element_visible", { role = "link", accessibleName = "Cart (0)" })
    local _, failed = call("browser_export_test", { filename = "failadd", runs = 1 })
    call("browser_start_test", { url = srv.url .. "/export/postcart/shop.html" })
    local _, shop = call("browser_snapshot", {})
    -- An add that shows "Added", then a check that something is absent.
    call("browser_click", { ref = assert(shop:match('button "Add to cart" %[ref=(e%d+)%]'), shop) })
    call("browser_wait_for", { textGone = "Sold out" })
    local _, absent = call("browser_export_test", { filename = "postgone", runs = 1 })
    assert.equal(0, (s:close(30000)))
    assert.is_true(has(failed, "\nStep 2 changed nothing on the page (it sent POST /export/failadd/add), and step 3 "
      .. "checks at once: the test waits for that response before step 3 (waitForResponse), as this answer did; "
      .. "Playwright alone would pass the check before the app answered, whatever it answered"), failed)
    assert.is_true(has(failed, "every step passed 1/1"), failed)
    -- A post the server refused made nothing there: no word of it (run
    -- BQ's refused forms were said to have made items); the next export's
    -- add that went through is.
    assert.is_nil(failed:find("for real", 1, true), failed)
    assert.is_true(has(absent, "\nThe runs sent POST /export/postcart/add each time, for real"), absent)
    local file = read(dir .. "/out/failadd.spec.ts")
    assert.is_true(has(file, "  const addResponse = page.waitForResponse((r) => r.request().method() === 'POST' && "
      .. "new URL(r.url()).pathname === '/export/failadd/add');\n  await page.getByRole('button', { name: 'Add to "
      .. "cart' }).click();\n  await addResponse;\n  await expect(page.getByRole('link', { name: 'Cart (0)' })"), file)
    assert.is_true(has(absent, "\nStep 2 sent POST /export/postcart/add, and step 3 checks at once: the test waits "
      .. "for that response before step 3 (waitForResponse)"), absent)
    assert.is_true(has(read(dir .. "/out/postgone.spec.ts"), ".click();\n  await addResponse;\n"),
      read(dir .. "/out/postgone.spec.ts"))
  end)

  it("makes the step after an action that brought a frame wait for the frame's load, as the answer did", function()
    local pw = playwright_dir()
    local s, call = start("--output-dir " .. q(dir .. "/out"), pw and ("VDX_PLAYWRIGHT_DIR=" .. q(pw)) or nil)
    local _, nav = call("browser_navigate", { url = srv.url .. "/export/framepay/checkout.html" })
    local _, opened = call("browser_click", { ref = assert(nav:match('button "Checkout" %[ref=(e%d+)%]'), nav) })
    local pay = assert(opened:match('button "Pay" %[ref=(f%d+e%d+)%]'), opened)
    -- (The agent reads the answer before its next call: the frame's script
    -- ran. Waited for, not slept for: under load a second was too short.)
    local on
    for _ = 1, 100 do
      _, on = call("browser_evaluate", { ref = pay, ["function"] = "(el) => el.ownerDocument.readyState === 'complete'" })
      if on:match("true%s*$") then break end
      os.execute("sleep 0.1")
    end
    assert.is_truthy(on:match("true%s*$"), on)
    local _, paid = call("browser_click", { ref = pay, expect = { "Paid" } })
    assert.is_true(has(paid, '✅ Expected "Paid": recorded'), paid)
    local _, out = call("browser_export_test", { filename = "framepay", runs = 2 })
    assert.equal(0, (s:close(30000)))
    assert.is_true(has(out, "Flake gate: 2 runs in fresh contexts, every step passed 2/2"), out)
    local file = read(dir .. "/out/framepay.spec.ts")
    assert.is_true(has(file, "  await page.getByRole('button', { name: 'Checkout' }).click();\n"
      .. "  const formFrame = () => page.frame({ url: (u) => u.pathname === '/export/framepay/form.html' });\n"
      .. "  await expect.poll(() => !!formFrame()).toBe(true);\n  await formFrame().waitForLoadState();\n"), file)
    if pw then assert.is_true(has(out, "Playwright (2 runs of the file): ✅ 2 passed"), out) end
  end)

  -- Opens path, clicks the elements of labels (snapshot patterns) in
  -- turn, keeps the proposal of the last answer that pattern finds, and
  -- exports it with runs = 2, which the gate and Playwright pass; returns
  -- the file written.
  local function keep_proposal(path, labels, pattern, filename)
    local pw = playwright_dir()
    local s, call = start("--output-dir " .. q(dir .. "/out"), pw and ("VDX_PLAYWRIGHT_DIR=" .. q(pw)) or nil)
    call("browser_navigate", { url = srv.url .. path })
    local _, snap = call("browser_snapshot", {})
    local text
    for _, label in ipairs(labels) do _, text = call("browser_click", { ref = ref_of(snap, label) }) end
    local id = text:match("\n%[(a%d+)%] " .. pattern)
    assert.is_string(id, text)
    local _, out = call("browser_export_test", { filename = filename, assertions = { id }, runs = 2 })
    assert.equal(0, (s:close(30000)))
    assert.is_true(has(out, "Flake gate: 2 runs in fresh contexts, every step passed 2/2"), out)
    if pw then assert.is_true(has(out, "Playwright (2 runs of the file): ✅ 2 passed"), out) end
    return read(dir .. "/out/" .. filename .. ".spec.ts")
  end

  it("writes a panel's toBeHidden after its toBeVisible before the action: a locator that finds nothing is hidden too", function()
    local file = keep_proposal("/verify/tabs.html", { 'tab "Yearly"' },
      "getByRole%('tabpanel', { name: 'Monthly' }%) toBeHidden, and toBeVisible before the action", "hidden")
    assert.is_true(has(file, "  await expect(page.getByRole('tabpanel', { name: 'Monthly' })).toBeVisible();\n"
      .. "  await page.getByRole('tab', { name: 'Yearly' }).click();\n"
      .. "  await expect(page.getByRole('tabpanel', { name: 'Monthly' })).toBeHidden();\n"), file)
  end)

  it("writes a check after a slow wait with a timeout as long, which the gate and Playwright wait for too", function()
    -- Run AH's held payment: its confirmation came after 10 s, and the
    -- check recorded after the wait failed at Playwright's 5 s.
    local pw = playwright_dir()
    local s, call = start("--output-dir " .. q(dir .. "/out"), pw and ("VDX_PLAYWRIGHT_DIR=" .. q(pw)) or nil)
    call("browser_navigate", { url = srv.url .. "/waits/slow.html" })
    local _, snap = call("browser_snapshot", {})
    call("browser_click", { ref = ref_of(snap, 'button "Pay"') })
    local _, waited = call("browser_wait_for", { text = "Paid in full" })
    assert.matches("\nIt took %d%.%d s: the checks recorded before the next action wait up to 1[1-4] s in the test",
      waited)
    call("browser_verify_text_visible", { text = "Paid in full" })
    local _, out = call("browser_export_test", { filename = "slow-pay", runs = 2 })
    assert.equal(0, (s:close(30000)))
    assert.is_true(has(out, "Flake gate: 2 runs in fresh contexts, every step passed 2/2"), out)
    if pw then assert.is_true(has(out, "Playwright (2 runs of the file): ✅ 2 passed"), out) end
    local file = read(dir .. "/out/slow-pay.spec.ts")
    assert.matches("Paid in full'[^\n]*%)%)%.to%a+%([^\n]*{ timeout: 1[1-4]000 }%);\n", file)
  end)

  it("keeps a sorted table's order with its rows' count: the gate and Playwright check both", function()
    local file = keep_proposal("/verify/sortable.html", { 'button "Joined"' },
      "getByRole%('table', { name: 'Members' }%)%.getByRole%('row'%) toContainText%b(), and toHaveCount%(4%)", "rows-order")
    assert.is_true(has(file, "  await expect(page.getByRole('table', { name: 'Members' }).getByRole('row'))"
      .. ".toContainText(['Alan Turing', 'Grace Hopper', 'Ada Lovelace']);\n"
      .. "  await expect(page.getByRole('table', { name: 'Members' }).getByRole('row')).toHaveCount(4);\n"), file)
  end)

  it("keeps a sorted column's aria-sort proposal: the gate and Playwright check toHaveAttribute", function()
    local file = keep_proposal("/verify/sortable.html", { 'button "Joined"', 'button "Joined"' },
      "getByRole%('columnheader', { name: 'Joined' }%) toHaveAttribute%('aria%-sort', 'descending'%)", "sorted")
    assert.is_true(has(file, "await expect(page.getByRole('columnheader', { name: 'Joined' }))"
      .. ".toHaveAttribute('aria-sort', 'descending');"), file)
  end)

  it("keeps a remembered id in what a change report proposes, which the export writes as the value read", function()
    local s, call = start("--output-dir " .. q(dir .. "/out"))
    call("browser_navigate", { url = srv.url .. "/export/order.html" })
    -- The number remembered without its mark, written after one: no literal id.
    call("browser_remember", { name = "num", locator = "getByTestId('confirmation')", pattern = "\\d{4}" })
    local _, seen = call("browser_verify_text_visible", { text = "Order #{num} is confirmed" })
    assert.is_true(has(seen, "Recorded:"), seen)
    assert.is_nil(seen:find("looks like a number the app gave", 1, true), seen)
    call("browser_remember", { name = "order", locator = "getByTestId('confirmation')", pattern = "#\\d+" })
    call("browser_navigate", { url = srv.url .. "/export/pay.html" })
    local _, snap = call("browser_snapshot", {})
    local _, paid = call("browser_click", { ref = snap:match('button "Pay" %[ref=(e%d+)%]') })
    local id = paid:match("\n%[(a%d+)%] getByRole%('status'%) toHaveText%('Order {order} is confirmed: %$10%.80 paid%.'%)")
    assert.is_string(id, paid)
    call("browser_export_test", { filename = "paid", assertions = { id } })
    assert.equal(0, (s:close(30000)))
    local file = read(dir .. "/out/paid.spec.ts")
    assert.is_true(has(file, "await expect(page.getByRole('status')).toHaveText(`Order ${order} is confirmed: $10.80 paid.`);"),
      file)
  end)

  it("says when a step failed after an action and a page load with no check between: the load came first", function()
    local s, call = start("--output-dir " .. q(dir .. "/out"))
    call("browser_navigate", { url = srv.url .. "/export/slowcart.html" })
    local _, snap = call("browser_snapshot", {})
    -- The agent took its time (no step of the test); the replay does not.
    call("browser_click", { ref = snap:match('button "Add" %[ref=(e%d+)%]') })
    os.execute("sleep 1")
    call("browser_navigate", { url = srv.url .. "/export/slowcart/cart.html" })
    call("browser_verify_text_visible", { text = "Items: 1" })
    local _, text = call("browser_export_test", { filename = "slowcart", runs = 2 })
    s:close(30000)
    assert.is_true(has(text, "Not written: step 4 failed in every run of the replay"), text)
    assert.is_true(has(text, "\n       ↳ step 2 acts and step 3 loads a page before anything checks what the action "
      .. "did: the load may come before the app finished (a request under way). Keep a check of its result after step 2"),
      text)
  end)

  it("records a wait of a time as the agent took it, which the gate and the test wait too", function()
    local s, call = start("--output-dir " .. q(dir .. "/out"))
    call("browser_navigate", { url = srv.url .. "/export/slowcart.html" })
    local _, snap = call("browser_snapshot", {})
    call("browser_click", { ref = snap:match('button "Add" %[ref=(e%d+)%]') })
    local _, waited = call("browser_wait_for", { time = 1 })
    assert.is_true(has(waited, "Waited 1 s. Recorded: await page.waitForTimeout(1000);\nA fixed wait is slow"), waited)
    call("browser_navigate", { url = srv.url .. "/export/slowcart/cart.html" })
    call("browser_verify_text_visible", { text = "Items: 1" })
    local _, text = call("browser_export_test", { filename = "waited", runs = 2 })
    s:close(30000)
    assert.is_true(has(text, "every step passed 2/2"), text)
    local file = read(dir .. "/out/waited.spec.ts")
    assert.is_true(has(file, ".click();\n  await page.waitForTimeout(1000);\n  await page.goto("), file)
  end)

  it("opens the page of a role whose first step of the test is a check (a role first used after a start)", function()
    local app = srv.url .. "/export/app.html"
    local s, call = start(("--output-dir %s --role a - %s --role b - %s"):format(q(dir .. "/out"), app, app))
    call("browser_navigate", { url = app })
    call("browser_export_test", { filename = "late" })
    call("browser_start_test", { url = app .. "?two" })
    -- b's page opens at its default URL for a look, which records nothing.
    call("browser_snapshot", { role = "b" })
    os.execute("sleep 1")
    call("browser_verify_text_visible", { role = "b", text = "Who are you?" })
    call("browser_export_test", { filename = "late" })
    assert.equal(0, (s:close(30000)))
    local file = read(dir .. "/out/late.spec.ts")
    assert.matches("  await b%.goto%(`%${BASE_URL}/export/app%.html`%);\n  await expect%(b%.getByRole%('heading', { name: "
      .. "'Who are you%?' }%)%)", file)
  end)

  it("lists the role that opens the start's url though it had no page yet", function()
    local app = srv.url .. "/export/app.html"
    local s, call = start(("--output-dir %s --role a - %s --role b - %s"):format(q(dir .. "/out"), app, app))
    call("browser_navigate", { url = app })
    -- (Run ET's customer, which had no page, was left out of the list.)
    local r, text = call("browser_start_test", { url = app .. "?first", role = "b" })
    assert.equal(0, (s:close(30000)))
    assert.is_nil(r.isError, text)
    assert.is_true(has(text, "\nEach role starts\n"), text)
    assert.is_true(has(text, "\n- b on " .. app .. "?first, signed out"), text)
    assert.is_true(has(text, "\n- a on " .. app .. ", signed out"), text)
  end)

  it("starts the next test with url opened by the role it names, not the current one", function()
    local app = srv.url .. "/export/app.html"
    local s, call = start(("--output-dir %s --role a - %s --role b - %s"):format(q(dir .. "/out"), app, app))
    call("browser_navigate", { url = app })
    call("browser_navigate", { url = app, role = "b" })
    call("browser_export_test", { filename = "opener-a" })
    local r, text = call("browser_start_test", { url = app .. "?b", role = "b" })
    -- b is current now: a call that names no role acts in it (run AX's
    -- next call, with b's refs, acted in a).
    local _, current = call("get_current_role", {})
    -- Refused before anything starts: the two calls change nothing.
    local id = 900
    local function refused(a)
      id = id + 1
      s:send(client.call(id, "browser_start_test", a))
      local m = s:wait_for(id, 60000)
      return m and m.result and m.result.isError and m.result.content[1].text or "(not refused)"
    end
    local stray = refused { role = "c", url = app }
    os.execute("sleep 1")
    call("browser_verify_text_visible", { role = "b", text = "Who are you?" })
    call("browser_export_test", { filename = "opener-b" })
    -- The role alone starts the next test as that role (run EM gave no url).
    local _, alone = call("browser_start_test", { role = "a" })
    local _, now = call("get_current_role", {})
    assert.equal(0, (s:close(30000)))
    assert.is_true(has(alone, "\nCurrent role now: a"), alone)
    assert.is_true(has(now, "Current role: a"), now)
    assert.is_nil(r.isError, text)
    assert.is_true(has(text, "- a on " .. app .. ", "), text)
    assert.is_true(has(text, "- b on " .. app .. "?b, "), text)
    assert.is_true(has(text, "\nCurrent role now: b"), text)
    assert.is_true(has(current, "Current role: b"), current)
    assert.is_true(has(stray, "\nRole: c\n") and has(stray, "there is no role 'c'"), stray)
    local file = read(dir .. "/out/opener-b.spec.ts")
    -- b alone acts in the test, on the page it opened at the start.
    assert.matches("\n  await page%.goto%(`%${BASE_URL}/export/app%.html%?b`%);\n  await expect%(page%.getByRole%('heading', "
      .. "{ name: 'Who are you%?' }%)%)", file)
    assert.equal(1, select(2, file:gsub("%.goto%(", "")))
  end)

  it("writes a config that runs the files one at a time when tests of several files sign in as one account", function()
    local auth = write(dir .. "/shopper.json", '{"cookies":[],"origins":[]}')
    -- The folder above the output one is a project with no config of its own.
    write(dir .. "/package.json", "{}")
    local app = srv.url .. "/export/app.html"
    local s, call = start(("--output-dir %s --role shopper %s %s"):format(q(dir .. "/out"), q(auth), app))
    call("browser_navigate", { url = app })
    local _, one = call("browser_export_test", { filename = "one" })
    call("browser_start_test", { url = app .. "?two" })
    local _, two = call("browser_export_test", { filename = "two" })
    call("browser_start_test", { url = app .. "?three" })
    local _, three = call("browser_export_test", { filename = "three" })
    -- A name given from the project, as the Run line names the files (run
    -- FQ's tests/x.spec.ts went to tests/tests/).
    call("browser_start_test", { url = app .. "?four" })
    local _, four = call("browser_export_test", { filename = "out/four.spec.ts" })
    assert.equal(0, (s:close(30000)))
    assert.is_true(has(four, " test out/four.spec.ts"), four)
    assert.is_string(read(dir .. "/out/four.spec.ts"))
    assert.is_nil(read(dir .. "/out/out/four.spec.ts"))
    assert.is_nil(one:find("sign in as", 1, true), one)
    assert.is_true(has(two, "⚠️ Tests of one.spec.ts (as shopper) sign in as this test does: Playwright runs files in "
      .. "parallel workers"), two)
    -- One config, in the project above (it had none), where the Run line
    -- starts: runs EV and EW found a second one in the output folder odd.
    assert.is_true(has(two, "Wrote " .. dir .. "/playwright.config.ts with workers: 1: Playwright reads it in a run "
      .. "from there, as the Run line does"), two)
    assert.is_true(has(two, "\nRun: cd " .. dir .. " && "), two)
    assert.is_true(has(two, " test out/two.spec.ts"), two)
    assert.is_nil(read(dir .. "/out/playwright.config.ts"))
    local config = read(dir .. "/playwright.config.ts")
    assert.is_true(has(config, "\n  workers: 1,\n"), config)
    assert.is_nil(config:find("testDir", 1, true), config)
    -- Every later file that shares is told, in one line.
    assert.is_true(has(three, "\nShares accounts with one.spec.ts, two.spec.ts (as shopper): the playwright.config.ts "
      .. "of " .. dir .. ", where the Run line starts, runs one file at a time."), three)
    assert.is_nil(three:find("⚠️ Tests of", 1, true), three)
    os.remove(dir .. "/playwright.config.ts")
    os.remove(dir .. "/package.json")
  end)

  it("writes the config in the output folder when the folder above is no project, or has a config of its own", function()
    local auth = write(dir .. "/walker.json", '{"cookies":[],"origins":[]}')
    local app = srv.url .. "/export/app.html"
    local s, call = start(("--output-dir %s --role walker %s %s"):format(q(dir .. "/out"), q(auth), app))
    call("browser_navigate", { url = app })
    call("browser_export_test", { filename = "walk-one" })
    call("browser_start_test", { url = app .. "?two" })
    local _, two = call("browser_export_test", { filename = "walk-two" })
    -- The person's own config above: the Run line starts in the output
    -- folder, whose config the first export wrote.
    write(dir .. "/package.json", "{}")
    write(dir .. "/playwright.config.ts", "export default {};\n")
    call("browser_start_test", { url = app .. "?three" })
    local _, three = call("browser_export_test", { filename = "walk-three" })
    assert.equal(0, (s:close(30000)))
    assert.is_true(has(two, "Wrote playwright.config.ts in this folder with workers: 1"), two)
    assert.is_true(has(two, "\nRun: cd " .. dir .. "/out && "), two)
    assert.is_true(has(three, "\nShares accounts with walk-one.spec.ts, walk-two.spec.ts (as walker): this folder's "
      .. "playwright.config.ts runs one file at a time."), three)
    assert.is_true(has(three, "\nRun: cd " .. dir .. "/out && "), three)
    assert.equal("export default {};\n", read(dir .. "/playwright.config.ts"))
    local config = read(dir .. "/out/playwright.config.ts")
    assert.is_true(has(config, "\n  testDir: '.',\n  workers: 1,\n"), config)
    os.remove(dir .. "/playwright.config.ts")
    os.remove(dir .. "/out/playwright.config.ts")
    os.remove(dir .. "/package.json")
  end)

  it("tells of tests of several files that sign in on the page as one account, and not of a run's own", function()
    write(dir .. "/package.json", "{}")
    local app = srv.url .. "/export/signin.html"
    local s, call = start("--output-dir " .. q(dir .. "/out"))
    local function sign_in(email)
      call("browser_navigate", { url = app })
      call("browser_type", { element = "Email", text = email })
      call("browser_click", { element = "Sign in" })
      call("browser_verify_text_visible", { text = "Signed in as" })
    end
    sign_in("ann@shop.test")
    local _, one = call("browser_export_test", { filename = "signin-one" })
    call("browser_start_test", {})
    sign_in("new{run}@shop.test")
    local _, fresh = call("browser_export_test", { filename = "signin-fresh" })
    call("browser_start_test", {})
    sign_in("ann@shop.test")
    local _, two = call("browser_export_test", { filename = "signin-two" })
    assert.equal(0, (s:close(30000)))
    assert.is_nil(one:find("sign in as", 1, true), one)
    -- An account made new in each run is no one else's.
    assert.is_nil(fresh:find("sign in as", 1, true), fresh)
    assert.is_true(has(two, "⚠️ Tests of signin-one.spec.ts (as default) sign in as this test does: Playwright runs "
      .. "files in parallel workers"), two)
    assert.is_true(has(two, "Wrote " .. dir .. "/playwright.config.ts with workers: 1"), two)
    os.remove(dir .. "/playwright.config.ts")
    os.remove(dir .. "/package.json")
  end)

  it("refuses a name the test uses itself, and a value too short to stand for itself", function()
    local s = client.start("--output-dir " .. q(dir .. "/out"))
    s:send(client.initialize(1, "2025-06-18"))
    s:wait_for(1, 10000)
    s:send(client.call(2, "browser_navigate", { url = srv.url .. "/export/order.html" }))
    s:wait_for(2, 60000)
    s:send(client.call(3, "browser_remember", { name = "page", locator = "getByTestId('confirmation')" }))
    s:send(client.call(4, "browser_remember", { name = "n", locator = "getByTestId('confirmation')", pattern = "\\d" }))
    s:send(client.call(5, "browser_remember", { name = "n", locator = "getByTestId('confirmation')", pattern = "Z+" }))
    local a, b, c = s:wait_for(3, 60000).result, s:wait_for(4, 60000).result, s:wait_for(5, 60000).result
    assert.equal(0, (s:close(30000)))
    assert.is_true(has(a.content[1].text, 'name "page" is a word the test uses itself'), a.content[1].text)
    assert.is_true(has(b.content[1].text, "is shorter than 3 characters"), b.content[1].text)
    assert.is_true(has(c.content[1].text, "has no match of /Z+/"), c.content[1].text)
  end)

  it("writes nothing and changes no step when a step failed every run of the replay", function()
    local s, call = start("--output-dir " .. q(dir .. "/out") .. " --tools spec/fixtures/export/record_assert.lua")
    call("browser_navigate", { url = srv.url .. "/export/app.html" })
    call("browser_wait_for", { text = "Who are you?" })
    call("spec_record_assert", { matcher = "toBeVisible", locator = "getByRole('heading', { level: 1 })" })
    call("spec_record_assert", { matcher = "toHaveText", locator = "getByRole('heading', { level: 1 })", value = "Nobody" })
    local _, good = call("browser_export_test", { filename = "never", runs = 2, drop = { 3 } })
    local before = read(dir .. "/out/never.spec.ts")
    call("spec_record_assert", { matcher = "toHaveText", locator = "getByRole('heading', { level: 1 })", value = "Nobody" })
    -- A drop in the refused call is not made: the numbers stay the steps' own.
    local _, text = call("browser_export_test", { filename = "never", runs = 2, drop = { 2 } })
    local _, again = call("browser_export_test", { filename = "never", runs = 2, drop = { 4 } })
    assert.equal(0, (s:close(30000)))
    assert.is_true(has(good, "Dropped 3. [default] expect(page.getByRole('heading', { level: 1 })).toHaveText('Nobody')"),
      good)
    assert.is_true(has(text, "Not written: step 4 failed in every run of the replay, so the file would fail as well. "
      .. "never.spec.ts and the test's steps are as they were (nothing dropped or kept).\n"
      .. "Flake gate: 2 runs in fresh contexts, ⚠️ step 4 failed in every run: "), text)
    assert.is_true(has(text, "\n  4. [default] expect(page.getByRole('heading', { level: 1 })).toHaveText('Nobody')  0/2 ❌ "),
      text)
    assert.is_true(has(text, "\nFix the test, then export again: drop=[4] if the step is wrong;"), text)
    -- What the stopped runs did to the app stays (run AH's carts and orders).
    assert.is_true(has(text, "\nThe replay's runs did steps 1-3 against the live app and stopped there: anything they "
      .. "saved (an item in a cart, an order) is still there, for the session's roles too."), text)
    assert.is_nil(text:find("Playwright", 1, true), text)
    assert.equal(before, read(dir .. "/out/never.spec.ts"))
    -- Step 2, which the refused call would have dropped, is still there.
    assert.is_true(has(again, "Dropped 4. [default] expect(page.getByRole('heading', { level: 1 })).toHaveText('Nobody')"),
      again)
    assert.is_true(has(again, "Flake gate: 2 runs in fresh contexts, every step passed 2/2"), again)
    assert.is_true(has(read(dir .. "/out/never.spec.ts"), "await expect(page.getByRole('heading', { level: 1 })).toBeVisible();"))
  end)

  it("says why a step whose locator found one element finds several in the replay", function()
    local s, call = start("--output-dir " .. q(dir .. "/out") .. " --tools spec/fixtures/export/record_assert.lua")
    call("browser_navigate", { url = srv.url .. "/export/widgets.html" })
    call("browser_click", { element = "Add widget" })
    call("spec_record_assert", { matcher = "toBeVisible", locator = "getByText('Widget', { exact: true })" })
    local _, text = call("browser_export_test", { filename = "widgets", runs = 2 })
    assert.equal(0, (s:close(30000)))
    -- A run may check before its own widget shows: the first to fail
    -- sees two or three.
    assert.matches("\n  3%. %[default%] expect%(page%.getByText%('Widget', { exact: true }%)%)%.toBeVisible%(%)  "
      .. "%d/2 ❌ run %d: [^\n]*matches %d elements\n%s+↳ it matched one element when recorded and %d in a replay: "
      .. "the session and each run seem to add what it finds", text)
  end)

  it("replays a wait for a text with {run} to be absent with each run's own token", function()
    local s, call = start("--output-dir " .. q(dir .. "/out"))
    call("browser_navigate", { url = srv.url .. "/export/items.html" })
    -- Not there yet in this run: the session's own item stays in the
    -- server's list, and a run that waited for it to go waited 30 s.
    local _, gone = call("browser_wait_for", { textGone = "Oak Shelf {run}", timeout = 2000 })
    -- (No warning that it proves nothing: it is absent until the test makes it.)
    assert.is_true(has(gone, "\nIt matched nothing before the wait either: a text with {run} is new in each run"), gone)
    assert.is_nil(gone:find("⚠️", 1, true), gone)
    local _, snap = call("browser_snapshot", {})
    call("browser_type", { element = "Item name", ref = ref_of(snap, 'textbox "Item name"'), text = "Oak Shelf {run}",
      submit = true, expect = { "Oak Shelf {run}" } })
    local _, text = call("browser_export_test", { filename = "shelf", runs = 1 })
    assert.equal(0, (s:close(30000)))
    -- (The catalogue is the next test's again: it counts its own items.)
    for i = #items, 1, -1 do table.remove(items, i) end
    assert.is_true(has(text, "Flake gate: 1 runs in fresh contexts, every step passed 1/1"), text)
  end)

  it("says a wait for a text with {run} to go cannot fail while only a field holds it, and its step's number", function()
    local s, call = start("--output-dir " .. q(dir .. "/out"))
    call("browser_navigate", { url = srv.url .. "/export/items.html" })
    local _, snap = call("browser_snapshot", {})
    -- (Run BU's name stayed in the field of a submit the app refused.)
    call("browser_type", { element = "Item name", ref = ref_of(snap, 'textbox "Item name"'), text = "Elm Shelf {run}" })
    local _, gone = call("browser_wait_for", { textGone = "Elm Shelf {run}", timeout = 2000 })
    assert.equal(0, (s:close(30000)))
    assert.is_true(has(gone, '\n⚠️ The page holds it in the value of textbox "Item name", which getByText does not '
      .. "read: this check cannot fail."), gone)
    assert.is_true(has(gone, "; browser_export_test drop=[3] takes this one out\n"), gone)
  end)

  it("types data unique per run with {run}: answers show {run}, the test writes ${run}, each run adds its own", function()
    local pw = playwright_dir()
    local s, call = start("--output-dir " .. q(dir .. "/out"), pw and ("VDX_PLAYWRIGHT_DIR=" .. q(pw)) or nil)
    call("browser_navigate", { url = srv.url .. "/export/items.html" })
    local _, snap = call("browser_snapshot", {})
    local _, typed = call("browser_type", { element = "Item name", ref = ref_of(snap, 'textbox "Item name"'),
      text = "Teak Lamp {run}" })
    call("browser_click", { element = "Add item button", ref = ref_of(snap, 'button "Add item"') })
    local _, seen = call("browser_verify_text_visible", { text = "Teak Lamp {run}" })
    -- A regular expression with {run} (run AN's kept the session's token).
    call("browser_wait_for", { locator = "getByText(/^teak lamp {run}$/i)" })
    local _, text = call("browser_export_test", { filename = "items", runs = 2 })
    assert.equal(0, (s:close(30000)))
    -- The session's item (the first) has the token where {run} stood;
    -- answers show {run}.
    local token = assert(items[1]:match("^Teak Lamp (%w+)$"), items[1])
    assert.equal(8, #token)
    for _, a in ipairs { typed, seen, text } do
      assert.is_nil(a:find(token, 1, true), a)
    end
    assert.is_true(has(typed, ": Teak Lamp {run} (was empty)"), typed)
    assert.is_true(has(seen, "Teak Lamp {run}"), seen)
    -- The first {run} of the session says what answers do with it; once.
    assert.is_true(has(typed, "\n({run} stands for this test's token, new in each run: the page got the token, "
      .. "answers show {run}, the test writes ${run}.)"), typed)
    assert.is_nil(seen:find("stands for this test's token", 1, true), seen)
    local file = read(dir .. "/out/items.spec.ts")
    assert.is_nil(file:find(token, 1, true), file)
    assert.is_true(has(file, "\n  const run = Date.now().toString(36) + Math.random().toString(36).slice(2, 5);"), file)
    assert.is_true(has(file, ".fill(`Teak Lamp ${run}`);"), file)
    assert.is_true(has(file, "await expect(page.getByText(`Teak Lamp ${run}`)).toBeVisible();"), file)
    assert.is_true(has(file, "await expect(page.getByText(new RegExp(`^teak lamp ${run}$`, 'i'))).toBeVisible();"), file)
    assert.is_true(has(text, "Flake gate: 2 runs in fresh contexts, every step passed 2/2"), text)
    -- The replay's runs and Playwright's each added an item of its own.
    local tokens = {}
    for _, it in ipairs(items) do
      local t = assert(it:match("^Teak Lamp (%w+)$"), it)
      assert.is_nil(tokens[t], "two runs typed " .. it)
      tokens[t] = true
    end
    if pw then
      assert.matches("\nPlaywright %(2 runs of the file%): ✅", text)
      assert.equal(5, #items)
    else
      assert.equal(3, #items)
    end
  end)

  it("writes an action inside an iframe with its chain into the frame, which the gate and verify_locator follow", function()
    local pw = playwright_dir()
    local s, call = start("--output-dir " .. q(dir .. "/out"), pw and ("VDX_PLAYWRIGHT_DIR=" .. q(pw)) or nil)
    call("browser_navigate", { url = srv.url .. "/frames/one.html" })
    local _, snap = call("browser_snapshot", {})
    local _, clicked = call("browser_click", { element = "Inner button", ref = ref_of(snap, 'button "Inner button"') })
    local chain = assert(clicked:match("\nLocator: ([^\n]+)"), clicked)
    assert.matches("%.contentFrame%(%)%.getByRole%('button', { name: 'Inner button' }%)$", chain)
    call("browser_click", { element = "Outside", ref = ref_of(snap, 'button "Outside"') })
    -- The chain the click answered, and the other forms Playwright takes.
    for _, expr in ipairs { chain, "frameLocator('#f').getByRole('button')",
      "locator('#f').contentFrame().getByText('Inner button')" } do
      local r = call("browser_verify_locator", { locator = expr })
      assert.equal(1, r.structuredContent.count, expr)
    end
    local r, none = call("browser_verify_locator", { locator = "getByTitle('Nope').contentFrame().getByRole('button')" })
    assert.equal(0, r.structuredContent.count, none)
    assert.is_true(has(none, "\nWhy: getByTitle('Nope'), the owner of a frame in the chain, matches nothing"), none)
    local _, text = call("browser_export_test", { filename = "frames", runs = 2 })
    assert.equal(0, (s:close(30000)))
    assert.is_true(has(text, "Wrote frames.spec.ts: 3 steps (1 navigations, 2 actions, 0 assertions)"), text)
    assert.is_nil(text:find("have no locator", 1, true), text)
    assert.is_true(has(text, "Flake gate: 2 runs in fresh contexts, every step passed 2/2\n"), text)
    if pw then assert.is_true(has(text, "Playwright (2 runs of the file): ✅ 2 passed"), text) end
    local file = read(dir .. "/out/frames.spec.ts")
    assert.is_true(has(file, "  await page." .. chain .. ".click();\n"
      .. "  await page.getByRole('button', { name: 'Outside' }).click();\n"), file)
  end)

  it("starts the next test where the roles are: on their pages, signed in as they are, their routes kept", function()
    local pw = playwright_dir()
    -- The app by a name only the server's --browser-arg resolves: the
    -- exported test's browser needs the switch too.
    local s, call = start(("--role guest - --caps network --output-dir %s --tools spec/fixtures/export/record_assert.lua "
      .. "--browser-arg %s"):format(q(dir .. "/out"), q("--host-resolver-rules=MAP errands.test 127.0.0.1")),
      pw and ("VDX_PLAYWRIGHT_DIR=" .. q(pw)) or nil)
    local origin = srv.url:gsub("127%.0%.0%.1", "errands.test")
    local app = origin .. "/export/app.html"
    -- The first test: a route, then the guest signs in by name (a cookie).
    call("browser_route", { pattern = "**/export/ping", body = "pong" })
    call("browser_navigate", { url = app })
    call("browser_wait_for", { text = "Who are you?" })
    local _, snap = call("browser_snapshot", {})
    call("browser_type", { element = "Name", ref = ref_of(snap, 'textbox "Name"'), text = "bob" })
    call("browser_click", { element = 'the "Sign in" button' })
    call("spec_record_assert", { matcher = "toBeVisible", locator = "getByRole('heading', { name: 'Welcome, bob' })" })
    local _, first = call("browser_export_test", { filename = "sign-in" })
    -- An action after the export, never exported: the cut says so.
    call("browser_hover", { element = 'the "Add" button' })
    local r, text = call("browser_start_test", { keep_state = true })
    assert.is_true(has(text, "New test started: browser_export_test writes the steps from here.\n"
      .. "⚠️ 1 step was never exported and is dropped.\nEach role starts\n- guest on " .. app
      .. ", as it is (1 cookies, 0 origins with localStorage: test-start-guest-"), text)
    -- What the file is, once a session (runs DF and DK found out from the Run line).
    assert.is_true(has(text, "\n(A test-start file is the session the role has now, cookies and storage: the "
      .. "exported test signs in from it, so its run needs that session alive on the app's server. Without "
      .. "keep_state each role starts from its auth file or signed out, for a test that signs in itself.)\n"), text)
    assert.is_true(has(text, "\nKept: 1 setting of the roles' world still in effect, which the test starts with "), text)
    assert.is_true(has(text, "\n- route **/export/ping (status=200, body=pong)"), text)
    local state = read(r.structuredContent.states[1].file)
    assert.is_true(has(state, '"name":"sid"') and has(state, '"value":"bob"'), state)
    -- The second test starts signed in: it adds an errand and checks it.
    _, snap = call("browser_snapshot", {})
    call("browser_type", { element = "New errand", ref = ref_of(snap, 'textbox "New errand"'), text = "Tea",
      submit = true })
    call("spec_record_assert", { matcher = "toHaveCount", locator = "getByTestId('errand-list').getByRole('listitem')",
      value = "1" })
    local _, second = call("browser_export_test", { filename = "errand", runs = 2 })
    -- A third start with the guest as it was: the same state file again.
    local r3 = call("browser_start_test", { keep_state = true })
    assert.equal(0, (s:close(30000)))
    assert.equal(r.structuredContent.states[1].file, r3.structuredContent.states[1].file)
    assert.is_true(has(second, "Wrote errand.spec.ts: 4 steps (1 navigations, 1 actions, 1 assertions), roles guest\n"),
      second)
    assert.is_true(has(second, "Flake gate: 2 runs in fresh contexts, every step passed 2/2\n"), second)
    if pw then assert.is_true(has(second, "Playwright (2 runs of the file): ✅ 2 passed"), second) end
    local file = read(dir .. "/out/errand.spec.ts")
    local lines = {
      "    args: ['--host-resolver-rules=MAP errands.test 127.0.0.1'],\n",
      "  const guestContext = await browser.newContext({ storageState: process.env.AUTH_GUEST ?? "
        .. "path.join(__dirname, 'test-start-guest-",
      "  await guestContext.route('**/export/ping', ",
      "  await guest.goto(`${BASE_URL}/export/app.html`);\n"
        .. "  await guest.getByRole('textbox', { name: 'New errand' }).fill('Tea');\n",
      "  await expect(guest.getByTestId('errand-list').getByRole('listitem')).toHaveCount(1);\n",
    }
    local at = 0
    for _, line in ipairs(lines) do
      local i = file:find(line, 1, true)
      assert.is_truthy(i, line .. "\n-- not in --\n" .. file)
      assert.is_true(i > at, "out of order: " .. line .. "\n" .. file)
      at = i
    end
    assert.is_nil(file:find("Sign in", 1, true), file)
    assert.is_nil(file:find("hover", 1, true), file)
  end)

  it("starts the next test from the role's auth file while its state is still that file's, else from a saved one",
      function()
    local s, call = start(("--role alice %s %s --caps storage --output-dir %s"):format(q(auth),
      srv.url .. "/export/app.html", q(dir .. "/out")))
    local app = srv.url .. "/export/app.html"
    call("browser_navigate", { url = app })
    call("browser_wait_for", { text = "Welcome, alice" })
    call("browser_export_test", { filename = "alice-one" })
    -- Signed in as the auth file signed her in: the next test loads that
    -- file, as the first did (four play-test agents expected it).
    local r, text = call("browser_start_test", { url = app .. "?two", keep_state = true })
    assert.is_true(has(text, "\n- alice on " .. app .. "?two, as it is, still its auth file's (1 cookies, 0 origins "
      .. "with localStorage: " .. auth .. ")"), text)
    assert.equal(0, #r.structuredContent.states, text)
    call("browser_wait_for", { text = "Welcome, alice" })
    local _, two = call("browser_export_test", { filename = "alice-two" })
    assert.is_true(has(two, "Wrote alice-two.spec.ts: 1 steps (1 navigations"), two)
    -- Her cookie changed (another name signed in): a file of its own.
    call("browser_cookie_set", { name = "sid", value = "carol" })
    local r3, three = call("browser_start_test", { keep_state = true })
    assert.equal(0, (s:close(30000)))
    assert.is_true(has(three, "\n- alice on " .. app .. "?two, as it is (1 cookies, 0 origins with localStorage: "
      .. "test-start-alice-"), three)
    assert.equal(1, #r3.structuredContent.states, three)
    assert.is_true(has(read(r3.structuredContent.states[1].file), '"value":"carol"'))
    local file = read(dir .. "/out/alice-two.spec.ts")
    assert.is_true(has(file, "storageState: process.env.AUTH_ALICE ?? "), file)
    assert.is_nil(file:find("test-start", 1, true), file)
  end)

  it("starts the next test on a URL: its first step is that page, told as browser_navigate tells it", function()
    local s, call = start(("--output-dir %s"):format(q(dir .. "/out")))
    local app = srv.url .. "/export/app.html"
    call("browser_navigate", { url = app })
    -- Nothing to carry over yet: the next test starts signed out.
    local _, fresh = call("browser_start_test", { keep_state = true })
    assert.is_true(has(fresh, "\n- default on " .. app .. ", signed out (no cookies, no localStorage)"), fresh)
    -- A wrong turn (a 404) is said and left out of the test.
    local _, lost = call("browser_navigate", { url = srv.url .. "/export/nope" })
    assert.is_true(has(lost, "\nNot in the test: the page answered 404."), lost)
    -- A test that would start there is warned of.
    local _, there = call("browser_start_test", { keep_state = true })
    assert.is_true(has(there, "\n- default on " .. srv.url .. "/export/nope ⚠️ (it answered 404: browser_navigate "
      .. "the role elsewhere, or give url), "), there)
    call("browser_navigate", { url = app })
    call("browser_wait_for", { text = "Who are you?" })
    call("browser_click", { element = 'the "Sign in" button' })
    call("browser_export_test", { filename = "first" })
    assert.is_nil(read(dir .. "/out/first.spec.ts"):find("nope", 1, true))
    local _, text = call("browser_start_test", { url = app .. "?again", keep_state = true })
    assert.is_true(has(text, "New test started: browser_export_test writes the steps from here.\n"), text)
    assert.is_true(has(text, "\n\nNavigated to " .. app .. "?again"), text)
    -- The role starts on the page it opens; a page looked at is no work lost.
    assert.is_true(has(text, "\n- default on " .. app .. "?again, as it is"), text)
    assert.is_nil(text:find("never exported", 1, true), text)
    local _, wrote = call("browser_export_test", { filename = "again" })
    -- By default the live role is signed out too, as its test starts (a
    -- play-test's provider stayed signed in and recorded on that page; runs
    -- EH, EI, EJ and EL started again with keep_state: false).
    local _, out = call("browser_start_test", { url = app })
    assert.is_true(has(out, "\n- default on " .. app .. ", signed out, its storage reset to it"), out)
    assert.is_nil(out:find("Removed", 1, true), out)   -- again.spec.ts loads its start's state
    call("browser_wait_for", { text = "Who are you?" })
    -- A start's state that no test came to load goes with the next start
    -- (one of its own: a state an earlier start saved is that file again).
    call("browser_type", { element = "Name", text = "Zed" })
    call("browser_click", { element = 'the "Sign in" button' })
    local r = call("browser_start_test", { keep_state = true })
    local unused = r.structuredContent.states[1].file
    assert.is_string(read(unused))
    local _, gone = call("browser_start_test", {})
    assert.is_true(has(gone, "\nRemoved 1 state file of the last start that no written test loads."), gone)
    assert.is_nil(read(unused))
    assert.equal(0, (s:close(30000)))
    assert.is_true(has(wrote, "Wrote again.spec.ts: 1 steps (1 navigations, 0 actions, 0 assertions)"), wrote)
    local file = read(dir .. "/out/again.spec.ts")
    -- Signed in at the cut (a cookie): its own context with that state.
    assert.is_true(has(file, "  await defaultPage.goto(`${BASE_URL}/export/app.html?again`);\n"), file)
  end)

  it("adds the next test to a file the session wrote, replaces the same test there, and keeps the edits made by hand", function()
    local pw = playwright_dir()
    local s, call = start(("--output-dir %s"):format(q(dir .. "/out")), pw and ("VDX_PLAYWRIGHT_DIR=" .. q(pw)) or nil)
    local app = srv.url .. "/export/app.html"
    call("browser_navigate", { url = app })
    call("browser_wait_for", { text = "Who are you?" })
    call("browser_click", { element = 'the "Sign in" button' })
    call("browser_export_test", { filename = "suite" })
    call("browser_start_test", { url = app .. "?second", keep_state = true })
    call("browser_wait_for", { text = "Who are you?" })
    local r2, second = call("browser_export_test", { filename = "suite", runs = 1 })
    assert.is_true(has(second, 'Wrote suite.spec.ts: 1 steps (1 navigations, 0 actions, 0 assertions), roles default; '
      .. 'test "suite 2", 2 of 2 in the file (beside "suite": test_name of one puts this test in its place)\n'), second)
    -- Playwright runs this test alone (file:line), not the suite's others.
    if pw then
      assert.is_true(has(second, "Playwright (1 runs of the test): ✅ 1 passed"), second)
      assert.matches("test 'suite%.spec%.ts:%d+' %-%-reporter=line", r2.structuredContent.playwright_command)
    end
    -- The same test again replaces its own; a title can be given.
    call("browser_click", { element = 'the "Sign in" button' })
    local _, again = call("browser_export_test", { filename = "suite", test_name = "signs in again" })
    assert.is_true(has(again, 'test "signs in again", 2 of 2 in the file'), again)
    local file = read(dir .. "/out/suite.spec.ts")
    assert.is_true(has(file, "test('suite', async ({ page }) => {"), file)
    assert.is_true(has(file, "test('signs in again', async ({ browser }) => {"), file)
    assert.is_nil(file:find("test('suite 2'", 1, true), file)
    assert.equal(1, select(2, file:gsub("import { test, expect }", "")))
    -- A file edited by hand keeps its edits: the same test goes in place
    -- of its own lines, the next one after the rest.
    write(dir .. "/out/suite.spec.ts", (file:gsub("\ntest%('suite'", "\n// mine\ntest('suite'", 1)))
    local _, kept = call("browser_export_test", { filename = "suite" })
    assert.is_true(has(kept, 'test "signs in again", 2 of 2 in the file'), kept)
    local edited = read(dir .. "/out/suite.spec.ts")
    assert.is_true(has(edited, "\n// mine\ntest('suite', async ({ page }) => {"), edited)
    assert.equal(1, select(2, edited:gsub("test%('signs in again'", "")))
    call("browser_start_test", { url = app .. "?third", keep_state = true })
    local _, third = call("browser_export_test", { filename = "suite" })
    assert.is_true(has(third, 'test "suite 3", 3 of 3 in the file (beside "suite", "signs in again": test_name of '
      .. 'one puts this test in its place)'), third)
    edited = read(dir .. "/out/suite.spec.ts")
    assert.is_true(has(edited, "\n// mine\n"), edited)
    assert.matches("test%('signs in again'.*\n}%);\n\ntest%('suite 3', async %({ browser }%) => {\n.*"
      .. "  await defaultPage%.goto%(`%${BASE_URL}/export/app%.html%?third`%);\n.*}%);\n$", edited)
    -- Another recording given an earlier test's title goes in its place.
    call("browser_start_test", { url = app .. "?fourth", keep_state = true })
    local _, fourth = call("browser_export_test", { filename = "suite", test_name = "suite 3" })
    assert.is_true(has(fourth, 'Replaced the file\'s earlier test "suite 3" with this one'), fourth)
    edited = read(dir .. "/out/suite.spec.ts")
    assert.is_nil(edited:find("?third", 1, true), edited)
    assert.equal(1, select(2, edited:gsub("%?fourth", "")))
    -- Edits inside this test's own lines: it is not written over.
    write(dir .. "/out/suite.spec.ts", (edited:gsub("%?fourth", "?4th")))
    s:send(client.call(999, "browser_export_test", { filename = "suite" }))
    local m = s:wait_for(999, 60000)
    assert.equal(0, (s:close(30000)))
    local changed = m.result.content[1].text
    assert.is_true(m.result.isError, changed)
    assert.is_true(has(changed, "suite.spec.ts was edited since this session wrote it, this test's lines too"), changed)
    assert.is_true(has(read(dir .. "/out/suite.spec.ts"), "?4th"))
  end)

  it("takes a test recorded again under its title after browser_start_test in place of the earlier one", function()
    local s, call = start(("--output-dir %s"):format(q(dir .. "/out")))
    local app = srv.url .. "/export/app.html"
    call("browser_navigate", { url = app })
    call("browser_wait_for", { text = "Who are you?" })
    call("browser_export_test", { filename = "redo", test_name = "signs in" })
    call("browser_start_test", { url = app .. "?again" })
    call("browser_wait_for", { text = "Who are you?" })
    call("browser_click", { element = 'the "Sign in" button' })
    local _, again = call("browser_export_test", { filename = "redo", test_name = "signs in" })
    assert.is_true(has(again, '\nReplaced the file\'s earlier test "signs in" with this one\n'), again)
    local file = read(dir .. "/out/redo.spec.ts")
    assert.equal(1, select(2, file:gsub("test%('signs in'", "")), file)
    assert.is_true(has(file, "?again"), file)
    -- Signed in, the next test starts from a state file; recorded again,
    -- the state file only the replaced test loaded goes.
    call("browser_type", { element = "Name", text = "Ada" })
    call("browser_click", { element = 'the "Sign in" button' })
    call("browser_export_test", { filename = "redo", test_name = "signs in" })
    local r1 = call("browser_start_test", { keep_state = true })
    local first_state = r1.structuredContent.states[1].file
    call("browser_type", { element = "New errand", text = "Tea", submit = true })
    call("browser_export_test", { filename = "redo", test_name = "adds an errand" })
    -- The same state again: the same file.
    local same = call("browser_start_test", { keep_state = true }).structuredContent.states[1].file
    -- Signed in as another, the next start saves a state of its own.
    call("browser_start_test", { url = app })
    call("browser_wait_for", { text = "Who are you?" })
    call("browser_type", { element = "Name", text = "Bea" })
    call("browser_click", { element = 'the "Sign in" button' })
    local r2 = call("browser_start_test", { keep_state = true })
    assert.is_string(read(first_state), "a state file a written test loads stays")
    call("browser_type", { element = "New errand", text = "Milk", submit = true })
    call("browser_export_test", { filename = "redo", test_name = "adds an errand" })
    assert.equal(0, (s:close(30000)))
    assert.equal(first_state, same)
    assert.is_not.equal(first_state, r2.structuredContent.states[1].file)
    assert.is_nil(read(first_state), "the state file of the replaced test stays")
    assert.is_string(read(r2.structuredContent.states[1].file))
  end)

  it("changes nothing when it refuses a call, and keeps an assertion sent again once", function()
    local s, call = start(("--output-dir %s"):format(q(dir .. "/out")))
    call("browser_navigate", { url = srv.url .. "/export/app.html" })
    call("browser_wait_for", { text = "Who are you?" })
    call("browser_type", { element = "Name", text = "Ada" })
    local _, clicked = call("browser_click", { element = 'the "Sign in" button' })
    local id = assert(clicked:match("%[(a%d+)%]"), clicked)
    local _, first = call("browser_export_test", { filename = "atomic", assertions = { id } })
    local n = tonumber(first:match(": (%d+) steps"))
    -- A drop sent with an id never proposed: refused, and nothing dropped.
    s:send(client.call(900, "browser_export_test", { filename = "atomic", assertions = { id, "a999" }, drop = { 1 } }))
    local r = s:wait_for(900, 60000).result
    local bad = r.content[1].text
    assert.is_true(r.isError, bad)
    assert.is_true(has(bad, "assertions: a999 was not proposed in this session"), bad)
    local _, same = call("browser_export_test", { filename = "atomic" })
    assert.equal(n, tonumber(same:match(": (%d+) steps")), same)
    -- The kept id again is no error and keeps it once; the drop goes through.
    local _, fine = call("browser_export_test", { filename = "atomic", assertions = { id }, drop = { 3 } })
    assert.equal(0, (s:close(30000)))
    assert.equal(n - 1, tonumber(fine:match(": (%d+) steps")), fine)
    assert.is_true(has(fine, "\nDropped 3. [default] "), fine)
  end)

  it("--save-test writes the session at exit, and nothing for a session without steps", function()
    local file = dir .. "/saved.spec.ts"
    local s, call = start("--save-test " .. q(file))
    call("browser_navigate", { url = srv.url .. "/export/app.html" })
    call("browser_wait_for", { text = "Who are you?" })
    call("browser_click", { element = 'the "Sign in" button' })
    -- Kept current while the server runs: a signal now would leave this.
    local during = read(file) or ""
    assert.equal(0, (s:close(30000)))
    assert.is_true(has(during, "  await page.getByRole('button', { name: 'Sign in' }).click();\n"), during)
    local text = read(file)
    assert.is_string(text, "nothing written at " .. file)
    assert.is_true(has(text, "test('saved', async ({ page }) => {\n"), text)
    assert.is_true(has(text, "  await page.goto(`${BASE_URL}/export/app.html`);\n"), text)
    assert.is_true(has(text, "  await page.getByRole('button', { name: 'Sign in' }).click();\n"), text)
    local empty = dir .. "/empty.spec.ts"
    local s2 = client.start("--save-test " .. q(empty))
    client.caller(s2)
    assert.equal(0, (s2:close(30000)))
    assert.is_nil(read(empty))
  end)
end)
