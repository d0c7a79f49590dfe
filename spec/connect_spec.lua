-- Reaching a running browser over WebSocket: ws:// and http://host:port.
local vdx = require "vdx"
local h = require "helpers"

describe("vdx.connect", function()
  local server

  setup(function()
    -- A browser with a DevTools port stands in for a remote browser farm.
    server = vdx.launch { port = 0 }
  end)

  teardown(function()
    if server then server:close() end
  end)

  it("launches with a port when asked, and reports the endpoint", function()
    assert.matches("^ws://127%.0%.0%.1:%d+/devtools/browser/", server:endpoint())
  end)

  it("connects by ws:// URL and drives a page", function()
    local b = vdx.connect(server:endpoint())
    assert.matches("^%a*Chrome/%d+", b:version().product)
    local ctx = b:new_context()
    local page = ctx:new_page()
    page:navigate("data:text/html,<title>remote</title>")
    assert.equal("remote", page:evaluate("document.title"))
    assert.equal(50 * 1024 * 1024,
      #page:evaluate("'z'.repeat(50 * 1024 * 1024)", { timeout_ms = 60000 }))
    ctx:close()
    assert.is_true(b:close())
    -- Disconnecting does not end the remote browser.
    assert.matches("^%a*Chrome/%d+", server:version().product)
  end)

  it("connects by http://host:port through /json/version", function()
    local port = server:endpoint():match("^ws://127%.0%.0%.1:(%d+)/")
    local b = vdx.connect("http://127.0.0.1:" .. port)
    assert.matches("^ws://127%.0%.0%.1:" .. port .. "/devtools/browser/", b:endpoint())
    assert.equal(7, b:new_page():evaluate("3 + 4"))
    b:close()
  end)

  it("fails with ConnectFailed when nothing listens", function()
    local err = h.error_of(vdx.connect, "http://127.0.0.1:1", { timeout_ms = 3000 })
    assert.is_true(vdx.is_error(err, "ConnectFailed"), tostring(err))
  end)

  it("names an endpoint without a scheme it speaks (InvalidEndpoint) and what to write", function()
    local err = h.error_of(vdx.connect, "ftp://x")
    assert.equal("InvalidEndpoint", err.type)
    assert.matches("not ftp://", err.message, 1, true)
    err = h.error_of(vdx.connect, "127.0.0.1:9222")
    assert.equal("InvalidEndpoint", err.type)
    assert.matches("has no scheme: write http://127.0.0.1:9222", err.message, 1, true)
  end)

  it("refuses connection options it cannot use, naming them, before connecting", function()
    local ws = server:endpoint()
    local cases = {
      { { headers = { ["X-A"] = "a\r\nb" } }, "each header is a name (no colon or space) and a string value on one line" },
      { { headers = { ["Bad Name"] = "x" } }, "each header is a name" },
      { { headers = "Authorization: x" }, "option 'headers' must be a table of name = value" },
      { { ca = "/nonexistent/ca.pem" }, "option 'ca': cannot read the CA file: /nonexistent/ca.pem" },
      { { retries = -1 }, "option 'retries' must be an integer >= 0" },
      { { bogus = 1 }, "unknown option 'bogus' (known: timeout_ms, headers, ca, insecure, retries, backoff_ms)" },
    }
    for _, c in ipairs(cases) do
      local err = h.error_of(vdx.connect, ws, c[1])
      assert.equal("InvalidArgument", err.type)
      assert.matches(c[2], err.message, 1, true)
    end
  end)

  it("connects with extra handshake headers (a plain Chromium ignores them)", function()
    local b = vdx.connect(server:endpoint(), { headers = { Authorization = "Bearer x", ["X-Farm"] = "1" } })
    assert.equal(7, b:new_page():evaluate("3 + 4"))
    b:close()
  end)

  it("keeps the query of an http:// endpoint on the ws:// URL /json/version names", function()
    local port = server:endpoint():match("^ws://127%.0%.0%.1:(%d+)/")
    local b = vdx.connect("http://127.0.0.1:" .. port .. "/?token=kept")
    assert.matches("^ws://127%.0%.0%.1:" .. port .. "/devtools/browser/[%w-]+%?token=kept$", b:endpoint())
    b:close()
  end)
end)
