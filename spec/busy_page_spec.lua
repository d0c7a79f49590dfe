--- spec/busy_page_spec.lua: a page whose own script never yields (an
-- endless loop in a click handler, a timer or an evaluate) holds its main
-- thread.  A call that times out on it, or that the client cancels, stops
-- the script (Runtime.terminateExecution) and the next call works; the
-- timeout is a PageBusy that says the page's script, not the network, was
-- the cause; list_roles does not wait for the busy call.
local vdx = require "vdx"
local helpers = require "helpers"
local client = require "mcp_client"

local PAGES = {
  ["GET /spin"] = function()
    return "<title>spin</title><button onclick='document.title = \"spinning\"; for (;;) {}'>Spin</button>" ..
      "<p>still here</p>"
  end,
  ["GET /timer"] = function()
    return "<title>timer</title><p>timer page</p><script>setTimeout(() => { for (;;) {} }, 300)</script>"
  end,
}

-- Generous: far below the 30 s a busy page used to hold every call, far
-- above what a loaded machine needs.
local QUICK_MS = 15000

describe("a page whose script never yields, through vdxlua mcp", function()
  local srv, s, call

  setup(function()
    srv = helpers.serve(PAGES)
    s = client.start("")
    local _
    _, call = client.caller(s)
  end)

  teardown(function()
    if s then s:close() end
    srv:close()
  end)

  it("answers list_roles while a click spins, and a cancel stops the script", function()
    local nav = client.text { result = call("browser_navigate", { url = srv.url .. "/spin" }) }
    assert.matches('button "Spin" [ref=e1]', nav, 1, true)
    s:send(client.call(100, "browser_click", { element = "Spin", ref = "e1" }))
    -- The click handler runs and spins: the page stops answering.
    vdx.sleep(1500)
    local t0 = vdx.now()
    s:send(client.call(101, "list_roles", {}))
    local roles = s:wait_for(101, QUICK_MS)
    assert.is_table(roles, "list_roles waited for the busy click")
    assert.is_true(vdx.now() - t0 < QUICK_MS)
    local text = client.text(roles)
    assert.matches("* default (active) no auth", text, 1, true)
    assert.matches("Note: browser_click is still running", text, 1, true)
    assert.is_nil(s:wait_for(100, 10), "the click answered before it was cancelled")
    s:send { jsonrpc = "2.0", method = "notifications/cancelled", params = { requestId = 100, reason = "spec" } }
    t0 = vdx.now()
    s:send(client.call(102, "browser_snapshot", {}))
    local snap = s:wait_for(102, QUICK_MS)
    assert.is_table(snap, "the snapshot after the cancel did not answer")
    assert.is_nil(snap.result.isError, client.text(snap))
    assert.matches("Page Title: spinning", client.text(snap), 1, true)
    assert.matches('paragraph: still here', client.text(snap), 1, true)
    -- A cancelled request gets no answer.
    assert.is_nil(client.by_id(s:messages(), 100))
  end)

  it("stops a timer's endless loop when a call times out, with PageBusy", function()
    local nav = client.text { result = call("browser_navigate", { url = srv.url .. "/timer" }) }
    assert.matches("Title: timer", nav, 1, true)
    vdx.sleep(800)
    local res = call("browser_snapshot", {})
    local text = client.text { result = res }
    assert.is_true(res.isError, text)
    assert.equal("❌ The page's main thread is busy", text:match("^[^\n]*"))
    assert.matches("browser_snapshot: the page's main thread stayed busy for %d+ ms and answered nothing " ..
      "%(a script that never yields, such as an endless loop, or more work than the timeout allows%); " ..
      "this is not the network", text)
    assert.matches("vdx stopped the running script (Runtime.terminateExecution)", text, 1, true)
    assert.matches("Call browser_snapshot() to see the page now", text, 1, true)
    local t0 = vdx.now()
    res = call("browser_snapshot", {})
    text = client.text { result = res }
    assert.is_nil(res.isError, text)
    assert.matches("paragraph: timer page", text, 1, true)
    assert.is_true(vdx.now() - t0 < QUICK_MS)
  end)
end)

describe("page:evaluate of a script that never returns", function()
  local srv, browser, page

  setup(function()
    srv, browser, page = helpers.open(PAGES)
  end)

  teardown(function() helpers.shut(browser, srv) end)

  it("raises PageBusy after its timeout and leaves the page usable", function()
    page:navigate(srv.url .. "/spin")
    local ok, err = pcall(page.evaluate, page, "for (;;) {}", { timeout_ms = 1500 })
    assert.is_false(ok)
    assert.is_true(vdx.is_error(err, "PageBusy"), tostring(err))
    assert.matches("page:evaluate: the page's main thread stayed busy for 1500 ms", err.message, 1, true)
    assert.is_true(err.stopped)
    assert.equal(2, page:evaluate("1 + 1", { timeout_ms = 5000 }))
    assert.matches('button "Spin"', page:snapshot().text, 1, true)
  end)

  it("keeps Timeout for a wait that is not a busy page", function()
    page:navigate(srv.url .. "/spin")
    local ok, err = pcall(page.evaluate, page, "new Promise(() => {})", { timeout_ms = 500 })
    assert.is_false(ok)
    assert.is_true(vdx.is_error(err, "Timeout"), tostring(err))
    assert.equal(3, page:evaluate("1 + 2"))
  end)
end)
