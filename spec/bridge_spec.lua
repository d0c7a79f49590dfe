-- The committed bridge bundle must be what bridge/src builds to (when Node
-- and the bridge's dev dependencies are available).
local h = require "helpers"

describe("the bridge bundle", function()
  it("is not stale relative to bridge/src", function()
    local _, node = h.run("command -v node")
    if node ~= 0 then
      pending("node is not installed: cannot rebuild the bundle here")
      return
    end
    local _, have = h.run("test -d bridge/node_modules/esbuild")
    if have ~= 0 then
      local out, st = h.run("cd bridge && npm ci --no-audit --no-fund --silent")
      if st ~= 0 then
        pending("npm ci failed (no registry?): " .. out:sub(1, 200))
        return
      end
    end
    local fresh = os.tmpname()
    local out, st = h.run("node bridge/build.mjs --out " .. fresh)
    assert.equal(0, st, out)
    local a = assert(io.open(fresh, "rb")):read("a")
    local b = assert(io.open("bridge/dist/vdx-bridge.js", "rb")):read("a")
    os.remove(fresh)
    assert.is_true(a == b, "bridge/dist/vdx-bridge.js is stale: run `make bridge` and commit it")
  end)

  it("embeds the main-world scripts of bridge/page beside it, byte for byte", function()
    local vdx = require "vdx"
    local f = assert(io.open("bridge/page/effects-watch.js", "rb"))
    local want = f:read("a")
    f:close()
    assert.equal(want, vdx.page_script("effects-watch"))
    local ok, err = pcall(vdx.page_script, "../dist/vdx-bridge")
    assert.is_false(ok)
    assert.is_true(vdx.is_error(err, "InvalidArgument"), tostring(err))
  end)

  it("carries a version banner that the host checks", function()
    local first = assert(io.open("bridge/dist/vdx-bridge.js")):read("l")
    assert.matches("^/%* vdx%-bridge %d+%.%d+%.%d+ %*/$", first)
  end)

end)
