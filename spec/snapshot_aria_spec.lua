-- page:snapshot{ mode = "aria" }: Playwright's aria-snapshot dialect, the
-- YAML toMatchAriaSnapshot takes (issue 24's aria-snapshot cases are
-- Playwright's default mode, not its AI mode).  Each expected text was
-- checked against Playwright 1.65's page.ariaSnapshot() on the same markup,
-- and the last test hands vdxlua's text to real Playwright's
-- toMatchAriaSnapshot.
local vdx = require "vdx"
local h = require "helpers"
local run = require "vdx.pw_run"
local json = require "vdx.json"

local LONG_NAME = ("n"):rep(950)
local LONG_TEXT = ("t"):rep(5000)

local PAGES = {
  ["/aria/names"] = [=[<!doctype html><body><h3><a href="/issues/1">Clipboard API</a></h3>
    <a href="about:blank" id="p"><div role="region" aria-owns="p">Hello</div></a>]=],
  ["/aria/hidden"] = [=[<!doctype html><body><div style="visibility: hidden"><div style="visibility: visible">
    <button>Inner</button></div></div><button>Outer</button>]=],
  ["/aria/long"] = [=[<!doctype html><body><button>]=] .. LONG_NAME .. [=[</button><p>]=] .. LONG_TEXT .. [=[</p>]=],
  ["/aria/titled"] = [=[<!doctype html><body><div title="Element title">Element content</div>]=],
  ["/aria/form"] = [=[<!doctype html><body><main><h1>Sign in</h1><label>Email <input name="e"></label>
    <label><input type="checkbox"> Remember me</label><button>Go</button>
    <ul><li><a href="/help">Help</a></li><li>Plain item</li></ul></main>]=],
}

describe("page:snapshot{ mode = 'aria' }", function()
  local browser, srv, page

  setup(function()
    local routes = {}
    for path, body in pairs(PAGES) do routes["GET " .. path] = function() return body end end
    srv, browser, page = h.open(routes)
  end)

  teardown(function() h.shut(browser, srv) end)

  local function snap(path, mode)
    page:navigate(srv.url .. path)
    return (page:snapshot { mode = mode }.text:gsub("\n$", ""))
  end

  it("prints every name, also one the lines below repeat, and no refs", function()
    assert.equal('- heading "Clipboard API" [level=3]:\n  - link "Clipboard API":\n    - /url: /issues/1\n' ..
      '- link "Hello":\n  - /url: about:blank\n  - region: Hello', snap("/aria/names", "aria"))
    -- The AI dialect (the default) leaves both names to the lines below.
    assert.matches('^%- heading %[level=3%]:\n', snap("/aria/names"))
  end)

  it("hides a visibility:visible element inside a visibility:hidden one", function()
    assert.equal('- button "Outer"', snap("/aria/hidden", "aria"))
    assert.matches('button "Inner"', snap("/aria/hidden"), 1, true)
  end)

  it("leaves off a name past 900 characters and prints a long text whole", function()
    local text = snap("/aria/long", "aria")
    assert.equal("- button\n- paragraph: " .. LONG_TEXT, text)
    local ai = snap("/aria/long")
    assert.truthy(ai:find("[name=950 chars]", 1, true), ai)
    assert.truthy(ai:find("(1000 more characters)", 1, true), ai)
  end)

  it("flattens a generic with a title, which the AI dialect keeps", function()
    assert.equal("- text: Element content", snap("/aria/titled", "aria"))
    assert.equal('- generic "Element title": Element content', (snap("/aria/titled"):gsub(" %[ref=e%d+%]", "")))
  end)

  it("refuses an unknown mode, naming the two", function()
    local ok, err = pcall(page.snapshot, page, { mode = "yaml" })
    assert.is_false(ok)
    assert.is_true(vdx.is_error(err, "InvalidArgument"), tostring(err))
    assert.truthy(err.message:find('"ai"', 1, true) and err.message:find('"aria"', 1, true), err.message)
  end)

  it("gives a text real Playwright's toMatchAriaSnapshot accepts", function()
    local text = snap("/aria/form", "aria")
    local pw, why = run.find(".")
    if not pw then
      pw, why = h.playwright()
      if not pw then return pending(why) end
    end
    local dir = io.popen("mktemp -d /tmp/vdx-aria.XXXXXX"):read("l")
    local f = assert(io.open(dir .. "/aria.spec.ts", "w"))
    f:write(([[
import { test, expect } from '@playwright/test';
test.use({ launchOptions: { executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium' } });
test('aria', async ({ page }) => {
  await page.goto(%q);
  await expect(page.locator('body')).toMatchAriaSnapshot(%s);
});
]]):format(srv.url .. "/aria/form", json.encode(text)))
    f:close()
    local abs = pw:match("^/") and pw or (io.popen("pwd"):read("l") .. "/" .. pw)
    local status, out = run.shell(run.command(dir .. "/aria.spec.ts", "", abs), 180000)
    os.execute("rm -rf " .. h.quote(dir))
    assert.equal(0, status, text .. "\n" .. out)
  end)
end)
