--- Pools of endpoints against two browserless farms on 127.0.0.1 (spec/farms.lua),
-- each capped at two sessions twice over: the farm's CONCURRENT=2 (with
-- QUEUED=0, so a third connection would be refused with HTTP 429; TIMEOUT
-- long, so a loaded machine does not see the farm end a session) and the
-- pool's max_sessions = 2.  Shown: roles spread two and two, counted by the
-- farms themselves; the fifth waits until a role closes; PoolExhausted after
-- the bounded wait; a farm stopped mid-run, whose roles fail with
-- ConnectionLost while new roles go to the other farm; and the same pool
-- under `vdxlua mcp --endpoint A --endpoint B` with close_role.  Pending,
-- saying why, without Node or browserless.
local vdx = require "vdx"
local roles = require "vdx.roles"
local helpers = require "helpers"
local client = require "mcp_client"
local farms = require "farms"

local q = client.quote
local sessions = farms.sessions

describe("endpoint pools on browserless farms", function()
  local why, broken, F, srv = nil, nil, {}, nil

  setup(function()
    why = farms.missing()
    if why then return end
    for i = 1, 2 do
      local f, log = farms.start("CONCURRENT=2 QUEUED=0 TIMEOUT=600000")
      if not f then broken = "browserless is installed but did not start: " .. tostring(log):sub(-600) return end
      F[i] = f
    end
    srv = helpers.serve { ["GET /who"] = function() return "<title>who</title><h1>on the farm</h1>" end }
  end)

  teardown(function()
    for _, f in ipairs(F) do f.stop() end
    if srv then srv:close() end
  end)

  local function need_farms()
    if why then pending(why) return false end
    assert(not broken, broken)
    return true
  end

  local function manager(n, wait_ms)
    local lines = {}
    local p = vdx.pool { { url = F[1].endpoint, max_sessions = 2 }, { url = F[2].endpoint, max_sessions = 2 },
      wait_ms = wait_ms or 60000, log = function(level, fmt, ...) lines[#lines + 1] = level .. " " .. fmt:format(...) end }
    local m = roles.new { pool = p }
    for i = 1, n do m:add { name = "r" .. i } end
    return m, p, lines
  end

  local function start(m, name)
    local page = m:role(name):page()
    page:navigate(srv.url .. "/who")
    return m:role(name):pooled_endpoint()
  end

  it("spreads four roles two and two; the fifth waits for a closed role's place", function()
    if not need_farms() then return end
    local m, p = manager(5)
    local where = {}
    for i = 1, 4 do where[i] = start(m, "r" .. i) end
    assert.same({ F[1].endpoint, F[2].endpoint, F[1].endpoint, F[2].endpoint }, where)
    -- Each session is a browser of its own on the farm: what CONCURRENT counts.
    assert.same({ 2, 2 }, { sessions(F[1]), sessions(F[2]) })
    local events = {}
    local fifth = vdx.spawn(function()
      local ep = start(m, "r5")
      events[#events + 1] = "r5 started on " .. ep
      return m:role("r5"):page():snapshot().text
    end)
    assert.is_true(client.wait_until(function() return p:waiting() == 1 end, 30000))
    assert.same({}, events)
    events[#events + 1] = "r1 closed"
    m:role("r1"):close()
    local text = vdx.wait(fifth, 60000)
    assert.same({ "r1 closed", "r5 started on " .. F[1].endpoint }, events)
    assert.matches('heading "on the farm"', text, 1, true)
    assert.same({ 2, 2 }, { sessions(F[1]), sessions(F[2]) })
    m:close()
    for _, f in ipairs(F) do assert.same({ 0, 0 }, { farms.drained(f) }) end
  end)

  it("fails with PoolExhausted after the bounded wait, and the farms never see a third session", function()
    if not need_farms() then return end
    local m = manager(5, 500)
    for i = 1, 4 do start(m, "r" .. i) end
    local e = helpers.error_of(start, m, "r5")
    assert.equal("PoolExhausted", e.type, tostring(e))
    assert.matches("role r5: every endpoint of the pool is full after waiting", e.message, 1, true)
    -- The token in each URL is hidden.
    assert.matches(("ws://127.0.0.1:%s/chromium?token=… (2/2 sessions)"):format(F[1].port), e.message, 1, true)
    assert.matches(("ws://127.0.0.1:%s/chromium?token=… (2/2 sessions)"):format(F[2].port), e.message, 1, true)
    assert.same({ 2, 2 }, { sessions(F[1]), sessions(F[2]) })
    m:close()
    for _, f in ipairs(F) do assert.same({ 0, 0 }, { farms.drained(f) }) end
  end)

  it("serves `vdxlua mcp --endpoint A --endpoint B`: a full pool answers PoolExhausted, close_role makes room", function()
    if not need_farms() then return end
    local s = client.start(("--endpoint %s --endpoint %s --max-sessions 1 --pool-wait 300 " ..
      "--role a - --role b - --role c -"):format(q(F[1].endpoint), q(F[2].endpoint)))
    local open = true
    -- A failed assertion still ends the server, so its sessions leave the farms.
    finally(function() if open then s:close() end end)
    s:send(client.initialize(1, "2025-06-18"))
    assert.truthy(s:wait_for(1))
    s:send(client.call(2, "browser_navigate", { url = srv.url .. "/who" }))
    assert.truthy(s:wait_for(2, 60000))
    s:send(client.call(3, "select_role", { role = "b" }))
    assert.truthy(s:wait_for(3, 60000))
    s:send(client.call(4, "list_roles", {}))
    local list = s:wait_for(4, 60000).result.structuredContent.roles
    assert.same({ F[1].endpoint, F[2].endpoint }, { list[1].endpoint, list[2].endpoint })
    assert.same({ 1, 1 }, { sessions(F[1]), sessions(F[2]) })
    s:send(client.call(5, "select_role", { role = "c" }))
    local full = s:wait_for(5, 60000)
    assert.is_true(full.result.isError)
    assert.matches("every endpoint of the pool is full", client.text(full), 1, true)
    s:send(client.call(6, "close_role", { role = "a" }))
    local closed = s:wait_for(6, 60000)
    assert.matches("Closed role a and freed its session on ws://127.0.0.1:" .. F[1].port, client.text(closed), 1, true)
    s:send(client.call(7, "select_role", { role = "c" }))
    s:send(client.call(8, "browser_navigate", { url = srv.url .. "/who" }))
    local nav = s:wait_for(8, 60000)
    assert.is_nil(nav.result.isError, client.text(nav))
    assert.is_nil(s:wait_for(7).result.isError)
    s:send(client.call(9, "list_roles", {}))
    list = s:wait_for(9, 60000).result.structuredContent.roles
    assert.same({ false, true, true }, { list[1].active, list[2].active, list[3].active })
    assert.equal(F[1].endpoint, list[3].endpoint)
    open = false
    assert.equal(0, s:close())
    for _, f in ipairs(F) do assert.same({ 0, 0 }, { farms.drained(f) }) end
  end)

  it("sends new roles to the other farm when one is stopped mid-run; its roles fail with ConnectionLost", function()
    if not need_farms() then return end
    local m, p, lines = manager(5)
    for i = 1, 4 do start(m, "r" .. i) end
    -- r2 and r4 are on the second farm; one of them ends, so that farm has room.
    m:role("r4"):close()
    local r1 = m:role("r1")
    local page1 = r1:page()
    F[1].stop()
    local e = helpers.error_of(function() page1:navigate(srv.url .. "/who") end)
    e = r1:explain(e)
    assert.equal("ConnectionLost", e.type, tostring(e))
    assert.matches("role r1: the connection to ws://127.0.0.1:" .. F[1].port, e.message, 1, true)
    -- The new role does not wait for the stopped farm: it goes to the other.
    assert.equal(F[2].endpoint, start(m, "r5"))
    assert.is_string(p:endpoints()[1].down)
    local told
    for _, l in ipairs(lines) do told = told or l:match("^warn pool: ws://127%.0%.0%.1:" .. F[1].port .. "/.- is down") end
    assert.truthy(told, table.concat(lines, "\n"))
    -- The stopped farm's sessions are free; r2 and r5 hold the other's.
    assert.same({ 0, 2 }, { p:endpoints()[1].sessions, p:endpoints()[2].sessions })
    m:close()
    assert.same({ 0, 0 }, { farms.drained(F[2]) })
  end)
end)
