-- README's tool reference is generated from the registry and must not
-- drift from it.
local h = require "helpers"

describe("README", function()
  it("carries the tool reference the registry generates", function()
    local out, status = h.run(h.vdxlua .. " build-aux/docs.lua --check")
    assert.equal(0, status, out)
  end)
end)
