--- spec/emulate_tools_spec.lua: browser_emulate and browser_emulate_media
-- as the MCP server calls them, against the real browser and a page on
-- 127.0.0.1: what the page and the server see, the role's other tabs,
-- browser_resize keeping a device's scale, typed errors for bad input,
-- and the session's export (devices[...], timezoneId and locale as
-- options of the role's context, emulateMedia and setGeolocation as
-- statements).
local vdx = require "vdx"
local helpers = require "helpers"
local json = require "vdx.json"

local PAGE = [[<!doctype html><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Device</title><h1>Device</h1><p id="heard">%s|%s</p>]]

local FACTS = [[JSON.stringify({ width: innerWidth, height: innerHeight, scale: devicePixelRatio,
  agent: navigator.userAgent, coarse: matchMedia('(pointer: coarse)').matches,
  dark: matchMedia('(prefers-color-scheme: dark)').matches,
  reduce: matchMedia('(prefers-reduced-motion: reduce)').matches, print: matchMedia('print').matches,
  zone: Intl.DateTimeFormat().resolvedOptions().timeZone, language: navigator.language,
  heard: document.getElementById('heard').textContent })]]

-- A layout that changes with the viewport and the colour scheme: a menu
-- button in place of the navigation below 640 pixels, and a theme line a
-- matchMedia listener rewrites.
local LAYOUT = [[<!doctype html><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Layout</title><style>.menu { display: none } @media (max-width: 640px) { nav { display: none } .menu { display: inline } }</style>
<button class="menu">Menu</button><nav aria-label="Site"><a href="#a">Overview</a> <a href="#b">History</a></nav>
<p id="theme"></p><script>
const dark = matchMedia('(prefers-color-scheme: dark)');
const show = () => { document.getElementById('theme').textContent = 'Theme: ' + (dark.matches ? 'dark' : 'light'); };
dark.addEventListener('change', show); show();
</script>]]

