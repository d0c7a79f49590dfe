-- vdx.slow_checks: a check recorded after a slow wait carries a timeout
-- as long, until the role's next action or navigation.
local slow_checks = require "vdx.slow_checks"

describe("vdx.slow_checks #unit", function()
  it("gives no timeout to a wait within Playwright's reach", function()
    assert.is_nil(slow_checks.timeout(0))
    assert.is_nil(slow_checks.timeout(slow_checks.SLOW_MS))
  end)

  it("gives twice the wait in whole seconds, at least 10 s", function()
    assert.equal(10000, slow_checks.timeout(2600))
    assert.equal(13000, slow_checks.timeout(6100))
    assert.equal(21000, slow_checks.timeout(10100))
  end)

  it("stamps the role's checks until its next action, keeping the longer of two waits", function()
    local role = {}
    assert.is_nil(slow_checks.waited(role, 100))
    assert.equal(21000, slow_checks.waited(role, 10100))
    assert.equal(10000, slow_checks.waited(role, 3000))
    local check = { kind = "assert" }
    slow_checks.stamp(role, check)
    assert.equal(21000, check.timeout)
    local own = { kind = "assert", timeout = 30000 }
    slow_checks.stamp(role, own)
    assert.equal(30000, own.timeout)
    slow_checks.stamp(role, { kind = "remember" })
    assert.equal(21000, role.slow_ms)
    slow_checks.stamp(role, { kind = "action" })
    local after = { kind = "assert" }
    slow_checks.stamp(role, after)
    assert.is_nil(after.timeout)
  end)

  it("ends at a navigation too", function()
    local role = {}
    slow_checks.waited(role, 5000)
    slow_checks.stamp(role, { kind = "navigate" })
    assert.is_nil(role.slow_ms)
  end)
end)
