-- Typed errors of a page that cannot take calls: a closed page raises
-- PageClosed, a crashed renderer fails every call waiting on the page with
-- PageCrashed (not a Timeout), and a navigation recovers the page.
local vdx = require "vdx"
local h = require "helpers"
local errors = require "vdx.errors"

describe("page errors", function()
  local browser

  setup(function() browser = vdx.launch { timeout_ms = 20000 } end)
  teardown(function() if browser then browser:close() end end)

  it("raises PageClosed, formatted with its recovery steps", function()
    local page = browser:new_page()
    page:close()
    for _, call in ipairs {
      function() return page:evaluate("1") end,
      function() return page:snapshot() end,
      function() return page:click("e1") end,
      function() return page:navigate("about:blank") end,
      function() return page:reload() end,
    } do
      local err = h.error_of(call)
      assert.is_true(vdx.is_error(err, "PageClosed"), tostring(err))
    end
    local text = errors.format(h.error_of(page.evaluate, page, "1"))
    assert.matches("^❌ The page is closed\n", text)
    assert.matches("browser_tabs(action=\"list\")", text, 1, true)
  end)

  it("closes a page at the end of its <close> scope", function()
    local kept
    do
      local page <close> = browser:new_page()
      kept = page
      assert.equal(2, page:evaluate("1 + 1"))
    end
    assert.equal("vdx.Page (closed)", tostring(kept))
    assert.is_true(kept:is_closed())
    assert.is_true(vdx.is_error(h.error_of(kept.evaluate, kept, "1"), "PageClosed"))
  end)

  it("fails the calls waiting on a crashed renderer with PageCrashed, then recovers", function()
    local page = browser:new_page()
    page:navigate("data:text/html,<p>before</p>")
    -- Both calls would wait 20 s for their answer: only the crash ends them.
    local waiting = vdx.spawn(function()
      return h.error_of(page.evaluate, page, "new Promise(() => {})", { timeout_ms = 20000 })
    end)
    vdx.sleep(100)
    local crash_err = h.error_of(page.send, page, "Page.crash", {}, { timeout_ms = 20000 })
    local eval_err = vdx.wait(waiting)
    for _, err in ipairs { crash_err, eval_err } do
      assert.is_true(vdx.is_error(err, "PageCrashed"), tostring(err))
      assert.equal("the page's renderer crashed; navigate or reload to recover", err.message)
    end
    -- New calls fail at once with the same error, until a navigation.
    local err = h.error_of(page.snapshot, page)
    assert.is_true(vdx.is_error(err, "PageCrashed"), tostring(err))
    assert.matches("^❌ The page crashed\n", errors.format(err))
    assert.matches("Navigate or reload to recover", errors.format(err), 1, true)
    local nav = page:navigate("data:text/html,<p>after</p>")
    assert.equal("data:text/html,<p>after</p>", nav.url)
    assert.equal("after", page:evaluate("document.body.textContent"))
    assert.matches("paragraph: after", page:snapshot().text, 1, true)
    page:close()
  end)

  it("recovers a crashed page with reload", function()
    local page = browser:new_page()
    page:navigate("data:text/html,<p>again</p>")
    local err = h.error_of(page.send, page, "Page.crash", {}, { timeout_ms = 20000 })
    assert.is_true(vdx.is_error(err, "PageCrashed"), tostring(err))
    assert.equal("data:text/html,<p>again</p>", page:reload().url)
    assert.equal("again", page:evaluate("document.body.textContent"))
    page:close()
  end)
end)
