--- The storage tools of `vdxlua mcp` (Playwright MCP's names): cookies,
-- localStorage and sessionStorage set and read in one role and never
-- seen by another, an httpOnly cookie the tools see and document.cookie
-- does not, a storageState saved by one role and restored into another,
-- bad input refused with a typed error, and a session with addCookies
-- exported as a test that passes under real Playwright.
local cjson = require "cjson"
local helpers = require "helpers"
local client = require "mcp_client"

local q, read = helpers.quote, helpers.read

-- True when the plain text needle is in s.
local function has(s, needle) return s:find(needle, 1, true) ~= nil end

describe("the storage tools", function()
  local srv, dir
  setup(function()
    srv = helpers.serve {
      ["GET /st/login"] = function()
        return { headers = { ["Content-Type"] = "text/html", ["Set-Cookie"] = "hid=secret; HttpOnly; Path=/" },
          body = "<title>in</title><p>signed in</p>" }
      end,
      -- The app's view: the cookie the server got, and what its script reads.
      ["GET /st/page"] = function(req)
        local sid = req.cookies and req.cookies.sid or "none"
        return { headers = { ["Content-Type"] = "text/html" }, body = "<title>st</title><p>server:" .. sid
          .. "</p><p id=c></p><script>document.getElementById('c').textContent = 'cookie:' + document.cookie + "
          .. "' ls:' + localStorage.getItem('theme') + ' ss:' + sessionStorage.getItem('tab')</script>" }
      end,
    }
    dir = client.tmpdir()
    os.execute("mkdir -p " .. q(dir .. "/out"))
  end)
  teardown(function()
    if srv then srv:close() end
    if dir then os.execute("rm -rf " .. q(dir)) end
  end)

  -- A started server and call(name, args) -> result, text, is_error.  A
  -- call may take minutes: the flake gate and Playwright's runs.
  local function start(args, env)
    local s = client.start("--caps storage " .. args, env)
    client.caller(s)
    local n = 100
    return s, function(name, a)
      n = n + 1
      s:send(client.call(n, name, a))
      local m = s:wait_for(n, 240000)
      if not m then
        s:close(30000)
        error(name .. " did not answer", 2)
      end
      return m.result, m.result.content[1].text, m.result.isError == true
    end
  end

  -- call, failing the spec (after ending the server) on an error answer.
  local function checked(s, call)
    return function(name, a)
      local r, text, err = call(name, a)
      if err then
        s:close(30000)
        error(name .. ": " .. text, 2)
      end
      return r, text
    end
  end

  it("sets and reads cookies and storage in one role, and another role sees none of it", function()
    local s, raw = start("--role alice - --role bob - --output-dir " .. q(dir .. "/out"))
    local call = checked(s, raw)
    local page = srv.url .. "/st/page"
    call("browser_navigate", { url = page })
    local _, text = call("browser_cookie_set", { name = "sid", value = "alice" })
    assert.equal("Set cookie sid in role alice: sid=alice (domain: 127.0.0.1, path: /, httpOnly: false, "
      .. "secure: false, sameSite: Lax, expires: session)", text)
    call("browser_localstorage_set", { key = "theme", value = "dark" })
    call("browser_sessionstorage_set", { key = "tab", value = "2" })
    call("browser_navigate", { url = page })
    _, text = call("browser_snapshot", {})
    assert.is_true(has(text, "server:alice"), text)
    assert.is_true(has(text, "cookie:sid=alice ls:dark ss:2"), text)
    local r
    r, text = call("browser_cookie_get", { name = "sid" })
    assert.equal("sid=alice (domain: 127.0.0.1, path: /, httpOnly: false, secure: false, sameSite: Lax, "
      .. "expires: session)", text)
    assert.equal("alice", r.structuredContent.cookie.value)
    _, text = call("browser_localstorage_get", { key = "theme" })
    assert.equal("theme=dark", text)
    _, text = call("browser_sessionstorage_list", {})
    assert.equal("tab=2", text)
    _, text = call("browser_cookie_list", { urls = { srv.url .. "/st/page" } })
    assert.equal("sid=alice (domain: 127.0.0.1, path: /)", text)
    _, text = call("browser_cookie_list", { urls = { "http://elsewhere.test/" } })
    assert.equal("No cookies found", text)

    -- bob: his own context, on the same site.
    call("select_role", { role = "bob" })
    call("browser_navigate", { url = page })
    _, text = call("browser_cookie_list", {})
    assert.equal("No cookies found", text)
    _, text = call("browser_localstorage_list", {})
    assert.equal("No localStorage items found", text)
    _, text = call("browser_snapshot", {})
    assert.is_true(has(text, "server:none"), text)
    assert.is_true(has(text, "cookie: ls:null ss:null"), text)
    call("browser_cookie_set", { name = "sid", value = "bob" })
    call("browser_localstorage_set", { key = "theme", value = "light" })
    -- Back to alice: her values are as she left them.
    call("select_role", { role = "alice" })
    _, text = call("browser_cookie_get", { name = "sid" })
    assert.is_true(has(text, "sid=alice "), text)
    _, text = call("browser_localstorage_get", { key = "theme" })
    assert.equal("theme=dark", text)
    call("browser_localstorage_delete", { key = "theme" })
    call("browser_sessionstorage_clear", {})
    _, text = call("browser_cookie_delete", { name = "sid" })
    assert.equal("Deleted 1 cookie named sid", text)
    call("browser_navigate", { url = page })
    _, text = call("browser_snapshot", {})
    assert.is_true(has(text, "server:none"), text)
    assert.is_true(has(text, "cookie: ls:null ss:null"), text)
    call("select_role", { role = "bob" })
    _, text = call("browser_cookie_get", { name = "sid" })
    assert.is_true(has(text, "sid=bob "), text)
    _, text = call("browser_cookie_clear", {})
    assert.equal("Cleared 1 cookie", text)
    assert.equal(0, (s:close(30000)))
  end)

  it("shows an httpOnly cookie to the tools and not to document.cookie", function()
    local s, raw = start("")
    local call = checked(s, raw)
    call("browser_navigate", { url = srv.url .. "/st/login" })
    call("browser_cookie_set", { name = "sid", value = "ann", httpOnly = true })
    call("browser_navigate", { url = srv.url .. "/st/page" })
    local _, text = call("browser_snapshot", {})
    -- The server got both; the page's script sees neither.
    assert.is_true(has(text, "server:ann"), text)
    assert.is_true(has(text, "cookie: ls:null"), text)
    local r
    r, text = call("browser_cookie_get", { name = "hid" })
    assert.equal("hid=secret (domain: 127.0.0.1, path: /, httpOnly: true, secure: false, sameSite: Lax, "
      .. "expires: session)", text)
    assert.is_true(r.structuredContent.cookie.httpOnly)
    _, text = call("browser_cookie_list", {})
    assert.is_true(has(text, "hid=secret (domain: 127.0.0.1, path: /)"), text)
    assert.is_true(has(text, "sid=ann (domain: 127.0.0.1, path: /)"), text)
    assert.equal(0, (s:close(30000)))
  end)

  it("refuses bad input with a typed error and keeps serving", function()
    local s, call = start("")
    local function refused(name, args, ...)
      local r, text, err = call(name, args)
      assert.is_true(err, name .. " answered: " .. text)
      for _, want in ipairs { ... } do assert.is_true(has(text, want), text) end
      return r
    end
    -- No page yet: a cookie needs a URL or a domain; storage needs a site.
    refused("browser_cookie_set", { name = "sid", value = "x" }, "❌ Invalid argument", "Field: url",
      "give url (\"http://host/\") or domain")
    refused("browser_localstorage_list", {}, "❌ The page has no storage of its own",
      "the page at about:blank has no localStorage", "browser_navigate(url=…)")
    refused("browser_cookie_set", { name = "sid", value = 5, domain = "127.0.0.1" }, "❌ Invalid argument",
      "Field: value", "expected string")
    refused("browser_cookie_set", { name = "sid", value = "x", domain = "127.0.0.1", sameSite = "Loose" },
      "Field: sameSite", 'expected one of "Strict", "Lax", "None"')
    refused("browser_cookie_set", { name = "sid", value = "x", url = "data:text/html,x" }, "Field: cookies[1].url",
      "not an http or https URL")
    refused("browser_cookie_set", { name = "sid", value = "x", domain = "127.0.0.1", sameSite = "None" },
      "must be secure")
    refused("browser_localstorage_set", { key = "k" }, "Field: value")
    refused("browser_cookie_list", { urls = { "nope" } }, "Invalid argument", "is not an http or https URL")
    local bad = dir .. "/bad.json"
    helpers.write(bad, '{"cookies":[{"name":"x","value":"y"}]}')
    refused("browser_set_storage_state", { filename = bad }, "Invalid argument", "a cookie needs url")
    helpers.write(bad, "not json")
    refused("browser_set_storage_state", { filename = bad }, "not valid JSON")
    -- Still serving: a good cookie goes in.
    local _, text, err = call("browser_cookie_set", { name = "sid", value = "x", url = srv.url .. "/" })
    assert.is_false(err, text)
    _, text = call("browser_cookie_list", {})
    assert.equal("sid=x (domain: 127.0.0.1, path: /)", text)
    assert.equal(0, (s:close(30000)))
  end)

  it("saves a role's storage state and restores it into another role, whose app sees it", function()
    local s, raw = start("--role alice - --role bob - --output-dir " .. q(dir .. "/out"))
    local call = checked(s, raw)
    local page = srv.url .. "/st/page"
    call("browser_navigate", { url = page })
    call("browser_cookie_set", { name = "sid", value = "alice" })
    call("browser_localstorage_set", { key = "theme", value = "dark" })
    local r, text = call("browser_storage_state", { filename = "alice-state.json" })
    local path = dir .. "/out/alice-state.json"
    assert.equal(("Storage state of role alice saved to %s: 1 cookies, 1 origins with localStorage"):format(path),
      text)
    assert.equal(path, r.structuredContent.path)
    local state = cjson.decode(read(path))
    assert.same({ { origin = srv.url, localStorage = { { name = "theme", value = "dark" } } } }, state.origins)
    assert.equal("alice", state.cookies[1].value)
    -- Files are never replaced.
    local _, again, err = raw("browser_storage_state", { filename = "alice-state.json" })
    assert.is_true(err, again)
    call("select_role", { role = "bob" })
    call("browser_navigate", { url = page })
    call("browser_cookie_set", { name = "stale", value = "1" })
    _, text = call("browser_set_storage_state", { filename = path })
    assert.equal("Storage state of role bob restored from " .. path .. ": 1 cookies, 1 origins", text)
    call("browser_navigate", { url = page })
    _, text = call("browser_snapshot", {})
    assert.is_true(has(text, "server:alice"), text)
    assert.is_true(has(text, "cookie:sid=alice ls:dark"), text)
    _, text = call("browser_cookie_get", { name = "stale" })
    assert.equal("Cookie 'stale' not found", text)
    assert.equal(0, (s:close(30000)))
  end)

  it("exports a session that sets cookies and storage as a test Playwright passes", function()
    local pw, why = helpers.playwright()
    if pw and not pw:match("^/") then pw = io.popen("pwd"):read("l") .. "/" .. pw end
    local s, raw = start("--role alice - --role bob - --output-dir " .. q(dir .. "/out"),
      pw and ("VDX_PLAYWRIGHT_DIR=" .. q(pw)) or nil)
    local call = checked(s, raw)
    local page = srv.url .. "/st/page"
    call("browser_navigate", { url = page })
    call("browser_cookie_set", { name = "sid", value = "alice", httpOnly = true })
    call("browser_localstorage_set", { key = "theme", value = "it's dark" })
    call("browser_sessionstorage_set", { key = "tab", value = "2" })
    call("browser_navigate", { url = page })
    call("browser_verify_text_visible", { text = "server:alice" })
    call("browser_verify_text_visible", { text = "cookie: ls:it's dark ss:2" })
    -- bob starts on the site with a cookie of his own.
    call("select_role", { role = "bob" })
    call("browser_cookie_set", { name = "sid", value = "bob", url = srv.url .. "/" })
    call("browser_navigate", { url = page })
    call("browser_verify_text_visible", { text = "server:bob" })
    local res, text = call("browser_export_test", { filename = "storage", runs = 2 })
    assert.equal(0, (s:close(30000)))
    local file = read(dir .. "/out/storage.spec.ts")
    assert.is_string(file, text)
    for _, line in ipairs {
      "  await aliceContext.addCookies([{ name: 'sid', value: 'alice', domain: '127.0.0.1', path: '/', expires: -1, "
        .. "httpOnly: true, secure: false }]);",
      "  await alice.evaluate(([k, v]) => localStorage.setItem(k, v), ['theme', 'it\\'s dark']);",
      "  await alice.evaluate(([k, v]) => sessionStorage.setItem(k, v), ['tab', '2']);",
      "  await bobContext.addCookies([{ name: 'sid', value: 'bob', domain: '127.0.0.1', path: '/', expires: -1, "
        .. "httpOnly: false, secure: false }]);\n  await bob.goto(`${BASE_URL}/st/page`);",
    } do
      assert.is_true(has(file, line .. "\n"), line .. "\n-- not in --\n" .. file)
    end
    -- The flake gate replays each change in fresh contexts; a change is
    -- no action without a locator.
    assert.is_true(has(text, "Flake gate: 2 runs in fresh contexts, every step passed 2/2\n"), text)
    for i = 1, 10 do assert.equal(2, res.structuredContent.stability[i].passed, i) end
    assert.is_true(has(text, ": 10 steps (3 navigations, 0 actions, 3 assertions), roles alice, bob\n"), text)
    assert.is_nil(text:find("no locator", 1, true), text)
    if not pw then
      pending(why)
      return
    end
    assert.is_true(has(text, "Playwright (2 runs of the file): ✅ 2 passed"), text)
  end)
end)
