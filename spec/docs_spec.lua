-- The tool reference (docs/mcp-tools.md) is generated from the registry and must not
-- drift from it.
local h = require "helpers"

describe("the tool reference", function()
  it("carries the tool reference the registry generates", function()
    local out, status = h.run(h.vdxlua .. " build-aux/docs.lua -- --check")
    assert.equal(0, status, out)
  end)
end)

describe("the agent loop as taught", function()
  -- The skill and the server's instructions name tools; a renamed or
  -- missing tool would teach the agent a call that fails.
  it("names only tools the server has, in the skill and in the instructions", function()
    local reg = require("vdx.builtin").register_all(require("vdx.tools").new())
    local f = assert(io.open("skills/vdx-selector-authoring/SKILL.md"))
    local texts = { skill = f:read("a"), instructions = require("vdx.mcp").instructions(2) }
    f:close()
    for where, text in pairs(texts) do
      local n = 0
      for name in text:gmatch("[%w_]+") do
        if name:match("^browser_%l[%w_]*%l$") or name == "resolve_container" or name == "inspect_pattern"
            or name == "extract_anchors" or name == "select_role" or name == "list_roles" then
          n = n + 1
          assert(reg:get(name), ("%s names %s, which is not a tool"):format(where, name))
        end
      end
      assert.is_true(n >= 8, where .. " should teach the loop by tool names")
    end
    -- A server of one role lists no role tools, and its instructions name none.
    assert.is_nil(require("vdx.mcp").instructions(1):find("list_roles", 1, true))
  end)
end)
