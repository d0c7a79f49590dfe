--- The browser farm: browserless (npm @browserless.io/browserless, the
-- open-source farm, started by build-aux/farm.mjs on 127.0.0.1 with Debian's
-- Chromium) serves Chromium over CDP.  Two farm processes stand for two
-- endpoints.  Shown against them: vdx.connect, a flow whose two roles run
-- on the two endpoints with storageState auth applied on the remote
-- contexts, `vdxlua FLOW --endpoint URL` moving every role onto the farm,
-- and `vdxlua mcp --role-endpoint`; after each close the farm has no
-- session and no Chromium left.  `make deps` installs browserless into
-- build/farm (or $VDX_FARM_DIR, git-ignored) with browser downloads
-- skipped; without it (no Node and npm, or offline) the specs are pending,
-- saying so.
local vdx = require "vdx"
local cjson = require "cjson"
local flow = require "vdx.flow"
local helpers = require "helpers"
local client = require "mcp_client"

local FARM_DIR = os.getenv("VDX_FARM_DIR") or "build/farm"
local TOKEN = "vdx-farm-spec"

local q, read = client.quote, client.read

local function write_json(v)
  local path = os.tmpname() .. ".json"
  local f = assert(io.open(path, "w"))
  f:write(cjson.encode(v))
  f:close()
  return path
end

-- Nil when browserless is installed in FARM_DIR and Node can run it, or why
-- not.  `make deps` (build-aux/deps.sh) installs it; the spec installs nothing.
local function installed()
  local _, has = helpers.run("command -v node")
  if has ~= 0 then return "Node is not installed: browserless cannot run here" end
  if not read(FARM_DIR .. "/node_modules/@browserless.io/browserless/package.json") then
    return "browserless is not installed in " .. FARM_DIR .. ": run make deps (it needs Node and npm)"
  end
end

local function free_port()
  local s = helpers.serve {}
  local port = s.url:match(":(%d+)")
  s:close()
  return port
end

-- Starts one farm process; returns { port, endpoint, pid, log, stop }.
-- Its standard input is a FIFO this process holds: closing it (or this
-- process ending) stops the farm and its browsers.
local function start_farm()
  local p = io.popen("mktemp -d /tmp/vdx-farm-spec.XXXXXX")
  local dir = p:read("l")
  p:close()
  local port = free_port()
  os.execute("mkfifo " .. q(dir .. "/in"))
  os.execute(("sh -c 'echo $$ > %s; exec node build-aux/farm.mjs %s %s %s' < %s > %s 2>&1 &"):format(
    q(dir .. "/pid"), q(FARM_DIR), port, TOKEN, q(dir .. "/in"), q(dir .. "/log")))
  local w = assert(io.open(dir .. "/in", "wb"))
  local farm = { port = port, dir = dir, log = dir .. "/log",
    endpoint = ("ws://127.0.0.1:%s/chromium?token=%s"):format(port, TOKEN) }
  client.wait_until(function() return (read(farm.log) or ""):find("farm: serving", 1, true) end, 90000)
  farm.pid = tonumber(read(dir .. "/pid"))
  function farm.stop()
    if w then w:close() w = nil end
    client.wait_until(function() return not helpers.alive(farm.pid) end, 20000)
    os.execute("rm -rf " .. q(dir))
  end
  return farm
end

-- The browsers the farm has open for clients (distinct browsers among
-- the targets its /sessions route lists), or nil and the reason.
local function sessions(farm)
  local out, st = helpers.run(("node -e %s"):format(q(
    ("fetch('http://127.0.0.1:%s/sessions?token=%s').then(r => r.json())" ..
     ".then(j => console.log(new Set(j.map((s) => s.browserId)).size))"):format(farm.port, TOKEN))))
  if st ~= 0 then return nil, out end
  return tonumber(out:match("(%d+)"))
end

