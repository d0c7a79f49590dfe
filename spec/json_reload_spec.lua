--- spec/json_reload_spec.lua: two instances of vdx.json in one Lua state
-- (a host that unloads modules and requires them again, as busted does
-- between spec files, while the C core keeps the codec of the first) agree
-- on what an array is: an empty json.array of either encodes as [].
describe("vdx.json loaded twice #unit", function()
  it("encodes the other instance's empty array and raw JSON", function()
    local first = require "vdx.json"
    package.loaded["vdx.json"] = nil
    local second = require "vdx.json"
    package.loaded["vdx.json"] = first
    assert.are_not.equal(first, second)
    assert.equal('{"h":[]}', first.encode { h = second.array() })
    assert.equal('{"h":[]}', second.encode { h = first.array() })
    assert.equal('{"r":[1,2]}', first.encode { r = second.raw("[1,2]") })
    assert.is_true(first.is_array(second.array()))
  end)
end)
