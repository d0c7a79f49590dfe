--- spec/signals_spec.lua: a signal whose default action ends vdxlua
-- (SIGHUP, SIGINT, SIGQUIT, SIGTERM) first ends the browser's whole
-- process tree and removes its temporary folders (the vdx-chromium-*
-- profile and Chromium's org.chromium.Chromium.* folder), then ends
-- vdxlua by that signal (the shell sees status 128 + its number), for
-- `vdxlua mcp` and for a flow alike.  A signal the process was started
-- with ignored (nohup; SIGINT and SIGQUIT in a shell's background job)
-- stays ignored: the server keeps its browser.
-- Runs on the full browser, the one that makes the second folder.
local client = require "mcp_client"
local helpers = require "helpers"

local q, read, names = client.q, client.read, client.names

local full = helpers.full_chromium()
local NUMBER = { HUP = 1, INT = 2, QUIT = 3, TERM = 15 }

-- Every process whose parent chain leads to root (root left out).
local function descendants(root)
  local parent, out = {}, {}
  local p = io.popen("ps -e -o pid=,ppid=")
  for line in p:lines() do
    local pid, ppid = line:match("(%d+)%s+(%d+)")
    if pid then parent[tonumber(pid)] = tonumber(ppid) end
  end
  p:close()
  for pid in pairs(parent) do
    local at, seen = parent[pid], 0
    while at and at > 1 and seen < 64 do
      if at == root then out[#out + 1] = pid break end
      at, seen = parent[at], seen + 1
    end
  end
  return out
end

local function alive_of(pids)
  local out = {}
  for _, pid in ipairs(pids) do if helpers.alive(pid) then out[#out + 1] = pid end end
  return out
end

--- The pids still alive once the kernel had up to 5 s to finish what a
--- SIGKILL started: a killed process can outlive its killer by a moment
--- (it still unmaps its memory), which is not a leak.
local function left_alive(pids)
  local out = alive_of(pids)
  client.wait_until(function() out = alive_of(pids) return #out == 0 end, 5000)
  return out
end

-- Starts vdxlua (or program) with args (stdin from dir/in) as a shell's background
-- job would, its signals reset to the default (or as `signals` says, an
-- `env` option list), with TMPDIR=tmp; writes its pid to dir/pid and,
-- when it ends, its status as the shell sees it to dir/rc.
local function start(args, tmp, dir, signals, program)
  local inner = ("echo $$ > %s; exec env %s %s %s < %s > %s 2> %s"):format(q(dir .. "/pid"),
    signals or "--default-signal=HUP,INT,QUIT,TERM", program or helpers.vdxlua, args, q(dir .. "/in"),
    q(dir .. "/out"), q(dir .. "/err"))
  os.execute(("( ulimit -c 0; TMPDIR=%s sh -c %s; echo $? > %s; mv %s %s ) >/dev/null 2>&1 &")
    :format(q(tmp), q(inner), q(dir .. "/rc.tmp"), q(dir .. "/rc.tmp"), q(dir .. "/rc")))
  return tonumber(client.wait_until(function() return read(dir .. "/pid") end, 10000))
end

-- The MCP server, its browser started by a navigate; returns its pid and
-- the writer of its stdin.
local function start_mcp(tmp, dir, signals)
  os.execute("mkfifo " .. q(dir .. "/in"))
  local pid = start("mcp --no-default-skills --executable " .. q(full), tmp, dir, signals)
  local w = assert(io.open(dir .. "/in", "wb"))
  w:write('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",' ..
    '"capabilities":{},"clientInfo":{"name":"spec","version":"1"}}}\n')
  w:write('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"browser_navigate",' ..
    '"arguments":{"url":"about:blank"}}}\n')
  w:flush()
  assert.truthy(client.wait_until(function() return (read(dir .. "/out") or ""):find('"id":2') end, 60000),
    read(dir .. "/err"))
  return pid, w
end

-- A flow whose one role has its page open, then waits.
local function start_flow(tmp, dir)
  helpers.write(dir .. "/in", "")
  helpers.write(dir .. "/flow.lua", [[
    local vdx = require "vdx"
    local flow = require "vdx.flow"
    return flow.run({}, function(f)
      f:role("a", { url = "data:text/html,<p>ready</p>" })
      f:as("a", function(a)
        a:expect_text("ready")
        io.stdout:write("ready\n")
        io.stdout:flush()
        vdx.sleep(120000)
      end)
    end)
  ]])
  local pid = start("--executable " .. q(full) .. " " .. q(dir .. "/flow.lua"), tmp, dir)
  assert.truthy(client.wait_until(function() return (read(dir .. "/out") or ""):find("ready") end, 60000),
    read(dir .. "/err"))
  return pid
end

describe("a signal to vdxlua", function()
  for _, mode in ipairs { "mcp", "flow" } do
    for _, sig in ipairs { "HUP", "QUIT", "TERM", "INT" } do
      it(("ends %s's browser tree, removes its folders and ends it by SIG%s"):format(mode, sig), function()
        if not full then pending("needs the full chromium (its ProcessSingleton folder)") return end
        local tmp, dir = client.tmpdir(), client.tmpdir()
        local pid, w
        if mode == "mcp" then pid, w = start_mcp(tmp, dir) else pid = start_flow(tmp, dir) end
        local tree = descendants(pid)
        local before = names(tmp)
        os.execute(("kill -%s %d"):format(sig, pid))
        local rc = client.wait_until(function() return read(dir .. "/rc") end, 30000)
        if w then w:close() end
        local left, alive = names(tmp), left_alive(tree)
        for _, p in ipairs(tree) do os.execute("kill -9 " .. p .. " 2>/dev/null") end
        os.execute("rm -rf " .. q(tmp) .. " " .. q(dir))
        assert.equal(2, #before, table.concat(before, " "))
        assert.is_true(#tree >= 2, "the browser's tree before the signal: " .. table.concat(tree, " "))
        assert.equal(128 + NUMBER[sig], tonumber(rc))
        assert.same({}, alive)
        assert.same({}, left)
      end)
    end
  end

  it("that the server was started with ignored (nohup, a background job's SIGINT) stays ignored: it keeps its browser and serves", function()
    if not full then pending("needs the full chromium (its ProcessSingleton folder)") return end
    local tmp, dir = client.tmpdir(), client.tmpdir()
    local pid, w = start_mcp(tmp, dir, "--default-signal=QUIT,TERM --ignore-signal=HUP,INT")
    local tree = descendants(pid)
    os.execute(("kill -HUP %d; kill -INT %d"):format(pid, pid))
    w:write('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"browser_navigate",' ..
      '"arguments":{"url":"about:blank#after"}}}\n')
    w:flush()
    local answered = client.wait_until(function() return (read(dir .. "/out") or ""):find('"id":3') end, 30000)
    local during, tree_alive = #names(tmp), #alive_of(tree)
    w:close()
    local rc = client.wait_until(function() return read(dir .. "/rc") end, 30000)
    local left = names(tmp)
    for _, p in ipairs(tree) do os.execute("kill -9 " .. p .. " 2>/dev/null") end
    os.execute("rm -rf " .. q(tmp) .. " " .. q(dir))
    assert.truthy(answered)
    assert.equal(2, during)
    assert.equal(#tree, tree_alive)
    assert.equal(0, tonumber(rc))
    assert.same({}, left)
  end)

  it("that the host handles stays the host's: a luv program's SIGINT handler still reads the page, then closes", function()
    -- A plain Lua 5.4 host (luv's loop, vdx.luv) that set its own
    -- handler before the launch: vdx leaves the signal to it, so the
    -- handler finds the browser alive; its close removes the profile.
    if not pcall(require, "luv") then pending("needs lua-luv") return end
    local tmp, dir = client.tmpdir(), client.tmpdir()
    helpers.write(dir .. "/in", "")
    helpers.write(dir .. "/host.lua", [[
      local uv = require "luv"
      local vdx = require "vdx"
      require("vdx.luv").install(uv)
      local browser, page
      local sig = uv.new_signal()
      sig:start("sigint", function()
        coroutine.wrap(function()
          local ok, title = pcall(function() return page:evaluate("document.title") end)
          local f = io.open(arg[1], "w")
          f:write(tostring(ok), " ", tostring(title), "\n")
          f:close()
          browser:close()
          os.exit(0)
        end)()
      end)
      coroutine.wrap(function()
        browser = vdx.launch {}
        page = browser:new_page()
        page:navigate("data:text/html,<title>kept</title>")
        io.stdout:write("ready\n")
        io.stdout:flush()
      end)()
      uv.run()
    ]])
    local pid = start(q(dir .. "/host.lua") .. " " .. q(dir .. "/handled"), tmp, dir, nil, "lua5.4")
    local ready = client.wait_until(function() return (read(dir .. "/out") or ""):find("ready") end, 60000)
    local tree = descendants(pid)
    os.execute(("kill -INT %d"):format(pid))
    local rc = client.wait_until(function() return read(dir .. "/rc") end, 30000)
    local handled, err = read(dir .. "/handled"), read(dir .. "/err")
    local left, alive = names(tmp), left_alive(tree)
    for _, p in ipairs(tree) do os.execute("kill -9 " .. p .. " 2>/dev/null") end
    os.execute("rm -rf " .. q(tmp) .. " " .. q(dir))
    assert.truthy(ready, err)
    assert.equal("true kept\n", handled, err)
    assert.equal(0, tonumber(rc), err)
    assert.same({}, alive)
    assert.same({}, left)
  end)
end)
