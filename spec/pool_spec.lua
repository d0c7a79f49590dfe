--- Pools of endpoints (vdx.pool, docs/scale.md "Endpoint pools") against
-- two real CDP endpoints: two Chromiums this spec launches with a DevTools
-- port on 127.0.0.1, each capped at two sessions.  Shown: five roles are
-- spread two and two and the fifth waits until a role closes (the order
-- of events, not a time), PoolExhausted after the bounded wait, an
-- endpoint that refuses connections skipped, and the same through
-- `vdxlua FLOW --endpoint A --endpoint B --max-sessions 2`.
local vdx = require "vdx"
local roles = require "vdx.roles"
local errors = require "vdx.errors"
local helpers = require "helpers"
local client = require "mcp_client"

local q = helpers.quote

-- A port nobody listens on now.
local function dead_port()
  local s = helpers.serve {}
  local port = s.url:match(":(%d+)$")
  s:close()
  return port
end

-- Browser contexts a role made on the browser behind endpoint (the
-- default one excluded), seen from that browser itself.
local function contexts(server)
  return #server:send("Target.getBrowserContexts").browserContextIds
end

describe("endpoint pools", function()
  local a, b, srv, A, B

  setup(function()
    a, b = vdx.launch { port = 0 }, vdx.launch { port = 0 }
    A, B = a:endpoint(), b:endpoint()
    srv = helpers.serve {
      ["GET /who"] = function() return "<title>who</title><h1>pooled</h1>" end,
    }
  end)

  teardown(function()
    if a then a:close() end
    if b then b:close() end
    if srv then srv:close() end
  end)

  -- A manager whose roles r1..rN take sessions of a pool over A and B,
  -- two each; logs go to lines.
  local function manager(n, opts)
    local lines = {}
    local spec = { { url = A, max_sessions = 2 }, { url = B, max_sessions = 2 }, wait_ms = 60000,
      log = function(level, fmt, ...) lines[#lines + 1] = level .. " " .. fmt:format(...) end }
    for k, v in pairs(opts or {}) do spec[k] = v end
    local p = vdx.pool(spec)
    local m = roles.new { pool = p }
    for i = 1, n do m:add { name = "r" .. i } end
    return m, p, lines
  end

  it("spreads five roles two and two; the fifth waits until a role closes and takes its place", function()
    local m, p = manager(5)
    local where = {}
    for i = 1, 4 do
      local page = m:role("r" .. i):page()
      page:navigate(srv.url .. "/who")
      where[i] = m:role("r" .. i):pooled_endpoint()
    end
    -- Least loaded first, the first listed on a tie.
    assert.same({ A, B, A, B }, where)
    assert.same({ 2, 2 }, { p:endpoints()[1].sessions, p:endpoints()[2].sessions })
    assert.same({ 2, 2 }, { contexts(a), contexts(b) })
    local events = {}
    local fifth = vdx.spawn(function()
      local page = m:role("r5"):page()
      events[#events + 1] = "r5 started on " .. m:role("r5"):pooled_endpoint()
      page:navigate(srv.url .. "/who")
      return page:snapshot().text
    end)
    assert.is_true(client.wait_until(function() return p:waiting() == 1 end, 30000))
    assert.same({}, events)
    events[#events + 1] = "r2 closed"
    m:role("r2"):close()
    local text = vdx.wait(fifth, 60000)
    assert.same({ "r2 closed", "r5 started on " .. B }, events)
    assert.matches('heading "pooled"', text, 1, true)
    assert.same({ 2, 2 }, { p:endpoints()[1].sessions, p:endpoints()[2].sessions })
    assert.equal(0, p:waiting())
    m:close()
    assert.same({ 0, 0 }, { p:endpoints()[1].sessions, p:endpoints()[2].sessions })
    assert.is_true(client.wait_until(function() return contexts(a) == 0 and contexts(b) == 0 end, 20000))
  end)

  it("fails with PoolExhausted, naming the endpoints and their caps, after the bounded wait", function()
    local m, p = manager(5, { wait_ms = 300 })
    for i = 1, 4 do m:role("r" .. i):page() end
    local e = helpers.error_of(function() return m:role("r5"):page() end)
    assert.equal("PoolExhausted", e.type, tostring(e))
    assert.matches("role r5: every endpoint of the pool is full after waiting %d+ ms %(pool_wait_ms = 300%)", e.message)
    assert.matches(A .. " (2/2 sessions), " .. B .. " (2/2 sessions)", e.message, 1, true)
    assert.same({ 2, 2 }, { e.endpoints[1].max_sessions, e.endpoints[2].max_sessions })
    local text = errors.format(e)
    assert.matches("No endpoint of the pool has room for this role", text, 1, true)
    assert.matches("--max-sessions", text, 1, true)
    -- The four running roles are untouched, and a closed one makes room.
    assert.equal(0, p:waiting())
    m:role("r1"):close()
    assert.equal(A, (m:role("r5"):page() and m:role("r5"):pooled_endpoint()))
    m:close()
  end)

  it("gives a sibling manager (an MCP session over HTTP) its sessions from the same pool", function()
    local m, p = manager(1)
    local sib = m:sibling()
    sib:role("r1"):page()
    local used = 0
    for _, e in ipairs(p:endpoints()) do used = used + e.sessions end
    assert.equal(1, used)
    assert.is_string(sib:role("r1"):pooled_endpoint())
    sib:close()
    m:close()
  end)

  it("frees a place the moment its connection drops, waking the role that waits for it", function()
    local c = vdx.launch { port = 0 }
    local C = c:endpoint()
    local p = vdx.pool { { url = C, max_sessions = 1 }, wait_ms = 60000, log = function() end }
    local m = roles.new { pool = p }
    m:add { name = "r1" }
    m:add { name = "r2" }
    m:role("r1"):page()
    local watched = vdx.connect(C)
    local dropped
    watched:on("disconnected", function(ev) dropped = ev.reason end)
    local second = vdx.spawn(function()
      return helpers.error_of(function() return m:role("r2"):page() end)
    end)
    while p:waiting() == 0 do vdx.sleep(20) end
    -- The farm goes away: r1's connection drops, its place frees at once
    -- and r2 is woken to take it (which fails: nothing listens there now),
    -- long before its 60 s wait ends.
    c:close()
    local e = vdx.wait(second, 30000)
    -- (The watching connection hears of the drop on its own socket, which
    -- may come a moment after the pool's: a clean run saw it later.)
    local t0 = vdx.now()
    while not dropped and vdx.now() - t0 < 5000 do vdx.sleep(20) end
    assert.is_string(dropped, "no disconnected event")
    assert.equal("PoolExhausted", e.type, tostring(e))
    assert.matches("can be reached", e.message, 1, true)
    assert.equal(0, p:waiting())
    m:close()
  end)

  it("skips an endpoint that refuses connections, marks it down and says so", function()
    local dead = "http://127.0.0.1:" .. dead_port()
    local lines = {}
    local p = vdx.pool { { url = dead, max_sessions = 2 }, { url = A, max_sessions = 2 }, wait_ms = 300,
      log = function(level, fmt, ...) lines[#lines + 1] = level .. " " .. fmt:format(...) end }
    local m = roles.new { pool = p }
    for i = 1, 3 do m:add { name = "r" .. i } end
    m:role("r1"):page():navigate(srv.url .. "/who")
    m:role("r2"):page()
    assert.same({ A, A }, { m:role("r1"):pooled_endpoint(), m:role("r2"):pooled_endpoint() })
    local eps = p:endpoints()
    assert.is_string(eps[1].down)
    assert.same({ 0, 2 }, { eps[1].sessions, eps[2].sessions })
    local told = false
    for _, l in ipairs(lines) do
      if l:find("^warn pool: " .. dead:gsub("%p", "%%%0") .. " is down %(.+%); new sessions go to the other endpoints") then
        told = true
      end
    end
    assert.is_true(told, table.concat(lines, "\n"))
    -- A is full and the other endpoint is down: the third role cannot start.
    local e = helpers.error_of(function() return m:role("r3"):page() end)
    assert.equal("PoolExhausted", e.type)
    assert.matches(dead .. " (down: ", e.message, 1, true)
    m:close()
  end)

  it("refuses a pool it cannot use, naming the key", function()
    local cases = {
      { { { url = A, max_session = 2 } }, "endpoint 1: unknown key 'max_session'" },
      { { { url = A, max_sessions = 0 } }, "max_sessions must be at least 1" },
      { { A, wait = 5 }, "unknown option 'wait'" },
      { {}, "give at least one endpoint" },
    }
    for _, c in ipairs(cases) do
      local e = helpers.error_of(vdx.pool, c[1])
      assert.equal("InvalidArgument", e.type)
      assert.matches(c[2], e.message, 1, true)
    end
    assert.equal("InvalidEndpoint", helpers.error_of(vdx.pool, { "127.0.0.1:9222" }).type)
  end)

  describe("a flow with --endpoint repeated", function()
    local script

    setup(function()
      script = os.tmpname() .. ".lua"
      helpers.write(script, [[
local flow = require "vdx.flow"
local close = arg[1] == "close"
return flow.run({ name = "pool" }, function(f)
  for i = 1, 5 do f:role("r" .. i, {}) end
  for i = 1, 4 do
    f:as("r" .. i, function(p) p:navigate("data:text/html,<h1>role " .. i .. "</h1>") p:expect_text("role " .. i) end)
    print("r" .. i .. " " .. f.roles["r" .. i].role:pooled_endpoint())
  end
  if close then f:close_role("r2") end
  f:as("r5", function(p) p:navigate("data:text/html,<h1>five</h1>") p:expect_text("five") end)
  print("r5 " .. f.roles.r5.role:pooled_endpoint())
end)
]])
    end)

    teardown(function() os.remove(script) end)

    it("spreads the roles, and the fifth takes the place of a closed role", function()
      local out, st = helpers.run(("%s %s --endpoint %s --endpoint %s --max-sessions 2 -- close"):format(
        helpers.vdxlua, q(script), q(A), q(B)))
      assert.equal(0, st, out)
      local seen = {}
      for name, url in out:gmatch("(r%d) (ws://%S+)") do seen[#seen + 1] = name .. " " .. url end
      assert.same({ "r1 " .. A, "r2 " .. B, "r3 " .. A, "r4 " .. B, "r5 " .. B }, seen)
    end)

    it("fails the flow with PoolExhausted when no place frees within --pool-wait", function()
      local out, st = helpers.run(("%s %s --endpoint %s --endpoint %s --max-sessions 2 --pool-wait 200"):format(
        helpers.vdxlua, q(script), q(A), q(B)))
      assert.equal(1, st, out)
      assert.matches("No endpoint of the pool has room for this role", out, 1, true)
      assert.matches("role r5: every endpoint of the pool is full after waiting", out, 1, true)
      assert.matches("f:close_role(name)", out, 1, true)
      assert.not_matches("r5 ws://", out)
    end)

    it("says what is wrong with the pool's flags", function()
      for _, c in ipairs {
        { "--endpoint " .. q(A) .. " --max-sessions 0", "--max-sessions needs a whole number >= 1" },
        { "--max-sessions 2", "--max-sessions needs --endpoint URL" },
        { "--endpoint " .. q(A) .. " --endpoint 127.0.0.1:1", "--endpoint '127.0.0.1:1' has no scheme" },
        { "--endpoint " .. q(A) .. " --pool-wait soon", "--pool-wait needs milliseconds" },
      } do
        local out, st = helpers.run(("%s %s %s"):format(helpers.vdxlua, q(script), c[1]))
        assert.equal(2, st, out)
        assert.matches(c[2], out, 1, true)
      end
    end)
  end)
end)
