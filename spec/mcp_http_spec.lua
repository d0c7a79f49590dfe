--- spec/mcp_http_spec.lua: `vdxlua mcp --port`, MCP over Streamable HTTP,
-- against the real browser.  The server and a fixture server run as
-- processes of their own; the spec talks HTTP to both (spec/mcp_http_client.lua).
-- The browser also listens on a DevTools port, so the spec sees which
-- pages exist (a DELETE closes its session's contexts, no one else's).
local cjson = require "cjson"
local helpers = require "helpers"
local http = require "mcp_http_client"
local mcpc = require "mcp_client"

local q, read = helpers.quote, helpers.read

local ACCEPT = "application/json, text/event-stream"

-- Waits for a line matching pat in the file at path; returns its capture.
local function wait_line(path, pat)
  local t0 = os.time()
  while os.time() - t0 < 30 do
    local m = (read(path) or ""):match(pat)
    if m then return m end
    os.execute("sleep 0.05")
  end
  error("no line matching " .. pat .. " in " .. path .. ":\n" .. tostring(read(path)))
end

local function free_port()
  local s = require("socket").bind("127.0.0.1", 0)
  local _, port = s:getsockname()
  s:close()
  return tonumber(port)
end


-- Ends the servers of pids (a signal each, then waits at most 5 s for
-- each to go) and removes dir.
local function stop(pids, dir)
  for _, pid in ipairs(pids) do os.execute("kill " .. pid .. " 2>/dev/null") end
  for _, pid in ipairs(pids) do
    for _ = 1, 100 do
      if not helpers.alive(tonumber(pid)) then break end
      os.execute("sleep 0.05")
    end
  end
  if dir then os.execute("rm -rf " .. q(dir)) end
end

