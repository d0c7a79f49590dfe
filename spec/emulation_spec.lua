--- spec/emulation_spec.lua: page:emulate and ctx:emulate against the real
-- browser and a page served on 127.0.0.1: what the page reads (viewport,
-- scale, touch, user agent, media features, media type, geolocation,
-- timezone, language) and what the server receives (User-Agent,
-- Accept-Language); a context's settings on its later pages and popups;
-- clearing; and the typed errors of bad input.
local vdx = require "vdx"
local helpers = require "helpers"

local PAGE = [[<!doctype html><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Device</title><style>
body { color: rgb(0, 0, 0); }
@media (prefers-color-scheme: dark) { body { color: rgb(255, 255, 255); } }
@media print { h1 { display: none; } }
</style><h1>Device</h1><p id="heard">%s|%s</p>]]

-- What the page sees, as one table.
local FACTS = [[JSON.stringify({
  width: innerWidth, height: innerHeight, scale: devicePixelRatio, agent: navigator.userAgent,
  coarse: matchMedia('(pointer: coarse)').matches, touch: 'ontouchstart' in window,
  dark: matchMedia('(prefers-color-scheme: dark)').matches, color: getComputedStyle(document.body).color,
  reduce: matchMedia('(prefers-reduced-motion: reduce)').matches,
  forced: matchMedia('(forced-colors: active)').matches,
  print: matchMedia('print').matches, heading: getComputedStyle(document.querySelector('h1')).display,
  zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  offset: new Date(Date.UTC(2026, 0, 15)).getTimezoneOffset(),
  language: navigator.language, number: (1234.5).toLocaleString(),
  heard: document.getElementById('heard').textContent })]]

local function facts(page)
  return require("vdx.json").decode(page:evaluate(FACTS))
end

