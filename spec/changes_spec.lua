-- What an action changed: the diff of two snapshot texts (vdx.snapshot_diff)
-- and the change report of the acting tools (vdx.changes) against the real
-- browser, with its assertion candidates checked on the live page.
local diff = require "vdx.snapshot_diff"
local helpers = require "helpers"

describe("vdx.snapshot_diff #unit", function()
  it("parses a line's role, name, states, ref and value, quoted or not", function()
    local e = diff.parse('textbox "New \\"task\\"" [active] [ref=e1]: "123"')
    assert.same({ role = "textbox", name = 'New "task"', states = { "[active]" }, ref = "e1", value = "123" }, e)
    e = diff.parse("'button \"a: b\" [ref=f1e9]'")
    assert.same({ role = "button", name = "a: b", states = {}, ref = "f1e9" }, e)
    e = diff.parse("listitem: Buy milk")
    assert.same({ role = "listitem", states = {}, value = "Buy milk" }, e)
    e = diff.parse('list "Tasks":')
    assert.same({ role = "list", name = "Tasks", states = {} }, e)
  end)

  it("reads a field's value from the text line under it when it has a placeholder", function()
    local d = diff.compare('- textbox "Discount (%)" [ref=e7]:\n  - /placeholder: "0"\n- button "Save" [ref=e8]',
      '- textbox "Discount (%)" [ref=e7]:\n  - /placeholder: "0"\n  - text: "10"\n- button "Save" [ref=e8]')
    assert.equal(0, #d.added)
    assert.equal(0, #d.removed)
    assert.equal(1, #d.changed)
    assert.equal('textbox "Discount (%)" [ref=e7]: "10"', d.changed[1].content)
    assert.equal("10", d.changed[1].value)
    assert.equal("was empty", diff.was(d.changed[1]))
  end)

  local OLD = [[
- main:
  - textbox "New task" [ref=e1]
  - list "Tasks":
    - listitem: Buy milk
  - checkbox "Newsletter" [ref=e3]
  - button "Remove" [ref=e4]
  - combobox "Country" [ref=e7]:
    - option "France" [selected]
    - option "Germany"
  - text: Added x
- note: "snapshot truncated"
]]
  local NEW = [[
- main:
  - textbox "New task" [active] [ref=e1]
  - list "Tasks":
    - listitem: Buy milk
    - listitem: Feed cat
  - checkbox "Newsletter" [checked] [ref=e3]
  - combobox "Country" [ref=e7]:
    - option "France"
    - option "Germany" [selected]
  - text: Added y
]]

  it("keys lines by ref, then by text and parent; focus alone is no change", function()
    local d = diff.compare(OLD, NEW)
    local function contents(list)
      local out = {}
      for i, e in ipairs(list) do out[i] = e.content .. (e.was and (" | " .. diff.was(e)) or "") end
      return out
    end
    assert.same({ "listitem: Feed cat" }, contents(d.added))
    assert.same({ 'button "Remove" [ref=e4]' }, contents(d.removed))
    assert.same({ 'checkbox "Newsletter" [checked] [ref=e3] | was not [checked]',
      'option "France" | was [selected]', 'option "Germany" [selected] | was not [selected]',
      'text: Added y | was "Added x"' }, contents(d.changed))
  end)

  it("reads only the changed part of two texts and finds what reading them whole finds", function()
    local page = {}
    for i = 1, 6 do
      page[#page + 1] = ('    - listitem:\n      - link "Item %d" [ref=e%d]\n      - button "Buy" [ref=e%d]\n      - text: $%d\n')
        :format(i, 10 + i, 20 + i, i)
    end
    local base = '- banner:\n  - link "Home" [ref=e1]\n- main:\n  - heading "Shop" [level=1]\n  - list "Items":\n'
      .. table.concat(page) .. '  - status: Cart is empty\n- contentinfo:\n  - text: Footer\n'
    local function summary(d)
      local out = {}
      for _, k in ipairs { "added", "removed", "changed" } do
        for _, e in ipairs(d[k]) do
          out[#out + 1] = k .. " " .. e.content .. " @" .. (e.parent and e.parent.content or "-")
            .. (e.was and (" | " .. diff.was(e)) or "")
        end
      end
      for _, m in ipairs(d.moved) do out[#out + 1] = "moved " .. m.parent.content .. " " .. table.concat(m.labels, ",") end
      for _, e in ipairs(d.renewed) do out[#out + 1] = "renewed " .. e.ref end
      return out
    end
    local edits = {
      { "$3\n", "$3 (sold)\n" },                                             -- a text inside one item
      { 'button "Buy" [ref=e24]', 'button "Added" [ref=e24]' },              -- a name
      { "  - status: Cart is empty\n", "    - listitem:\n      - text: New\n  - status: Cart has 1\n" },
      { '    - listitem:\n      - link "Item 1" [ref=e11]\n      - button "Buy" [ref=e21]\n      - text: $1\n', "" },
      { '- banner:\n  - link "Home" [ref=e1]\n', '- banner:\n  - link "Home" [ref=e1]\n  - link "Cart" [ref=e2]\n' },
      { 'link "Item 2" [ref=e12]', 'link "Item 2" [ref=e99]' },             -- re-rendered
      { "Footer", "Footer 2" },
    }
    -- Two items swapped: a move, read within the list.
    local swapped = base:gsub("(    %- listitem:\n      %- link \"Item 4\".-\n      %- text: %$4\n)(    %- listitem:\n      %- link \"Item 5\".-\n      %- text: %$5\n)", "%2%1")
    assert.are_not.equal(base, swapped)
    local pairs_ = { { base, swapped }, { base, base } }
    for _, ed in ipairs(edits) do
      local s, e = base:find(ed[1], 1, true)
      assert.truthy(s, ed[1])
      pairs_[#pairs_ + 1] = { base, base:sub(1, s - 1) .. ed[2] .. base:sub(e + 1) }
    end
    for _, p in ipairs(pairs_) do
      local focused, whole = diff.compare(p[1], p[2]), diff.compare(p[1], p[2], true)
      assert.same(summary(whole), summary(focused))
      -- The reverse edit too.
      assert.same(summary(diff.compare(p[2], p[1], true)), summary(diff.compare(p[2], p[1])))
      -- Given the texts' lines (a snapshot's own), the same as splitting them.
      local la, lb = {}, {}
      for l in p[1]:gmatch("[^\n]+") do la[#la + 1] = l end
      for l in p[2]:gmatch("[^\n]+") do lb[#lb + 1] = l end
      assert.same(summary(focused), summary(diff.compare(p[1], p[2], false, la, lb)))
      assert.same(summary(diff.compare(p[2], p[1])), summary(diff.compare("", "", false, lb, la)))
    end
    -- And it reads less: one item's change is read within its list.
    local a, b = {}, {}
    for l in base:gmatch("[^\n]+") do a[#a + 1] = l end
    for l in pairs_[3][2]:gmatch("[^\n]+") do b[#b + 1] = l end
    local pa = diff.focus(a, b)
    assert.is_true(#pa < #a / 2, #pa .. " of " .. #a)
    assert.same({ {}, {} }, { diff.focus(a, a) })
    -- Focus that moved from a far element is no change, and no reason to read more.
    local before = base:gsub('link "Home" %[ref=e1%]', 'link "Home" [active] [ref=e1]')
    local after = base:gsub('button "Buy" %[ref=e24%]', 'button "Added" [active] [ref=e24]')
    assert.same(summary(diff.compare(before, after, true)), summary(diff.compare(before, after)))
    a, b = {}, {}
    for l in before:gmatch("[^\n]+") do a[#a + 1] = l end
    for l in after:gmatch("[^\n]+") do b[#b + 1] = l end
    pa = diff.focus(a, b)
    assert.is_true(#pa < #a / 2, #pa .. " of " .. #a)
  end)

  it("takes an element re-rendered with a new ref for the same one, changed only where its text differs", function()
    local before = '- list "Todo":\n  - listitem:\n    - checkbox "Buy bread" [ref=e5]\n    - button "Delete" [ref=e6]\n'
      .. '  - listitem:\n    - checkbox "Call mom" [ref=e7]\n    - button "Delete" [ref=e8]\n'
    local after = '- list "Todo":\n  - listitem:\n    - checkbox "Buy bread" [checked] [ref=e11]\n    - button "Delete" [ref=e12]\n'
      .. '  - listitem:\n    - checkbox "Call mom" [ref=e13]\n    - button "Delete" [ref=e14]\n'
    local d = diff.compare(before, after)
    assert.same({ 0, 0, 1 }, { #d.added, #d.removed, #d.changed })
    assert.equal('checkbox "Buy bread" [checked] [ref=e11]', d.changed[1].content)
    assert.equal("was not [checked]", diff.was(d.changed[1]))
    -- The new refs are told: the agent's old ones are stale.
    local renewed = {}
    for i, e in ipairs(d.renewed) do renewed[i] = e.ref end
    assert.same({ "e11", "e12", "e13", "e14" }, renewed)
  end)

  it("pairs a re-rendered row with the old row that holds the same, not with the first row alike", function()
    -- A filter re-renders a todo list: every row gets new refs, and the
    -- rows, their "Delete" buttons included, are alike but for their text.
    local row = '  - listitem [ref=e%d]:\n    - checkbox "%s" [ref=e%d]\n    - button "Delete" [ref=e%d]\n'
    local both = '- list "Todo items" [ref=e8]:\n' .. row:format(18, "Buy milk", 19, 20) .. row:format(21, "Walk dog", 22, 23)
    local active = '- list "Todo items" [ref=e8]:\n' .. row:format(25, "Walk dog", 26, 27)
    local all = '- list "Todo items" [ref=e8]:\n' .. row:format(28, "Buy milk", 29, 30) .. row:format(31, "Walk dog", 32, 33)
    local function refs(list)
      local out = {}
      for i, e in ipairs(list) do out[i] = e.ref end
      return out
    end
    for _, whole in ipairs { false, true } do
      local d = diff.compare(both, active, whole)
      assert.same({ "e18", "e19", "e20" }, refs(d.removed))
      assert.same({}, refs(d.added))
      assert.same({ "e25", "e26", "e27" }, refs(d.renewed))
      d = diff.compare(active, all, whole)
      assert.same({ "e28", "e29", "e30" }, refs(d.added))
      assert.same({}, refs(d.removed))
      assert.same({ "e31", "e32", "e33" }, refs(d.renewed))
    end
  end)

  it("reads a re-sorted table whose rows all got new refs as a new order, not as renamed cells", function()
    local function rows(base, shift)
      local out = { '- table "T" [ref=e1]:' }
      for i = 1, 40 do
        local k, r = (i + shift - 1) % 40 + 1, base + i * 4
        out[#out + 1] = ('  - row [ref=e%d]:\n    - cell "Name %d"\n    - cell [ref=e%d]:\n      - button "Delete" [ref=e%d]')
          :format(r, k, r + 1, r + 2)
      end
      return table.concat(out, "\n") .. "\n"
    end
    for _, whole in ipairs { false, true } do
      local d = diff.compare(rows(10, 0), rows(1000, 7), whole)
      assert.same({ 0, 0, 0, 1, 120 }, { #d.added, #d.removed, #d.changed, #d.moved, #d.renewed })
    end
  end)

  it("finds a container whose children only changed order, and names them in the new order", function()
    local rows = { '  - row:\n    - cell "Grace"\n    - cell "Admin"\n', '  - row:\n    - cell "Ada"\n    - cell "Viewer"\n' }
    local d = diff.compare('- table "Team":\n' .. rows[1] .. rows[2], '- table "Team":\n' .. rows[2] .. rows[1])
    assert.same({ 0, 0, 0 }, { #d.added, #d.removed, #d.changed })
    assert.equal(1, #d.moved)
    assert.equal('table "Team":', d.moved[1].parent.content)
    assert.same({ "Ada", "Grace" }, d.moved[1].labels)
    -- Sorted by a header that now says so: the header row changed, the
    -- others only moved (a play-test's sort read as one changed header).
    local head = { '  - row:\n    - columnheader "Name"\n', '  - row:\n    - columnheader "Name" [sort=ascending]\n' }
    d = diff.compare('- table "Team":\n' .. head[1] .. rows[1] .. rows[2], '- table "Team":\n' .. head[2] .. rows[2] .. rows[1])
    assert.equal(1, #d.moved)
    -- (The header row is no item of the new order: run ES.)
    assert.same({ "Ada", "Grace" }, d.moved[1].labels)
    assert.equal(1, d.moved[1].head)
    assert.equal(1, #d.changed)
  end)

  it("compares a text with itself as no change", function()
    local d = diff.compare(NEW, NEW)
    assert.same({ 0, 0, 0 }, { #d.added, #d.removed, #d.changed })
  end)
end)

describe("vdx.snapshot_diff.count_named #unit", function()
  local text = table.concat({
    "Page URL: http://x/",
    "- button \"Added\" [ref=e1]",
    "- group:",
    "  - 'button \"Added: 2\" [ref=e2]'",
    "  - button \"added later\" [ref=e3]",
    "  - button \"Added to the cart of someone with a long\u{2026}\" [ref=e4]",
    "- iframe [ref=e5]:",
    "  - button \"Added\" [ref=f1e1]",
    "- link \"Added\" [ref=e6]",
    "- button \"\u{c4}dded\" [ref=e7]",
  }, "\n")

  it("counts the main frame's elements of a role whose name the locator matches, exact or not", function()
    -- Case aside, a name that holds it: e1, e2 (quoted line), e3, e4 (cut).
    assert.equal(4, diff.count_named(text, "button", "Added", false, 10))
    assert.equal(2, diff.count_named(text, "button", "Added", false, 2))
    -- Exact: e1 alone; the cut name and the frame's button do not count.
    assert.equal(1, diff.count_named(text, "button", "Added", true, 10))
    assert.equal(0, diff.count_named(text, "button", "Added to the cart of someone with a long", true, 10))
    assert.equal(1, diff.count_named(text, "link", "added", false, 10))
    assert.equal(1, diff.count_named(text, "button", "\u{c4}dded", true, 10))
  end)

  it("reads only the lines that hold the name, and finds what reading every line finds", function()
    local lines = { "Page URL: http://x/button \"Added\"", "- text: button \"Added\" [ref=e90]",
      "- button \"Say \\\"hi\\\"\" [ref=e91]", "- button \"it's\" [ref=e92]", "- togglebutton \"Added\" [ref=e93]",
      "  - button \"Added\" [pressed] [ref=e94]: Added Added" }
    for i = 1, 200 do lines[#lines + 1] = ('  - button "Add to Cart" [ref=e%d]'):format(100 + i) end
    local big = text .. "\n" .. table.concat(lines, "\n")
    for _, c in ipairs { { "button", "Added" }, { "button", "added" }, { "button", "Add to Cart" }, { "button", "Cart" },
      { "button", 'Say "hi"' }, { "button", "it's" }, { "togglebutton", "Added" }, { "link", "Added" }, { "button", "Zebra" } } do
      for _, exact in ipairs { true, false } do
        for _, limit in ipairs { 1, 2, 1000 } do
          -- Every line read, as for the names with a quote, a backslash
          -- or a single quote (which a line escapes or doubles).
          local every = diff.count_named(big, c[1], c[2], exact, limit, true)
          assert.equal(every, diff.count_named(big, c[1], c[2], exact, limit),
            ("%s %q exact=%s limit=%d"):format(c[1], c[2], tostring(exact), limit))
        end
      end
    end
    assert.equal(2, diff.count_named(big, "button", "Added", true, 10))   -- e1 and e94
    assert.equal(1, diff.count_named(big, "button", 'Say "hi"', true, 10))
    assert.equal(200, diff.count_named(big, "button", "add to cart", false, 1000))
  end)

  it("cannot tell a case-insensitive match of a name that is not ASCII, nor a role that is not a word", function()
    assert.is_nil(diff.count_named(text, "button", "\u{c4}dded", false, 10))
    assert.is_nil(diff.count_named(text, "but.on", "Added", false, 10))
  end)
end)

describe("vdx.assertions.segments #unit", function()
  it("splits a locator into its calls, and refuses what is not a plain chain of calls", function()
    local assertions = require "vdx.assertions"
    assert.same({ "getByTestId('card')", "filter({ hasText: 'a.b (c)' })", "getByRole('button', { name: 'Go' })" },
      assertions.segments("getByTestId('card').filter({ hasText: 'a.b (c)' }).getByRole('button', { name: 'Go' })"))
    assert.same({ "getByText('x')" }, assertions.segments("getByText('x')"))
    assert.is_nil(assertions.segments("locator('a').first"))
    assert.is_nil(assertions.segments("getByText('x') "))
    -- Short options are kept, so the line can be pasted; long ones elided.
    assert.equal("getByRole('list', { name: 'T' }).getByRole('listitem') toHaveCount(2)",
      assertions.short { locator = "getByRole('list', { name: 'T' }).getByRole('listitem')", matcher = "toHaveCount", value = 2 })
    -- A scope the answer's Locator line shows whole already is elided.
    assert.equal("getByRole('region', …).getByRole('checkbox') toBeChecked",
      assertions.short({ locator = "getByRole('region', { name: 'R' }).getByRole('checkbox')", matcher = "toBeChecked" },
        { ["getByRole('region', { name: 'R' })"] = true }))
    local long = "{ name: 'Orders awaiting review this week', exact: true }"
    assert.equal("getByRole('table', …).getByRole('row') toHaveCount(4)",
      assertions.short { locator = "getByRole('table', " .. long .. ").getByRole('row')", matcher = "toHaveCount", value = 4 })
  end)
end)

-- The first match's facts of a locator on the live page.
local function assertions_facts(page, expr)
  return require("vdx.assertions").facts(page, expr, { limit = 1 }).matches[1]
end

describe("the change report of the acting tools", function()
  local t = {}
  setup(function() helpers.start_tool_session(t) end)
  teardown(function() helpers.stop_tool_session(t) end)
  local snap
  local function call(name, args) return t.call(name, args) end

  local function open(path)
    local res, text = call("browser_navigate", { url = t.srv.url .. (path or "/verify/app.html") })
    assert.is_nil(res.isError, text)
    res, snap = call("browser_snapshot", {})
    assert.is_nil(res.isError, snap)
    t.ctx.session:clear()
  end

  local function ref(pattern)
    return assert(snap:match(pattern .. "[^\n]-%[ref=(e%d+)%]"), "no " .. pattern .. " in:\n" .. snap)
  end

  -- An action's answer without refs (which containers may or may not
  -- carry), its structured changes, and the answer as it is.
  local function act(name, args)
    local res, text = call(name, args)
    assert.is_nil(res.isError, text)
    return text:gsub(" %[ref=[%w_]+%]", ""), res.structuredContent.changes, text
  end

  -- The candidates of a report, each checked here again: its locator
  -- matches exactly one element (toHaveCount: as many as it says; a list
  -- of texts: at least as many; toBeHidden: none).
  local function candidates(changes)
    local page, codes = t.ctx.role:page(), {}
    for i, c in ipairs(changes.candidates) do
      local n = page:locator_count(c.locator).count
      if type(c.value) == "table" then
        assert.is_true(n >= #c.value, c.locator)
      else
        assert.equal(c.matcher == "toHaveCount" and c.value or c.matcher == "toBeHidden" and 0 or 1, n, c.locator)
      end
      codes[i] = c.code
    end
    -- Two, and one more for a tab panel shown or an item that went.
    assert.is_true(#codes <= 3)
    return codes
  end

  it("reports an added item and text with refs kept, and proposes checked assertions without recording them", function()
    open()
    local typed = act("browser_type", { ref = ref('textbox "New task"'), text = "Feed cat" })
    -- (The field shows what was typed: nothing to propose.)
    assert.is_nil(typed:find("Holds now", 1, true), typed)
    local text, changes, raw = act("browser_click", { ref = ref('button "Add task"') })
    local report = text:match("\n(Changes .*)$")
    -- The field keeps the ref it had in the agent's snapshot.
    assert.matches(('\n~ textbox "New task" [ref=%s]'):format(ref('textbox "New task"')), raw, 1, true)
    assert.equal(table.concat({
      "Changes (+2 -0 ~1):",
      '~ textbox "New task" (was "Feed cat")',
      '+ listitem: Feed cat (in list "Tasks")',
      "+ text: Added Feed cat",
      -- How to keep a proposal is said once a session: here, at the first.
      "Holds now (export assertions=[id] keeps it):",
      -- What the submit made first, the field it emptied last (run BJ's
      -- Add product was proposed only as its fields emptied).
      "[a1] getByRole('list', { name: 'Tasks' }).getByRole('listitem') toHaveCount(3)",
      "[a2] getByText('Feed cat', { exact: true }) toBeVisible" }, "\n"), report)
    assert.same({ 2, 0, 1 }, { changes.added, changes.removed, changes.changed })
    candidates(changes)
    assert.equal(0, #helpers.asserts(t.ctx.session))
  end)

  it("reports a checkbox toggled, step by step, with toBeChecked and then not.toBeChecked", function()
    open()
    local box = ref('checkbox "Newsletter"')
    local text, changes, raw = act("browser_click", { ref = box })
    assert.matches('\nChanges (+0 -0 ~1):\n~ checkbox "Newsletter" [checked] (was not [checked]) (in form "Settings")\n',
      text, 1, true)
    assert.matches(('~ checkbox "Newsletter" [checked] [ref=%s] ('):format(box), raw, 1, true)
    assert.same({ "await expect(page.getByRole('checkbox', { name: 'Newsletter' })).toBeChecked();" }, candidates(changes))
    -- The next report compares with the snapshot the last one took.
    text, changes = act("browser_click", { ref = box })
    assert.matches("(was [checked])", text, 1, true)
    assert.same({ "await expect(page.getByRole('checkbox', { name: 'Newsletter' })).not.toBeChecked();" },
      candidates(changes))
  end)

  it("reports a dialog that opens, its content and its new button's ref", function()
    open()
    local text, changes, raw = act("browser_click", { ref = ref('button "Open dialog"') })
    assert.matches('\nChanges (+3 -0 ~0):\n+ dialog "Confirm":\n+ paragraph: Delete everything?\n+ button "Cancel"\n', text, 1, true)
    local codes = candidates(changes)
    assert.equal("await expect(page.getByRole('dialog', { name: 'Confirm' })).toBeVisible();", codes[1])
    -- The new ref is live: closing the dialog through it is reported as removals.
    local cancel = raw:match('button "Cancel" %[ref=(e%d+)%]')
    text, changes = act("browser_click", { ref = cancel })
    -- A removed subtree is its root and a count: what it held is gone.
    assert.equal('Changes (+0 -3 ~0):\n- dialog "Confirm": …(+2 lines inside, the first \"Delete everything?\")\n'
      .. "Holds now:\n[aN] getByRole('dialog', { name: 'Confirm' }) toBeHidden, and toBeVisible before the action",
      text:match("\n(Changes .*)$"):gsub("%[a%d+%]", "[aN]"))
    assert.same({ "await expect(page.getByRole('dialog', { name: 'Confirm' })).toBeHidden();" }, candidates(changes))
  end)

  it("proposes a field's value and a checkbox's state inside a frame, by the chain into it", function()
    open("/verify/frame_form.html")
    local function fref(pattern) return assert(snap:match(pattern .. " %[ref=(f%d+e%d+)%]"), snap) end
    local _, changes = act("browser_type", { ref = fref('textbox "Email"'), text = "ann@x.test" })
    assert.same({}, candidates(changes))
    -- Text added to what the field held: the whole is what it shows now.
    _, changes = act("browser_type", { ref = fref('textbox "Email"'), text = ".uk" })
    assert.equal("await expect(page.getByTitle('Form').contentFrame().getByRole('textbox', { name: 'Email' }))"
      .. ".toHaveValue('ann@x.test.uk');", candidates(changes)[1])
    _, changes = act("browser_click", { ref = fref('checkbox "Agree"') })
    assert.equal("await expect(page.getByTitle('Form').contentFrame().getByRole('checkbox', { name: 'Agree' }))"
      .. ".toBeChecked();", candidates(changes)[1])
  end)

  it("proposes a live region's new text inside a frame, by the chain into the frame", function()
    open("/verify/frame_status.html")
    local pay = assert(snap:match('button "Pay" %[ref=(f%d+e%d+)%]'), snap)
    local _, changes = act("browser_click", { ref = pay })
    assert.equal("await expect(page.getByTitle('Payment').contentFrame().getByRole('status'))"
      .. ".toHaveText('The card number must have 16 digits.');", candidates(changes)[1])
    -- An expected text there is checked on that region too (run AY's was
    -- recorded as a text of the frame).
    open("/verify/frame_status.html")
    pay = assert(snap:match('button "Pay" %[ref=(f%d+e%d+)%]'), snap)
    local said = act("browser_click", { ref = pay, expect = { "must have 16 digits" } })
    assert.is_true(said:find("\n✅ Expected \"must have 16 digits\": recorded getByTitle('Payment').contentFrame()"
      .. ".getByRole('status') toHaveText('The card number must have 16 digits.')", 1, true) ~= nil, said)
  end)

  it("proposes a tab selected, a disclosure expanded or collapsed and a toggle pressed by its role, name and state", function()
    open("/verify/tabs.html")
    local _, changes = act("browser_click", { ref = ref('tab "Yearly"') })
    assert.equal("await expect(page.getByRole('tab', { name: 'Yearly', selected: true })).toBeVisible();",
      candidates(changes)[1])
    _, changes = act("browser_click", { ref = ref('button "Questions"') })
    assert.equal("await expect(page.getByRole('button', { name: 'Questions', expanded: true })).toBeVisible();",
      candidates(changes)[1])
    _, changes = act("browser_click", { ref = ref('button "Questions"') })
    assert.equal("await expect(page.getByRole('button', { name: 'Questions', expanded: false })).toBeVisible();",
      candidates(changes)[1])
    -- A toggle button pressed, then released.
    _, changes = act("browser_click", { ref = ref('button "Dark mode"') })
    assert.equal("await expect(page.getByRole('button', { name: 'Dark mode', pressed: true })).toBeVisible();",
      candidates(changes)[1])
    _, changes = act("browser_click", { ref = ref('button "Dark mode"') })
    assert.equal("await expect(page.getByRole('button', { name: 'Dark mode', pressed: false })).toBeVisible();",
      candidates(changes)[1])
  end)

  it("proposes a slight text (a count) within its named container, not alone on the page", function()
    open("/verify/counter.html")
    local _, changes = act("browser_click", { ref = ref('button "Increment"') })
    local got = candidates(changes)
    assert.equal("await expect(page.getByRole('region', { name: 'Routing' }).getByText('1', { exact: true }))"
      .. ".toBeVisible();", got[1])
    for _, c in ipairs(got) do assert.is_nil(c:find("page.getByText('1'", 1, true), c) end
  end)

  it("tells an empty list that gained items as the same list, and an item that left by what it showed", function()
    open("/verify/todo.html")
    act("browser_type", { ref = ref('textbox "New item"'), text = "Walk dog" })
    local text = act("browser_click", { ref = ref('button "Add"') })
    -- The list had no ref while empty: it is not added and removed.
    assert.is_nil(text:find('list "Items"\n', 1, true), text)
    assert.is_nil(text:find('- list', 1, true), text)
    assert.matches('\n%+ listitem: %(in list "Items"%)', text)
    local _, snap2 = call("browser_snapshot", {})
    snap = snap2
    act("browser_click", { ref = ref('checkbox "Walk dog"') })
    text = act("browser_click", { ref = ref('button "Hide done"') })
    assert.matches('\n%- listitem: %(in list "Items"%) …%(%+2 lines inside, the first "Walk dog"%)', text)
  end)

  it("names a short text the action changed in the brief report, with what it was (a price cell)", function()
    open("/verify/prices.html")
    local input = assert(snap:match('cell "Oak Stool".-textbox "New price" %[ref=(e%d+)%]'), snap)
    local button = assert(snap:match('cell "Oak Stool".-button "Update price" %[ref=(e%d+)%]'), snap)
    act("browser_type", { ref = input, text = "27.25" })
    local text = act("browser_click", { ref = button, expect = { "$27.25" } })
    assert.matches('\nChanges %([^)]*%): [^\n]*cell "%$27%.25" %(was named "%$30%.00"%)', text)
  end)

  it("checks an expected text in the container the action's locator goes through", function()
    open("/verify/counter.html")
    local queues = assert(snap:match('region "Queues".-button "Increment" %[ref=(e%d+)%]'), snap)
    local res, text = call("browser_click", { ref = queues, expect = { "Count: 1" } })
    assert.is_nil(res.isError, text)
    -- Another section's counter showing "Count: 1" would not pass it, nor
    -- "Count: 10" in this one: the element that shows it exactly (run BF
    -- read the region's toContainText as looser than the proposals).
    assert.equal("getByRole('region', { name: 'Queues' }).getByText('Count: 1', { exact: true })",
      res.structuredContent.expected[1].assertion.locator)
    assert.equal("toBeVisible", res.structuredContent.expected[1].assertion.matcher)
    -- The answer names where it checked.
    assert.is_true(text:find("\n✅ Expected \"Count: 1\": recorded getByRole('region', ", 1, true) ~= nil, text)
    assert.is_true(text:find(".getByText('Count: 1', { exact: true }) toBeVisible", 1, true) ~= nil, text)
  end)

  it("stays bounded when an action adds hundreds of lines", function()
    open()
    local text, changes = act("browser_click", { ref = ref('button "Load many"') })
    local report = text:match("\n(Changes .-)\nHolds now")
    assert.equal(601, changes.added)
    assert.matches('^Changes %(%+601 %-0 ~0%):\n%+ list "Rows": …%(%+589 lines inside%)\n', report)
    local shown = select(2, report:gsub("\n[+~-] ", ""))
    assert.equal(12, shown)
    assert.equal("\n… 589 more changed lines (browser_find or browser_snapshot reads them)",
      report:sub(-#"\n… 589 more changed lines (browser_find or browser_snapshot reads them)"))
    assert.is_true(#report <= 1000, #report .. " characters")
    -- A list that grew from nothing is counted; ambiguous names are made exact.
    local codes = candidates(changes)
    assert.equal("await expect(page.getByRole('list', { name: 'Rows' }).getByRole('listitem')).toHaveCount(300);", codes[1])
    assert.equal("await expect(page.getByRole('list', { name: 'Rows' })).toBeVisible();", codes[2])
  end)

  it("offers no candidate whose locator is not unique", function()
    open()
    local text, changes = act("browser_click", { ref = ref('button "Finish both"') })
    assert.equal("Changes (+2 -0 ~0):\n+ paragraph: Done\n+ paragraph: Done", text:match("\n(Changes .*)$"))
    assert.same({}, candidates(changes))
    assert.is_nil(text:find("Holds now", 1, true))
  end)

  it("checks the changed target in the scope of the action's own locator, first and with no search", function()
    open("/verify/cards.html")
    local buttons = {}
    for r in snap:gmatch('button "Choose" %[ref=(e%d+)%]') do buttons[#buttons + 1] = r end
    -- The locator searches of each click, counted on the page's bridge.
    local page = t.ctx.role:page()
    local methods = getmetatable(page).__index
    local bridge, searches, checks = methods.bridge, 0, 0
    methods.bridge = function(self, method, ...)
      if method == "locatorFor" then searches = searches + 1 end
      if method == "locatorFacts" then checks = checks + 1 end
      return bridge(self, method, ...)
    end
    local ok, err = pcall(function()
      -- The first chosen is the only one, but a page-wide check of it
      -- would pass had another card been chosen: it is checked in the
      -- card the click acted in.
      local text, changes = act("browser_click", { ref = buttons[1] })
      assert.matches('\n~ button "Chosen" %(was named "Choose"%)', text)
      assert.same({ "await expect(page.getByTestId('plan-card').filter({ hasText: 'Basic' })"
        .. ".getByRole('button', { name: 'Chosen' })).toBeVisible();" }, candidates(changes))
      assert.equal(1, searches)
      -- The second is told apart as the click's locator told it apart,
      -- with no search after the click.  Its snapshot shows two buttons
      -- "Chosen": the role and name locator, exact or not, would match
      -- both, and is not read; the scoped one is the only check.
      checks = 0
      local _, changes2, raw = act("browser_click", { ref = buttons[2] })
      assert.equal(1, checks)
      local f = require("vdx.assertions").facts(page, "getByRole('button', { name: 'Chosen', exact: true })", {})
      assert.equal(2, f.count)
      assert.matches("\nLocator: getByTestId%('plan%-card'%)%.filter%({ hasText: 'Team' }%)%.getByRole%('button', { name: 'Choose' }%)\n", raw)
      assert.same({ "await expect(page.getByTestId('plan-card').filter({ hasText: 'Team' })"
        .. ".getByRole('button', { name: 'Chosen' })).toBeVisible();" }, candidates(changes2))
      assert.equal(2, searches)
    end)
    methods.bridge = bridge
    assert(ok, err)
  end)

  it("reports rows sorted as a new order, and proposes an assertion of that order with the rows' count", function()
    open()
    local text, changes = act("browser_click", { ref = ref('button "Sort by name"') })
    assert.matches('\nChanges (+0 -0 ~0 ↕1):\n↕ table "Team": new order: Ada Lovelace, Alan Turing, Grace Hopper\n', text, 1, true)
    -- toContainText alone passes with a row added or doubled anywhere.
    assert.same({ "await expect(page.getByRole('table', { name: 'Team' }).getByRole('row')).toContainText("
      .. "['Ada Lovelace', 'Alan Turing', 'Grace Hopper']); "
      .. "await expect(page.getByRole('table', { name: 'Team' }).getByRole('row')).toHaveCount(3);" }, candidates(changes))
    assert.equal(3, changes.candidates[1].count)
  end)

  it("proposes a sorted column's aria-sort beside the rows' new order", function()
    open("/verify/sortable.html")
    local text, changes = act("browser_click", { ref = ref('button "Joined"') })
    assert.matches('columnheader "Joined" [sort=ascending]', text, 1, true)
    -- The header row is left out of the order, and counted with the rows.
    assert.matches("new order: Alan Turing, Grace Hopper, Ada Lovelace", text, 1, true)
    assert.same({ "await expect(page.getByRole('table', { name: 'Members' }).getByRole('row')).toContainText("
      .. "['Alan Turing', 'Grace Hopper', 'Ada Lovelace']); "
      .. "await expect(page.getByRole('table', { name: 'Members' }).getByRole('row')).toHaveCount(4);",
      "await expect(page.getByRole('columnheader', { name: 'Joined' })).toHaveAttribute('aria-sort', 'ascending');" },
      candidates(changes))
    text, changes = act("browser_click", { ref = ref('button "Joined"') })
    assert.same("await expect(page.getByRole('columnheader', { name: 'Joined' })).toHaveAttribute('aria-sort', 'descending');",
      candidates(changes)[2])
  end)

  it("checks what changed in the container the action acted in, where another container shows the same", function()
    open("/verify/examples.html")
    local function in_routing(role, name)
      local _, found = call("browser_find", { role = role, name = name, within = "2. Routing" })
      return assert(found:match(('%s "%s" %%[ref=(e%%d+)%%]'):format(role, name)), found)
    end
    -- A counter's value, by the label before it, in its section: a
    -- numbered section exactly, which '12. Routing' would match too
    -- (runs BL and BR).
    local said, changes = act("browser_click", { ref = in_routing("button", "Increment") })
    assert.same({ "await expect(page.getByRole('region', { name: '2. Routing', exact: true })"
      .. ".getByText('Count: 1', { exact: true })).toBeVisible();" }, candidates(changes))
    -- The scope the Locator line shows is cut in the proposal, and what
    -- the cut stands for is said once a session (run AJ read its files).
    assert.matches("; `, …%)` is the Locator line's scope, whole in the test%):\n"
      .. "%[a%d+%] getByRole%('region', …%)%.getByText%('Count: 1', { exact: true }%) toBeVisible", said)
    -- A toggle pressed: the one of this section, not any pressed one.
    said, changes = act("browser_click", { ref = in_routing("button", "Dark mode") })
    assert.matches("\nHolds now:\n%[a%d+%] getByRole%('region', …%)", said)
    assert.same({ "await expect(page.getByRole('region', { name: '2. Routing', exact: true })"
      .. ".getByRole('button', { name: 'Dark mode', pressed: true })).toBeVisible();" }, candidates(changes))
    -- A status the form's submit filled, in the form's section.
    local text
    text, changes = act("browser_type", { ref = in_routing("textbox", "Your name"), text = "Ada", submit = true })
    assert.matches('~ status: "Subscribed: Ada" (was empty)', text, 1, true)
    -- (Exactly the whole text: "Subscribed: Ada (weekly)" is another.)
    assert.same("await expect(page.getByRole('region', { name: '2. Routing', exact: true })"
      .. ".getByText('Subscribed: Ada', { exact: true })).toBeVisible();", candidates(changes)[1])
  end)

  it("proposes no clock's text, which changes by itself, unless the test controls the clock", function()
    open("/verify/countdown.html")
    require("vdx").sleep(200)
    local text, changes = act("browser_click", { ref = ref('button "Save"') })
    assert.matches("Maintenance starts in", text, 1, true)
    assert.same({ "await expect(page.getByText('Saved your draft', { exact: true })).toBeVisible();" },
      candidates(changes))
    assert.is_true(require("vdx.proposals").clock_text("Last checked 5 minutes ago."))
    assert.is_true(require("vdx.proposals").clock_text("10:42:07"))
    assert.is_false(require("vdx.proposals").clock_text("2 items left"))
  end)

  it("proposes which row went in a brief report (expect=), which no expected text can say", function()
    open("/verify/rerender.html")
    local _, found = call("browser_find", { role = "button", name = "Delete", within = "Laundry" })
    local res, text = call("browser_click", { ref = assert(found:match('button "Delete" %[ref=(e%d+)%]'), found),
      expect = { "Dishes" } })
    assert.matches("\nChanges %(%+0 %-%d+ ~0%)\nHolds now", text)
    -- In its named list, as the list's count is proposed (runs BF and BL).
    assert.same({ "await expect(page.getByRole('list', { name: 'Chores' }).getByRole('listitem').filter({ hasText: "
      .. "'Laundry' })).toHaveCount(0);" }, candidates(res.structuredContent.changes))
    -- Two rows gone at once: both are said (run EZ's Clear completed took
    -- two, and the answer named one).
    t.ctx.role:page():evaluate([[document.body.innerHTML = '<ul aria-label="Todos"><li class="d">Buy milk</li>'
      + '<li class="d">Pay rent</li><li>Walk dog</li></ul><p role="status">3 items</p><button onclick="'
      + "document.querySelectorAll('.d').forEach(e => e.remove()); document.querySelector('p').textContent = "
      + "'1 item'" + '">Clear done</button>']])
    snap = select(2, call("browser_snapshot", {}))
    local _, changes = act("browser_click", { ref = ref('button "Clear done"'), expect = { "1 item" } })
    assert.same({
      "await expect(page.getByRole('list', { name: 'Todos' }).getByRole('listitem').filter({ hasText: 'Buy milk' }))"
        .. ".toHaveCount(0);",
      "await expect(page.getByRole('list', { name: 'Todos' }).getByRole('listitem').filter({ hasText: 'Pay rent' }))"
        .. ".toHaveCount(0);" }, candidates(changes))
  end)

  it("proposes an item gone from its own list when its text is still in another", function()
    open("/verify/board.html")
    local _, changes = act("browser_click", { ref = ref('button "Finish Walk dog"') })
    -- "Walk dog" is still on the page (in Done): the page-wide count is
    -- 1, and the item left the To do list, which says so.
    local codes = table.concat(candidates(changes), "\n")
    assert.matches("await expect(page.getByRole('region', { name: 'To do' }).getByRole('list')"
      .. ".getByRole('listitem').filter({ hasText: 'Walk dog' })).toHaveCount(0);", codes, 1, true)
    assert.is_nil(codes:find("page.getByRole('listitem').filter({ hasText: 'Walk dog' })).toHaveCount(0)", 1, true), codes)
  end)

  it("names the items a filter left in their container and proposes the list of their headings", function()
    -- (Run CE read ten removed cards, and built the list of the two left by hand.)
    open("/verify/grid_filter.html")
    act("browser_type", { ref = ref('searchbox "Search products"'), text = "Oak" })
    local text, changes = act("browser_click", { ref = ref('button "Search"') })
    assert.is_true(text:find('\nLeft in region "Products": "Oak Chair", "Oak Table" (2 of 6)', 1, true) ~= nil, text)
    local codes = table.concat(candidates(changes), "\n")
    assert.is_true(codes:find("await expect(page.getByRole('region', { name: 'Products' }).getByRole('heading', "
      .. "{ level: 3 })).toHaveText(['Oak Chair', 'Oak Table']);", 1, true) ~= nil, codes)
    -- Cards that are lines of their own (articles) are told the same.
    open("/verify/grid_filter.html?article")
    act("browser_type", { ref = ref('searchbox "Search products"'), text = "Chair" })
    text = act("browser_click", { ref = ref('button "Search"') })
    assert.is_true(text:find('\nLeft in region "Products": "Oak Chair", "Steel Chair" (2 of 6)', 1, true) ~= nil, text)
  end)

  it("proposes an item gone by its line's name when a filter drew the list again for others", function()
    open("/verify/filter.html")
    local _, changes = act("browser_click", { ref = ref('button "Completed"') })
    -- As many items as before: no count says the filter worked; the item
    -- that showed "Buy milk" is gone, from its list (run BX's was proposed
    -- page-wide, an item gone otherwise in its list).
    local codes = table.concat(candidates(changes), "\n")
    assert.matches("await expect(page.getByRole('list', { name: 'Tasks' }).getByRole('listitem').filter({ hasText: "
      .. "'Buy milk' })).toHaveCount(0);", codes, 1, true)
  end)

  it("names the elements a list made anew whose old refs fail: their role and name repeat", function()
    open("/verify/rerender.html")
    local text = act("browser_type", { ref = ref('textbox "New chore"'), text = "Ironing", submit = true })
    -- The checkboxes' names are unique (an old ref acts on its successor); the Delete buttons' are not.
    assert.matches('\n↻ Made anew: button "Delete" ×3 (an old ref may fail: browser_find within=… gives the new; '
      .. 'old refs of unique names still act)', text, 1, true)
    assert.is_nil(text:find('↻ Made anew: checkbox', 1, true), text)
    -- Said once: the next add renders the list again, and the agent knows.
    text = act("browser_type", { ref = ref('textbox "New chore"'), text = "Dusting", submit = true })
    assert.is_nil(text:find('↻', 1, true), text)
    -- Said again in a new test, once (run AG's second test was told nothing).
    call("browser_start_test", { url = t.srv.url .. "/verify/rerender.html" })
    snap = select(2, call("browser_snapshot", {}))
    text = act("browser_type", { ref = ref('textbox "New chore"'), text = "Ironing", submit = true })
    assert.matches('\n↻ Made anew: button "Delete" ×3', text, 1, true)
  end)

  it("proposes toHaveText for a named element whose text changed", function()
    open()
    local text, changes = act("browser_click", { ref = ref('button "Add to cart"') })
    assert.matches('\n~ status "Cart": 1 items (was "0 items")\n', text, 1, true)
    assert.same({ "await expect(page.getByRole('status', { name: 'Cart' })).toHaveText('1 items');" }, candidates(changes))
  end)

  it("fills a form given only refs and values: each field's type is read from its role", function()
    open()
    act("browser_fill_form", { fields = {
      { ref = ref('checkbox "Newsletter"'), value = "true" },
      { ref = ref('radio "Pro"'), value = "true" },
      { ref = ref('textbox "Email"'), value = "x@y.z" },
      { ref = ref('combobox "Country"'), value = "Germany" },
    } })
    local page = t.ctx.role:page()
    assert.is_true(assertions_facts(page, "getByRole('checkbox', { name: 'Newsletter' })").checked)
    assert.is_true(assertions_facts(page, "getByRole('radio', { name: 'Pro' })").checked)
    assert.equal("x@y.z", assertions_facts(page, "getByRole('textbox', { name: 'Email' })").value)
    assert.equal("de", assertions_facts(page, "getByRole('combobox', { name: 'Country' })").value)
    -- The export writes each with its kind's call.
    local calls = {}
    for _, st in ipairs(t.ctx.session:list()) do
      if st.kind == "action" then calls[#calls + 1] = st.action end
    end
    assert.same({ "check", "check", "fill", "select" }, calls)
  end)

  it("reports a field with a placeholder as changed in value, and proposes no check of what was typed", function()
    open("/verify/placeholder.html")
    local text, changes = act("browser_type", { ref = ref('textbox "Discount %(%%%)"'), text = "10" })
    assert.matches('\n~ textbox "Discount (%)": "10" (was empty)', text, 1, true)
    assert.is_nil(text:find("+ text", 1, true), text)
    -- (toHaveValue('10') would say only what the test's fill did.)
    assert.same({}, candidates(changes))
    -- Emptied again: no colon left open before the was (run EY).
    local _, _, raw = act("browser_type", { ref = ref('textbox "Discount %(%%%)"'), text = "", clear = true })
    assert.matches('\n~ textbox "Discount %(%%%)" %[ref=e%d+%] %(was "10"%)', raw)
  end)

  it("proposes the value a field shows when the page changed what was typed", function()
    open("/verify/card_mask.html")
    local _, changes = act("browser_type", { ref = ref('textbox "Card number"'), text = "4242424242424242" })
    assert.same({ "await expect(page.getByRole('textbox', { name: 'Card number' })).toHaveValue('4242 4242 4242 4242');" },
      candidates(changes))
    _, changes = act("browser_type", { ref = ref('textbox "Name on card"'), text = "Ada Lovelace" })
    assert.same({}, candidates(changes))
    -- A password shows masked in the snapshot; what was typed is what it holds.
    _, changes = act("browser_type", { ref = ref('textbox "PIN"'), text = "1234" })
    assert.same({}, candidates(changes))
  end)

  it("outlines a page again when it grew past the outline's bound since it was shown", function()
    local url = t.srv.url .. "/loop/grow.html"
    local _, first = call("browser_navigate", { url = url })
    assert.matches("\n… %d+ more: browser_find", first)
    local _, again = call("browser_navigate", { url = url })
    assert.matches("\nOutline: not repeated, as shown before for this URL", again)
    -- One product more, past the bound (another role added it): no page shown before.
    t.ctx.role:page():evaluate("localStorage.setItem('extra', '1')")
    local _, grown = call("browser_navigate", { url = url })
    assert.is_nil(grown:find("as shown before", 1, true), grown)
    assert.matches("\nOutline:\n", grown)
  end)

  it("outlines a page again when the report the agent read of it left changes out", function()
    -- (Run FM's report after paying was cut at "… 9 more changed lines",
    -- and the cart's reload was then said to be "as shown before".)
    local url = t.srv.url .. "/loop/grow.html"
    call("browser_navigate", { url = url })
    t.ctx.role:page():evaluate("localStorage.removeItem('extra')")
    call("browser_navigate", { url = url })
    local _, again = call("browser_navigate", { url = url })
    assert.matches("\nOutline: not repeated, as shown before for this URL", again)
    -- A product more, which a brief report (expect=) does not list.
    t.ctx.role:page():evaluate([[localStorage.setItem('extra', '1');
      document.getElementById('list').insertAdjacentHTML('beforeend', '<h2>Product number 41</h2>')]])
    local _, brief = call("browser_press_key", { key = "Shift", expect = { "Catalogue" } })
    assert.is_nil(brief:find("Product number 41", 1, true), brief)
    local _, told = call("browser_navigate", { url = url })
    assert.is_nil(told:find("not repeated", 1, true), told)
    t.ctx.role:page():evaluate("localStorage.removeItem('extra')")
  end)

  it("records text typed into an empty field as a fill, and added to a field's text as typed", function()
    open()
    act("browser_type", { ref = ref('textbox "New task"'), text = "Tea" })
    act("browser_type", { ref = ref('textbox "Email"'), text = ".uk" })
    act("browser_type", { ref = ref('textbox "New task"'), text = "!", slowly = true })
    local calls = {}
    for _, st in ipairs(t.ctx.session:list()) do
      if st.kind == "action" then calls[#calls + 1] = st.action .. " " .. st.value end
    end
    assert.same({ "fill Tea", "type .uk", "type !" }, calls)
  end)

  it("proposes toHaveValue for a select from its option lines", function()
    open()
    local text, changes = act("browser_select_option", { ref = ref('combobox "Country"'), values = { "Germany" } })
    assert.matches('\n~ option "Germany" [selected] (was not [selected])\n', text, 1, true)
    assert.same({ "await expect(page.getByRole('combobox', { name: 'Country' })).toHaveValue('de');" }, candidates(changes))
  end)

  it("tells a navigation as the new URL, title and the new page's outline, not a diff", function()
    open()
    local text, changes = act("browser_click", { ref = ref('button "Go to next"') })
    assert.matches("\nNavigated to " .. t.srv.url:gsub("%p", "%%%0") .. '/verify/next%.html — "Next page" %(2 lines%)\n'
      .. 'Outline:\n%- heading "Next" %[level=1%]\nHolds now', text)
    assert.is_true(changes.navigated)
    -- The page it landed on is proposed: its URL and its top heading.
    assert.same({ "await expect(page).toHaveURL(/\\/verify\\/next\\.html$/);",
      "await expect(page.getByRole('heading', { name: 'Next' })).toBeVisible();" },
      { changes.candidates[1].code, changes.candidates[2].code })
  end)

  it("says when there is no earlier snapshot of the page, and when nothing changed", function()
    -- Opened by the page itself: browser_navigate would outline this small
    -- page and keep that look as the baseline.
    t.ctx.role:page():navigate(t.srv.url .. "/verify/app.html")
    local text = act("browser_press_key", { key = "Shift" })
    assert.matches("\nChanges: no earlier look at this page to compare with %(%d+ lines now", text)
    text = act("browser_press_key", { key = "Shift" })
    assert.matches("\nNo change on the page%. Recorded as step (%d+) of the test all the same: browser_export_test drop=%[%1%]", text)
    -- A key press says where focus went, or that it stayed.
    local _, _, raw = act("browser_press_key", { key = "Tab" })
    local now = raw:match("\nFocus now: ([^\n]+)$")
    assert.truthy(now and now:find('textbox "New task" [ref=', 1, true), raw)
    _, _, raw = act("browser_press_key", { key = "Shift" })
    assert.equal("Focus still on: " .. now, raw:match("[^\n]+$"), raw)
  end)

  it("says what a widget's key does in its WAI-ARIA pattern when the press changed nothing", function()
    -- (Run FJ pressed ArrowRight on a tab and Escape in a menu, saw no
    -- change, and dropped them, unsure whether the app lacked them.)
    t.ctx.role:page():navigate(t.srv.url .. "/verify/app.html")
    t.ctx.role:page():evaluate([==[(() => {
      const mk = (label, keys) => {
        const l = document.createElement('div'); l.setAttribute('role', 'tablist'); l.setAttribute('aria-label', label);
        for (const n of ['One', 'Two']) {
          const b = document.createElement('button'); b.setAttribute('role', 'tab'); b.textContent = label + ' ' + n;
          if (keys) b.addEventListener('keydown', (e) => { if (e.key === 'ArrowRight') l.lastChild.focus(); });
          l.append(b); }
        document.body.append(l); };
      mk('Deaf', false); mk('Keyed', true); })()]==])
    local _, snap = call("browser_snapshot", {})
    local deaf = assert(snap:match('tab "Deaf One"[^\n]-%[ref=(e%d+)%]'), snap)
    local keyed = assert(snap:match('tab "Keyed One"[^\n]-%[ref=(e%d+)%]'), snap)
    local _, _, raw = act("browser_press_key", { key = "ArrowRight", ref = deaf })
    assert.matches("\nFocus now: tab \"Deaf One\"[^\n]*\nIn the WAI%-ARIA Authoring Practices, ArrowRight on a tab "
      .. "moves focus to the next tab %(the first, from the last%); here nothing changed, and focus stayed on it%. If the "
      .. "app means to follow them, that is its bug %(known_bug on a browser_verify_%* check records it%)", raw)
    -- Pressed again with focus where it was, no ref.
    _, _, raw = act("browser_press_key", { key = "ArrowLeft" })
    assert.matches("\nFocus still on: tab \"Deaf One\"[^\n]*\nIn the WAI%-ARIA Authoring Practices, ArrowLeft on a tab "
      .. "moves focus to the previous tab %(the last, from the first%);", raw)
    -- A key the pattern gives the tab nothing to do, and a tab that follows it.
    _, _, raw = act("browser_press_key", { key = "b", ref = deaf })
    assert.is_nil(raw:find("Authoring Practices", 1, true), raw)
    _, _, raw = act("browser_press_key", { key = "ArrowRight", ref = keyed })
    assert.matches('\nFocus now: tab "Keyed Two"', raw)
    assert.is_nil(raw:find("Authoring Practices", 1, true), raw)
  end)

  it("lists the options of a list an action opened, which the snapshot folds", function()
    open("/verify/picker.html")
    local _, _, text = act("browser_click", { ref = ref('combobox "Country"') })
    -- The picker's 21 options exist only now, folded in the snapshot: the
    -- report lists them with their refs, and one is chosen at once.
    assert.matches('\n%+ listbox "Countries" %[options=21%] %[ref=e%d+%]\nOptions of listbox "Countries" %(21%):\n%- option "Austria" %[ref=e%d+%]\n', text)
    local norway = assert(text:match('\n%- option "Norway" %[ref=(e%d+)%]'), text)
    assert.is_nil(text:find("more (browser_find", 1, true), text)
    text = act("browser_click", { ref = norway })
    assert.matches('Shipping to Norway', text, 1, true)
    -- More than SHOWN: the rest are counted.
    local shown = require("vdx.opened_options").SHOWN
    require("vdx.opened_options").SHOWN = 5
    local ok, _, _, long = pcall(act, "browser_click", { ref = ref('combobox "Country"') })
    require("vdx.opened_options").SHOWN = shown
    assert(ok, long)
    assert.matches('\n%- option "Estonia" %[ref=e%d+%]\n… 16 more %(browser_find role=option name=… finds one%)\n', long)
  end)

  it("counts the options a filter left in a list the snapshot folded", function()
    open("/verify/country.html")
    local _, _, text = act("browser_type", { ref = ref('combobox "Country"'), text = "Swe" })
    -- (Runs AV, BA and BI read "-0" for a filter that left 1 of 21.)
    assert.matches('\n~ listbox "Countries" %[ref=e%d+%] %(was 21 options, now 1%)\n', text)
  end)

  it("keeps a whole look as the baseline when the first look at a page is a scoped snapshot", function()
    t.ctx.role:page():navigate(t.srv.url .. "/verify/board.html")
    local _, scoped = call("browser_snapshot", { root = "#todo" })
    assert.is_nil(scoped:find("Done", 1, true), scoped)
    -- The next action compares with the whole page, though the agent saw a part.
    local text, changes = act("browser_click", { ref = assert(scoped:match('button "Finish Buy milk" %[ref=(e%d+)%]'), scoped) })
    assert.is_nil(text:find("no earlier look", 1, true), text)
    assert.matches("\nChanges %(%+%d+ %-%d+", text)
    assert.truthy(#candidates(changes) > 0, text)
  end)

  it("compares with the whole page when the agent's last snapshot was cut by its budget", function()
    open("/verify/shop.html")
    -- One walk of the page serves both the cut answer and the whole text
    -- the next report compares with.
    local page = t.ctx.role:page()
    local methods = getmetatable(page).__index
    local frames, walks = methods.snapshot_frames, 0
    methods.snapshot_frames = function(...) walks = walks + 1 return frames(...) end
    local ok, res, cut = pcall(call, "browser_snapshot", { budget_tokens = 500 })
    methods.snapshot_frames = frames
    assert(ok, res)
    assert.equal(1, walks)
    assert.is_true(res.structuredContent.truncated, cut)
    assert.equal(select(2, cut:gsub("%[ref=[%w_]+%]", "")), res.structuredContent.ref_count)
    local base = t.ctx.role.last_snapshot
    assert.is_true(#base.whole_text > #cut)
    -- The baseline keeps the walk's lines of its whole text, which the
    -- report compares without splitting it again.
    local split = {}
    for l in base.whole_text:gmatch("[^\n]+") do split[#split + 1] = l end
    assert.same(split, base.whole_lines)
    local card = cut:match('button "Add to Cart" %[ref=(e%d+)%]')
    local text = act("browser_click", { ref = card })
    local after = t.ctx.role.last_snapshot
    assert.are_not.equal(base, after)
    assert.equal(#after.whole_lines, select(2, after.whole_text:gsub("\n", "")))
    assert.matches('\nChanges (+0 -0 ~3):\n~ link "Cart (1)" (was named "Cart (0)")\n~ status: Added Product 1 to the cart '
      .. '(was empty)\n~ button "In cart" (was named "Add to Cart")\n', text, 1, true)
  end)

  it("compares with the last whole snapshot when the agent then looked at a part (root, depth)", function()
    open()
    local res, part = call("browser_snapshot", { depth = 1 })
    assert.is_nil(res.isError, part)
    local text = act("browser_click", { ref = ref('checkbox "Newsletter"') })
    assert.matches('\nChanges (+0 -0 ~1):\n~ checkbox "Newsletter" [checked] (was not [checked])', text, 1, true)
  end)

  it("measures: a click's answer on a 200-card shop against a full snapshot of it", function()
    open("/verify/shop.html")
    local n, card = 0, nil
    for r in snap:gmatch('button "Add to Cart" %[ref=(e%d+)%]') do
      n = n + 1
      if n == 42 then card = r end
    end
    local _, changes, text = act("browser_click", { ref = card })
    assert.matches('\n~ status %[ref=e%d+%]: Added iPhone 15 Pro to the cart %(was empty%)\n', text)
    -- A live region's new text is proposed on the region, not as loose text.
    assert.matches("\n%[a%d+%] getByRole%('status'%) toHaveText%('Added iPhone 15 Pro to the cart'%)", text)
    candidates(changes)
    local _, whole = call("browser_snapshot", { budget_tokens = 100000 })
    print(("\n# click answer %d characters, full snapshot %d characters"):format(#text, #whole))
    assert.is_true(#text * 20 < #whole, #text .. " vs " .. #whole)
    -- With expect, the one-line report still carries what the status says.
    local other = whole:match('button "Add to Cart" %[ref=(e%d+)%]')
    local _, brief = call("browser_click", { ref = other, expect = { "in cart" } })
    assert.truthy(brief:find("\nChanges %(.-%): .*status %[ref=e%d+%]: Added [^\n]* to the cart"), brief)
  end)
end)

describe("the change report and the verify tools over the MCP wire", function()
  local client = require "mcp_client"
  local srv

  setup(function() srv = helpers.serve() end)
  teardown(function() if srv then srv:close() end end)

  it("carry the change, its candidates and the verify verdicts as text and structuredContent", function()
    local s = client.start("")
    local _, call = client.caller(s)
    call("browser_navigate", { url = srv.url .. "/verify/app.html" })
    local snap = call("browser_snapshot", {}).content[1].text
    local box = assert(snap:match('checkbox "Newsletter" %[ref=(e%d+)%]'))
    local click = call("browser_click", { ref = box })
    assert.is_nil(click.isError)
    assert.matches('~ checkbox "Newsletter" [checked]', click.content[1].text, 1, true)
    local changes = click.structuredContent.changes
    assert.same({ 0, 0, 1 }, { changes.added, changes.removed, changes.changed })
    assert.same({ { id = "a1", matcher = "toBeChecked", locator = "getByRole('checkbox', { name: 'Newsletter' })",
      code = "await expect(page.getByRole('checkbox', { name: 'Newsletter' })).toBeChecked();" } }, changes.candidates)
    local ok = call("browser_verify_value", { ref = box, value = "true" })
    assert.is_nil(ok.isError)
    assert.is_true(ok.structuredContent.recorded)
    local bad = call("browser_verify_text_visible", { text = "Nowhere to be seen" })
    assert.is_true(bad.isError)
    assert.equal("❌ The page does not agree", bad.content[1].text:match("^[^\n]*"))
    -- No change: the candidates are an empty list on the wire.
    local hover = call("browser_hover", { ref = box })
    -- A step of the test all the same, which the answer says with its number.
    assert.matches("No change on the page%. Recorded as step (%d+) of the test all the same: browser_export_test drop=%[%1%] if it was "
      .. "only a try%.$", hover.content[1].text)
    local raw = assert(io.open(s.dir .. "/out")):read("a")
    assert.truthy(raw:find('"candidates":[]', 1, true))
    assert.equal(0, (s:close(20000)))
  end)
end)