describe("browser_emulate and browser_emulate_media", function()
  local srv, call, ctx, roles

  lazy_setup(function()
    srv = assert(vdx.serve { port = 0, routes = {
      ["GET /layout"] = function() return LAYOUT end,
      ["GET /wide"] = function() return "<!doctype html><title>Wide</title><h1>Desktop only</h1>" end,
      ["GET /"] = function(req)
        local h = req.headers or {}
        return PAGE:format(h["user-agent"] or "-", h["accept-language"] or "-")
      end,
    } })
    call, ctx, roles = helpers.tool_session()
  end)

  lazy_teardown(function()
    if roles then roles:close() end
    if srv then srv:close() end
  end)

  local function facts()
    return json.decode(ctx:page():evaluate(FACTS))
  end

  local function ok(name, args)
    local res, text = call(name, args)
    assert.is_nil(res.isError, text)
    return res, text
  end

  it("says only what it set when there is no earlier look at the page to compare with", function()
    local _, text = ok("browser_emulate_media", { colorScheme = "light" })
    -- With its step's number, which drop takes (run FN worked its media
    -- changes' numbers out to drop them).
    assert.equal("Emulating: color_scheme=light (step 1).", text)
    ok("browser_emulate_media", { reset = { "colorScheme" } })
  end)

  it("answers what a resize or a colour scheme changed on the page, with a check of the new layout", function()
    ok("browser_navigate", { url = srv.url .. "/layout" })
    ok("browser_snapshot", {})
    local _, text = ok("browser_resize", { width = 375, height = 667 })
    assert.matches('^Resized the viewport to 375x667 %(step %d+%)\nChanges %(%+1 %-%d+ ~0%):\n%+ button "Menu" %[ref=e%d+%]\n'
      .. '%- navigation "Site"', text)
    assert.matches("getByRole('button', { name: 'Menu' }) toBeVisible", text, 1, true)
    -- The navigation the narrow screen folded away is proposed hidden.
    assert.matches("getByRole('navigation', { name: 'Site' }) toBeHidden", text, 1, true)
    -- The page's matchMedia listener has run before the answer reads it.
    _, text = ok("browser_emulate_media", { colorScheme = "dark" })
    assert.matches('\n~ paragraph: "Theme: dark" (was "Theme: light")', text, 1, true)
    _, text = ok("browser_emulate_media", { reset = { "colorScheme" } })
    assert.matches('\n~ paragraph: "Theme: light" (was "Theme: dark")', text, 1, true)
    ok("browser_resize", { width = 1280, height = 720 })
  end)

  it("emulates a device, a timezone, a locale and a position for the role, and media on its page", function()
    ok("browser_navigate", { url = srv.url .. "/" })
    local res, text = ok("browser_emulate", { device = "iPhone 13", timezone = "Europe/Oslo", locale = "nb-NO",
      geolocation = { latitude = 59.91, longitude = 10.75 } })
    assert.matches("device=iPhone 13", text, 1, true)
    assert.equal("Europe/Oslo", res.structuredContent.emulation.timezone)
    ok("browser_navigate", { url = srv.url .. "/" })
    local f = facts()
    local ua = require("vdx.devices").list["iPhone 13"].user_agent
    assert.same({ 390, 664, 3, true, ua, "Europe/Oslo", "nb-NO" },
      { f.width, f.height, f.scale, f.coarse, f.agent, f.zone, f.language })
    assert.equal(ua .. "|nb-NO", f.heard)
    local pos = ctx:page():evaluate([[new Promise(r => navigator.geolocation.getCurrentPosition(
      p => r([p.coords.latitude, p.coords.longitude]), e => r(['refused', e.message])))]])
    assert.same({ 59.91, 10.75 }, pos)

    ok("browser_emulate_media", { colorScheme = "dark", reducedMotion = "reduce", media = "print" })
    f = facts()
    assert.same({ true, true, true }, { f.dark, f.reduce, f.print })
    ok("browser_emulate_media", { reset = { "media" } })
    f = facts()
    assert.same({ true, true, false }, { f.dark, f.reduce, f.print })

    -- A resize keeps the device's scale and mobile layout.
    ok("browser_resize", { width = 360, height = 640 })
    f = facts()
    assert.same({ 360, 640, 3 }, { f.width, f.height, f.scale })

    -- A new tab of the role gets the role's device, timezone and locale.
    ok("browser_tabs", { action = "new" })
    ok("browser_navigate", { url = srv.url .. "/" })
    f = facts()
    assert.same({ 390, 3, "Europe/Oslo", "nb-NO" }, { f.width, f.scale, f.zone, f.language })
    ok("browser_tabs", { action = "close" })
  end)

  it("answers a bad device, timezone or locale with a typed error, and the role goes on", function()
    local res, text = call("browser_emulate", { device = "iPhone 99" })
    assert.is_true(res.isError)
    assert.equal("InvalidArgument", res.error.type)
    assert.matches("known: Desktop Chrome, ", text, 1, true)
    res, text = call("browser_emulate", { timezone = "Nowhere/Land" })
    assert.is_true(res.isError)
    assert.matches("Invalid timezone id", text, 1, true)
    res, text = call("browser_emulate", { locale = "not a locale!" })
    assert.is_true(res.isError)
    assert.matches("Invalid locale", text, 1, true)
    res = call("browser_emulate_media", { colorScheme = "night" })
    assert.is_true(res.isError)
    assert.equal("InvalidArgument", res.error.type)
    ok("browser_navigate", { url = srv.url .. "/" })
    assert.equal("Europe/Oslo", facts().zone)
  end)

  it("exports the role's device, timezone and locale as context options and the rest as statements", function()
    local text = require("vdx.session_export").text(ctx.session:list(), { base_url = srv.url })
    assert.matches("import { test, expect, devices } from '@playwright/test';", text, 1, true)
    assert.matches("const defaultPageContext = await browser.newContext({ ...devices['iPhone 13'], "
      .. "timezoneId: 'Europe/Oslo', locale: 'nb-NO' });", text, 1, true)
    assert.matches("await defaultPageContext.grantPermissions(['geolocation']);\n"
      .. "  await defaultPageContext.setGeolocation({ latitude: 59.91, longitude: 10.75, accuracy: 0 });", text, 1, true)
    assert.matches("await defaultPage.emulateMedia({ colorScheme: 'dark', reducedMotion: 'reduce', media: 'print' });",
      text, 1, true)
    assert.matches("await defaultPage.emulateMedia({ media: null });", text, 1, true)
    -- browser_resize is the test's too: a phone layout the agent saw is the one it checks.
    assert.matches("await defaultPage.setViewportSize({ width: 360, height: 640 });", text, 1, true)
    assert.matches("// device, timezone, locale: options of defaultPageContext", text, 1, true)
  end)

  it("writes a session test that passes in real Playwright with the device the agent emulated", function()
    local pw, why = helpers.playwright()
    if not pw then
      pending(why)
      return
    end
    if not pw:match("^/") then pw = io.popen("pwd"):read("l") .. "/" .. pw end
    -- What the agent verified (as browser_verify_* records it): the
    -- server heard an iPhone in Norwegian, the page sees Oslo and a phone
    -- of the size browser_resize gave it.
    ctx.session:add { kind = "assert", role = "default", matcher = "toContainText", locator = "locator('#heard')",
      value = "iPhone" }
    ctx.session:add { kind = "assert", role = "default", matcher = "toContainText", locator = "locator('#heard')",
      value = "|nb-NO" }
    ctx.session:add { kind = "code", role = "default", lines = {
      "expect(await {page}.evaluate(() => [innerWidth, devicePixelRatio, "
        .. "Intl.DateTimeFormat().resolvedOptions().timeZone])).toEqual([360, 3, 'Europe/Oslo']);" } }
    local dir = os.tmpname()
    os.remove(dir)
    os.execute("mkdir -p " .. helpers.quote(dir))
    local file = dir .. "/emulate.spec.ts"
    assert(require("vdx.session_export").write(ctx.session:list(), file, { base_url = srv.url }))
    -- The app runs in this process: pw_run.shell turns the loop while
    -- Playwright runs.
    local cmd = ("cd %s && CHROMIUM_PATH=%s BASE_URL=%s NODE_PATH=%s/node_modules %s/node_modules/.bin/playwright "
      .. "test emulate.spec.ts"):format(helpers.quote(dir), os.getenv("CHROMIUM_PATH") or "/usr/bin/chromium",
      srv.url, pw, pw)
    local rc, out = require("vdx.pw_run").shell(cmd, 300000)
    os.execute("rm -rf " .. helpers.quote(dir))
    assert.equal(0, rc, out)
    assert.matches("1 passed", out)
  end)

  it("says when a page lays out wider than the device's screen (no viewport meta tag)", function()
    ok("browser_emulate", { reset = { "device" } })
    ok("browser_navigate", { url = srv.url .. "/wide" })
    local _, text = ok("browser_emulate", { device = "iPhone 13" })
    assert.matches("\nThe page lays out 980 CSS pixels wide, not the device's 390", text, 1, true)
    -- A page made for phones says nothing of it.
    ok("browser_navigate", { url = srv.url .. "/layout" })
    _, text = ok("browser_emulate", { device = "Pixel 7" })
    assert.is_nil(text:find("lays out", 1, true), text)
    ok("browser_emulate", { reset = { "device" } })
    -- Nor a blank page, which has no tag either (run EK emulated a phone
    -- right after browser_start_test had closed its page).
    ok("browser_navigate", { url = "about:blank" })
    _, text = ok("browser_emulate", { device = "iPhone 13" })
    assert.is_nil(text:find("lays out", 1, true), text)
    ok("browser_emulate", { reset = { "device" } })
  end)
end)
