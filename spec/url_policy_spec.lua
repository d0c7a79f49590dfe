--- spec/url_policy_spec.lua: no local file is reachable through `vdxlua
-- mcp` without --allow-file-urls.  The typed URL's scheme is read as the
-- browser reads it (the URL standard strips C0 controls and spaces at the
-- ends and removes every tab and newline), and the URL a document commits
-- is checked too, in every tab and frame of every role: a committed
-- file: document is left at once and the call that reached it refused.
local vdx = require "vdx"
local urls = require "vdx.urls"
local client = require "mcp_client"
local helpers = require "helpers"

local SECRET = "root:x:0:0"

describe("vdx.urls reads a scheme as the browser does #unit", function()
  -- input, scheme (nil: none), the local-file scheme it opens (nil: none)
  local rows = {
    { "file:///etc/passwd", "file", "file" },
    { "FILE:///etc/passwd", "file", "file" },
    { "fi\tle:///etc/passwd", "file", "file" },
    { "fi\nle:///etc/passwd", "file", "file" },
    { "fi\r\nle:///etc/passwd", "file", "file" },
    { "file\t:///etc/passwd", "file", "file" },
    { "\1file:///etc/passwd", "file", "file" },
    { "\31file:///etc/passwd", "file", "file" },
    { " \t file:///etc/passwd \0", "file", "file" },
    { "\rfile:///etc/passwd", "file", "file" },
    { "file:/etc/passwd", "file", "file" },
    { "file:etc/passwd", "file", "file" },
    { "view-source:file:///etc/passwd", "view-source", "file" },
    { "view-source:fi\tle:///etc/passwd", "view-source", "file" },
    { "VIEW-SOURCE:\tview-source:file:///x", "view-source", "file" },
    { "filesystem:http://a.test/temporary/x", "filesystem", "filesystem" },
    { "filesystem:file:///x", "filesystem", "filesystem" },
    { "blob:file:///0b1c", "blob", "file" },
    { "blob:http://a.test/0b1c", "blob", nil },
    { "view-source:http://a.test/", "view-source", nil },
    { "http://a.test/file:///etc/passwd", "http", nil },
    { "https://a.test/?u=file:///x", "https", nil },
    { "data:text/html,<a href=file:///etc/passwd>", "data", nil },
    { "about:blank", "about", nil },
    { "\u{a0}file:///etc/passwd", nil, nil },      -- a no-break space is not stripped
    { "%66ile:///etc/passwd", nil, nil },          -- a relative URL
    { "1file:///x", nil, nil },
    { "fi le:///x", nil, nil },                     -- a space inside is kept
    { "/etc/passwd", nil, nil },
    { "", nil, nil },
  }
  for _, row in ipairs(rows) do
    it(("%q"):format(row[1]), function()
      assert.equal(row[2], (urls.scheme(row[1])))
      assert.equal(row[3], urls.local_file(row[1]))
    end)
  end

  it("reads through wrappers, from the outside in", function()
    assert.same({ "view-source", "blob", "file" }, urls.schemes("view-source:blob:fi\tle:///x"))
    assert.same({ "https" }, urls.schemes("https://a.test/view-source:file:///x"))
    assert.same({}, urls.schemes(42))
  end)

  it("Policy:check_url refuses what opens a local file, with the next step", function()
    local policy = require("vdx.paths").new {}
    local err = helpers.error_of(policy.check_url, policy, "view-source:fi\tle:///etc/passwd")
    assert.is_true(vdx.is_error(err, "InvalidArgument"), tostring(err))
    assert.matches("^file: URLs are refused: .*%-%-allow%-file%-urls", err.message)
    assert.equal("url", err.field)
    assert.equal("https://a.test/", policy:check_url("https://a.test/"))
    local open = require("vdx.paths").new { allow_file_urls = true }
    assert.equal("fi\tle:///x", open:check_url("fi\tle:///x"))
  end)
end)

