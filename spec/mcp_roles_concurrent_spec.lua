--- One MCP server, two roles (issue 29): calls on different roles run at
-- the same time, calls on one role in the order they arrived, a call's
-- role is fixed when it arrives (the `role` argument, else the current
-- role), and the session of two roles' interleaved steps still exports a
-- test that runs.  The server runs in this process (as `vdxlua mcp` runs
-- it: each message a task of its own), so the fixture server's handlers
-- and the MCP calls share one loop and one clock.  The slowness is the
-- fixture server's: its handlers vdx.sleep() before they answer.
local vdx = require "vdx"
local cjson = require "cjson"
local helpers = require "helpers"
local mcp = require "vdx.mcp"

-- How long a slow route holds its answer; and how long the route of the
-- overlap test waits for its partner's request at most (only to prove
-- "did not hang": with calls serialized the partner never comes).
local SLOW_MS, PARTNER_MS = 400, 15000

-- The events the fixture server saw, in order: { what, who, seq, at }.
local events, seq = {}, 0
local function event(what, who)
  seq = seq + 1
  events[#events + 1] = { what = what, who = who, seq = seq, at = vdx.now() }
end
local function find(what, who)
  for _, e in ipairs(events) do if e.what == what and e.who == who then return e end end
  error(("no %s event for %s in the fixture server's log"):format(what, who), 2)
end

-- Tasks waiting for a partner's request, by the partner's name.
local waiting = {}

local PAGE = [[<!doctype html><title>%s</title><h1>%s</h1>
<button onclick="document.querySelector('output').textContent = 'Done %s'">Finish %s</button><output></output>]]

local routes = {
  -- Answers after the request of ?partner= arrived (at most PARTNER_MS),
  -- then SLOW_MS more: two calls that overlap both reach here.
  ["GET /pair"] = function(req)
    local who, partner = req.params.who, req.params.partner
    event("start", who)
    for _, t in ipairs(waiting[who] or {}) do t:cancel("partner arrived") end
    waiting[who] = nil
    local arrived = false
    for _, e in ipairs(events) do if e.what == "start" and e.who == partner then arrived = true end end
    if not arrived then
      local gate = vdx.spawn(function() vdx.sleep(PARTNER_MS) end)
      waiting[partner] = waiting[partner] or {}
      table.insert(waiting[partner], gate)
      pcall(vdx.wait, gate)
    end
    vdx.sleep(SLOW_MS)
    event("end", who)
    return PAGE:format(who, who, who, who)
  end,
  -- Answers after SLOW_MS.
  ["GET /slow"] = function(req)
    local who = req.params.who
    event("start", who)
    vdx.sleep(SLOW_MS)
    event("end", who)
    return PAGE:format(who, who, who, who)
  end,
}

-- An MCP server in this process, with roles alice and bob, writing its
-- output under dir; returns the server, its roles and send(msg) -> task.
local function start(dir)
  local reg = require("vdx.builtin").register_all(require("vdx.tools").new())
  local roles = require("vdx.roles").new { launch = { headless = true } }
  roles:add { name = "alice" }
  roles:add { name = "bob" }
  local out = {}
  local s = mcp.new { registry = reg, roles = roles, paths = require("vdx.paths").new { output = dir .. "/out" },
    write = function(line) local m = cjson.decode(line) if m.id ~= nil then out[m.id] = m end end }
  local function send(msg)
    return vdx.spawn(function() s:handle_line(cjson.encode(msg)) end)
  end
  local function answer(id)
    local m = out[id]
    assert(m and m.result, ("no answer to request %s"):format(id))
    return m.result, m.result.content[1].text
  end
  vdx.wait(send { jsonrpc = "2.0", id = 0, method = "initialize", params = { protocolVersion = "2025-06-18",
    capabilities = {}, clientInfo = { name = "spec", version = "1" } } }, 10000)
  return s, roles, send, answer
end

local function call(id, name, args)
  return { jsonrpc = "2.0", id = id, method = "tools/call", params = { name = name, arguments = args or {} } }
end

-- Sends every message at once (each a task, as the stdio reader makes
-- them) and waits for all of them.
local function all(send, msgs)
  local tasks = {}
  for i, m in ipairs(msgs) do tasks[i] = send(m) end
  for _, t in ipairs(tasks) do vdx.wait(t, 120000) end
end

describe("the role argument in the registry #unit", function()
  local tools = require "vdx.tools"
  -- The tools whose own `role` is the ARIA role.
  local ARIA = { browser_find = true, browser_verify_element_visible = true }

  it("is added once, to every tool that acts in a role, and as as_role where role is the tool's own", function()
    local reg = require("vdx.builtin").register_all(tools.new())
    for _, def in ipairs(reg:list()) do
      local scope = def.scope or "role"
      local props = def.input.properties
      if scope == "role" then
        local key = ARIA[def.name] and "as_role" or "role"
        assert.equal(key, tools.role_arg(def), def.name)
        assert.equal(tools.ROLE_ARG, props[key], def.name)
      else
        assert.is_nil(props.as_role, def.name)
        assert.is_true(props.role == nil or props.role ~= tools.ROLE_ARG, def.name)
      end
    end
    assert.equal("select", reg:get("select_role").scope)
    assert.equal("server", reg:get("browser_export_test").scope)
    assert.equal("server", reg:get("list_roles").scope)
    assert.equal("none", reg:get("get_current_role").scope)
    -- Registering the same definition again (a second registry) keeps one.
    local again = require("vdx.builtin").register_all(tools.new())
    assert.equal(tools.ROLE_ARG, again:get("browser_snapshot").input.properties.role)
    assert.is_nil(again:get("browser_snapshot").input.properties.as_role)
  end)

  it("acts in the named role when a host calls the registry itself, leaving its context as it was", function()
    local reg = tools.new()
    reg:register { name = "who", description = "the role it runs in", run = function(ctx) return ctx.role.name end }
    local roles = require("vdx.roles").new {}
    roles:add { name = "alice" }
    roles:add { name = "bob" }
    local ctx = { roles = roles, role = roles:current(), role_name = "alice" }
    assert.equal("bob", reg:call("who", { role = "bob" }, ctx).content[1].text)
    assert.equal("alice", reg:call("who", {}, ctx).content[1].text)
    assert.equal("alice", ctx.role.name)
    local r = reg:call("who", { role = "carol" }, ctx)
    assert.is_true(r.isError)
    assert.equal("RoleUnknown", r.error.type)
    assert.matches("Roles: alice, bob", r.content[1].text, 1, true)
  end)

  it("says so when a tool whose role is the ARIA role is given a user role's name there", function()
    local reg = tools.new()
    reg:register { name = "find", description = "ARIA role", input = { type = "object", properties = {
      role = { type = "string", description = "ARIA role" } } }, run = function(ctx) return ctx.role.name end }
    local roles = require("vdx.roles").new {}
    roles:add { name = "provider" }
    roles:add { name = "admin" }
    local ctx = { roles = roles, role = roles:current(), role_name = "provider" }
    local r = reg:call("find", { role = "admin" }, ctx)
    assert.is_true(r.isError)
    assert.equal("InvalidArgument", r.error.type)
    assert.matches("'admin' is a role this server acts as: pass as_role: 'admin'", r.content[1].text, 1, true)
    -- An ARIA role, or the user role given as as_role, runs.
    assert.equal("provider", reg:call("find", { role = "button" }, ctx).content[1].text)
    assert.equal("admin", reg:call("find", { role = "button", as_role = "admin" }, ctx).content[1].text)
  end)

  it("refuses a scope it does not know, naming the ones there are", function()
    local err = helpers.error_of(function()
      tools.new():register { name = "x", description = "x", scope = "everything", run = function() end }
    end)
    assert.matches('scope must be "role", "select", "named", "server" or "none"', tostring(err.message or err), 1, true)
  end)

  it("lists the role argument only when the server has two roles or more", function()
    local function listed(names)
      local reg = require("vdx.builtin").register_all(require("vdx.tools").new())
      local roles = require("vdx.roles").new { launch = { headless = true } }
      for _, n in ipairs(names) do roles:add { name = n } end
      local got
      local s = mcp.new { registry = reg, roles = roles, write = function(line) got = cjson.decode(line) end }
      s:handle_line(cjson.encode { jsonrpc = "2.0", id = 1, method = "initialize", params = {
        protocolVersion = "2025-06-18", capabilities = {}, clientInfo = { name = "spec", version = "1" } } })
      s:handle_line(cjson.encode { jsonrpc = "2.0", id = 2, method = "tools/list" })
      local props = {}
      for _, t in ipairs(got.result.tools) do props[t.name] = t.inputSchema.properties end
      return props
    end
    local one, two = listed {}, listed { "alice", "bob" }
    assert.is_nil(one.browser_snapshot.role)
    assert.is_nil(one.browser_find.as_role)
    assert.is_table(one.browser_find.role)  -- the ARIA role stays
    assert.is_table(two.browser_snapshot.role)
    assert.is_table(two.browser_find.as_role)
  end)

  it("lets a tool of scope named act in the role its own role argument names", function()
    local reg = tools.new()
    local def = reg:register { name = "y", description = "y", scope = "named", input = { type = "object",
      required = { "role" }, properties = { role = { type = "string" } } }, run = function() end }
    assert.equal("role", tools.role_arg(def))
    assert.is_nil(def.input.properties.as_role)
    -- close_role runs after the calls of the role it closes.
    assert.equal("named", require("vdx.builtin.pool")[1].scope)
  end)
end)

describe("vdxlua mcp with two roles at once", function()
  local srv, dir, s, roles, send, answer

  setup(function()
    srv = helpers.serve(routes)
    dir = io.popen("mktemp -d /tmp/vdx-roles-spec.XXXXXX"):read("l")
    s, roles, send, answer = start(dir)
  end)

  teardown(function()
    if roles then roles:close() end
    if srv then srv:close() end
    if dir then os.execute("rm -rf " .. helpers.quote(dir)) end
  end)

  before_each(function() events, seq = {}, 0 end)

  it("runs two roles' slow calls at the same time", function()
    all(send, {
      call(1, "browser_navigate", { url = srv.url .. "/pair?who=a&partner=b", role = "alice" }),
      call(2, "browser_navigate", { url = srv.url .. "/pair?who=b&partner=a", role = "bob" }),
    })
    local _, a_text = answer(1)
    local _, b_text = answer(2)
    assert.matches('heading "a"', a_text, 1, true)
    assert.matches('heading "b"', b_text, 1, true)
    -- The first call as a role other than the current says, once, that it
    -- selected none (run BP thought it had).
    assert.matches("^As bob %(the current role stays alice; select_role makes bob current%): Navigated", b_text)
    local a0, a1, b0, b1 = find("start", "a"), find("end", "a"), find("start", "b"), find("end", "b")
    -- Each started before the other ended: they overlapped.
    assert.is_true(b0.seq < a1.seq, "bob's call started only after alice's ended")
    assert.is_true(a0.seq < b1.seq, "alice's call started only after bob's ended")
    io.stderr:write(("\n[roles] alice %d..%d ms, bob %d..%d ms\n"):format(0, a1.at - a0.at, b0.at - a0.at,
      b1.at - a0.at))
  end)

  it("runs a call sent after select_role beside the previous role's slow call", function()
    -- No role argument: the client switches roles as it always could.
    local first = roles:current().name
    local other = first == "alice" and "bob" or "alice"
    all(send, {
      call(5, "browser_navigate", { url = srv.url .. "/pair?who=first&partner=other" }),
      call(6, "select_role", { role = other }),
      call(7, "browser_navigate", { url = srv.url .. "/pair?who=other&partner=first" }),
    })
    assert.matches('heading "first"', select(2, answer(5)), 1, true)
    assert.matches('heading "other"', select(2, answer(7)), 1, true)
    -- Each navigate took place in its own role.
    all(send, { call(8, "browser_snapshot", {}), call(9, "select_role", { role = first }),
      call(10, "browser_snapshot", {}) })
    assert.matches("Role: " .. other .. "\n", select(2, answer(8)), 1, true)
    assert.matches('heading "other"', select(2, answer(8)), 1, true)
    assert.matches("Role: " .. first .. "\n", select(2, answer(10)), 1, true)
    assert.matches('heading "first"', select(2, answer(10)), 1, true)
    local f0, f1, o0, o1 = find("start", "first"), find("end", "first"), find("start", "other"), find("end", "other")
    assert.is_true(o0.seq < f1.seq, "the second role's call started only after the first role's ended")
    assert.is_true(f0.seq < o1.seq)
  end)

  it("runs one role's calls one at a time, in the order they arrived", function()
    all(send, {
      call(11, "browser_navigate", { url = srv.url .. "/slow?who=one", role = "bob" }),
      call(12, "browser_navigate", { url = srv.url .. "/slow?who=two", role = "bob" }),
      call(13, "browser_navigate", { url = srv.url .. "/slow?who=three", role = "bob" }),
    })
    local order = {}
    for _, e in ipairs(events) do order[#order + 1] = e.what .. " " .. e.who end
    assert.same({ "start one", "end one", "start two", "end two", "start three", "end three" }, order)
    assert.matches('heading "three"', select(2, answer(13)), 1, true)
  end)

  it("fixes a call's role when it arrives: a select_role sent later does not move it", function()
    all(send, { call(20, "select_role", { role = "alice" }) })
    all(send, {
      -- alice's lane is busy with this one; the snapshot queues behind it.
      call(21, "browser_navigate", { url = srv.url .. "/slow?who=alice-page" }),
      call(22, "browser_snapshot", {}),
      call(23, "select_role", { role = "bob" }),
      call(24, "browser_snapshot", {}),
      call(25, "get_current_role", {}),
    })
    local _, snap = answer(22)
    assert.matches("Role: alice\n", snap, 1, true)
    assert.matches('heading "alice-page"', snap, 1, true)
    assert.matches("Current role: bob", select(2, answer(23)), 1, true)
    assert.matches("Role: bob\n", select(2, answer(24)), 1, true)
    assert.equal("Current role: bob", select(2, answer(25)))
    -- The select_role ran in bob's lane, beside alice's slow call: it
    -- answered before the navigate it was sent after.
    assert.equal("bob", roles:current().name)
  end)

  it("says which role a call acted as when it named one other than the current", function()
    all(send, { call(26, "select_role", { role = "alice" }) })
    all(send, { call(27, "browser_navigate", { url = srv.url .. "/slow?who=bob-page", role = "bob" }) })
    all(send, { call(28, "browser_navigate", { url = srv.url .. "/slow?who=alice-page", role = "alice" }) })
    all(send, { call(29, "browser_snapshot", { role = "bob" }) })
    assert.matches("^As bob: Navigated to [^\n]*bob%-page", select(2, answer(27)))
    -- (alice's page showed alice-page already: a reload, with no "As".)
    assert.matches("^Reloaded [^\n]*alice%-page", select(2, answer(28)))
    -- A snapshot names its role already.
    local _, snap = answer(29)
    assert.is_nil(snap:find("As bob:", 1, true), snap)
    assert.matches("Role: bob\n", snap, 1, true)
    -- A ref the current role's page does not know, right after a call as
    -- bob: most likely one of bob's (run BE's fill_form acted as the
    -- customer with the provider page's refs).
    all(send, { call(30, "browser_click", { ref = "e99" }) })
    local r, text = answer(30)
    assert.is_true(r.isError, text)
    assert.matches('\n\nThe call before acted as bob (role: "bob"); this one acted as alice, the current role. A ref '
      .. "of bob's page: call again with role: \"bob\" (or select_role it).", text, 1, true)
  end)

  it("refuses an unknown role with the roles there are, and takes as_role where role is the ARIA role", function()
    all(send, {
      call(31, "browser_snapshot", { role = "carol" }),
      call(32, "browser_find", { role = "button", as_role = "alice" }),
      call(33, "browser_find", { role = "button", as_role = "nobody" }),
    })
    local r, text = answer(31)
    assert.is_true(r.isError)
    assert.matches("^❌ Unknown role\n", text)
    assert.matches("Roles: alice, bob", text, 1, true)
    assert.matches("list_roles()", text, 1, true)
    local _, found = answer(32)
    assert.matches('button "Finish alice-page"', found, 1, true)
    assert.is_true(answer(33).isError)
  end)

  it("cancels per call: a queued call is skipped, a running one interrupted, the rest of the lane runs", function()
    local cancel = function(id)
      return { jsonrpc = "2.0", method = "notifications/cancelled", params = { requestId = id, reason = "spec" } }
    end
    local t51 = send(call(51, "browser_navigate", { url = srv.url .. "/slow?who=c1", role = "alice" }))
    local t52 = send(call(52, "browser_navigate", { url = srv.url .. "/slow?who=skipped", role = "alice" }))
    local t53 = send(call(53, "browser_wait_for", { time = 60, role = "bob" }))
    local t54 = send(call(54, "browser_snapshot", { role = "alice" }))
    -- 52 waits behind 51 in alice's lane; 53 runs at once in bob's.
    all(send, { cancel(52), cancel(53) })
    for _, t in ipairs { t51, t52, t54 } do vdx.wait(t, 120000) end
    -- bob's 60 s wait was interrupted (the bound only proves it did not
    -- run its course).
    vdx.wait(t53, 30000)
    assert.matches('heading "c1"', select(2, answer(51)), 1, true)
    assert.matches('heading "c1"', select(2, answer(54)), 1, true)
    -- The queued navigate was skipped: the server never saw it.
    local seen = {}
    for _, e in ipairs(events) do seen[#seen + 1] = e.what .. " " .. e.who end
    assert.same({ "start c1", "end c1" }, seen)
    -- A cancelled request gets no answer.
    assert.is_false((pcall(answer, 52)))
    assert.is_false((pcall(answer, 53)))
  end)

  it("exports two roles' interleaved steps as a test that runs", function()
    local pw, why = helpers.playwright()
    if pw and not pw:match("^/") then pw = io.popen("pwd"):read("l") .. "/" .. pw end
    -- The written spec finds @playwright/test above its folder.
    if pw then os.execute(("ln -s %s %s/node_modules"):format(helpers.quote(pw .. "/node_modules"), helpers.quote(dir))) end
    -- This test's session alone (the earlier tests' wait for partners).
    s.session = require("vdx.session_log").new()
    all(send, {
      call(41, "browser_navigate", { url = srv.url .. "/slow?who=alice", role = "alice" }),
      call(42, "browser_navigate", { url = srv.url .. "/slow?who=bob", role = "bob" }),
      call(43, "browser_click", { element = "Finish alice", role = "alice", expect = { "Done alice" } }),
      call(44, "browser_click", { element = "Finish bob", role = "bob", expect = { "Done bob" } }),
    })
    for id = 41, 44 do
      local r, text = answer(id)
      assert.is_nil(r.isError, text)
    end
    local steps = s.session:list()
    local seen = {}
    for _, st in ipairs(steps) do seen[#seen + 1] = st.role .. " " .. st.kind end
    -- Each role's steps are in its own order, whatever the interleaving.
    local function order_of(role)
      local out = {}
      for _, x in ipairs(seen) do if x:match("^" .. role .. " ") then out[#out + 1] = x end end
      return out
    end
    assert.same({ "alice navigate", "alice action", "alice assert" }, order_of("alice"))
    assert.same({ "bob navigate", "bob action", "bob assert" }, order_of("bob"))
    all(send, { call(45, "browser_export_test", { filename = "two-roles", runs = 1 }) })
    local r, text = answer(45)
    assert.is_nil(r.isError, text)
    -- The roles are listed in the order of their first logged step, which
    -- the two lanes decide between them.
    assert.truthy(text:find("roles alice, bob", 1, true) or text:find("roles bob, alice", 1, true), text)
    assert.matches("every step passed 1/1", text, 1, true)
    if not pw then
      pending("Playwright not run: " .. tostring(why))
      return
    end
    assert.is_true(r.structuredContent.playwright, text)
  end)
end)