-- Chromium processes the farm process started (its descendants).
local function farm_browsers(farm)
  local kids = {}
  local p = io.popen("ps -e -o pid=,ppid=,stat=,comm=")
  for line in p:lines() do
    local pid, ppid, stat, comm = line:match("(%d+)%s+(%d+)%s+(%S+)%s+(.*)")
    if pid and not stat:match("Z") then kids[#kids + 1] = { tonumber(pid), tonumber(ppid), comm } end
  end
  p:close()
  local mine, n, grew = { [farm.pid] = true }, 0, true
  while grew do
    grew = false
    for _, k in ipairs(kids) do
      if mine[k[2]] and not mine[k[1]] then mine[k[1]] = true grew = true end
    end
  end
  for _, k in ipairs(kids) do
    if mine[k[1]] and k[3]:match("chrom") then n = n + 1 end
  end
  return n
end

-- Waits until the farm has no session and no browser process left;
-- returns the last counts seen.
local function drained(farm)
  local s, b
  client.wait_until(function()
    s, b = sessions(farm), farm_browsers(farm)
    return s == 0 and b == 0
  end, 20000)
  return s, b
end

describe("the browser farm (browserless)", function()
  local why, farms, srv, files = nil, {}, nil, {}

  setup(function()
    why = installed()
    if why then return end
    farms[1], farms[2] = start_farm(), start_farm()
    srv = helpers.serve {
      ["GET /whoami"] = function(req)
        local sid = req.cookies and req.cookies.sid or "nobody"
        return { headers = { ["Content-Type"] = "text/html" },
          body = ("<title>who</title><h1>signed in as %s</h1><button>Go</button>"):format(sid) }
      end,
    }
  end)

  teardown(function()
    for _, f in ipairs(farms) do f.stop() end
    if srv then srv:close() end
    for _, f in ipairs(files) do os.remove(f) end
  end)

  local function need_farm()
    if why then pending(why) return false end
    for i, f in ipairs(farms) do
      if not f.pid or sessions(f) == nil then
        pending(("browserless installed but farm %d did not start: %s"):format(i, (read(f.log) or ""):sub(-400)))
        return false
      end
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
    local farm = farms[1]
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
      fl:role("alice", { endpoint = farms[1].endpoint, auth = auth("alice-1") })
      fl:role("bob", { endpoint = farms[2].endpoint, auth = auth("bob-2") })
      fl:as("alice", function(p)
        p:navigate("/whoami")
        p:expect_text("signed in as alice-1")
      end)
      fl:as("bob", function(p)
        p:navigate("/whoami")
        p:expect_text("signed in as bob-2")
      end)
      seen = { sessions(farms[1]), sessions(farms[2]),
        fl.roles.alice.role.browser:endpoint(), fl.roles.bob.role.browser:endpoint() }
    end)
    assert.equal(0, status, f.failure and f.failure.text)
    assert.same({ 1, 1, farms[1].endpoint, farms[2].endpoint }, seen)
    for _, farm in ipairs(farms) do
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
    local out, st = helpers.run(("%s %s --endpoint %s"):format(helpers.vdxlua, q(script), q(farms[2].endpoint)))
    assert.equal(0, st, out)
    assert.matches("one " .. farms[2].endpoint, out, 1, true)
    assert.matches("two " .. farms[2].endpoint, out, 1, true)
    local s, n = drained(farms[2])
    assert.same({ 0, 0 }, { s, n })
  end)

  it("serves `vdxlua mcp --role-endpoint` on the farm with storageState auth per role", function()
    if not need_farm() then return end
    local s = client.start(("--role alice %s --role-endpoint alice %s --role bob %s --role-endpoint bob %s")
      :format(q(auth("alice-1")), q(farms[1].endpoint), q(auth("bob-2")), q(farms[2].endpoint)))
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
    assert.same({ 1, 1 }, { sessions(farms[1]), sessions(farms[2]) })
    local rc = s:close()
    assert.equal(0, rc)
    for _, farm in ipairs(farms) do
      local left, n = drained(farm)
      assert.same({ 0, 0 }, { left, n })
    end
  end)
end)
