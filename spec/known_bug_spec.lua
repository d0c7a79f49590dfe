--- The verify tools' known_bug: a check of what the app should do and
-- does not (an Add to cart that fails and shows nothing), recorded though
-- the page disagrees, exported as a test marked test.fail() that the
-- flake gate and Playwright pass while the bug is there.
local helpers = require "helpers"
local client = require "mcp_client"

local q = helpers.quote

local function has(s, needle) return s:find(needle, 1, true) ~= nil end

local SHOP = [[<!doctype html><meta charset=utf-8><title>Shop</title>
<main><h1>Shop</h1><button id=b>Add to cart</button><p id=ok></p></main><script>
b.onclick = async () => {
  const r = await fetch('/kb/cart', { method: 'POST' });
  if (r.ok) ok.textContent = 'Added';
  // The bug: a failure shows nothing.
};
</script>]]

describe("a check of a known bug", function()
  local srv, dir, s, call
  setup(function()
    srv = helpers.serve {
      ["GET /kb/shop.html"] = function() return { headers = { ["Content-Type"] = "text/html" }, body = SHOP } end,
      ["POST /kb/cart"] = function() return { status = 500, json = { error = "out of stock" } } end,
    }
    dir = client.tmpdir()
    s = client.start("--output-dir " .. q(dir .. "/out"), (helpers.playwright_env()))
    call = client.tools(s, 240000)
  end)
  teardown(function() client.stop(s, srv, dir) end)

  it("is recorded though the page disagrees, and the test is written with test.fail()", function()
    call("browser_navigate", { url = srv.url .. "/kb/shop.html" })
    call("browser_click", { element = "Add to cart" })
    -- Without known_bug the check fails, and nothing is recorded.
    local plain = call("browser_verify_element_visible", { role = "alert", accessibleName = "" })
    assert.is_true(plain.isError)
    local r, text = call("browser_verify_element_visible", { role = "alert", accessibleName = "",
      known_bug = "A failed Add to cart shows no error" })
    assert.is_nil(r.isError, text)
    assert.matches("^❌ Page disagrees, as the bug does%. Recorded as a known bug: "
      .. "await expect%(page%.getByRole%('alert'%)%)%.toBeVisible%(%); %(step %d+%)\nThe test is written with test%.fail%(%)", text)
    assert.equal("A failed Add to cart shows no error", r.structuredContent.known_bug)
    -- A check the page agrees with shows no bug: nothing is recorded.
    local _, shown = call("browser_verify_text_visible", { text = "Shop", known_bug = "no title" })
    assert.matches("^✅ Page agrees: await expect%(page%.getByText%('Shop'%)%)%.toBeVisible%(%); holds, so it shows no "
      .. "bug now%. Nothing recorded", shown)
    -- A bug must be named: it is the test's test.fail() reason.
    local blank, why = call("browser_verify_text_visible", { text = "Shop", known_bug = " " })
    assert.is_true(blank.isError, why)
    assert.matches("known_bug: say what the app does wrong", why, 1, true)
    -- A step after the bug's check runs (the check is soft), and what its
    -- failure would mean is said (runs FE and FK made the check soft by
    -- hand to reach what came after it).
    call("browser_verify_text_visible", { text = "Shop" })
    local _, out = call("browser_export_test", { filename = "kb", runs = 2 })
    assert.is_true(has(out, "\nStep 4 runs after the known bug's check (step 3), which is soft: a failure there "
      .. "would pass as the test's expected failure too, so a check that matters goes in a test of its own"), out)
    local file = helpers.read(dir .. "/out/kb.spec.ts")
    -- test.fail() right before the bug's check, not at the top, where it
    -- passed the test whichever step failed (run ET).
    assert.is_true(has(file, "  // Known bug: A failed Add to cart shows no error\n"
      .. "  test.fail(true, 'A failed Add to cart shows no error');\n"
      .. "  await expect.soft(page.getByRole('alert')).toBeVisible();\n"
      .. "  await expect(page.getByRole('heading', { name: 'Shop' })).toBeVisible();\n"), file)
    assert.equal(1, select(2, file:gsub("test%.fail%(", "")), file)
    assert.is_true(file:find("test.fail(", 1, true) > file:find("getByRole('button'", 1, true), file)
    -- The gate passes the check by its failing in each run, and goes on.
    assert.is_true(has(out, "every step passed 2/2"), out)
    if helpers.playwright_env() then assert.is_true(has(out, "✅ 2 passed"), out) end
  end)
end)
