--- The browser farm: browserless (npm @browserless.io/browserless, the
-- open-source farm, started by build-aux/farm.mjs on 127.0.0.1 with Debian's
-- Chromium) serves Chromium over CDP.  Two farm processes stand for two
-- endpoints.  Shown against them: vdx.connect, a flow whose two roles run
-- on the two endpoints with storageState auth applied on the remote
-- contexts, `vdxlua FLOW --endpoint URL` moving every role onto the farm,
-- and `vdxlua mcp --role-endpoint`; after each close the farm has no
-- session and no Chromium left.  Farms start and stop through
-- spec/farms.lua; without browserless (no Node and npm, or offline) the
-- specs are pending, saying so.
local vdx = require "vdx"
local cjson = require "cjson"
local flow = require "vdx.flow"
local helpers = require "helpers"
local client = require "mcp_client"
local farms = require "farms"

local q, read = client.quote, client.read
local sessions, farm_browsers, drained = farms.sessions, farms.browsers, farms.drained

local function write_json(v)
  local path = os.tmpname() .. ".json"
  local f = assert(io.open(path, "w"))
  f:write(cjson.encode(v))
  f:close()
  return path
end

describe("the browser farm (browserless)", function()
  local why, broken, farm_list, srv, files = nil, nil, {}, nil, {}

  setup(function()
    why = farms.missing()
    if why then return end
    for i = 1, 2 do
      local f, log = farms.start()
      if not f then broken = "browserless is installed but did not start: " .. tostring(log):sub(-600) return end
      farm_list[i] = f
    end
    srv = helpers.serve {
      ["GET /whoami"] = function(req)
        local sid = req.cookies and req.cookies.sid or "nobody"
        return { headers = { ["Content-Type"] = "text/html" },
          body = ("<title>who</title><h1>signed in as %s</h1><button>Go</button>"):format(sid) }
      end,
    }
  end)

  teardown(function()
    for _, f in ipairs(farm_list) do f.stop() end
    if srv then srv:close() end
    for _, f in ipairs(files) do os.remove(f) end
  end)

  local function need_farm()
    if why then pending(why) return false end
    assert(not broken, broken)
    for i, f in ipairs(farm_list) do
      local n, err = sessions(f)
      assert(n, ("farm %d does not answer /sessions: %s %s"):format(i, tostring(err), (read(f.log) or ""):sub(-400)))
    end
    return true
  end

  local function auth(sid)
    local path = write_json { cookies = { { name = "sid", value = sid, domain = "127.0.0.1", path = "/",
      expires = -1, httpOnly = false, secure = false, sameSite = "Lax" } }, origins = {} }
    files[#files + 1] = path
    return path
  end

  it("vdx.connect drives a page on the farm and leaves nothing open after close", function()
    if not need_farm() then return end
    local farm = farm_list[1]
    local b = vdx.connect(farm.endpoint)
    local page = b:new_context():new_page()
    page:navigate(srv.url .. "/whoami")
    assert.matches('heading "signed in as nobody"', page:snapshot {}.text, 1, true)
    assert.equal(1, sessions(farm))
    assert.is_true(farm_browsers(farm) >= 1)
    b:close()
    local s, n = drained(farm)
    assert.same({ 0, 0 }, { s, n })
  end)

  it("runs a flow whose two roles are on two farm endpoints, signed in from storageState", function()
    if not need_farm() then return end
    local seen = {}
    local status, f = flow.run({ name = "farm", base_url = srv.url, quiet = true }, function(fl)
      fl:role("alice", { endpoint = farm_list[1].endpoint, auth = auth("alice-1") })
      fl:role("bob", { endpoint = farm_list[2].endpoint, auth = auth("bob-2") })
      fl:as("alice", function(p)
        p:navigate("/whoami")
        p:expect_text("signed in as alice-1")
      end)
      fl:as("bob", function(p)
        p:navigate("/whoami")
        p:expect_text("signed in as bob-2")
      end)
      seen = { sessions(farm_list[1]), sessions(farm_list[2]),
        fl.roles.alice.role.browser:endpoint(), fl.roles.bob.role.browser:endpoint() }
    end)
    assert.equal(0, status, f.failure and f.failure.text)
    assert.same({ 1, 1, farm_list[1].endpoint, farm_list[2].endpoint }, seen)
    for _, farm in ipairs(farm_list) do
      local s, n = drained(farm)
      assert.same({ 0, 0 }, { s, n })
    end
  end)

  it("moves every role of a flow onto the farm with `vdxlua FLOW --endpoint URL`", function()
    if not need_farm() then return end
    local script = os.tmpname() .. ".lua"
    files[#files + 1] = script
    local fh = assert(io.open(script, "w"))
    fh:write([[
local flow = require "vdx.flow"
return flow.run({ name = "two roles", quiet = true }, function(f)
  f:role("one", {})
  f:role("two", {})
  for _, name in ipairs { "one", "two" } do
    f:as(name, function(p)
      p:navigate("data:text/html,<h1>role " .. name .. "</h1>")
      p:expect_text("role " .. name)
    end)
    print(name .. " " .. f.roles[name].role.browser:endpoint())
  end
end)
]])
    fh:close()
    local out, st = helpers.run(("%s %s --endpoint %s"):format(helpers.vdxlua, q(script), q(farm_list[2].endpoint)))
    assert.equal(0, st, out)
    assert.matches("one " .. farm_list[2].endpoint, out, 1, true)
    assert.matches("two " .. farm_list[2].endpoint, out, 1, true)
    local s, n = drained(farm_list[2])
    assert.same({ 0, 0 }, { s, n })
  end)

  it("serves `vdxlua mcp --role-endpoint` on the farm with storageState auth per role", function()
    if not need_farm() then return end
    local s = client.start(("--role alice %s --role-endpoint alice %s --role bob %s --role-endpoint bob %s")
      :format(q(auth("alice-1")), q(farm_list[1].endpoint), q(auth("bob-2")), q(farm_list[2].endpoint)))
    s:send(client.initialize(1, "2025-06-18"))
    assert.truthy(s:wait_for(1))
    s:send(client.call(2, "browser_navigate", { url = srv.url .. "/whoami" }))
    s:send(client.call(3, "browser_snapshot", {}))
    local snap = s:wait_for(3, 60000)
    assert.matches('heading "signed in as alice-1"', client.text(snap), 1, true)
    s:send(client.call(4, "select_role", { role = "bob" }))
    s:send(client.call(5, "browser_navigate", { url = srv.url .. "/whoami" }))
    s:send(client.call(6, "browser_snapshot", {}))
    snap = s:wait_for(6, 60000)
    assert.matches('heading "signed in as bob-2"', client.text(snap), 1, true)
    assert.same({ 1, 1 }, { sessions(farm_list[1]), sessions(farm_list[2]) })
    local rc = s:close()
    assert.equal(0, rc)
    for _, farm in ipairs(farm_list) do
      local left, n = drained(farm)
      assert.same({ 0, 0 }, { left, n })
    end
  end)
end)
