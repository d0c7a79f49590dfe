--- examples/flow.lua: the marketplace scenario with three roles.
--
--   build/vdxlua examples/flow.lua                 # starts the demo app in this process
--   build/vdxlua examples/flow.lua http://shop.test:8080   # or uses a running one
--   build/vdxlua examples/flow.lua --endpoint 'ws://127.0.0.1:3000/chromium?token=SECRET'
--                                  # every role on a browser farm (docs/farms.md)
--   build/vdxlua examples/flow.lua --report out/ --trace out/trace.json \
--                                  --emit-playwright out/marketplace.spec.ts
--
-- The provider adds a product with a discount, the customer sees it, the
-- provider changes the price, the customer sees the new price, rates it
-- (a widget in a shadow root), checks out and pays in the payment
-- provider's cross-origin iframe, and the admin sees the paid order.  The
-- provider and the customer sign in through the login pages; the admin
-- starts signed in from a Playwright storageState file.
local here = (arg and arg[0] or "examples/flow.lua"):match("^(.*)/[^/]*$") or "."
package.path = here .. "/marketplace/?.lua;" .. package.path

local flow = require "vdx.flow"
local marketplace = require "app"

-- A remote browser (--endpoint: a farm) gets none of the launch flags
-- below, so shop.test and pay.test would not resolve there: the app then
-- goes by 127.0.0.1 and localhost, two origins any browser on this
-- machine reaches, so the payment frame stays cross-origin.
local remote = flow.options.endpoint ~= nil
local base, app = arg and arg[1], nil
if not base then
  app = marketplace.start(remote and { shop_host = "127.0.0.1", pay_host = "localhost" } or nil)
  base = app.url
end
local shop_host = base:match("^%a+://([^:/]+)")

-- The admin's auth file: next to the exported spec when there is one (the
-- spec refers to it), else in a temporary file.
local out = flow.options.emit_playwright
local auth_dir = out and ((out:match("^(.*)/[^/]*$") or ".") .. "/auth") or nil
local admin_auth
if auth_dir then
  os.execute("mkdir -p '" .. auth_dir .. "'")
  admin_auth = auth_dir .. "/admin.json"
else
  admin_auth = os.tmpname()
end
marketplace.auth_file("admin", admin_auth, shop_host)

local PRODUCT = "Desk Lamp"
local CARD = { test_id = "product-card", text = PRODUCT }
local ROW = { test_id = "product-row", text = PRODUCT }

local function sign_in(p, email, greeting)
  p:step("sign in", function()
    p:fill("textbox", "Email", email)
    p:fill({ label = "Password" }, "demo")
    p:click("button", "Sign in")
    p:expect_text(greeting)
  end)
end

local status = flow.run({
  name = "marketplace: discount, price change, checkout, order",
  base_url = base,
  browser_args = not remote and { ("--host-resolver-rules=MAP %s 127.0.0.1, MAP pay.test 127.0.0.1"):format(shop_host) }
    or nil,
}, function(f)
  f:role("provider", { url = "/provider/login" })
  f:role("customer", { url = "/customer/login" })
  f:role("admin", { auth = admin_auth, url = "/admin/orders" })

  f:as("provider", function(p)
    sign_in(p, "pro@market.test", "Welcome, Pat")
    p:step("add a product with a discount", function()
      p:fill("textbox", "Product name", PRODUCT)
      p:fill("textbox", "Price ($)", "40")
      p:fill("textbox", "Discount (%)", "25")
      p:click("button", "Add product")
      p:expect_text("Added “" .. PRODUCT .. "” at $30.00.")
      p:expect_count({ test_id = "product-row" }, 1)
    end)
  end)

  -- The customer signs in while the admin opens the (still empty) orders page.
  f:parallel {
    function() f:as("customer", function(c) sign_in(c, "ann@market.test", "Hello, Ann") end) end,
    function()
      f:as("admin", function(a)
        a:step("open the orders page", function() a:expect_text("No orders yet.") end)
      end)
    end,
  }

  f:as("customer", function(c)
    c:step("see the discounted product", function()
      c:expect_text("$30.00", { within = CARD })
      c:expect_visible({ test_id = "discount-badge" }, { within = CARD })
      c:expect_text("-25%", { within = CARD })
    end)
  end)

  f:as("provider", function(p)
    p:step("change the price", function()
      p:fill("textbox", "New price", "48", { within = ROW })
      p:click("button", "Update price", { within = ROW })
      p:expect_text("$48.00", { within = ROW })
    end)
  end)

  f:as("customer", function(c)
    c:step("see the new price", function()
      c:expect_text("$36.00", { within = CARD })
    end)
    c:step("rate the product", function()
      c:click("button", "Rate 5 stars", { within = CARD })
      c:expect_text("Thanks for rating 5 of 5!", { within = CARD })
    end)
    c:step("add it to the cart", function()
      c:click("button", "Add to cart", { within = CARD })
      c:expect_visible("link", "Cart (1)")
      c:click("link", "Cart (1)")
      c:expect_url("/shop/cart")
      c:expect_count({ test_id = "cart-line" }, 1)
      c:expect_text("Total: $36.00")
    end)
    c:step("check out and pay in the payment frame", function()
      c:click("button", "Checkout")
      c:in_frame("Payment", function()
        c:fill("textbox", "Name on card", "Ann Example")
        c:fill("textbox", "Card number", "4242 4242 4242 4242")
        c:click("button", "Pay $36.00")
        c:expect_text("Paid $36.00", { frame = "Payment" })
      end)
      c:expect_text("is confirmed: $36.00 paid.")
    end)
  end)

  f:as("admin", function(a)
    a:step("see the paid order", function()
      local order = { test_id = "order-row", text = PRODUCT }
      a:expect_text("Paid", { within = order })
      a:expect_text("$36.00", { within = order })
      a:expect_text("Ann", { within = order })
    end)
  end)
end)

if app then app:close() end
if not auth_dir then os.remove(admin_auth) end
return status