describe("page:emulate", function()
  local srv, browser, ctx

  lazy_setup(function()
    srv = assert(vdx.serve { port = 0, routes = {
      ["GET /"] = function(req)
        local h = req.headers or {}
        return PAGE:format(h["user-agent"] or "-", h["accept-language"] or "-")
      end,
    } })
    browser = vdx.launch {}
  end)

  lazy_teardown(function() helpers.shut(browser, srv) end)

  before_each(function() ctx = browser:new_context() end)
  after_each(function() ctx:close() end)

  it("makes a device preset's viewport, scale, touch and user agent what the page and the server see", function()
    local page = ctx:new_page()
    local iphone = require("vdx.devices").list["iPhone 13"]
    page:emulate { device = "iPhone 13" }
    page:navigate(srv.url .. "/")
    local f = facts(page)
    assert.same({ 390, 664, 3 }, { f.width, f.height, f.scale })
    assert.equal(iphone.user_agent, f.agent)
    assert.equal(iphone.user_agent .. "|-", f.heard)
    assert.is_true(f.coarse)
    assert.is_true(f.touch)
    assert.equal("iPhone 13", page:emulation().device)
    -- false clears the device: the browser's own again.
    page:emulate { device = false }
    page:navigate(srv.url .. "/")
    f = facts(page)
    assert.is_false(f.coarse)
    assert.equal(1, f.scale)
    assert.is_nil(f.agent:find("iPhone", 1, true))
    assert.same({}, page:emulation())
  end)

  it("lets explicit keys win over the device's and keeps the device's scale on a resize", function()
    local page = ctx:new_page()
    page:emulate { device = "Pixel 5", viewport = { width = 500, height = 600 }, user_agent = "vdx-test-agent" }
    page:navigate(srv.url .. "/")
    local f = facts(page)
    assert.same({ 500, 600, 2.75, "vdx-test-agent" }, { f.width, f.height, f.scale, f.agent })
    page:emulate { viewport = { width = 320.0, height = 480 } }   -- JSON's 320 may arrive as a float
    f = facts(page)
    assert.same({ 320, 480, 2.75 }, { f.width, f.height, f.scale })
  end)

  it("emulates the colour scheme (matchMedia and a CSS rule), reduced motion, forced colours and print", function()
    local page = ctx:new_page()
    page:navigate(srv.url .. "/")
    local f = facts(page)
    assert.same({ false, "rgb(0, 0, 0)", false, false, "block" }, { f.dark, f.color, f.reduce, f.print, f.heading })
    page:emulate { color_scheme = "dark", reduced_motion = "reduce", forced_colors = "active", media = "print" }
    f = facts(page)
    assert.same({ true, "rgb(255, 255, 255)", true, true, true, "none" },
      { f.dark, f.color, f.reduce, f.forced, f.print, f.heading })
    -- One key changes, the others stay; false clears one.
    page:emulate { media = false }
    f = facts(page)
    assert.same({ true, true, false, "block" }, { f.dark, f.reduce, f.print, f.heading })
    page:emulate { color_scheme = "light" }
    f = facts(page)
    assert.same({ false, "rgb(0, 0, 0)", true }, { f.dark, f.color, f.reduce })
  end)

  it("reports a geolocation to navigator.geolocation, its permission granted", function()
    local page = ctx:new_page()
    page:navigate(srv.url .. "/")
    page:emulate { geolocation = { latitude = 59.9139, longitude = 10.7522, accuracy = 25 } }
    local got = page:evaluate([[new Promise(resolve => navigator.geolocation.getCurrentPosition(
      p => resolve([p.coords.latitude, p.coords.longitude, p.coords.accuracy]),
      e => resolve(['refused', e.message])))]])
    assert.same({ 59.9139, 10.7522, 25 }, got)
    assert.equal("granted", page:evaluate("navigator.permissions.query({ name: 'geolocation' }).then(s => s.state)"))
  end)

  it("sets the timezone (Intl and Date) and the locale (navigator.language, Intl, Accept-Language)", function()
    local page = ctx:new_page()
    page:emulate { timezone = "Asia/Tokyo", locale = "de-DE" }
    page:navigate(srv.url .. "/")
    local f = facts(page)
    assert.same({ "Asia/Tokyo", -540, "de-DE", "1.234,5" }, { f.zone, f.offset, f.language, f.number })
    assert.matches("|de%-DE$", f.heard)
    page:emulate { timezone = "America/New_York" }
    f = facts(page)
    assert.same({ "America/New_York", 300 }, { f.zone, f.offset })
    page:emulate { timezone = false, locale = false }
    page:navigate(srv.url .. "/")
    f = facts(page)
    assert.is_not.equal("America/New_York", f.zone)
    assert.is_not.equal("de-DE", f.language)
    assert.matches("|%-$", f.heard)
  end)

  it("raises InvalidArgument for a bad value, naming it, and changes nothing", function()
    local page = ctx:new_page()
    page:navigate(srv.url .. "/")
    local e = helpers.error_of(page.emulate, page, { device = "iPhone 31" })
    assert.equal("InvalidArgument", e.type)
    assert.equal("device", e.field)
    assert.matches('did you mean "iPhone 13"', e.message, 1, true)
    for _, name in ipairs(require("vdx.devices").names()) do assert.matches(name, e.message, 1, true) end

    page:emulate { timezone = "Europe/Oslo" }
    e = helpers.error_of(page.emulate, page, { timezone = "Mars/Olympus_Mons", color_scheme = "dark" })
    assert.equal("InvalidArgument", e.type)
    assert.equal("timezone", e.field)
    assert.matches("Chromium refused it: Invalid timezone id", e.message, 1, true)
    local f = facts(page)
    assert.same({ "Europe/Oslo", false }, { f.zone, f.dark })

    e = helpers.error_of(page.emulate, page, { locale = "no such locale!" })
    assert.same({ "InvalidArgument", "locale" }, { e.type, e.field })
    assert.matches("Invalid locale", e.message, 1, true)

    e = helpers.error_of(page.emulate, page, { colour_scheme = "dark" })
    assert.matches("unknown key 'colour_scheme' (did you mean 'color_scheme'?)", e.message, 1, true)
    e = helpers.error_of(page.emulate, page, { color_scheme = "night" })
    assert.same({ "InvalidArgument", "color_scheme" }, { e.type, e.field })
    e = helpers.error_of(page.emulate, page, { viewport = { width = 0, height = 10 } })
    assert.equal("viewport.width", e.field)
    e = helpers.error_of(page.emulate, page, { geolocation = { latitude = 91, longitude = 0 } })
    assert.equal("geolocation.latitude", e.field)
    assert.equal("Europe/Oslo", facts(page).zone)
  end)
end)

