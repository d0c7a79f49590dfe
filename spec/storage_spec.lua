--- Cookies, localStorage, sessionStorage and storageState from Lua
-- (vdx.storage, vdx.cookies): against the real browser and an app served
-- on 127.0.0.1 that reads them back, server side and in its own script.
local vdx = require "vdx"
local cjson = require "cjson"
local h = require "helpers"
local cookies = require "vdx.cookies"

-- The kind and field of the error f raises.
local function failure(f, ...)
  local e = h.error_of(f, ...)
  return e.type, e.field, e.message
end

describe("vdx.cookies #unit", function()
  it("completes a cookie given by url as Playwright's addCookies does", function()
    local c = cookies.check { name = "sid", value = "1", url = "https://Shop.test:8443/app/cart?x=1" }
    assert.same({ name = "sid", value = "1", url = "https://Shop.test:8443/app/cart?x=1", domain = "shop.test",
      path = "/app/", secure = true, httpOnly = false, expires = -1 }, c)
    c = cookies.check { name = "a", value = "", domain = ".Example.test", sameSite = "strict", expires = 2000000000 }
    assert.same({ name = "a", value = "", domain = ".example.test", path = "/", secure = false, httpOnly = false,
      expires = 2000000000, sameSite = "Strict" }, c)
    assert.equal("{ name: 'a', value: 'it\\'s', domain: 'x.test', path: '/', expires: 2000000000, httpOnly: true, "
      .. "secure: false, sameSite: 'Lax' }", cookies.js_literal(cookies.check { name = "a", value = "it's",
        domain = "x.test", httpOnly = true, sameSite = "Lax", expires = 2000000000 }))
  end)

  it("refuses a cookie it cannot set with InvalidArgument naming the field", function()
    local cases = {
      { { name = "a", value = "b" }, "cookies[1].url", "a cookie needs url" },
      { { name = "a", value = 5, url = "http://x.test/" }, "cookies[1].value", "value must be a string, got number" },
      { { name = "a", value = "b", domain = "x.test", sameSite = "Bogus" }, "cookies[1].sameSite",
        'sameSite must be "Strict", "Lax" or "None", got "Bogus"' },
      { { name = "a", value = "b", domain = "x.test", sameSite = "None" }, "cookies[1].sameSite", "must be secure" },
      { { name = "a", value = "b", url = "data:text/html,x" }, "cookies[1].url", "not an http or https URL" },
      { { name = "a", value = "b", url = "about:blank" }, "cookies[1].url", "not an http or https URL" },
      { { name = "a", value = "b", url = "http://x.test/", path = "/" }, "cookies[1].url", "not both" },
      { { name = "a", value = "b", domain = "x.test", expires = -5 }, "cookies[1].expires", "expires must be -1" },
      { { name = "a", value = "b", domain = "x.test", secure = "yes" }, "cookies[1].secure", "true or false" },
      { { name = "", value = "b", domain = "x.test" }, "cookies[1].name", "non-empty string" },
      { { name = "a", value = "b", domain = "x.test", Domain = "y" }, "cookies[1].Domain", "unknown key 'Domain'" },
    }
    for _, case in ipairs(cases) do
      local kind, field, msg = failure(cookies.check_list, { case[1] })
      assert.equal("InvalidArgument", kind)
      assert.equal(case[2], field)
      assert.is_truthy(msg:find(case[3], 1, true), msg)
    end
    -- A storageState file may carry keys of a newer Playwright.
    assert.equal("b", cookies.check_list({ { name = "a", value = "b", domain = "x.test", partitionKey = "k" } },
      { lenient = true })[1].value)
    assert.equal("InvalidArgument", (failure(cookies.check_list, "sid=1")))
  end)

  it("matches URLs by domain, path and secure as Playwright's context.cookies(urls)", function()
    local function sent(c, url) return cookies.matches_url(c, cookies.parse_url(url)) end
    local host = { domain = "a.test", path = "/app", secure = false }
    assert.is_true(sent(host, "http://a.test/app"))
    assert.is_true(sent(host, "http://a.test/app/x"))
    assert.is_false(sent(host, "http://a.test/application"))
    assert.is_false(sent(host, "http://sub.a.test/app"))
    local dom = { domain = ".b.test", path = "/", secure = false }
    assert.is_true(sent(dom, "http://b.test/"))
    assert.is_true(sent(dom, "http://x.b.test/y"))
    assert.is_false(sent(dom, "http://xb.test/"))
    local sec = { domain = "s.test", path = "/", secure = true }
    assert.is_false(sent(sec, "http://s.test/"))
    assert.is_true(sent(sec, "https://s.test/"))
    assert.is_true(sent({ domain = "localhost", path = "/", secure = true }, "http://localhost:3000/"))
  end)
end)

