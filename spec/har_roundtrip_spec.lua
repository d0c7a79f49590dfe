--- spec/har_roundtrip_spec.lua: a HAR recorded from a live app (ctx:record_har,
-- vdx.har) and then replayed (ctx:route_from_har, vdx.har_replay) into a
-- fresh context after the app's server has stopped: the page, its script,
-- its image and its XHR (a POST with a body) all come from the file, and a
-- request the file does not hold is aborted or falls through as asked.
local vdx = require "vdx"
local helpers = require "helpers"

local PNG = "\137PNG\r\n\26\n\0\0\0\rIHDR\0\0\0\1\0\0\0\1\8\6\0\0\0\31\21\196\137\0\0\0\rIDATx\156c\248\255\255?"
  .. "\0\5\254\2\254\167\53\129\132\0\0\0\0IEND\174B`\130"

local APP = {
  ["GET /shop"] = function()
    return [[<title>Shop</title><img id="logo" src="/logo.png" alt="logo"><p id="out">waiting</p>
      <script src="/app.js"></script>]]
  end,
  ["GET /app.js"] = function()
    return { headers = { ["content-type"] = "text/javascript" }, body = [[
      fetch('/api/order', { method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ qty: 2 }) })
        .then(r => r.json())
        .then(j => { document.getElementById('out').textContent = 'Order ' + j.order + ' placed'; });]] }
  end,
  ["GET /logo.png"] = function() return { headers = { ["content-type"] = "image/png" }, body = PNG } end,
  ["POST /api/order"] = function(req)
    assert(req.body == '{"qty":2}', req.body)
    return { status = 201, json = { order = 7 } }
  end,
}

describe("a HAR recorded, then replayed with the server stopped", function()
  local browser, har, url

  setup(function()
    browser = vdx.launch { headless = true }
    har = os.tmpname() .. ".har"
  end)
  teardown(function()
    if browser then browser:close() end
    os.remove(har)
  end)

  it("records the app's traffic while the server runs", function()
    local srv = helpers.serve(APP)
    url = srv.url .. "/shop"
    local ctx = browser:new_context()
    local rec = ctx:record_har { path = har, content = "embed" }
    local page = ctx:new_page()
    page:navigate(url, { wait_until = "load" })
    page:wait_for { text = "Order 7 placed" }
    assert.is_true(page:evaluate("document.getElementById('logo').naturalWidth === 1"))
    local res = rec:stop()
    assert.is_true(res.entries >= 4, "entries: " .. tostring(res.entries))
    ctx:close()
    srv:close()
  end)

  it("serves the page, its script, its image and its POST from the file alone", function()
    local ctx = browser:new_context()
    local page = ctx:new_page()
    -- Nothing listens there any more: without the HAR the navigation fails.
    local err = helpers.error_of(page.navigate, page, url, { wait_until = "load", timeout_ms = 10000 })
    assert.truthy(err)
    ctx:route_from_har(har, { not_found = "abort" })
    local page2 = ctx:new_page()
    local nav = page2:navigate(url, { wait_until = "load" })
    assert.equal(200, nav.status)
    assert.equal("Shop", nav.title)
    page2:wait_for { text = "Order 7 placed" }
    assert.is_true(page2:evaluate("document.getElementById('logo').naturalWidth === 1"))
    -- A request the file does not hold is aborted, not sent.
    local missing = page2:evaluate([[fetch(location.origin + '/api/other').then(() => 'sent', () => 'failed')]])
    assert.equal("failed", missing)
    ctx:close()
  end)
end)
