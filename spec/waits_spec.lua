-- page:wait_for, the general wait (lua/vdx/wait.lua, bridge/src/waits.js),
-- against the real browser and fixture pages: an element that appears
-- after 2 s is awaited with one call into the page and no CDP command in
-- between (no polling), the four states, a URL reached by pushState and by
-- a real navigation, a read-only predicate, text in a same-origin frame,
-- and timeouts that say what was still false.
local vdx = require "vdx"
local h = require "helpers"

describe("page:wait_for", function()
  local srv, browser, page

  setup(function()
    srv, browser, page = h.open()
  end)

  teardown(function()
    h.shut(browser, srv)
  end)

  before_each(function()
    page:navigate(srv.url .. "/waits/late.html")
  end)

  -- Counts the calls fn makes into the page's bridge and the raw CDP
  -- commands it sends (every Lua road into the page: vdx.Page's bridge and
  -- send), with the bridge methods called.
  local function counting(fn)
    local calls = { bridge = 0, send = 0, methods = {} }
    local bridge, send = vdx.Page.bridge, vdx.Page.send
    vdx.Page.bridge = function(p, m, ...)
      calls.bridge = calls.bridge + 1
      calls.methods[#calls.methods + 1] = m
      return bridge(p, m, ...)
    end
    vdx.Page.send = function(p, ...)
      calls.send = calls.send + 1
      return send(p, ...)
    end
    local ok, res = pcall(fn)
    vdx.Page.bridge, vdx.Page.send = bridge, send
    if not ok then error(res, 0) end
    return res, calls
  end

  it("waits for an element that appears after 2 s with one call into the page, no polling", function()
    local res, calls = counting(function()
      return page:wait_for { selector = "#late", timeout_ms = 10000 }
    end)
    assert.equal("visible", res.state)
    assert.equal(1, res.count)
    -- It did wait (the element comes 2 s after the load) ...
    assert.is_true(res.waited_ms >= 1000, "returned after " .. res.waited_ms .. " ms")
    -- ... with exactly one bridge call and not one CDP command besides.
    assert.same({ "waitState" }, calls.methods)
    assert.equal(0, calls.send)
    assert.equal("Arrived late", page:evaluate("document.getElementById('late').textContent"))
  end)

  it("waits for a locator to be visible, hidden, detached and attached", function()
    local r = page:wait_for { locator = "getByText('Arrived late')", state = "attached", timeout_ms = 10000 }
    assert.equal("attached", r.state)
    page:evaluate("setTimeout(() => document.getElementById('box').classList.add('hide'), 300)")
    r = page:wait_for { selector = "#box", state = "hidden", timeout_ms = 5000 }
    assert.equal(1, r.count)                       -- hidden, still in the document
    page:evaluate("setTimeout(() => document.getElementById('box').classList.remove('hide'), 300)")
    r = page:wait_for { locator = "getByText('A box')", timeout_ms = 5000 }
    assert.equal("visible", r.state)
    page:evaluate("setTimeout(() => document.getElementById('gone').remove(), 300)")
    r = page:wait_for { locator = "locator('#gone')", state = "detached", timeout_ms = 5000 }
    assert.equal(0, r.count)
    -- A missing element is hidden at once (Playwright: hidden includes detached).
    r = page:wait_for { selector = "#never", state = "hidden", timeout_ms = 1000 }
    assert.equal(0, r.count)
  end)

  it("waits for a ref's element to be hidden and to leave", function()
    local snap = page:snapshot()
    local ref = snap.text:match('link "Next page" %[ref=([%w_]+)%]')
    assert.truthy(ref, snap.text)
    page:evaluate("setTimeout(() => { document.getElementById('next').style.visibility = 'hidden' }, 300)")
    assert.equal("hidden", page:wait_for({ ref = ref, state = "hidden", timeout_ms = 5000 }).state)
    page:evaluate("setTimeout(() => document.getElementById('next').remove(), 300)")
    assert.equal(0, page:wait_for({ ref = ref, state = "detached", timeout_ms = 5000 }).count)
  end)

  it("is strict: a locator matching several elements is NotUnique", function()
    local err = h.error_of(page.wait_for, page, { locator = "locator('div, p')", state = "attached", timeout_ms = 1000 })
    assert.equal("NotUnique", err.type)
    assert.matches("matches %d+ elements", err.message)
  end)

  it("waits for a URL after a client-side pushState, from the navigation events", function()
    local snap = page:snapshot()
    page:click(snap.text:match('button "Push" %[ref=([%w_]+)%]'))
    local r, calls = counting(function()
      return page:wait_for { url = "**/waits/late.html?step=2", timeout_ms = 5000 }
    end)
    assert.equal(srv.url .. "/waits/late.html?step=2", r.url)
    assert.equal(0, calls.bridge)
    assert.is_true(calls.send <= 3, "sent " .. calls.send .. " CDP commands")   -- reads, once: no loop
  end)

  it("page:url() says the document's URL from the navigation events, fragment and History API included", function()
    local url, calls = counting(function() return page:url() end)
    assert.equal(srv.url .. "/waits/late.html", url)
    assert.same({ bridge = 0, send = 0, methods = {} }, calls)
    page:navigate(srv.url .. "/waits/late.html?a=1#top")
    assert.equal(srv.url .. "/waits/late.html?a=1#top", page:url())
    page:evaluate("location.hash = '#later'")
    page:wait_for { url = "**#later", timeout_ms = 5000 }
    assert.equal(srv.url .. "/waits/late.html?a=1#later", page:url())
    page:evaluate("history.pushState({}, '', '/waits/pushed?x=2')")
    page:wait_for { url = "**/waits/pushed?x=2", timeout_ms = 5000 }
    assert.equal(srv.url .. "/waits/pushed?x=2", page:url())
    -- A page vdx opened and never navigated has no document of its own yet.
    local fresh = browser:new_page()
    assert.is_nil(fresh:url())
    fresh:close()
    assert.is_nil(fresh:url())
  end)

  it("waits for a URL after a real navigation (glob, exact and Lua pattern)", function()
    page:evaluate("setTimeout(() => { location.href = '/waits/next.html' }, 300)")
    local r = page:wait_for { url = "**/next.html", timeout_ms = 5000 }
    assert.equal(srv.url .. "/waits/next.html", r.url)
    assert.equal(srv.url .. "/waits/next.html", page:wait_for({ url = srv.url .. "/waits/next.html" }).url)
    page:evaluate("setTimeout(() => { location.href = '/waits/late.html?x=7' }, 300)")
    r = page:wait_for { url_pattern = "x=%d$", timeout_ms = 5000 }
    assert.equal(srv.url .. "/waits/late.html?x=7", r.url)
    assert.is_true(vdx.Page.wait_for == page.wait_for)
  end)

  it("waits for a URL with its fragment: a hash route set before the wait, and one set during it", function()
    -- A page of its own: no url wait listened to it before the hash moved.
    local ctx = browser:new_context()
    local p = ctx:new_page()
    finally(function() ctx:close() end)
    p:navigate(srv.url .. "/waits/late.html")
    p:evaluate("location.hash = 'details'")
    local r = p:wait_for { url = "**/late.html#details", timeout_ms = 3000 }
    assert.equal(srv.url .. "/waits/late.html#details", r.url)
    p:evaluate("setTimeout(() => { location.hash = 'more' }, 200)")
    r = p:wait_for { url = srv.url .. "/waits/late.html#more", timeout_ms = 3000 }
    assert.equal(srv.url .. "/waits/late.html#more", r.url)
  end)

  it("waits for a read-only predicate, re-checked on each change of the page", function()
    page:evaluate("setTimeout(() => { window.total = 42; document.body.dataset.total = '42' }, 300)")
    local r = page:wait_for { fn = "() => window.total === 42", timeout_ms = 5000 }
    assert.is_true(r.value)
    assert.is_true(r.checks >= 2)
    -- A predicate with a side effect is refused before it acts.
    local err = h.error_of(page.wait_for, page, { fn = "() => { window.total = 1; return true }", timeout_ms = 2000 })
    assert.equal("EvaluateRefused", err.type)
    assert.equal(42, page:evaluate("window.total"))
    -- A navigation starts it over in the new document.
    page:evaluate("setTimeout(() => { location.href = '/waits/next.html' }, 300)")
    assert.is_true(page:wait_for({ fn = "() => document.title === 'Next'", timeout_ms = 5000 }).value)
  end)

  it("waits for text inside a same-origin frame", function()
    local r = page:wait_for { text = "Frame text arrived", frame = "f1", timeout_ms = 5000 }
    assert.is_table(r)
    -- The old keys keep working in the main frame.
    page:wait_for { text = "Arrived late", timeout_ms = 10000 }
    page:evaluate("setTimeout(() => document.getElementById('gone').remove(), 200)")
    page:wait_for { text_gone = "Going soon", timeout_ms = 5000 }
    assert.equal(200, page:wait_for({ time_ms = 200 }).waited_ms)
  end)

  -- A web component's shadow root: its text and its changes reach no
  -- reader or observer of the document's own (run BV's cart badge, a
  -- link in a shadow root, was waited for until the timeout).
  local function shadow_host()
    page:evaluate([[(() => { const host = document.createElement('div'); host.id = 'host';
      host.attachShadow({ mode: 'open' }).innerHTML = '<a href="#">Cart (0)</a>';
      document.body.append(host); })()]])
  end

  it("waits for text that a shadow root comes to show, and for it to go", function()
    shadow_host()
    page:evaluate([[setTimeout(() => { document.getElementById('host').shadowRoot.querySelector('a')
      .textContent = 'Cart (1)'; }, 100)]])
    local res = page:wait_for { text = "Cart (1)", timeout_ms = 3000 }
    assert.is_table(res)
    page:evaluate([[setTimeout(() => { document.getElementById('host').shadowRoot.querySelector('a')
      .textContent = 'Cart (2)'; }, 100)]])
    assert.is_table(page:wait_for { text_gone = "Cart (1)", timeout_ms = 3000 })
  end)

  it("reads no text of a component whose host left the document", function()
    -- (The wait keeps the shadow roots it observes: a removed host's root
    -- still holds its text, and must not be read as shown.)
    shadow_host()
    page:evaluate([[setTimeout(() => { const host = document.getElementById('host');
      host.shadowRoot.querySelector('a').textContent = 'Cart (9)'; host.remove(); }, 100)]])
    local err = h.error_of(page.wait_for, page, { text = "Cart (9)", timeout_ms = 800 })
    assert.equal("Timeout", err and err.type)
    -- And one added while waiting shows its text.
    page:evaluate([[setTimeout(() => { const h = document.createElement('div');
      document.body.append(h); h.attachShadow({ mode: 'open' }).innerHTML = '<b>Late part</b>'; }, 100)]])
    assert.is_table(page:wait_for { text = "Late part", timeout_ms = 1000 })
  end)

  it("sees an element come and go inside a shadow root attached after the wait began", function()
    -- (Gone again before the timeout: a wait that looks only at the end misses it.)
    page:evaluate([[setTimeout(() => {
      const host = document.createElement('div'); host.id = 'host2';
      document.body.append(host);
      const root = host.attachShadow({ mode: 'open' });
      setTimeout(() => { root.innerHTML = '<button>Blink</button>'; }, 50);
      setTimeout(() => { root.innerHTML = ''; }, 1500);
    }, 50)]])
    local res = page:wait_for { locator = "getByRole('button', { name: 'Blink' })", timeout_ms = 4000 }
    assert.equal("visible", res.state)
  end)

  it("times out saying what was still false", function()
    local err = h.error_of(page.wait_for, page, { selector = "#nowhere", timeout_ms = 300 })
    assert.equal("Timeout", err.type)
    assert.matches('locator locator%("#nowhere"%) was not visible within 300 ms %(it matches nothing%)', err.message)
    err = h.error_of(page.wait_for, page, { url = "**/elsewhere", timeout_ms = 300 })
    assert.equal("Timeout", err.type)
    assert.matches("did not match %*%*/elsewhere within 300 ms %(it is http", err.message)
    err = h.error_of(page.wait_for, page, { fn = "() => window.never === true", timeout_ms = 300 })
    assert.equal("Timeout", err.type)
    assert.matches("predicate stayed falsy within 300 ms", err.message)
    err = h.error_of(page.wait_for, page, { selector = "#box", state = "gone" })
    assert.equal("InvalidArgument", err.type)
    err = h.error_of(page.wait_for, page, { selector = "#box", url = "x" })
    assert.equal("InvalidArgument", err.type)
  end)
end)

