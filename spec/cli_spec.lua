-- The vdxlua executable: scripts, -e, --version, --help, errors, and the
-- embedded Lua modules' chunk names.
local h = require "helpers"

describe("vdxlua", function()
  it("prints its version", function()
    local out, status = h.run(h.vdxlua .. " --version")
    assert.equal(0, status)
    assert.matches("^vdxlua %d+%.%d+%.%d+ %(Lua 5%.4%)", out)
  end)

  it("prints help", function()
    local out, status = h.run(h.vdxlua .. " --help")
    assert.equal(0, status)
    assert.matches("usage: vdxlua FILE", out)
  end)

  it("runs a chunk with -e and passes arguments", function()
    local out, status = h.run(h.vdxlua .. " -e 'print(select(\"#\", ...), arg[1])' one two")
    assert.equal(0, status)
    assert.equal("2\tone\n", out)
  end)

  it("launches Chromium and evaluates from -e", function()
    local out, status = h.run(h.vdxlua .. [[ -e '
      local vdx = require "vdx"
      local b <close> = vdx.launch()
      local page = b:new_page()
      page:navigate("data:text/html,<title>t</title><p>hi</p>")
      print(page:evaluate("document.querySelector(\"p\").textContent"))']])
    assert.equal(0, status)
    assert.equal("hi\n", out)
  end)

  it("runs a script file with its arguments in arg", function()
    local path = os.tmpname()
    local f = assert(io.open(path, "w"))
    f:write("print(arg[0] == ... and 'no' or 'yes', arg[1], #arg)\nreturn 3\n")
    f:close()
    local out, status = h.run(h.vdxlua .. " " .. path .. " x y")
    os.remove(path)
    assert.equal(3, status)
    assert.equal("yes\tx\t2\n", out)
  end)

  it("fails with a traceback and status 1 when the script raises", function()
    local out, status = h.run(h.vdxlua .. " -e 'local vdx = require \"vdx\"; error(vdx.error(\"Timeout\", \"slow\"))'")
    assert.equal(1, status)
    assert.matches("Timeout: slow", out)
    assert.matches("stack traceback", out)
  end)

  it("names the real file of an embedded module in tracebacks", function()
    local out = h.run(h.vdxlua .. " -e 'print(debug.getinfo(require(\"vdx.cli\").main, \"S\").source)'")
    assert.equal("@lua/vdx/cli.lua\n", out)
  end)

  it("rejects an unknown option", function()
    local out, status = h.run(h.vdxlua .. " --frobnicate")
    assert.equal(2, status)
    assert.matches("unknown option '%-%-frobnicate'", out)
  end)
end)
