--- spec/flow_spec.lua: vdx.flow against the demo marketplace — targets by
-- role, name, scope and ref; the locators written for Playwright; parallel
-- roles; the trace; and failures, in process and as a `vdxlua` exit status.
local helpers = require "helpers"

package.path = "examples/marketplace/?.lua;" .. package.path

describe("vdx.flow_locator #unit", function()
  local locator = require "vdx.flow_locator"

  it("writes role, label, test id and scoped locators", function()
    assert.equal("getByRole('button', { name: 'Sign in' })", locator.of { role = "button", name = "Sign in" })
    assert.equal("getByRole('button', { name: 'Sign in', exact: true })",
      locator.of { role = "button", name = "Sign in", exact = true })
    assert.equal("getByLabel('Password')", locator.of { label = "Password" })
    assert.equal("getByTestId('product-card').filter({ hasText: 'Desk Lamp' }).getByRole('button', { name: 'Add to cart' })",
      locator.of { role = "button", name = "Add to cart", within = { test_id = "product-card", text = "Desk Lamp" } })
    assert.equal("getByTestId('row').getByText('x').nth(2)", locator.of { text = "x", within = "row", nth = 2 })
    assert.equal([['it\'s \\ fine']], locator.quote([[it's \ fine]]))
  end)

  it("tells refs and specs apart", function()
    assert.is_true(locator.is_ref("e12"))
    assert.is_true(locator.is_ref("f2e7"))
    assert.is_false(locator.is_ref("button"))
    for _, bad in ipairs { "e0", "e01", "f0e1", "f01e1", "f1x_e1", "f1_e1", "e1x", "f1e", "E1", "" } do
      assert.is_false(locator.is_ref(bad), bad)
    end
    assert.is_true(locator.is_spec { test_id = "x" })
    assert.is_false(locator.is_spec { within = "x" })
  end)
end)

describe("vdx.flow", function()
  local flow = require "vdx.flow"
  local marketplace = require "app"
  local app, tmp

  lazy_setup(function()
    app = marketplace.start()
    tmp = os.tmpname()
    os.remove(tmp)
    os.execute("mkdir -p " .. tmp)
  end)

  lazy_teardown(function()
    if app then app:close() end
    os.execute("rm -rf " .. tmp)
  end)

  it("acts by ref, exports a verified scoped locator, runs roles in parallel and traces", function()
    local auth = marketplace.auth_file("customer", tmp .. "/customer.json")
    local status, f = flow.run({ name = "by ref", base_url = app.url, browser_args = app.browser_args,
      quiet = true, trace = tmp .. "/trace.json", emit_playwright = tmp .. "/ref.spec.ts" }, function(f)
      f:role("customer", { auth = auth, url = "/shop" })
      f:role("provider", { url = "/provider/login" })
      f:parallel {
        function() f:as("customer", function(c) c:expect_text("Ceramic Mug") end) end,
        function() f:as("provider", function(p) p:expect_text("Provider sign in") end) end,
      }
      f:as("customer", function(c)
        c:step("add the mug by its ref", function()
          local ref = c:snapshot():match('Ceramic Mug.-button "Add to cart" %[ref=(e%d+)%]')
          assert.is_string(ref)
          c:click(ref)
          c:expect_visible("link", "Cart (1)")
          c:expect_count({ test_id = "product-card" }, 3)
        end)
      end)
      f:as("provider", function(p)
        p:step("type and read back", function()
          p:fill("textbox", "Email", "pro@market.test")
          p:expect_value("textbox", "Email", "pro@market.test")
        end)
      end)
    end)
    assert.equal(0, status)
    assert.is_nil(f.failure)
    local spec = io.open(tmp .. "/ref.spec.ts"):read("a")
    assert.matches("await customer.getByTestId('product-card').filter({ hasText: 'Ceramic Mug' })" ..
      ".getByRole('button', { name: 'Add to cart' }).click();", spec, 1, true)
    -- The auth file next to the spec: AUTH_CUSTOMER, else relative to it.
    assert.matches("browser.newContext({ storageState: process.env.AUTH_CUSTOMER ?? path.join(__dirname, " ..
      "'customer.json') })", spec, 1, true)
    assert.matches("await Promise.all([", spec, 1, true)
    assert.matches("await expect(provider.getByRole('textbox', { name: 'Email' })).toHaveValue('pro@market.test');",
      spec, 1, true)
    assert.matches("await expect(customer.getByTestId('product-card')).toHaveCount(3);", spec, 1, true)
    assert.is_nil(spec:find(".nth(", 1, true))
    local trace = require("vdx.json").decode(io.open(tmp .. "/trace.json"):read("a"))
    assert.is_true(trace.ok)
    assert.same({ "add the mug by its ref", "type and read back" }, { trace.steps[1].name, trace.steps[2].name })
    local clicked
    for _, e in ipairs(trace.events) do
      if e.kind == "click" then clicked = e end
    end
    assert.equal("customer", clicked.role)
    assert.equal("add the mug by its ref", clicked.step)
    assert.matches("^e%d+$", clicked.ref)
    assert.matches("/shop$", clicked.url)
  end)

  it("stops at an ambiguous target with the formatted error and a screenshot", function()
    local status, f = flow.run({ name = "ambiguous", base_url = app.url, browser_args = app.browser_args,
      quiet = true, artifacts = tmp .. "/amb" }, function(f)
      f:role("customer", { auth = marketplace.auth_file("customer", tmp .. "/c2.json"), url = "/shop" })
      f:as("customer", function(c)
        c:step("add something", function() c:click("button", "Add to cart") end)
      end)
    end)
    assert.equal(1, status)
    assert.equal("AmbiguousTarget", f.failure.error.type)
    local text = f.failure.text
    assert.matches("^❌ The target matches more than one element\n", text)
    assert.matches("\nStep: add something\n", text, 1, true)
    assert.matches("\nActing as: customer\n", text, 1, true)
    assert.matches("\nMessage: 3 elements match getByRole('button', { name: 'Add to cart' })\n", text, 1, true)
    assert.matches("\nURL: " .. app.url .. "/shop\n", text, 1, true)
    assert.equal(tmp .. "/amb/001-failure-customer.png", f.failure.screenshot)
    assert.equal("\137PNG", io.open(f.failure.screenshot, "rb"):read(4))
  end)

  it("exits non-zero from vdxlua with the error, the step and a screenshot", function()
    local out, status = helpers.run(helpers.vdxlua .. " spec/fixtures/flow/failing.lua " .. tmp .. "/fail")
    assert.equal(1, status)
    assert.matches("✗ %[provider%] sign in", out)
    assert.is_nil(out:find("second step, not run", 1, true))
    assert.matches("❌ Expectation not met\nStep: sign in\nFlow: spec/fixtures/flow/failing.lua:14\n"
      .. "Screenshot: " .. tmp .. "/fail/001-failure-provider.png\n", out, 1, true)
    assert.matches("Acting as: provider\nURL: http://shop.test:%d+/provider/login%?error=1\n", out)
    assert.matches("Possible causes:", out, 1, true)
    assert.matches("🔧 Action Required:", out, 1, true)
    assert.equal("\137PNG", io.open(tmp .. "/fail/001-failure-provider.png", "rb"):read(4))
  end)
end)

describe("wrong input in a flow, named where it enters", function()
  local vdx = require "vdx"
  local flow = require "vdx.flow"
  local rows = {}
  for i = 1, 40 do rows[#rows + 1] = ("<li>Item %d <button>Open %d</button></li>"):format(i, i) end
  local PAGE = "<title>Long</title><h1>Shop</h1><ul>" .. table.concat(rows) .. "</ul><h2>Basket</h2>"
    .. "<p>Welcome back, Patricia</p><button disabled>Pay now</button>"
  local srv
  lazy_setup(function()
    srv = assert(vdx.serve { routes = { ["GET /"] = function() return { body = PAGE } end } })
  end)
  lazy_teardown(function() srv:close() end)

  -- Runs body(f) as a quiet flow on the long page; returns the failure.
  local function failing(body, opts)
    local o = { base_url = srv.url, quiet = true, timeout_ms = 1000 }
    for k, v in pairs(opts or {}) do o[k] = v end
    if o.base_url == false then o.base_url = nil end
    local status, f = flow.run(o, body)
    assert.equal(1, status)
    return f.failure
  end

  -- The failure of act(c) as the one role, customer, opened on the long page.
  local function customer_fails(act, opts)
    local without_base = opts and opts.base_url == false
    return failing(function(f)
      f:role("customer", { url = not without_base and "/" or nil })
      f:as("customer", act)
    end, opts)
  end

  it("says a mistyped role is unknown, with the nearest and the declared ones, and shows no other role's page", function()
    local fail = failing(function(f)
      f:role("customer", { url = "/" })
      f:role("provider", { url = "/" })
      f:as("customer", function(c)
        c:step("look", function() c:expect_text("Basket") end)
        c:step("switch", function() f:as("custmer", function() end) end)
      end)
    end)
    assert.equal("RoleUnknown", fail.error.type)
    assert.matches("^❌ Unknown role\nStep: switch\nFlow: [^\n]*flow_spec%.lua:%d+\nRoles: customer, provider\n", fail.text)
    assert.matches("Message: there is no role \"custmer\" (did you mean \"customer\"?); the flow declares customer, provider\n",
      fail.text, 1, true)
    assert.matches("1. Use one of the roles listed", fail.text, 1, true)
    assert.is_nil(fail.screenshot)
    for _, other in ipairs { "Acting as:", "Screenshot:", "URL:", "Snapshot excerpt:", "Traceback" } do
      assert.is_nil(fail.text:find(other, 1, true), other)
    end
  end)

  it("names a URL without its scheme, and a path without base_url, repeating the URL", function()
    local fail = customer_fails(function(c) c:navigate("localhost:3000") end)
    assert.equal("InvalidURL", fail.error.type)
    assert.matches("\nMessage: navigate: \"localhost:3000\" is not a URL the browser can open: the scheme is missing; "
      .. "did you mean \"http://localhost:3000\"?\n", fail.text, 1, true)
    assert.is_nil(fail.text:find("ERR_ABORTED", 1, true))
    fail = customer_fails(function(c) c:navigate("/shop") end, { base_url = false })
    assert.matches("Message: navigate: \"/shop\" is not a URL the browser can open: it is a path, with no scheme and no "
      .. "host (a flow puts it under base_url)\n", fail.text, 1, true)
    assert.matches("give flow.run a base_url", fail.text, 1, true)
    -- A role's URL is checked where the role is declared, before any browser starts.
    fail = failing(function(f) f:role("customer", { url = "shop.test:8080/" }) end)
    assert.matches("\nFlow: [^\n]*flow_spec%.lua:%d+\n", fail.text)
    assert.matches("Message: f:role customer: url: \"shop.test:8080/\" is not a URL the browser can open: the scheme is "
      .. "missing; did you mean \"http://shop.test:8080/\"?\n", fail.text, 1, true)
    assert.is_nil(fail.screenshot)
  end)

  it("shows the snapshot around the closest match of expected text, not the top of the page", function()
    local fail = customer_fails(function(c) c:expect_text("Welcome, Patricia") end)
    local excerpt = fail.text:match("\nSnapshot excerpt:\n(.*)$")
    assert.matches("\n  - paragraph: Welcome back, Patricia   ← the closest match\n", excerpt, 1, true)
    assert.matches("^  …\n", excerpt)
    assert.is_nil(excerpt:find("Item 1\n", 1, true))
    assert.is_nil(excerpt:find("Open 33", 1, true))
  end)

  it("shows the snapshot around the target an action aimed at", function()
    local fail = customer_fails(function(c) c:click("button", "Pay now") end)
    local excerpt = fail.text:match("\nSnapshot excerpt:\n(.*)$")
    assert.matches('\n  %- button "Pay now" %[disabled%] %[ref=e%d+%]   ← the target$', excerpt)
    assert.is_nil(excerpt:find("Item 1\n", 1, true))
    fail = customer_fails(function(c) c:click("button", "Pay later") end)
    excerpt = fail.text:match("\nSnapshot excerpt:\n(.*)$")
    assert.matches('\n  %- button "Pay now" %[disabled%] %[ref=e%d+%]   ← the closest match$', excerpt)
  end)
end)
