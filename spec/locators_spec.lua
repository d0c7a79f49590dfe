--- spec/locators_spec.lua: page:generate_locator and the locators the MCP
-- tools name (browser_generate_locator, the `Locator:` line of every
-- action), against the real browser on spec/fixtures/locators/page.html:
-- each locator and each alternative is checked with page:locator_count to
-- match exactly the element of its ref.
local vdx = require "vdx"
local cjson = require "cjson"
local h = require "helpers"
local client = require "mcp_client"

local PAGE = "/locators/page.html"

-- The refs of the snapshot lines that match pattern (one capture), in order.
local function refs_of(text, pattern)
  local out = {}
  for ref in text:gmatch(pattern) do out[#out + 1] = ref end
  assert(#out > 0, "no line matches " .. pattern .. " in:\n" .. text)
  return out
end

describe("page:generate_locator", function()
  local browser, srv, page, snap

  setup(function()
    srv, browser, page = h.open()
    page:navigate(srv.url .. PAGE)
    snap = page:snapshot { budget_tokens = 100000 }.text
  end)

  teardown(function() h.shut(browser, srv) end)

  -- The locator of ref, after checking that it and every alternative
  -- match exactly the element of ref on the live page.
  local function located(ref, opts)
    local loc = page:generate_locator(ref, opts)
    local all = { loc.locator }
    for _, a in ipairs(loc.alternatives) do
      assert.equal(1, a.count)
      assert.is_string(a.kind)
      all[#all + 1] = a.locator
    end
    for _, expr in ipairs(all) do
      local r = page:locator_count(expr, { frame = ref })
      assert.equal(1, r.count, expr)
      assert.same({ ref }, r.refs, expr)
    end
    return loc
  end

  it("scopes repeated cards to their test id, filtered by the visible heading", function()
    local refs = refs_of(snap, 'button "Add to Cart" %[ref=(e%d+)%]')
    assert.equal(3, #refs)
    local titles = { "Modern Lamp 1", "Modern Lamp 2", "Walnut Desk" }
    for i, ref in ipairs(refs) do
      local loc = located(ref)
      assert.equal("getByTestId('product-card').filter({ hasText: '" .. titles[i] ..
        "' }).getByRole('button', { name: 'Add to Cart' })", loc.locator)
      assert.is_false(loc.positional)
      assert.is_nil(loc.note)
      -- The first card alone has the hidden badge "Clearance": a unique
      -- text, but hidden, so no filter uses it.
      for _, a in ipairs(loc.alternatives) do assert.is_nil(a.locator:find("Clearance", 1, true), a.locator) end
    end
    local first = located(refs[1])
    assert.same({ { locator = "getByTestId('product-card').filter({ hasText: '$10.00' })" ..
      ".getByRole('button', { name: 'Add to Cart' })", kind = "container", count = 1 } }, first.alternatives)
    -- A glyph that tells the first Favorite apart is a state, not a name:
    -- the scoped name comes first, the glyph only as an alternative.
    local fav = located(refs_of(snap, 'button "Favorite" %[ref=(e%d+)%]')[1])
    assert.equal("getByTestId('product-card').filter({ hasText: 'Modern Lamp 1' }).getByRole('button', { name: 'Favorite' })",
      fav.locator)
    assert.equal("getByText('♥')", fav.alternatives[#fav.alternatives].locator)
    -- A test id that does not repeat needs no filter.
    local sub = refs_of(snap, 'button "Subscribe" %[ref=(e%d+)%]')
    assert.equal("getByTestId('newsletter').getByRole('button', { name: 'Subscribe' })", located(sub[1]).locator)
    assert.equal("getByRole('contentinfo').getByRole('button', { name: 'Subscribe' })", located(sub[2]).locator)
  end)

  it("names a unique button by role and name, exact only when needed", function()
    local checkout = refs_of(snap, 'button "Checkout" %[ref=(e%d+)%]')[1]
    local loc = located(checkout)
    assert.equal("getByRole('button', { name: 'Checkout' })", loc.locator)
    assert.same({ locator = "getByText('Checkout')", kind = "text", count = 1 }, loc.alternatives[1])
    local add = refs_of(snap, 'button "Add" %[ref=(e%d+)%]')[1]
    assert.equal("getByRole('button', { name: 'Add', exact: true })", located(add).locator)
    local list = refs_of(snap, 'button "Add to list" %[ref=(e%d+)%]')[1]
    assert.equal("getByRole('button', { name: 'Add to list' })", located(list).locator)
    assert.equal(0, #page:generate_locator(checkout, { alternatives = 0 }).alternatives)
  end)

  it("names form fields by role and name, with the label and placeholder as alternatives", function()
    local email = refs_of(snap, 'textbox "Email address" %[ref=(e%d+)%]')[1]
    local loc = located(email)
    assert.equal("getByRole('textbox', { name: 'Email address' })", loc.locator)
    assert.same({ "getByLabel('Email address')", "locator('#email')" },
      { loc.alternatives[1].locator, loc.alternatives[2].locator })
    assert.same({ "label", "css" }, { loc.alternatives[1].kind, loc.alternatives[2].kind })
    local promo = located(refs_of(snap, 'textbox "Promo code" %[ref=(e%d+)%]')[1])
    assert.equal("getByPlaceholder('Promo code')", promo.alternatives[1].locator)
  end)

  it("scopes to rows by their text and to named forms and dialogs", function()
    local remove = refs_of(snap, 'button "Remove" %[ref=(e%d+)%]')
    assert.equal("getByRole('listitem').filter({ hasText: 'Buy milk' }).getByRole('button', { name: 'Remove' })",
      located(remove[1]).locator)
    assert.equal("getByRole('listitem').filter({ hasText: 'Pay rent' }).getByRole('button', { name: 'Remove' })",
      located(remove[2]).locator)
    local save = refs_of(snap, 'button "Save" %[ref=(e%d+)%]')
    assert.equal("getByRole('form', { name: 'Sign up' }).getByRole('button', { name: 'Save' })", located(save[1]).locator)
    assert.equal("getByRole('dialog', { name: 'Edit profile' }).getByRole('button', { name: 'Save' })",
      located(save[2]).locator)
  end)

  it("locates assertion targets: a message by its text, cards and rows by their own first text", function()
    local msg = refs_of(snap, "paragraph %[ref=(e%d+)%]: Your changes were saved%.")[1]
    assert.equal("getByText('Your changes were saved.')", located(msg).locator)
    -- A long message by its first words, cut between words.
    local long = refs_of(snap, "paragraph %[ref=(e%d+)%]: Your order ships")[1]
    assert.equal("getByText('Your order ships within two working days of payment, and you')", located(long).locator)
    local plans = refs_of(snap, "generic %[ref=(e%d+)%]:\n%s+%- heading \"[BP]")
    assert.equal(2, #plans)
    local basic = located(plans[1])
    assert.equal("getByTestId('plan').filter({ hasText: 'Basic' })", basic.locator)
    assert.equal("getByTestId('plan').filter({ hasText: '$5 a month' })", basic.alternatives[1].locator)
    assert.equal("getByTestId('plan').filter({ hasText: 'Pro' })", located(plans[2]).locator)
    local steps = refs_of(snap, "listitem %[ref=(e%d+)%]: [PB]")
    assert.equal("getByRole('listitem').filter({ hasText: 'Preheat the oven' })", located(steps[1]).locator)
    assert.equal("getByRole('listitem').filter({ hasText: 'Bake the bread' })", located(steps[2]).locator)
  end)

  it("goes through the only row of a table, filtered by its text, so a second row keeps it unique", function()
    local refund = refs_of(snap, 'button "Refund" %[ref=(e%d+)%]')[1]
    local loc = located(refund)
    assert.equal("getByTestId('order-row').filter({ hasText: 'Ann Lee' }).getByRole('button', { name: 'Refund' })",
      loc.locator)
    -- Unique today too, so offered after it.
    assert.equal("getByRole('button', { name: 'Refund' })", loc.alternatives[1].locator)
    local row = refs_of(snap, 'row %[ref=(e%d+)%]:\n%s+%- cell "#7731')[1]
    local rl = located(row)
    assert.equal("getByTestId('order-row').filter({ hasText: 'Ann Lee' })", rl.locator)
    assert.equal("getByTestId('order-row')", rl.alternatives[1].locator)
    -- The header row is no item: its controls keep their own locators.
    local sort = refs_of(snap, 'button "Sort by status" %[ref=(e%d+)%]')[1]
    assert.equal("getByRole('button', { name: 'Sort by status' })", located(sort).locator)
  end)

  it("filters by a heading's exact name when another card's heading holds it", function()
    local compare = refs_of(snap, 'button "Compare" %[ref=(e%d+)%]')
    assert.equal("getByRole('article').filter({ has: page.getByRole('heading', { name: 'Desk Lamp', exact: true }) })"
      .. ".getByRole('button', { name: 'Compare' })", located(compare[1]).locator)
    assert.equal("getByRole('article').filter({ hasText: 'Desk Lamp Pro' }).getByRole('button', { name: 'Compare' })",
      located(compare[2]).locator)
    -- As a test file writes it: the nested chain starts at the page too.
    assert.equal("await expect(alice.getByRole('article').filter({ has: alice.getByRole('heading', "
      .. "{ name: 'Desk Lamp', exact: true }) })).toBeVisible();",
      require("vdx.assertions").code({ matcher = "toBeVisible",
        locator = "getByRole('article').filter({ has: page.getByRole('heading', { name: 'Desk Lamp', exact: true }) })" },
        "alice"))
  end)

  it("scopes by a card's test id before the bare role of the article inside it", function()
    local buy = located(refs_of(snap, 'button "Buy" %[ref=(e%d+)%]')[1])
    assert.equal("getByTestId('offer-card').filter({ hasText: 'Tea Pot' }).getByRole('button', { name: 'Buy' })",
      buy.locator)
    local alts = {}
    for _, a in ipairs(buy.alternatives) do alts[a.locator] = true end
    assert.is_true(alts["getByRole('article').filter({ hasText: 'Tea Pot' }).getByRole('button', { name: 'Buy' })"],
      require("cjson").encode(buy.alternatives))
    -- A card told apart by its heading's exact name goes by the id too.
    local cup = located(refs_of(snap, 'button "Buy" %[ref=(e%d+)%]')[2])
    assert.equal("getByTestId('offer-card').filter({ has: page.getByRole('heading', { name: 'Tea Cup', exact: true }) })"
      .. ".getByRole('button', { name: 'Buy' })", cup.locator)
    -- The card that shows the test's run token goes by the id too.
    local set = located(refs_of(snap, 'button "Buy" %[ref=(e%d+)%]')[3], { anchor = "zq9x7k2m" })
    assert.equal("getByTestId('offer-card').filter({ hasText: 'Tea Set zq9x7k2m' }).getByRole('button', { name: 'Buy' })",
      set.locator)
  end)

  it("scopes a panel by its section's name, not by what its status says in one state", function()
    page:evaluate([[document.body.innerHTML = ['One', 'Two'].map((n, i) => '<section aria-labelledby="h' + i
      + '"><h2 id="h' + i + '">' + n + ' guide</h2><div data-testid="live-example"><h3>Live example</h3>'
      + '<button>Subscribe</button><p role="status">' + (i ? 'Subscribed: Ada zq9x7k2m (weekly)' : '')
      + '</p></div></section>').join('')]])
    local two = assert(page:snapshot().text:match('region "Two guide" %[ref=e%d+%]:(.*)$'))
    local panel = assert(two:match("%- generic %[ref=(e%d+)%]"), two)
    -- (Run EU's check of the panel's colour went through "Subscribed: Ada
    -- ${run} (weekly)", which its status shows only after the
    -- subscription.)
    assert.equal("getByRole('region', { name: 'Two guide' }).getByTestId('live-example')",
      located(panel, { anchor = "zq9x7k2m" }).locator)
    assert.equal("getByRole('region', { name: 'Two guide' }).getByTestId('live-example')", located(panel).locator)
    -- The same text outside a live region tells the panel apart.
    page:evaluate("document.querySelectorAll('[role=status]')[1].removeAttribute('role')")
    assert.equal("getByTestId('live-example').filter({ hasText: 'Subscribed: Ada zq9x7k2m (weekly)' })",
      located(panel).locator)
    page:navigate(srv.url .. PAGE)
    snap = page:snapshot { budget_tokens = 100000 }.text
  end)

  it("scopes an element known by its bare role through the named part of the page it is in", function()
    page:evaluate([[document.body.innerHTML = '<nav aria-label="Table of contents"><ul><li><a href="#a">A</a></li>'
      + '</ul></nav><p>Intro</p>']])
    local toc = assert(page:snapshot().text:match("%- list %[ref=(e%d+)%]"))
    -- (Stop 66's run EQ: getByRole('list') is unique only while the
    -- contents hold the page's one list.)
    local loc = located(toc)
    assert.equal("getByRole('navigation', { name: 'Table of contents' }).getByRole('list')", loc.locator)
    assert.equal("getByRole('list')", loc.alternatives[#loc.alternatives].locator)
    -- In no named part: its bare role.
    page:evaluate("document.querySelector('nav').removeAttribute('aria-label')")
    toc = assert(page:snapshot().text:match("%- list %[ref=(e%d+)%]"))
    assert.equal("getByRole('list')", located(toc).locator)
    -- A live region's text is the page's state: its role and scope first
    -- (run EZ's counter was getByText('3', { exact: true })).
    page:evaluate([[document.body.innerHTML = '<section aria-label="Cart"><p>Items: <output>3</output></p></section>'
      + '<p>3</p>']])
    local count = assert(page:snapshot().text:match("%- status %[ref=(e%d+)%]"))
    assert.equal("getByRole('region', { name: 'Cart' }).getByRole('status')", located(count).locator)
    -- Beside another status in its part: by its tag there (runs EZ and FD
    -- wrote a section's counter by hand), with the text it shows or not.
    page:evaluate([[document.body.innerHTML = ['One', 'Two'].map((n, i) => '<section aria-label="' + n + '"><p>Count: '
      + '<output>' + (i + 1) + '</output></p><p role="status">Saved</p></section>').join('')]])
    count = assert(page:snapshot().text:match('%- status %[ref=(e%d+)%]: "2"'))
    assert.equal("getByRole('region', { name: 'Two' }).locator('output')", located(count).locator)
    assert.equal("getByRole('region', { name: 'Two' }).locator('output')", located(count, { avoid = "2" }).locator)
    page:navigate(srv.url .. PAGE)
    snap = page:snapshot { budget_tokens = 100000 }.text
  end)

  it("quotes names with quotes and backslashes so that they read back", function()
    local ref = refs_of(snap, 'button "Say \\"hi\\" to O\'Brien \\\\ now" %[ref=(e%d+)%]')[1]
    local loc = located(ref)
    assert.equal([[getByRole('button', { name: 'Say "hi" to O\'Brien \\ now' })]], loc.locator)
    assert.equal([[getByText('Say "hi" to O\'Brien \\ now')]], loc.alternatives[1].locator)
    local tab = located(refs_of(snap, 'button "Tab" %[ref=(e%d+)%]')[1])
    assert.equal([[getByTestId('o\'brien\\tab')]], tab.locator)
    -- A name written over two lines is matched in its normalized form.
    local two = located(refs_of(snap, 'button "Line one line two" %[ref=(e%d+)%]')[1])
    assert.equal("getByRole('button', { name: 'Line one line two' })", two.locator)
  end)

  it("reads a name's no-break spaces as Playwright's role engine does, and writes the name normalized", function()
    page:evaluate([[document.body.innerHTML = '<a href="#">\u00a0Home\u00a0page\u00a0</a><button>Go</button>']])
    local ref = page:snapshot().text:match('link "Home page" %[ref=(e%d+)%]')
    -- The accessible name keeps its no-break spaces (Chromium's tree does);
    -- a role locator reads it with its white space normalized.
    assert.equal("getByRole('link', { name: 'Home page' })", located(ref).locator)
    assert.equal(1, page:locator_count("getByRole('link', { name: 'Home page', exact: true })").count)
    assert.equal(1, page:locator_count("getByRole('link', { name: /^Home page$/ })").count)
    page:navigate(srv.url .. PAGE)
    snap = page:snapshot { budget_tokens = 100000 }.text
  end)

  it("reaches into open shadow roots, scoped by the host's test id when the name repeats", function()
    assert.equal("getByRole('button', { name: 'Shadow Save' })",
      located(refs_of(snap, 'button "Shadow Save" %[ref=(e%d+)%]')[1]).locator)
    local twins = refs_of(snap, 'button "Twin Save" %[ref=(e%d+)%]')
    assert.equal("getByTestId('panel-a').getByRole('button', { name: 'Twin Save' })", located(twins[1]).locator)
    assert.equal("getByTestId('panel-b').getByRole('button', { name: 'Twin Save' })", located(twins[2]).locator)
  end)

  it("falls back to .nth() only when nothing else tells the element apart, and says so", function()
    local del = refs_of(snap, 'button "Delete" %[ref=(e%d+)%]')
    for i, ref in ipairs(del) do
      local loc = located(ref)
      assert.equal("getByRole('button', { name: 'Delete' }).nth(" .. (i - 1) .. ")", loc.locator)
      assert.is_true(loc.positional)
      assert.matches("^positional: 2 elements match getByRole%('button', { name: 'Delete' }%)", loc.note)
      assert.same({}, loc.alternatives)
    end
  end)

  it("refuses a bad ref or option and reports a ref the page never gave", function()
    assert.equal("InvalidArgument", h.error_of(page.generate_locator, page, "button").type)
    assert.equal("InvalidArgument", h.error_of(page.generate_locator, page, "e1", { nope = 1 }).type)
    assert.equal("InvalidArgument", h.error_of(page.generate_locator, page, "e1", { alternatives = -1 }).type)
    assert.equal("UnknownRef", h.error_of(page.generate_locator, page, "e999").type)
    assert.equal("InvalidArgument", h.error_of(page.generate_locator, page, "e1", { batch = "" }).type)
    assert.equal("InvalidArgument", h.error_of(page.generate_locator, page, "e1", { batch = 7 }).type)
  end)

  it("shares one reading of the document within a batch only while the page does not change", function()
    local assertions = require "vdx.assertions"
    page:evaluate([[document.body.innerHTML = '<button id=b>Save draft</button><input id=i aria-label=Note><p id=p>one</p>']])
    local ref = page:snapshot().text:match('button "Save draft" %[ref=(e%d+)%]')
    assert.equal("getByRole('button', { name: 'Save draft' })",
      page:generate_locator(ref, { alternatives = 0, batch = "t1" }).locator)
    assert.equal(1, assertions.facts(page, "getByRole('button', { name: 'Save draft' })", { batch = "t1" }).count)
    -- A mutation between two calls of the batch: the second reads the new page.
    page:evaluate("document.getElementById('b').textContent = 'Publish'")
    assert.equal(0, assertions.facts(page, "getByRole('button', { name: 'Save draft' })", { batch = "t1" }).count)
    assert.equal(1, assertions.facts(page, "getByRole('button', { name: 'Publish' })", { batch = "t1" }).count)
    assert.equal("getByRole('button', { name: 'Publish' })",
      page:generate_locator(ref, { alternatives = 0, batch = "t1" }).locator)
    -- A field's input event (its value is no attribute): the new value names nothing
    -- here, but the text a paragraph gets by a later mutation is read anew.
    local field = page:snapshot().text:match('textbox "Note" %[ref=(e%d+)%]')
    page:type(field, "hello")
    assert.equal("hello", assertions.facts(page, "getByRole('textbox', { name: 'Note' })", { batch = "t1" }).matches[1].value)
    page:evaluate("document.getElementById('p').textContent = 'two'")
    assert.equal(1, assertions.facts(page, "getByText('two')", { batch = "t1" }).count)
    -- Another batch, or none, reads the page as it is too.
    assert.equal(1, assertions.facts(page, "getByText('two')", { batch = "t2" }).count)
    assert.equal(1, assertions.facts(page, "getByText('two')").count)
    page:navigate(srv.url .. PAGE)
    snap = page:snapshot { budget_tokens = 100000 }.text
  end)

  it("starts from the latest snapshot's reading of the page only while the page does not change", function()
    local assertions = require "vdx.assertions"
    page:evaluate([[document.body.innerHTML = '<style>.b { display: none } #w:focus-within .b { display: inline }</style>'
      + '<div id=w><input aria-label=Field><button class=b>Reveal</button></div><button id=n>Old</button>'
      + '<div popover id=pop><button>Inside</button></div>']])
    page:snapshot()
    assert.equal(0, assertions.facts(page, "getByRole('button', { name: 'Reveal' })").count)
    -- Focus shows the button by a style rule alone: no mutation to see.
    page:evaluate("document.querySelector('input').focus()")
    assert.equal(1, assertions.facts(page, "getByRole('button', { name: 'Reveal' })").count)
    -- So does a popover that opens (its state is no attribute).
    page:snapshot()
    assert.equal(0, assertions.facts(page, "getByRole('button', { name: 'Inside' })").count)
    page:evaluate("document.getElementById('pop').showPopover()")
    assert.equal(1, assertions.facts(page, "getByRole('button', { name: 'Inside' })").count)
    -- A style sheet's rule changed through the CSSOM tells nothing; the
    -- reading is 2 s old at most.
    page:snapshot()
    page:evaluate("document.styleSheets[0].insertRule('#n { display: none }')")
    vdx.sleep(2100)
    assert.equal(0, assertions.facts(page, "getByRole('button', { name: 'Old' })").count)
    page:evaluate("document.styleSheets[0].deleteRule(0)")
    page:snapshot()
    page:evaluate("document.getElementById('n').textContent = 'New'")
    assert.equal(1, assertions.facts(page, "getByRole('button', { name: 'New' })").count)
    assert.equal("getByRole('button', { name: 'New' })",
      page:generate_locator(page:snapshot().text:match('button "New" %[ref=(e%d+)%]'), { alternatives = 0 }).locator)
    page:navigate(srv.url .. PAGE)
    snap = page:snapshot { budget_tokens = 100000 }.text
  end)

  it("filters many cards by what they hold as it filters each one alone", function()
    -- Seven cards: a heading of its own, one in a shadow root, one named
    -- otherwise, two nested (both hold the inner one's), a hidden one, and
    -- a card whose own text is the word (it holds no element that says it).
    page:evaluate([[document.body.innerHTML =
      '<div data-testid=card><h3>Lamp</h3></div>' +
      '<div data-testid=card><span id=host></span></div>' +
      '<div data-testid=card><h3>Desk</h3></div>' +
      '<div data-testid=card><div data-testid=card><h3>Lamp</h3></div></div>' +
      '<div data-testid=card><h3 hidden>Lamp</h3></div>' +
      '<div data-testid=card>Lamp</div>';
      document.getElementById('host').attachShadow({ mode: 'open' }).innerHTML = '<h3>Lamp</h3>']])
    local cases = {
      { "{ has: page.getByRole('heading', { name: 'Lamp' }) }", 4 },
      { "{ hasNot: page.getByRole('heading', { name: 'Lamp' }) }", 3 },
      { "{ has: page.getByText('Lamp', { exact: true }) }", 5 },
      { "{ hasNot: page.getByText('Lamp', { exact: true }) }", 2 },
      { "{ has: page.getByTestId('card') }", 1 },
    }
    for _, c in ipairs(cases) do
      -- All seven at once (one search of the document), then each alone.
      local all = page:locator_count("getByTestId('card').filter(" .. c[1] .. ")").count
      local one = 0
      for i = 0, 6 do
        one = one + page:locator_count(("getByTestId('card').nth(%d).filter(%s)"):format(i, c[1])).count
      end
      assert.same({ c[1], c[2], c[2] }, { c[1], all, one })
    end
    page:navigate(srv.url .. PAGE)
    snap = page:snapshot { budget_tokens = 100000 }.text
  end)

  it("takes a few milliseconds a ref on the shop page of 200 products (measured, not asserted)", function()
    page:navigate(srv.url .. "/snapshot/shop.html")
    local text = page:snapshot { budget_tokens = 200000 }.text
    local n, positional, t0 = 0, 0, vdx.now()
    for ref in text:gmatch("%[ref=(e%d+)%]") do
      n = n + 1
      if page:generate_locator(ref).positional then positional = positional + 1 end
      if n == 100 then break end
    end
    local ms = vdx.now() - t0
    print(("# generate_locator on /snapshot/shop.html: %d refs in %d ms (%.1f ms a ref), %d positional")
      :format(n, ms, ms / n, positional))
    assert.equal(100, n)
  end)

  it("leaves a count out of a name when the words before it are unique: the count changes with the data", function()
    page:navigate(srv.url .. "/locators/counted.html")
    local text = page:snapshot { budget_tokens = 100000 }.text
    local cart = located(refs_of(text, 'link "Cart %(2%)" %[ref=(e%d+)%]')[1])
    -- "Carts help" holds "Cart" too: the name with any count.
    assert.equal("getByRole('link', { name: /^Cart\\s*\\(\\d+\\)$/ })", cart.locator)
    local saved = located(refs_of(text, 'link "Saved for later %(0%)" %[ref=(e%d+)%]')[1])
    assert.equal("getByRole('link', { name: 'Saved for later' })", saved.locator)
    assert.equal("getByRole('link', { name: 'Saved for later (0)' })", saved.alternatives[1].locator)
    -- "Inbox" names another button: a count, any count, tells them apart.
    local inbox = located(refs_of(text, 'button "Inbox %(3%)" %[ref=(e%d+)%]')[1])
    assert.equal("getByRole('button', { name: /^Inbox\\s*\\(\\d+\\)$/ })", inbox.locator)
  end)
end)

describe("page:generate_locator in child frames", function()
  local browser, srv, page, base

  setup(function() srv, browser, page, base = h.open_sites() end)

  teardown(function() h.shut(browser, srv) end)

  it("leads into the frame through its owner's locator, each part verified in its own document", function()
    page:navigate(srv.url .. "/frames/one.html")
    local text = page:snapshot().text
    local ref = refs_of(text, 'button "Inner button" %[ref=(f%d+e%d+)%]')[1]
    local loc = page:generate_locator(ref)
    assert.equal("getByTitle('Inner').contentFrame().getByRole('button', { name: 'Inner button' })", loc.locator)
    assert.equal("getByTitle('Inner').contentFrame()", loc.frame_locator)
    assert.equal(ref:match("^(f%d+)e%d"), loc.frame)
    assert.same({ ref }, page:locator_count(loc.frame_relative, { frame = ref }).refs)
    assert.same({ refs_of(text, 'iframe "Inner" %[ref=(e%d+)%]')[1] }, page:locator_count("getByTitle('Inner')").refs)
    assert.equal("getByTitle('Inner').contentFrame().getByText('Inner button')", loc.alternatives[1].locator)
    -- The snapshot's `iframe` is no role getByRole finds, as in Playwright.
    assert.same({}, page:locator_count("getByRole('iframe')").refs)
    -- A cross-origin frame, whose document lives in another process.
    page:navigate(base .. "/frames/xo-main.html")
    text = page:snapshot().text
    local pay = refs_of(text, 'button "Pay now" %[ref=(f%d+e%d+)%]')[1]
    local xo = page:generate_locator(pay)
    assert.equal("getByTitle('Payment').contentFrame().getByRole('button', { name: 'Pay now' })", xo.locator)
    assert.same({ pay }, page:locator_count(xo.frame_relative, { frame = pay }).refs)
  end)
end)

describe("the locators the MCP tools name", function()
  local srv
  setup(function() srv = h.serve() end)
  teardown(function() srv:close() end)

  it("puts a verified Locator line in every action's answer and generates one for any ref", function()
    local s = client.start("")
    local _, call = client.caller(s)
    call("browser_navigate", { url = srv.url .. PAGE })
    local text = call("browser_snapshot", {}).content[1].text
    local checkout = text:match('button "Checkout" %[ref=(e%d+)%]')
    local card = refs_of(text, 'button "Add to Cart" %[ref=(e%d+)%]')[3]

    local click = call("browser_click", { ref = card })
    assert.is_nil(click.isError, client.text({ result = click }))
    local card_loc = "getByTestId('product-card').filter({ hasText: 'Walnut Desk' }).getByRole('button', { name: 'Add to Cart' })"
    assert.matches("^Clicked " .. card .. "\nLocator: " .. card_loc:gsub("%p", "%%%0") .. "\n", click.content[1].text)
    assert.equal(card_loc, click.structuredContent.locator)

    -- A target given as a description names the element it found.
    local hover = call("browser_hover", { element = "Checkout" })
    assert.is_nil(hover.isError, client.text({ result = hover }))
    assert.matches("\nLocator: getByRole('button', { name: 'Checkout' })", hover.content[1].text, 1, true)

    local email = text:match('textbox "Email address" %[ref=(e%d+)%]')
    local promo = text:match('textbox "Promo code" %[ref=(e%d+)%]')
    local form = call("browser_fill_form", { fields = {
      { name = "Email", type = "textbox", ref = email, value = "a@b.test" },
      { name = "Promo", type = "textbox", ref = promo, value = "SPRING" } } })
    assert.is_nil(form.isError, client.text({ result = form }))
    assert.matches("^Filled 2 fields %(steps %d+%-%d+%)\n"
      .. "Locator: getByRole%('textbox', { name: 'Email address' }%)\n" ..
      "Locator: getByRole%('textbox', { name: 'Promo code' }%)\n", form.content[1].text)
    assert.same({ "getByRole('textbox', { name: 'Email address' })", "getByRole('textbox', { name: 'Promo code' })" },
      form.structuredContent.locators)

    local key = call("browser_press_key", { key = "End", ref = email })
    assert.is_nil(key.isError, client.text({ result = key }))
    assert.matches("^Pressed End on " .. email .. "[^\n]*\nLocator: getByRole%('textbox', { name: 'Email address' }%)",
      key.content[1].text)

    local size = text:match('combobox "Size" %[ref=(e%d+)%]')
    local sel = call("browser_select_option", { ref = size, values = { "Large" } })
    assert.is_nil(sel.isError, client.text({ result = sel }))
    assert.matches("\nLocator: getByRole('combobox', { name: 'Size' })\n", sel.content[1].text, 1, true)
    local avatar = text:match('button "Avatar" %[ref=(e%d+)%]')
    local file = os.getenv("PWD") .. "/spec/fixtures" .. PAGE
    local up = call("browser_file_upload", { ref = avatar, paths = { file } })
    assert.is_nil(up.isError, client.text({ result = up }))
    assert.equal("getByRole('button', { name: 'Avatar' })", up.structuredContent.locator)

    local drag = call("browser_drag", { startRef = checkout, endRef = email })
    assert.is_nil(drag.isError, client.text({ result = drag }))
    assert.same({ "getByRole('button', { name: 'Checkout' })", "getByRole('textbox', { name: 'Email address' })" },
      drag.structuredContent.locators)

    local gen = call("browser_generate_locator", { ref = checkout })
    assert.is_nil(gen.isError, client.text({ result = gen }))
    assert.equal("Locator: getByRole('button', { name: 'Checkout' })\nAlternatives, best first:\n" ..
      "1. getByText('Checkout') (text, matches 1)\n2. getByRole('banner').getByRole('button') (container, matches 1)",
      gen.content[1].text)
    assert.is_false(gen.structuredContent.positional)

    local twin = refs_of(text, 'button "Delete" %[ref=(e%d+)%]')[2]
    local pos = call("browser_generate_locator", { ref = twin })
    assert.matches("^Locator: getByRole%('button', { name: 'Delete' }%)%.nth%(1%)\n⚠️ Positional: ", pos.content[1].text)
    assert.is_true(pos.structuredContent.positional)
    assert.same({}, pos.structuredContent.alternatives)
    local out = assert(io.open(s.dir .. "/out")):read("a")
    assert.truthy(out:find('"alternatives":[]', 1, true))
    assert.equal(0, (s:close(20000)))
  end)
end)
