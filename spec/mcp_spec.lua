--- MCP conformance: drives `build/vdxlua mcp` as a subprocess over stdio.
local vdx = require "vdx"
local cjson = require "cjson"
local helpers = require "helpers"
local client = require "mcp_client"

local FIX = "spec/fixtures/mcp"
local LEGACY = { "2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25" }

local function write(path, text)
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
  return path
end

local function all_json(raw)
  for line in raw:gmatch("([^\n]*)\n") do
    assert(pcall(cjson.decode, line), "not a JSON line on stdout: " .. line)
  end
  assert.equal("\n", raw:sub(-1))
end

describe("vdxlua mcp", function()
  describe("handshake", function()
    for _, v in ipairs(LEGACY) do
      it("negotiates " .. v .. " and lists tools in that revision's shape", function()
        local msgs, raw, _, rc = client.batch({ client.initialize(1, v),
          { jsonrpc = "2.0", method = "notifications/initialized" },
          { jsonrpc = "2.0", id = 2, method = "tools/list" } })
        assert.equal(0, rc)
        all_json(raw)
        assert.equal(2, #msgs)
        local init = client.by_id(msgs, 1).result
        assert.equal(v, init.protocolVersion)
        assert.equal("vdxlua", init.serverInfo.name)
        assert.is_true(init.capabilities.tools.listChanged)
        assert.is_nil(init.resultType)
        -- Where the specs go, before the first export (runs FJ and FL
        -- learned it only from its answer).
        assert.matches(" Specs are written to [^\n]*vdx%-output%.$", init.instructions)
        local tools = client.by_id(msgs, 2).result.tools
        assert.is_true(#tools >= 29)
        local nav
        for _, t in ipairs(tools) do if t.name == "browser_navigate" then nav = t end end
        assert.same({ "url" }, nav.inputSchema.required)
        assert.is_false(nav.inputSchema.additionalProperties)
        assert.equal(v >= "2025-03-26", nav.annotations ~= nil)
        assert.equal(v >= "2025-06-18", nav.title == "Navigate to a URL")
      end)
    end

    it("answers initialize and tools/list while the browser is still starting", function()
      -- The server launches its browser before it reads the first line; a
      -- browser that never answers on its pipe must not hold up the
      -- handshake.  The stub stays up until the handshake is over.
      local dir = client.tmpdir()
      local stub = write(dir .. "/chromium", "#!/bin/sh\necho $$ > " .. dir .. "/pid\nexec sleep 600\n")
      os.execute("chmod +x " .. helpers.quote(stub))
      local s = client.start("--executable " .. helpers.quote(stub))
      s:send(client.initialize(1, "2025-06-18"))
      s:send { jsonrpc = "2.0", method = "notifications/initialized" }
      s:send { jsonrpc = "2.0", id = 2, method = "tools/list" }
      local listed = s:wait_for(2, 20000)
      -- (Up to 30 s: in the ASan suite after the CI extras' stress and
      -- fuzz, the stub had written no pid 10 s after the handshake.)
      local pid = tonumber(client.wait_until(function() return helpers.read(dir .. "/pid") end, 30000))
      local starting = pid ~= nil and helpers.alive(pid)
      -- (What the server said, for a failure: a CI run's ASan suite saw
      -- no live stub where every run alone did.)
      local said = ("stub pid %s, %s; the server's log:\n%s"):format(tostring(pid), starting and "alive" or "not alive",
        s:stderr())
      if pid then os.execute("kill " .. pid) end
      local rc = s:close()
      os.execute("rm -rf " .. helpers.quote(dir))
      assert.is_true(starting, said)
      assert.truthy(listed, "tools/list was not answered while the browser was starting")
      assert.is_true(#listed.result.tools >= 29)
      assert.equal(0, rc)
    end)

    it("answers an unknown version with its latest legacy revision", function()
      local msgs = client.batch { client.initialize(1, "1999-01-01") }
      assert.equal("2025-11-25", msgs[1].result.protocolVersion)
    end)

    it("serves 2026-07-28 without initialize: discovery and per-request _meta", function()
      local msgs, raw = client.batch {
        client.modern(1, "server/discover"),
        client.modern(2, "tools/list"),
        { jsonrpc = "2.0", id = 3, method = "tools/list", params = { _meta = {
          ["io.modelcontextprotocol/protocolVersion"] = "1900-01-01",
          ["io.modelcontextprotocol/clientCapabilities"] = {} } } },
        { jsonrpc = "2.0", id = 4, method = "tools/list", params = { _meta = {
          ["io.modelcontextprotocol/protocolVersion"] = "2026-07-28" } } },
        client.modern(5, "ping"),
      }
      all_json(raw)
      local d = client.by_id(msgs, 1).result
      assert.same({ "2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05" }, d.supportedVersions)
      assert.equal("complete", d.resultType)
      assert.equal("vdxlua", d.serverInfo.name)
      assert.is_table(d.capabilities.tools)
      local l = client.by_id(msgs, 2).result
      assert.equal("complete", l.resultType)
      assert.equal("vdxlua", l._meta["io.modelcontextprotocol/serverInfo"].name)
      assert.equal("Navigate to a URL", l.tools[1].title)
      local bad = client.by_id(msgs, 3).error
      assert.equal(-32022, bad.code)
      assert.equal("1900-01-01", bad.data.requested)
      assert.equal("2026-07-28", bad.data.supported[1])
      assert.equal(-32602, client.by_id(msgs, 4).error.code)
      assert.equal("complete", client.by_id(msgs, 5).result.resultType)
    end)
  end)

  describe("bad input", function()
    it("answers malformed, invalid, unknown and oversized messages and keeps serving", function()
      local big = '{"jsonrpc":"2.0","id":99,"method":"ping","params":{"pad":"' .. ("x"):rep(5000) .. '"}}'
      local msgs, raw, _, rc = client.batch({
        client.initialize(1, "2025-06-18"),
        "{not json",
        '{"jsonrpc":"1.0","id":3,"method":"ping"}',
        '{"jsonrpc":"2.0","id":null,"method":"ping"}',
        '{"jsonrpc":"2.0","id":5,"method":"no/such"}',
        '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"browser_click","arguments":[1]}}',
        '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"no_such_tool"}}',
        '{"jsonrpc":"2.0","id":8,"method":"ping","params":[1]}',
        "[]",
        '[{"jsonrpc":"2.0","id":10,"method":"ping"},{"jsonrpc":"2.0","id":11,"method":"ping"}]',
        big,
        '{"jsonrpc":"2.0","id":12,"method":"ping"}',
        '{"jsonrpc":"2.0","method":"notifications/unknown"}',
        '"just a string"',
      }, "--max-message-bytes 2048")
      assert.equal(0, rc)
      all_json(raw)
      local codes = {}
      for _, m in ipairs(msgs) do
        if m.error then
          codes[#codes + 1] = (m.id == cjson.null and "null" or tostring(math.tointeger(m.id))) .. ":"
            .. math.tointeger(m.error.code)
        end
      end
      assert.same({ "null:-32700", "3:-32600", "null:-32600", "5:-32601", "6:-32602", "7:-32602", "8:-32602",
        "null:-32600", "null:-32600", "null:-32600" }, codes)
      local batch
      for _, m in ipairs(msgs) do if m[1] then batch = m end end
      assert.same({ 10, 11 }, { batch[1].id, batch[2].id })
      assert.same({}, client.by_id(msgs, 12).result)
      local too_long
      for _, m in ipairs(msgs) do
        if m.error and m.error.message:match("over the limit") then too_long = m end
      end
      assert.equal(2048, too_long.error.data.limit)
      assert.is_nil(client.by_id(msgs, 99))
    end)
  end)

  describe("user tools and skills", function()
    it("reports a tool file with a syntax error and serves the rest", function()
      local msgs, raw, err = client.batch({ client.initialize(1, "2025-06-18"),
        { jsonrpc = "2.0", id = 2, method = "tools/list" },
        client.call(3, "echo_user", { message = "hi" }),
        client.call(4, "echo_user", { message = 5 }),
        client.call(5, "noisy", {}),
      }, ("--tools %s/tools_syntax_error.lua --tools %s/tools_ok.lua"):format(FIX, FIX))
      all_json(raw)
      assert.matches("cannot load tool file spec/fixtures/mcp/tools_syntax_error.lua", err, 1, true)
      assert.matches("tools_syntax_error.lua:%d+: '}' expected", err)
      local names = {}
      for _, t in ipairs(client.by_id(msgs, 2).result.tools) do names[t.name] = true end
      assert.is_true(names.echo_user)
      assert.is_nil(names.broken)
      local ok = client.by_id(msgs, 3).result
      assert.equal("echo: hi", ok.content[1].text)
      assert.same({ message = "hi" }, ok.structuredContent)
      local bad = client.by_id(msgs, 4).result
      assert.is_true(bad.isError)
      assert.matches("^❌ Invalid argument\nTool: echo_user\n", bad.content[1].text)
      assert.matches("field message: expected string, got integer", bad.content[1].text, 1, true)
      assert.equal("quiet", client.text(client.by_id(msgs, 5)))
      assert.matches("this must go to the log", err, 1, true)
      assert.matches("and this", err, 1, true)
    end)

    it("notifies tools/list_changed when a tool is added", function()
      local msgs = client.batch({ client.initialize(1, "2025-11-25"),
        { jsonrpc = "2.0", method = "notifications/initialized" },
        client.call(2, "add_tool", {}),
        { jsonrpc = "2.0", id = 3, method = "tools/list" },
      }, "--tools " .. FIX .. "/tools_ok.lua")
      local changed = 0
      for _, m in ipairs(msgs) do if m.method == "notifications/tools/list_changed" then changed = changed + 1 end end
      assert.equal(1, changed)
      local last = client.by_id(msgs, 3).result.tools
      assert.equal("late_tool", last[#last].name)
    end)

    it("names ctx.page() without the colon as a misuse: ctx:page() has no alias", function()
      local msgs = client.batch({ client.initialize(1, "2025-11-25"),
        { jsonrpc = "2.0", method = "notifications/initialized" },
        client.call(2, "page_without_colon", {}),
      }, "--tools " .. FIX .. "/tools_ok.lua")
      local r = client.by_id(msgs, 2).result
      assert.is_true(r.isError)
      assert.matches("ctx.page() was called without the colon: write ctx:page()", r.content[1].text, 1, true)
    end)

    it("serves skills as resources, prompts and tools", function()
      local msgs, raw = client.batch({ client.initialize(1, "2025-06-18"),
        { jsonrpc = "2.0", id = 2, method = "resources/list" },
        { jsonrpc = "2.0", id = 3, method = "resources/read", params = { uri = "skill://demo-skill/references/patterns.md" } },
        { jsonrpc = "2.0", id = 4, method = "resources/read", params = { uri = "skill://nope/SKILL.md" } },
        { jsonrpc = "2.0", id = 5, method = "prompts/list" },
        { jsonrpc = "2.0", id = 6, method = "prompts/get", params = { name = "demo-skill", arguments = { task = "checkout" } } },
        client.call(7, "skill_tool", {}),
        { jsonrpc = "2.0", id = 8, method = "prompts/get", params = { name = "nope" } },
      }, "--skills " .. FIX .. "/skills")
      all_json(raw)
      local uris = {}
      for _, r in ipairs(client.by_id(msgs, 2).result.resources) do uris[#uris + 1] = r.uri end
      assert.same({ "skill://demo-skill/SKILL.md", "skill://demo-skill/references/patterns.md" }, uris)
      assert.equal("# Patterns\n\nContainer-scoped locators.\n", client.by_id(msgs, 3).result.contents[1].text)
      assert.equal(-32002, client.by_id(msgs, 4).error.code)
      local p = client.by_id(msgs, 5).result.prompts[1]
      assert.equal("demo-skill", p.name)
      assert.equal("A skill for the specs: says when to use it on two lines.", p.description)
      local got = client.by_id(msgs, 6).result.messages[1].content.text
      assert.matches("^# Demo skill\n", got)
      assert.matches("Task: checkout$", got)
      assert.equal("from skill", client.text(client.by_id(msgs, 7)))
      assert.equal(-32602, client.by_id(msgs, 8).error.code)
    end)
  end)

  describe("cancellation and progress", function()
    it("runs tool calls one at a time in arrival order and skips one cancelled in the queue", function()
      -- All on stdin at once, then end of input: the server must finish
      -- the slow call, then the queued ones in order, before it exits.
      local msgs, _, err, rc = client.batch({
        client.initialize(1, "2025-06-18"),
        { jsonrpc = "2.0", method = "notifications/initialized" },
        client.call(2, "slow", { ms = 1500 }),
        client.call(3, "echo_user", { message = "queued" }),
        client.call(4, "echo_user", { message = "cancelled while queued" }),
        { jsonrpc = "2.0", method = "notifications/cancelled", params = { requestId = 4, reason = "spec" } },
        client.call(5, "echo_user", { message = "last" }),
      }, "--tools " .. FIX .. "/tools_ok.lua")
      assert.equal(0, rc, err)
      local order = {}
      for _, m in ipairs(msgs) do
        if type(m.id) == "number" and m.id >= 2 then order[#order + 1] = m.id end
      end
      assert.same({ 2, 3, 5 }, order)
      assert.equal("slept", client.text(client.by_id(msgs, 2)))
      assert.equal("echo: queued", client.text(client.by_id(msgs, 3)))
      assert.equal("echo: last", client.text(client.by_id(msgs, 5)))
    end)

    it("aborts a running call cleanly and suppresses its result", function()
      local mark = os.tmpname()
      local save = helpers.vdxlua
      helpers.vdxlua = "VDX_SPEC_MARK=" .. mark .. " " .. save
      local s = client.start("--tools " .. FIX .. "/tools_ok.lua")
      helpers.vdxlua = save
      s:send(client.initialize(1, "2025-06-18"))
      assert.is_table(s:wait_for(1, 10000))
      s:send { jsonrpc = "2.0", id = 7, method = "tools/call", params = { name = "slow",
        arguments = { ms = 30000 }, _meta = { progressToken = "tok" } } }
      local prog = s:wait_for(function(m) return m.method == "notifications/progress" end, 10000)
      assert.equal("tok", prog.params.progressToken)
      assert.is_true(prog.params.progress >= 1)
      s:send { jsonrpc = "2.0", method = "notifications/cancelled", params = { requestId = 7, reason = "user" } }
      s:send { jsonrpc = "2.0", id = 8, method = "ping" }
      assert.is_table(s:wait_for(8, 10000))
      client.wait_until(function()
        local f = io.open(mark) local t = f and f:read("a") if f then f:close() end
        return t == "cancelled"
      end, 20000)
      local rc, msgs = s:close(60000)
      local f = io.open(mark)
      local text = f:read("a")
      f:close()
      os.remove(mark)
      assert.equal("cancelled", text)
      assert.equal(0, rc)
      assert.is_nil(client.by_id(msgs, 7))
    end)
  end)

  describe("browser tools", function()
    local srv
    setup(function()
      srv = helpers.serve { ["GET /whoami"] = function(req)
        return { json = { sid = req.cookies and req.cookies.sid or "nobody" } }
      end }
    end)
    teardown(function() srv:close() end)

    -- Starts a server and initializes it; returns it and call(name, args),
    -- which waits for the tool's result.
    local function session(args)
      local s = client.start(args or "")
      s:send(client.initialize(1, "2025-06-18"))
      s:wait_for(1, 10000)
      local n = 1
      return s, function(name, args)
        n = n + 1
        s:send(client.call(n, name, args))
        return assert(s:wait_for(n, 60000), name .. " did not answer").result
      end
    end

    -- Both wires carry numbers exactly: the page's doubles reach the
    -- agent with every digit, on the page and through an element's bridge.
    it("returns the numbers browser_evaluate computes exactly", function()
      local s, call = session()
      call("browser_navigate", { url = srv.url .. "/mcp/page.html" })
      local sum = call("browser_evaluate", { ["function"] = "() => 0.1 + 0.2" })
      assert.equal("Result: 0.30000000000000004", sum.content[1].text)
      local big = call("browser_evaluate", { ["function"] = "() => 1000000000000001" })
      assert.equal("Result: 1000000000000001", big.content[1].text)
      local ref = call("browser_snapshot", {}).content[1].text:match('button "Add to Cart" %[ref=(e%d+)%]')
      assert.is_string(ref)
      local on = call("browser_evaluate", { ref = ref, ["function"] = "(el) => [0.1 + 0.2, 1000000000000001]" })
      assert.equal("Result: [0.30000000000000004,1000000000000001]", on.content[1].text)
      local out = assert(io.open(s.dir .. "/out")):read("a")
      for _, v in ipairs { "0.30000000000000004", "1000000000000001", "[0.30000000000000004,1000000000000001]" } do
        assert.truthy(out:find('"structuredContent":{"result":' .. v .. '}', 1, true), v)
      end
      assert.equal(0, (s:close(20000)))
    end)

    it("reads an iframe's document with browser_read_html on its ref, and names the frames it leaves out", function()
      local s, call = session()
      call("browser_navigate", { url = srv.url .. "/frames/one.html" })
      local iframe = call("browser_snapshot", {}).content[1].text:match('iframe "Inner" %[ref=(e%d+)%]')
      assert.is_string(iframe)
      local own = call("browser_read_html", { ref = iframe })
      assert.is_nil(own.isError, own.content[1].text)
      assert.matches("^HTML %(form%): %d+ bytes\n<iframe[^\n]*\nFrame f1's document %(its refs "
        .. "start f1e%): HTML %(form%): %d+ bytes\n<button data%-ref=\"f1e%d+\">Inner button</button>$", own.content[1].text)
      local whole = call("browser_read_html", {})
      assert.matches(("\nFrames here whose documents this leaves out: f1 %%(<iframe> ref %s%%); browser_read_html ref= "
        .. "an <iframe>'s ref reads its document$"):format(iframe), whole.content[1].text)
      assert.is_nil(whole.content[1].text:find("Inner button", 1, true))
      assert.equal(0, (s:close(20000)))
    end)

    it("tells a refused connection as a server that is down, not a URL to correct", function()
      -- A port that answered and is closed now: nothing listens there.
      local gone = assert(vdx.serve { root = "spec/fixtures" })
      local url = gone.url .. "/explore/hidden_qty.html"
      gone:close()
      local s, call = session()
      local r = call("browser_navigate", { url = url })
      assert.equal(0, (s:close(20000)))
      local text = r.content[1].text
      assert.is_true(r.isError, text)
      assert.is_truthy(text:find("Reason: net::ERR_CONNECTION_REFUSED", 1, true), text)
      assert.is_truthy(text:find("the app's server is down: a retry fails until it is started again", 1, true), text)
      assert.is_nil(text:find("again with the corrected URL", 1, true), text)
    end)

    it("names the hidden elements browser_read_html leaves out, with the controls each holds", function()
      local s, call = session()
      call("browser_navigate", { url = srv.url .. "/explore/hidden_qty.html" })
      local text = call("browser_read_html", { mode = "full" }).content[1].text
      assert.equal(0, (s:close(20000)))
      -- The editor holds a field and a button (the hidden input is no control).
      assert.is_truthy(text:find("^HTML %(full%): %d+ bytes; 4 hidden elements left out with all they hold "
        .. "%(display: none, a closed <details>: a tab panel or menu not open%), read once the page shows them: "
        .. '<div id="qty%-editor"> %(2 controls%), <p>, <a>, <input id="agree"> %(1 control%)\n'), text)
    end)

    it("navigates, snapshots and explores a fixture page", function()
      local s, call = session("--caps vision")
      local nav = call("browser_navigate", { url = srv.url .. "/mcp/page.html" })
      assert.is_nil(nav.isError)
      -- With its step's number, as an action's answer (run FP counted one off).
      assert.matches("^Navigated to " .. srv.url:gsub("%p", "%%%0") .. "/mcp/page.html %(status 200, step 1%)\nTitle: MCP fixture",
        nav.content[1].text)
      local snap = call("browser_snapshot", {})
      assert.is_nil(snap.isError)
      -- The navigation's answer just told the URL and title: the snapshot
      -- right after it does not repeat them (its structured result does).
      assert.matches("^%- main %[ref=e1%]:\n", snap.content[1].text)
      assert.equal("MCP fixture", snap.structuredContent.title)
      local snap0 = snap
      local ref = snap.content[1].text:match('button "Add to Cart" %[ref=(e%d+)%]')
      assert.is_string(ref)
      local rc = call("resolve_container", { ref = ref })
      assert.is_nil(rc.isError, client.text({ result = rc }))
      assert.matches("product-card", rc.content[1].text, 1, true)
      -- With another answer between, the head is told again.
      assert.equal(("Page URL: %s/mcp/page.html\nPage Title: MCP fixture\n%s"):format(srv.url, snap0.content[1].text),
        call("browser_snapshot", {}).content[1].text)
      assert.is_table(rc.structuredContent)
      local ip = call("inspect_pattern", { ref = ref, level = 1 })
      assert.is_nil(ip.isError, client.text({ result = ip }))
      local ea = call("extract_anchors", { ref = ref, level = 1 })
      assert.is_nil(ea.isError, client.text({ result = ea }))
      -- Without level: the card, as inspect_pattern picks it.
      local auto = call("extract_anchors", { ref = ref })
      assert.is_nil(auto.isError, client.text({ result = auto }))
      assert.equal(ea.content[1].text:gsub("^Anchors at level 1 of ([^:]*):", "Anchors at level 1 of %1 (the nearest "
        .. "repeated ancestor):"), auto.content[1].text)
      local vl = call("browser_verify_locator", {
        locator = 'getByTestId("product-card").filter({ hasText: "iPhone 15 Pro" }).getByRole("button", { name: "Add to Cart" })' })
      assert.matches("^✅ Unique: matches exactly 1 element", vl.content[1].text)
      local amb = call("browser_verify_locator", { locator = 'getByRole("button", { name: "Add to Cart" })' })
      assert.matches("^⚠️ Not unique: matches 2 elements", amb.content[1].text)
      assert.matches('\n1%. button "Add to Cart" <button> %[ref=e%d+%]\n2%. button "Add to Cart" <button> %[ref=e%d+%]$',
        amb.content[1].text)
      -- One by place is unique only so (run DH read "Unique" of a .first()).
      local first = call("browser_verify_locator", { locator = 'getByRole("button", { name: "Add to Cart" }).first()' })
      assert.matches("^⚠️ Unique only by place: %.first%(%) picks 1 of the 2 elements getByRole%('button', { name: "
        .. "'Add to Cart' }%) matches", first.content[1].text)
      -- Matches an agent cannot act on have no ref (headings, containers):
      -- they are listed all the same, never a crash.
      local heads = call("browser_verify_locator", { locator = 'getByRole("heading")' })
      assert.is_nil(heads.isError, client.text({ result = heads }))
      assert.equal('⚠️ Not unique: matches 3 elements (a count for toHaveCount; to act on or assert on one, '
        .. 'scope it to a container or filter it)\n'
        -- In codegen's quotes, as the test will write it.
        .. "Locator: getByRole('heading')\n"
        .. '1. heading "Shop" <h1> (no ref)\n2. heading "iPhone 15 Pro" <h2> (no ref)\n3. heading "Pixel 9" <h2> (no ref)',
        heads.content[1].text)
      assert.equal(3, heads.structuredContent.count)
      assert.same({ role = "heading", name = "Pixel 9", tag = "h2", text = "Pixel 9", visible = true, ref = cjson.null },
        heads.structuredContent.matches[3])
      local cards = call("browser_verify_locator", { locator = 'getByTestId("product-card")' })
      assert.is_nil(cards.isError, client.text({ result = cards }))
      -- The text is the one filter({ hasText }) matches (Playwright's element text);
      -- a card with a test id is a container the snapshot gave a ref.
      assert.matches('\n1%. generic <div> text "iPhone 15 ProAdd to Cart" %[ref=e%d+%]\n', cards.content[1].text)
      local none = call("browser_verify_locator", { locator = 'getByText("Nowhere to be found")' })
      assert.is_truthy(none.content[1].text:find("❌ Matches no element\nLocator: getByText('Nowhere to be found')\n"
        .. "A typo's locator matches nothing too: check what shows instead as well (a status, the rows left).", 1, true),
        none.content[1].text)
      assert.matches("toHaveCount%(0%)", none.content[1].text)
      assert.same({}, none.structuredContent.matches)   -- written [] on the wire (json.array)
      -- browser_type adds to a field; with clear it replaces, as fill does.
      local email = snap.content[1].text:match('textbox "Email" %[ref=(e%d+)%]')
      assert.is_nil(call("browser_type", { ref = email, text = "old" }).isError)
      assert.is_nil(call("browser_type", { ref = email, text = "+more" }).isError)
      local value = "() => document.querySelector('[name=email]').value"
      assert.equal('Result: "old+more"', call("browser_evaluate", { ["function"] = value }).content[1].text)
      assert.is_nil(call("browser_type", { ref = email, text = "new", clear = true }).isError)
      assert.equal('Result: "new"', call("browser_evaluate", { ["function"] = value }).content[1].text)
      local key = call("browser_press_key", { key = "ControlOrMeta+a" })
      assert.is_nil(key.isError, client.text({ result = key }))
      -- browser_evaluate on an element: the function gets the element,
      -- acting sources are refused, a thrown error is a JavaScriptError.
      local ev = call("browser_evaluate", { ref = ref,
        ["function"] = "(el) => el.parentElement.getAttribute('data-testid') + ':' + el.textContent.trim()" })
      assert.is_nil(ev.isError, client.text({ result = ev }))
      assert.equal('Result: "product-card:Add to Cart"', ev.content[1].text)
      local refused = call("browser_evaluate", { ref = ref, ["function"] = "(el) => el.click()" })
      assert.is_true(refused.isError)
      assert.matches("Evaluate refused", refused.content[1].text, 1, true)
      local thrown = call("browser_evaluate", { ref = ref, ["function"] = "(el) => el.nope.deeper" })
      assert.is_true(thrown.isError)
      assert.matches("JavaScript error", thrown.content[1].text, 1, true)
      assert.matches("TypeError", thrown.content[1].text, 1, true)
      local unknown = call("resolve_container", { ref = "e9999" })
      assert.is_true(unknown.isError)
      assert.matches("^❌ ", unknown.content[1].text)
      -- The core's error carries the facts; the catalog tells what to do next.
      assert.matches("Call browser_find(role=…, name=…, within=", unknown.content[1].text, 1, true)
      local tabs = call("browser_tabs", { action = "list" })
      assert.matches("^%- 0: %(current%) %[MCP fixture%]", tabs.content[1].text)
      assert.matches("Resized the viewport to 800x600", call("browser_resize", { width = 800, height = 600 }).content[1].text, 1, true)
      local bad = call("browser_click", { ref = 5 })
      assert.matches("field ref: expected string, got integer", bad.content[1].text, 1, true)
      local navfail = call("browser_navigate", { url = "http://127.0.0.1:1/" })
      assert.is_true(navfail.isError)
      assert.matches("^❌ Navigation failed\nTool: browser_navigate\nActing as: default\n", navfail.content[1].text)
      -- Every other built-in tool answers a well-formed result: the facts,
      -- or a formatted error (a capability this build lacks says so).
      local calls = {
        { "browser_navigate_back", {} }, { "browser_click", { ref = ref } },
        { "browser_type", { ref = ref, text = "x" } },
        { "browser_fill_form", { fields = { { name = "Email", type = "textbox", ref = ref, value = "a@b.c" } } } },
        { "browser_select_option", { ref = ref, values = { "a" } } }, { "browser_hover", { ref = ref } },
        { "browser_drag", { startRef = ref, endRef = ref } }, { "browser_press_key", { key = "Escape" } },
        { "browser_wait_for", { time = 0.1 } }, { "browser_file_upload", { ref = ref, paths = { "/etc/hostname" } } },
        { "browser_handle_dialog", { accept = true } }, { "browser_console_messages", {} },
        { "browser_network_requests", {} }, { "browser_take_screenshot", {} },
        { "browser_evaluate", { ["function"] = "() => document.title" } }, { "browser_click_at", { x = 5, y = 5 } },
        { "browser_read_html", { mode = "form" } }, { "list_roles", {} }, { "get_current_role", {} },
        { "browser_close", {} },
      }
      for _, c in ipairs(calls) do
        local r = call(c[1], c[2])
        assert.is_string(r.content[1].text, c[1])
        if r.isError then
          assert.matches("^❌ ", r.content[1].text, nil, false, c[1])
          assert.not_matches("Unexpected error", r.content[1].text, 1, true, c[1])
        end
      end
      assert.equal(0, (s:close(20000)))
    end)

    it("tells an agent at the snapshot budget once, naming browser_snapshot's arguments", function()
      local s, call = session()
      call("browser_navigate", { url = srv.url .. "/snapshot/budget.html" })
      local snap = call("browser_snapshot", { budget_tokens = 100 })
      assert.is_nil(snap.isError, client.text({ result = snap }))
      local text, next_offset = snap.content[1].text, snap.structuredContent.next_offset
      assert.is_true(snap.structuredContent.truncated)
      local notices = 0
      for _ in text:gmatch("snapshot truncated") do notices = notices + 1 end
      assert.equal(1, notices)
      assert.matches(("left out. Call browser_snapshot(offset=%d) for the rest, browser_snapshot(root=REF) for "
        .. 'one part, or browser_snapshot(depth=N) for less depth"\n'):format(next_offset), text, 1, true)
      assert.not_matches("snapshot{", text, 1, true)
      local rest = call("browser_snapshot", { budget_tokens = 100, offset = next_offset })
      assert.is_nil(rest.isError, client.text({ result = rest }))
      assert.is_true(rest.structuredContent.next_offset > next_offset)
      assert.equal(0, (s:close(20000)))
    end)

    it("names a URL without its scheme and a text that is no URL, suggesting the URL meant", function()
      local s, call = session()
      local res = call("browser_navigate", { url = "localhost:3000" })
      assert.is_true(res.isError)
      assert.matches("^❌ Not a URL the browser can open\nTool: browser_navigate\nActing as: default\n"
        .. "URL: localhost:3000\nMessage: browser_navigate: "
        .. "\"localhost:3000\" is not a URL the browser can open: the scheme is missing; did you mean "
        .. "\"http://localhost:3000\"%?\n", res.content[1].text)
      assert.matches("1. Call browser_navigate(url=…) again with a full URL", res.content[1].text, 1, true)
      assert.is_nil(res.content[1].text:find("ERR_ABORTED", 1, true))
      res = call("browser_navigate", { url = "not a url" })
      assert.is_true(res.isError)
      assert.matches("Message: browser_navigate: \"not a url\" is not a URL the browser can open: it is not a URL "
        .. "(it has no scheme and contains spaces)\n", res.content[1].text, 1, true)
      -- The page is still there and takes a full URL.
      assert.is_nil(call("browser_navigate", { url = srv.url .. "/mcp/page.html" }).isError)
      assert.equal(0, (s:close(20000)))
    end)

    it("keeps the current role when select_role cannot start the role asked for", function()
      local s = client.start("--role shop - " .. srv.url .. "/mcp/page.html --role grid - "
        .. "--role-endpoint grid http://127.0.0.1:9")
      s:send(client.initialize(1, "2025-11-25"))
      s:wait_for(1, 10000)
      s:send(client.call(2, "select_role", { role = "grid" }))
      local res = assert(s:wait_for(2, 60000)).result
      assert.is_true(res.isError)
      assert.matches("^❌ Cannot reach the remote browser\n", res.content[1].text)
      s:send(client.call(3, "get_current_role", {}))
      assert.equal("Current role: shop", assert(s:wait_for(3, 60000)).result.content[1].text)
      s:send(client.call(4, "list_roles", {}))
      assert.matches("^%* shop ", assert(s:wait_for(4, 60000)).result.content[1].text)
      assert.equal(0, (s:close(20000)))
    end)

    it("keeps two roles' cookies apart and reports missing auth", function()
      local dir = os.tmpname()
      local a = write(dir .. "-alice.json", cjson.encode { cookies = { { name = "sid", value = "alice-1",
        domain = "127.0.0.1", path = "/", expires = -1, httpOnly = true, secure = false, sameSite = "Lax" } }, origins = {} })
      local b = write(dir .. "-bob.json", cjson.encode { cookies = { { name = "sid", value = "bob-2",
        domain = "127.0.0.1", path = "/", expires = -1, httpOnly = true, secure = false, sameSite = "Lax" } }, origins = {} })
      local who = srv.url .. "/whoami"
      local s = client.start(("--role alice %s %s --role bob %s %s --role admin /nonexistent/admin.json --auth-required admin --role guest /nonexistent/guest.json")
        :format(a, who, b, who))
      s:send(client.initialize(1, "2025-11-25"))
      s:wait_for(1, 10000)
      local n = 1
      local function call(name, args)
        n = n + 1
        s:send(client.call(n, name, args))
        return assert(s:wait_for(n, 60000), name .. " did not answer").result
      end
      assert.matches('sid.*alice%-1', call("browser_snapshot", {}).content[1].text)
      assert.matches("Current role: bob", call("select_role", { role = "bob" }).content[1].text, 1, true)
      assert.matches('sid.*bob%-2', call("browser_snapshot", {}).content[1].text)
      -- Selecting a role says where it is, not to snapshot it.
      local back = call("select_role", { role = "alice" }).content[1].text
      assert.matches("^Current role: alice\nPage: http://[^\n]+$", back)
      call("select_role", { role = "bob" })
      local list = call("list_roles", {})
      assert.matches("* bob (active) auth=" .. b, list.content[1].text, 1, true)
      assert.matches("- alice (active) auth=" .. a, list.content[1].text, 1, true)
      assert.matches("- admin (not started) auth=/nonexistent/admin.json", list.content[1].text, 1, true)
      local unknown = call("select_role", { role = "nobody" })
      assert.matches("^❌ Unknown role\n", unknown.content[1].text)
      assert.matches("Roles: alice, bob, admin, guest", unknown.content[1].text, 1, true)
      assert.matches("Message: there is no role 'alise' (did you mean 'alice'?)\n",
        call("select_role", { role = "alise" }).content[1].text, 1, true)
      -- select_role opens the role's page first: its failure is the answer,
      -- and the current role stays the one that worked.
      local auth = call("select_role", { role = "admin" })
      assert.is_true(auth.isError)
      assert.matches("^❌ Authentication state could not be loaded\n", auth.content[1].text)
      assert.matches("File: /nonexistent/admin.json\n", auth.content[1].text, 1, true)
      assert.equal("Current role: bob", call("get_current_role", {}).content[1].text)
      assert.matches('sid.*bob%-2', call("browser_snapshot", {}).content[1].text)
      call("select_role", { role = "guest" })
      local guest = call("browser_navigate", { url = who })
      assert.is_nil(guest.isError)
      assert.matches("⚠️ Warnings (non-critical):\n- auth: /nonexistent/guest.json: cannot open", guest.content[1].text, 1, true)
      assert.equal(0, (s:close(20000)))
      os.remove(a) os.remove(b)
    end)
  end)

  describe("MCP Inspector", function()
    it("lists the tools through the official Inspector CLI", function()
      if os.execute("command -v npx >/dev/null 2>&1") ~= true then
        pending("npx is not installed")
        return
      end
      local dir = os.getenv("VDX_INSPECTOR_DIR") or "/tmp/vdx-mcp-inspector"
      local out, status = helpers.run(("mkdir -p %s && cd %s && (test -x node_modules/.bin/mcp-inspector || npm install --no-audit --no-fund --silent @modelcontextprotocol/inspector >/dev/null 2>&1) && test -x node_modules/.bin/mcp-inspector")
        :format(dir, dir))
      if status ~= 0 then
        pending("cannot install @modelcontextprotocol/inspector: " .. out)
        return
      end
      local bin = io.popen("readlink -f " .. helpers.vdxlua):read("l")
      out, status = helpers.run(("cd %s && timeout 120 node_modules/.bin/mcp-inspector --cli %s mcp --no-default-skills --method tools/list")
        :format(dir, bin))
      assert.equal(0, status, out)
      local ok, res = pcall(cjson.decode, out:match("%b{}"))
      assert.is_true(ok, out)
      assert.is_true(#res.tools >= 29)
    end)
  end)
end)