describe("vdxlua mcp --port (Streamable HTTP)", function()
  local dir, port, fixtures, devtools, pids = nil, nil, nil, nil, {}

  setup(function()
    dir = mcpc.tmpdir()
    -- The fixture pages: each says whose it is (?who=A).
    helpers.write(dir .. "/fixtures.lua", [[
      local vdx = require "vdx"
      local srv = vdx.serve { port = 0, routes = {
        ["GET /page"] = function(req)
          local who = req.params.who or "nobody"
          return ("<!doctype html><title>Page of %s</title><h1>Hello %s</h1><button>Only %s</button>"):format(who, who, who)
        end } }
      local f = io.open(arg[1], "w") f:write(srv.url, "\n") f:close()
      vdx.sleep(600000)
    ]])
    os.execute(("%s %s %s/fixtures.url > /dev/null 2>&1 & echo $! > %s/fixtures.pid"):format(helpers.vdxlua,
      q(dir .. "/fixtures.lua"), q(dir), q(dir)))
    pids[#pids + 1] = read(dir .. "/fixtures.pid"):match("%d+")
    fixtures = wait_line(dir .. "/fixtures.url", "(http://[%d.:]+)")
    devtools = free_port()
    os.execute(("%s mcp --port 0 --no-default-skills --log %s --browser-arg --remote-debugging-port=%d " ..
      "> /dev/null 2>&1 & echo $! > %s/server.pid"):format(helpers.vdxlua, q(dir .. "/log"), devtools, q(dir)))
    pids[#pids + 1] = read(dir .. "/server.pid"):match("%d+")
    port = tonumber(wait_line(dir .. "/log", "at http://127%.0%.0%.1:(%d+)/mcp"))
  end)

  -- A signal ends the server, which ends its browser first.
  teardown(function() stop(pids, dir) end)

  local n = 0
  local function rpc(method, params, id)
    n = n + 1
    return cjson.encode { jsonrpc = "2.0", id = id or n, method = method, params = params or {} }
  end

  local function headers(sid, extra)
    local h = { Accept = ACCEPT, ["Content-Type"] = "application/json", ["Mcp-Session-Id"] = sid }
    for k, v in pairs(extra or {}) do h[k] = v end
    return h
  end

  local function post(sid, body, extra)
    return http.request(port, "POST", "/mcp", headers(sid, extra), body)
  end

  local function initialize(version)
    local r = post(nil, rpc("initialize", { protocolVersion = version or "2025-06-18", capabilities = {},
      clientInfo = { name = "spec", version = "1" } }))
    assert.are.equal(200, r.status)
    local sid = r.headers["mcp-session-id"]
    assert.truthy(sid and sid:match("^%x+$") and #sid == 32, "a session id of 128 random bits: " .. tostring(sid))
    assert.are.equal(202, post(sid, cjson.encode { jsonrpc = "2.0", method = "notifications/initialized" }).status)
    return sid
  end

  local function call(sid, name, args)
    local r = post(sid, rpc("tools/call", { name = name, arguments = args or {} }))
    assert.are.equal(200, r.status, r.body)
    assert.is_nil(r.json.error, r.body)
    return r.json.result.content[1].text, r.json.result
  end

  -- The URLs of the browser's page targets (DevTools' own list).
  local function page_urls()
    local r = http.request(devtools, "GET", "/json/list", {})
    local out = {}
    for _, t in ipairs(cjson.decode(r.body)) do
      if t.type == "page" then out[#out + 1] = t.url end
    end
    return table.concat(out, "\n")
  end

  it("serves two clients at once, each in its own session with its own roles", function()
    local a, b = initialize(), initialize()
    assert.are_not.equal(a, b)
    local list = post(a, rpc("tools/list"))
    assert.are.equal("application/json", list.headers["content-type"])
    local names = {}
    for _, t in ipairs(list.json.result.tools) do names[t.name] = true end
    assert.is_true(names.browser_navigate and names.browser_snapshot)
    -- Both navigations are sent before either answer is read.
    local ca = http.send(port, "POST", "/mcp", headers(a),
      rpc("tools/call", { name = "browser_navigate", arguments = { url = fixtures .. "/page?who=A" } }))
    local cb = http.send(port, "POST", "/mcp", headers(b),
      rpc("tools/call", { name = "browser_navigate", arguments = { url = fixtures .. "/page?who=B" } }))
    local ra, rb = ca:response(), cb:response()
    assert.are.equal(200, ra.status, ra.body)
    assert.are.equal(200, rb.status, rb.body)
    assert.truthy(ra.json.result.content[1].text:find("Page of A", 1, true), ra.body)
    assert.truthy(rb.json.result.content[1].text:find("Page of B", 1, true), rb.body)
    local sa, sb = call(a, "browser_snapshot"), call(b, "browser_snapshot")
    assert.truthy(sa:find('button "Only A"', 1, true), sa)
    assert.falsy(sa:find("Only B", 1, true), sa)
    assert.truthy(sb:find('button "Only B"', 1, true), sb)
    assert.falsy(sb:find("Only A", 1, true), sb)
    -- Each session's role sees its own tabs only.
    local ta, tb = call(a, "browser_tabs", { action = "list" }), call(b, "browser_tabs", { action = "list" })
    assert.truthy(ta:find("who=A", 1, true), ta)
    assert.falsy(ta:find("who=B", 1, true), ta)
    assert.truthy(tb:find("who=B", 1, true), tb)
    assert.falsy(tb:find("who=A", 1, true), tb)

    -- DELETE ends session A: its context's page goes, B's stays.
    assert.truthy(page_urls():find("who=A", 1, true))
    local d = http.request(port, "DELETE", "/mcp", { ["Mcp-Session-Id"] = a })
    assert.are.equal(200, d.status)
    local urls = page_urls()
    assert.falsy(urls:find("who=A", 1, true), urls)
    assert.truthy(urls:find("who=B", 1, true), urls)
    assert.are.equal(404, post(a, rpc("tools/list")).status)
    assert.truthy(call(b, "browser_snapshot"):find("Only B", 1, true))
    assert.are.equal(200, http.request(port, "DELETE", "/mcp", { ["Mcp-Session-Id"] = b }).status)
  end)

  it("streams progress of a slow call as server-sent events, the answer last", function()
    local sid = initialize()
    local r = post(sid, rpc("tools/call", { name = "browser_wait_for", arguments = { time = 1.5 },
      _meta = { progressToken = "slow-1" } }, 77))
    assert.are.equal(200, r.status)
    assert.truthy(r.headers["content-type"]:find("text/event-stream", 1, true))
    assert.are.equal(sid, r.headers["mcp-session-id"])
    assert.is_true(#r.events >= 2, r.body)
    for i = 1, #r.events - 1 do
      local m = r.events[i].msg
      assert.are.equal("notifications/progress", m.method)
      assert.are.equal("slow-1", m.params.progressToken)
      assert.are.equal(i, m.params.progress)
    end
    local last = r.events[#r.events].msg
    assert.are.equal(77, last.id)
    assert.truthy(last.result.content[1].text:find("Waited", 1, true), r.body)
    -- Ids are unique and in order within the stream.
    local stream = r.events[1].id:match("^(%d+)%-")
    for i, ev in ipairs(r.events) do assert.are.equal(stream .. "-" .. i, ev.id) end
    http.request(port, "DELETE", "/mcp", { ["Mcp-Session-Id"] = sid })
  end)

  it("resumes a dropped stream from Last-Event-ID with the events the client missed", function()
    local sid = initialize()
    local c = http.send(port, "POST", "/mcp", headers(sid),
      rpc("tools/call", { name = "browser_wait_for", arguments = { time = 2.5 }, _meta = { progressToken = 9 } }, 88))
    local first = c:event()
    assert.are.equal("notifications/progress", first.msg.method)
    c:drop()
    -- The server saw the client go (else the stream would still be taken: 409).
    local g = http.send(port, "GET", "/mcp", { Accept = "text/event-stream", ["Mcp-Session-Id"] = sid,
      ["Last-Event-ID"] = first.id })
    local rest = g:response()
    assert.are.equal(200, rest.status, rest.body)
    local stream, seq = first.id:match("^(%d+)%-(%d+)$")
    assert.is_true(#rest.events >= 2, rest.body)
    for i, ev in ipairs(rest.events) do assert.are.equal(stream .. "-" .. (tonumber(seq) + i), ev.id) end
    for i = 1, #rest.events - 1 do assert.are.equal(9, rest.events[i].msg.params.progressToken) end
    assert.are.equal(88, rest.events[#rest.events].msg.id)
    assert.truthy(rest.events[#rest.events].msg.result.content[1].text:find("Waited", 1, true))
    -- Resuming again from the same event replays the same events (kept).
    local again = http.request(port, "GET", "/mcp", { Accept = "text/event-stream", ["Mcp-Session-Id"] = sid,
      ["Last-Event-ID"] = first.id })
    assert.are.equal(#rest.events, #again.events)
    -- No such event: 404.
    assert.are.equal(404, http.request(port, "GET", "/mcp", { Accept = "text/event-stream",
      ["Mcp-Session-Id"] = sid, ["Last-Event-ID"] = "999-1" }).status)
    http.request(port, "DELETE", "/mcp", { ["Mcp-Session-Id"] = sid })
  end)

  it("refuses a foreign Origin or Host with 403 and accepts its own", function()
    local body = rpc("initialize", { protocolVersion = "2025-06-18", capabilities = {},
      clientInfo = { name = "spec", version = "1" } })
    local r = post(nil, body, { Origin = "http://evil.example" })
    assert.are.equal(403, r.status)
    assert.truthy(r.json.error.message:find("Origin http://evil.example", 1, true), r.body)
    assert.is_nil(r.headers["mcp-session-id"])
    r = post(nil, body, { Origin = "http://127.0.0.1:" .. (port + 1) })
    assert.are.equal(403, r.status)
    r = post(nil, body, { Host = "evil.example:" .. port })
    assert.are.equal(403, r.status)
    r = post(nil, body, { Origin = "http://localhost:" .. port })
    assert.are.equal(200, r.status, r.body)
    http.request(port, "DELETE", "/mcp", { ["Mcp-Session-Id"] = r.headers["mcp-session-id"] })
  end)

  it("wants a session id after initialize: 400 without, 404 for an unknown one", function()
    local r = post(nil, rpc("tools/list"))
    assert.are.equal(400, r.status)
    assert.truthy(r.json.error.message:find("Mcp-Session-Id", 1, true))
    assert.are.equal(404, post("0123456789abcdef0123456789abcdef", rpc("tools/list")).status)
    assert.are.equal(404, http.request(port, "DELETE", "/mcp", { ["Mcp-Session-Id"] = "nope" }).status)
    assert.are.equal(400, http.request(port, "GET", "/mcp", { Accept = "text/event-stream" }).status)
  end)

  it("answers bad JSON with a parse error and keeps serving", function()
    local sid = initialize()
    local r = post(sid, '{"jsonrpc":"2.0",')
    assert.are.equal(400, r.status)
    assert.are.equal(-32700, r.json.error.code)
    assert.are.equal(cjson.null, r.json.id)
    r = post(nil, "[not json")
    assert.are.equal(-32700, r.json.error.code)
    local ok = post(sid, rpc("tools/list"))
    assert.are.equal(200, ok.status)
    assert.truthy(#ok.json.result.tools > 10)
    http.request(port, "DELETE", "/mcp", { ["Mcp-Session-Id"] = sid })
  end)

  it("checks Accept, MCP-Protocol-Version and batches as the revision says", function()
    local sid = initialize()
    assert.are.equal(406, http.request(port, "POST", "/mcp", { Accept = "application/json",
      ["Content-Type"] = "application/json", ["Mcp-Session-Id"] = sid }, rpc("tools/list")).status)
    assert.are.equal(406, http.request(port, "GET", "/mcp", { Accept = "application/json",
      ["Mcp-Session-Id"] = sid }).status)
    local r = post(sid, rpc("tools/list"), { ["MCP-Protocol-Version"] = "1999-01-01" })
    assert.are.equal(400, r.status)
    assert.truthy(r.json.error.message:find("1999-01-01", 1, true))
    assert.are.equal(200, post(sid, rpc("tools/list"), { ["MCP-Protocol-Version"] = "2025-06-18" }).status)
    -- 2025-06-18 has no batches; 2025-03-26 has them.
    assert.are.equal(400, post(sid, "[" .. rpc("ping") .. "," .. rpc("ping") .. "]").status)
    local old = initialize("2025-03-26")
    local b = post(old, "[" .. rpc("ping", nil, 1) .. "," .. rpc("ping", nil, 2) .. "]")
    assert.are.equal(200, b.status, b.body)
    assert.are.equal(2, #b.json)
    -- A notification alone is accepted with 202 and no body.
    local note = post(old, cjson.encode { jsonrpc = "2.0", method = "notifications/cancelled",
      params = { requestId = 12345 } })
    assert.are.equal(202, note.status)
    assert.are.equal("", note.body)
    for _, s in ipairs { sid, old } do http.request(port, "DELETE", "/mcp", { ["Mcp-Session-Id"] = s }) end
  end)

  it("listens on loopback only unless --allow-remote says otherwise", function()
    local p = io.popen(helpers.vdxlua .. " mcp --port 0 --host 0.0.0.0 --no-default-skills 2>&1; echo rc=$?")
    local out = p:read("a")
    p:close()
    assert.truthy(out:find("--host 0.0.0.0 is not a loopback address", 1, true), out)
    assert.truthy(out:find("--allow-remote", 1, true), out)
    assert.truthy(out:find("rc=2", 1, true), out)
    p = io.popen(helpers.vdxlua .. " mcp --host 127.0.0.1 2>&1; echo rc=$?")
    out = p:read("a")
    p:close()
    assert.truthy(out:find("--host goes with --port", 1, true), out)
  end)

  it("serves revision 2026-07-28 without a session: version and capabilities on every request", function()
    local meta = { ["io.modelcontextprotocol/protocolVersion"] = "2026-07-28",
      ["io.modelcontextprotocol/clientCapabilities"] = {} }
    local r = post(nil, rpc("tools/list", { _meta = meta }), { ["MCP-Protocol-Version"] = "2026-07-28" })
    assert.are.equal(200, r.status, r.body)
    assert.is_nil(r.headers["mcp-session-id"])
    assert.are.equal("complete", r.json.result.resultType)
    local d = post(nil, rpc("server/discover"))
    assert.are.equal(200, d.status, d.body)
    assert.truthy(d.json.result.supportedVersions)
    -- No session stream in that revision.
    assert.are.equal(405, http.request(port, "GET", "/mcp", { Accept = "text/event-stream" }).status)
  end)
end)

-- The official MCP TypeScript SDK (bench/.peers, installed by `make
-- peers-install`; or $VDX_MCP_SDK, the folder of @modelcontextprotocol/sdk).
local function sdk_dir()
  for _, d in ipairs { os.getenv("VDX_MCP_SDK") or "", "bench/.peers/node_modules/@modelcontextprotocol/sdk" } do
    if d ~= "" and read(d .. "/package.json") then return d end
  end
end

describe("vdxlua mcp --port with the MCP TypeScript SDK's StreamableHTTPClientTransport", function()
  local sdk = sdk_dir()
  local has_node = os.execute("node --version > /dev/null 2>&1")
  if not sdk or not has_node then
    pending("needs node and @modelcontextprotocol/sdk (make peers-install, or VDX_MCP_SDK=DIR); the Lua " ..
      "spec above covers the transport without it")
    return
  end
  local dir, pids = nil, {}
  teardown(function() stop(pids, dir) end)

  it("initializes, lists, navigates, snapshots, gets progress and ends its session", function()
    dir = mcpc.tmpdir()
    helpers.write(dir .. "/fixtures.lua", [[
      local vdx = require "vdx"
      local srv = vdx.serve { port = 0, routes = { ["GET /page"] = function()
        return "<!doctype html><title>SDK page</title><button>Press me</button>" end } }
      local f = io.open(arg[1], "w") f:write(srv.url, "\n") f:close()
      vdx.sleep(600000)
    ]])
    os.execute(("%s %s %s/fixtures.url > /dev/null 2>&1 & echo $! > %s/fixtures.pid"):format(helpers.vdxlua,
      q(dir .. "/fixtures.lua"), q(dir), q(dir)))
    pids[#pids + 1] = read(dir .. "/fixtures.pid"):match("%d+")
    local fixtures = wait_line(dir .. "/fixtures.url", "(http://[%d.:]+)")
    os.execute(("%s mcp --port 0 --no-default-skills --log %s > /dev/null 2>&1 & echo $! > %s/server.pid")
      :format(helpers.vdxlua, q(dir .. "/log"), q(dir)))
    pids[#pids + 1] = read(dir .. "/server.pid"):match("%d+")
    local url = wait_line(dir .. "/log", "at (http://127%.0%.0%.1:%d+/mcp)")
    local p = io.popen(("node spec/mcp_http_sdk.mjs %s %s %s 2>&1"):format(q(sdk), q(url), q(fixtures .. "/page")))
    local text = p:read("a")
    p:close()
    local last = ""
    for l in text:gmatch("[^\n]+") do last = l end
    local ok, out = pcall(cjson.decode, last)
    assert.is_true(ok, text)
    assert.truthy(out.sessionId and #out.sessionId == 32, text)
    assert.is_true(out.tools > 10)
    assert.truthy(out.navigate:find("SDK page", 1, true), text)
    assert.truthy(out.snapshot:find('button "Press me"', 1, true), text)
    assert.truthy(out.slow:find("Waited", 1, true), text)
    assert.is_true(#out.progress >= 1, text)
    assert.is_true(out.terminated, text)
    local log = read(dir .. "/log")
    assert.truthy(log:find("closed: the client ended it (DELETE)", 1, true), log)
  end)
end)
