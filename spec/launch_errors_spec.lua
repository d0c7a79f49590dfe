-- Errors on the way in: a browser that does not start says why (its own
-- stderr), and a role whose remote browser is not there is named with its
-- endpoint and the reason, with recovery steps that fit.
local vdx = require "vdx"
local errors = require "vdx.errors"

describe("errors on the way in", function()
  it("a headed launch without a display is LaunchFailed with the browser's reason", function()
    local ok, e = pcall(vdx.launch, { headless = false, env = { DISPLAY = ":987" } })
    assert.is_false(ok)
    assert.equal("LaunchFailed", e.type)
    assert.matches("^the browser did not start: Missing X server or %$DISPLAY", e.message)
    assert.not_matches("closed the pipe", e.message)
    assert.matches("Missing X server or $DISPLAY", e.stderr, 1, true)
    local text = errors.format(e)
    assert.matches("^❌ The browser did not start\n", text)
    assert.matches("2. For --headed without a display, run under xvfb-run or drop --headed.", text, 1, true)
  end)

  it("a wrong executable is BrowserNotFound, with advice that names --executable", function()
    local ok, e = pcall(vdx.launch, { executable = "/nonexistent/chromium" })
    assert.is_false(ok)
    assert.equal("BrowserNotFound", e.type)
    assert.equal("opts.executable '/nonexistent/chromium' is not an executable file", e.message)
    local text = errors.format(e)
    assert.matches("^❌ No browser to start\n", text)
    assert.matches("--executable /path/to/chromium", text, 1, true)
    assert.not_matches("bug in vdxlua", text)
  end)

  it("vdx.find_browser names the browser a launch would start, or raises the launch's BrowserNotFound", function()
    local path = vdx.find_browser()
    assert.is_true(os.execute("test -x " .. path) == true, path)
    assert.equal(path, vdx.find_browser { executable = path })
    local ok, e = pcall(vdx.find_browser, { executable = "/nonexistent/chromium" })
    assert.is_false(ok)
    assert.equal("BrowserNotFound", e.type)
    assert.equal("opts.executable '/nonexistent/chromium' is not an executable file", e.message)
    ok, e = pcall(vdx.find_browser, { executable = "/tmp" })
    assert.is_false(ok)
    assert.equal("opts.executable '/tmp' is not an executable file", e.message)
    ok, e = pcall(vdx.find_browser, { exe = "x" })
    assert.is_false(ok)
    assert.equal("InvalidArgument", e.type)
  end)

  it("a dead role endpoint is ConnectFailed naming the role, the endpoint and the reason", function()
    local mgr = require("vdx.roles").new {}
    mgr:add { name = "grid" }
    mgr:set_endpoint("grid", "http://127.0.0.1:9")
    local ok, e = pcall(function() return mgr:role("grid"):page() end)
    mgr:close()
    assert.is_false(ok)
    assert.equal("ConnectFailed", e.type)
    assert.equal("role grid: cannot reach the browser at http://127.0.0.1:9: connection refused " ..
      "(nothing answers at that address)", e.message)
    assert.equal("grid", e.role)
    assert.equal("http://127.0.0.1:9", e.url)
    local text = errors.format(e)
    assert.matches("^❌ Cannot reach the remote browser\n", text)
    assert.matches("1. Start the browser with --remote-debugging-port=PORT", text, 1, true)
    assert.not_matches("bug in vdxlua", text)
  end)
end)