describe("Chromium's reading of the spellings", function()
  local browser, page, srv

  setup(function()
    -- An image that keeps a page's load event waiting.
    srv = helpers.serve { ["GET /slow.gif"] = function() vdx.sleep(3000) return { status = 204, body = "" } end }
    browser = vdx.launch {}
    page = browser:new_page()
  end)

  teardown(function() helpers.shut(browser, srv) end)

  -- What the parser says of the spellings it finds no scheme in is what
  -- the browser does: it will not navigate to them at all.
  it("will not open a no-break space before file:, nor %66ile:", function()
    for _, u in ipairs { "\u{a0}file:///etc/passwd", "%66ile:///etc/passwd" } do
      local err = helpers.error_of(page.navigate, page, u)
      assert.matches("invalid URL", tostring(err), 1, true)
    end
  end)

  -- The other way round: what the parser reads as file: the browser opens
  -- as a file, which is why it is refused (the host API itself is not
  -- confined; only the MCP server is).
  it("opens a tab-split file: URL as the file", function()
    local nav = page:navigate("fi\tle:///etc/passwd")
    assert.equal("file:///etc/passwd", nav.url)
  end)

  -- What the guard does to a navigation under way: its document is
  -- replaced right after it commits.  The navigation fails as replaced
  -- (it used to wait out its whole timeout).
  it("fails a navigation whose document is replaced as it commits", function()
    local ctx = browser:new_context()
    local p = ctx:new_page()
    local left = 0
    browser:on("Target.targetInfoChanged", function(ev)
      if ev.targetInfo.targetId == p:target_id() and ev.targetInfo.url:match("^file:") then
        left = left + 1
        p:send("Page.navigate", { url = "about:blank" })
      end
    end)
    local dir = client.tmpdir()
    helpers.write(dir .. "/slow.html", ("<h1>Slow</h1><img src='%s/slow.gif'>"):format(srv.url))
    local err = helpers.error_of(p.navigate, p, "file://" .. dir .. "/slow.html", { timeout_ms = 20000 })
    os.execute("rm -rf " .. client.q(dir))
    assert.is_true(vdx.is_error(err, "NavigationFailed"), tostring(err))
    assert.matches("replaced", err.message, 1, true)
    assert.equal(1, left)
    ctx:close()
  end)
end)

-- How the guard leaves a document, on real targets: the file: ones that
-- reach it are above and below; here an out-of-process frame (no file:
-- document can be one: Chromium lets no http: page frame a file) and a
-- tab no role knows.
describe("vdx.url_guard leaves what it is given", function()
  local srv, mgr, guard, browser, page, port

  setup(function()
    srv = helpers.serve {
      ["GET /top"] = function() return "<h1>Top</h1><iframe src='http://b.test:" .. port .. "/inner'></iframe>" end,
      ["GET /inner"] = function() return "<p>inner text</p>" end,
    }
    port = srv.url:match(":(%d+)$")
    mgr = require("vdx.roles").new { launch = { headless = true,
      args = { "--host-resolver-rules=MAP a.test 127.0.0.1, MAP b.test 127.0.0.1", "--site-per-process" } } }
    guard = require("vdx.url_guard").new { policy = require("vdx.paths").new {}, roles = mgr }
    mgr.url_guard = guard
    mgr:add { name = "r" }
    page = mgr:current():page()
    browser = mgr:browser()
  end)

  teardown(function()
    if mgr then mgr:close() end
    if srv then srv:close() end
  end)

  it("sends an out-of-process frame to about:blank through its page", function()
    local frame
    browser:on("Target.targetInfoChanged", function(ev)
      if ev.targetInfo.type == "iframe" and ev.targetInfo.url:match("/inner$") then frame = ev.targetInfo end
    end)
    page:navigate("http://a.test:" .. port .. "/top")
    assert.truthy(client.wait_until(function() return frame end, 10000), "no out-of-process frame")
    assert.matches("inner text", page:snapshot().text, 1, true)
    assert.equal("The frame went to about:blank.", guard:leave(browser, frame))
    assert.truthy(client.wait_until(function() return not page:snapshot().text:find("inner text", 1, true) end, 10000))
    assert.equal(0, guard.seen)
  end)

  it("closes a tab no role knows", function()
    local id = browser:send("Target.createTarget", { url = "about:blank" }).targetId
    assert.equal("The tab was closed.", guard:leave(browser, { type = "page", targetId = id }))
    local function open()
      for _, t in ipairs(browser:send("Target.getTargets").targetInfos) do
        if t.targetId == id then return true end
      end
      return false
    end
    assert.truthy(client.wait_until(function() return not open() end, 10000), "the tab is still open")
  end)
end)

