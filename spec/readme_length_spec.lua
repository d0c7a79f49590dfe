--- The README is the first hour's guide, not the reference: at most 250
-- lines, the four uses in order, the rest linked from docs/.
local h = require "helpers"

describe("README.md #unit", function()
  local text = assert(h.read("README.md"))

  it("is at most 250 lines", function()
    local n = select(2, text:gsub("\n", "\n"))
    assert.is_true(n <= 250, ("README.md has %d lines; move the detail to docs/"):format(n))
  end)

  it("gives the two commands and a quick start for each use, in order", function()
    local from = 1
    for _, mark in ipairs { "make demo", "make test", "## 1. A flow", "## 2. The MCP server",
      "## 3. From any Lua 5.4", "## 4. A skill", "## Where to go next" } do
      local at = text:find(mark, from, true)
      assert.is_not_nil(at, mark .. " is missing or out of order")
      from = at
    end
  end)

  it("links only to files that exist", function()
    local missing = {}
    for target in text:gmatch("%]%(([^)#]+)[^)]*%)") do
      if not target:match("^%a+:") and select(2, h.run("test -e " .. h.quote(target))) ~= 0 then
        missing[#missing + 1] = target
      end
    end
    assert.same({}, missing)
  end)
end)
