--- vdx.emulation: what the page believes about its device and its user:
-- viewport, scale, mobile and touch, user agent, media features, media
-- type, geolocation, timezone and locale, and the named device presets
-- (vdx.devices).
--
--   page:emulate{ device = "iPhone 13", color_scheme = "dark", timezone = "Europe/Oslo" }
--   context:emulate{ locale = "nb-NO" }     -- every page of the context, present and new
--
-- A key left out (nil) keeps its setting, false clears it (back to the
-- browser's own), a value sets it.  Every value is checked before any
-- change is sent, so a bad call changes nothing; the settings Chromium
-- itself validates (timezone, locale) are sent first, and a refusal
-- raises InvalidArgument with Chromium's words before anything else
-- changes.  Everything goes to the page's own CDP session.
local vdx = require "vdx"
local devices = require "vdx.devices"

local emulation = {}

-- What each page was told, kept across calls so that one key can change
-- without the others (CDP replaces a whole group at once).
local page_state = setmetatable({}, { __mode = "k" })
-- The settings of each context, by browser and context id: what a new
-- page of the context gets.
local context_state = setmetatable({}, { __mode = "k" })
-- The browser's own user agent, asked once per browser.
local browser_ua = setmetatable({}, { __mode = "k" })

local ENUMS = {
  color_scheme = { "dark", "light", "no-preference" },
  reduced_motion = { "reduce", "no-preference" },
  forced_colors = { "active", "none" },
  media = { "print", "screen" },
}

--- The keys page:emulate takes, in the order they are applied.
emulation.KEYS = { "device", "viewport", "device_scale_factor", "is_mobile", "has_touch", "user_agent",
  "color_scheme", "reduced_motion", "forced_colors", "media", "geolocation", "timezone", "locale" }
local KNOWN = {}
for _, k in ipairs(emulation.KEYS) do KNOWN[k] = true end

local function bad(field, msg, expected)
  error(vdx.error("InvalidArgument", ("emulate: %s: %s"):format(field, msg),
    { field = field, expected = expected }), 0)
end

local function check_number(field, v, lo, hi)
  if type(v) ~= "number" or v ~= v or v < lo or v > hi then
    bad(field, ("expected a number from %s to %s, got %s"):format(lo, hi, tostring(v)), ("%s..%s"):format(lo, hi))
  end
end

-- Checks one key's value; returns it normalized (a copy for tables).
local function check_value(k, v)
  if v == false then return false end
  if ENUMS[k] then
    for _, e in ipairs(ENUMS[k]) do if v == e then return v end end
    bad(k, ("expected one of %s (or false to clear), got %s"):format(table.concat(ENUMS[k], ", "), tostring(v)),
      table.concat(ENUMS[k], "|"))
  elseif k == "device" then
    if type(v) ~= "string" then bad(k, "expected a preset name", "string") end
    local _, msg = devices.get(v)
    if msg then bad(k, msg, table.concat(devices.names(), "|")) end
    return v
  elseif k == "viewport" then
    if type(v) ~= "table" then bad(k, "expected { width =, height = } (or false)", "table") end
    for key in pairs(v) do
      if key ~= "width" and key ~= "height" then bad(k, ("unknown key '%s' (known: width, height)"):format(key)) end
    end
    local out = {}
    for _, dim in ipairs { "width", "height" } do
      -- An integral float is an integer (JSON's 700 may arrive as 700.0).
      local n = type(v[dim]) == "number" and math.tointeger(v[dim])
      if not n or n < 1 or n > 10000 then
        bad(k .. "." .. dim, ("expected an integer from 1 to 10000, got %s"):format(tostring(v[dim])), "integer")
      end
      out[dim] = n
    end
    return out
  elseif k == "device_scale_factor" then
    check_number(k, v, 0.1, 10)
    return v
  elseif k == "is_mobile" or k == "has_touch" then
    if type(v) ~= "boolean" then bad(k, "expected a boolean", "boolean") end
    return v
  elseif k == "user_agent" or k == "timezone" or k == "locale" then
    if type(v) ~= "string" or v == "" then bad(k, "expected a non-empty string (or false to clear)", "string") end
    return v
  elseif k == "geolocation" then
    if type(v) ~= "table" then bad(k, "expected { latitude =, longitude =, accuracy = } (or false)", "table") end
    for key in pairs(v) do
      if key ~= "latitude" and key ~= "longitude" and key ~= "accuracy" then
        bad(k, ("unknown key '%s' (known: latitude, longitude, accuracy)"):format(key))
      end
    end
    check_number("geolocation.latitude", v.latitude, -90, 90)
    check_number("geolocation.longitude", v.longitude, -180, 180)
    if v.accuracy ~= nil then check_number("geolocation.accuracy", v.accuracy, 0, 1e7) end
    return { latitude = v.latitude, longitude = v.longitude, accuracy = v.accuracy or 0 }
  end
end

--- Checks the options of page:emulate / context:emulate (what names the
-- call); returns a normalized copy.  Raises InvalidArgument on an unknown
-- key or a bad value, naming it.
function emulation.check(opts, what)
  what = what or "emulate"
  if type(opts) ~= "table" then
    error(vdx.error("InvalidArgument", what .. ": expected a table of settings", { field = "opts", expected = "table" }), 0)
  end
  local out = {}
  for k, v in pairs(opts) do
    if not KNOWN[k] then
      local near = type(k) == "string" and require("vdx.spelling").nearest(k, emulation.KEYS)
      error(vdx.error("InvalidArgument", ("%s: unknown key '%s'%s (known: %s)"):format(what, tostring(k),
        near and (" (did you mean '%s'?)"):format(near) or "", table.concat(emulation.KEYS, ", ")),
        { field = tostring(k) }), 0)
    end
    out[k] = check_value(k, v)
  end
  return out
end

-- The settings a device preset stands for, under the explicit ones.
local function expand(o)
  local out = {}
  if o.device ~= nil then
    local d = o.device and devices.list[o.device] or {}
    for _, k in ipairs { "viewport", "device_scale_factor", "is_mobile", "has_touch", "user_agent" } do
      if d[k] == nil then out[k] = false else out[k] = d[k] end
    end
    out.screen = d.screen or false
  end
  for k, v in pairs(o) do if k ~= "device" then out[k] = v end end
  if o.viewport ~= nil and o.device == nil then out.screen = false end
  return out
end

local function default_ua(page)
  local b = page:context():browser()
  if not browser_ua[b] then browser_ua[b] = b:version().userAgent end
  return browser_ua[b]
end

local function refused(field, err)
  local why = type(err) == "table" and tostring(err.message) or tostring(err)
  why = why:gsub("^[%w.]+: ", "")
  return vdx.error("InvalidArgument", ("emulate: %s: Chromium refused it: %s"):format(field, why),
    { field = field, expected = field == "timezone" and "an IANA zone such as Europe/Oslo"
      or "a BCP 47 locale such as nb-NO" })
end

-- Sends the groups of settings that x (expanded) changes; st is the
-- page's state after the change.
local function apply(page, st, x, ctx_id)
  local function has(...)
    for _, k in ipairs { ... } do if x[k] ~= nil then return true end end
  end
  if has("viewport", "device_scale_factor", "is_mobile", "screen") then
    if not st.viewport and not st.device_scale_factor and not st.is_mobile then
      page:send("Emulation.clearDeviceMetricsOverride", {})
    else
      local vp, screen = st.viewport or {}, st.screen or st.viewport or {}
      page:send("Emulation.setDeviceMetricsOverride", { width = vp.width or 0, height = vp.height or 0,
        deviceScaleFactor = st.device_scale_factor or 0, mobile = st.is_mobile or false,
        screenWidth = screen.width, screenHeight = screen.height })
    end
  end
  if has("has_touch") then
    page:send("Emulation.setTouchEmulationEnabled", { enabled = st.has_touch == true,
      maxTouchPoints = st.has_touch and 1 or nil })
  end
  if has("user_agent", "locale") then
    if not st.user_agent and not st.locale then
      page:send("Emulation.setUserAgentOverride", { userAgent = "" })
    else
      page:send("Emulation.setUserAgentOverride", { userAgent = st.user_agent or default_ua(page),
        acceptLanguage = st.locale or nil })
    end
  end
  if has("color_scheme", "reduced_motion", "forced_colors", "media") then
    page:send("Emulation.setEmulatedMedia", { media = st.media or "", features = {
      { name = "prefers-color-scheme", value = st.color_scheme or "" },
      { name = "prefers-reduced-motion", value = st.reduced_motion or "" },
      { name = "forced-colors", value = st.forced_colors or "" } } })
  end
  if has("geolocation") then
    if st.geolocation then
      page:context():browser():send("Browser.grantPermissions", { permissions = { "geolocation" },
        browserContextId = ctx_id ~= "" and ctx_id or nil })
      page:send("Emulation.setGeolocationOverride", st.geolocation)
    else
      page:send("Emulation.clearGeolocationOverride", {})
    end
  end
end

-- True when err says the page's renderer already has an override that
-- another session set: a popup shares its opener's process, and with it
-- the timezone and locale the opener's session set.
local function held_by_opener(err)
  return type(err) == "table" and tostring(err.message):find("already in effect", 1, true) ~= nil
end

--- Applies the checked options o to page (see page:emulate); shared: a
-- timezone or locale that the page's process already has from another
-- page (a popup's opener, set by the same context) is taken as set.
function emulation.apply(page, o, shared)
  local x = expand(o)
  local old = page_state[page] or {}
  -- Timezone and locale first: Chromium is their judge, and a refusal
  -- must come before anything else has changed.
  if x.timezone ~= nil and x.timezone ~= old.timezone then
    -- Chromium checks the id only when no override is in effect, so one
    -- in effect is lifted first (and put back on a refusal).
    if old.timezone then page:send("Emulation.setTimezoneOverride", { timezoneId = "" }) end
    local ok, err = pcall(page.send, page, "Emulation.setTimezoneOverride", { timezoneId = x.timezone or "" })
    if not ok and not (shared and held_by_opener(err)) then
      if old.timezone then pcall(page.send, page, "Emulation.setTimezoneOverride", { timezoneId = old.timezone }) end
      error(refused("timezone", err), 0)
    end
  end
  if x.locale ~= nil and x.locale ~= old.locale then
    local ok, err = pcall(page.send, page, "Emulation.setLocaleOverride", { locale = x.locale or nil })
    if not ok and not (shared and held_by_opener(err)) then
      if x.timezone ~= nil and x.timezone ~= old.timezone then
        pcall(page.send, page, "Emulation.setTimezoneOverride", { timezoneId = old.timezone or "" })
      end
      error(refused("locale", err), 0)
    end
  end
  local st = {}
  for k, v in pairs(old) do st[k] = v end
  for k, v in pairs(x) do st[k] = v or nil end
  if o.device ~= nil then st.device = o.device or nil end
  apply(page, st, x, page:context():id())
  -- Recorded once every setting is sent: page:emulation() names what is
  -- in effect (a popup's settings were read as set while its media
  -- features were still on their way, and a page loaded then was light).
  page_state[page] = st
  return page
end

--- page:emulate(opts) -> page.  opts: device (a preset of vdx.devices),
-- viewport = { width, height }, device_scale_factor, is_mobile,
-- has_touch, user_agent, color_scheme ("dark" | "light" |
-- "no-preference"), reduced_motion ("reduce" | "no-preference"),
-- forced_colors ("active" | "none"), media ("print" | "screen"),
-- geolocation = { latitude, longitude, accuracy } (also grants the
-- geolocation permission to the page's context), timezone (an IANA id),
-- locale (BCP 47: Intl, navigator.language and the Accept-Language
-- header).  nil keeps a setting, false clears it; explicit keys win over
-- the device's values.
local function page_emulate(page, opts)
  return emulation.apply(page, emulation.check(opts, "page:emulate"))
end

--- page:emulation() -> a copy of the settings in effect on page (the
-- device's expanded), {} when none.
local function page_emulation(page)
  local out = {}
  for k, v in pairs(page_state[page] or {}) do out[k] = v end
  return out
end

local function ctx_settings(ctx, create)
  local b = ctx:browser()
  local per = context_state[b]
  if not per and create then per = { watching = false, ctxs = {} } context_state[b] = per end
  if not per then return nil end
  local s = per.ctxs[ctx:id()]
  if not s and create then
    s = { ctx = ctx, opts = {}, done = setmetatable({}, { __mode = "k" }) }
    per.ctxs[ctx:id()] = s
  end
  return s
end

-- Applies the context's settings to a page that has not had them.
local function adopt(s, page)
  if s.done[page] or page:is_closed() then return end
  s.done[page] = true
  emulation.apply(page, s.opts, true)
end

-- Popups and tabs the context's pages open get its settings as soon as
-- the browser reports them (one listener per browser).
local function watch_popups(ctx)
  local b = ctx:browser()
  local per = context_state[b]
  if per.watching then return end
  per.watching = true
  b:on("Target.targetCreated", function(ev)
    local info = ev.targetInfo or {}
    if info.type ~= "page" or b:is_closed() then return end
    -- The default context is "" to vdx but has an id of its own in CDP,
    -- so every context with settings looks for pages it has not set up.
    for _, s in pairs(per.ctxs) do
      local ok, pages = pcall(s.ctx.pages, s.ctx)
      for _, p in ipairs(ok and pages or {}) do pcall(adopt, s, p) end
    end
  end)
end

--- ctx:emulate(opts) -> ctx: page:emulate(opts) on every page of the
-- context and on every page it opens later (ctx:new_page(), popups);
-- later calls add to what the context holds (nil keeps, false clears).
local function context_emulate(ctx, opts)
  local o = emulation.check(opts, "context:emulate")
  local s = ctx_settings(ctx, true)
  for k, v in pairs(o) do s.opts[k] = v end
  for _, p in ipairs(ctx:pages()) do
    if not p:is_closed() then
      s.done[p] = true
      emulation.apply(p, o)
    end
  end
  watch_popups(ctx)
  return ctx
end

--- ctx:emulation() -> a copy of the settings the context gives its pages.
local function context_emulation(ctx)
  local s, out = ctx_settings(ctx, false), {}
  for k, v in pairs(s and s.opts or {}) do out[k] = v end
  return out
end

--- Adds page:emulate and page:emulation to Page (vdx.Page), and
-- ctx:emulate and ctx:emulation to Context (the methods of vdx.Context),
-- whose new_page then gives each new page the context's settings.
function emulation.install(Page, Context)
  Page.emulate, Page.emulation = page_emulate, page_emulation
  Context.emulate, Context.emulation = context_emulate, context_emulation
  local new_page = Context.new_page
  Context.new_page = function(ctx, ...)
    local page = new_page(ctx, ...)
    local s = ctx_settings(ctx, false)
    if s and next(s.opts) then adopt(s, page) end
    return page
  end
end

return emulation
