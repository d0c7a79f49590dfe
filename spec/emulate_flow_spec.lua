--- spec/emulate_flow_spec.lua: emulation in a flow.  Two roles of one
-- flow emulated differently (a phone in Oslo in the dark, the flow-wide
-- desktop in New York), r:emulate during the run, and the exported test,
-- whose contexts carry `...devices[…]`, timezoneId, locale and
-- colorScheme, passing in real Playwright; a bad setting in f:role is a
-- typed error at the line that declares it.
local helpers = require "helpers"

local q, read = helpers.quote, helpers.read
local FLOW = "spec/fixtures/flow/emulate_roles.lua"

local function has(s, needle) return s:find(needle, 1, true) ~= nil end

describe("a flow with emulated roles", function()
  local dir, pw, pw_why, out, status

  lazy_setup(function()
    local r = helpers.export_flow(FLOW, "roles.spec.ts")
    dir, pw, pw_why, out, status = r.dir, r.pw, r.pw_why, r.out, r.status
  end)

  lazy_teardown(function()
    if dir then os.execute("rm -rf " .. q(dir)) end
  end)

  it("runs each role with its own device, timezone, locale and colour scheme", function()
    -- The fixture's expectations are what each role's page and the server saw.
    assert.equal(0, status, out)
    assert.is_true(has(out, "✓ [phone] the phone sees an iPhone in Oslo in the dark"), out)
    assert.is_true(has(out, "✓ [phone] reduced motion and a position, set during the run"), out)
    assert.is_true(has(out, "✓ [desk] the desk sees a desktop in New York"), out)
  end)

  it("exports each role's emulation as the options of its context", function()
    local spec = read(dir .. "/out/roles.spec.ts")
    assert.is_string(spec, out)
    for _, line in ipairs {
      "import { test, expect, devices } from '@playwright/test';",
      "  const phoneContext = await browser.newContext({ ...devices['iPhone 13'], timezoneId: 'Europe/Oslo', "
        .. "locale: 'nb-NO', colorScheme: 'dark' });",
      "  const deskContext = await browser.newContext({ ...devices['Desktop Chrome'], timezoneId: 'America/New_York', "
        .. "locale: 'en-US' });",
      "    await phone.emulateMedia({ reducedMotion: 'reduce' });",
      "    await phoneContext.grantPermissions(['geolocation']);",
      "    await phoneContext.setGeolocation({ latitude: 59.91, longitude: 10.75, accuracy: 0 });",
    } do
      assert.is_true(has(spec, line .. "\n"), line .. "\nnot in:\n" .. spec)
    end
  end)

  it("writes a test that passes in real Playwright", function()
    if not pw then
      pending(pw_why)
      return
    end
    local cmd = assert(out:match("\nRun it with:\n  ([^\n]+)\n"), out)
    local run_out, rc = helpers.run(("cd %s && timeout 300 sh -c %s"):format(q(dir .. "/elsewhere"), q(cmd)))
    assert.equal(0, rc, run_out)
    assert.matches("1 passed", run_out)
  end)
end)

describe("emulation in flow.run and f:role", function()
  local flow = require "vdx.flow"

  it("names a bad device or key of a role as InvalidArgument, before any browser starts", function()
    local status, f = flow.run({ name = "bad device", quiet = true }, function(fl)
      fl:role("phone", { device = "iPhone 99" })
    end)
    assert.equal(1, status)
    assert.equal("InvalidArgument", f.failure.error.type)
    assert.matches('there is no device preset "iPhone 99"', f.failure.error.message, 1, true)
    status, f = flow.run({ name = "bad key", quiet = true, device = "Pixel 5" }, function(fl)
      fl:role("phone", { colour_scheme = "dark" })
    end)
    assert.equal(1, status)
    assert.equal("InvalidArgument", f.failure.error.type)
    assert.matches("unknown key 'colour_scheme'", f.failure.error.message, 1, true)
    status, f = flow.run({ name = "bad flow device", quiet = true, device = "Nokia 3310" }, function(fl)
      fl:role("phone", {})
    end)
    assert.equal(1, status)
    assert.matches('there is no device preset "Nokia 3310"', f.failure.error.message, 1, true)
  end)
end)
