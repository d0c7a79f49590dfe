--- spec/network_har_spec.lua: ctx:record_har and page:record_har write a
-- HAR 1.2 file of the traffic of a fixture app served on 127.0.0.1 (a
-- document, a script, an image and an XHR that posts JSON), checked field
-- by field, with bodies ("embed") and without ("omit"); a context's
-- recorder follows a page opened later and writes its file when the
-- context closes.
local vdx = require "vdx"
local cjson = require "cjson"
local helpers = require "helpers"

-- The bytes of a 1x1 PNG, which Chromium hands back in base64.
local PNG = "\137PNG\r\n\26\n\0\0\0\rIHDR\0\0\0\1\0\0\0\1\8\6\0\0\0\31\21\196\137\0\0\0\rIDATx\156c\248\255\255?"
  .. "\0\5\254\2\254\167\53\129\132\0\0\0\0IEND\174B`\130"

local ISO = "^%d%d%d%d%-%d%d%-%d%dT%d%d:%d%d:%d%d%.%d%d%dZ$"

local function read_json(path)
  local f = assert(io.open(path, "rb"))
  local text = f:read("a")
  f:close()
  return cjson.decode(text), text
end

local function entry(doc, pattern)
  local found
  for _, e in ipairs(doc.log.entries) do
    if e.request.url:match(pattern) then
      assert.is_nil(found, "two entries match " .. pattern)
      found = e
    end
  end
  return assert(found, "no entry for " .. pattern)
end

local function header(list, name)
  for _, h in ipairs(list) do if h.name:lower() == name then return h.value end end
end

