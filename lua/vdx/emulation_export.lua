--- vdx.emulation_export: the Playwright Test equivalent of page:emulate's
-- settings (vdx.emulation), for the test an MCP session or a flow exports.
-- Playwright sets a device, a user agent, a timezone and a locale only as
-- options of a new browser context; the rest can also change on a live
-- page or context.  So a role's settings become options of its context
-- (`browser.newContext({ ...devices['iPhone 13'], timezoneId: … })`), and
-- a change during the run becomes statements where it can
-- (`page.setViewportSize`, `page.emulateMedia`, `context.setGeolocation`)
-- and an option of the role's context where it cannot, with a comment at
-- the point of the change saying so.
local locator = require "vdx.flow_locator"

local ex = {}

local q = locator.quote

-- A number as JavaScript writes it (integers without ".0").
local function num(v)
  if math.type(v) == "integer" or (v == math.floor(v) and math.abs(v) < 2 ^ 53) then
    return ("%d"):format(v)
  end
  -- The shortest form that reads back as the same number (59.91, not
  -- 59.909999999999997).
  for digits = 1, 17 do
    local s = ("%." .. digits .. "g"):format(v)
    if tonumber(s) == v then return s end
  end
  return ("%.17g"):format(v)
end

local function size(v) return ("{ width: %d, height: %d }"):format(v.width, v.height) end

local function geo(v)
  return ("{ latitude: %s, longitude: %s, accuracy: %s }"):format(num(v.latitude), num(v.longitude),
    num(v.accuracy or 0))
end

-- The settings that are Playwright context options only, with the option
-- and how its value is written.
local CONTEXT_ONLY = {
  { "user_agent", "userAgent", q }, { "device_scale_factor", "deviceScaleFactor", num },
  { "is_mobile", "isMobile", tostring }, { "has_touch", "hasTouch", tostring },
  { "timezone", "timezoneId", q }, { "locale", "locale", q },
}
local MEDIA = { { "color_scheme", "colorScheme" }, { "reduced_motion", "reducedMotion" },
  { "forced_colors", "forcedColors" } }

--- The properties of the newContext options object for settings o (a
-- table of page:emulate keys; false values are left out): a list of
-- strings such as "...devices['iPhone 13']", "timezoneId: 'Europe/Oslo'".
-- The media type has no context option: see ex.after.
function ex.context_options(o)
  local out = {}
  if o.device then out[#out + 1] = "...devices[" .. q(o.device) .. "]" end
  if o.viewport then out[#out + 1] = "viewport: " .. size(o.viewport) end
  for _, c in ipairs(CONTEXT_ONLY) do
    if o[c[1]] ~= nil and o[c[1]] ~= false or (o[c[1]] == false and (c[1] == "is_mobile" or c[1] == "has_touch")) then
      out[#out + 1] = c[2] .. ": " .. c[3](o[c[1]])
    end
  end
  for _, m in ipairs(MEDIA) do
    if o[m[1]] then out[#out + 1] = m[2] .. ": " .. q(o[m[1]]) end
  end
  if o.geolocation then
    out[#out + 1] = "geolocation: " .. geo(o.geolocation)
    out[#out + 1] = "permissions: ['geolocation']"
  end
  return out
end

--- The statements that follow the role's newPage for settings o: the
-- media type, which is no context option.
function ex.after(o)
  if o.media then return { "await {page}.emulateMedia({ media: " .. q(o.media) .. " });" } end
  return {}
end

--- True when any of the settings o needs `devices` imported.
function ex.uses_devices(o) return o.device ~= nil and o.device ~= false end

-- The settings of o that Playwright takes only when a context is made.
local function context_only(o)
  local out, names = {}, {}
  if o.device ~= nil then out.device = o.device names[#names + 1] = "device" end
  for _, c in ipairs(CONTEXT_ONLY) do
    if o[c[1]] ~= nil then out[c[1]] = o[c[1]] names[#names + 1] = c[1] end
  end
  return out, names
end

--- The export of a change made during the run: { lines = statements with
-- "{page}"/"{context}" (see vdx.pw_spec.code_lines), context = the
-- settings that become options of the role's context (nil when none) }.
function ex.change(o)
  local lines = {}
  local hoisted, names = context_only(o)
  if #names > 0 then
    local cleared = {}
    for _, n in ipairs(names) do if hoisted[n] == false then cleared[#cleared + 1] = n end end
    lines[#lines + 1] = ("// %s: options of {context}, which Playwright sets when a context is made (newContext above)")
      :format(table.concat(names, ", "))
    if #cleared > 0 then
      lines[#lines + 1] = ("// (cleared here during the run: %s; the test keeps what the context was made with)")
        :format(table.concat(cleared, ", "))
    end
  end
  if o.viewport then
    lines[#lines + 1] = "await {page}.setViewportSize(" .. size(o.viewport) .. ");"
  elseif o.viewport == false then
    lines[#lines + 1] = "// the viewport override was cleared here; Playwright has no call for that"
  end
  local media = {}
  for _, m in ipairs(MEDIA) do
    if o[m[1]] ~= nil then media[#media + 1] = m[2] .. ": " .. (o[m[1]] and q(o[m[1]]) or "null") end
  end
  if o.media ~= nil then media[#media + 1] = "media: " .. (o.media and q(o.media) or "null") end
  if #media > 0 then
    -- page.emulateMedia is per page; a context-wide change is the same on
    -- the role's page, which is the one the test drives.
    lines[#lines + 1] = "await {page}.emulateMedia({ " .. table.concat(media, ", ") .. " });"
  end
  if o.geolocation then
    lines[#lines + 1] = "await {context}.grantPermissions(['geolocation']);"
    lines[#lines + 1] = "await {context}.setGeolocation(" .. geo(o.geolocation) .. ");"
  elseif o.geolocation == false then
    lines[#lines + 1] = "await {context}.setGeolocation(null);"
  end
  return { lines = lines, context = #names > 0 and hoisted or nil }
end

--- Merges the context-only settings of change (from ex.change) into acc,
-- the settings a role's context is made with; false clears nothing (the
-- context keeps what it was made with).
function ex.merge(acc, settings)
  for k, v in pairs(settings or {}) do
    if v ~= false then acc[k] = v end
  end
  return acc
end

return ex
