--- spec/network_mcp_spec.lua: the network tools through `vdxlua mcp`:
-- browser_network_state_set takes the role offline (a fetch the page
-- makes fails) and back online (it works), throttles with a preset and
-- refuses a call that sets nothing; browser_cpu_throttle;
-- browser_pdf_save writes a PDF into the output folder; the exported
-- test carries context.setOffline() and a comment for the throttling.
local helpers = require "helpers"
local client = require "mcp_client"

local q = client.q

describe("vdxlua mcp network tools", function()
  local srv, dir, s, request, call

  setup(function()
    srv = helpers.serve {
      ["GET /net"] = function()
        return [[<title>Net</title><button onclick="fetch('/api/ping?n=' + Math.random()).then(r => r.text(),
          e => 'failed').then(t => { document.getElementById('out').textContent = 'Result: ' + t })">Ping</button>
          <p id="out">Result: none</p>]]
      end,
      ["GET /rtt"] = function()
        -- (The browser adds noise to the round trip it reports: 900 for 1000.)
        return [[<title>RTT</title><button onclick="out.textContent = 'Network: ' +
          (navigator.connection.rtt >= 500 ? 'slow' : 'fast')">Measure</button>
          <p id="out">Network: unknown</p>]]
      end,
      ["GET /api/ping"] = function() return { headers = { ["content-type"] = "text/plain" }, body = "pong" } end,
    }
    dir = client.tmpdir()
    -- Where Node is, the exported test also runs under real Playwright.
    local pw = helpers.playwright()
    if pw and not pw:match("^/") then pw = io.popen("pwd"):read("l") .. "/" .. pw end
    s = client.start("--caps network,pdf --output-dir " .. q(dir .. "/out"), pw and ("VDX_PLAYWRIGHT_DIR=" .. q(pw)) or nil)
    request, call = client.caller(s)
  end)

  teardown(function()
    if s then s:close(30000) end
    if srv then srv:close() end
    if dir then os.execute("rm -rf " .. q(dir)) end
  end)

  local function text(r) return client.text { result = r } end

  local function ping(expect)
    call("browser_click", { element = "Ping button" })
    local r = call("browser_wait_for", { text = "Result: " .. expect })
    assert.is_not_true(r.isError, text(r))
  end

  it("lists the tools with Playwright MCP's argument names", function()
    local list = request("tools/list", {}).tools
    local by = {}
    for _, t in ipairs(list) do by[t.name] = t end
    assert.same({ "online", "offline" }, by.browser_network_state_set.inputSchema.properties.state.enum)
    assert.truthy(by.browser_network_state_set.inputSchema.properties.throttling)
    assert.truthy(by.browser_pdf_save.inputSchema.properties.filename)
    assert.same({ "rate" }, by.browser_cpu_throttle.inputSchema.required)
  end)

  it("takes the role offline and back online", function()
    call("browser_navigate", { url = srv.url .. "/net" })
    ping("pong")
    local r = call("browser_network_state_set", { state = "offline" })
    assert.is_not_true(r.isError, text(r))
    assert.equal("Network is now offline in the role's tabs", text(r))
    assert.is_true(r.structuredContent.offline)
    ping("failed")
    r = call("browser_network_state_set", { state = "online" })
    assert.equal("Network is now online in the role's tabs", text(r))
    ping("pong")
  end)

  it("throttles with a preset and ends it, and refuses a call that sets nothing", function()
    local r = call("browser_network_state_set", { throttling = "Slow 3G" })
    assert.equal("Network is now online, latency 2000 ms, download 50000 B/s, upload 50000 B/s in the role's tabs.\n"
      .. "The exported test and its flake gate run unthrottled (Playwright has no API for it): to test a slow server, "
      .. "hold its requests with browser_route {pattern, delay}, which the test writes.", text(r))
    r = call("browser_network_state_set", { throttling = "No emulation" })
    assert.equal("Network is now online in the role's tabs", text(r))
    r = call("browser_network_state_set", {})
    assert.is_true(r.isError)
    assert.matches("Invalid argument", text(r), 1, true)
    assert.matches("Field: state", text(r), 1, true)
    assert.matches("give state", text(r), 1, true)
    r = call("browser_network_state_set", { throttling = "Dial-up" })
    assert.is_true(r.isError)
    r = call("browser_cpu_throttle", { rate = 4 })
    assert.equal("CPU throttled 4x in the role's tabs.\nThe exported test and its flake gate run at full speed "
      .. "(Playwright has no API for it).", text(r))
    r = call("browser_cpu_throttle", { rate = 1 })
    assert.equal("CPU throttling ended", text(r))
  end)

  it("records the role's traffic as a HAR file in the output folder", function()
    local r = call("browser_stop_har", {})
    assert.is_true(r.isError)
    assert.matches("call browser_start_har first", text(r), 1, true)
    r = call("browser_start_har", { filename = "traffic/net.har", url = "**/api/**" })
    assert.is_not_true(r.isError, text(r))
    r = call("browser_start_har", {})
    assert.is_true(r.isError)
    assert.matches("records a HAR already", text(r), 1, true)
    ping("pong")
    r = call("browser_stop_har", {})
    assert.is_not_true(r.isError, text(r))
    local path = dir .. "/out/traffic/net.har"
    assert.equal("Saved 1 entries to " .. path, text(r))
    local har = client.read(path)
    assert.is_string(har)
    local doc = require("cjson").decode(har)
    assert.equal("1.2", doc.log.version)
    assert.equal(1, #doc.log.entries)
    assert.matches("/api/ping%?n=", doc.log.entries[1].request.url)
    assert.equal("pong", doc.log.entries[1].response.content.text)
    r = call("browser_start_har", { filename = "../away.har" })
    assert.is_true(r.isError)
  end)

  it("saves the page as a PDF in the output folder", function()
    local r = call("browser_pdf_save", { filename = "pages/net.pdf" })
    assert.is_not_true(r.isError, text(r))
    local path = dir .. "/out/pages/net.pdf"
    assert.equal(path, r.structuredContent.path)
    local bytes = assert(client.read(path))
    assert.equal("%PDF-", bytes:sub(1, 5))
    assert.equal(#bytes, r.structuredContent.size)
    r = call("browser_pdf_save", { filename = "/tmp/escape.pdf" })
    assert.is_true(r.isError)
    assert.matches("absolute paths are refused", text(r), 1, true)
  end)

  it("exports setOffline and comments for the throttling and the HAR", function()
    local r = call("browser_export_test", { filename = "net", runs = 1 })
    assert.is_not_true(r.isError, text(r))
    -- The world changes are steps of their own, replayed by the flake gate
    -- and run under Playwright where it is installed.
    assert.matches("Wrote net.spec.ts: 12 steps (1 navigations, 4 actions, 0 assertions)", text(r), 1, true)
    assert.is_nil(text(r):find("have no locator", 1, true), text(r))
    assert.matches("Flake gate: 1 runs in fresh contexts, every step passed 1/1", text(r), 1, true)
    -- Every step passed: the steps are not listed one by one.
    assert.is_nil(text(r):find("setOffline(true)  1/1", 1, true), text(r))
    if helpers.playwright() then assert.matches("Playwright (1 runs of the file): ✅ 1 passed", text(r), 1, true) end
    local test = assert(client.read(dir .. "/out/net.spec.ts"))
    local off = test:find("await context.setOffline(true);", 1, true)
    assert.truthy(off, test)
    local on = test:find("await context.setOffline(false);", off, true)
    assert.truthy(on, test)
    assert.truthy(test:find("// vdx throttled the network here (latency 2000 ms, download 50000 B/s, upload 50000 B/s)",
      on, true), test)
    local cpu = test:find("// vdx throttled the CPU 4x here", on, true)
    assert.truthy(cpu, test)
    assert.truthy(test:find("// vdx recorded this role's traffic to a HAR file here (Playwright: browser.newContext({ "
      .. "recordHar: { path: 'traffic/net.har' } }))", cpu, true), test)
  end)

  it("replays in the flake gate what the test does: a check true only while throttled fails there", function()
    local r = call("browser_start_test", { keep_world = false })
    assert.is_not_true(r.isError, text(r))
    call("browser_navigate", { url = srv.url .. "/rtt" })
    call("browser_network_state_set", { latency = 1000 })
    -- The page reads the round trip the browser reports (navigator.connection), throttled here.
    r = call("browser_click", { element = "Measure button" })
    assert.matches("Network: slow", text(r), 1, true)
    r = call("browser_verify_text_visible", { text = "Network: slow" })
    assert.is_not_true(r.isError, text(r))
    call("browser_network_state_set", { throttling = "No emulation" })
    r = call("browser_export_test", { filename = "throttled", runs = 1 })
    assert.matches("getByText('Network: slow')).toBeVisible()  0/1", text(r), 1, true)
    -- The comment names only what was set.
    assert.matches("// vdx throttled the network here (latency 1000 ms); Playwright has no API", text(r), 1, true)
  end)
end)
