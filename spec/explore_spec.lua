-- Structure queries around a ref, unique selectors, locator checks and
-- read_html, against the real browser, through the C core.
local vdx = require "vdx"
local cjson = require "cjson"
local h = require "helpers"

local function ref_of(text, pattern)
  return assert(text:match(pattern), "no match for " .. pattern .. " in:\n" .. text)
end

describe("structure queries", function()
  local browser, srv, page, base

  setup(function() srv, browser, page, base = h.open_sites() end)

  teardown(function() h.shut(browser, srv) end)

  it("goes from a button to a container-scoped locator that matches once", function()
    page:navigate(srv.url .. "/explore/grid-testid.html")
    local snap = page:snapshot { budget_tokens = 100000 }
    -- The 42nd "Add to Cart" button belongs to the "iPhone 15 Pro" card.
    local n, ref = 0, nil
    for r in snap.text:gmatch('button "Add to Cart" %[ref=(e%d+)%]') do
      n = n + 1
      if n == 42 then ref = r end
    end
    assert.equal(200, n)
    local c = page:resolve_container(ref)
    assert.equal("button", c.target.tag)
    assert.equal("Add to Cart", c.target.name)
    local card_level
    for _, a in ipairs(c.ancestors) do
      if a.attributes["data-testid"] == "product-card" then card_level = a.level end
    end
    assert.equal(1, card_level)
    local pattern = page:inspect_pattern(ref, card_level)
    assert.equal(200, pattern.siblings_total)
    assert.equal(20, pattern.shown)
    assert.equal(42, pattern.target_sibling_index + (pattern.target_sibling_index >= 42 and 0 or 1))
    local anchors = page:extract_anchors(ref, card_level)
    assert.is_true(anchors.total_descendants >= 4)
    -- The whole exploration renders well under the 3,000-token budget.
    local chars = #cjson.encode(c) + #cjson.encode(pattern) + #cjson.encode(anchors)
    assert.is_true(chars / 4 < 3000, "about " .. chars / 4 .. " tokens")
    local seed = [[getByTestId("product-card").filter({ hasText: "iPhone 15 Pro" }).getByRole("button", { name: "Add to Cart" })]]
    local one = page:locator_count(seed)
    assert.equal(1, one.count)
    assert.same({ ref }, one.refs)
  end)

  it("counts ambiguous locators and points at syntax errors", function()
    page:navigate(srv.url .. "/explore/grid-testid.html")
    page:snapshot()
    assert.equal(200, page:locator_count([[getByRole("button", { name: "Add to Cart" })]]).count)
    assert.equal(2, page:locator_count([[getByTestId("product-card").filter({ hasText: "iPhone 15" })]]).count)
    assert.equal(1, page:locator_count([[getByTestId("product-card").filter({ hasText: "iPhone 15" }).last()]]).count)
    local err = h.error_of(page.locator_count, page, [[getByRole("button", { name: "Add" ]])
    assert.is_true(vdx.is_error(err, "LocatorSyntax"), tostring(err))
    assert.is_number(err.column)
    err = h.error_of(page.locator_count, page, [[getByNothing("x")]])
    assert.is_true(vdx.is_error(err, "LocatorSyntax"), tostring(err))
    assert.is_nil(tostring(err):find("CSS selector", 1, true), tostring(err))
    -- A CSS selector given bare is told the call that takes it (run FF
    -- gave "body").
    for _, css in ipairs { "body", "#cart" } do
      err = h.error_of(page.locator_count, page, css)
      assert.matches("a CSS selector goes in locator(): locator('" .. css .. "')", tostring(err), 1, true)
    end
  end)

  it("matches hidden elements by the name they would have with includeHidden, as Playwright does", function()
    page:navigate(srv.url .. "/explore/grid-testid.html")
    page:evaluate([[document.body.insertAdjacentHTML("beforeend",
      '<div style="display:none"><button>Secret Off</button></div>')]])
    assert.equal(0, page:locator_count([[getByRole("button", { name: "Secret Off" })]]).count)
    assert.equal(1, page:locator_count([[getByRole("button", { name: "Secret Off", includeHidden: true })]]).count)
    -- What assistive technology is told: the hidden button's content names nothing.
    local found = page:accessible("div[style] > button")
    assert.equal(1, found.total)
    assert.equal("", found.items[1].name)
  end)

  it("says the largest valid level when asked past body", function()
    page:navigate(srv.url .. "/explore/deep.html")
    local ref = ref_of(page:snapshot().text, 'button "Deep" %[ref=(e%d+)%]')
    local c = page:resolve_container(ref)
    local top = c.ancestors[#c.ancestors].level
    assert.equal(11, top)   -- ten nested divs and #top, below body
    local err = h.error_of(page.inspect_pattern, page, ref, top + 5)
    assert.is_true(vdx.is_error(err, "InvalidArgument"), tostring(err))
    assert.matches("largest valid level is " .. top, err.message)
  end)

  it("bounds anchors and counts the whole subtree exactly", function()
    page:navigate(srv.url .. "/explore/deep.html")
    local ref = ref_of(page:snapshot().text, 'button "Deep" %[ref=(e%d+)%]')
    local a = page:extract_anchors(ref, 11, { max_depth = 4, max_total = 5 })
    assert.equal(5, a.shown)
    assert.equal(5, #a.descendants)
    -- Each level holds a div and two spans: 3 + 3 + 3 + 3 within depth 4.
    assert.equal(12, a.total_descendants)
  end)

  it("bounds siblings on a container with 500 children", function()
    page:navigate(srv.url .. "/explore/wide.html")
    local snap = page:snapshot { budget_tokens = 100000 }
    local ref = assert(snap.text:match("%[ref=(e%d+)%]"))
    local c = page:resolve_container(ref)
    local level
    for _, a in ipairs(c.ancestors) do
      -- The repeating item is the child of the 500-child container.
      if a.child_elements == 500 then level = a.level - 1 end
    end
    assert.truthy(level, "no ancestor with 500 children")
    local p = page:inspect_pattern(ref, level, { max_siblings = 7 })
    assert.equal(500, p.siblings_total)
    assert.equal(7, p.shown)
    assert.equal(7, #p.siblings)
  end)

  it("crosses a shadow root upward as one level and says so", function()
    page:navigate(srv.url .. "/explore/shadow.html")
    local ref = ref_of(page:snapshot().text, 'button "Remove Walk dog" %[ref=(e%d+)%]')
    local c = page:resolve_container(ref)
    local crossed = false
    for _, a in ipairs(c.ancestors) do crossed = crossed or a.crossed_shadow == true end
    assert.is_true(crossed)
    assert.equal(3, page:locator_count([[getByTestId("todo")]]).count)
    -- An ancestor inside the shadow root says whose: a script reaches it
    -- through that host's shadowRoot (run EE's querySelectorAll found none).
    local inside = page:extract_anchors(ref, 1)
    assert.equal("todo-list", inside.ancestor_at.in_shadow_root_of)
    assert.is_nil(page:extract_anchors(ref, 4).ancestor_at.in_shadow_root_of)
  end)

  it("answers inside a cross-origin iframe with frame-qualified refs", function()
    page:navigate(base .. "/frames/xo-main.html")
    local snap = page:snapshot()
    local ref = ref_of(snap.text, 'button "Pay now" %[ref=(f%d+e%d+)%]')
    local c = page:resolve_container(ref)
    assert.equal(ref, c.target.ref)
    for _, a in ipairs(c.ancestors) do
      for _, r in ipairs(a.contains_refs.refs) do assert.matches("^f%d+e%d+$", r) end
    end
    local d = page:describe(ref)
    assert.truthy(d.selector or d.locator or d.at)
  end)

  it("describes a form control whose constraints fail with the browser's message, a valid one without", function()
    page:navigate(srv.url .. "/loop/invalid.html")
    local snap = page:snapshot()
    local email = page:describe(ref_of(snap.text, 'textbox "Email" %[required%] %[ref=(e%d+)%]'))
    assert.equal("Please fill out this field.", email.validation)
    assert.is_nil(page:describe(ref_of(snap.text, 'textbox "Full name" %[required%] %[ref=(e%d+)%]')).validation)
    assert.is_nil(page:describe(ref_of(snap.text, 'button "Send invite" %[ref=(e%d+)%]')).validation)
  end)

  it("gives verified unique selectors on a page built like a real site", function()
    page:navigate(srv.url .. "/explore/forms.html")
    page:snapshot()
    local cov = page:selector_coverage()
    print(("\n# selector coverage forms.html: %d/%d"):format(cov.with_selector, cov.refs))
    assert.is_true(cov.ratio >= 0.97)
    local d = page:describe("e1")
    assert.truthy(d.selector)
    assert.equal(1, page:evaluate(("document.querySelectorAll(%q).length"):format(d.selector)))
  end)

  it("reduces markup with read_html without touching the page", function()
    page:navigate(srv.url .. "/explore/noisy.html")
    page:snapshot()
    local before = page:evaluate("document.documentElement.outerHTML")
    local full = page:read_html { mode = "full" }
    local form = page:read_html { mode = "form" }
    local text = page:read_html { mode = "text" }
    assert.equal(before, page:evaluate("document.documentElement.outerHTML"))
    assert.is_true(full.size_after < full.size_before)
    assert.is_true(form.size_after < full.size_after)
    assert.is_nil(full.html:find("<script", 1, true))
    assert.is_nil(full.html:find("onclick=", 1, true))
    assert.truthy(form.html:find('data-ref="e', 1, true))
    assert.is_true(text.size_after > 0)
    -- What it left out unrendered is counted: the tooltips and the sign-in dialog.
    assert.equal(page:evaluate("document.querySelectorAll('body .hidden').length"), full.hidden_left_out)
    -- The first five are named, with the controls they hold.
    assert.equal(5, #full.hidden_list)
    assert.equal('<div class="hidden">', full.hidden_list[1])
    print(("\n# read_html noisy.html: %d -> full %d, form %d, text %d"):format(
      full.size_before, full.size_after, form.size_after, text.size_after))
    local err = h.error_of(page.read_html, page, { mode = "all" })
    assert.is_true(vdx.is_error(err, "InvalidArgument"), tostring(err))
    assert.equal("page:read_html: mode must be form, text or full (got 'all')", err.message)
    err = h.error_of(page.read_html, page, "form")
    assert.is_true(vdx.is_error(err, "InvalidArgument"), tostring(err))
    assert.equal("page:read_html: argument #1: table expected, got string", err.message)
  end)

  it("shows an open shadow root in read_html's full markup as declarative shadow DOM writes it", function()
    page:navigate(srv.url .. "/explore/shadow.html")
    local full = page:read_html { mode = "full" }
    -- (Run EC's script, written from markup that showed none, missed it.)
    assert.matches('<todo%-list[^>]*><template shadowrootmode="open">%s*<h2>Todos</h2>', full.html)
    assert.matches('Add todo</button>%s*</template></todo%-list>', full.html)
    -- The reductions leave the mark out.
    assert.is_nil(page:read_html({ mode = "text" }).html:find("<template", 1, true))
  end)

  it("names the frames read_html's markup holds, and reads a frame's document with frame=", function()
    page:navigate(srv.url .. "/frames/one.html")
    local snap = page:snapshot()
    local iframe = ref_of(snap.text, 'iframe "Inner" %[ref=(e%d+)%]')
    local whole = page:read_html {}
    assert.same({ { frame = "f1", ref = iframe, root = false } }, whole.frames)
    assert.is_nil(whole.html:find("Inner button", 1, true))
    local own = page:read_html { root = iframe }
    assert.same({ { frame = "f1", ref = iframe, root = true } }, own.frames)
    local inner = page:read_html { frame = "f1" }
    assert.matches('<button data%-ref="f1e%d+">Inner button</button>', inner.html)
    assert.is_nil(inner.frames)
    -- With no mode, form, as the docs and the tool's answer say.
    assert.equal(page:read_html({ mode = "form" }).html, whole.html)
    assert.not_equal(page:read_html({ mode = "full" }).html, whole.html)
  end)
end)
