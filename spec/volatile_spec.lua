--- spec/volatile_spec.lua: vdx.volatile, the policy that leaves the
-- changing parts of a recorded action's names free (a price, a count in
-- parentheses, an app-numbered id), and over a real `vdxlua mcp` a
-- checkout whose Pay button reads the cart's total, which each run of the
-- test makes larger: the click is recorded by the rest of its name, and the
-- flake gate passes both runs.
local volatile = require "vdx.volatile"
local helpers = require "helpers"
local client = require "mcp_client"

local q = helpers.quote

describe("vdx.volatile", function()
  it("frees prices, counts in parentheses and app-numbered ids, and nothing else", function()
    assert.equal("Pay \\$[\\d.,]+", volatile.regex("Pay $10.80"))
    assert.equal("^Cart \\(\\d+\\)$", volatile.regex("Cart (4)", nil, true))
    assert.equal("Order #\\d+ paid", volatile.regex("Order #1001 paid"))
    assert.equal("Total [\\d.,]+ €", volatile.regex("Total 12,50 €"))
    assert.equal("\\$ [\\d.,]+ total\\.", volatile.regex("$ 1,200.00 total."))
    -- An id the test remembered is written as read in each run: kept.
    assert.is_nil(volatile.regex("Order #1001 paid", { ["#1001"] = true }))
    for _, s in ipairs { "Pay now", "Item 1", "Processing payment…", "Top 10 tips", "Room 101" } do
      assert.is_nil(volatile.regex(s), s)
    end
  end)

  it("writes a locator's changing names as regexes, anchored where the string was exact", function()
    assert.equal("getByRole('button', { name: /Pay \\$[\\d.,]+/ })",
      volatile.loosen("getByRole('button', { name: 'Pay $10.80' })"))
    assert.equal("getByRole('link', { name: /^Cart \\(\\d+\\)$/ })",
      volatile.loosen("getByRole('link', { name: 'Cart (4)', exact: true })"))
    assert.equal("getByText(/^Total: \\$[\\d.,]+$/)", volatile.loosen("getByText('Total: $5', { exact: true })"))
    assert.equal("getByTestId('card').filter({ hasText: /Order #\\d+/ }).getByRole('button', { name: 'Refund' })",
      volatile.loosen("getByTestId('card').filter({ hasText: 'Order #1001' }).getByRole('button', { name: 'Refund' })"))
    assert.is_nil(volatile.loosen("getByRole('button', { name: 'Pay now' })"))
    assert.is_nil(volatile.loosen("getByTestId('price-$5')"))
  end)
end)

describe("a recorded click on a name that holds the cart's total", function()
  local srv, dir, s, call
  local items = 0

  setup(function()
    srv = helpers.serve {
      ["GET /cart"] = function()
        local total = ("%.2f"):format(items * 5.40)
        return ([[<title>Cart</title><h1>Cart (%d)</h1>
          <button onclick="fetch('/api/add', { method: 'POST' }).then(r => r.json()).then(j => {
            const t = '$' + (j.items * 5.4).toFixed(2);
            document.querySelector('h1').textContent = 'Cart (' + j.items + ')';
            pay.textContent = 'Pay ' + t; later.textContent = 'Pay ' + t + ' later' })">Add item</button>
          <button id="pay" onclick="out.textContent = 'Paid'">Pay $%s</button>
          <button id="later">Pay $%s later</button><p id="out"></p>]]):format(items, total, total)
      end,
      ["GET /two"] = function()
        return [[<title>Two</title><button>Pay $5.40</button><button>Pay $3.00</button>]]
      end,
      ["POST /api/add"] = function()
        items = items + 1
        return { json = { items = items } }
      end,
    }
    dir = client.tmpdir()
    s = client.start("--output-dir " .. q(dir .. "/out"))
    call = select(2, client.caller(s))
  end)
  teardown(function() client.stop(s, srv, dir) end)

  local function text(r) return client.text { result = r } end

  it("is recorded by the rest of its name, and the gate passes the runs that change the total", function()
    call("browser_navigate", { url = srv.url .. "/cart" })
    local r = call("browser_click", { element = "Add item button" })
    assert.is_not_true(r.isError, text(r))
    r = call("browser_click", { element = "Pay $5.40 button" })
    assert.is_not_true(r.isError, text(r))
    -- A regex of its words that finds it alone ("Pay $5.40 later" holds them too: anchored).
    assert.matches("Locator: getByRole('button', { name: /^Pay \\$[\\d.,]+$/ })\nNote: the amount, count or id in "
      .. "its name is left free: a later run's page may show another", text(r), 1, true)
    r = call("browser_verify_text_visible", { text = "Paid" })
    assert.is_not_true(r.isError, text(r))
    r = call("browser_export_test", { filename = "pay", runs = 2 })
    assert.matches("every step passed 2/2", text(r), 1, true)
    local file = assert(helpers.read(dir .. "/out/pay.spec.ts"))
    assert.matches("getByRole('button', { name: /^Pay \\$[\\d.,]+$/ }).click();", file, 1, true)
  end)

  it("keeps the name as it reads when the freed one would find another element too", function()
    call("browser_navigate", { url = srv.url .. "/two" })
    local r = call("browser_click", { element = "Pay $5.40 button" })
    assert.is_not_true(r.isError, text(r))
    assert.matches("Locator: getByRole('button', { name: 'Pay $5.40' })", text(r), 1, true)
  end)
end)
