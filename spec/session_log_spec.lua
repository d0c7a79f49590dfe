-- vdx.session_log: the ordered record of an MCP session that
-- browser_export_test writes as a test.
local session_log = require "vdx.session_log"

describe("vdx.session_log", function()
  it("keeps steps in order, defaults the role and lists roles by first use", function()
    local log = session_log.new()
    log:add { kind = "navigate", url = "http://127.0.0.1/" }
    log:add { kind = "action", role = "admin", action = "click", locator = "getByRole('button')" }
    log:add { kind = "assert", role = "default", matcher = "toBeVisible", locator = "getByText('Saved')" }
    assert.equal(3, #log:list())
    assert.equal("default", log:list()[1].role)
    assert.same({ "default", "admin" }, log:roles())
    log:clear()
    assert.equal(0, #log:list())
  end)

  it("refuses a step of an unknown kind as a typed misuse", function()
    local ok, e = pcall(function() session_log.new():add { kind = "bogus" } end)
    assert.is_false(ok)
    assert.equal("InvalidArgument", e.type)
  end)
end)
