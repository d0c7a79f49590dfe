--- Farms as hosted farms behave, against browserless on 127.0.0.1
-- (spec/farms.lua): credentials in the query or in an Authorization
-- header, an http:// endpoint resolved through /json/version, wss:// and
-- https:// through a TLS-terminating proxy with a certificate made here
-- (trusted with ca = FILE, or accepted with insecure = true, refused with
-- a TLSFailed otherwise), the 429 of a full farm (CONCURRENT=1 QUEUED=0)
-- as FarmBusy after bounded retries, and a farm killed in the middle of a
-- flow as ConnectionLost naming the role and the endpoint.  Pending,
-- saying why, only without Node or browserless.
local vdx = require "vdx"
local flow = require "vdx.flow"
local helpers = require "helpers"
local farms = require "farms"
local mcp = require "mcp_client"

local q, read = helpers.quote, helpers.read
local TOKEN = farms.TOKEN

-- The ws:// URL of f's Chromium route, without the token.
local function bare(f) return ("ws://127.0.0.1:%s/chromium"):format(f.port) end

-- Connects, opens a page and reads it back; returns the browser's endpoint.
local function drive(endpoint, opts)
  local b = vdx.connect(endpoint, opts)
  local page = b:new_context():new_page()
  page:navigate("data:text/html,<h1>on the farm</h1>")
  local text = page:snapshot {}.text
  local where = b:endpoint()
  b:close()
  assert.matches('heading "on the farm"', text, 1, true)
  return where
end

-- Starts `sh -c CMD` in the background, its output in out; returns its pid.
local function background(cmd, out)
  local pidfile = out .. ".pid"
  os.execute(("sh -c %s > %s 2>&1 &"):format(q("echo $$ > " .. q(pidfile) .. "; exec " .. cmd), q(out)))
  return tonumber(farms.wait_until(function() return (read(pidfile) or ""):match("%d+") end, 10000))
end

