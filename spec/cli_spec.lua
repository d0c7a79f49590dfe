-- The vdxlua executable: scripts, -e, --version, --help, errors, the
-- embedded Lua modules' chunk names, and wrong input on the command line
-- of a flow and of `vdxlua mcp`, refused at start.
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
  describe("wrong input on the command line, refused at start", function()
    -- A flow that passes when it runs: any refusal below is the command line's.
    local dir = h.run("mktemp -d /tmp/vdx-cli-spec.XXXXXX"):match("^(.-)%s*$")
    local FLOW = h.write(dir .. "/ok_flow.lua", [[
local vdx = require "vdx"
local flow = require "vdx.flow"
local srv = assert(vdx.serve { routes = { ["GET /"] = function() return { body = "<h1>Hi</h1>" } end } })
local status = flow.run({ base_url = os.getenv("FLOW_BASE") or srv.url }, function(f)
  f:role("customer", { url = "/" })
  f:as("customer", function(p) p:step("look", function() p:expect_text("Hi") end) end)
end)
print("args:", table.concat(arg, " "))
return status
]])
    local function flow_run(args, env)
      local exe = h.vdxlua:sub(1, 1) == "/" and h.vdxlua or (os.getenv("PWD") .. "/" .. h.vdxlua)
      return h.run("cd " .. h.quote(dir) .. " && " .. (env or "") .. " " .. h.quote(exe) .. " ok_flow.lua " .. args)
    end
    teardown(function() os.execute("rm -rf " .. h.quote(dir)) end)

    it("runs the flow, with its own arguments before and after --, on the --executable given", function()
      local out, status = flow_run("one -- --two -3")
      assert.equal(0, status, out)
      assert.matches("args:\tone --two -3\n", out, 1, true)
      out, status = flow_run("--executable " .. h.quote(require("vdx").find_browser()) .. " one")
      assert.equal(0, status, out)
      assert.matches("✔ flow: 1 steps", out, 1, true)
      assert.matches("args:\tone\n", out, 1, true)
    end)

    it("refuses an unknown dashed argument, naming the flag it most likely means", function()
      for _, case in ipairs { { "--emit-playwrite x.spec.ts", "--emit-playwright" }, { "--emit x.spec.ts", "--emit-playwright" },
          { "--heded", "--headed" }, { "--report=out", "--report" } } do
        local out, status = flow_run(case[1])
        assert.equal(2, status, out)
        local flag = case[1]:match("^%S+")
        assert.matches("vdxlua: unknown option '" .. flag .. "' (did you mean " .. case[2] .. "?) (flow options: "
          .. "--cacert, --emit-playwright, --endpoint, --executable, --headed, --header, --insecure, --max-sessions, --pool-wait, --report, "
          .. "--retries, --secrets, --serve-only, --slow-mo, --trace); a script's own "
          .. "dashed arguments go after --: vdxlua FILE.lua [OPTIONS] -- " .. flag .. "\n", out, 1, true)
        assert.not_matches("▶", out)
      end
      assert.is_nil(h.read(dir .. "/x.spec.ts"))
      local out, status = flow_run("--frobnicate")
      assert.equal(2, status, out)
      assert.matches("unknown option '--frobnicate' (flow options: ", out, 1, true)
    end)

    it("refuses --executable naming no executable file before the flow starts", function()
      local out, status = flow_run("--executable /usr/bin/nonexist")
      assert.equal(2, status, out)
      assert.matches("^vdxlua: ❌ No browser to start\nMessage: %-%-executable /usr/bin/nonexist: not an executable file", out)
      assert.matches("1. Check the path in the message", out, 1, true)
      assert.not_matches("▶", out)
      assert.not_matches("Unexpected error", out)
    end)

    it("names VDX_CHROMIUM and a base_url without a scheme as what they are, without a traceback", function()
      local out, status = flow_run("", "VDX_CHROMIUM=/nope")
      assert.equal(1, status, out)
      assert.matches("\n❌ No browser to start\nFlow: ok_flow.lua:4\nMessage: VDX_CHROMIUM='/nope' is not an executable file; "
        .. "set VDX_CHROMIUM to the path of Chromium (such as /usr/bin/chromium), or unset it to use Chromium on PATH\n",
        out, 1, true)
      assert.matches("0 steps", out, 1, true)
      out, status = flow_run("", "FLOW_BASE=localhost:3000")
      assert.equal(1, status, out)
      assert.matches("\n❌ Not a URL the browser can open\nFlow: ok_flow.lua:4\nURL: localhost:3000\nMessage: flow.run: base_url: "
        .. "\"localhost:3000\" is not a URL the browser can open: the scheme is missing; did you mean "
        .. "\"http://localhost:3000\"?\n", out, 1, true)
      out, status = flow_run("", "FLOW_BASE='not a url'")
      assert.equal(1, status, out)
      assert.matches("Message: flow.run: base_url: \"not a url\" is not a URL the browser can open", out, 1, true)
      for _, bad in ipairs { "Traceback", "Error in the flow script", "Screenshot:", "Acting as:" } do
        assert.not_matches(bad, out, 1, true)
      end
    end)

    it("refuses vdxlua tools' unknown arguments, naming the nearest", function()
      local out, status = h.run(h.vdxlua .. " tools --markdwn")
      assert.equal(2, status, out)
      assert.matches("vdxlua tools: unknown argument '--markdwn' (did you mean --markdown?)\nusage: vdxlua tools", out, 1, true)
    end)

    it("refuses vdxlua mcp's unknown options and a browser it cannot start, at start", function()
      local out, status = h.run(h.vdxlua .. " mcp --executabel /usr/bin/chromium </dev/null")
      assert.equal(2, status, out)
      assert.matches("vdxlua mcp: unknown option '--executabel' (did you mean --executable?); the options are listed below\n"
        .. "usage: vdxlua mcp", out, 1, true)
      -- A word that is no switch (an unset variable's empty string):
      -- Chromium would take it for a page and exit "Multiple targets".
      out, status = h.run(h.vdxlua .. " mcp --browser-arg '' </dev/null")
      assert.equal(2, status, out)
      assert.matches('vdxlua mcp: --browser-arg "" is no Chromium switch: give one that starts with -- (--name=value)',
        out, 1, true)
      out, status = h.run(h.vdxlua .. " mcp --role a - localhost:3000 </dev/null")
      assert.equal(2, status, out)
      assert.matches("--role a: the URL \"localhost:3000\" has no scheme; write http://localhost:3000", out, 1, true)
      local cfg = h.write(dir .. "/vdx.config.lua", 'return { roles = { shop = { url = "localhost:3000" } } }')
      out, status = h.run(h.vdxlua .. " mcp --config " .. h.quote(cfg) .. " </dev/null")
      assert.equal(2, status, out)
      assert.matches("--config " .. cfg .. ": InvalidURL: role shop: url: \"localhost:3000\" is not a URL the browser "
        .. "can open: the scheme is missing; did you mean \"http://localhost:3000\"?", out, 1, true)
      out, status = h.run(h.vdxlua .. " mcp --no-default-skills --executable /usr/bin/nonexist </dev/null")
      assert.equal(2, status, out)
      assert.matches("^vdxlua mcp: ❌ No browser to start\nMessage: %-%-executable /usr/bin/nonexist: not an executable file; "
        .. "give the path of Chromium", out)
      out, status = h.run("VDX_CHROMIUM=/nope " .. h.vdxlua .. " mcp --no-default-skills </dev/null")
      assert.equal(2, status, out)
      assert.matches("Message: VDX_CHROMIUM='/nope' is not an executable file", out, 1, true)
      -- A server whose every role is remote launches nothing, so it needs no local browser.
      out, status = h.run("VDX_CHROMIUM=/nope " .. h.vdxlua .. " mcp --no-default-skills --role far - "
        .. "--role-endpoint far http://127.0.0.1:9 </dev/null")
      assert.equal(0, status, out)
    end)
  end)
end)
