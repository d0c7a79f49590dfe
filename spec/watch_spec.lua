-- vdx.watch: libuv file-system events delivered as tasks.
local vdx = require "vdx"
local h = require "helpers"

describe("vdx.watch", function()
  it("reports a new file in a folder as a task, and nothing after close", function()
    local dir = h.run("mktemp -d /tmp/vdx-watch-spec.XXXXXX"):match("^(.-)%s*$")
    local seen = {}
    local w = assert(vdx.watch(dir, function(name, event)
      assert.is_not_nil(vdx.current_task())
      seen[#seen + 1] = name .. " " .. event
    end))
    assert.equal("vdx.Watcher", tostring(w))
    local f = assert(io.open(dir .. "/a.lua", "w"))
    f:write("x")
    f:close()
    local waited = 0
    while #seen == 0 and waited < 10000 do vdx.sleep(20) waited = waited + 20 end
    assert.equal("a.lua rename", seen[1])
    assert.is_true(w:close())
    assert.is_true(w:close())
    assert.equal("vdx.Watcher (closed)", tostring(w))
    local n = #seen
    f = assert(io.open(dir .. "/b.lua", "w"))
    f:close()
    vdx.sleep(100)
    os.execute("rm -rf '" .. dir .. "'")
    assert.equal(n, #seen)
  end)

  it("returns nil and a message for a path that does not exist", function()
    local w, err = vdx.watch("/no/such/folder", function() end)
    assert.is_nil(w)
    assert.equal("cannot watch /no/such/folder: no such file or directory", err)
  end)
end)
