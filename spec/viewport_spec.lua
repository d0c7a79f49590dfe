--- Checks of where an element is on screen, over the MCP wire against the
-- real browser: browser_verify_element_visible {in_viewport} records
-- toBeInViewport and fails for an element scrolled out of view (below the
-- fold, or clipped by a scrolling list), and a link to a fragment proposes
-- the URL, as a regular expression of its path, and the part it scrolled
-- to; the exported file passes under Playwright where it is installed,
-- with no CHROMIUM_PATH set.
-- Fixture: spec/fixtures/loop/anchors.html.
local helpers = require "helpers"
local client = require "mcp_client"

local read, q = helpers.read, helpers.quote

-- True when the plain text needle is in s.
local function has(s, needle) return s:find(needle, 1, true) ~= nil end

describe("checks of the viewport", function()
  local srv, dir, s, pw, pw_why, call, ok

  setup(function()
    srv = helpers.serve {}
    dir = client.tmpdir()
    pw, pw_why = helpers.playwright()
    if pw and not pw:match("^/") then pw = io.popen("pwd"):read("l") .. "/" .. pw end
    s = client.start("--output-dir " .. q(dir), pw and ("VDX_PLAYWRIGHT_DIR=" .. q(pw)) or nil)
    call, ok = client.tools(s)
  end)
  teardown(function()
    if s then s:close(30000) end
    if srv then srv:close() end
    if dir then os.execute("rm -rf " .. q(dir)) end
  end)

  local function ref_of(text, pattern)
    return assert(text:match(pattern .. " %[ref=([%w_]+)%]"), pattern .. " not in:\n" .. text)
  end

  local url
  before_each(function()
    url = srv.url .. "/loop/anchors.html"
    ok("browser_navigate", { url = url })
  end)

  it("records toBeInViewport for an element in view, and refuses one below the fold or clipped by its list", function()
    local _, near = ok("browser_verify_element_visible", { role = "button", accessibleName = "Near item",
      in_viewport = true })
    assert.is_true(has(near, "Recorded: await expect(page.getByRole('button', { name: 'Near item' }))"
      .. ".toBeInViewport();"), near)
    -- Visible to toBeVisible, out of view to toBeInViewport.
    for _, name in ipairs { "Deep item", "Far section" } do
      local role = name == "Deep item" and "button" or "region"
      local r, text = call("browser_verify_element_visible", { role = role, accessibleName = name, in_viewport = true })
      assert.is_true(r.isError, text)
      assert.is_true(has(text, "\nPage has: outside the viewport\n"), text)
      assert.is_true(has(text, "is visible but outside the viewport: bring it into view first"), text)
      local _, plain = ok("browser_verify_element_visible", { role = role, accessibleName = name })
      assert.is_true(has(plain, ".toBeVisible();"), plain)
    end
    -- With absent: that it is out of view (run EG's heading a jump scrolled away).
    local _, away = ok("browser_verify_element_visible", { role = "button", accessibleName = "Deep item",
      in_viewport = true, absent = true })
    assert.is_true(has(away, "Recorded: await expect(page.getByRole('button', { name: 'Deep item' }))"
      .. ".not.toBeInViewport();"), away)
    local r, shown = call("browser_verify_element_visible", { role = "button", accessibleName = "Near item",
      in_viewport = true, absent = true })
    assert.is_true(r.isError, shown)
    assert.is_true(has(shown, "getByRole('button', { name: 'Near item' }) is in the viewport"), shown)
  end)

  it("proposes the URL and the part a link to #far scrolled to, and the exported test passes", function()
    ok("browser_start_test", {})
    local _, nav = ok("browser_snapshot", {})
    local _, text = ok("browser_click", { ref = ref_of(nav, 'link "Go far"') })
    text = text .. "\n"
    assert.is_true(has(text, "\nURL now #far\n"), text)
    -- A new URL is the click's doing: no "still a step, drop it if only a try".
    assert.is_nil(text:find("Recorded as step", 1, true), text)
    local url_id = text:match("\n%[(a%d+)%] page toHaveURL%(/\\/loop\\/anchors\\%.html#far%$/%)\n")
    -- The section by its heading: a tall one is in view while any of it shows.
    local view_id = text:match("\n%[(a%d+)%] getByRole%('heading', { name: 'Far section' }%) toBeInViewport\n")
    assert.is_string(url_id, text)
    assert.is_string(view_id, text)
    -- Now in view, and the verify tool agrees.
    local _, seen = ok("browser_verify_element_visible", { role = "region", accessibleName = "Far section",
      in_viewport = true })
    assert.is_true(has(seen, ".toBeInViewport();"), seen)
    -- Going back proposes where it went back to, as a link's click does (run EG).
    local _, back = ok("browser_navigate_back", {})
    assert.matches("\n%[a%d+%] page toHaveURL%(/\\/loop\\/anchors\\%.html%$/%)", back)
    -- Within the document nothing loaded: no status (run ER read one as a load).
    assert.is_nil(back:find("(status", 1, true), back)
    local _, out = ok("browser_export_test", { filename = "anchors", assertions = { url_id, view_id },
      runs = pw and 2 or nil })
    local file = assert(read(dir .. "/anchors.spec.ts"), out)
    -- The test opens the page where the click was made, not where it led.
    assert.is_true(has(file, "  await page.goto(`${BASE_URL}/loop/anchors.html`);\n"
      .. "  await page.getByRole('link', { name: 'Go far' }).click();\n"
      .. "  await expect(page).toHaveURL(/\\/loop\\/anchors\\.html#far$/);\n"
      .. "  await expect(page.getByRole('heading', { name: 'Far section' })).toBeInViewport();\n"), file)
    if pw then
      assert.is_true(has(out, "Flake gate: 2 runs in fresh contexts, every step passed 2/2"), out)
      assert.is_true(has(out, "Playwright (2 runs of the file): ✅ 2 passed"), out)
      -- As a user types it: no CHROMIUM_PATH, and no browser of Playwright's
      -- own to fall back on; the file finds the one it was recorded with.
      -- The app is served by this process: pw_run.shell turns the loop meanwhile.
      local st, run = require("vdx.pw_run").shell(("cd %s && env -u CHROMIUM_PATH PLAYWRIGHT_BROWSERS_PATH=%s "
        .. "NODE_PATH=%s %s test anchors.spec.ts --reporter=line --output=%s 2>&1"):format(q(dir), q(dir .. "/none"),
        q(pw .. "/node_modules"), q(pw .. "/node_modules/.bin/playwright"), q(dir .. "/results")), 300000)
      assert.equal(0, st, run)
      assert.is_true(has(run, "1 passed"), run)
    else
      io.stderr:write("\n[viewport] Playwright not run: " .. tostring(pw_why) .. "\n")
    end
  end)

  it("proposes only the URL for a fragment that names no element (a hash route)", function()
    local _, nav = ok("browser_navigate", { url = srv.url .. "/loop/hash.html" })
    local _, text = ok("browser_click", { ref = ref_of(nav, 'link "Fruits B"') })
    assert.matches("\n%[a%d+%] page toHaveURL%(/\\/loop\\/hash\\%.html#\\/b%$/%)\n", text)
    assert.is_nil(text:find("toBeInViewport", 1, true), text)
  end)
end)

describe("p:expect_in_viewport in a flow", function()
  local srv
  setup(function() srv = helpers.serve {} end)
  teardown(function() if srv then srv:close() end end)

  it("passes for a part a link scrolled to, fails for one below the fold, and exports toBeInViewport", function()
    local flow = require "vdx.flow"
    local status, f = flow.run({ name = "anchors", base_url = srv.url, quiet = true, timeout_ms = 1500 }, function(fl)
      fl:role("reader", { url = "/loop/anchors.html" })
      fl:as("reader", function(r)
        r:expect_in_viewport("button", "Near item")
        r:click("link", "Go far")
        r:expect_in_viewport("region", "Far section")
      end)
    end)
    assert.equal(0, status, f.failure and f.failure.text)
    local text = require("vdx.flow_export").text(f)
    assert.is_true(has(text, "\n  await expect(reader.getByRole('region', { name: 'Far section' })).toBeInViewport();\n"),
      text)
    status, f = flow.run({ name = "below", base_url = srv.url, quiet = true, timeout_ms = 500 }, function(fl)
      fl:role("reader", { url = "/loop/anchors.html" })
      fl:as("reader", function(r) r:expect_in_viewport("region", "Far section") end)
    end)
    assert.is_not.equal(0, status)
    assert.is_true(has(f.failure.text, "is in the viewport; last seen: visible, outside the viewport"), f.failure.text)
  end)
end)
