-- The core against the real browser: launch, contexts, pages, evaluate,
-- raw CDP, events, big replies, timeouts, errors, and process clean-up.
local vdx = require "vdx"
local h = require "helpers"

describe("vdx core", function()
  local browser, srv

  setup(function()
    srv = h.serve {
      ["GET /api/echo"] = function(req)
        return { status = 200, json = { query = req.params } }
      end,
      -- A page whose load listener comes with a script that arrives late,
      -- long after vdx's world exists: the read after load must still
      -- follow it.
      ["GET /late-listener.html"] = function()
        return "<title>early</title><p>x</p><script src=/late-listener.js></script>"
      end,
      ["GET /late-listener.js"] = function()
        vdx.sleep(150)
        return { status = 200, headers = { ["content-type"] = "text/javascript" },
                 body = "addEventListener('load', () => { document.title = 'late' })" }
      end,
    }
    browser = vdx.launch { timeout_ms = 20000 }
  end)

  teardown(function()
    if browser then browser:close() end
    if srv then srv:close() end
  end)

  it("launches Chromium over the pipe and reports its version", function()
    local v = browser:version()
    -- "HeadlessChrome/…" from chromium-headless-shell, "Chrome/…" otherwise.
    assert.matches("^%a*Chrome/%d+", v.product)
    assert.equal("1.3", v.protocolVersion)
    assert.matches("^vdx.Browser %(pid %d+%)$", tostring(browser))
    assert.is_nil(browser:endpoint())
  end)

  it("joins a --disable-features list given in args to its own, since Chromium keeps only the last", function()
    local b = vdx.launch { args = { "--disable-features=SpareRendererForSitePerProcess" } }
    local f = assert(io.open("/proc/" .. b:pid() .. "/cmdline"))
    local argv = f:read("a")
    f:close()
    b:close()
    local lists = {}
    for v in argv:gmatch("%-%-disable%-features=([^%z]*)") do lists[#lists + 1] = v end
    assert.equal(1, #lists, argv)
    assert.truthy(lists[1]:find("Translate", 1, true), lists[1])
    assert.truthy(lists[1]:find(",SpareRendererForSitePerProcess", 1, true), lists[1])
  end)

  it("refuses an argument that is no switch, which Chromium would take for a page to open", function()
    for _, a in ipairs { "", "http://example.test/" } do
      local ok, err = pcall(vdx.launch, { args = { "--mute-audio", a } })
      assert.is_false(ok)
      assert.is_true(vdx.is_error(err, "InvalidArgument"), tostring(err))
      assert.matches('opts.args[2] is "' .. a .. '", which is no switch', err.message, 1, true)
    end
  end)

  it("opens no TCP debugging port by default", function()
    local out = h.run("ss -ltnp 2>/dev/null | grep 'pid=" .. browser:pid() .. ",' || true")
    assert.equal("", out)
  end)

  it("navigates to a page served by vdx.serve and evaluates in it", function()
    local page = browser:new_page()
    local nav = page:navigate(srv.url .. "/core/index.html")
    assert.same({ url = srv.url .. "/core/index.html", title = "vdx fixture",
                  status = 200 }, nav)
    assert.equal("Hello from the fixture server.",
                 page:evaluate("document.getElementById('greeting').textContent"))
    local missing = page:navigate(srv.url .. "/core/nope.html")
    assert.equal(404, missing.status)
    page:close()
  end)

  it("reports the document's own url and title after load, however the title was set", function()
    local page = browser:new_page()
    local long = ("t"):rep(5000)
    local cases = {
      { "data:text/html,<title>  spaced \t out  </title>x", "spaced out", 200 },
      { "data:text/html,<p>no title", "", 200 },
      { "data:text/html,<script>document.title='by script'</script>", "by script", 200 },
      { "data:text/html,<title>x</title><script>onload=()=>document.title='on load'</script>", "on load", 200 },
      { "data:text/html,<title>" .. long .. "</title>", long, 200 },
      -- The page's own addEventListener, setTimeout and Promise are gone:
      -- the read after load does not use the page's.
      { "data:text/html,<script>addEventListener=()=>{};setTimeout=()=>{};Promise=null;"
        .. "onload=()=>document.title='hostile'</script>", "hostile", 200 },
      -- A load handler that keeps the event from every later listener.
      { "data:text/html,<script>addEventListener('load',(e)=>{e.stopImmediatePropagation();"
        .. "document.title='stopped'})</script>", "stopped", 200 },
      { srv.url .. "/core/second.html#part", "Second", 200 },
      { srv.url .. "/late-listener.html", "late", 200 },
      { "about:blank", "", nil },
    }
    for _, c in ipairs(cases) do
      for _, wait in ipairs { "load", "domcontentloaded", "commit" } do
        local nav = page:navigate(c[1], { wait_until = wait })
        if wait ~= "commit" then
          assert.same({ url = page:evaluate("location.href"), title = c[2], status = c[3] }, nav)
          assert.equal(c[2], page:evaluate("document.title"))
        else
          assert.equal(page:evaluate("location.href"), nav.url)
        end
      end
    end
    -- The same URL again: each title is the new document's, never the one
    -- it replaced (a title of its own for every document).
    local again = "data:text/html,<script>onload=()=>document.title=String(performance.timeOrigin)</script>"
    local seen = {}
    for _ = 1, 4 do
      local nav = page:navigate(again)
      assert.equal(page:evaluate("document.title"), nav.title)
      assert.is_nil(seen[nav.title])
      seen[nav.title] = true
    end
    page:close()
  end)

  it("reads url and title in its own world at load, where the page cannot reach", function()
    local page = browser:new_page()
    -- The page's own world lies about the title; navigate's read does not
    -- run there, and the binding it comes through is not there either.
    local nav = page:navigate("data:text/html,<title>real</title><script>"
      .. "Object.defineProperty(Document.prototype, 'title', { get() { return 'fake' } })</script>")
    assert.equal("real", nav.title)
    assert.equal("fake", page:evaluate("document.title"))
    assert.equal("undefined", page:evaluate("typeof __vdxLoaded"))
    page:close()
  end)

  it("reads url, title and status in its own world for every wait_until", function()
    -- Without the load read (commit, domcontentloaded, networkidle) the
    -- host asks the bridge, in the same world: the page's lie stays out,
    -- and the read is of the new document, even at commit.
    local page = browser:new_page()
    page:navigate(srv.url .. "/core/second.html")
    local url = "data:text/html,<title>real</title><script>"
      .. "Object.defineProperty(Document.prototype, 'title', { get() { return 'fake' } })</script>"
    for _, wu in ipairs { "commit", "domcontentloaded", "networkidle" } do
      local nav = page:navigate(url, { wait_until = wu })
      assert.equal(url, nav.url, wu)
      if wu ~= "commit" then assert.equal("real", nav.title, wu) end
      assert.is_not.equal("fake", nav.title, wu)
      assert.is_not.equal("Second", nav.title, wu)
      local served = page:navigate(srv.url .. "/core/second.html", { wait_until = wu })
      assert.equal(srv.url .. "/core/second.html", served.url, wu)
      assert.equal(200, served.status, wu)
    end
    page:close()
  end)

  it("has one name for navigation, page:navigate: page['goto'] is no alias", function()
    local page = browser:new_page()
    assert.is_nil(page["goto"])
    assert.equal("Second", page:navigate(srv.url .. "/core/second.html").title)
    page:close()
  end)

  it("turns JSON values into Lua values", function()
    local page = browser:new_page()
    assert.equal(2, page:evaluate("1 + 1"))
    assert.equal("integer", math.type(page:evaluate("1 + 1")))
    assert.equal(2.5, page:evaluate("5 / 2"))
    assert.is_nil(page:evaluate("undefined"))
    assert.is_nil(page:evaluate("null"))
    assert.same({ a = 1, b = { "x", true } }, page:evaluate("({a: 1, b: ['x', true]})"))
    assert.equal(math.huge, page:evaluate("Infinity"))
    assert.equal("9007199254740993n", page:evaluate("9007199254740993n"))
    assert.equal(42, page:evaluate("new Promise(r => setTimeout(() => r(42), 10))"))
    page:close()
  end)

  -- The CDP wire writes numbers with vdx.json, exactly, both ways: the
  -- page sees the double Lua had, and Lua gets back the double the page had.
  it("carries every number to the page and back exactly", function()
    local page = browser:new_page()
    assert.equal(0.1 + 0.2, page:evaluate("0.1 + 0.2"))
    assert.equal("0.30000000000000004", ("%.17g"):format(page:evaluate("0.1 + 0.2")))
    assert.equal(1000000000000001, page:evaluate("1000000000000001"))
    assert.equal("integer", math.type(page:evaluate("1000000000000001")))
    assert.equal(9007199254740991, page:evaluate("Number.MAX_SAFE_INTEGER"))
    local values = { 0.1 + 0.2, 1000000000000001, 9007199254740991, -9007199254740991,
                     5e-324, 1.7976931348623157e308, 1 / 3, 123456789.12345678 }
    local texts = { "0.30000000000000004", "1000000000000001", "9007199254740991",
                    "-9007199254740991", "5e-324", "1.7976931348623157e+308",
                    "0.3333333333333333", "123456789.12345678" }
    for i, v in ipairs(values) do
      assert.equal(texts[i], page:evaluate_checked("(x) => String(x)", v))
      assert.equal(v, page:evaluate_checked("(x) => x", v))
    end
    assert.same(values, page:evaluate_checked("(t) => t", values))
    page:close()
  end)

  it("raises a JavaScriptError for an exception in the page", function()
    local page = browser:new_page()
    local err = h.error_of(page.evaluate, page, "throw new TypeError('nope')")
    assert.is_true(vdx.is_error(err, "JavaScriptError"))
    assert.matches("TypeError: nope", err.message)
    page:close()
  end)

  it("keeps cookies apart between two contexts", function()
    local a, b = browser:new_context(), browser:new_context()
    local pa, pb = a:new_page(), b:new_page()
    pa:navigate(srv.url .. "/core/index.html")
    pb:navigate(srv.url .. "/core/index.html")
    pa:evaluate("document.cookie = 'who=alice; path=/'")
    assert.equal("who=alice", pa:evaluate("document.cookie"))
    assert.equal("", pb:evaluate("document.cookie"))
    local cookies = pa:send("Network.getCookies", { urls = { srv.url } }).cookies
    assert.equal(1, #cookies)
    assert.equal(0, #pb:send("Network.getCookies", { urls = { srv.url } }).cookies)
    assert.is_true(a:close())
    assert.is_true(b:close())
    assert.equal("vdx.Context (closed)", tostring(a))
  end)

  it("sends raw CDP on the page session and the browser", function()
    local page = browser:new_page()
    local tree = page:send("Page.getFrameTree", {})
    assert.equal(page:target_id(), tree.frameTree.frame.id)
    local targets = browser:send("Target.getTargets").targetInfos
    local found = false
    for _, t in ipairs(targets) do found = found or t.targetId == page:target_id() end
    assert.is_true(found)
    page:close()
  end)

  it("gives the first page the tab the browser started with, and new tabs after", function()
    local b = vdx.launch {}
    local function tabs()
      local ids = {}
      for _, t in ipairs(b:send("Target.getTargets").targetInfos) do
        if t.type == "page" then ids[#ids + 1] = t.targetId end
      end
      table.sort(ids)
      return ids
    end
    -- Tabs open and close a little after the calls that ask for it return.
    local function settled(n)
      for _ = 1, 100 do
        if #tabs() == n then break end
        vdx.sleep(100)
      end
      return tabs()
    end
    local first = settled(1)[1]
    local p1 = b:new_page()
    assert.equal(first, p1:target_id())
    assert.same({ first }, tabs())
    assert.equal("one", p1:navigate("data:text/html,<title>one</title>").title)
    local p2 = b:new_page()
    assert.not_equal(first, p2:target_id())
    assert.equal(2, #tabs())
    p1:close()
    p2:close()
    assert.same({}, settled(0))
    local p3 = b:new_page()
    assert.equal("three", p3:navigate("data:text/html,<title>three</title>").title)
    b:close()
  end)

  it("raises a CDPError carrying the CDP code and message", function()
    local page = browser:new_page()
    local err = h.error_of(page.send, page, "Nope.nothing", {})
    assert.is_true(vdx.is_error(err, "CDPError"))
    assert.equal(-32601, err.code)
    assert.equal("Nope.nothing", err.method)
    assert.matches("wasn't found", err.message)
    page:close()
  end)

  it("delivers events to subscribers as tasks", function()
    local page = browser:new_page()
    local seen = {}
    page:on("Runtime.consoleAPICalled", function(ev)
      seen[#seen + 1] = ev.args[1].value
    end)
    page:evaluate("console.log('one'); console.log('two')")
    local deadline = vdx.now() + 5000
    while #seen < 2 and vdx.now() < deadline do vdx.sleep(10) end
    assert.same({ "one", "two" }, seen)
    page:close()
  end)

  it("reassembles a reply of 50 MiB", function()
    local page = browser:new_page()
    local s = page:evaluate("'x'.repeat(50 * 1024 * 1024)", { timeout_ms = 60000 })
    assert.equal(50 * 1024 * 1024, #s)
    assert.equal(2, page:evaluate("1 + 1"))
    page:close()
  end)

  it("refuses an outgoing message that is too large, and stays usable", function()
    local page = browser:new_page()
    local big = string.rep("y", 97 * 1024 * 1024)
    local err = h.error_of(page.send, page, "Runtime.evaluate", { expression = big })
    assert.is_true(vdx.is_error(err, "MessageTooLarge"))
    big = nil
    assert.equal(3, page:evaluate("1 + 2"))
    page:close()
  end)

  it("times out a call that never answers, and stays usable", function()
    local page = browser:new_page()
    local t0 = vdx.now()
    local err = h.error_of(page.evaluate, page, "new Promise(() => {})", { timeout_ms = 200 })
    assert.is_true(vdx.is_error(err, "Timeout"))
    assert.equal(200, err.timeout_ms)
    assert.is_true(vdx.now() - t0 >= 190)
    assert.equal(4, page:evaluate("2 + 2"))
    page:close()
  end)

  it("counts a timeout from the call, not from the loop's last turn", function()
    local page = browser:new_page()
    -- Two seconds outside the loop: libuv's cached clock goes stale.
    os.execute("sleep 2")
    assert.equal(1, page:evaluate("new Promise(r => setTimeout(() => r(1), 300))",
      { timeout_ms = 1500 }))
    page:close()
  end)

  it("fails a navigation to a closed port with NavigationFailed", function()
    local page = browser:new_page()
    local closed = h.serve {}
    local url = closed.url
    closed:close()
    local err = h.error_of(page.navigate, page, url .. "/")
    assert.is_true(vdx.is_error(err, "NavigationFailed"))
    assert.matches("ERR_CONNECTION_REFUSED", err.message)
    page:close()
  end)

  it("runs two pages navigating concurrently in two tasks", function()
    local function visit(path)
      local page = browser:new_page()
      local nav = page:navigate(srv.url .. path)
      page:close()
      return nav.title
    end
    local t1 = vdx.spawn(visit, "/core/index.html")
    local t2 = vdx.spawn(visit, "/core/second.html")
    assert.equal("vdx fixture", vdx.wait(t1))
    assert.equal("Second", vdx.wait(t2))
    assert.equal("vdx.Task (done)", tostring(t1))
  end)

  it("checks options strictly and names the unknown key", function()
    local page = browser:new_page()
    local err = h.error_of(page.navigate, page, srv.url, { wait_untill = "load" })
    assert.matches("unexpected key 'wait_untill'", err)
    err = h.error_of(page.navigate, page, srv.url, { wait_until = "soon" })
    assert.matches("wait_until must be", err)
    page:close()
    err = h.error_of(vdx.launch, { headles = true })
    assert.matches("unexpected key 'headles'", err)
  end)

  it("raises on methods of a closed page", function()
    local page = browser:new_page()
    assert.is_true(page:close())
    assert.is_true(page:close())
    assert.equal("vdx.Page (closed)", tostring(page))
    local err = h.error_of(page.evaluate, page, "1")
    assert.is_true(vdx.is_error(err, "PageClosed"), tostring(err))
    assert.equal("the page is closed (page:close() was called)", err.message)
  end)
end)

describe("vdx browser lifetime", function()
  it("closes twice and raises on later use", function()
    local b = vdx.launch()
    local pid = b:pid()
    assert.is_true(b:close())
    assert.is_true(b:close())
    assert.equal("vdx.Browser (closed)", tostring(b))
    assert.is_false(h.alive(pid))
    assert.equal(0, h.group_size(pid))
    local err = h.error_of(b.version, b)
    assert.is_true(vdx.is_error(err, "BrowserClosed"), tostring(err))
    assert.equal("the browser is closed (browser:close() was called)", err.message)
    err = h.error_of(b.new_page, b)
    assert.is_true(vdx.is_error(err, "BrowserClosed"), tostring(err))
  end)

  it("ends the process tree of a browser that is garbage collected", function()
    local pid
    do
      local b = vdx.launch()
      pid = b:pid()
      b:new_page():evaluate("1")
    end
    collectgarbage()
    collectgarbage()
    local deadline = vdx.now() + 5000
    while h.group_size(pid) > 0 and vdx.now() < deadline do vdx.sleep(20) end
    assert.equal(0, h.group_size(pid))
  end)

  it("closes at the end of a to-be-closed scope", function()
    local pid
    do
      local b <close> = vdx.launch()
      pid = b:pid()
    end
    local deadline = vdx.now() + 5000
    while h.group_size(pid) > 0 and vdx.now() < deadline do vdx.sleep(20) end
    assert.equal(0, h.group_size(pid))
  end)

  it("fails pending and later calls with BrowserClosed when the browser dies", function()
    local b = vdx.launch()
    local page = b:new_page()
    local task = vdx.spawn(function()
      return page:evaluate("new Promise(() => {})", { timeout_ms = 20000 })
    end)
    vdx.sleep(50)
    os.execute("kill -9 " .. b:pid())
    local t0 = vdx.now()
    local ok, err = pcall(vdx.wait, task)
    assert.is_false(ok)
    assert.is_true(vdx.is_error(err, "BrowserClosed"), tostring(err))
    assert.is_true(vdx.now() - t0 < 5000)
    local err2 = h.error_of(page.evaluate, page, "1")
    assert.is_true(vdx.is_error(err2, "BrowserClosed"), tostring(err2))
    local err3 = h.error_of(b.version, b)
    assert.is_true(vdx.is_error(err3, "BrowserClosed"), tostring(err3))
    b:close()
  end)

  it("runs chromium-headless-shell headless when PATH has it, else chromium", function()
    local dir = os.tmpname()
    os.remove(dir)
    assert(os.execute("mkdir " .. dir))
    local function product(names)
      os.execute("rm -f " .. dir .. "/*")
      for _, n in ipairs(names) do
        local _, found = h.run("test -x /usr/bin/" .. n)
        if found ~= 0 then return nil end
        assert(os.execute(("ln -s /usr/bin/%s %s/%s"):format(n, dir, n)))
      end
      local out = h.run("env -u VDX_CHROMIUM PATH=" .. dir .. " " .. h.vdxlua ..
        " -e 'local b = require(\"vdx\").launch(); print(b:version().product); b:close()'")
      return out:match("(%a*Chrome)/%d+") or out
    end
    local both = product { "chromium", "chromium-headless-shell" }
    local full = product { "chromium" }
    os.execute("rm -rf " .. dir)
    if both == nil then
      pending("needs both chromium and chromium-headless-shell in /usr/bin")
      return
    end
    assert.equal("HeadlessChrome", both)
    assert.equal("Chrome", full)
  end)

  it("names make deps when no browser can be found", function()
    local err = h.error_of(vdx.launch, { executable = "/nonexistent/chromium" })
    assert.is_true(vdx.is_error(err, "BrowserNotFound"))
    -- The PATH search, from a subprocess with an empty PATH.
    local out = h.run("env -u VDX_CHROMIUM PATH=/nonexistent " .. h.vdxlua ..
      " -e 'local ok, e = pcall(require(\"vdx\").launch); print(e)'")
    assert.matches("BrowserNotFound", out)
    assert.matches("make deps", out)
  end)
end)
