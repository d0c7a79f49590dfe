-- The tool reference (docs/mcp-tools.md) is generated from the registry and must not
-- drift from it.
local h = require "helpers"

describe("the tool reference", function()
  it("carries the tool reference the registry generates", function()
    local out, status = h.run(h.vdxlua .. " build-aux/docs.lua --check")
    assert.equal(0, status, out)
  end)
end)