describe("no local file through vdxlua mcp", function()
  local srv

  setup(function()
    srv = helpers.serve {
      ["GET /redirect"] = function()
        return { status = 302, headers = { Location = "file:///etc/passwd" }, body = "" }
      end,
      ["GET /opener"] = function()
        return "<title>Opener</title><a href='file:///etc/passwd' target=_blank>passwd</a>"
          .. "<script>window.opened = String(window.open('file:///etc/passwd'))</script>"
      end,
      ["GET /framed"] = function()
        return "<title>Framed</title><h1>Framed</h1><iframe src='file:///etc/passwd'></iframe>"
      end,
      ["GET /plain"] = function() return "<title>Plain</title><h1>Plain page</h1>" end,
    }
  end)

  teardown(function() if srv then srv:close() end end)

  -- Runs calls (tool, args) in one server with args; returns the answers.
  local function session(args, calls)
    local lines = { client.initialize(1, "2025-06-18") }
    for i, c in ipairs(calls) do lines[#lines + 1] = client.call(i + 1, c[1], c[2]) end
    local msgs, out, err, rc = client.batch(lines, args)
    assert.equal(0, rc, err)
    assert.is_nil(out:find(SECRET, 1, true), "the file's text reached the client")
    local res = {}
    for i = 1, #calls do res[i] = assert(client.by_id(msgs, i + 1), "no answer to call " .. i) end
    return res, err
  end

  local function refused(msg, what)
    assert.is_true(msg.result.isError, what .. ": " .. client.text(msg))
    assert.matches("file: URLs are refused", client.text(msg), 1, true)
  end

  -- The probe's 17 spellings and more: each is refused as a local file,
  -- or the browser cannot open it (shown above); none shows the file.
  local SPELLINGS = {
    { "fi\nle:///etc/passwd", "file" }, { "fi\tle:///etc/passwd", "file" },
    { "\1file:///etc/passwd", "file" }, { "\31file:///etc/passwd", "file" },
    { "file\t:///etc/passwd", "file" }, { "view-source:fi\tle:///etc/passwd", "file" },
    { "file:///etc/passwd", "file" }, { "FILE:///etc/passwd", "file" }, { " file:///etc/passwd", "file" },
    { "\rfile:///etc/passwd", "file" }, { "file:/etc/passwd", "file" }, { "file:etc/passwd", "file" },
    { "view-source:file:///etc/passwd", "file" }, { "filesystem:file:///x", "file" },
    { "\2\3\4\5\6\7\8\11\12\14\15\16\17\18\19\20\21\22\23\24\25\26\27\28\29\30file:///etc/passwd", "file" },
    { "file:///etc/passwd\t\n ", "file" }, { "fIlE://localhost/etc/passwd", "file" },
    { "blob:file:///etc/passwd", "file" }, { "view-source:view-source:fi\tle:///etc/passwd", "file" },
    { "\u{a0}file:///etc/passwd", "invalid" }, { "%66ile:///etc/passwd", "invalid" },
  }

  it("refuses every spelling of a file: URL in browser_navigate", function()
    -- Each navigate is followed by a snapshot: no later one shows the file.
    local calls = {}
    for _, s in ipairs(SPELLINGS) do
      calls[#calls + 1] = { "browser_navigate", { url = s[1] } }
      calls[#calls + 1] = { "browser_snapshot", {} }
    end
    calls[#calls + 1] = { "browser_tabs", { action = "list" } }
    local r = session("", calls)
    for i, s in ipairs(SPELLINGS) do
      local what, nav, snap = ("%q"):format(s[1]), r[2 * i - 1], r[2 * i]
      if s[2] == "file" then
        refused(nav, what)
      else
        assert.is_true(nav.result.isError, what)
        assert.matches("is not a URL the browser can open", client.text(nav), 1, true)
      end
      assert.is_nil(snap.result.isError, client.text(snap))
      assert.matches("Page URL: about:blank", client.text(snap), 1, true)
    end
    assert.is_nil(client.text(r[#calls]):find("%([%a-]*:?file:"), client.text(r[#calls]))
  end)

  it("accepts a harmless URL that mentions file: after its scheme", function()
    local r = session("", { { "browser_navigate", { url = srv.url .. "/plain?next=file:///etc/passwd" } } })
    assert.is_nil(r[1].result.isError, client.text(r[1]))
    assert.matches("Title: Plain", client.text(r[1]), 1, true)
  end)

  -- A role's default URL is the operator's, checked only as a URL; the
  -- document it commits is checked, in a role with a context of its own,
  -- and so is going back to it through the tab's history.
  it("leaves a file: document a role's default URL reached, and refuses going back to it", function()
    local dir = client.tmpdir()
    helpers.write(dir .. "/roles.lua", ("return { default_role = 'main', roles = { main = { url = %q }, "
      .. "other = { url = 'file:///etc/passwd' }, third = { url = 'view-source:file:///etc/passwd' } } }")
      :format(srv.url .. "/plain"))
    local r = session("--config " .. client.q(dir .. "/roles.lua"), {
      { "browser_snapshot", {} },
      { "select_role", { role = "other" } },
      { "browser_snapshot", {} },
      { "browser_snapshot", {} },
      { "browser_navigate_back", {} },
      { "browser_snapshot", {} },
      { "browser_tabs", { action = "list" } },
      { "select_role", { role = "main" } },
      { "browser_snapshot", {} },
      { "select_role", { role = "third" } },
      { "browser_tabs", { action = "list" } },
      { "browser_snapshot", {} },
    })
    os.execute("rm -rf " .. client.q(dir))
    assert.matches("Plain page", client.text(r[1]), 1, true)
    -- The call that opened the role's page (and so its default URL) is refused.
    local opened
    for i = 2, 3 do
      if r[i].result.isError then opened = i end
    end
    assert.is_not_nil(opened, "no call was refused: " .. client.text(r[3]))
    refused(r[opened], "opening the role's page")
    assert.matches("file:///etc/passwd", client.text(r[opened]), 1, true)
    assert.is_nil(r[4].result.isError, client.text(r[4]))
    assert.matches("about:blank", client.text(r[4]), 1, true)
    refused(r[5], "browser_navigate_back")
    assert.is_nil(r[6].result.isError, client.text(r[6]))
    assert.matches("about:blank", client.text(r[6]), 1, true)
    assert.is_nil(client.text(r[7]):find("%([%a-]*:?file:"), client.text(r[7]))
    assert.matches("Plain page", client.text(r[9]), 1, true)
    -- view-source: of a file is a local file too, in a third context.
    assert.is_true(r[10].result.isError or r[11].result.isError, client.text(r[11]))
    refused(r[10].result.isError and r[10] or r[11], "opening the third role's page")
    assert.matches("view-source:file:///etc/passwd", client.text(r[10].result.isError and r[10] or r[11]), 1, true)
    assert.matches("Page URL: about:blank", client.text(r[12]), 1, true)
  end)

  -- A local page may open and frame other local files (Chromium lets a
  -- file: document do so): leaving it takes its in-process frame along,
  -- and a popup it opened for the file is closed.
  it("leaves a local page that frames a file and opens one in a popup", function()
    local dir = client.tmpdir()
    helpers.write(dir .. "/opener.html", "<title>Local opener</title><h1>Local</h1>"
      .. "<iframe src='file:///etc/passwd'></iframe><script>window.open('file:///etc/passwd')</script>")
    local r, log = session("--role main - " .. client.q("file://" .. dir .. "/opener.html"), {
      { "browser_tabs", { action = "list" } },
      { "browser_snapshot", {} },
      { "browser_wait_for", { time = 1 } },
      { "browser_tabs", { action = "list" } },
      { "browser_snapshot", {} },
    })
    os.execute("rm -rf " .. client.q(dir))
    assert.is_nil(client.text(r[4]):find("%([%a-]*:?file:"), client.text(r[4]))
    assert.is_nil(client.text(r[4]):find("\n", 1, true), "one tab only: " .. client.text(r[4]))
    assert.matches("Page URL: about:blank", client.text(r[5]), 1, true)
    -- The server's log says what it left.  Whether the page's script ran
    -- (and opened its popup) before the page was left is a race the page
    -- usually loses; a popup it won with is closed (the tabs above).
    assert.matches("opener.html%): The page went to about:blank", log)
    for i = 1, #r do assert.is_nil(client.text(r[i]):find("Local opener", 1, true), client.text(r[i])) end
  end)

  it("with --allow-file-urls opens the file", function()
    local host = assert(helpers.read("/etc/hostname")):match("^%s*(.-)%s*$")
    local r = session("--allow-file-urls --role main - file:///etc/hostname", {
      { "browser_snapshot", {} },
      { "browser_navigate", { url = "FILE:///etc/hostname" } },
      { "browser_tabs", { action = "list" } },
    })
    assert.is_nil(r[1].result.isError, client.text(r[1]))
    assert.matches(host, client.text(r[1]), 1, true)
    assert.is_nil(r[2].result.isError, client.text(r[2]))
    assert.matches("Navigated to file:///etc/hostname", client.text(r[2]), 1, true)
    assert.matches("(file:///etc/hostname)", client.text(r[3]), 1, true)
  end)

  -- What Chromium does itself: a redirect to file: is unsafe, and a page,
  -- a data: URL or about:blank may not open, frame or link to a file.
  -- None of it reaches the file; the spec proves that stays so.
  it("a redirect, a popup, a link, a frame or a data: page reaches no file", function()
    local data_nav = "data:text/html,<title>Data</title><script>location.href='file:///etc/passwd'</script>"
    local data_frame = "data:text/html,<title>DataFrame</title><iframe src='file:///etc/passwd'></iframe>"
    local r = session("", {
      { "browser_navigate", { url = srv.url .. "/redirect" } },
      { "browser_snapshot", {} },
      { "browser_navigate", { url = srv.url .. "/opener" } },
      { "browser_click", { element = "passwd link", ref = "e1" } },
      { "browser_tabs", { action = "list" } },
      { "browser_navigate", { url = srv.url .. "/framed" } },
      { "browser_snapshot", {} },
      { "browser_navigate", { url = data_nav } },
      { "browser_wait_for", { time = 0.5 } },
      { "browser_snapshot", {} },
      { "browser_navigate", { url = data_frame } },
      { "browser_snapshot", {} },
      { "browser_tabs", { action = "new" } },
      { "browser_tabs", { action = "new", url = "file:///etc/passwd" } },
      { "browser_tabs", { action = "list" } },
    })
    assert.is_true(r[1].result.isError)
    assert.matches("ERR_UNSAFE_REDIRECT", client.text(r[1]), 1, true)
    assert.matches("Opener", client.text(r[3]), 1, true)
    assert.is_nil(client.text(r[5]):find("%([%a-]*:?file:"), client.text(r[5]))
    assert.matches("Framed", client.text(r[7]), 1, true)
    assert.matches("data:", client.text(r[10]), 1, true)
    assert.is_nil(r[13].result.isError, client.text(r[13]))
    assert.is_true(r[14].result.isError)
    assert.matches("unknown field", client.text(r[14]), 1, true)
    assert.is_nil(client.text(r[15]):find("%([%a-]*:?file:"), client.text(r[15]))
  end)
end)
