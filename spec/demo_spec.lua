--- spec/demo_spec.lua: the demo as a newcomer runs it.  examples/flow.lua
-- runs the three-role marketplace scenario end to end (with its trace, its
-- HTML report and the Playwright export); where Node and npm are available
-- the command the export printed is run as printed, from another folder
-- (its config starts a fresh demo app), and must pass; examples/embed.lua
-- runs under stock lua5.4.
local helpers = require "helpers"

local STEPS = {
  "[provider] sign in", "[provider] add a product with a discount", "[customer] sign in",
  "[admin] open the orders page", "[customer] see the discounted product", "[provider] change the price",
  "[customer] see the new price", "[customer] rate the product", "[customer] add it to the cart",
  "[customer] check out and pay in the payment frame", "[admin] see the paid order",
}

local read = helpers.read

describe("the demo", function()
  local dir, pw, pw_why, printed

  lazy_setup(function()
    dir = os.tmpname()
    os.remove(dir)
    os.execute("mkdir -p " .. dir)
    pw, pw_why = helpers.playwright()
    if pw and not pw:match("^/") then pw = io.popen("pwd"):read("l") .. "/" .. pw end
  end)

  lazy_teardown(function()
    os.execute("rm -rf " .. dir)
  end)

  it("is what `make demo` runs", function()
    assert.matches("\n\t%$%(B%)/vdxlua examples/flow%.lua\n", read("Makefile"))
  end)

  it("runs the marketplace flow end to end and writes the trace, report and Playwright spec", function()
    local out, status = helpers.run(("%s%s examples/flow.lua --trace %s/trace.json --report %s/report " ..
      "--emit-playwright %s/pw/marketplace.spec.ts"):format(pw and ("VDX_PLAYWRIGHT_DIR=" .. pw .. " ") or "",
      helpers.vdxlua, dir, dir, dir))
    assert.equal(0, status, out)
    local last = 0
    for _, step in ipairs(STEPS) do
      local at = out:find("✓ " .. step .. " (", 1, true)
      assert.is_number(at, step)
      -- The admin's first step runs in parallel with the customer's sign-in.
      local parallel = step:match("^%[admin%] open") ~= nil
      assert.is_true(at > last or parallel, step)
      if not parallel then last = at end
    end
    assert.matches("✔ marketplace: discount, price change, checkout, order: 11 steps in %d+ ms", out)

    local trace = require("vdx.json").decode(read(dir .. "/trace.json"))
    assert.is_true(trace.ok)
    assert.equal(11, #trace.steps)
    local html = read(dir .. "/report/index.html")
    assert.matches("<h1>marketplace: discount, price change, checkout, order <span class=\"ok\">passed</span></h1>",
      html, 1, true)
    for _, s in ipairs(trace.steps) do
      assert.equal("\137PNG", read(s.screenshot):sub(1, 4), s.name)
      assert.matches("src=\"shots/", html, 1, true)
    end

    local spec = read(dir .. "/pw/marketplace.spec.ts")
    -- Nothing of this run's temporary set-up is written into the spec: the
    -- base URL and the auth files come from the environment (or sit next
    -- to the spec), and the command that runs it is printed.
    assert.matches("browser.newContext({ storageState: process.env.AUTH_ADMIN ?? path.join(__dirname, " ..
      "'auth/admin.json') })", spec, 1, true)
    assert.is_nil(spec:find(dir, 1, true))
    assert.is_nil(spec:find("shop.test:%d"))
    local function esc(x) return (x:gsub("%p", "%%%0")) end
    assert.matches(esc("wrote " .. dir .. "/pw/marketplace.spec.ts and its config " .. dir .. "/pw/marketplace.config.ts\n"
      .. "The config starts the flow's app (") .. "%S+/vdxlua %S+/examples/flow%.lua %-%-serve%-only (%d+)%) on port %1 "
      .. "before the test%.\n", out)
    printed = out:match("\nRun it with:\n  ([^\n]+)\n")
    if pw then
      assert.matches("^CHROMIUM_PATH=%S+ " .. esc("AUTH_ADMIN=" .. dir .. "/pw/auth/admin.json NODE_PATH=" .. pw
        .. "/node_modules " .. pw .. "/node_modules/.bin/playwright test --config " .. dir
        .. "/pw/marketplace.config.ts") .. "$", printed or out)
    else
      assert.matches("^" .. esc("cd " .. dir .. "/pw && CHROMIUM_PATH=") .. "%S+ " .. esc("AUTH_ADMIN=" .. dir
        .. "/pw/auth/admin.json npx playwright test --config marketplace.config.ts") .. "$", printed or out)
    end
    assert.matches("await customer.getByTestId('product-card').filter({ hasText: 'Desk Lamp' })" ..
      ".getByRole('button', { name: 'Add to cart' }).click();", spec, 1, true)
    assert.matches("await customer.frameLocator('iframe[title=\"Payment\"]').getByRole('textbox', " ..
      "{ name: 'Card number' }).fill('4242 4242 4242 4242');", spec, 1, true)
    assert.matches("await expect(customer).toHaveURL(/\\/shop\\/cart/);", spec, 1, true)
    assert.is_nil(spec:find(".nth(", 1, true))
  end)

  it("exports a Playwright spec that passes when the printed command is run as printed (needs Node and npm)", function()
    if not pw then
      pending(pw_why)
      return
    end
    if not printed then
      pending("the flow did not export")
      return
    end
    -- From another folder, the flow long ended: the config starts a fresh
    -- demo app (vdxlua examples/flow.lua --serve-only PORT).
    os.execute("mkdir -p " .. dir .. "/elsewhere")
    local out, st = helpers.run(("cd %s/elsewhere && timeout 600 sh -c %s"):format(dir, helpers.quote(printed)))
    assert.equal(0, st, out)
    assert.matches("1 passed", out)
  end)

  it("embeds in stock lua5.4", function()
    if os.getenv("VDX_ASAN") then
      pending("stock lua5.4 cannot load the sanitizer build of vdx.so")
      return
    end
    local out, status = helpers.run(("LUA_CPATH='%s/?.so;;' LUA_PATH='lua/?.lua;;' lua5.4 examples/embed.lua")
      :format(os.getenv("VDX_BUILD") or "build"))
    assert.equal(0, status, out)
    assert.matches("Customer sign in · Marketplace (200) http://shop.test:", out, 1, true)
    assert.matches('  - button "Sign in" [ref=e5]\n', out, 1, true)
    assert.matches("Provider sign in · Marketplace\nAdmin sign in · Marketplace\n", out, 1, true)
  end)
end)

describe("the demo app's selectors", function()
  it("has a verified unique selector for at least 97% of its refs, on every role's pages", function()
    local vdx = require "vdx"
    local cjson = require "cjson"
    package.path = "examples/marketplace/?.lua;" .. package.path
    local app = require("app").start()
    local browser <close> = vdx.launch { args = app.browser_args }
    local with, total = 0, 0
    local pages = { customer = { "/shop", "/shop/cart" }, provider = { "/provider" }, admin = { "/admin/orders" } }
    for _, role in ipairs { "customer", "provider", "admin" } do
      local auth = os.tmpname()
      app:auth_file(role, auth)
      local state = cjson.decode(read(auth))
      os.remove(auth)
      local ctx = browser:new_context()
      browser:send("Storage.setCookies", { cookies = state.cookies, browserContextId = ctx:id() })
      local page = ctx:new_page()
      for _, path in ipairs(pages[role]) do
        page:navigate(app.url .. path)
        if path == "/shop" then page:wait_for { text = "Ceramic Mug" } else page:wait_for { time_ms = 300 } end
        page:snapshot()
        local cov = page:selector_coverage()
        print(("\n# selector coverage %s %s: %d/%d"):format(role, path, cov.with_selector, cov.refs))
        with, total = with + cov.with_selector, total + cov.refs
      end
    end
    app:close()
    assert.is_true(total > 20)
    assert.is_true(with / total >= 0.97, ("%d/%d"):format(with, total))
  end)
end)
