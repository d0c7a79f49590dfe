--- Roles against the real browser: separate cookies and storage per role,
-- auth files with several origins, missing auth with and without
-- auth_required, select/list/current.
local vdx = require "vdx"
local cjson = require "cjson"
local roles = require "vdx.roles"
local helpers = require "helpers"

local function write_json(v)
  local path = os.tmpname() .. ".json"
  local f = assert(io.open(path, "w"))
  f:write(type(v) == "string" and v or cjson.encode(v))
  f:close()
  return path
end

describe("vdx.roles", function()
  local srv, mgr, port, files
  setup(function()
    srv = helpers.serve { ["GET /whoami"] = function(req)
      return { json = { sid = req.cookies and req.cookies.sid or cjson.null } }
    end }
    port = srv.url:match(":(%d+)")
  end)
  teardown(function() srv:close() end)
  before_each(function()
    files = {}
    mgr = roles.new { launch = { headless = true } }
  end)
  after_each(function()
    mgr:close()
    for _, f in ipairs(files) do os.remove(f) end
  end)

  local function auth(state)
    local p = write_json(state)
    files[#files + 1] = p
    return p
  end

  local function cookie_state(sid)
    return { cookies = { { name = "sid", value = sid, domain = "127.0.0.1", path = "/", expires = -1,
      httpOnly = false, secure = false, sameSite = "Lax" } }, origins = {} }
  end

  it("keeps cookies separate between two roles", function()
    mgr:add { name = "alice", auth = auth(cookie_state("alice-1")) }
    mgr:add { name = "bob", auth = auth(cookie_state("bob-2")) }
    local seen = {}
    for _, name in ipairs { "alice", "bob" } do
      local page = mgr:select(name):page()
      page:navigate(srv.url .. "/whoami")
      seen[name] = { page = page:evaluate("JSON.parse(document.body.innerText).sid"),
        js = page:evaluate("document.cookie") }
    end
    assert.same({ alice = { page = "alice-1", js = "sid=alice-1" }, bob = { page = "bob-2", js = "sid=bob-2" } }, seen)
    assert.are_not.equal(mgr:role("alice").ctx:id(), mgr:role("bob").ctx:id())
  end)

  it("loads localStorage for every origin in the auth file, not only the first", function()
    local other = "http://localhost:" .. port
    mgr:add { name = "multi", auth = auth { cookies = {}, origins = {
      { origin = srv.url, localStorage = { { name = "token", value = "first" } } },
      { origin = other, localStorage = { { name = "token", value = "second" }, { name = "lang", value = "fr" } } },
    } } }
    mgr:add { name = "plain" }
    local page = mgr:select("multi"):page()
    page:navigate(srv.url .. "/core/index.html")
    assert.equal("first", page:evaluate("localStorage.getItem('token')"))
    page:navigate(other .. "/core/index.html")
    assert.equal("second", page:evaluate("localStorage.getItem('token')"))
    assert.equal("fr", page:evaluate("localStorage.getItem('lang')"))
    local p2 = mgr:select("plain"):page()
    p2:navigate(srv.url .. "/core/index.html")
    assert.equal(cjson.null, p2:evaluate("localStorage.getItem('token')") or cjson.null)
  end)

  it("fails with AuthenticationFailed when auth_required and the file is missing", function()
    mgr:add { name = "admin", auth = "/nonexistent/admin.json", auth_required = true }
    local err = helpers.error_of(function() return mgr:select("admin"):page() end)
    assert.is_true(vdx.is_error(err, "AuthenticationFailed"))
    assert.equal("admin", err.role)
    assert.equal("/nonexistent/admin.json", err.file)
    assert.matches("cannot open", err.reason)
    assert.is_nil(mgr:role("admin").ctx)
  end)

  it("fails with AuthenticationFailed on an invalid file when auth_required", function()
    mgr:add { name = "admin", auth = auth("{ not json"), auth_required = true }
    local err = helpers.error_of(function() return mgr:select("admin"):context() end)
    assert.is_true(vdx.is_error(err, "AuthenticationFailed"))
    assert.matches("not valid JSON", err.reason)
  end)

  it("only warns about a missing auth file when auth is not required", function()
    mgr:add { name = "guest", auth = "/nonexistent/guest.json" }
    local page = mgr:select("guest"):page()
    page:navigate(srv.url .. "/whoami")
    assert.is_nil(page:evaluate("JSON.parse(document.body.innerText).sid"))
    local log = mgr:role("guest").failures:drain()
    assert.equal(1, #log)
    assert.equal("auth", log[1].kind)
    assert.matches("^/nonexistent/guest.json: cannot open", log[1].message)
  end)

  it("opens the default URL on first use and lists, selects and reports roles", function()
    mgr:add { name = "a", url = srv.url .. "/core/index.html" }
    mgr:add { name = "b", auth = "-" }
    assert.equal("a", mgr:current().name)
    local page = mgr:current():page()
    assert.equal(srv.url .. "/core/index.html", page:evaluate("location.href"))
    local list = mgr:list()
    assert.same({ name = "a", url = srv.url .. "/core/index.html", auth_required = false, active = true,
      current = true, pages = 1 }, list[1])
    assert.same({ name = "b", auth_required = false, active = false, current = false, pages = 0 }, list[2])
    mgr:select("b")
    assert.equal("b", mgr:current().name)
    local err = helpers.error_of(mgr.select, mgr, "nobody")
    assert.is_true(vdx.is_error(err, "RoleUnknown"))
    assert.same({ "a", "b" }, err.roles)
  end)

  it("starts a role's context and page once when two tasks ask at the same time", function()
    local r = mgr:add { name = "solo" }
    local a = vdx.spawn(function() return r:page() end)
    local b = vdx.spawn(function() return r:page() end)
    local pa, pb = vdx.wait(a), vdx.wait(b)
    assert.equal(pa, pb)
    assert.equal(1, #r.pages)
    -- The first role without auth takes the browser's default context
    -- and the tab the browser started with: no context and no tab more.
    local browser = mgr:browser(nil)
    assert.equal("", r:context():id())
    assert.same({}, browser:send("Target.getBrowserContexts", {}).browserContextIds)
    local tabs = {}
    for _, t in ipairs(browser:send("Target.getTargets", {}).targetInfos) do
      if t.type == "page" then tabs[#tabs + 1] = t.targetId end
    end
    assert.same({ pa:target_id() }, tabs)
  end)

  it("gives each further role without auth a context of its own", function()
    local first, second = mgr:add { name = "first" }, mgr:add { name = "second" }
    local p1, p2 = first:page(), second:page()
    p1:navigate(srv.url .. "/whoami")
    p2:navigate(srv.url .. "/whoami")
    p1:evaluate("document.cookie = 'who=first; path=/'")
    assert.equal("", first:context():id())
    assert.are_not.equal("", second:context():id())
    assert.equal("", p2:evaluate("document.cookie"))
    assert.equal("who=first", p1:evaluate("document.cookie"))
  end)

  it("reads roles from a config file", function()
    local cfg = os.tmpname() .. ".lua"
    files[#files + 1] = cfg
    local f = assert(io.open(cfg, "w"))
    f:write([[return { default_role = "provider", roles = {
      customer = { auth = "c.json", url = "http://127.0.0.1:1/" },
      provider = { auth = "p.json", auth_required = true, endpoint = "ws://127.0.0.1:9/x" } } }]])
    f:close()
    assert.is_table(mgr:load_config(cfg))
    assert.equal("provider", mgr:current().name)
    assert.is_true(mgr:role("provider").auth_required)
    assert.equal("ws://127.0.0.1:9/x", mgr:role("provider").endpoint)
    mgr:set_endpoint("customer", "http://127.0.0.1:9222")
    assert.equal("http://127.0.0.1:9222", mgr:role("customer").endpoint)
    local err = helpers.error_of(mgr.add, mgr, { name = "x", bogus = 1 })
    assert.is_true(vdx.is_error(err, "InvalidArgument"), tostring(err))
    assert.matches("role: unknown key 'bogus'$", err.message)
    assert.equal("bogus", err.field)
  end)
end)
