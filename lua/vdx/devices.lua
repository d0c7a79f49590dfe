--- vdx.devices: the named device presets of page:emulate{ device = … }
-- (vdx.emulation).  Each has the values of the entry of the same name in
-- Playwright's deviceDescriptors (playwright-core 1.65), so the
-- `...devices['iPhone 13']` an exported test writes means the same
-- viewport, scale, mobile and touch flags and user agent as the run that
-- wrote it.  `screen` is the whole screen where Playwright has one (the
-- viewport is what is left under the browser's own bars).
local devices = {}

-- The user agents carry the browser versions of that Playwright release.
local IOS15 = "Mozilla/5.0 (iPhone; CPU iPhone OS 15_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
  .. "Version/27.2 Mobile/15E148 Safari/604.1"
local IPAD = "Mozilla/5.0 (iPad; CPU OS 12_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
  .. "Version/27.2 Mobile/15E148 Safari/604.1"
local CHROME = "Chrome/159.0.8154.6"

--- The presets by name.
devices.list = {
  ["iPhone 13"] = { user_agent = IOS15, viewport = { width = 390, height = 664 },
    screen = { width = 390, height = 844 }, device_scale_factor = 3, is_mobile = true, has_touch = true },
  ["iPhone SE"] = { user_agent = "Mozilla/5.0 (iPhone; CPU iPhone OS 10_3_1 like Mac OS X) AppleWebKit/603.1.30 "
      .. "(KHTML, like Gecko) Version/27.2 Mobile/14E304 Safari/602.1",
    viewport = { width = 320, height = 568 }, device_scale_factor = 2, is_mobile = true, has_touch = true },
  ["Pixel 5"] = { user_agent = "Mozilla/5.0 (Linux; Android 11; Pixel 5) AppleWebKit/537.36 (KHTML, like Gecko) "
      .. CHROME .. " Mobile Safari/537.36",
    viewport = { width = 393, height = 727 }, screen = { width = 393, height = 851 },
    device_scale_factor = 2.75, is_mobile = true, has_touch = true },
  ["Pixel 7"] = { user_agent = "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) "
      .. CHROME .. " Mobile Safari/537.36",
    viewport = { width = 412, height = 839 }, screen = { width = 412, height = 915 },
    device_scale_factor = 2.625, is_mobile = true, has_touch = true },
  ["Galaxy S9+"] = { user_agent = "Mozilla/5.0 (Linux; Android 8.0.0; SM-G965U Build/R16NW) AppleWebKit/537.36 "
      .. "(KHTML, like Gecko) " .. CHROME .. " Mobile Safari/537.36",
    viewport = { width = 320, height = 658 }, device_scale_factor = 4.5, is_mobile = true, has_touch = true },
  ["iPad Mini"] = { user_agent = IPAD, viewport = { width = 768, height = 1024 }, device_scale_factor = 2,
    is_mobile = true, has_touch = true },
  ["iPad Pro 11"] = { user_agent = IPAD, viewport = { width = 834, height = 1194 }, device_scale_factor = 2,
    is_mobile = true, has_touch = true },
  ["Galaxy Tab S4"] = { user_agent = "Mozilla/5.0 (Linux; Android 8.1.0; SM-T837A) AppleWebKit/537.36 "
      .. "(KHTML, like Gecko) " .. CHROME .. " Safari/537.36",
    viewport = { width = 712, height = 1138 }, device_scale_factor = 2.25, is_mobile = true, has_touch = true },
  ["Desktop Chrome"] = { user_agent = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
      .. "(KHTML, like Gecko) " .. CHROME .. " Safari/537.36",
    viewport = { width = 1280, height = 720 }, screen = { width = 1920, height = 1080 },
    device_scale_factor = 1, is_mobile = false, has_touch = false },
}

--- The preset names, sorted.
function devices.names()
  local out = {}
  for name in pairs(devices.list) do out[#out + 1] = name end
  table.sort(out)
  return out
end

--- The preset called name, or nil and a message that lists the known ones
-- (and the nearest name when one is close).
function devices.get(name)
  local d = devices.list[name]
  if d then return d end
  local names = devices.names()
  local near = type(name) == "string" and require("vdx.spelling").nearest(name, names)
  return nil, ("there is no device preset %q%s; known: %s"):format(tostring(name),
    near and (" (did you mean %q?)"):format(near) or "", table.concat(names, ", "))
end

return devices
