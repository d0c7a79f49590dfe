-- vdx.run_token: `{run}` in an agent's text, the token it stands for,
-- and the exported test's template literals on `${run}`.
local run_token = require "vdx.run_token"
local session_log = require "vdx.session_log"

describe("vdx.run_token", function()
  it("makes tokens of Date.now().toString(36)'s shape, each new", function()
    local a, b = run_token.new(), run_token.new()
    assert.matches("^[0-9a-z]+$", a)
    assert.equal(8, #a)
    assert.are_not.equal(a, b)
  end)

  it("puts the current test's token in every string that holds {run}, and a new one after a restart", function()
    local log = session_log.new()
    local same = { text = "plain" }
    assert.equal(same, run_token.arguments(same, log))
    assert.is_nil(log:run_token())
    local args = { text = "Teak Lamp {run}", fields = { { value = "ann+{run}@example.com" } }, n = 3 }
    local out = run_token.arguments(args, log)
    local t = log:run_token()
    assert.equal("Teak Lamp " .. t, out.text)
    assert.equal("ann+" .. t .. "@example.com", out.fields[1].value)
    assert.equal(3, out.n)
    assert.equal("Teak Lamp {run}", args.text)   -- the caller's table is left as it was
    assert.equal(t, log:run_token(true))
    log:restart()
    assert.is_nil(log:run_token())
    assert.are_not.equal(t, run_token.arguments({ x = "{run}" }, log).x)
  end)

  it("shows the token as {run} in answers, image data aside", function()
    local msg = { content = { { type = "text", text = "typed Teak Lamp abc12345" },
      { type = "image", data = "xxabc12345" } } }
    local out = run_token.answer(msg, { "abc12345" })
    assert.equal("typed Teak Lamp {run}", out.content[1].text)
    assert.equal("xxabc12345", out.content[2].data)
    assert.equal(msg, run_token.answer(msg, {}))
  end)

  it("leaves a part marked verbatim as it reads, the marks dropped", function()
    local shown = { { "#1002", "{order}" } }
    local text = "Remembered {order} = " .. run_token.verbatim('"#1002"') .. "; row #1002 paid"
    assert.equal('Remembered {order} = "#1002"; row {order} paid', run_token.answer(text, shown))
    assert.equal("#1002", run_token.answer({ v = run_token.verbatim("#1002") }, shown).v)
  end)

  it("writes each literal holding the token as a template on run, escapes kept", function()
    local tok = "k3x9q2ab"
    local cases = {
      { "await page.getByLabel('Name').fill('Teak Lamp k3x9q2ab');",
        "await page.getByLabel('Name').fill(`Teak Lamp ${run}`);" },
      { [[await expect(page.getByText("it's k3x9q2ab")).toBeVisible();]],
        [[await expect(page.getByText(`it's ${run}`)).toBeVisible();]] },
      { [[x('it\'s `k3x9q2ab` ${y}')]], [[x(`it\'s \`${run}\` \${y}`)]] },
      { "await page.goto(`${BASE_URL}/items/k3x9q2ab`);", "await page.goto(`${BASE_URL}/items/${run}`);" },
      { "page.getByRole('row').filter({ hasText: 'k3x9q2ab' }).getByRole('button', { name: 'Edit' })",
        "page.getByRole('row').filter({ hasText: `${run}` }).getByRole('button', { name: 'Edit' })" },
    }
    for _, c in ipairs(cases) do
      local got, changed = run_token.for_test(c[1], tok, "run")
      assert.equal(c[2], got)
      assert.is_true(changed)
    end
    -- An order number that is a filter's whole text: bounded, "#1015" is no "#10150".
    assert.equal("admin.getByRole('row').filter({ hasText: new RegExp(`${order}(?!\\\\d)`) }).getByRole('button')",
      (run_token.for_test("admin.getByRole('row').filter({ hasText: '#1015' }).getByRole('button')", "#1015", "order")))
    -- A number alone is bounded before it too.
    assert.equal("row.filter({ hasText: new RegExp(`(?<!\\\\d)${n}(?!\\\\d)`) })",
      (run_token.for_test("row.filter({ hasText: '1015' })", "1015", "n")))
    -- A text before a remembered number is kept, the number bounded
    -- (run CL's `#${orderNo}` found "#10010" too).
    assert.equal("row.filter({ hasText: new RegExp(`#${orderNo}(?!\\\\d)`) })",
      (run_token.for_test("row.filter({ hasText: '#1001' })", "1001", "orderNo")))
    assert.equal("row.filter({ hasText: new RegExp(`Order #${n}(?!\\\\d)`) })",
      (run_token.for_test("row.filter({ hasText: 'Order #1001' })", "1001", "n")))
    -- Not a run token, which is no number (run CN's `Teak Lamp ${run}`).
    assert.equal("row.filter({ hasText: `Teak Lamp ${run}` })",
      (run_token.for_test("row.filter({ hasText: 'Teak Lamp k3x9q2a8' })", "k3x9q2a8", "run")))
    -- One with a character a RegExp reads is a template, as before.
    assert.equal("row.filter({ hasText: `No. ${n}` })",
      (run_token.for_test("row.filter({ hasText: 'No. 1001' })", "1001", "n")))
    assert.equal("getByRole('row').filter({ hasText: /#1001(?!\\d)/ })",
      run_token.bounded("getByRole('row').filter({ hasText: '#1001' })", "1001"))
    -- The flake gate checks the same bound, as a RegExp literal.
    assert.same({ locator = "getByRole('row').filter({ hasText: /#1015(?!\\d)/ })", value = "#1015" },
      run_token.bounded({ locator = "getByRole('row').filter({ hasText: '#1015' })", value = "#1015" }, "#1015"))
    assert.equal("getByText('Ann')", run_token.bounded("getByText('Ann')", "Ann"))
    assert.equal("admin.getByText(`${order} paid`)", (run_token.for_test("admin.getByText('#1015 paid')", "#1015", "order")))
    -- A regular expression literal that holds it is a RegExp of a template
    -- (run AN's /Bad (Price|Discount) <token>/ passed in every later run).
    assert.equal("page.getByTestId('row').filter({ hasText: new RegExp(`Bad (Price|Discount) ${run}`) })",
      (run_token.for_test("page.getByTestId('row').filter({ hasText: /Bad (Price|Discount) k3x9q2ab/ })", tok, "run")))
    assert.equal("page.getByText(new RegExp(`^\\\\d+ k3x\\\\/ ${run}[/]`, 'i'))",
      (run_token.for_test("page.getByText(/^\\d+ k3x\\/ k3x9q2ab[/]/i)", tok, "run")))
    -- One left open (a line cut short) is left as it is.
    assert.equal("x(/a k3x9q2ab", (run_token.for_test("x(/a k3x9q2ab", tok, "run")))
    -- One without the token, and a division, are left as they are.
    assert.equal("x(/a\\/b/g, `${run}`)", (run_token.for_test("x(/a\\/b/g, 'k3x9q2ab')", tok, "run")))
    assert.same({ "page.goto('/a');", false }, { run_token.for_test("page.goto('/a');", tok, "run") })
    assert.same({ "x", false }, { run_token.for_test("x", nil, "run") })
  end)

  it("swaps the token in a copy of a session's steps for a replay's run", function()
    local f = function() end
    local steps = { { kind = "action", value = "Teak Lamp old12345", replay = f, values = { "old12345" } } }
    local out = run_token.swap(steps, "old12345", "new12345")
    assert.equal("Teak Lamp new12345", out[1].value)
    assert.equal("new12345", out[1].values[1])
    assert.equal(f, out[1].replay)
    assert.equal("Teak Lamp old12345", steps[1].value)
  end)
end)

describe("f:run_token() in a flow", function()
  local h = require "spec.helpers"
  local srv
  setup(function() srv = h.serve() end)
  teardown(function() if srv then srv:close() end end)

  it("types the run's token and exports it as ${run}, made anew in each run of the test", function()
    local flow = require "vdx.flow"
    local status, f = flow.run({ name = "unique", base_url = srv.url, quiet = true, timeout_ms = 10000 }, function(fl)
      fl:role("seller", { url = "/loop/form.html" })
      fl:as("seller", function(s)
        s:fill("textbox", "Full name", "Teak Lamp " .. fl:run_token())
        assert.equal("Teak Lamp " .. fl:run_token(), s.page:evaluate("document.querySelector('input').value"))
      end)
    end)
    assert.equal(0, status, f.failure and f.failure.text)
    local token = f:run_token()
    local text = require("vdx.flow_export").text(f)
    assert.is_nil(text:find(token, 1, true), text)
    assert.is_true(text:find("\n  const run = Date.now().toString(36) + Math.random().toString(36).slice(2, 5);", 1, true) ~= nil, text)
    assert.is_true(text:find(".fill(`Teak Lamp ${run}`);", 1, true) ~= nil, text)
  end)
end)

describe("vdx.proposals.without_ids", function()
  local proposals = require "vdx.proposals"
  it("frees #1001 in a name or a text, and keeps a toHaveText's longest part without it", function()
    local heading = proposals.without_ids { matcher = "toBeVisible",
      locator = "getByRole('heading', { name: 'Payment for order #1001' })" }
    assert.equal("getByRole('heading', { name: /Payment for order #\\d+/ })", heading.locator)
    local status = proposals.without_ids { matcher = "toHaveText", locator = "getByRole('status')",
      value = "Order #1001 is confirmed: $25.00 paid." }
    assert.same({ "toContainText", "is confirmed: $25.00 paid." }, { status.matcher, status.value })
    assert.equal("getByText(/Bob\\x27s order #\\d+/)",
      proposals.without_ids({ matcher = "toBeVisible", locator = [[getByText('Bob\'s order #12')]] }).locator)
    local plain = { matcher = "toBeVisible", locator = "getByText('Order 1001')" }
    assert.equal(plain, proposals.without_ids(plain))
  end)
end)
