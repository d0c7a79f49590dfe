--- spec/cleanup_spec.lua: a browser's temporary folders (the vdx-chromium-*
-- profile and Chromium's org.chromium.Chromium.* folder) are removed on
-- every exit path: browser:close(), and SIGTERM or SIGINT to the host.
local vdx = require "vdx"
local client = require "mcp_client"
local helpers = require "helpers"

local q, read = client.q, client.read

local mktemp = client.tmpdir

local names = client.names

local function browsers_of(dir)
  -- "[u]" keeps the shell that runs pgrep from matching itself.
  local p = io.popen("pgrep -f " .. q("[u]ser-data-dir=" .. dir .. "/") .. " | wc -l")
  local n = tonumber(p:read("a"))
  p:close()
  return n
end

describe("temporary folders", function()
  it("are all gone after browser:close()", function()
    -- The profile goes under this process's TMPDIR, Chromium's own folder
    -- under the TMPDIR it is given.
    local tmp, run_tmp = mktemp(), os.getenv("TMPDIR") or "/tmp"
    local function profiles()
      local out = {}
      for _, n in ipairs(names(run_tmp)) do if n:match("^vdx%-chromium%-") then out[#out + 1] = n end end
      return out
    end
    local before = profiles()
    local b = vdx.launch { env = { TMPDIR = tmp } }
    local page = b:new_page()
    page:navigate("about:blank")
    assert.equal(#before + 1, #profiles())
    assert.equal(1, #names(tmp))
    b:close()
    local left = names(tmp)
    os.execute("rm -rf " .. q(tmp))
    assert.same({}, left)
    assert.same(before, profiles())
  end)

  it("are the only ones ended by a kill: a kept profile's browser closes gracefully and keeps its cookies", function()
    -- A temporary profile goes at once; a profile the caller keeps must
    -- get Chromium's own shutdown, which writes persistent cookies out:
    -- the next browser on it reads the cookie back.
    local srv = helpers.serve { ["GET /set"] = function()
      return { headers = { ["Set-Cookie"] = "kept=yes; Max-Age=3600; Path=/" }, body = "<p>set</p>" }
    end, ["GET /read"] = function() return { body = "<p>read</p>" } end }
    local dir = mktemp()
    local b = vdx.launch { user_data_dir = dir }
    b:new_page():navigate(srv.url .. "/set")
    b:close()
    local b2 = vdx.launch { user_data_dir = dir }
    local p2 = b2:new_page()
    p2:navigate(srv.url .. "/read")
    local cookie = p2:evaluate("document.cookie")
    b2:close()
    srv:close()
    os.execute("rm -rf " .. q(dir))
    assert.equal("kept=yes", cookie)
  end)

  for _, sig in ipairs { "TERM", "INT" } do
    it("are all gone when vdxlua mcp gets SIG" .. sig, function()
      local tmp, dir = mktemp(), mktemp()
      os.execute("mkfifo " .. q(dir .. "/in"))
      os.execute(("(TMPDIR=%s exec %s mcp --no-default-skills < %s > %s 2> %s) >/dev/null 2>&1 & echo $! > %s")
        :format(q(tmp), helpers.vdxlua, q(dir .. "/in"), q(dir .. "/out"), q(dir .. "/err"), q(dir .. "/pid")))
      local w = assert(io.open(dir .. "/in", "wb"))
      local pid = tonumber(client.wait_until(function() return read(dir .. "/pid") end, 10000))
      w:write('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",' ..
        '"capabilities":{},"clientInfo":{"name":"spec","version":"1"}}}\n')
      w:write('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"browser_navigate",' ..
        '"arguments":{"url":"about:blank"}}}\n')
      w:flush()
      assert.truthy(client.wait_until(function() return (read(dir .. "/out") or ""):find('"id":2') end, 60000))
      local before = names(tmp)
      assert.equal(2, #before, table.concat(before, " "))
      os.execute(("kill -%s %d"):format(sig, pid))
      client.wait_until(function() return not helpers.alive(pid) and browsers_of(tmp) == 0 end, 20000)
      w:close()
      local left, alive = names(tmp), browsers_of(tmp)
      os.execute("pkill -9 -f " .. q("user-data-dir=" .. tmp .. "/"))
      os.execute("rm -rf " .. q(tmp) .. " " .. q(dir))
      assert.equal(0, alive)
      assert.same({}, left)
    end)
  end
end)
