--- spec/network_state_spec.lua: the response hook (page:on_response,
-- ctx:on_response) sees an XHR's status, headers and body; offline makes
-- a fetch fail and back online it works, on a page and context-wide
-- (a page opened later included); added latency delays a request by at
-- least that much; CPU throttling slows the page's script; page:pdf
-- writes a PDF, and a headed browser is refused with HeadlessOnly.
local vdx = require "vdx"
local helpers = require "helpers"

local FETCH = "fetch('/api/ping?n=' + Math.random()).then(r => r.text(), e => 'failed: ' + e.message)"

describe("the network around a page", function()
  local srv, browser

  setup(function()
    srv = helpers.serve {
      ["GET /app"] = function() return "<title>App</title><p id=out>idle</p>" end,
      ["GET /api/ping"] = function() return { headers = { ["content-type"] = "text/plain" }, body = "pong" } end,
      ["POST /api/items"] = function(req)
        return { status = 201, headers = { ["content-type"] = "application/json", ["x-item"] = "9" },
          body = '{"id":9,"echo":' .. req.body .. '}' }
      end,
    }
    browser = vdx.launch {}
  end)

  teardown(function() helpers.shut(browser, srv) end)

  it("page:on_response sees an XHR's status, headers, request and body", function()
    local page = browser:new_page()
    page:navigate(srv.url .. "/app")
    local got, all = {}, {}
    local off = page:on_response(function(r) got[#got + 1] = r end, { body = true, url = "**/api/items" })
    local off_all = page:on_response(function(r) all[#all + 1] = r end)
    assert.equal('{"id":9,"echo":{"a":1}}', page:evaluate([[new Promise(ok => {
      const x = new XMLHttpRequest(); x.open('POST', '/api/items');
      x.setRequestHeader('content-type', 'application/json'); x.onload = () => ok(x.responseText);
      x.send('{"a":1}') })]]))
    page:evaluate(FETCH)
    local t0 = vdx.now()
    while #got < 1 or #all < 2 do
      assert(vdx.now() - t0 < 10000, "the hooks did not run")
      vdx.sleep(20)
    end
    assert.equal(1, #got)
    local r = got[1]
    assert.equal(srv.url .. "/api/items", r.url)
    assert.equal(201, r.status)
    assert.equal("9", r.headers["x-item"])
    assert.equal("application/json", r.headers["content-type"])
    assert.equal("application/json", r.mime_type)
    assert.equal("XHR", r.resource_type)
    assert.equal("POST", r.request.method)
    assert.equal('{"a":1}', r.request.post_data)
    assert.equal("application/json", r.request.headers["content-type"])
    assert.equal('{"id":9,"echo":{"a":1}}', r.body)
    assert.equal("main", r.frame)
    -- Without body = true the hook gets no body.
    assert.equal(2, #all)
    assert.is_nil(all[1].body)
    assert.matches("/api/ping%?n=", all[2].url)
    off()
    off_all()
    -- A hook of its own tells when the next two responses were seen.
    local probe = 0
    page:on_response(function() probe = probe + 1 end)
    page:evaluate(FETCH)
    page:evaluate(FETCH)
    t0 = vdx.now()
    while probe < 2 do assert(vdx.now() - t0 < 10000, "the probe did not run") vdx.sleep(20) end
    assert.equal(2, #all)
    assert.equal(1, #got)
    page:close()
  end)

  it("ctx:on_response reaches a page the context opens later", function()
    local ctx = browser:new_context()
    local seen = {}
    local off = ctx:on_response(function(r) seen[#seen + 1] = r.url end, { url = "**/api/ping*" })
    local page = ctx:new_page()
    page:navigate(srv.url .. "/app")
    assert.equal("pong", page:evaluate(FETCH))
    local t0 = vdx.now()
    while #seen < 1 do assert(vdx.now() - t0 < 10000, "no response seen") vdx.sleep(20) end
    assert.matches("/api/ping%?n=", seen[1])
    off()
    ctx:close()
  end)

  it("offline makes a fetch fail and online makes it work again", function()
    local page = browser:new_page()
    page:navigate(srv.url .. "/app")
    assert.equal("pong", page:evaluate(FETCH))
    local c = page:network { offline = true }
    assert.is_true(c.offline)
    assert.equal("failed: Failed to fetch", page:evaluate(FETCH))
    assert.is_false(page:evaluate("navigator.onLine"))
    page:network {}
    assert.equal("pong", page:evaluate(FETCH))
    assert.is_true(page:evaluate("navigator.onLine"))
    page:network { preset = "Offline" }
    assert.equal("failed: Failed to fetch", page:evaluate(FETCH))
    page:network { preset = "No emulation" }
    assert.equal("pong", page:evaluate(FETCH))
    page:close()
  end)

  it("ctx:network takes every page of the context offline, a page opened later included", function()
    local ctx = browser:new_context()
    local first = ctx:new_page()
    first:navigate(srv.url .. "/app")
    ctx:network { offline = true }
    assert.equal("failed: Failed to fetch", first:evaluate(FETCH))
    local later = ctx:new_page()
    local err = helpers.error_of(later.navigate, later, srv.url .. "/app")
    assert.equal("NavigationFailed", err.type)
    ctx:network { offline = false }
    later:navigate(srv.url .. "/app")
    assert.equal("pong", later:evaluate(FETCH))
    assert.equal("pong", first:evaluate(FETCH))
    ctx:close()
  end)

  it("added latency delays a request by at least that much", function()
    local page = browser:new_page()
    page:navigate(srv.url .. "/app")
    page:network { latency_ms = 1500 }
    local t0 = vdx.now()
    assert.equal("pong", page:evaluate(FETCH))
    -- A lower bound: the fetch cannot take 1.5 s by accident on 127.0.0.1.
    assert.is_true(vdx.now() - t0 >= 1500, "the fetch took " .. (vdx.now() - t0) .. " ms")
    local c = page:network { preset = "Slow 3G" }
    assert.same({ offline = false, latency = 2000, downloadThroughput = 50000, uploadThroughput = 50000 }, c)
    t0 = vdx.now()
    assert.equal("pong", page:evaluate(FETCH))
    assert.is_true(vdx.now() - t0 >= 2000, "the fetch took " .. (vdx.now() - t0) .. " ms")
    page:network {}
    local err = helpers.error_of(page.network, page, { preset = "Dial-up" })
    assert.equal("InvalidArgument", err.type)
    assert.matches('unknown preset "Dial-up"', err.message, 1, true)
    err = helpers.error_of(page.network, page, { latency = 5 })
    assert.matches('unknown option "latency"', err.message, 1, true)
    page:close()
  end)

  it("CPU throttling slows the page's script down", function()
    local page = browser:new_page()
    page:navigate(srv.url .. "/app")
    -- The page times its own loop. Unthrottled: the fastest of 5 runs (a
    -- busy machine only makes a run slower). Throttled 20x: one long run
    -- per 5, since the throttle pauses the thread in slices a short run
    -- could fall between. 3x is far below the 20x asked for.
    local BEST = [[(() => { let best = Infinity; for (let k = 0; k < 5; k++) { const t = performance.now();
      let x = 0; for (let i = 0; i < 2e6; i++) x += Math.sqrt(i); best = Math.min(best, performance.now() - t); }
      return best; })()]]
    local TOTAL = [[(() => { const t = performance.now(); let x = 0;
      for (let i = 0; i < 1e7; i++) x += Math.sqrt(i); return (performance.now() - t) / 5; })()]]
    page:evaluate(BEST)
    local base = page:evaluate(BEST)
    assert.equal(20, page:cpu_throttle(20))
    local slow = page:evaluate(TOTAL)
    page:cpu_throttle(1)
    assert.is_true(slow > 3 * base, ("throttled %.1f ms, unthrottled %.1f ms"):format(slow, base))
    local err = helpers.error_of(page.cpu_throttle, page, 0.5)
    assert.equal("InvalidArgument", err.type)
    page:close()
  end)

  it("page:pdf writes a PDF file and answers its bytes", function()
    local page = browser:new_page()
    page:navigate(srv.url .. "/app")
    local path = os.tmpname() .. ".pdf"
    local res = page:pdf { path = path, landscape = true, margin = 0.5 }
    assert.equal(path, res.path)
    local f = assert(io.open(path, "rb"))
    local bytes = f:read("a")
    f:close()
    os.remove(path)
    assert.equal("%PDF-", bytes:sub(1, 5))
    assert.equal(#bytes, res.size)
    assert.equal(bytes, vdx.base64_decode(res.base64))
    local err = helpers.error_of(page.pdf, page, { paper = "A4" })
    assert.equal("InvalidArgument", err.type)
    page:close()
  end)
end)

describe("page:pdf on a headed browser #unit", function()
  it("raises HeadlessOnly before asking the browser to print", function()
    -- A stand-in for the page of a headed browser: the policy reads the
    -- product name and must not send Page.printToPDF.
    local sent = {}
    local b = { version = function() return { product = "Chrome/156.0.8078.114" } end }
    local ctx = { browser = function() return b end }
    local page = { context = function() return ctx end, send = function(_, m) sent[#sent + 1] = m end }
    local err = helpers.error_of(require("vdx.network").page_pdf, page, {})
    assert.equal("HeadlessOnly", err.type)
    assert.matches("only when it runs headless", err.message, 1, true)
    assert.same({}, sent)
    local text = require("vdx.errors").format(err)
    assert.matches("without --headed", text, 1, true)
  end)
end)
