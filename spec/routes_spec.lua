--- spec/routes_spec.lua: network routes (vdx.routes over the one Fetch
-- owner, vdx.fetch) against the real browser and servers on 127.0.0.1:
-- a payment API mocked, a third-party script aborted, requests of an
-- out-of-process frame and of a worker routed, HAR replay with no server,
-- continue with changed headers, fallback order, unroute, a handler that
-- raises, a context's routes, and the child-session primitives under them.
local vdx = require "vdx"
local h = require "helpers"
local match = require "vdx.route_match"

describe("route globs follow Playwright's rules #unit", function()
  -- glob, url, what Playwright's globToRegexPattern says (checked with
  -- playwright-core 1.65's own function).
  local rows = {
    { "**/api/*", "http://a.test/api/pay", true }, { "**/api/*", "http://a.test/api/pay/x", false },
    { "**/api/*", "http://a.test/v1/api/pay", true }, { "**/*.{png,jpg}", "http://a.test/i/x.png", true },
    { "**/*.{png,jpg}", "http://a.test/i/x.gif", false }, { "**/*.{png,jpg}", "http://a.test/x.jpg", true },
    { "http://a.test/*", "http://a.test/x", true }, { "http://a.test/*", "http://a.test/x/y", false },
    { "http://a.test/**", "http://a.test/x/y", true }, { "**/a?b", "http://h/a?b", true },
    { "**/a?b", "http://h/axb", false }, { "http://h/**/c", "http://h/c", true },
    { "http://h/**/c", "http://h/a/b/c", true }, { "*", "http://h/", false }, { "**", "http://h/x", true },
    { "http://h/x\\*", "http://h/x*", true }, { "http://h/x\\*", "http://h/xy", false },
    { "**/api/pay", "http://a.test/api/payment", false }, { "**/a.b", "http://h/aXb", false },
  }
  for _, r in ipairs(rows) do
    it(("%s on %s"):format(r[1], r[2]), function()
      assert.equal(r[3], match.compile(r[1])(r[2]))
    end)
  end

  it("says each glob as the JavaScript regex a test's toHaveURL takes, matching the same URLs", function()
    -- A glob that starts with ** reads as a person writes it.
    assert.equal("/\\/docs\\.html#s42$/", match.js_regex("**/docs.html#s42"))
    assert.equal("/^(?:\\/a\\/b|\\/a\\/c)$/", match.js_regex("/a/{b,c}"))
    if not os.execute("command -v node >/dev/null 2>&1") then return pending("no Node on PATH") end
    local js = {}
    for i, r in ipairs(rows) do
      js[i] = ("%s.test(%s)"):format(match.js_regex(r[1]), require("cjson").encode(r[2]))
    end
    local p = assert(io.popen("node -e " .. ("'console.log([%s].join(\" \"))'"):format(table.concat(js, ","))))
    local out = p:read("a")
    p:close()
    local i = 0
    for got in out:gmatch("%a+") do
      i = i + 1
      assert.equal(tostring(rows[i][3]), got, rows[i][1] .. " on " .. rows[i][2])
    end
    assert.equal(#rows, i, out)
  end)

  it("takes a Lua pattern when asked, found anywhere in the URL", function()
    assert.is_true(match.compile("^https?://[^/]*%.test/", true)("http://a.test/x"))
    assert.is_false(match.compile("^https?://[^/]*%.test/", true)("http://a.example/x"))
  end)

  it("refuses bad patterns with InvalidArgument", function()
    for _, bad in ipairs { { "**/{a,{b}}" }, { "**/{a,b" }, { "**/a}" }, { "[a", true }, { "" }, { 42 } } do
      local err = h.error_of(match.compile, bad[1], bad[2])
      assert.equal("InvalidArgument", err.type)
      assert.equal("pattern", err.field)
    end
  end)
end)

-- The checkout page; a test waits on its status line (no sleep).
local function pay(page)
  return page:evaluate([[new Promise(done => {
    document.getElementById('pay').click();
    const s = document.getElementById('status');
    if (s.textContent !== 'Not paid') return done(s.textContent);
    new MutationObserver(() => done(s.textContent)).observe(s, { childList: true, characterData: true, subtree: true });
  })]])
end

describe("routes", function()
  local srv, third, browser, page, base
  local hits = {}
  local function hit(name) hits[name] = (hits[name] or 0) + 1 end

  setup(function()
    third = h.serve { ["GET /tracker.js"] = function()
      hit("tracker")
      return { headers = { ["content-type"] = "text/javascript" }, body = "window.tracked = true" }
    end }
    local port2 = third.url:match(":(%d+)$")
    srv = h.serve {
      ["POST /api/pay"] = function(req)
        hit("pay")
        hits.last_header = req.headers["x-payment-test"]
        return { json = { ok = true, id = "SERVER" } }
      end,
      ["GET /api/frame"] = function() hit("frame"); return { body = "from-server" } end,
      ["GET /secret"] = function(req)
        if req.headers.authorization == "Basic " .. "dTpw" then return "<title>inside</title>" end
        return { status = 401, headers = { ["www-authenticate"] = 'Basic realm="shop"' }, body = "<title>locked</title>" }
      end,
      ["GET /api/worker"] = function() hit("worker"); return { body = "from-server" } end,
      ["GET /tracked"] = function()
        return "<title>t</title><script>window.done = new Promise(r => { const s = document.createElement('script');" ..
          "s.src = 'http://127.0.0.1:" .. port2 .. "/tracker.js'; s.onload = () => r('loaded');" ..
          "s.onerror = () => r('blocked'); document.head.append(s); })</script>"
      end,
      ["GET /xo"] = function(req)
        -- The child is on b.test, another site: an out-of-process frame.
        return "<title>xo</title><script>window.done = new Promise(r => addEventListener('message', e => r(e.data)))" ..
          "</script><iframe src='http://b.test:" .. req.headers.host:match(":(%d+)$") .. "/xo-child'></iframe>"
      end,
      ["GET /xo-child"] = function()
        return "<p>child</p><script>fetch('/api/frame').then(r => r.text()).then(t => parent.postMessage(t, '*'))</script>"
      end,
      ["GET /worker"] = function()
        return "<title>w</title><script>const w = new Worker('/worker.js');" ..
          "window.done = new Promise(r => w.onmessage = e => r(e.data))</script>"
      end,
      ["GET /worker.js"] = function()
        return { headers = { ["content-type"] = "text/javascript" },
          body = "fetch('/api/worker').then(r => r.text()).then(t => postMessage(t))" }
      end,
    }
    -- b.test's frame out of process (--site-per-process), as the full browser runs it.
    browser = vdx.launch { args = { "--host-resolver-rules=MAP a.test 127.0.0.1, MAP b.test 127.0.0.1, " ..
      "MAP shop.test 127.0.0.1", "--site-per-process" } }
    page = browser:new_page()
    base = "http://a.test:" .. srv.url:match(":(%d+)$")
  end)
  teardown(function()
    h.shut(browser, srv)
    if third then third:close() end
  end)
  before_each(function()
    page:unroute_all()
    browser:default_context():unroute_all()
  end)

  it("mocks the payment API of a checkout with a Lua route", function()
    local seen
    page:route("**/api/pay", function(route, req)
      seen = req
      route:fulfill { json = { ok = true, id = "MOCK-1" } }
    end)
    page:navigate(base .. "/routes/checkout.html")
    local before = hits.pay or 0
    assert.equal("Paid, receipt MOCK-1", pay(page))
    assert.equal(before, hits.pay or 0)
    assert.equal("POST", seen.method)
    assert.equal('{"amount":42}', seen.post_data)
    assert.equal("application/json", seen.headers["content-type"])
    assert.equal("main", seen.frame)
    assert.equal(base .. "/api/pay", seen.url)
  end)

  it("aborts a third-party script from another port", function()
    local port2 = third.url:match(":(%d+)$")
    local reasons = {}
    page:route("http://127.0.0.1:" .. port2 .. "/**", function(route, req)
      reasons[#reasons + 1] = req.resource_type
      route:abort { reason = "BlockedByClient" }
    end)
    page:navigate(base .. "/tracked")
    assert.equal("blocked", page:evaluate("window.done"))
    assert.is_nil(page:evaluate("window.tracked"))
    assert.is_nil(hits.tracker)
    assert.same({ "script" }, reasons)
  end)

  it("routes a request of a cross-origin (out-of-process) frame", function()
    local seen
    page:route("**/api/frame", function(route, req)
      seen = req
      route:fulfill { body = "mocked-in-frame", content_type = "text/plain" }
    end)
    page:navigate(base .. "/xo")
    assert.equal("mocked-in-frame", page:evaluate("window.done"))
    assert.is_nil(hits.frame)
    assert.matches("^f%d+$", seen.frame)
    local iframes = {}
    for _, s in ipairs(page:sessions()) do if s.type == "iframe" then iframes[#iframes + 1] = s end end
    assert.equal(1, #iframes)
    assert.matches("^http://b%.test:%d+/xo%-child$", iframes[1].url)
  end)

  it("routes a dedicated worker's fetch", function()
    page:route("**/api/worker", function(route) route:fulfill { body = "mocked-in-worker" } end)
    page:navigate(base .. "/worker")
    assert.equal("mocked-in-worker", page:evaluate("window.done"))
    assert.is_nil(hits.worker)
    local workers = 0
    for _, s in ipairs(page:sessions()) do if s.type == "worker" then workers = workers + 1 end end
    assert.equal(1, workers)
  end)

  it("continues a request with changed headers, seen by the server", function()
    page:route("**/api/pay", function(route, req)
      local headers = req.headers
      headers["x-payment-test"] = "sandbox"
      route:continue { headers = headers }
    end)
    page:navigate(base .. "/routes/checkout.html")
    local before = hits.pay or 0
    assert.equal("Paid, receipt SERVER", pay(page))
    assert.equal(before + 1, hits.pay)
    assert.equal("sandbox", hits.last_header)
  end)

  it("tries the last registered route first, and fallback() passes to the next", function()
    local order = {}
    page:route("**/api/*", function(route) order[#order + 1] = "first"; route:fulfill { json = { ok = true, id = "FIRST" } } end)
    page:route("**/api/pay", function(route) order[#order + 1] = "second"; route:fallback() end)
    page:route("**/api/other", function(route) order[#order + 1] = "unmatched"; route:abort {} end)
    page:route("**/api/pay", function(route) order[#order + 1] = "third"; route:fallback() end)
    page:navigate(base .. "/routes/checkout.html")
    assert.equal("Paid, receipt FIRST", pay(page))
    assert.same({ "third", "second", "first" }, order)
  end)

  it("unroute removes a route, and the request reaches the server again", function()
    local mock = function(route) route:fulfill { json = { ok = true, id = "MOCK" } } end
    local keep = function(route) route:fallback() end
    page:route("**/api/pay", mock)
    page:route("**/api/pay", keep)
    assert.equal(1, page:unroute("**/api/pay", mock))
    assert.same({ { pattern = "**/api/pay" } }, page:routes())
    page:navigate(base .. "/routes/checkout.html")
    local before = hits.pay or 0
    assert.equal("Paid, receipt SERVER", pay(page))
    assert.equal(before + 1, hits.pay)
    assert.equal(1, page:unroute_all())
    assert.same({}, page:routes())
  end)

  it("a handler that raises or does not answer is logged and the request continues", function()
    local logged = {}
    local routes = require "vdx.routes"
    local log = routes.log
    routes.log = function(level, fmt, ...) logged[#logged + 1] = level .. ": " .. fmt:format(...) end
    page:route("**/api/pay", function() error("the mock is broken") end)
    page:navigate(base .. "/routes/checkout.html")
    local before = hits.pay or 0
    local ok, status = pcall(pay, page)
    routes.log = log
    assert.is_true(ok, status)
    assert.equal("Paid, receipt SERVER", status)
    assert.equal(before + 1, hits.pay)
    local errs = page:route_errors()
    assert.matches("the mock is broken", errs[#errs].message)
    assert.equal("**/api/pay", errs[#errs].pattern)
    assert.matches("^error: route %*%*/api/pay for .*the mock is broken; the request continues", logged[#logged])
    page:unroute_all()
    page:route("**/api/pay", function() end)
    page:navigate(base .. "/routes/checkout.html")
    assert.equal("Paid, receipt SERVER", pay(page))
    assert.matches("returned without", page:route_errors()[#page:route_errors()].message)
  end)

  it("answers route misuse with InvalidArgument", function()
    assert.equal("InvalidArgument", h.error_of(page.route, page, "**/{a", function() end).type)
    assert.equal("InvalidArgument", h.error_of(page.route, page, "**/a", "not a function").type)
    assert.equal("InvalidArgument", h.error_of(page.route, page, "**/a", function() end, { bogus = 1 }).type)
    local got
    page:route("**/api/pay", function(route)
      got = { pcall(route.abort, route, { reason = "NoSuchReason" }) }
      route:fulfill { status = 402, json = { ok = false, error = "declined" } }
    end)
    page:navigate(base .. "/routes/checkout.html")
    assert.equal("Payment refused: declined", pay(page))
    assert.is_false(got[1])
    assert.equal("InvalidArgument", got[2].type)
  end)

  it("replays a hand-written HAR with no server listening", function()
    -- shop.test maps to 127.0.0.1 port 80, where nothing listens.
    local err = h.error_of(page.navigate, page, "http://shop.test/checkout", { timeout_ms = 10000 })
    assert.equal("NavigationFailed", err.type)
    page:route("**/missing", function(route) route:fulfill { body = "from an earlier route" } end)
    page:route_from_har("spec/fixtures/routes/checkout.har", { not_found = "fallback" })
    page:navigate("http://shop.test/checkout")
    assert.equal("Recorded checkout", page:evaluate("document.title"))
    -- Two entries share POST /api/pay: the post data picks the second.
    assert.equal("Paid, receipt R-2026", page:evaluate("window.done"))
    assert.equal("from an earlier route", page:evaluate("fetch('/missing').then(r => r.text())"))
    page:unroute_all()
    page:route_from_har("spec/fixtures/routes/checkout.har", { url = "http://shop.test/**" })
    page:navigate("http://shop.test/checkout")
    assert.equal("failed", page:evaluate("fetch('/missing').then(() => 'served', () => 'failed')"))
    assert.equal("InvalidHar", h.error_of(page.route_from_har, page, "spec/fixtures/routes/checkout.html").type)
    assert.equal("IOError", h.error_of(page.route_from_har, page, "spec/fixtures/routes/none.har").type)
    assert.equal("InvalidArgument",
      h.error_of(page.route_from_har, page, "spec/fixtures/routes/checkout.har", { not_found = "x" }).type)
  end)

  it("composes with an authentication challenge: the browser answers it, routes change the request", function()
    page:route("**/api/*", function(route) route:fulfill { body = "unused" } end)
    local nav = page:navigate(base .. "/secret")
    assert.equal(401, nav.status)
    assert.equal("locked", page:evaluate("document.title"))
    page:route("**/secret", function(route, req)
      req.headers.authorization = "Basic dTpw"
      route:continue { headers = req.headers }
    end)
    nav = page:navigate(base .. "/secret")
    assert.equal(200, nav.status)
    assert.equal("inside", page:evaluate("document.title"))
  end)

  it("a context's routes apply to its pages, present and new, after the page's own", function()
    local ctx = browser:new_context()
    local first = ctx:new_page()
    ctx:route("**/api/pay", function(route) route:fulfill { json = { ok = true, id = "CONTEXT" } } end)
    local second = ctx:new_page()
    for _, p in ipairs { first, second } do
      p:navigate(base .. "/routes/checkout.html")
      assert.equal("Paid, receipt CONTEXT", pay(p))
    end
    second:route("**/api/pay", function(route) route:fulfill { json = { ok = true, id = "PAGE" } } end)
    second:navigate(base .. "/routes/checkout.html")
    assert.equal("Paid, receipt PAGE", pay(second))
    assert.equal(1, ctx:unroute("**/api/pay"))
    first:navigate(base .. "/routes/checkout.html")
    local before = hits.pay or 0
    assert.equal("Paid, receipt SERVER", pay(first))
    assert.equal(before + 1, hits.pay)
    ctx:close()
  end)
end)

describe("child sessions", function()
  local srv, browser, page, base
  setup(function()
    srv, browser, page, base = h.open_sites {
      ["GET /w"] = function()
        return "<title>w</title><script>const w = new Worker('/w.js');" ..
          "window.done = new Promise(r => w.onmessage = e => r(e.data))</script>"
      end,
      ["GET /w.js"] = function()
        return { headers = { ["content-type"] = "text/javascript" }, body = "postMessage(self.marker || 'unset')" }
      end,
    }
  end)
  teardown(function() h.shut(browser, srv) end)

  it("lists them, sends the set-up to each new one before it runs, and delivers their events", function()
    local created = {}
    page:on("Runtime.executionContextCreated", function(params, sid)
      created[#created + 1] = sid
    end, { sessions = "children" })
    -- Runs in the worker before its script: the worker sees the marker.
    page:session_setup("spec", { { "Runtime.enable" },
      { "Runtime.evaluate", { expression = "self.marker = 'set before it ran'" } } })
    page:navigate(base .. "/w")
    assert.equal("set before it ran", page:evaluate("window.done"))
    local worker
    for _, s in ipairs(page:sessions()) do if s.type == "worker" then worker = s end end
    assert.truthy(worker)
    assert.matches("/w%.js$", worker.url)
    -- The reply comes after the session's earlier events; a task spawned
    -- now runs after the handler tasks those events queued.
    assert.equal("set before it ran", page:send("Runtime.evaluate",
      { expression = "self.marker", returnByValue = true }, { session = worker.session_id }).result.value)
    vdx.wait(vdx.spawn(function() end))
    assert.equal(worker.session_id, created[1])
    page:session_setup("spec", nil)
    page:navigate(base .. "/w")
    assert.equal("unset", page:evaluate("window.done"))
    local err = h.error_of(page.send, page, "Runtime.evaluate", { expression = "1" }, { session = "not-a-session" })
    assert.equal("InvalidArgument", err.type)
    assert.equal("InvalidArgument", h.error_of(page.on, page, "X", function() end, { sessions = "some" }).type)
    assert.equal("InvalidArgument", h.error_of(page.session_setup, page, "k", { { 42 } }).type)
  end)
end)