-- Runs a flow of one role (opts added to flow.run's) that must fail before
-- its page opens with an error of kind titled title, and no traceback;
-- returns the failure text.
local function failed_flow(opts, role, kind, title)
  opts.name, opts.quiet = "fails at the start", true
  local status, f = flow.run(opts, function(fl)
    fl:role(role, {})
    fl:as(role, function(p) p:navigate("data:text/html,hi") end)
  end)
  assert.equal(1, status)
  assert.equal(kind, f.failure.error.type)
  assert.matches("❌ " .. title, f.failure.text, 1, true)
  assert.not_matches("Traceback", f.failure.text, 1, true)
  return f.failure.text
end

describe("farms with credentials, TLS, limits and crashes (browserless)", function()
  local why, broken, farm, tls = nil, nil, nil, nil

  setup(function()
    why = farms.missing()
    if why then return end
    local log
    farm, log = farms.start()
    if not farm then broken = "browserless did not start: " .. tostring(log):sub(-600) end
  end)

  teardown(function()
    if farm then farm.stop() end
    if tls then
      os.execute("kill " .. tls.pid .. " 2>/dev/null")
      os.execute("rm -rf " .. q(tls.dir))
    end
  end)

  local function need_farm()
    if why then pending(why) return false end
    assert(not broken, broken)
    return true
  end

  -- A TLS proxy in front of the farm, with a self-signed certificate for
  -- 127.0.0.1 made now: { port, cert, pid, dir }.
  local function tls_proxy()
    if tls then return tls end
    local dir = farms.tmpdir()
    local cert, key = dir .. "/cert.pem", dir .. "/key.pem"
    local out, rc = helpers.run(("openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 " ..
      "-addext subjectAltName=IP:127.0.0.1 -days 1 -keyout %s -out %s"):format(q(key), q(cert)))
    assert.equal(0, rc, out)
    local pid = background(("node spec/fixtures/tls_proxy.mjs %s %s 0 %s %d"):format(q(cert), q(key), farm.port,
      farms.my_pid()), dir .. "/port")
    local port = farms.wait_until(function() return (read(dir .. "/port") or ""):match("tls_proxy: (%d+)") end,
      20000)
    assert.truthy(port, "the TLS proxy did not start")
    tls = { port = port, cert = cert, pid = pid, dir = dir }
    return tls
  end

  it("takes the token in the query or as an Authorization: Bearer header, and names a refusal", function()
    if not need_farm() then return end
    assert.equal(farm.endpoint, drive(farm.endpoint))
    assert.equal(bare(farm), drive(bare(farm), { headers = { Authorization = "Bearer " .. TOKEN } }))
    for _, opts in ipairs { {}, { headers = { Authorization = "Bearer wrong" } } } do
      local e = helpers.error_of(vdx.connect, bare(farm), opts)
      assert.equal("ConnectFailed", e.type)
      assert.equal(401, e.status)
      assert.matches("refused the credentials (HTTP 401)", e.message, 1, true)
    end
  end)

  it("resolves an http:// endpoint through /json/version, keeping its token or headers", function()
    if not need_farm() then return end
    local via_query = drive(farm.http)
    assert.equal(("ws://127.0.0.1:%s/?token=%s"):format(farm.port, TOKEN), via_query)
    local via_header = drive(("http://127.0.0.1:%s/"):format(farm.port),
      { headers = { Authorization = "Bearer " .. TOKEN } })
    assert.equal(("ws://127.0.0.1:%s/"):format(farm.port), via_header)
    local e = helpers.error_of(vdx.connect, ("http://127.0.0.1:%s"):format(farm.port))
    assert.equal("ConnectFailed", e.type)
    assert.equal(401, e.status)
    assert.same({ 0, 0 }, { farms.drained(farm) })
  end)

  it("speaks wss:// and https:// with a CA file or insecure, and refuses an untrusted certificate", function()
    if not need_farm() then return end
    local t = tls_proxy()
    local wss = ("wss://127.0.0.1:%s/chromium?token=%s"):format(t.port, TOKEN)
    assert.equal(wss, drive(wss, { ca = t.cert }))
    assert.equal(wss, drive(wss, { insecure = true }))
    assert.equal(("wss://127.0.0.1:%s/?token=%s"):format(t.port, TOKEN),
      drive(("https://127.0.0.1:%s?token=%s"):format(t.port, TOKEN), { ca = t.cert }))
    assert.equal(("wss://127.0.0.1:%s/chromium"):format(t.port), drive(("wss://127.0.0.1:%s/chromium"):format(t.port),
      { insecure = true, headers = { Authorization = "Bearer " .. TOKEN } }))
    for _, ep in ipairs { wss, ("https://127.0.0.1:%s?token=%s"):format(t.port, TOKEN) } do
      local e = helpers.error_of(vdx.connect, ep)
      assert.equal("TLSFailed", e.type)
      assert.matches("?token=…: the server's certificate was refused: self-signed certificate", e.message, 1, true)
      assert.not_matches(TOKEN, e.message, 1, true)
    end
    -- A plain port given as wss:// is a TLS failure too, not a hang.
    local plain = helpers.error_of(vdx.connect, (farm.endpoint:gsub("^ws:", "wss:")), { insecure = true })
    assert.equal("TLSFailed", plain.type)
    assert.matches("is it a plain ws:// or http:// port?", plain.message, 1, true)
    assert.same({ 0, 0 }, { farms.drained(farm) })
  end)

  it("runs a flow on wss:// with --cacert and --header, saying its browser_args do not reach the farm", function()
    if not need_farm() then return end
    local t = tls_proxy()
    local script = helpers.write(os.tmpname() .. ".lua", [[
local flow = require "vdx.flow"
return flow.run({ name = "over tls", browser_args = { "--host-resolver-rules=MAP shop.test 127.0.0.1" } }, function(f)
  f:role("one", {})
  f:as("one", function(p)
    p:navigate("data:text/html,<h1>over tls</h1>")
    p:expect_text("over tls")
  end)
  print("endpoint " .. f.roles.one.role.browser:endpoint())
end)
]])
    local ep = ("wss://127.0.0.1:%s/chromium"):format(t.port)
    local out, st = helpers.run(("%s %s --endpoint %s --cacert %s --header %s"):format(helpers.vdxlua, q(script), q(ep),
      q(t.cert), q("Authorization: Bearer " .. TOKEN)))
    assert.equal(0, st, out)
    assert.matches("endpoint " .. ep, out, 1, true)
    assert.matches("vdx.flow: role one runs on " .. ep .. ", which gets none of the flow's browser_args " ..
      "(--host-resolver-rules=MAP shop.test 127.0.0.1)", out, 1, true)
    out, st = helpers.run(("%s %s --endpoint %s"):format(helpers.vdxlua, q(script), q(ep)))
    os.remove(script)
    assert.equal(1, st, out)
    assert.matches("The TLS connection to the endpoint failed", out, 1, true)
    assert.matches("--cacert FILE", out, 1, true)
  end)

  it("serves an MCP role on a farm with --header; once the farm is gone the server answers and goes on", function()
    if not need_farm() then return end
    local doomed, log = farms.start()
    assert.truthy(doomed, log)
    local s = mcp.start(("--role alice - --role-endpoint alice %s --header %s"):format(q(bare(doomed)),
      q("Authorization: Bearer " .. TOKEN)))
    s:send(mcp.initialize(1, "2025-06-18"))
    assert.truthy(s:wait_for(1))
    s:send(mcp.call(2, "browser_navigate", { url = "data:text/html,<h1>mcp on the farm</h1>" }))
    s:send(mcp.call(3, "browser_snapshot", {}))
    assert.matches('heading "mcp on the farm"', mcp.text(s:wait_for(3, 60000)), 1, true)
    doomed.kill()
    doomed.stop()
    s:send(mcp.call(4, "browser_snapshot", {}))
    local text = mcp.text(s:wait_for(4, 60000))
    assert.matches("role alice: cannot reach the browser at " .. bare(doomed), text, 1, true)
    s:send(mcp.call(5, "list_roles", {}))
    assert.matches("alice", mcp.text(s:wait_for(5, 30000)), 1, true)
    assert.equal(0, s:close())
  end)

  it("names an endpoint without a scheme where it enters, with the URLs to write instead", function()
    local out, st = helpers.run(helpers.vdxlua .. " examples/flow.lua --endpoint 127.0.0.1:9222")
    assert.equal(2, st, out)
    assert.matches("--endpoint '127.0.0.1:9222' has no scheme: write http://127.0.0.1:9222", out, 1, true)
    assert.not_matches("traceback", out)
    local e = helpers.error_of(vdx.connect, "127.0.0.1:9222")
    assert.equal("InvalidEndpoint", e.type)
    assert.matches("ws://127.0.0.1:9222", e.message, 1, true)
    assert.equal("InvalidEndpoint", helpers.error_of(vdx.connect, "ftp://127.0.0.1:9222").type)
    -- As a flow option: the role's failure, with no stack trace.
    local text = failed_flow({ endpoint = "127.0.0.1:9222" }, "alice", "InvalidEndpoint", "Not a browser endpoint")
    assert.matches("role alice: '127.0.0.1:9222' has no scheme", text, 1, true)
  end)

  it("asks a full farm again with doubling waits: FarmBusy after the last try, a browser once a place frees",
    function()
      if not need_farm() then return end
      local full, log = farms.start("CONCURRENT=1 QUEUED=0")
      assert.truthy(full, log)
      local ok, err = pcall(function()
        local first = vdx.connect(full.endpoint)
        local e = helpers.error_of(vdx.connect, full.endpoint, { retries = 2, backoff_ms = 50 })
        assert.equal("FarmBusy", e.type)
        assert.equal(429, e.status)
        assert.equal(3, e.tries)
        assert.matches("3 tries over 150 ms (retries = 2)", e.message, 1, true)
        assert.not_matches(TOKEN, e.message, 1, true)
        -- A flow's role on the full farm fails with it, named, and the
        -- flow's connect option sets the tries.
        local text = failed_flow({ endpoint = full.endpoint, connect = { retries = 1, backoff_ms = 50 } }, "carol",
          "FarmBusy", "The browser farm is full")
        assert.matches("role carol: ws://127.0.0.1:" .. full.port .. "/chromium?token=…: cannot connect: the farm is " ..
          "full (HTTP 429 Too Many Requests), 2 tries over 50 ms (retries = 1)", text, 1, true)
        local refusals = select(2, read(full.log):gsub("sending 429", ""))
        assert.equal(5, refusals)
        -- The first session ends while the second waits between tries.
        local second, failure
        vdx.spawn(function()
          local okc, res = pcall(vdx.connect, full.endpoint, { retries = 8, backoff_ms = 100 })
          if okc then second = res else failure = res end
        end)
        assert.truthy(farms.wait_until(function()
          return select(2, read(full.log):gsub("sending 429", "")) > refusals
        end, 30000))
        first:close()
        farms.wait_until(function() return second or failure end, 60000)
        assert.is_nil(failure and failure.message)
        assert.equal(full.endpoint, second:endpoint())
        second:close()
      end)
      full.stop()
      assert(ok, err)
    end)

  it("fails the role whose farm is killed mid-flow with ConnectionLost naming the role and the endpoint",
    function()
      if not need_farm() then return end
      local doomed, log = farms.start()
      assert.truthy(doomed, log)
      local bob_after
      local status, f = flow.run({ name = "farm dies", quiet = true }, function(fl)
        fl:role("alice", { endpoint = doomed.endpoint })
        fl:role("bob", { endpoint = farm.endpoint })
        fl:as("alice", function(p)
          p:navigate("data:text/html,<h1>alice here</h1>")
          p:expect_text("alice here")
        end)
        fl:as("bob", function(p) p:navigate("data:text/html,<h1>bob here</h1>") end)
        doomed.kill()
        fl:as("bob", function(p)
          p:expect_text("bob here")
          bob_after = true
        end)
        fl:as("alice", function(p) p:navigate("data:text/html,<h1>again</h1>") end)
      end)
      doomed.stop()
      assert.equal(1, status)
      assert.is_true(bob_after)
      local e = f.failure.error
      assert.equal("ConnectionLost", e.type)
      assert.equal("alice", e.flow_role)
      assert.matches(("role alice: the connection to ws://127.0.0.1:%s/chromium?token=… was lost"):format(doomed.port),
        e.message, 1, true)
      assert.matches("The connection to the remote browser was lost", f.failure.text, 1, true)
      -- The host goes on: the surviving farm still serves.
      assert.equal(farm.endpoint, drive(farm.endpoint))
      assert.same({ 0, 0 }, { farms.drained(farm) })
    end)
end)