describe("ctx:emulate", function()
  local srv, browser

  lazy_setup(function()
    srv = assert(vdx.serve { port = 0, routes = {
      ["GET /"] = function(req)
        local h = req.headers or {}
        return PAGE:format(h["user-agent"] or "-", h["accept-language"] or "-")
      end,
    } })
    browser = vdx.launch {}
  end)

  lazy_teardown(function() helpers.shut(browser, srv) end)

  it("reaches the context's open pages, its new pages and their popups, and no other context", function()
    local ctx, other = browser:new_context(), browser:new_context()
    local first = ctx:new_page()
    first:navigate(srv.url .. "/")
    ctx:emulate { device = "Pixel 7", color_scheme = "dark", locale = "nb-NO", timezone = "Europe/Oslo" }
    assert.is_true(facts(first).dark)
    local later = ctx:new_page()
    later:navigate(srv.url .. "/")
    local f = facts(later)
    assert.same({ 412, 839, 2.625, true, "nb-NO", "Europe/Oslo" }, { f.width, f.height, f.scale, f.dark, f.language, f.zone })
    assert.matches("Pixel 7", f.heard, 1, true)
    assert.equal("Pixel 7", ctx:emulation().device)

    -- A popup the page opens: the browser reports it, and it gets the settings.
    later:evaluate("void window.open(location.href)")
    local popup
    local deadline = vdx.now() + 10000
    while not popup and vdx.now() < deadline do
      for _, p in ipairs(ctx:pages()) do
        if p ~= first and p ~= later then popup = p end
      end
      if not popup then vdx.sleep(50) end
    end
    assert.truthy(popup, "the popup did not show up in ctx:pages()")
    deadline = vdx.now() + 10000
    while popup:emulation().device == nil and vdx.now() < deadline do vdx.sleep(50) end
    assert.equal("Pixel 7", popup:emulation().device)
    popup:navigate(srv.url .. "/")
    f = facts(popup)
    assert.same({ 412, true, "Europe/Oslo" }, { f.width, f.dark, f.zone })

    local elsewhere = other:new_page()
    elsewhere:navigate(srv.url .. "/")
    f = facts(elsewhere)
    assert.is_false(f.dark)
    assert.is_nil(f.heard:find("Pixel", 1, true))
    ctx:close()
    other:close()
  end)
end)

describe("vdx.emulation_export #unit", function()
  local ex = require "vdx.emulation_export"
  local pw = require "vdx.pw_spec"

  it("writes a role's settings as newContext options, a device's spread first", function()
    assert.equal("{ ...devices['iPhone 13'], storageState: s, timezoneId: 'Europe/Oslo', locale: 'nb-NO', "
      .. "colorScheme: 'dark', geolocation: { latitude: 59.91, longitude: 10.75, accuracy: 0 }, permissions: ['geolocation'] }",
      pw.context_options("s", { device = "iPhone 13", timezone = "Europe/Oslo", locale = "nb-NO", color_scheme = "dark",
        geolocation = { latitude = 59.91, longitude = 10.75, accuracy = 0 } }))
    assert.equal("", pw.context_options(nil, {}))
    assert.same({ "await {page}.emulateMedia({ media: 'print' });" }, ex.after { media = "print" })
  end)

  it("writes a change during the run as statements, and what only a context takes as its options", function()
    local c = ex.change { viewport = { width = 800, height = 600 }, color_scheme = "dark", media = false,
      geolocation = false, timezone = "Asia/Tokyo" }
    assert.same({
      "// timezone: options of {context}, which Playwright sets when a context is made (newContext above)",
      "await {page}.setViewportSize({ width: 800, height: 600 });",
      "await {page}.emulateMedia({ colorScheme: 'dark', media: null });",
      "await {context}.setGeolocation(null);",
    }, c.lines)
    assert.same({ timezone = "Asia/Tokyo" }, c.context)
    assert.is_nil(ex.change({ reduced_motion = "reduce" }).context)
  end)
end)