describe("cookies and storage of a context", function()
  local srv, browser
  setup(function()
    srv = h.serve {
      -- The server's view: the cookies the request carried.
      ["GET /st/me"] = function(req)
        return { json = { sid = req.cookies and req.cookies.sid or cjson.null,
          hid = req.cookies and req.cookies.hid or cjson.null } }
      end,
      -- Sets an httpOnly cookie, as a sign-in would.
      ["GET /st/login"] = function()
        return { headers = { ["Content-Type"] = "text/html", ["Set-Cookie"] = "hid=secret; HttpOnly; Path=/" },
          body = "<title>in</title>signed in" }
      end,
      -- The page's own view: document.cookie and its storage, read by its script.
      ["GET /st/page"] = function()
        return { headers = { ["Content-Type"] = "text/html" }, body = "<title>st</title><p id=c></p><script>"
          .. "document.getElementById('c').textContent = 'cookie:' + document.cookie + ' ls:' + "
          .. "localStorage.getItem('theme') + ' ss:' + sessionStorage.getItem('tab')</script>" }
      end,
    }
    browser = vdx.launch {}
  end)
  teardown(function() h.shut(browser, srv) end)

  local function seen(page) return page:evaluate("document.getElementById('c').textContent") end
  local function server_view(page)
    page:navigate(srv.url .. "/st/me")
    return cjson.decode(page:evaluate("document.body.innerText"))
  end

  it("adds cookies, lists them filtered by URL, and keeps them in their own context", function()
    local ctx, other = browser:new_context(), browser:new_context()
    local set = ctx:add_cookies {
      { name = "app", value = "1", domain = "a.test", path = "/app" },
      { name = "wide", value = "2", domain = ".b.test" },
      { name = "sec", value = "3", domain = "s.test", secure = true, sameSite = "None" },
      { name = "byurl", value = "4", url = "http://a.test/app/cart" },
    }
    assert.equal(4, #set)
    local function names(list)
      local out = {}
      for i, c in ipairs(list) do out[i] = c.name end
      table.sort(out)
      return table.concat(out, " ")
    end
    assert.equal("app byurl sec wide", names(ctx:cookies()))
    assert.equal("app byurl", names(ctx:cookies("http://a.test/app/cart/item")))
    assert.equal("app", names(ctx:cookies("http://a.test/app")))
    assert.equal("", names(ctx:cookies("http://a.test/other")))
    assert.equal("wide", names(ctx:cookies("http://shop.b.test/")))
    assert.equal("", names(ctx:cookies("http://s.test/")))
    assert.equal("sec wide", names(ctx:cookies { "https://s.test/", "http://b.test/" }))
    local sec = ctx:cookies("https://s.test/")[1]
    assert.same({ name = "sec", value = "3", domain = "s.test", path = "/", expires = -1, httpOnly = false,
      secure = true, sameSite = "None" }, sec)
    -- Nothing leaks to another context.
    assert.equal("", names(other:cookies()))
    assert.equal(1, ctx:clear_cookies { name = "app" })
    assert.equal("byurl sec wide", names(ctx:cookies()))
    assert.equal(0, ctx:clear_cookies { name = "wide", domain = "b.test" })
    assert.equal(3, ctx:clear_cookies())
    assert.equal("", names(ctx:cookies()))
    ctx:close()
    other:close()
  end)

  it("shows an httpOnly cookie to ctx:cookies but not to document.cookie, and sends it", function()
    local ctx = browser:new_context()
    local page = ctx:new_page()
    page:navigate(srv.url .. "/st/login")
    ctx:add_cookies { { name = "sid", value = "ann", url = srv.url .. "/" } }
    page:navigate(srv.url .. "/st/page")
    assert.equal("cookie:sid=ann ls:null ss:null", seen(page))
    local hid
    for _, c in ipairs(ctx:cookies(srv.url .. "/st/page")) do if c.name == "hid" then hid = c end end
    assert.same({ name = "hid", value = "secret", domain = "127.0.0.1", path = "/", expires = -1, httpOnly = true,
      secure = false, sameSite = "Lax" }, hid)
    assert.same({ sid = "ann", hid = "secret" }, server_view(page))
    ctx:close()
  end)

  it("reads and writes localStorage and sessionStorage, which the page's own script sees", function()
    local ctx = browser:new_context()
    local page = ctx:new_page()
    page:navigate(srv.url .. "/st/page")
    assert.same({}, page:local_storage())
    assert.is_true(page:local_storage_set("theme", "dark"))
    page:local_storage_set("gone", "x")
    assert.is_true(page:session_storage_set("tab", "2"))
    assert.is_true(page:local_storage_remove("gone"))
    assert.same({ theme = "dark" }, page:local_storage())
    assert.equal("dark", page:local_storage_get("theme"))
    assert.is_nil(page:local_storage_get("nothing"))
    assert.equal("2", page:evaluate("sessionStorage.getItem('tab')"))
    page:navigate(srv.url .. "/st/page")
    assert.equal("cookie: ls:dark ss:2", seen(page))
    -- sessionStorage is the tab's; localStorage the origin's.
    local second = ctx:new_page()
    second:navigate(srv.url .. "/st/page")
    assert.equal("cookie: ls:dark ss:null", seen(second))
    assert.same({}, second:session_storage())
    assert.is_true(page:session_storage_clear())
    assert.is_true(page:local_storage_clear())
    assert.same({}, page:session_storage())
    assert.same({}, second:local_storage())
    ctx:close()
  end)

  it("refuses bad storage input with a typed error, and storage of a page with no origin", function()
    local ctx = browser:new_context()
    local page = ctx:new_page()
    local kind, field = failure(ctx.add_cookies, ctx, { { name = "sid", value = "x" } })
    assert.same({ "InvalidArgument", "cookies[1].url" }, { kind, field })
    kind, field = failure(ctx.add_cookies, ctx, { { name = "sid", value = 7, domain = "a.test" } })
    assert.same({ "InvalidArgument", "cookies[1].value" }, { kind, field })
    kind, field = failure(ctx.add_cookies, ctx, { { name = "sid", value = "x", domain = "a.test", sameSite = "Loose" } })
    assert.same({ "InvalidArgument", "cookies[1].sameSite" }, { kind, field })
    -- Nothing of a refused list was set.
    assert.same({}, ctx:cookies())
    assert.equal("InvalidArgument", (failure(ctx.cookies, ctx, "not a url")))
    assert.equal("InvalidArgument", (failure(ctx.clear_cookies, ctx, { nmae = "sid" })))
    local msg
    kind, _, msg = failure(page.local_storage, page)
    assert.equal("StorageUnavailable", kind)
    assert.is_truthy(msg:find("about:blank", 1, true), msg)
    page:navigate(srv.url .. "/st/page")
    kind, field = failure(page.local_storage_set, page, "n", 5)
    assert.same({ "InvalidArgument", "value" }, { kind, field })
    ctx:close()
  end)

  it("saves a storageState and restores it into a fresh context, where the app sees it", function()
    local dir = os.tmpname()
    os.remove(dir)
    os.execute("mkdir -p " .. h.quote(dir))
    local ctx = browser:new_context()
    local page = ctx:new_page()
    page:navigate(srv.url .. "/st/login")
    ctx:add_cookies { { name = "sid", value = "ann", url = srv.url .. "/" } }
    page:navigate(srv.url .. "/st/page")
    page:local_storage_set("theme", "dark")
    page:session_storage_set("tab", "1")
    local state = ctx:storage_state { path = dir .. "/state.json" }
    local file = cjson.decode(h.read(dir .. "/state.json"))
    assert.same(state, file)
    assert.same({ { origin = srv.url, localStorage = { { name = "theme", value = "dark" } } } }, file.origins)
    assert.equal(2, #file.cookies)
    ctx:close()

    -- A fresh context with cookies and storage of its own, replaced.
    local fresh = browser:new_context()
    fresh:add_cookies { { name = "old", value = "1", url = srv.url .. "/" } }
    local p2 = fresh:new_page()
    p2:navigate(srv.url .. "/st/page")
    p2:local_storage_set("stale", "1")
    assert.same(file, fresh:set_storage_state(dir .. "/state.json"))
    p2:navigate(srv.url .. "/st/page")
    -- Its script sees the cookie and the localStorage; not the old tab's sessionStorage.
    assert.equal("cookie:sid=ann ls:dark ss:null", seen(p2))
    assert.same({ theme = "dark" }, p2:local_storage())
    assert.same({ sid = "ann", hid = "secret" }, server_view(p2))
    local names = {}
    for _, c in ipairs(fresh:cookies()) do names[#names + 1] = c.name end
    table.sort(names)
    assert.same({ "hid", "sid" }, names)
    fresh:close()

    -- A table works the same, and a bad one is refused before anything changes.
    local third = browser:new_context()
    third:set_storage_state(state)
    assert.equal(2, #third:cookies())
    local kind, field = failure(third.set_storage_state, third, { cookies = { { name = "x", value = "y" } } })
    assert.same({ "InvalidArgument", "cookies[1].url" }, { kind, field })
    kind, field = failure(third.set_storage_state, third, dir .. "/missing.json")
    assert.same({ "InvalidArgument", "path" }, { kind, field })
    assert.equal(2, #third:cookies())
    third:close()
    os.execute("rm -rf " .. h.quote(dir))
  end)
end)

describe("the storageState of a page with a cross-origin frame", function()
  it("holds the localStorage of the frame's origin too, read on the frame's own session", function()
    local srv, browser, page, base
    srv, browser, page, base = h.open_sites {
      ["GET /st/outer"] = function()
        return { headers = { ["Content-Type"] = "text/html" }, body = "<title>outer</title><script>"
          .. "localStorage.setItem('where', 'outer')</script><iframe src='http://b.test:" .. srv.port
          .. "/st/inner'></iframe>" }
      end,
      ["GET /st/inner"] = function()
        return { headers = { ["Content-Type"] = "text/html" }, body = "<title>inner</title><script>"
          .. "localStorage.setItem('where', 'inner')</script><p>inner</p>" }
      end,
    }
    page:navigate(base .. "/st/outer")
    local frames = page:frames()
    local oop = false
    for _, f in ipairs(frames) do oop = oop or f.out_of_process end
    local state = page:context():storage_state()
    h.shut(browser, srv)
    assert.is_true(oop, "the frame is not out of process")
    assert.same({
      { origin = base, localStorage = { { name = "where", value = "outer" } } },
      { origin = "http://b.test:" .. srv.port, localStorage = { { name = "where", value = "inner" } } },
    }, state.origins)
  end)
end)
