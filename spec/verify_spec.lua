-- The verify tools against the real browser: each agrees (and records an
-- assertion whose locator matches exactly the checked element) or
-- disagrees with isError and the page's actual facts; matches without
-- refs (paragraphs, containers, list items) never crash them.
local helpers = require "helpers"

describe("the verify tools", function()
  local t = {}
  setup(function() helpers.start_tool_session(t) end)
  teardown(function() helpers.stop_tool_session(t) end)
  local snap
  local function call(name, args) return t.call(name, args) end

  before_each(function()
    local res, text = call("browser_navigate", { url = t.srv.url .. "/verify/app.html" })
    assert.is_nil(res.isError, text)
    res, snap = call("browser_snapshot", {})
    assert.is_nil(res.isError, snap)
    t.ctx.session:clear()
  end)

  local function ref(pattern)
    return assert(snap:match(pattern .. "[^\n]-%[ref=(e%d+)%]"), "no " .. pattern .. " in:\n" .. snap)
  end

  local function page() return t.ctx.role:page() end

  -- The one assertion recorded so far, checked to match exactly one element
  -- (or, for the items of a list, as many as it names).
  local function recorded()
    local steps = helpers.asserts(t.ctx.session)
    assert.equal(1, #steps)
    local s = steps[1]
    assert.equal("assert", s.kind)
    assert.equal("default", s.role)
    local n = page():locator_count(s.locator).count
    if type(s.value) ~= "table" then
      assert.equal(1, n, s.locator .. " is not unique")
    elseif s.matcher == "toHaveText" then
      assert.equal(#s.value, n, s.locator)
    else
      assert.is_true(n >= #s.value, s.locator)
    end
    return s
  end

  local function agrees(name, args)
    local res, text = call(name, args)
    assert.is_nil(res.isError, text)
    assert.matches("^✅ Page agrees%. Recorded: await expect%(page%.", text)
    assert.is_true(res.structuredContent.verified)
    assert.is_true(res.structuredContent.recorded)
    return recorded(), text, res
  end

  local function disagrees(name, args)
    local res, text = call(name, args)
    assert.is_true(res.isError, text)
    assert.equal("❌ The page does not agree", text:match("^[^\n]*"))
    assert.equal(0, #helpers.asserts(t.ctx.session))
    return text
  end

  it("checks the successor of an element a framework re-rendered, as the acting tools act on it", function()
    call("browser_navigate", { url = t.srv.url .. "/verify/rerender.html" })
    local _, list = call("browser_snapshot", {})
    local dishes = assert(list:match('checkbox "Dishes" %[ref=(e%d+)%]'), list)
    local laundry = assert(list:match('checkbox "Laundry" %[ref=(e%d+)%]'), list)
    -- The click renders the whole list again: Laundry's ref is stale.
    call("browser_click", { ref = dishes })
    t.ctx.session:clear()
    local s, text = agrees("browser_verify_value", { ref = laundry, value = "false" })
    assert.equal("getByRole('checkbox', { name: 'Laundry' })", s.locator)
    assert.matches("\nNote: " .. laundry .. " was re%-rendered; used its successor e%d+ %(same role and name%)$", text)
  end)

  describe("browser_verify_element_visible", function()
    it("records toBeVisible for a role and name the page shows", function()
      local s, text = agrees("browser_verify_element_visible", { role = "button", accessibleName = "Add task" })
      -- (and its number in the test, the next after the navigation)
      assert.same({ kind = "assert", role = "default", matcher = "toBeVisible",
        locator = "getByRole('button', { name: 'Add task' })", tool = "browser_verify_element_visible", no = s.no }, s)
      assert.is_true(math.type(s.no) == "integer" and s.no >= 1)
      -- (With its step's number, which drop takes: runs BG, BI and BJ
      -- exported to learn it.)
      assert.equal("✅ Page agrees. Recorded: await expect(page.getByRole('button', { name: 'Add task' })).toBeVisible(); "
        .. ("(step %d)"):format(s.no), text)
    end)

    it("records a locator that singles out one of several matches (a container's test id and text)", function()
      local s, text = agrees("browser_verify_element_visible", { role = "button", accessibleName = "Delete" })
      assert.matches("^getByTestId%('card'%)%.filter%({ hasText: 'Alpha' }%)%.getByRole%('button', { name: 'Delete'", s.locator)
      -- Which one of them is said (run EB's Add to cart, one of three).
      assert.matches("\n%d visible elements match getByRole%('button', { name: 'Delete' }%): the check is of the "
        .. "first of them, as its locator says$", text)
    end)

    it("checks elements that have no ref: a heading, a named list, a form", function()
      local s = agrees("browser_verify_element_visible", { role = "heading", accessibleName = "Tasks" })
      assert.equal("getByRole('heading', { name: 'Tasks' })", s.locator)
      t.ctx.session:clear()
      s = agrees("browser_verify_element_visible", { role = "list", accessibleName = "Tasks" })
      assert.equal("getByRole('list', { name: 'Tasks' })", s.locator)
      t.ctx.session:clear()
      s = agrees("browser_verify_element_visible", { role = "form", accessibleName = "Settings" })
      assert.equal("getByRole('form', { name: 'Settings' })", s.locator)
    end)

    it("checks the text of the one status given its text as a name, which it takes none from", function()
      call("browser_navigate", { url = t.srv.url .. "/verify/status.html" })
      local want = "Added “Oak Stool” at $38.25."
      local _, text = call("browser_verify_element_visible", { role = "status", accessibleName = want })
      assert.equal(1, text:find("A status takes no accessible name from its text: its text is checked.\n✅ Page "
        .. "agrees. Recorded: await expect(page.getByRole('status')).toHaveText('" .. want .. "');", 1, true), text)
      t.ctx.session:clear()
    end)

    it("says a status takes no name from its text when there are several, listing it once", function()
      call("browser_navigate", { url = t.srv.url .. "/verify/statuses.html" })
      local want = "Added “Oak Stool” at $38.25."
      local text = disagrees("browser_verify_element_visible", { role = "status", accessibleName = want })
      assert.matches("a status takes no accessible name from its text: check the text with "
        .. "browser_verify_text_visible(text='" .. want .. "')", text, 1, true)
      local _, n = text:gsub("status <p> text 'Added", "")
      assert.equal(1, n, text)
      -- What the hint says does agree.
      local _, ok = call("browser_verify_text_visible", { text = want })
      assert.matches("^✅", ok)
      t.ctx.session:clear()
    end)

    it("fails with the nearest elements of that role when none has the name", function()
      local text = disagrees("browser_verify_element_visible", { role = "button", accessibleName = "Remove task" })
      assert.matches("\nExpected: button 'Remove task' visible\n", text, 1, true)
      -- The button sharing a word comes first; the rest follow in page order.
      assert.matches("\nPage has: button 'Add task' <button> [ref=e", text, 1, true)
      assert.matches("\nMatches: 0\n", text, 1, true)
    end)

    it("looks in frames too, and records what it finds there with the chain into its frame", function()
      call("browser_navigate", { url = t.srv.url .. "/explore/frame.html" })
      local res, text = call("browser_verify_element_visible", { role = "button", accessibleName = "Buy" })
      assert.is_nil(res.isError, text)
      local steps = helpers.asserts(t.ctx.session)
      assert.equal(1, #steps, text)
      -- Two cards have a Buy button: the first is recorded, scoped to its card.
      assert.equal("getByTitle('Cards').contentFrame().getByTestId('card').filter({ hasText: 'One' })"
        .. ".getByRole('button', { name: 'Buy' })", steps[1].locator)
      -- The recorded chain matches that one button from the page.
      assert.equal(1, t.ctx.role:page():locator_count(steps[1].locator).count)
    end)

    it("fails on a match that is hidden, saying so", function()
      local text = disagrees("browser_verify_element_visible", { role = "button", accessibleName = "Cancel" })
      assert.matches("getByRole('button', { name: 'Cancel' }) matches nothing", text, 1, true)
      text = disagrees("browser_verify_element_visible", { role = "dialog", accessibleName = "Confirm" })
      assert.matches("Matches: 0", text, 1, true)
    end)
  end)

  it("checks a table row given its cells apart, as the outline shows them, by its cells' texts", function()
    -- (Runs DE and DI recorded the row's run-together text, 'Linen Tote Bag2$24.00'.)
    t.ctx:page():evaluate([[(() => { const tb = document.createElement('table'); tb.setAttribute('aria-label', 'Cart');
      tb.innerHTML = '<tr><th>Item</th><th>Qty</th><th>Price</th><th></th></tr><tr><td>Linen Tote Bag</td><td>2</td>'
        + '<td>$24.00</td><td><button>Remove</button></td></tr>'; document.body.prepend(tb); })()]])
    local row = "getByRole('row').filter({ hasText: 'Linen Tote Bag' })"
    local s, text = agrees("browser_verify_text_visible", { text = "Linen Tote Bag 2 $24.00", locator = row })
    -- (All its cells: the outline leaves out a last one of controls.)
    assert.same({ "toHaveText", row .. ".getByRole('cell')", { "Linen Tote Bag", "2", "$24.00", "Remove" } },
      { s.matcher, s.locator, s.value })
    assert.matches(".getByRole('cell')).toHaveText(['Linen Tote Bag', '2', '$24.00', 'Remove']);", text, 1, true)
    t.ctx.session:clear()
    s = agrees("browser_verify_text_visible", { text = "[Linen Tote Bag | 2 | $24.00]", locator = row })
    assert.same({ "Linen Tote Bag", "2", "$24.00", "Remove" }, s.value)
    t.ctx.session:clear()
    disagrees("browser_verify_text_visible", { text = "Linen Tote Bag 3 $24.00", locator = row })
  end)

  describe("absent", function()
    -- The steps recorded so far, as matcher, locator and value.
    local function steps()
      local out = {}
      for i, st in ipairs(helpers.asserts(t.ctx.session)) do out[i] = { st.matcher, st.locator, st.value } end
      return out
    end

    it("records toHaveCount(0) for a text no visible element shows, on the page or in one element", function()
      local res, text = call("browser_verify_text_visible", { text = "Feed the cat", absent = true })
      assert.is_nil(res.isError, text)
      assert.matches("^✅ Page agrees%. Recorded: await expect%(page%.getByText%('Feed the cat'%)%.filter%(%{ visible: "
        .. "true %}%)%)%.toHaveCount%(0%); %(step %d+%)\n%(It holds for a text or name the page never shows", text)
      -- A hidden dialog's text is not shown; in a card, a text the list shows is not either.
      -- (What such a check proves is said once a session.)
      local again
      res, again = call("browser_verify_text_visible", { text = "Delete everything?", absent = true })
      assert.is_nil(res.isError, again)
      assert.is_nil(again:find("It holds for", 1, true), again)
      local card = "getByTestId('card').filter({ hasText: 'Alpha' })"
      res, text = call("browser_verify_text_visible", { text = "Buy milk", locator = card, absent = true })
      assert.is_nil(res.isError, text)
      assert.same({ { "toHaveCount", "getByText('Feed the cat').filter({ visible: true })", 0 },
        { "toHaveCount", "getByText('Delete everything?').filter({ visible: true })", 0 },
        { "toHaveCount", card .. ".getByText('Buy milk').filter({ visible: true })", 0 } }, steps())
      -- Shown: the answer names where, and nothing is recorded.
      res, text = call("browser_verify_text_visible", { text = "Buy milk", absent = true })
      assert.is_true(res.isError, text)
      assert.matches("getByText('Buy milk').filter({ visible: true }) matches 1 element: it shows. If the app should "
        .. "not show it here, that is its bug (known_bug records the check failing)", text, 1, true)
      assert.matches("Page has: listitem <li> text 'Buy milk'", text, 1, true)
      assert.equal(3, #steps())
    end)

    it("records toHaveCount(0) for a role and name not shown, and a known bug of one that shows", function()
      local res, text = call("browser_verify_element_visible", { role = "dialog", accessibleName = "Confirm", absent = true })
      assert.is_nil(res.isError, text)
      res, text = call("browser_verify_element_visible", { role = "button", accessibleName = "Add task", absent = true })
      assert.is_true(res.isError, text)
      -- The bug is that it shows: recorded failing, for test.fail().
      res, text = call("browser_verify_text_visible", { text = "Walk the dog", absent = true,
        known_bug = "A finished task stays in the list" })
      assert.matches("^❌ Page disagrees, as the bug does%. Recorded as a known bug: await expect%(page%.getByText%("
        .. "'Walk the dog'%)%.filter%(%{ visible: true %}%)%)%.toHaveCount%(0%);", text)
      assert.same({ { "toHaveCount", "getByRole('dialog', { name: 'Confirm' })", 0 },
        { "toHaveCount", "getByText('Walk the dog').filter({ visible: true })", 0 } }, steps())
    end)
  end)

  describe("browser_verify_text_visible", function()
    it("records getByText for a paragraph (no ref)", function()
      local s = agrees("browser_verify_text_visible", { text = "Plan the week" })
      assert.equal("getByText('Plan the week')", s.locator)
      assert.equal("toBeVisible", s.matcher)
    end)

    it("records a text that is a heading's whole name by the heading's role and name", function()
      -- getByText('Alpha') would also match a later "Alpha deleted" message.
      local s = agrees("browser_verify_text_visible", { text = "Alpha" })
      assert.equal("getByRole('heading', { name: 'Alpha' })", s.locator)
    end)

    it("agrees without recording when no locator singles the text out", function()
      local res, text = call("browser_verify_text_visible", { text = "Save" })
      assert.is_nil(res.isError, text)
      assert.equal("✅ Page agrees. Not recorded: 2 visible elements match getByText('Save') and no locator singles one out",
        text)
      assert.is_false(res.structuredContent.recorded)
      assert.equal(0, #helpers.asserts(t.ctx.session))
    end)

    it("prefers an exact text when the substring is ambiguous", function()
      local s = agrees("browser_verify_text_visible", { text = "Notes" })
      assert.equal("getByText('Notes', { exact: true })", s.locator)
    end)

    it("fails with the nearest lines of the page", function()
      local text = disagrees("browser_verify_text_visible", { text = "Plan the month" })
      assert.matches("\nPage has: paragraph: Plan the week, one task at a time., ", text, 1, true)
    end)

    it("checks a text inside one element (a card) and records its toContainText", function()
      local card = "getByTestId('card').filter({ hasText: 'Beta' })"
      local _, text = agrees("browser_verify_text_visible", { text = "Beta", locator = card })
      assert.is_true(text:find("Recorded: await expect(page." .. card .. ").toContainText('Beta');", 1, true) ~= nil, text)
      t.ctx.session:clear()
      local other = disagrees("browser_verify_text_visible", { text = "Alpha", locator = card })
      assert.matches(card .. ' does not contain "Alpha"', other, 1, true)
    end)

    it("records toHaveText for an element's whole text, toContainText for a part", function()
      page():evaluate([[(() => { const p = document.createElement('p'); p.dataset.testid = 'left';
        p.textContent = '1 item left'; document.body.append(p); })()]])
      -- (Run BR's status came out as toContainText, its expect= as toHaveText.)
      local s = agrees("browser_verify_text_visible", { locator = "getByTestId('left')", text = "1 item left" })
      assert.equal("toHaveText", s.matcher)
      t.ctx.session:clear()
      s = agrees("browser_verify_text_visible", { locator = "getByTestId('left')", text = "1 item" })
      assert.equal("toContainText", s.matcher)
    end)

    it("checks a text at the end of a long element (past the first 500 characters)", function()
      page():evaluate([[(() => { const r = document.createElement('section'); r.setAttribute('aria-label', 'Long');
        r.innerHTML = '<p>' + 'All about queues. '.repeat(40) + '</p><p>Count: 2 items</p>'; document.body.append(r); })()]])
      local loc = "getByRole('region', { name: 'Long' })"
      local s = agrees("browser_verify_text_visible", { locator = loc, text = "Count: 2" })
      assert.equal("toContainText", s.matcher)
      -- The replay's check reads as much of it.
      assert.is_true(require("vdx.assertions").holds(page(), s))
    end)

    it("locates the element of a ref by something else than the text it checks", function()
      page():evaluate([[(() => { const t = document.createElement('table'); t.setAttribute('aria-label', 'Cart');
        t.innerHTML = '<tr data-testid="line"><td>Ceramic Mug</td><td>2</td><td>$10.80</td><td>$21.60</td></tr>'
          + '<tr data-testid="line"><td>Linen Tote</td><td>1</td><td>$24.00</td><td>$24.00</td></tr>';
        document.body.append(t); })()]])
      snap = select(2, call("browser_snapshot", {}))
      local row = assert(snap:match('row %[ref=(e%d+)%]:\n%s*%- cell "Ceramic Mug"'), snap)
      -- The row's name holds every cell: found by it, the check of $21.60
      -- would hold by construction.
      assert.matches("$21.60", page():generate_locator(row, { alternatives = 0 }).locator, 1, true)
      -- The cell that shows just it, in the row found by something else
      -- (run BP asked for the cell: the row's toContainText holds for
      -- "$21.60 off" too).
      local function scope(loc) return (loc:gsub("%.getByText%([^)]*%)$", "")) end
      local s, text = agrees("browser_verify_text_visible", { ref = row, text = "$21.60" })
      assert.equal("toBeVisible", s.matcher)
      assert.matches("%.getByText%('%$21%.60', { exact: true }%)$", s.locator)
      assert.is_nil(scope(s.locator):find("21.60", 1, true), s.locator)
      assert.is_nil(text:find("⚠️", 1, true), text)
      t.ctx.session:clear()
      s = agrees("browser_verify_text_visible", { ref = row, text = "Ceramic Mug" })
      assert.is_nil(scope(s.locator):find("Ceramic", 1, true), s.locator)
      -- A locator the agent gave that finds the element by that text is
      -- recorded as given, and the answer says what it proves.
      t.ctx.session:clear()
      local _, given = agrees("browser_verify_text_visible",
        { locator = "getByTestId('line').filter({ hasText: 'Linen Tote' })", text = "Linen Tote" })
      assert.matches("\n⚠️ The locator finds the element by the text it checks", given, 1, true)
      -- It names its step, which can go at export.
      local steps = t.ctx.session:list()
      assert.matches(("; browser_export_test drop=%%[%d%%] takes this check out$"):format(steps[#steps].no), given)
      -- A scope found by another text makes it a check of what that scope
      -- shows: no warning (run BE's 'Paid' cell in its order's row).
      t.ctx.session:clear()
      local _, scoped = agrees("browser_verify_text_visible",
        { locator = "getByTestId('line').filter({ hasText: 'Linen Tote' }).getByRole('cell', { name: '1', exact: true })",
          text = "1" })
      assert.is_nil(scoped:find("⚠️", 1, true), scoped)
      -- "0" of a section's name ('90. Queues') is no text the locator finds
      -- it by; a scope that finds thirteen panels tells none apart (run FD).
      page():evaluate([[document.body.insertAdjacentHTML('beforeend', ['10. Intro', '90. Queues'].map((n, i) =>
        '<section aria-label="' + n + '"><div data-testid="panel"><output>' + (i ? 2 : 0) + '</output></div></section>')
        .join(''))]])
      t.ctx.session:clear()
      local _, zero = agrees("browser_verify_text_visible",
        { locator = "getByRole('region', { name: '10. Intro' }).getByRole('status')", text = "0" })
      assert.is_nil(zero:find("⚠️", 1, true), zero)
      t.ctx.session:clear()
      local _, two = agrees("browser_verify_text_visible",
        { locator = "getByRole('region', { name: '90. Queues' }).getByRole('status')", text = "2" })
      assert.is_nil(two:find("⚠️", 1, true), two)
      t.ctx.session:clear()
      local _, loose = agrees("browser_verify_text_visible", { locator = "getByTestId('panel').getByText('2')", text = "2" })
      assert.matches("\n⚠️ The locator finds the element by the text it checks", loose, 1, true)
    end)

    it("checks a status that shares its part with another by its place there, not by the text checked", function()
      -- (Run FL's subscription status beside a counter's <output>: the
      -- check of its text was recorded through getByText of that text.)
      page():evaluate([[document.body.insertAdjacentHTML('beforeend', ['1. Guide', '2. Guide'].map((n, i) =>
        '<section aria-label="' + n + '"><p>Count: <output>0</output></p><form><button>Subscribe</button>' +
        '<p role="status">' + (i ? '' : 'Subscribed: Ada (weekly)') + '</p></form></section>').join(''))]])
      snap = select(2, call("browser_snapshot", {}))
      local ref = assert(snap:match('status %[ref=(e%d+)%]: "Subscribed'), snap)
      local s, text = agrees("browser_verify_text_visible", { ref = ref, text = "Subscribed: Ada (weekly)" })
      assert.equal("getByRole('region', { name: '1. Guide', exact: true }).getByRole('status').nth(1)", s.locator)
      assert.equal("toHaveText", s.matcher)
      assert.matches("\n⚠️ The locator is positional", text, 1, true)
      assert.is_nil(text:find("finds the element by the text it checks", 1, true), text)
      -- Its locator for an action is the text's, which finds it alone.
      assert.equal("getByText('Subscribed: Ada (weekly)')", page():generate_locator(ref, { alternatives = 0 }).locator)
    end)

    it("anchors a locator on the test's next token where the check's text holds the first", function()
      page():evaluate([=[(() => { for (const [item, no] of [['Stool tokA1234 x 1', '#1002'], ['Stool x 1', '#1001']]) {
        const d = document.createElement('div'); d.dataset.testid = 'ord';
        d.innerHTML = '<p>' + item + '</p><p>' + no + '</p><button>Refund</button>'; document.body.append(d); } })()]=])
      snap = select(2, call("browser_snapshot", {}))
      local p, locators = page(), require "vdx.locators"
      local refund = assert(snap:match('Stool tokA1234 x 1.-button "Refund" %[ref=(e%d+)%]'), snap)
      locators.anchor(p, "tokA1234", "#1002")
      local first = p:generate_locator(refund, { alternatives = 0 }).locator
      local other = p:generate_locator(refund, { alternatives = 0, avoid = "Stool tokA1234 x 1" }).locator
      -- With no other anchor, the one the check's text holds still scopes
      -- an item of the test's run: run AO's new row, checked for its own
      -- name, was recorded as the row's test id alone, unique only while
      -- the app had one such row.
      p:evaluate([=[(() => { const t = document.createElement('table'); t.setAttribute('aria-label', 'Mine');
        t.innerHTML = '<tr data-testid="prow"><td>Vase tokB5678</td><td>$12.00</td></tr>'; document.body.append(t); })()]=])
      local snap2 = select(2, call("browser_snapshot", {}))
      local vase = assert(snap2:match('row %[ref=(e%d+)%]:\n%s*%- cell "Vase tokB5678"'), snap2)
      locators.anchor(p, "tokB5678")
      local only = p:generate_locator(vase, { alternatives = 0, avoid = "Vase tokB5678" }).locator
      locators.anchor(p, nil)
      assert.equal("getByTestId('prow').filter({ hasText: 'Vase tokB5678' })", only)
      assert.equal("getByTestId('ord').filter({ hasText: 'Stool tokA1234 x 1' }).getByRole('button', { name: 'Refund' })",
        first)
      assert.equal("getByTestId('ord').filter({ hasText: '#1002' }).getByRole('button', { name: 'Refund' })", other)
      assert.is_nil(locators.anchor_of(p))
    end)

    it("checks the new item's own name through the row or card this run made", function()
      -- (Runs BU, BY and BZ wanted the new product's row, not its name anywhere on the page.)
      page():evaluate([=[(() => { const t = document.createElement('table'); t.setAttribute('aria-label', 'Stock');
        t.innerHTML = '<tr data-testid="prow"><td>Vase tokC9012</td><td>$12.00</td></tr>' +
          '<tr data-testid="prow"><td>Jug</td><td>$9.00</td></tr>'; document.body.append(t); })()]=])
      local p, locators = page(), require "vdx.locators"
      locators.anchor(p, "tokC9012")
      local ok, s = pcall(agrees, "browser_verify_text_visible", { text = "Vase tokC9012" })
      locators.anchor(p, nil)
      assert(ok, s)
      assert.same({ "getByTestId('prow').filter({ hasText: 'Vase tokC9012' })", "toBeVisible" }, { s.locator, s.matcher })
    end)

    it("warns of a number the app gave in a check the agent wrote: the next run's order is another", function()
      page():evaluate([[(() => { const p = document.createElement('p'); p.textContent = 'Order #1001 paid';
        document.body.append(p); })()]])
      local _, text = agrees("browser_verify_text_visible", { text = "Order #1001 paid" })
      -- Left free where the page still agrees (run FB dropped such a
      -- check and recorded its test again).
      assert.matches("Recorded: await expect(page.getByText(/Order #\\d+ paid/)).toBeVisible();", text, 1, true)
      assert.matches("\n#1001 looks like a number the app gave (an order, an invoice): the next run's is another, so "
        .. "the check leaves it free; to check that very number, browser_remember it first", text, 1, true)
      assert.is_nil(text:find("drop=", 1, true), text)
      -- Freed, it would match another order too: written as given, and warned of.
      t.ctx.session:clear()
      page():evaluate([[(() => { const p = document.createElement('p'); p.textContent = 'Order #1002 paid';
        document.body.append(p); })()]])
      _, text = agrees("browser_verify_text_visible", { text = "Order #1001 paid" })
      assert.matches("\n⚠️ #1001 looks like a number the app gave (an order, an invoice): the next run's is another",
        text, 1, true)
      t.ctx.session:clear()
      local _, plain = agrees("browser_verify_text_visible", { text = "Beta" })
      assert.is_nil(plain:find("⚠️", 1, true), plain)
    end)

    it("lists first the line whose numbers agree too, of lines that share the words", function()
      page():evaluate([[(() => { for (const t of ['4.5 (12 reviews)', '4.0 (31 reviews)', '4.8 (7 reviews)',
        '4.0 (1 reviews)']) { const p = document.createElement('p'); p.textContent = t; document.body.append(p); } })()]])
      local text = disagrees("browser_verify_text_visible", { text = "4.0 (1 review)" })
      assert.matches("\nPage has: paragraph: 4.0 (1 reviews), ", text, 1, true)
    end)

    it("fails on hidden text, listing the hidden match", function()
      local text = disagrees("browser_verify_text_visible", { text = "Delete everything?" })
      assert.matches("matches 1 elements, none visible", text, 1, true)
      assert.matches("Page has: paragraph <p> text 'Delete everything?' hidden", text, 1, true)
    end)
  end)

  describe("browser_verify_list_visible", function()
    local TASKS = "getByRole('list', { name: 'Tasks' })"

    it("records toHaveText with every item in order", function()
      local s = agrees("browser_verify_list_visible", { locator = TASKS, items = { "Buy milk", "Walk the dog" } })
      assert.equal("toHaveText", s.matcher)
      assert.equal(TASKS .. ".getByRole('listitem')", s.locator)
      assert.same({ "Buy milk", "Walk the dog" }, s.value)
    end)

    it("records toContainText for some items in order, from Playwright MCP's target argument", function()
      local s = agrees("browser_verify_list_visible", { target = TASKS, items = { "Walk" } })
      assert.equal("toContainText", s.matcher)
      assert.same({ "Walk" }, s.value)
    end)

    it("checks the count beside toContainText when every item is named by part of its text", function()
      local res, text = call("browser_verify_list_visible", { locator = TASKS, items = { "Buy", "Walk" } })
      assert.is_nil(res.isError, text)
      local steps = helpers.asserts(t.ctx.session)
      assert.equal(2, #steps)
      assert.equal("toContainText", steps[1].matcher)
      assert.same({ "toHaveCount", 2, TASKS .. ".getByRole('listitem')" }, { steps[2].matcher, steps[2].value,
        steps[2].locator })
      assert.matches("\n✅ And the count: await expect(page." .. TASKS .. ".getByRole('listitem')).toHaveCount(2);",
        text, 1, true)
      -- With its step, which drop takes (run CQ worked it out).
      assert.is_true(text:find(".toHaveCount(2); (step " .. steps[2].no .. ")", 1, true) ~= nil, text)
    end)

    it("reads a table's data rows, not its header row, as its items", function()
      call("browser_navigate", { url = t.srv.url .. "/verify/prices.html" })
      t.ctx.session:clear()
      local table_ = "getByRole('table', { name: 'My products' })"
      local res, text = call("browser_verify_list_visible", { locator = table_, items = { "Oak Stool", "Pine Tray" } })
      assert.is_nil(res.isError, text)
      local steps = helpers.asserts(t.ctx.session)
      assert.equal(table_ .. ".getByRole('row').filter({ has: getByRole('cell') })", steps[1].locator)
      assert.same({ "toHaveCount", 2 }, { steps[2].matcher, steps[2].value })
      assert.equal(2, page():locator_count(steps[1].locator).count)
      -- Given first, the header row is said to be no item (run FC read
      -- the answer's joined cells as the form to type).
      t.ctx.session:clear()
      local head = page():evaluate("[...document.querySelectorAll('th')].map(h => h.textContent.trim()).join(' ')")
      text = disagrees("browser_verify_list_visible", { locator = table_, items = { head, "Oak Stool" } })
      assert.matches("it is the table's header row, which is no item: leave it out", text, 1, true)
    end)

    it("checks a row given as its cells, apart, through its cells; says how a row's text reads otherwise", function()
      local s, text = agrees("browser_verify_list_visible", { locator = "getByRole('table', { name: 'Team' })",
        items = { "Grace Hopper Admin" } })
      assert.equal("getByRole('row').filter({ hasText: 'Grace Hopper' }).getByRole('cell')", s.locator, text)
      assert.same({ "Grace Hopper", "Admin" }, s.value)
      t.ctx.session:clear()
      -- Not the row's cells from its start: the text as Playwright reads it is named.
      text = disagrees("browser_verify_list_visible", { locator = "getByRole('table', { name: 'Team' })",
        items = { "Hopper Admin" } })
      assert.matches("an item reads 'Grace HopperAdmin': its cells' texts join without spaces", text, 1, true)
    end)

    it("reads the children of a container that is no list", function()
      local s = agrees("browser_verify_list_visible", { locator = "getByTestId('tags')", items = { "red", "blue" } })
      -- Found by no role, the children are filtered to those that show.
      assert.equal("getByTestId('tags').locator(':scope > *').filter({ visible: true })", s.locator)
      assert.equal("toHaveText", s.matcher)
    end)

    it("checks a count by the element's own locator, which the count does not change", function()
      -- (Run BV's expect= recorded the cart link by its name "Cart (1)", its click by its test id.)
      page():evaluate([==[(() => { const a = document.createElement('a'); a.href = '#cart';
        a.dataset.testid = 'cart-badge'; a.textContent = 'Cart (3)'; document.body.append(a); })()]==])
      local s = agrees("browser_verify_text_visible", { text = "Cart (3)" })
      assert.same({ "getByTestId('cart-badge')", "toHaveText", "Cart (3)" }, { s.locator, s.matcher, s.value })
    end)

    -- A region of cards that share a test id, and one whose children do not.
    local function decks()
      page():evaluate([==[(() => { const r = document.createElement('section'); r.dataset.testid = 'deck';
        for (const t of ['Ace', 'King']) {
          const c = document.createElement('div'); c.textContent = t; c.dataset.testid = 'card'; r.append(c); }
        const odd = document.createElement('section'); odd.dataset.testid = 'mixed';
        for (const [t, id] of [['One', 'card'], ['Two', 'other']]) {
          const c = document.createElement('div'); c.textContent = t; c.dataset.testid = id; odd.append(c); }
        document.body.append(r, odd); })()]==])
    end

    it("reads the children by the test id they share, as the test's other steps find them", function()
      -- (Run BS's region of cards was checked through ':scope > *'.)
      decks()
      local s = agrees("browser_verify_list_visible", { locator = "getByTestId('deck')", items = { "Ace", "King" } })
      assert.equal("getByTestId('deck').getByTestId('card').filter({ visible: true })", s.locator)
    end)

    it("reads all the children when they do not share one test id", function()
      decks()
      local s = agrees("browser_verify_list_visible", { locator = "getByTestId('mixed')", items = { "One", "Two" } })
      assert.equal("getByTestId('mixed').locator(':scope > *').filter({ visible: true })", s.locator)
    end)

    it("reads the visible items only of a list found by no role (a search's misses left in the DOM)", function()
      page():evaluate([==[(() => { const l = document.createElement('ul'); l.setAttribute('aria-label', 'Found');
        for (const [t, h] of [['Desk Lamp', 1], ['Oak Chair', 0], ['Sofa', 1], ['Steel Chair', 0]]) {
          const li = document.createElement('li'); li.textContent = t; li.hidden = !!h; li.dataset.testid = 'hit';
          l.append(li); }
        document.body.append(l); })()]==])
      -- A test id matches hidden elements too (a role does not).
      local s = agrees("browser_verify_list_visible", { locator = "getByTestId('hit')", items = { "Oak Chair", "Steel Chair" } })
      -- All the visible ones: toHaveText, which fails while the others show.
      assert.equal("getByTestId('hit').filter({ visible: true })", s.locator)
      assert.equal("toHaveText", s.matcher)
      -- All showing now, the filter stays, so that a page that hides them
      -- later fails the check (run FH's grid of cards after a search's
      -- clear); by their role, hidden items are left out already.
      page():evaluate("document.querySelectorAll('[data-testid=hit]').forEach((li) => { li.hidden = false; })")
      t.ctx.session:clear()
      s = agrees("browser_verify_list_visible", { locator = "getByTestId('hit')",
        items = { "Desk Lamp", "Oak Chair", "Sofa", "Steel Chair" } })
      assert.equal("getByTestId('hit').filter({ visible: true })", s.locator)
      t.ctx.session:clear()
      s = agrees("browser_verify_list_visible", { locator = "getByRole('list', { name: 'Found' })",
        items = { "Desk Lamp", "Oak Chair", "Sofa", "Steel Chair" } })
      assert.equal("getByRole('list', { name: 'Found' }).getByRole('listitem')", s.locator)
    end)

    it("fails with the items the list has when the order differs", function()
      local text = disagrees("browser_verify_list_visible", { locator = TASKS, items = { "Walk the dog", "Buy milk" } })
      assert.matches("item 'Buy milk' not found after 'Walk the dog'", text, 1, true)
      assert.matches("\nPage has: 'Buy milk', 'Walk the dog'\n", text, 1, true)
    end)

    it("takes a locator of the items themselves as the list (a play-test's getByRole('article'))", function()
      local s = agrees("browser_verify_list_visible", { locator = "getByRole('listitem')", items = { "Buy milk", "Walk the dog" } })
      assert.equal("getByRole('listitem')", s.locator)
      assert.equal("toHaveText", s.matcher)
      t.ctx.session:clear()
      local text = disagrees("browser_verify_list_visible", { locator = "getByRole('listitem')", items = { "x" } })
      assert.matches("getByRole('listitem'): item 'x' not found", text, 1, true)
      text = disagrees("browser_verify_list_visible", { locator = "getByRole('list', { name: 'Nope' })", items = { "x" } })
      assert.matches("matches 0 elements, not exactly one", text, 1, true)
    end)
  end)

  describe("browser_verify_value", function()
    it("records toHaveValue for a field by locator", function()
      local s = agrees("browser_verify_value", { locator = "getByLabel('Email')", value = "a@b.c" })
      assert.same({ "toHaveValue", "getByLabel('Email')", "a@b.c" }, { s.matcher, s.locator, s.value })
    end)

    it("fails with the value the field has", function()
      local text = disagrees("browser_verify_value", { ref = ref('textbox "Email"'), value = "x@y.z" })
      assert.matches("\nExpected: value 'x@y.z'\n", text, 1, true)
      assert.matches("\nPage has: textbox 'Email' <input> value 'a@b.c' [ref=", text, 1, true)
    end)

    it("records toBeChecked and not.toBeChecked by ref, and fails on the other state", function()
      local s = agrees("browser_verify_value", { ref = ref('radio "Free"'), value = "true" })
      assert.same({ "toBeChecked", "getByRole('radio', { name: 'Free' })" }, { s.matcher, s.locator })
      t.ctx.session:clear()
      s = agrees("browser_verify_value", { type = "checkbox", ref = ref('checkbox "Newsletter"'), value = "false" })
      assert.same({ "not.toBeChecked", "getByRole('checkbox', { name: 'Newsletter' })" }, { s.matcher, s.locator })
      t.ctx.session:clear()
      local text = disagrees("browser_verify_value", { ref = ref('radio "Pro"'), value = "true" })
      assert.matches("getByRole('radio', { name: 'Pro' }) is not checked", text, 1, true)
      assert.matches("\nExpected: checked\nPage has: radio 'Pro' <input> unchecked [ref=", text, 1, true)
    end)

    it("takes a select's option label and records the option's value", function()
      local res, text = call("browser_verify_value", { type = "combobox", ref = ref('combobox "Country"'), value = "France" })
      assert.is_nil(res.isError, text)
      assert.matches("^✅ Page agrees%. Recorded: await expect%(page%.getByRole%('combobox', { name: 'Country' }%)%)"
        .. "%.toHaveValue%('fr'%); %(step %d+%)\n%(the selected option 'France' has the value 'fr'%)$", text)
      recorded()
    end)

    it("records toBeEmpty for an element that shows no text, given value \"\", and fails on one that shows some", function()
      local s = agrees("browser_verify_value", { locator = "locator('#status')", value = "" })
      assert.same({ "toBeEmpty", "locator('#status')" }, { s.matcher, s.locator })
      t.ctx.session:clear()
      local text = disagrees("browser_verify_value", { locator = "getByRole('status', { name: 'Cart' })", value = "" })
      assert.matches("getByRole('status', { name: 'Cart' }) shows '0 items'", text, 1, true)
      assert.matches("\nExpected: no text\n", text, 1, true)
    end)

    it("records a toggle's ARIA state as its value: toHaveAttribute('aria-pressed', 'true')", function()
      call("browser_navigate", { url = t.srv.url .. "/verify/examples.html" })
      local loc = "getByRole('region', { name: '2. Routing' }).getByRole('button', { name: 'Dark mode' })"
      local text = disagrees("browser_verify_value", { locator = loc, value = "true" })
      assert.matches(loc .. " has aria-pressed='false'", text, 1, true)
      local _, found = t.call("browser_find", { role = "button", name = "Dark mode", within = "2. Routing" })
      call("browser_click", { ref = assert(found:match('button "Dark mode" %[ref=(e%d+)%]'), found) })
      t.ctx.session:clear()
      local s, said = agrees("browser_verify_value", { locator = loc, value = "true" })
      assert.same({ "toHaveAttribute", "aria-pressed", "true" }, { s.matcher, s.attribute, s.value })
      assert.matches(".toHaveAttribute('aria-pressed', 'true');", said, 1, true)
      -- Without value: refused, saying the state it has now.
      local res, bad = call("browser_verify_value", { locator = loc })
      assert.is_true(res.isError, bad)
      assert.matches("give value: the field's value, \"true\" or \"false\" for a checkbox or an ARIA state "
        .. "(aria-expanded), \"disabled\" or \"enabled\" for a control's state, \"\" for no text (without value only "
        .. "css reads the value now); " .. loc
        .. ": its aria-pressed is 'true' now (value 'true' records toHaveAttribute)", bad, 1, true)
    end)

    it("records a control's state: toBeDisabled, toBeEnabled (run DE's Checkout of an empty cart)", function()
      t.ctx:page():evaluate([[(() => { const f = document.createElement('fieldset'); f.disabled = true;
        f.innerHTML = '<button>Checkout</button>'; document.body.prepend(f);
        const g = document.createElement('div'); g.setAttribute('aria-disabled', 'true');
        g.innerHTML = '<span role="button" tabindex="0">Pay later</span>'; document.body.prepend(g); })()]])
      local s, said = agrees("browser_verify_value", { locator = "getByRole('button', { name: 'Checkout' })",
        value = "disabled" })
      assert.equal("toBeDisabled", s.matcher)
      assert.matches(".toBeDisabled(); (step ", said, 1, true)
      t.ctx.session:clear()
      s = agrees("browser_verify_value", { locator = "getByRole('button', { name: 'Pay later' })", value = "disabled" })
      assert.equal("toBeDisabled", s.matcher)
      t.ctx.session:clear()
      s = agrees("browser_verify_value", { locator = "getByRole('button', { name: 'Add task' })", value = "enabled" })
      assert.equal("toBeEnabled", s.matcher)
      t.ctx.session:clear()
      local text = disagrees("browser_verify_value", { locator = "getByRole('button', { name: 'Checkout' })",
        value = "enabled" })
      assert.matches("getByRole('button', { name: 'Checkout' }) is disabled", text, 1, true)
      assert.matches("Page has: button 'Checkout' <button> disabled", text, 1, true)
      -- Without value: refused, saying the state it has now (run EM's
      -- Checkout took three calls to find "disabled").
      local res, bad = call("browser_verify_value", { locator = "getByRole('button', { name: 'Checkout' })" })
      assert.is_true(res.isError, bad)
      assert.matches("getByRole('button', { name: 'Checkout' }): it is disabled now (value 'disabled')", bad, 1, true)
    end)

    it("records the current link of a navigation by its aria-current (run DB's selected filter)", function()
      t.ctx:page():evaluate([[(() => { const n = document.createElement('nav'); n.setAttribute('aria-label', 'Filters');
        n.innerHTML = '<a href="#/">All</a> <a href="#/active" aria-current="page">Active</a>';
        document.body.prepend(n); })()]])
      local loc = "getByRole('link', { name: 'Active' })"
      local s, said = agrees("browser_verify_value", { locator = loc, value = "page" })
      assert.same({ "toHaveAttribute", "aria-current", "page" }, { s.matcher, s.attribute, s.value })
      assert.matches(".toHaveAttribute('aria-current', 'page');", said, 1, true)
    end)

    it("records a computed style with css: toHaveCSS, a hex colour compared as the browser writes it", function()
      call("browser_navigate", { url = t.srv.url .. "/verify/examples.html" })
      t.ctx:page():evaluate("document.getElementById('h2').style.backgroundColor = '#111827'")
      local loc = "getByRole('heading', { name: '2. Routing' })"
      local text = disagrees("browser_verify_value", { locator = loc, css = "background-color", value = "#fff" })
      assert.matches(loc .. " has background-color 'rgb(17, 24, 39)'", text, 1, true)
      assert.matches("\nExpected: background-color 'rgb(255, 255, 255)'", text, 1, true)
      t.ctx.session:clear()
      local s, said = agrees("browser_verify_value", { locator = loc, css = "background-color", value = "#111827" })
      assert.same({ "toHaveCSS", "background-color", "rgb(17, 24, 39)" }, { s.matcher, s.attribute, s.value })
      assert.matches(".toHaveCSS('background-color', 'rgb(17, 24, 39)');", said, 1, true)
      -- A locator written as the test writes it, page and all: taken
      -- without its page (run FR's was recorded as page.page.locator).
      t.ctx.session:clear()
      s, said = agrees("browser_verify_value", { locator = "page." .. loc, css = "background-color", value = "#111827" })
      assert.equal(loc, s.locator)
      assert.matches("await expect(page." .. loc .. ").toHaveCSS(", said, 1, true)
      -- The gate's road reads the same property.
      local f = require("vdx.assertions").facts_for(t.ctx:page(), s)
      assert.is_true(require("vdx.assertions").judge(s, f))
      -- Without value: a read of the value as it is now, its check proposed,
      -- not recorded (runs EW, FD and FN dropped the reads it recorded).
      t.ctx.session:clear()
      local r, read = call("browser_verify_value", { locator = loc, css = "background-color" })
      assert.is_nil(r.isError, read)
      assert.matches("^" .. loc:gsub("%p", "%%%0") .. " has background%-color 'rgb%(17, 24, 39%)' now%. Nothing recorded: "
        .. "value= records it, or keep the check by id\nHolds now[^\n]*\n%[(a%d+)%] [^\n]*toHaveCSS%('background%-color', "
        .. "'rgb%(17, 24, 39%)'%)$", read)
      assert.equal(0, #t.ctx.session:list())
      local id = read:match("%[(a%d+)%]")
      assert.is_true(t.ctx.session:keep { id })
      s = t.ctx.session:list()[1]
      assert.same({ "toHaveCSS", "background-color", "rgb(17, 24, 39)" }, { s.matcher, s.attribute, s.value })
      t.ctx.session:clear()
      local res, bad = call("browser_verify_value", { locator = loc, value = nil })
      assert.is_true(res.isError, bad)
      assert.matches("give value", bad, 1, true)
      res, bad = call("browser_verify_value", { locator = loc, css = "not a property", value = "x" })
      assert.is_true(res.isError, bad)
      assert.matches("css must be a CSS property's name", bad, 1, true)
      -- A name the browser computes nothing for: refused, not a check that always holds.
      t.ctx.session:clear()
      res, bad = call("browser_verify_value", { locator = loc, css = "aria-expanded" })
      assert.is_true(res.isError, bad)
      assert.matches("'aria-expanded' is no CSS property the browser computes", bad, 1, true)
      assert.matches("give value and no css: browser_verify_value records toHaveAttribute", bad, 1, true)
      assert.equal(0, #t.ctx.session:list())
    end)

    it("fails on an element that has no value, and on a locator that is not unique", function()
      local text = disagrees("browser_verify_value", { locator = "getByRole('heading', { name: 'Tasks' })", value = "x" })
      assert.matches("has no value (it is not an input, textarea or select, nor has an ARIA state): check its text "
        .. "with browser_verify_text_visible, value \"\" that it shows none, or value \"disabled\" or \"enabled\" "
        .. "its state", text, 1, true)
      assert.matches("Page has: heading 'Tasks' <h1>", text, 1, true)
      text = disagrees("browser_verify_value", { locator = "getByRole('radio')", value = "true" })
      assert.matches("\nPage has: radio 'Free' <input> checked [ref=e", text, 1, true)
      assert.matches("\nMatches: 2\n", text, 1, true)
    end)

    it("refuses a call with neither ref nor locator, and a checkbox value that is not true or false", function()
      local res, text = call("browser_verify_value", { value = "x" })
      assert.is_true(res.isError)
      assert.matches("give ref (from the snapshot or browser_find) or locator", text, 1, true)
      -- Words alone are said to be words (run BF gave only element).
      res, text = call("browser_verify_list_visible", { element = "todo list", items = { "a" } })
      assert.is_true(res.isError)
      assert.matches('element ("todo list") only says in words what ref or locator points at: give ref', text, 1, true)
      res, text = call("browser_verify_value", { type = "checkbox", ref = ref('checkbox "Newsletter"'), value = "yes" })
      assert.is_true(res.isError)
      assert.matches('value of a checkbox or radio must be "true" or "false"', text, 1, true)
    end)

    it("reads a field inside a frame by its ref, and records it only with a path from the page", function()
      call("browser_navigate", { url = t.srv.url .. "/verify/framed.html" })
      local _, s = call("browser_snapshot", {})
      local code = assert(s:match('textbox "Code" %[ref=(f%d+e%d+)%]'), s)
      local res, text = call("browser_verify_value", { ref = code, value = "42" })
      assert.is_nil(res.isError, text)
      if res.structuredContent.recorded then
        assert.matches("contentFrame()", helpers.asserts(t.ctx.session)[1].locator, 1, true)
      else
        assert.equal("✅ Page agrees. Not recorded: the element is inside frame f1, whose iframe has no locator from the page", text)
      end
      t.ctx.session:clear()
      text = disagrees("browser_verify_value", { ref = code, value = "43" })
      assert.matches("\nPage has: textbox 'Code' <input> value '42' [ref=" .. code .. "]", text, 1, true)
    end)

    it("says a stale ref as such", function()
      local res, text = call("browser_verify_value", { ref = "e999", value = "x" })
      assert.is_true(res.isError)
      assert.equal("❌ Unknown element reference", text:match("^[^\n]*"))
    end)
  end)
end)

describe("the assertions the verify tools record and the change report proposes", function()
  local t = {}
  setup(function() helpers.start_tool_session(t) end)
  teardown(function() helpers.stop_tool_session(t) end)

  it("pass under real Playwright, written as the exporter writes them (needs Node and npm)", function()
    local assertions = require "vdx.assertions"
    local _, snap = t.call("browser_navigate", { url = t.srv.url .. "/verify/app.html" })
    _, snap = t.call("browser_snapshot", {})
    local function ref(p) return assert(snap:match(p .. "[^\n]-%[ref=(e%d+)%]"), p) end
    for _, v in ipairs {
      { "browser_verify_element_visible", { role = "button", accessibleName = "Delete" } },
      { "browser_verify_element_visible", { role = "list", accessibleName = "Tasks" } },
      { "browser_verify_text_visible", { text = "Plan the week" } },
      { "browser_verify_text_visible", { text = "Notes" } },
      { "browser_verify_list_visible", { locator = "getByRole('list', { name: 'Tasks' })", items = { "Buy milk", "Walk the dog" } } },
      { "browser_verify_list_visible", { locator = "getByTestId('tags')", items = { "red", "blue" } } },
      { "browser_verify_list_visible", { locator = "getByRole('list', { name: 'Tasks' })", items = { "Walk" } } },
      { "browser_verify_value", { ref = ref('textbox "Email"'), value = "a@b.c" } },
      { "browser_verify_value", { ref = ref('combobox "Country"'), value = "France" } },
      { "browser_verify_value", { ref = ref('radio "Free"'), value = "true" } },
      { "browser_verify_value", { ref = ref('radio "Pro"'), value = "false" } },
    } do
      local res, text = t.call(v[1], v[2])
      assert.is_nil(res.isError, text)
    end
    local lines = {}
    for _, s in ipairs(helpers.asserts(t.ctx.session)) do lines[#lines + 1] = assertions.code(s) end
    assert.equal(11, #lines)
    -- Each action as Playwright writes it, then the candidates its answer proposed.
    local acts = {
      { "await page.getByRole('textbox', { name: 'New task' }).fill('Feed cat');",
        "browser_type", { ref = ref('textbox "New task"'), text = "Feed cat" } },
      { "await page.getByRole('button', { name: 'Add task' }).click();", "browser_click", { ref = ref('button "Add task"') } },
      { "await page.getByRole('checkbox', { name: 'Newsletter' }).click();",
        "browser_click", { ref = ref('checkbox "Newsletter"') } },
      { "await page.getByRole('combobox', { name: 'Country' }).selectOption('Germany');",
        "browser_select_option", { ref = ref('combobox "Country"'), values = { "Germany" } } },
      { "await page.getByRole('button', { name: 'Open dialog' }).click();", "browser_click", { ref = ref('button "Open dialog"') } },
      { "await page.getByRole('button', { name: 'Add to cart' }).click();", "browser_click", { ref = ref('button "Add to cart"') } },
      { "await page.getByRole('button', { name: 'Sort by name' }).click();", "browser_click", { ref = ref('button "Sort by name"') } },
      { "await page.getByRole('button', { name: 'Load many' }).click();", "browser_click", { ref = ref('button "Load many"') } },
    }
    local proposed = 0
    for _, a in ipairs(acts) do
      lines[#lines + 1] = a[1]
      local res, text = t.call(a[2], a[3])
      assert.is_nil(res.isError, text)
      for _, c in ipairs(res.structuredContent.changes.candidates) do
        lines[#lines + 1] = c.code
        proposed = proposed + 1
      end
    end
    assert.is_true(proposed >= 10, proposed .. " candidates")
    local pw, why = helpers.playwright()
    if not pw then
      pending(why)
      return
    end
    local dir = pw .. "/tests"
    os.execute("mkdir -p " .. helpers.quote(dir))
    local f = assert(io.open(dir .. "/vdx-verify.spec.ts", "w"))
    f:write("import { test, expect } from '@playwright/test';\n",
      "test.use({ launchOptions: { executablePath: process.env.CHROMIUM_PATH } });\n",
      "test('verified assertions', async ({ page }) => {\n",
      "  await page.goto(process.env.BASE_URL + '/verify/app.html');\n  ",
      table.concat(lines, "\n  "), "\n});\n")
    f:close()
    -- The fixture server in a process of its own (this one waits on npx), ended by its pid.
    local tmp = os.tmpname()
    f = assert(io.open(tmp .. ".lua", "w"))
    f:write("local vdx = require 'vdx'\nlocal s = vdx.serve { root = 'spec/fixtures', port = 0 }\n",
      "print(s.url)\nio.stdout:flush()\nvdx.sleep(600000)\n")
    f:close()
    os.execute(("sh -c 'echo $$ > %s.pid; exec %s %s.lua > %s.log 2>&1' &"):format(tmp, helpers.vdxlua, tmp, tmp))
    local url
    for _ = 1, 100 do
      url = (helpers.read(tmp .. ".log") or ""):match("(http://%S+)")
      if url then break end
      os.execute("sleep 0.1")
    end
    local out, st = "", -1
    if url then
      out, st = helpers.run(("cd %s && BASE_URL=%s CHROMIUM_PATH=%s timeout 300 npx playwright test "
        .. "tests/vdx-verify.spec.ts --reporter=line --workers=1"):format(helpers.quote(pw), url,
        os.getenv("VDX_CHROMIUM") or "/usr/bin/chromium"))
    end
    local pid = helpers.read(tmp .. ".pid")
    if pid then os.execute("kill " .. pid:match("%d+") .. " 2>/dev/null") end
    for _, ext in ipairs { ".pid", ".log", ".lua", "" } do os.remove(tmp .. ext) end
    assert.is_string(url, "the fixture server did not start")
    assert.equal(0, st, out)
    assert.matches("1 passed", out)
  end)
end)

describe("vdx.assertions.holds", function()
  local assertions = require "vdx.assertions"
  local srv, browser, page

  setup(function()
    srv, browser, page = helpers.open()
    page:navigate(srv.url .. "/verify/app.html")
  end)

  teardown(function() helpers.shut(browser, srv) end)

  local TASKS = "getByRole('list', { name: 'Tasks' }).getByRole('listitem')"
  local cases = {
    { true, "toBeVisible", "getByRole('button', { name: 'Add task' })" },
    { false, "toBeVisible", "getByRole('button', { name: 'Delete' })" },          -- two match
    { false, "toBeVisible", "getByText('Delete everything?')" },                  -- hidden
    { true, "toBeHidden", "getByText('Delete everything?')" },
    { true, "not.toBeVisible", "getByText('Nowhere')" },
    { false, "toBeHidden", "getByText('Plan the week')" },
    { true, "toHaveText", TASKS, { "Buy milk", "Walk the dog" } },
    { false, "toHaveText", TASKS, { "Buy milk" } },                                -- not all items
    { true, "toContainText", TASKS, { "milk", "dog" } },
    { false, "toContainText", TASKS, { "dog", "milk" } },                          -- order
    { true, "toHaveText", "getByRole('status', { name: 'Cart' })", "0 items" },
    { false, "toHaveText", "getByRole('status', { name: 'Cart' })", "0 item" },    -- full text
    { true, "toContainText", "getByRole('status', { name: 'Cart' })", "items" },
    { true, "toHaveValue", "getByLabel('Email')", "a@b.c" },
    { true, "toHaveValue", "getByLabel('Country')", "fr" },
    { false, "toHaveValue", "getByLabel('Country')", "France" },                   -- the value, not the label
    { true, "toBeChecked", "getByRole('radio', { name: 'Free' })" },
    { true, "not.toBeChecked", "getByRole('checkbox', { name: 'Newsletter' })" },
    { false, "toBeChecked", "getByRole('heading', { name: 'Tasks' })" },           -- not checkable
    { true, "toHaveCount", TASKS, 2 },
    { false, "toHaveCount", TASKS, 3 },
  }
  for i, c in ipairs(cases) do
    it(("%d. %s %s on %s"):format(i, c[1] and "holds" or "does not hold", c[2], c[3]), function()
      local ok, facts = assertions.holds(page, { matcher = c[2], locator = c[3], value = c[4] })
      assert.equal(c[1], ok)
      assert.is_table(facts)
      -- Its Playwright line, as the exporter writes it.
      assert.matches("^await expect%(page%." .. c[3]:gsub("%p", "%%%0") .. "%)%." .. c[2]:gsub("%p", "%%%0") .. "%(",
        assertions.code { matcher = c[2], locator = c[3], value = c[4] })
    end)
  end
end)