describe("browser_wait_for", function()
  local t = {}
  setup(function() h.start_tool_session(t) end)
  teardown(function() h.stop_tool_session(t) end)

  it("takes selector, state, url and function, and records the element wait for the export", function()
    t.call("browser_navigate", { url = t.srv.url .. "/waits/late.html" })
    local _, text = t.call("browser_wait_for", { selector = "#late", timeout = 10000 })
    assert.matches("Wait finished", text)
    t.call("browser_wait_for", { locator = "getByText('Going soon')", state = "attached" })
    t.call("browser_wait_for", { ["function"] = "() => document.title === 'Waits'" })
    local _, shown = t.call("browser_wait_for", { text = "Arrived late" })
    assert.matches("^Wait finished %(no step of the test: check what showed with a browser_verify_%* tool%)", shown)
    local codes = {}
    for _, s in ipairs(t.ctx.session:list()) do
      if s.kind == "code" then codes[#codes + 1] = s.lines[1] end
    end
    assert.same({ [[await expect({page}.locator('#late')).toBeVisible();]],
      [[await expect({page}.getByText('Going soon')).toBeAttached();]],
      [[await {page}.waitForFunction(() => document.title === 'Waits');]] }, codes)
    local res, msg = t.call("browser_wait_for", { url = "**/nowhere", timeout = 200 })
    assert.is_true(res.isError)
    assert.matches("did not match %*%*/nowhere within 200 ms", msg)
    -- A URL wait is the test's check of the URL, a glob as a regex.
    t.call("browser_wait_for", { url = "**/waits/late.{html,htm}" })
    local last = t.ctx.session:list()[#t.ctx.session:list()]
    assert.same({ [[await expect({page}).toHaveURL(/^(?:.*\/waits\/late\.html|.*\/waits\/late\.htm)$/);]] }, last.lines)
    -- A text that goes (hidden, still in the page) is a check of the test's.
    local page = t.ctx.role:page()
    page:evaluate("setTimeout(() => document.querySelector('#box').classList.add('hide'), 300)")
    local _, gone = t.call("browser_wait_for", { textGone = "A box" })
    local line = "await expect(page.getByText('A box').filter({ visible: true })).toHaveCount(0);"
    assert.matches("^Wait finished%. Recorded: " .. line:gsub("%p", "%%%0"), gone)
    assert.equal(0, page:locator_count("getByText('A box').filter({ visible: true })").count)
    assert.equal(1, page:locator_count("getByText('A box')").count)
    assert.equal(4, require("vdx.session_export").summary(t.ctx.session:list()).assertions)
  end)
end)

describe("r:wait_for in a flow", function()
  local srv
  setup(function() srv = h.serve() end)
  teardown(function() if srv then srv:close() end end)

  it("waits for the element and writes the wait into the exported test", function()
    local flow = require "vdx.flow"
    local status, f = flow.run({ name = "late", base_url = srv.url, quiet = true, timeout_ms = 10000 }, function(fl)
      fl:role("buyer", { url = "/waits/late.html" })
      fl:as("buyer", function(b)
        local r = b:wait_for { selector = "#late" }
        assert.equal("visible", r.state)
        b:wait_for { fn = "() => document.querySelectorAll('p').length >= 2" }
      end)
    end)
    assert.equal(0, status, f.failure and f.failure.text)
    local text = require("vdx.flow_export").text(f)
    assert.is_true(text:find([[  await expect(buyer.locator('#late')).toBeVisible();]], 1, true) ~= nil, text)
    assert.is_true(text:find([[  await buyer.waitForFunction(() => document.querySelectorAll('p').length >= 2);]], 1,
      true) ~= nil, text)
  end)
end)
