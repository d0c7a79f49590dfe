--- spec/click_navigation_spec.lua: a navigation an action caused is its
-- result, not its error.  A click that submits a form (POST, answered at
-- once or after a delay) or whose handler sends the page to another site
-- and then keeps the old document's thread busy answers with the new page
-- every time: no CDPError from a round trip that raced the document's
-- replacement (issue 28 saw `Runtime.evaluate: Inspected target navigated
-- or closed` in about 1 run in 30 when the settle's first round trip was
-- an evaluate in the old document; it is Page.getFrameTree since).
local vdx = require "vdx"
local helpers = require "helpers"

describe("a click that navigates", function()
  local srv, call, ctx, roles

  setup(function()
    srv = helpers.serve {
      ["GET /form"] = function(req)
        return ([[<title>form</title><form method="post" action="/submit?delay=%s">
          <input name="q" value="x"><button>Send</button></form>]]):format((req.query or ""):match("delay=(%d+)") or "0")
      end,
      ["POST /submit"] = function(req)
        local delay = tonumber((req.query or ""):match("delay=(%d+)")) or 0
        if delay > 0 then vdx.sleep(delay) end
        return "<title>done</title><h1>Thanks</h1>"
      end,
      ["GET /away"] = function()
        -- The handler sends the page to another site (localhost is not
        -- 127.0.0.1), then a task keeps the old document busy while the
        -- new one commits in another process.
        return ([[<title>away</title><button onclick="location.href = '%s/next';
          setTimeout(() => { const t = Date.now(); while (Date.now() - t < 1000); }, 0)">Go</button>]])
          :format((srv.url:gsub("127%.0%.0%.1", "localhost")))
      end,
      ["GET /next"] = function() return "<title>next</title><h1>Next</h1>" end,
      ["GET /links"] = function()
        return '<title>links</title><a href="/next">Next page</a><a href="/order/1013">Order</a>'
      end,
      ["GET /order/1013"] = function() return "<title>order</title><h1>Order #1013</h1>" end,
      ["GET /signin"] = function()
        return '<title>in</title><h1>Sign in</h1><form method="post" action="/signin"><button>Sign in</button></form>'
      end,
      ["POST /signin"] = function()
        return '<title>in</title><h1>Sign in</h1><div role="alert">Wrong email or password.</div>'
          .. '<form method="post" action="/signin"><button>Sign in</button></form>'
      end,
    }
    call, ctx, roles = helpers.tool_session()
  end)

  teardown(function()
    if roles then roles:close() end
    if srv then srv:close() end
  end)

  it("that submits a form answers with the page the POST led to, every time", function()
    local failures = {}
    for i = 1, 30 do
      local delay = ({ 0, 0, 50, 200 })[i % 4 + 1]
      call("browser_navigate", { url = ("%s/form?delay=%d"):format(srv.url, delay) })
      local ok, res, text = pcall(call, "browser_click", { ref = "e2", element = "Send" })
      if not ok then
        failures[#failures + 1] = ("%d: raised %s"):format(i, tostring(res))
      elseif res.isError or not text:find("Navigated to " .. srv.url .. "/submit", 1, true) then
        failures[#failures + 1] = ("%d: %s"):format(i, text)
      end
    end
    assert.same({}, failures)
  end)

  it("proposes the page it landed on: its URL and top heading, neither when it holds a number", function()
    call("browser_navigate", { url = srv.url .. "/links" })
    local _, text = call("browser_click", { element = "Next page" })
    assert.is_true(text:find("Navigated to " .. srv.url .. "/next", 1, true) ~= nil, text)
    assert.matches("\n%[a%d+%] page toHaveURL%(/\\/next%$/%)\n", text)
    assert.matches("\n%[a%d+%] getByRole%('heading', { name: 'Next' }%) toBeVisible$", text)
    -- An order's number is the next run's another: no check of it is proposed.
    call("browser_navigate", { url = srv.url .. "/links" })
    _, text = call("browser_click", { element = "Order" })
    assert.is_true(text:find("Navigated to " .. srv.url .. "/order/1013", 1, true) ~= nil, text)
    assert.is_nil(text:find("Holds now", 1, true), text)
    -- Back on the page it left, with an alert: what the alert says, not
    -- the heading it showed before too (run EE's wrong password).
    call("browser_navigate", { url = srv.url .. "/signin" })
    _, text = call("browser_click", { element = "Sign in" })
    assert.matches("\n%[a%d+%] getByRole%('alert'%) toHaveText%('Wrong email or password%.'%)", text)
    assert.is_nil(text:find("getByRole('heading'", 1, true), text)
  end)

  it("whose handler leaves for another site answers with that site's page", function()
    for i = 1, 3 do
      call("browser_navigate", { url = srv.url .. "/away" })
      local page = ctx:page()
      page:snapshot()
      local res = page:click("e1")
      assert.is_table(res.navigation, "round " .. i)
      assert.equal(srv.url:gsub("127%.0%.0%.1", "localhost") .. "/next", res.navigation.url)
      local _, text = call("browser_snapshot", {})
      assert.matches('heading "Next"', text, 1, true)
    end
  end)
end)