describe("HAR recording", function()
  local srv, browser, dir

  setup(function()
    srv = helpers.serve {
      ["GET /shop"] = function()
        return [[<title>Shop</title><img src="/logo.png" alt="logo"><p id="out">waiting</p>
          <script src="/app.js"></script>]]
      end,
      ["GET /app.js"] = function()
        return { headers = { ["content-type"] = "text/javascript" }, body = [[
          const x = new XMLHttpRequest();
          x.open('POST', '/api/order?item=42&note=a%20b');
          x.setRequestHeader('content-type', 'application/json');
          x.onload = () => { document.getElementById('out').textContent = 'Order ' + JSON.parse(x.responseText).order + ' placed'; };
          x.send(JSON.stringify({ qty: 2 }));]] }
      end,
      ["GET /old"] = function() return { status = 302, headers = { location = "/shop" }, body = "" } end,
      ["GET /logo.png"] = function() return { headers = { ["content-type"] = "image/png" }, body = PNG } end,
      ["POST /api/order"] = function(req)
        assert(req.body == '{"qty":2}', req.body)
        return { status = 201, headers = { ["content-type"] = "application/json", ["x-shop"] = "yes" },
          body = '{"order":7}' }
      end,
    }
    browser = vdx.launch {}
    local p = io.popen("mktemp -d /tmp/vdx-har-spec.XXXXXX")
    dir = p:read("l")
    p:close()
  end)

  teardown(function()
    helpers.shut(browser, srv)
    if dir then os.execute("rm -rf " .. helpers.quote(dir)) end
  end)

  it("writes the document, script, image and XHR with their bodies, field by field", function()
    local ctx = browser:new_context()
    local page = ctx:new_page()
    local rec = ctx:record_har { path = dir .. "/shop.har" }
    page:navigate(srv.url .. "/shop")
    page:wait_for { text = "Order 7 placed" }
    local res = rec:stop()
    assert.equal(dir .. "/shop.har", res.path)
    assert.equal(4, res.entries)
    local doc, text = read_json(res.path)
    -- Empty lists are JSON arrays, as the spec's readers expect.
    assert.truthy(text:find('"cookies":[]', 1, true))
    local log = doc.log
    assert.equal("1.2", log.version)
    assert.equal("vdxlua", log.creator.name)
    assert.equal("string", type(log.creator.version))
    assert.equal("HeadlessChrome", log.browser.name)
    assert.equal(1, #log.pages)
    local pg = log.pages[1]
    assert.equal("page@1", pg.id)
    assert.equal(srv.url .. "/shop", pg.title)
    assert.matches(ISO, pg.startedDateTime)
    assert.is_true(pg.pageTimings.onLoad >= 0 and pg.pageTimings.onContentLoad >= 0)
    assert.equal(4, #log.entries)
    for _, e in ipairs(log.entries) do
      assert.equal("page@1", e.pageref)
      assert.matches(ISO, e.startedDateTime)
      assert.is_true(e.startedDateTime >= pg.startedDateTime)
      assert.equal("HTTP/1.1", e.request.httpVersion)
      assert.equal("HTTP/1.1", e.response.httpVersion)
      assert.equal(-1, e.request.headersSize)
      assert.same({}, e.request.cookies)
      assert.same({}, e.response.cookies)
      assert.equal("", e.response.redirectURL)
      local sum = 0
      for _, k in ipairs { "blocked", "dns", "connect", "send", "wait", "receive" } do
        assert.equal("number", type(e.timings[k]), k)
        if e.timings[k] > 0 then sum = sum + e.timings[k] end
      end
      assert.is_true(e.timings.send >= 0 and e.timings.wait >= 0 and e.timings.receive >= 0)
      assert.is_true(math.abs(e.time - sum) < 0.001, "time is the sum of the timings")
      assert.truthy(header(e.request.headers, "user-agent"), e.request.url)
    end
    local d = entry(doc, "/shop$")
    assert.equal("GET", d.request.method)
    assert.same({}, d.request.queryString)
    assert.is_nil(d.request.postData)
    assert.equal(200, d.response.status)
    assert.equal("OK", d.response.statusText)
    assert.equal("text/html", d.response.content.mimeType)
    assert.truthy(d.response.content.text:find('<script src="/app.js"></script>', 1, true))
    assert.is_nil(d.response.content.encoding)
    assert.equal(#d.response.content.text, d.response.content.size)
    assert.equal("document", d._resourceType)
    local js = entry(doc, "/app%.js$")
    assert.equal("script", js._resourceType)
    assert.equal("text/javascript", js.response.content.mimeType)
    assert.truthy(js.response.content.text:find("XMLHttpRequest", 1, true))
    local img = entry(doc, "/logo%.png$")
    assert.equal("base64", img.response.content.encoding)
    assert.equal(PNG, vdx.base64_decode(img.response.content.text))
    assert.equal(#PNG, img.response.content.size)
    local x = entry(doc, "/api/order")
    assert.equal("xhr", x._resourceType)
    assert.equal("POST", x.request.method)
    assert.equal(srv.url .. "/api/order?item=42&note=a%20b", x.request.url)
    assert.same({ { name = "item", value = "42" }, { name = "note", value = "a b" } }, x.request.queryString)
    assert.same({ mimeType = "application/json", text = '{"qty":2}' }, x.request.postData)
    assert.equal(9, x.request.bodySize)
    assert.equal(201, x.response.status)
    assert.equal("string", type(x.response.statusText))
    assert.equal("yes", header(x.response.headers, "x-shop"))
    assert.equal("application/json", header(x.response.headers, "content-type"))
    assert.same({ size = 11, mimeType = "application/json", text = '{"order":7}' }, x.response.content)
    -- A second stop writes nothing new and answers the same.
    assert.equal(res, rec:stop())
    ctx:close()
  end)

  it("omits the bodies with content = \"omit\", and keeps only the URLs a glob names", function()
    local ctx = browser:new_context()
    local page = ctx:new_page()
    local all = page:record_har { path = dir .. "/omit.har", content = "omit" }
    local api = page:record_har { path = dir .. "/api.har", url = "**/api/**" }
    page:navigate(srv.url .. "/shop")
    page:wait_for { text = "Order 7 placed" }
    local doc = read_json(all:stop().path)
    assert.equal(4, #doc.log.entries)
    for _, e in ipairs(doc.log.entries) do
      assert.is_nil(e.response.content.text, e.request.url)
      assert.is_nil(e.response.content.encoding)
      assert.equal(0, e.response.content.size)
      assert.equal("string", type(e.response.content.mimeType))
    end
    -- The post data is the request's, kept even without the bodies.
    assert.equal('{"qty":2}', entry(doc, "/api/order").request.postData.text)
    local only = read_json(api:stop().path)
    assert.equal(1, #only.log.entries)
    assert.equal('{"order":7}', only.log.entries[1].response.content.text)
    ctx:close()
  end)

  it("follows a page the context opens later and writes the file when the context closes", function()
    local ctx = browser:new_context()
    ctx:record_har { path = dir .. "/later.har", content = "omit" }
    local page = ctx:new_page()
    page:navigate(srv.url .. "/shop")
    page:wait_for { text = "Order 7 placed" }
    page:navigate(srv.url .. "/app.js")
    assert.is_nil(io.open(dir .. "/later.har"))
    ctx:close()
    local doc = read_json(dir .. "/later.har")
    assert.equal(2, #doc.log.pages)
    assert.equal(5, #doc.log.entries)
    assert.equal("page@2", doc.log.entries[5].pageref)
    assert.equal(srv.url .. "/app.js", doc.log.entries[5].request.url)
  end)

  it("keeps each hop of a redirect as an entry of the one page", function()
    local page = browser:new_page()
    local rec = page:record_har { path = dir .. "/moved.har", url = "**/{old,shop}" }
    page:navigate(srv.url .. "/old")
    local doc = read_json(rec:stop().path)
    assert.equal(1, #doc.log.pages)
    assert.equal(2, #doc.log.entries)
    local old, new = doc.log.entries[1], doc.log.entries[2]
    assert.equal(srv.url .. "/old", old.request.url)
    assert.equal(302, old.response.status)
    assert.equal(srv.url .. "/shop", old.response.redirectURL)
    assert.is_nil(old.response.content.text)
    assert.equal(srv.url .. "/shop", new.request.url)
    assert.equal(200, new.response.status)
    assert.equal("page@1", old.pageref)
    assert.equal("page@1", new.pageref)
    page:close()
  end)

  it("refuses bad options with InvalidArgument", function()
    local page = browser:new_page()
    local err = helpers.error_of(page.record_har, page, { path = dir .. "/x.har", content = "all" })
    assert.equal("InvalidArgument", err.type)
    assert.matches('content must be "omit" or "embed"', err.message, 1, true)
    err = helpers.error_of(page.record_har, page, { file = "x.har" })
    assert.equal("InvalidArgument", err.type)
    assert.matches('unknown option "file"', err.message, 1, true)
    err = helpers.error_of(page.record_har, page, {})
    assert.matches("path (the HAR file to write) is required", err.message, 1, true)
    page:close()
  end)
end)
