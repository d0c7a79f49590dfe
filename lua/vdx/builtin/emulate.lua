--- vdx.builtin.emulate: browser_emulate (device, viewport, geolocation,
-- timezone, locale, user agent) and browser_emulate_media (colour scheme,
-- reduced motion, forced colours, media type) for the current role.  As
-- in Playwright, the media settings and the viewport are the current
-- page's, the rest the role's whole context (its tabs, present and new).
-- Each call is recorded as a "code" step, so the exported test sets the
-- same world (vdx.emulation_export).
local util = require "vdx.builtin.util"
local devices = require "vdx.devices"

-- The `reset` argument: the settings to clear (false for page:emulate).
local function reset_arg(names)
  return { type = "array", items = { type = "string", enum = names },
    description = "Settings to clear, back to the browser's own" }
end

-- The page:emulate options of a call: args renamed per map, and each of
-- args.reset false.
local function options(args, map)
  local o = util.pick(args, map)
  for _, name in ipairs(args.reset or {}) do o[map[name]] = false end
  return o
end

-- The text of the settings in effect on page.
local function told(page)
  local now = page:emulation()
  local parts = {}
  for _, k in ipairs(require("vdx.emulation").KEYS) do
    local v = now[k]
    if v ~= nil then
      if type(v) == "table" then
        v = v.width and ("%dx%d"):format(v.width, v.height) or ("%s,%s"):format(v.latitude, v.longitude)
      end
      parts[#parts + 1] = k .. "=" .. tostring(v)
    end
  end
  return #parts > 0 and table.concat(parts, ", ") or "none (the browser's own)"
end

local record = util.record_emulation

-- The media features' queries, by page:emulate key and value.
local QUERY = { color_scheme = "prefers-color-scheme", reduced_motion = "prefers-reduced-motion",
  forced_colors = "forced-colors" }

-- What page shows once the settings in effect apply (the bridge's
-- afterView): its viewport's size, a query per media feature set, and
-- one that no longer holds per feature cleared since before (page:emulation()
-- before the change).
local function view_of(page, before)
  local now, want = page:emulation(), { media = {} }
  local function add(q) want.media[#want.media + 1] = q end
  if type(now.viewport) == "table" then want.width, want.height = now.viewport.width, now.viewport.height end
  for key, feature in pairs(QUERY) do
    if type(now[key]) == "string" then add(("(%s: %s)"):format(feature, now[key]))
    elseif type(before[key]) == "string" then add(("not all and (%s: %s)"):format(feature, before[key])) end
  end
  if type(now.media) == "string" then add(now.media)
  elseif type(before.media) == "string" then add("not " .. before.media) end
  return want
end

return {
  {
    name = "browser_emulate",
    title = "Emulate a device and place",
    description = "Emulate a device preset, a viewport size, a geolocation (granting its permission), a timezone, "
      .. "a locale (Intl, navigator.language and Accept-Language) or a user agent for the current role. "
      .. "The viewport is the current page's; the rest applies to every tab of the role, present and new. "
      .. "reset clears settings. A page reads a new user agent, locale or touch support at its next load: "
      .. "navigate or reload after this. Devices: " .. table.concat(devices.names(), ", ") .. ".",
    input = { type = "object", properties = {
      device = { type = "string", description = "A device preset (viewport, scale, mobile, touch and "
        .. "user agent as Playwright's devices[NAME])" },
      viewport = { type = "object", required = { "width", "height" }, properties = {
        width = { type = "integer", minimum = 1, maximum = 10000, description = "Width in CSS pixels" },
        height = { type = "integer", minimum = 1, maximum = 10000, description = "Height in CSS pixels" },
      }, description = "The viewport size of the current page" },
      geolocation = { type = "object", required = { "latitude", "longitude" }, properties = {
        latitude = { type = "number", minimum = -90, maximum = 90, description = "Latitude in degrees" },
        longitude = { type = "number", minimum = -180, maximum = 180, description = "Longitude in degrees" },
        accuracy = { type = "number", minimum = 0, description = "Accuracy in metres (default 0)" },
      }, description = "The position navigator.geolocation reports" },
      timezone = { type = "string", description = "An IANA timezone, e.g. Europe/Oslo" },
      locale = { type = "string", description = "A BCP 47 locale, e.g. nb-NO" },
      userAgent = { type = "string", description = "The user agent string" },
      reset = reset_arg { "device", "viewport", "geolocation", "timezone", "locale", "userAgent" },
    } },
    annotations = { readOnlyHint = false },
    run = function(ctx, args)
      local o = options(args, { device = "device", viewport = "viewport", geolocation = "geolocation",
        timezone = "timezone", locale = "locale", userAgent = "user_agent" })
      local viewport = o.viewport
      o.viewport = nil
      local page = ctx:page()
      local before = page:emulation()
      if next(o) then ctx.role:context():emulate(o) end
      if viewport ~= nil then
        page:emulate { viewport = viewport }
        o.viewport = viewport
      end
      if next(o) == nil then return "Nothing to change: name a device, viewport, geolocation, timezone, locale or userAgent." end
      local st = record(ctx, "browser_emulate", o)
      return util.relaid(ctx, page, "Emulating: " .. told(page) .. util.step_no(st) .. ".",
        { emulation = page:emulation() },
        view_of(page, before))
    end,
  },
  {
    name = "browser_emulate_media",
    title = "Emulate media features",
    description = "Emulate CSS media on the current page: prefers-color-scheme, prefers-reduced-motion, "
      .. "forced-colors and the media type (print or screen). reset clears settings; one left out keeps it.",
    input = { type = "object", properties = {
      colorScheme = { type = "string", enum = { "dark", "light", "no-preference" },
        description = "prefers-color-scheme" },
      reducedMotion = { type = "string", enum = { "reduce", "no-preference" },
        description = "prefers-reduced-motion" },
      forcedColors = { type = "string", enum = { "active", "none" }, description = "forced-colors" },
      media = { type = "string", enum = { "screen", "print" }, description = "The CSS media type" },
      reset = reset_arg { "colorScheme", "reducedMotion", "forcedColors", "media" },
    } },
    annotations = { readOnlyHint = false },
    run = function(ctx, args)
      local o = options(args, { colorScheme = "color_scheme", reducedMotion = "reduced_motion",
        forcedColors = "forced_colors", media = "media" })
      if next(o) == nil then return "Nothing to change: give colorScheme, reducedMotion, forcedColors or media." end
      local page = ctx:page()
      local before = page:emulation()
      page:emulate(o)
      local st = record(ctx, "browser_emulate_media", o)
      return util.relaid(ctx, page, "Emulating: " .. told(page) .. util.step_no(st) .. ".",
        { emulation = page:emulation() },
        view_of(page, before))
    end,
  },
}
