--- The agent's short loop over the MCP wire, against the real browser:
-- expect= on an acting tool, re-rendered refs healed, change-report
-- proposals kept by the export, browser_navigate's outline, browser_find
-- as a change baseline, a hash route's re-render in the change report,
-- and fill_form's quiet answer.  Fixtures: spec/fixtures/loop/.
local helpers = require "helpers"
local client = require "mcp_client"

local read, q = helpers.read, helpers.quote

-- True when the plain text needle is in s.
local function has(s, needle) return s:find(needle, 1, true) ~= nil end

-- The lines of text.
local function lines(text)
  local out = {}
  for l in (text .. "\n"):gmatch("([^\n]*)\n") do out[#out + 1] = l end
  return out
end

describe("the agent's loop over the MCP wire", function()
  local srv, dir, s, n
  local health, cart = 0, 0

  setup(function()
    srv = helpers.serve {
      -- A page only a signed-in user sees: anyone else goes to sign in.
      ["GET /loop/broken-pay"] = function()
        return [[<title>Pay</title><button onclick="fetch('/loop/pay-500').then(r => r.json()).then(j => {
          document.title = j.ok })">Pay</button><button>Nothing</button><p role=status>The card was declined</p>]]
      end,
      ["GET /loop/pay-500"] = function()
        return { status = 500, headers = { ["content-type"] = "text/html" }, body = "<h1>Internal error</h1>" }
      end,
      ["GET /loop/account"] = function()
        return { status = 302, headers = { Location = "/loop/account/login" } }
      end,
      -- A members' page: its cookie from /loop/join, else off to sign in.
      ["GET /loop/join"] = function()
        return { headers = { ["Content-Type"] = "text/html", ["Set-Cookie"] = "member=1; Path=/" },
          body = "<title>Joined</title><h1>Joined</h1>" }
      end,
      ["GET /loop/members"] = function(req)
        if req.cookies and req.cookies.member then
          return { headers = { ["Content-Type"] = "text/html" }, body = "<title>Members</title><h1>Members</h1>" }
        end
        return { status = 302, headers = { Location = "/loop/account/login" } }
      end,
      -- A list the page fetches after its load event, slowly.
      ["GET /loop/late-list"] = function()
        return { headers = { ["Content-Type"] = "text/html" }, body = [[<title>Late</title><ul id=l></ul><script>
fetch('/loop/late-items').then((r) => r.json()).then((items) => { for (const t of items) {
  const li = document.createElement('li'); li.textContent = t; l.append(li); } });
</script>]] }
      end,
      -- A product's name, and the page of the cart that shows it again.
      ["GET /loop/aisle"] = function()
        return { headers = { ["Content-Type"] = "text/html" },
          body = '<title>Aisle</title><h2>Wool Blanket</h2><a href="/loop/basket">Cart</a>' }
      end,
      ["GET /loop/basket"] = function()
        return { headers = { ["Content-Type"] = "text/html" },
          body = "<title>Basket</title><table><tr><td>Wool Blanket</td><td>$89.00</td></tr></table>" }
      end,
      -- A Checkout there before the cart it works on has come.
      ["GET /loop/late-cart"] = function()
        return { headers = { ["Content-Type"] = "text/html" }, body = [[<title>Cart</title><ul id=l></ul>
<button id=c>Checkout</button><p role=status id=st></p><script>
let items = [];
fetch('/loop/late-items').then((r) => r.json()).then((got) => { items = got; for (const t of got) {
  const li = document.createElement('li'); li.textContent = t; l.append(li); } });
c.onclick = () => { st.textContent = items.length ? 'Paying for ' + items.length : ''; };
</script>]] }
      end,
      -- A page that polls a slow list, and says so when a fetch fails.
      ["GET /loop/polling"] = function()
        return { headers = { ["Content-Type"] = "text/html" }, body = [[<title>Polling</title>
<a href="/loop/small.html">Leave</a><script>
setInterval(() => fetch('/loop/late-items').catch((e) => console.error(e)), 100);
</script>]] }
      end,
      ["GET /loop/late-items"] = function()
        require("vdx").sleep(400)
        return { json = { "Oak Chair", "Steel Chair" } }
      end,
      -- A page that says how things stand, differently at each visit.
      ["GET /loop/health"] = function()
        health = health + 1
        return { headers = { ["Content-Type"] = "text/html" }, body = ([[<title>Health</title><h1>Health</h1>
<p role=status><span>%d services have problems</span></p><div role=alert>Could not load the history.</div>
<p role=status></p><button>Try again</button>]]):format(health) }
      end,
      -- The cart of counted.html, which the server holds: each Add, one more.
      ["POST /loop/cart-add"] = function()
        cart = cart + 1
        return { json = { n = cart } }
      end,
      -- A page whose frame says how a payment went.
      ["GET /loop/framed-status"] = function()
        return { headers = { ["Content-Type"] = "text/html" }, body = [[<title>Framed</title><h1>Checkout</h1>
<iframe title="Payment" srcdoc="<p role=status>Service unavailable</p>"></iframe>]] }
      end,
      -- A list whose Clear completed takes the done items, and itself.
      ["GET /loop/clearable"] = function()
        return { headers = { ["Content-Type"] = "text/html" }, body = [[<title>Todos</title><h1>Todos</h1>
<ul aria-label="Todo items"><li class=done>Buy milk</li><li>Walk dog</li></ul><p role=status>1 item left</p>
<footer><button onclick="document.querySelectorAll('.done').forEach((li) => li.remove()); this.remove()">
Clear completed</button></footer>]] }
      end,
      ["GET /loop/framed-retry"] = function()
        return { headers = { ["Content-Type"] = "text/html" }, body = [[<title>Framed</title><h1>Checkout</h1>
<button onclick="setTimeout(() => document.querySelector('iframe').contentDocument
.querySelector('[role=status]').textContent = 'Paid', 1500)">Retry</button>
<iframe title="Payment" srcdoc="<p role=status>Service unavailable</p>"></iframe>]] }
      end,
      -- A list the server keeps: Add posts, then shows the new item and says so.
      ["GET /loop/posted-list"] = function()
        return { headers = { ["Content-Type"] = "text/html" }, body = [[<title>Stock</title><h1>Stock</h1>
<ul aria-label="Stock"><li>Apple</li><li>Pear</li></ul><p role=status></p>
<button onclick="fetch('/loop/cart-add', { method: 'POST' }).then((r) => r.json()).then((j) => {
const li = document.createElement('li'); li.textContent = 'Fig ' + j.n; document.querySelector('ul').append(li);
document.querySelector('[role=status]').textContent = 'Added Fig ' + j.n; })">Add</button>]] }
      end,
      -- A to-do list whose new items each have a box and a Delete button.
      ["GET /loop/todo-boxes"] = function()
        return { headers = { ["Content-Type"] = "text/html" }, body = [[<title>Todos</title>
<input aria-label="New todo" id=n><ul aria-label="Todo items" id=list></ul><span role=status id=count></span>
<script>n.onkeydown = (e) => { if (e.key !== 'Enter') return; const li = document.createElement('li');
li.innerHTML = '<input type=checkbox aria-label="' + n.value + '"> ' + n.value + ' <button>Delete</button>';
list.append(li); n.value = ''; count.textContent = list.children.length + ' left'; };</script>]] }
      end,
      -- A form whose status says what its button did.
      ["GET /loop/pay-status"] = function()
        return { headers = { ["Content-Type"] = "text/html" }, body = [[<title>Pay</title>
<section aria-label="Payment"><h2>Payment</h2><p>Card ending 4242</p><button onclick="
this.parentNode.querySelector('[role=status]').textContent = 'Paid'">Pay</button><p role=status></p><button onclick="
this.parentNode.querySelector('[role=status]').textContent = ''">Reset</button></section>
<section aria-label="Deposit"><h2>Deposit</h2><button onclick="
this.parentNode.querySelector('[role=status]').textContent = 'Paid'">Pay</button><p role=status></p></section>]] }
      end,
      ["GET /loop/pick-country"] = function()
        return { headers = { ["Content-Type"] = "text/html" }, body = [[<title>Ship</title>
<ul role=listbox aria-label=Countries><li role=option onclick="
document.querySelector('[role=status]').textContent = 'Shipping to Iceland'; this.parentNode.remove()">Iceland</li>
<li role=option>Finland</li></ul><p role=status></p>]] }
      end,
      -- Add shows the new row and says so in its status.
      ["GET /loop/add-row"] = function()
        return { headers = { ["Content-Type"] = "text/html" }, body = [[<title>Stock</title><h1>Stock</h1>
<button onclick="const r = document.createElement('tr'); r.innerHTML = '<td>Teak Lamp</td><td>$25.00</td>';
document.querySelector('tbody').append(r);
document.querySelector('[role=status]').textContent = 'Added Teak Lamp at $25.00.'">Add product</button>
<table aria-label=Products><tbody><tr><td>Oak Chair</td><td>$40.00</td></tr></tbody></table><p role=status></p>]] }
      end,
      ["GET /loop/account/login"] = function()
        return { headers = { ["Content-Type"] = "text/html" }, body = "<title>Sign in</title><h1>Sign in</h1>" }
      end,
    }
    dir = client.tmpdir()
    s = client.start("--output-dir " .. q(dir))
    client.caller(s)
    n = 100
  end)
  teardown(function()
    if s then s:close(30000) end
    if srv then srv:close() end
    if dir then os.execute("rm -rf " .. q(dir)) end
  end)

  -- call(name, args) -> result, its first text (a failed call is an answer too).
  local function call(name, args)
    n = n + 1
    s:send(client.call(n, name, args))
    local m = assert(s:wait_for(n, 60000), name .. " did not answer")
    local r = m.result
    return r, r.content and r.content[1] and r.content[1].text or ""
  end

  -- call, asserting the answer is no error.
  local function ok(name, args)
    local r, text = call(name, args)
    assert.is_nil(r.isError, text)
    return r, text
  end

  local function open(page)
    return ok("browser_navigate", { url = srv.url .. "/loop/" .. page })
  end

  local function ref_of(text, pattern)
    return assert(text:match(pattern .. " %[ref=([%w_]+)%]"), pattern .. " not in:\n" .. text)
  end

  -- The text of the file the export wrote.
  local function exported(name)
    return assert(read(dir .. "/" .. name), "no " .. name .. " in " .. dir)
  end

  describe("expect= on an acting tool", function()
    it("waits for a text a click shows after 300 ms, records it, reports the change in one line "
      .. "without candidates, and the export asserts it", function()
      open("expect.html")
      local _, snap = ok("browser_snapshot", {})
      local r, text = call("browser_click", { ref = ref_of(snap, 'button "Save"'), expect = { "Saved" } })
      assert.is_nil(r.isError, text)
      assert.is_true(has(text, '\n✅ Expected "Saved": recorded'), text)
      assert.is_nil(text:find("Holds now", 1, true), text)
      assert.is_nil(text:find("No change on the page", 1, true), text)
      -- The change is told in one "Changes (" line or not at all; no diff lines.
      local reports = 0
      for _, l in ipairs(lines(text)) do
        if l:match("^Changes") then
          reports = reports + 1
          assert.matches("^Changes %(%+%d+ %-%d+ ~%d+%)", l)
        end
        assert.is_nil(l:match("^[+~%-] "), text)
      end
      assert.is_true(reports <= 1, text)
      assert.is_true(r.structuredContent.expected[1].ok, text)
      local _, out = ok("browser_export_test", { filename = "expect_saved" })
      assert.is_true(has(out, "1 assertions"), out)
      local file = exported("expect_saved.spec.ts")
      local click = file:find("  await page.getByRole('button', { name: 'Save' }).click();\n", 1, true)
      local check = file:find("  await expect(page.getByText('Saved'", 1, true)
      assert.is_truthy(click, file)
      assert.is_truthy(check, file)
      assert.is_true(check > click, file)
      assert.matches("await expect%(page%.getByText%('Saved'[^\n]*%)%)%.toBeVisible%(%);", file)
    end)

    it("records what a live region said before the action too as a check that it still says it", function()
      -- (Run BX's "1 item left" after Clear completed was refused and cost a verify.)
      ok("browser_navigate", { url = srv.url .. "/loop/pay-status" })
      local _, snap = ok("browser_snapshot", {})
      local pay = ref_of(snap, 'button "Pay"')
      ok("browser_click", { ref = pay })
      local r, text = call("browser_click", { ref = pay, expect = { "Paid" } })
      assert.is_nil(r.isError, text)
      assert.is_true(has(text, "\n✅ Expected \"Paid\": recorded getByRole('region', { name: 'Payment' })"
        .. ".getByRole('status') toHaveText('Paid') (step "), text)
      assert.is_true(has(text, ") (its live region said it before the action too: this checks it still does)"), text)
    end)

    it("records a live region's new text with no caveat when the text showed only elsewhere before", function()
      -- (Run CE: the option "Iceland" went, the status came to say
      -- "Shipping to Iceland", and the answer said the status had said it
      -- before too, which it had not.)
      ok("browser_navigate", { url = srv.url .. "/loop/pick-country" })
      local _, snap = ok("browser_snapshot", {})
      local r, text = call("browser_click", { ref = ref_of(snap, 'option "Iceland"'), expect = { "Iceland" } })
      assert.is_nil(r.isError, text)
      assert.is_true(has(text, "\n✅ Expected \"Iceland\": recorded getByRole('status') toHaveText('Shipping to Iceland')"),
        text)
      assert.is_nil(text:find("said it before", 1, true), text)
      assert.is_nil(r.structuredContent.expected[1].before, text)
    end)

    it("proposes what a status said beside an expected text checked elsewhere, and not when checked there", function()
      -- (Run CI expected its new row, and the status "Added …" went unproposed.)
      ok("browser_navigate", { url = srv.url .. "/loop/add-row" })
      local _, snap = ok("browser_snapshot", {})
      local _, text = ok("browser_click", { ref = ref_of(snap, 'button "Add product"'), expect = { "Teak Lamp" } })
      assert.matches("\n✅ Expected \"Teak Lamp\": recorded [^\n]*\nHolds now[^\n]*:\n"
        .. "%[a%d+%] getByRole%('status'%) toHaveText%('Added Teak Lamp at %$25%.00%.'%)", text)
      ok("browser_navigate", { url = srv.url .. "/loop/add-row" })
      _, snap = ok("browser_snapshot", {})
      _, text = ok("browser_click", { ref = ref_of(snap, 'button "Add product"'), expect = { "Added Teak Lamp" } })
      assert.is_true(has(text, "\n✅ Expected \"Added Teak Lamp\": recorded getByRole('status')"), text)
      assert.is_nil(text:find("Holds now", 1, true), text)
    end)

    it("proposes a control the action took away as hidden", function()
      -- (Runs CB and CJ found Clear completed, gone with what it cleared, unproposed.)
      ok("browser_navigate", { url = srv.url .. "/loop/clearable" })
      local _, snap = ok("browser_snapshot", {})
      local _, text = ok("browser_click", { ref = ref_of(snap, 'button "Clear completed"') })
      assert.matches("\n%[a%d+%] getByRole%('button', { name: 'Clear completed' }%) toBeHidden\n?", text)
    end)

    it("does not record a text the page showed before the action as often: it would pass without it", function()
      open("expect.html")
      local _, snap = ok("browser_snapshot", {})
      -- "Notes" is the heading; a key press changes nothing.
      local r, text = call("browser_press_key", { key = "ArrowRight", expect = { "Notes" } })
      assert.is_nil(r.isError, text)
      assert.is_true(has(text, '\n⚠️ Expected "Notes" was on the page before the action too: it proves nothing'), text)
      assert.is_true(r.structuredContent.expected[1].before, text)
      -- A text the action shows once more than before ("Saved" holds
      -- "Save", the button's name) is recorded.
      r, text = call("browser_click", { ref = ref_of(snap, 'button "Save"'), expect = { "Saved", "Save" } })
      -- The plain text's line is not repeated; one that may find what was there is.
      -- (Each with its step, as the verify tools' answers: run CJ worked out which to drop.)
      assert.matches("\n✅ Expected \"Saved\": recorded getByText%('Saved'%) toBeVisible %(step %d+%)\n"
        .. "✅ Expected \"Save\": recorded getByText%('Save', { exact: true }%) toBeVisible %(step %d+%)\n", text)
      -- It showed before, once: the line may find what was there (the
      -- button); counted as the exact check finds it, not inside "Save
      -- your work often." (run ER's "1" was said to have shown 727 times).
      assert.is_true(has(text, '\n⚠️ "Save" showed 1 time before the action: if that line finds what was there '
        .. "already, it proves nothing of the action"), text)
      assert.is_table(r.structuredContent.expected[2].assertion, text)
      -- An action that leads to another document shows its texts anew.
      local _, aisle = open("aisle")
      r, text = call("browser_click", { ref = ref_of(aisle, 'link "Cart"'), expect = { "Wool Blanket" } })
      assert.is_nil(r.isError, text)
      assert.is_true(has(text, '\n✅ Expected "Wool Blanket": recorded'), text)
    end)

    it("checks a text the page showed before as an element of the action's container that shows just it", function()
      ok("browser_navigate", { url = srv.url .. "/verify/examples.html" })
      local _, found = ok("browser_find", { role = "button", name = "Increment", within = "2. Routing" })
      local ref = assert(found:match('button "Increment" %[ref=(e%d+)%]'), found)
      -- "1" is in the page's headings ("1. Basics"): the section's whole
      -- text would hold it before the click; the count's element alone did not.
      local r, text = call("browser_click", { ref = ref, expect = { "1" } })
      assert.is_nil(r.isError, text)
      assert.is_true(has(text, "\n✅ Expected \"1\": recorded getByRole('region', { name: '2. Routing', exact: true })"
        .. ".getByText('1', { exact: true }) toBeVisible"), text)
      assert.is_nil(text:find("showed", 1, true), text)
    end)

    it("says what a count it checks stands for, as a proposal of one does, once a session", function()
      -- (A server of its own: the note is said once a session.)
      local own = client.start("--output-dir " .. q(dir))
      local function own_call(id, name, args)
        own:send(client.call(id, name, args))
        local m = assert(own:wait_for(id, 60000), name .. " did not answer")
        return m.result.content[1].text
      end
      cart = 0
      own_call(1, "browser_navigate", { url = srv.url .. "/loop/counted.html" })
      local snap = own_call(2, "browser_snapshot", {})
      -- A count the page keeps itself starts anew in the test's fresh context: no word.
      local saved = own_call(3, "browser_click", { ref = ref_of(snap, 'button "Save"'), expect = { "Saved (1)" } })
      local text = own_call(4, "browser_click", { ref = ref_of(snap, 'button "Add"'), expect = { "Cart (1)" } })
      local again = own_call(5, "browser_click", { ref = ref_of(snap, 'button "Add"'), expect = { "Cart (2)" } })
      assert.equal(0, (own:close(30000)))
      assert.is_true(has(saved, '✅ Expected "Saved (1)"'), saved)
      assert.is_nil(saved:find("counts what the account holds", 1, true), saved)
      -- (Run BM's expect= "Cart (1)" got no word of it, and runs 2 and 3 of its gate failed on Cart (7).)
      assert.is_true(has(text, "\n(Cart (1) counts what the account holds now: a test that does not start from the "
        .. "same count reads another. Check what the action added instead (the item itself), or browser_remember the "
        .. "count with its words before the action (pattern Cart \\(\\d+\\)) to check it did not change; "
        .. "browser_export_test drop=[5] takes this check out.)"), text)
      assert.is_nil(again:find("counts what the account holds", 1, true), again)
    end)

    it("proposes the item an action that posted added before the list's count, which the next run's data breaks", function()
      -- (Run BU's new product's row went unproposed behind toHaveCount(21).)
      ok("browser_navigate", { url = srv.url .. "/loop/posted-list" })
      local _, snap = ok("browser_snapshot", {})
      local r, text = call("browser_click", { ref = ref_of(snap, 'button "Add"') })
      assert.is_nil(r.isError, text)
      local n = assert(text:match("Added Fig (%d+)"), text)
      assert.is_true(has(text, ("getByRole('status') toHaveText('Added Fig %s')"):format(n)), text)
      assert.is_true(has(text, ("getByText('Fig %s', { exact: true }) toBeVisible"):format(n)), text)
      assert.is_nil(text:find("toHaveCount(3)", 1, true), text)
    end)

    it("checks an expected text a live region in the action's container shows on that region first", function()
      ok("browser_navigate", { url = srv.url .. "/loop/pay-status" })
      local _, snap = ok("browser_snapshot", {})
      local r, text = call("browser_click", { ref = ref_of(snap, 'button "Pay"'), expect = { "Paid" } })
      assert.is_nil(r.isError, text)
      assert.is_true(has(text, "\nLocator: getByRole('region', { name: 'Payment' }).getByRole('button', { name: 'Pay' })"),
        text)
      -- (Run BO's payment status was checked as a text of the form.)
      assert.is_true(has(text, "\n✅ Expected \"Paid\": recorded getByRole('region', { name: 'Payment' })"
        .. ".getByRole('status') toHaveText('Paid')"), text)
      -- Pressed again, nothing changes: no word of what it says still.
      local _, again = ok("browser_click", { ref = ref_of(snap, 'button "Pay"') })
      assert.is_true(has(again, "\nNo change on the page. Recorded as step "), again)
      assert.is_nil(again:find("still says", 1, true), again)
      -- A status emptied says so (run BT read `~ status (was …)` alone).
      local _, reset = ok("browser_click", { ref = ref_of(snap, 'button "Reset"') })
      -- (A live region has a ref: run EW's status had none to check it by.)
      assert.matches('\n~ status %[ref=e%d+%]: %(empty%) %(was "Paid"%)', reset)
    end)

    it("says in its one line of changes the list a new item went into", function()
      local _, nav = ok("browser_navigate", { url = srv.url .. "/loop/todo-boxes" })
      local _, text = ok("browser_type", { ref = ref_of(nav, 'textbox "New todo"'), text = "Milk", submit = true,
        expect = { "1 left" } })
      -- (Run BR's list took another call to find, to check its items.)
      assert.matches('\nChanges %(%+4 %-0 ~1%): status %[ref=e%d+%]: 1 left, listitem "Milk Milk Delete" %[ref=e%d+%] %(in list '
        .. '"Todo items" %[ref=e%d+%]%), checkbox "Milk" %[ref=e%d+%], button "Delete" %[ref=e%d+%]\n', text)
      -- Said once: the next item goes into the same list.
      local _, next_one = ok("browser_type", { ref = ref_of(nav, 'textbox "New todo"'), text = "Tea", submit = true,
        expect = { "2 left" } })
      assert.is_nil(next_one:find("(in list", 1, true), next_one)
    end)

    it("checks an expected text a live region shows on that region, whole or in part", function()
      local _, nav = open("todos.html")
      local box = ref_of(nav, 'textbox "New todo"')
      local r, text = call("browser_type", { ref = box, text = "Milk", submit = true, expect = { "1 item left" } })
      assert.is_nil(r.isError, text)
      assert.is_true(has(text, "\n✅ Expected \"1 item left\": recorded getByRole('status') toHaveText('1 item left')"),
        text)
      r, text = call("browser_type", { ref = box, text = " ", submit = true, expect = { "needs a title" } })
      -- (A part of it, checked as all it says: the rest holds no number.)
      assert.is_true(has(text, "\n✅ Expected \"needs a title\": recorded getByRole('alert') "
        .. "toHaveText('A todo needs a title')"), text)
      -- A text of no live region is the page's, as before.
      r, text = call("browser_type", { ref = box, text = "Tea", submit = true, expect = { "Tea" } })
      -- (A count the status ticked, "1 item left" to "2 items left", is
      -- not proposed beside it: the agent checks a count when it means to.)
      assert.matches("\n✅ Expected \"Tea\": recorded getByText%('Tea'%) toBeVisible %(step %d+%)$", text)
      -- A part whose rest is a count stays a part: the next run's may differ.
      r, text = call("browser_type", { ref = box, text = "Jam", submit = true, expect = { "items left" } })
      assert.is_true(has(text, "\n✅ Expected \"items left\": recorded getByRole('status') toContainText('items left')"),
        text)
    end)

    it("checks an expected text in one of several live regions through the container that tells it apart", function()
      local _, nav = open("statuses.html")
      ok("browser_type", { ref = ref_of(nav, 'textbox "Name"'), text = "Ada" })
      local r, text = call("browser_click", { ref = ref_of(nav, 'button "Send invite"'), expect = { "sent to Ada" } })
      assert.is_nil(r.isError, text)
      assert.is_true(has(text, "\n✅ Expected \"sent to Ada\": recorded getByRole('region', { name: 'Invitations' })"
        .. ".getByRole('status') toHaveText('Invitation sent to Ada as Editor')"), text)
      -- The run's token in the rest is no number a next run may change
      -- (run CO's "<ada{run}@example.com>" kept it to toContainText).
      ok("browser_type", { ref = ref_of(nav, 'textbox "Name"'), text = "Ada {run}", clear = true })
      r, text = call("browser_click", { ref = ref_of(nav, 'button "Send invite"'), expect = { "sent to Ada" } })
      assert.is_true(has(text, "\n✅ Expected \"sent to Ada\": recorded getByRole('region', { name: 'Invitations' })"
        .. ".getByRole('status') toHaveText('Invitation sent to Ada {run} as Editor')"), text)
    end)

    it("proposes the one status of a labelled form through the form", function()
      -- (A bare getByRole('status') is unique only until the page shows a
      -- second: runs BQ, BZ and CA scoped theirs to the form by hand.)
      local _, nav = open("formstatus.html")
      ok("browser_type", { ref = ref_of(nav, 'textbox "Name"'), text = "Oak" })
      local _, text = ok("browser_click", { ref = ref_of(nav, 'button "Add product"') })
      assert.matches("\n%[a%d+%] getByRole%('form', { name: 'Add a product' }%)%.getByRole%('status'%) "
        .. "toHaveText%('Added Oak%.'%)", text)
      -- A brief report (expect=) names a text that came alone, in no new
      -- element (run CA read "+1" and no line of it).
      local _, draft = ok("browser_click", { ref = ref_of(nav, 'button "Save draft"'), expect = { "Saved" } })
      assert.matches("\nChanges %(%+1 %-0 ~1%): status %[ref=e%d+%]: Saved, text: Draft 1 kept\n", draft)
      -- The expected text is recorded on the status through its form, as proposed.
      assert.is_true(has(draft, "\n✅ Expected \"Saved\": recorded getByRole('form', { name: 'Add a product' })"
        .. ".getByRole('status') toHaveText('Saved')"), draft)
    end)

    it("does not warn of a text shown before when the check recorded is of an element the page did not show", function()
      local _, nav = open("menu.html")
      -- "History" is a heading; the link of that name shows when the menu opens.
      local r, text = call("browser_click", { ref = ref_of(nav, 'button "Menu"'), expect = { "History" } })
      assert.is_nil(r.isError, text)
      assert.is_true(has(text, "\n✅ Expected \"History\": recorded getByRole('link', { name: 'History' }) toBeVisible"), text)
      assert.is_nil(text:find("showed 1 time before", 1, true), text)
    end)

    it("does not count the value of a text field as a text the page showed before", function()
      local _, nav = open("products.html?expect")
      ok("browser_type", { ref = ref_of(nav, 'textbox "Name"'), text = "Oak Bench" })
      local _, snap = ok("browser_snapshot", {})
      local _, text = ok("browser_click", { ref = ref_of(snap, 'button "Add product"'), expect = { "Oak Bench" } })
      assert.matches('\n✅ Expected "Oak Bench": recorded [^\n]+$', text)
    end)

    it("makes the answer an error that still says what the click did and what the page has", function()
      open("expect.html")
      local _, snap = ok("browser_snapshot", {})
      local save = ref_of(snap, 'button "Save"')
      local r, text = call("browser_click", { ref = save, expect = { "Never there" } })
      assert.is_true(r.isError, text)
      assert.matches("^Clicked " .. save .. " %(step %d+%)$", text:match("^[^\n]*"))
      assert.is_true(has(text, "\nLocator: getByRole('button', { name: 'Save' })\n"), text)
      assert.matches('\n❌ Expected "Never there": getByText%(\'Never there\'%) matches nothing; the page has: [^\n]+', text)
      -- What the test holds now: the click, and no check of it.
      assert.matches("%. The action was done and is a step of the test; no check of it is recorded: verify what the "
        .. "page shows %(browser_verify_text_visible%)", text)
      assert.is_false(r.structuredContent.expected[1].ok)
    end)
  end)

  describe("a re-rendered ref", function()
    it("acts on the element's successor (same role and name) and says so", function()
      open("rerender.html")
      local _, snap = ok("browser_snapshot", {})
      local inc = ref_of(snap, 'button "Increment"')
      -- The first click re-renders the button: its ref is then stale.
      local _, text = ok("browser_click", { ref = inc })
      assert.is_true(has(text, '\n~ paragraph: "Count: 1" (was "Count: 0")'), text)
      assert.is_nil(text:find("re-rendered", 1, true), text)
      local r
      r, text = call("browser_click", { ref = inc })
      assert.is_nil(r.isError, text)
      local from = text:match("\nNote: (e%d+) was re%-rendered; acted on its successor %(same role and name%)\n")
      assert.equal(inc, from, text)
      -- Its ref now is the one the changes give.
      local to = text:match('\n~ button "Increment" %[ref=(e%d+)%]') or text:match('button "Increment" %[ref=(e%d+)%]')
      if to then assert.are_not.equal(inc, to) end
      -- The click took effect on the successor.
      assert.is_true(has(text, '\n~ paragraph: "Count: 2" (was "Count: 1")'), text)
      assert.is_true(has(text, "\nLocator: getByRole('button', { name: 'Increment' })\n"), text)
      -- Its first line names the step it became, which drop= takes (run
      -- CE exported twice to count its steps).
      assert.matches("^Clicked " .. inc .. " %(step %d+%)\n", text)
    end)

    it("stays a StaleRef when two elements share its role and name", function()
      open("rerender.html")
      local _, snap = ok("browser_snapshot", {})
      local split = ref_of(snap, 'button "Split"')
      local _, text = ok("browser_click", { ref = split })
      assert.is_true(has(text, '\n+ button "Split"'), text)
      local r
      r, text = call("browser_click", { ref = split })
      assert.is_true(r.isError, text)
      assert.equal("❌ Element is no longer on the page", text:match("^[^\n]*"))
      assert.is_true(has(text, ('\nMessage: %s was the button "Split" (<button>), which has left the page; '
        .. '2 elements have its role and name now, so none is taken for it: take a snapshot (or find it by its '
        .. 'row or card) and use its new ref\n'):format(split)), text)
      assert.is_nil(text:find("successor", 1, true), text)
      -- The locator of that ref says the same, not just the ref.
      r, text = call("browser_generate_locator", { ref = split })
      assert.is_true(r.isError, text)
      assert.is_true(has(text, ('\nMessage: %s was the button "Split" (<button>), which has left the page; '
        .. '2 elements have its role and name now'):format(split)), text)
    end)
  end)

  describe("browser_export_test assertions=[ids]", function()
    it("keeps a change report's proposal after the click that proposed it, and names an unknown id", function()
      open("cart.html")
      local _, snap = ok("browser_snapshot", {})
      local _, text = ok("browser_click", { ref = ref_of(snap, 'button "Add to cart"') })
      -- How to keep a proposal is said the first time in a session.
      assert.matches('\nChanges %(%+0 %-0 ~1%):\n~ status "Cart" %[ref=e%d+%]: 1 items %(was "0 items"%)\n'
        .. "Holds now[^\n]*:\n", text)
      local id = text:match("\n%[(a%d+)%] getByRole%('status', { name: 'Cart' }%) toHaveText%('1 items'%)")
      assert.is_string(id, text)
      local r, bad = call("browser_export_test", { filename = "cart_bad", assertions = { "a999" } })
      assert.is_true(r.isError, bad)
      assert.equal("❌ Invalid argument", bad:match("^[^\n]*"))
      assert.is_true(has(bad, "\nField: assertions\n"), bad)
      assert.is_true(has(bad, "\nMessage: assertions: a999 was not proposed in this session\n"), bad)
      assert.is_nil(read(dir .. "/cart_bad.spec.ts"))
      local _, out = ok("browser_export_test", { filename = "cart", assertions = { id } })
      assert.matches("^Wrote cart%.spec%.ts: %d+ steps %(%d+ navigations, %d+ actions, %d+ assertions%)", out)
      -- The kept check's step number, which drop takes: numbered after the
      -- steps recorded before it, not by its line (run BL dropped by line).
      -- What the number is, said once a session (runs BQ, BR and BS read it as a place in the file).
      -- With what it checks, in short (run FI had cut the answer that proposed it).
      local n = tonumber(out:match("\nKept " .. id .. " %(toHaveText%('1 items'%)%) as step (%d+) %(its number for "
        .. "drop, not its place in the file%)\n"))
      assert.is_number(n, out)
      local file = exported("cart.spec.ts")
      assert.is_true(has(file, "  await page.getByRole('button', { name: 'Add to cart' }).click();\n"
        .. "  await expect(page.getByRole('status', { name: 'Cart' })).toHaveText('1 items');\n"), file)
      -- Kept once: the same id again (an export sent again) adds nothing.
      local _, again = ok("browser_export_test", { filename = "cart_again", assertions = { id } })
      assert.equal(out:match(": (%d+) steps"), again:match(": (%d+) steps"), again)
      -- Said in short the next times (run CG had forgotten it by its third export).
      assert.matches("\nKept " .. id .. " %(toHaveText%('1 items'%)%) as step %d+ %(drop numbers%)\n", again)
      assert.equal(1, select(2, exported("cart_again.spec.ts"):gsub("toHaveText%('1 items'%)", "")))
      assert.is_nil(again:find("since your last export", 1, true), again)
      -- A step recorded after an export joins the next one of the test,
      -- which says so (run BM's look at its cart went in unsaid).
      local _, checked = ok("browser_verify_element_visible", { role = "button", accessibleName = "Add to cart" })
      local no = assert(checked:match(" %(step (%d+)%)"), checked)
      local _, third = ok("browser_export_test", { filename = "cart_again" })
      assert.is_true(has(third, ("\nStep %s (toBeVisible) was recorded since your last export of this test and is "
        .. "in it (drop=[%s] takes it out if it was only a look)"):format(no, no)), third)
    end)
  end)

  describe("browser_navigate", function()
    it("outlines a small page: headings and named controls with refs, a repeated control once with its count", function()
      local _, text = open("small.html")
      local outline = text:match("\nOutline:\n(.*)$")
      assert.is_string(outline, text)
      local ls = lines(outline)
      assert.equal('- heading "Settings" [level=1]', ls[1])
      assert.matches('^%- textbox "Name" %[ref=e%d+%]$', ls[2])
      -- Each with its ref and its item's title (run CF spent a find per product).
      assert.matches('^%- button "Edit" ×3: %[ref=e%d+%] in "One", %[ref=e%d+%] in "Two", %[ref=e%d+%] in "Three"$',
        ls[3])
      assert.matches('^%- button "Save" %[ref=e%d+%]$', ls[4])
      assert.equal(4, #ls, outline)
      assert.is_nil(text:find("Read it:", 1, true), text)
      -- The outline's refs are live.
      local _, typed = ok("browser_type", { ref = ls[2]:match("%[ref=(e%d+)%]"), text = "Ada" })
      assert.matches('\n~ textbox "Name" %[ref=e%d+%]: Ada %(was empty%)', typed)
    end)

    it("tells an outline shown before for the URL in one line, and one that changed whole", function()
      open("small.html")
      local _, again = open("small.html")
      assert.is_true(has(again, "\nOutline: not repeated, as shown before for this URL (4 outline lines, the same refs); "
        .. "browser_snapshot() reads it again"), again)
      local _, first = open("visits.html")
      local _, second = open("visits.html")
      assert.matches('\nOutline:\n%- heading "Visit %d+" %[level=1%]\n', first)
      assert.matches('\nOutline:\n%- heading "Visit %d+" %[level=1%]\n', second)
      assert.are_not.equal(first:match('"Visit %d+"'), second:match('"Visit %d+"'))
      -- Once an action changed what the agent knows of the page, the same
      -- outline as its first look is not "as before": it says it is the
      -- first look's, before the actions (the cart is empty again).
      cart = 0
      local _, shop = open("counted.html")
      local _, added = ok("browser_click", { ref = ref_of(shop, 'button "Add"') })
      -- A count the server holds is not proposed, and what it stands for
      -- is said, once a session (runs BC, BE and BH kept such a check, and
      -- the next run's cart held more; run EL read it proposed and warned
      -- of in one answer).
      assert.is_nil(added:find("name: 'Cart (1)'", 1, true), added)
      assert.is_true(has(added, "\n(Cart (1) is not proposed: it counts what the account holds now: a test that does "
        .. "not start from the same count reads another. Check what the action added instead (the item itself), or "
        .. "browser_remember the count with its words before the action (pattern Cart \\(\\d+\\)) to check it did "
        .. "not change.)"), added)
      -- A count of reviews is one too (run FC's "4.7 (8 reviews)" was
      -- proposed, and the next run reads 9).
      local _, rated = ok("browser_click", { ref = ref_of(shop, 'button "Rate"') })
      assert.matches("reviews%)", rated)
      assert.is_nil(rated:match("%[a%d+%][^\n]*reviews%)"), rated)
      -- But the count of the run's own item, found through its token, is
      -- that item's alone (run FG's new product's "4.0 (1 reviews)").
      ok("browser_type", { element = "New item", text = "Lamp {run}" })
      ok("browser_click", { element = 'the "Add item" button' })
      local _, mine = ok("browser_click", { element = 'the "Rate it" button' })
      assert.matches("%[a%d+%][^\n]*Lamp {run}[^\n]*4%.0 %(1 reviews%)", mine)
      local _, back = open("counted.html")
      assert.matches("\nOutline: not repeated, its %d+ lines read as your first look at this URL showed them, before your "
        .. "actions", back)
      local _, same = open("counted.html")
      assert.matches("\nOutline: not repeated, as shown before for this URL", same)
    end)

    it("outlines what the page says of itself (status, alert) with its text, which a changed page shows anew", function()
      local _, first = open("health")
      assert.matches('\nOutline:\n%- heading "Health" %[level=1%]\n%- status %[ref=e%d+%]: %d+ services have problems\n'
        .. '%- alert %[ref=e%d+%]: Could not load the history%.\n%- button "Try again" %[ref=e%d+%]$', first)
      -- The same page saying something else is no outline "as shown before".
      local _, second = open("health")
      assert.is_nil(second:find("as shown before", 1, true), second)
      assert.are_not.equal(first:match("status %[ref=e%d+%]: (%d+)"), second:match("status %[ref=e%d+%]: (%d+)"))
      assert.is_string(first:match("status %[ref=e%d+%]: (%d+)"), first)
      -- A status in every row is no headline: the first three are given.
      local rows = {}
      for i = 1, 5 do rows[i] = ("- status: Order %d shipped"):format(i) end
      local items, left = require("vdx.outline").of(table.concat(rows, "\n"))
      assert.same({ "- status: Order 1 shipped", "- status: Order 2 shipped", "- status: Order 3 shipped" }, items)
      assert.equal(2, left)
      -- A table of a few rows shows them; one of more, only its count.
      local function tbl(n)
        local lines = { "- table [ref=e1]:" }
        for i = 1, n do
          lines[#lines + 1] = ("  - row [ref=e%d]:"):format(i + 1)
          lines[#lines + 1] = ('    - cell "Item %d"'):format(i)
          lines[#lines + 1] = '    - cell "$1.00"'
        end
        return require("vdx.outline").of(table.concat(lines, "\n"))[1]
      end
      assert.equal("- table [ref=e1]: 2 rows, no controls: [Item 1 | $1.00] [Item 2 | $1.00]", tbl(2))
      assert.equal("- table [ref=e1]: 5 rows", tbl(5))
      -- One with a control in a row does not say it has none (run AM's
      -- cart read as if its Qty cells might be fields).
      local with = require("vdx.outline").of("- table [ref=e1]:\n  - row [ref=e2]:\n    - cell \"Mug\"\n"
        .. "    - cell:\n      - spinbutton \"Qty\" [ref=e3]: \"1\"")
      assert.equal("- table [ref=e1]: 1 row: [Mug]", with[1])
      -- A head of column headers is no row (run BZ read an empty table's "1 row" as a product).
      local head = "- table [ref=e1]:\n  - row [ref=e2]:\n    - columnheader \"Product\"\n    - columnheader \"Price\""
      assert.equal("- table [ref=e1]: 0 rows under Product | Price", require("vdx.outline").of(head)[1])
      assert.equal("- table [ref=e1]: 1 row under Product | Price, no controls: [Oak | $4]",
        require("vdx.outline").of(head .. '\n  - row [ref=e3]:\n    - cell "Oak"\n    - cell "$4"')[1])
      -- A repeated control by card: each card's heading titles it; more
      -- than four, or titles that do not tell them apart, give the count only.
      local function cards(n, titled)
        local lines = { '- heading "Shop" [level=1]' }
        for i = 1, n do
          lines[#lines + 1] = "- article:"
          if titled then lines[#lines + 1] = ('  - heading "Mug %d" [level=2]'):format(i) end
          lines[#lines + 1] = ('  - button "Add" [ref=e%d]'):format(i)
        end
        for _, l in ipairs((require("vdx.outline").of(table.concat(lines, "\n")))) do
          if l:find("^%- button") then return l end
        end
      end
      assert.equal('- button "Add" ×2: [ref=e1] in "Mug 1", [ref=e2] in "Mug 2"', cards(2, true))
      assert.equal('- button "Add" ×5', cards(5, true))
      assert.equal('- button "Add" ×2', cards(2, false))
      -- A card's rating buttons, names alike but for their numbers, are one
      -- line after the first's, so the card's other controls still fit
      -- (run CM's Add to cart buttons were left out behind fifteen).
      local lines = { '- heading "Shop" [level=1]' }
      local n = 0
      for c = 1, 3 do
        lines[#lines + 1] = "- article:"
        lines[#lines + 1] = ('  - heading "Mug %d" [level=2]'):format(c)
        lines[#lines + 1] = "  - paragraph: by Nordic Goods"
        lines[#lines + 1] = ("  - paragraph: $%d.00"):format(c * 10)
        for k = 1, 5 do
          n = n + 1
          lines[#lines + 1] = ('  - button "Rate %d star%s" [ref=e%d]'):format(k, k > 1 and "s" or "", n)
        end
        n = n + 1
        lines[#lines + 1] = ('  - button "Add to cart" [ref=e%d]'):format(n)
      end
      local out = require("vdx.outline").of(table.concat(lines, "\n"))
      assert.same({ '- heading "Shop" [level=1]', '- heading "Mug 1" [level=2]',
        -- (Each card's price the first time it titles a control: runs CL
        -- and CP read each card with a find for it.)
        '- button "Rate 1 star" ×3: [ref=e1] in "Mug 1" ($10.00), [ref=e7] in "Mug 2" ($20.00), [ref=e13] in "Mug 3" '
          .. '($30.00)\n'
          .. '- button "Rate 2 stars" … "Rate 5 stars": 4 more alike, ×3 each beside those (browser_find(role=, '
          .. 'name=) gives their refs)',
        '- button "Add to cart" ×3: [ref=e6] in "Mug 1", [ref=e12] in "Mug 2", [ref=e18] in "Mug 3"',
        '- heading "Mug 2" [level=2]', '- heading "Mug 3" [level=2]' }, out)
    end)

    it("opens a role's default URL as it navigates: the first look has what the page fetched after load", function()
      local s2 = client.start("--role shop - " .. srv.url .. "/loop/late-list")
      s2:send(client.initialize(1, "2025-06-18"))
      s2:wait_for(1, 10000)
      s2:send(client.call(2, "browser_snapshot", {}))
      local r = s2:wait_for(2, 60000).result
      assert.equal(0, (s2:close(30000)))
      assert.is_true(has(r.content[1].text, "Steel Chair"), r.content[1].text)
    end)

    it("says when the app sent the role to a sign-in page instead", function()
      local _, text = ok("browser_navigate", { url = srv.url .. "/loop/account" })
      -- A server of one role names no role to switch to: it has none (run DA).
      assert.is_true(has(text, "\n⚠️ The app sent role default to a sign-in page (/loop/account/login): it is not "
        .. "signed in there. Sign in on this page as the test will (browser_start_test {keep_state: true} starts "
        .. "the next test signed in as the roles are then)."), text)
      -- Where it was sent is proposed: a test that the page needs signing
      -- in (run EM found toHaveURL only by trying browser_wait_for).
      assert.is_true(has(text, "toHaveURL(/\\/loop\\/account\\/login$/)"), text)
      local _, bad = call("browser_snapshot", { role = "admin" })
      assert.is_true(has(bad, "this server has one role, default, and roles come from its command "
        .. "line (vdxlua mcp --role NAME AUTH_FILE URL) or config: leave role out"), bad)
      local _, plain = open("small.html")
      assert.is_nil(plain:find("sign-in page", 1, true), plain)
      -- A start signs the role out and loads its page again: where the
      -- app sent it then is said (run FG's customer, said to be on
      -- /shop/cart, was on /customer/login).
      open("join")
      local _, members = open("members")
      assert.is_true(has(members, "Members"), members)
      local _, started = ok("browser_start_test", {})
      assert.is_true(has(started, "\n- default on " .. srv.url .. "/loop/members, signed out, its storage reset to it, "
        .. "and the app sent it on to " .. srv.url .. "/loop/account/login"), started)
      -- Another role's own page: the answer names the role to act as.
      local s2 = client.start(("--role guest - %s/loop/small.html --role member - %s/loop/account"):format(srv.url,
        srv.url))
      s2:send(client.initialize(1, "2025-06-18"))
      s2:wait_for(1, 10000)
      s2:send(client.call(2, "browser_navigate", { url = srv.url .. "/loop/account" }))
      local r = s2:wait_for(2, 60000).result
      -- A new test opening it says so first, before each role's line (run AE read past it at the end).
      s2:send(client.call(3, "browser_start_test", { url = srv.url .. "/loop/account" }))
      local st = s2:wait_for(3, 60000).result
      -- A role whose page the agent has not seen is outlined as it is
      -- selected (run DF navigated to it for its refs); one seen is not.
      s2:send(client.call(4, "select_role", { role = "member" }))
      local member = s2:wait_for(4, 60000).result.content[1].text
      s2:send(client.call(5, "select_role", { role = "guest" }))
      local guest = s2:wait_for(5, 60000).result.content[1].text
      -- A role's context made anew shows a document the agent has no
      -- refs of: outlined again (run EA acted with the refs of the one before).
      s2:send(client.call(6, "select_role", { role = "member" }))
      s2:wait_for(6, 60000)
      s2:send(client.call(7, "browser_start_test", {}))
      s2:wait_for(7, 60000)
      s2:send(client.call(8, "select_role", { role = "guest" }))
      local anew = s2:wait_for(8, 60000).result.content[1].text
      assert.equal(0, (s2:close(30000)))
      assert.matches("^Current role: guest\nPage: [^\n]+\nOutline", anew)
      assert.matches("^Current role: member\nPage: [^\n]*/loop/account/login[^\n]*\nOutline:\n%- ", member)
      assert.matches("^Current role: guest\nPage: [^\n]+$", guest)
      -- The first page call of a session of several roles says whose it was (run DG); once.
      assert.matches("^As guest %(the current role; role= or select_role acts as another%): Navigated to ",
        r.content[1].text)
      assert.is_true(has(r.content[1].text, "\n⚠️ The app sent role guest to a sign-in page (/loop/account/login): it "
        .. "is not signed in there. This is role member's page: act as it (select_role member)."), r.content[1].text)
      assert.matches("^New test started[^\n]*\n⚠️ The app sent role guest to a sign%-in page %(/loop/account/login%)",
        st.content[1].text)
      assert.equal(1, select(2, st.content[1].text:gsub("The app sent role", "")), st.content[1].text)
    end)

    it("does not outline a page of more than 400 elements, and says how to read it", function()
      local _, text = open("big.html")
      assert.is_nil(text:find("Outline:", 1, true), text)
      assert.is_true(has(text, "\nRead it: browser_snapshot(depth=2) for its layout (alike parts folded), "
        .. "browser_find(text=…) for one part, browser_snapshot() for all."), text)
      assert.is_nil(text:find("[ref=", 1, true), text)
      -- A test started again there says which refs read before still act.
      local _, found = ok("browser_find", { role = "button", name = "Finish" })
      local finish = ref_of(found, 'button "Finish"')
      local _, started = ok("browser_start_test", { url = srv.url .. "/loop/big.html" })
      assert.is_true(has(started, "\nThe page loaded anew: a ref read before this start still acts on an element its "
        .. "role and name single out; for the others browser_find gives new refs."), started)
      local _, clicked = ok("browser_click", { ref = finish, expect = { "Status: done" } })
      assert.is_true(has(clicked, '✅ Expected "Status: done"'), clicked)
      local _, small = ok("browser_start_test", { url = srv.url .. "/loop/small.html" })
      assert.is_nil(small:find("refs read before this start", 1, true), small)
    end)
  end)

  describe("browser_find", function()
    it("keeps what it read as the change baseline of a big page", function()
      open("big.html")
      local _, found = ok("browser_find", { text = "Finish" })
      local _, text = ok("browser_click", { ref = ref_of(found, 'button "Finish"') })
      assert.is_nil(text:find("no earlier look at this page", 1, true), text)
      assert.is_true(has(text, '\nChanges (+0 -0 ~1):\n~ paragraph: "Status: done" (was "Status: idle")'), text)
    end)
  end)

  describe("a same-document navigation", function()
    it("reports what the hashchange handler rendered, and the new URL as its fragment", function()
      local _, nav = open("hash.html")
      local _, text = ok("browser_click", { ref = ref_of(nav, 'link "Fruits B"') })
      assert.is_true(has(text, "\nURL now #/b\nChanges ("), text)
      assert.is_nil(text:find("URL now http", 1, true), text)
      -- The list is empty now (and lost its ref with its items): the same
      -- list, whose items went.
      assert.matches('\n%- listitem: Apple %(in list "Fruits" %[ref=e%d+%]%)\n%- listitem: Avocado\n', text)
      assert.is_nil(text:find('- list "Fruits"', 1, true), text)
      assert.is_true(has(text, "No fruits here"), text)
    end)
  end)

  describe("a view that goes", function()
    it("proposes the tab panel a tab hid, and a wait for a ref to go records toBeHidden by its locator", function()
      local _, nav = open("tabs.html")
      ok("browser_start_test", {})
      local _, snap = ok("browser_snapshot", {})
      local panel = ref_of(snap, 'tabpanel "Overview"')
      local _, text = ok("browser_click", { ref = ref_of(nav, 'tab "Usage"') })
      local id = text:match("\n%[(a%d+)%] getByRole%('tabpanel', { name: 'Overview' }%) toBeHidden, and toBeVisible before the action\n")
        or text:match("\n%[(a%d+)%] getByRole%('tabpanel', { name: 'Overview' }%) toBeHidden, and toBeVisible before the action$")
      -- And what the panel shown shows.
      assert.matches("\n%[a%d+%] getByRole%('tabpanel', { name: 'Usage' }%) toContainText%('Storage used: 41 GB%.'%)", text)
      -- The panel that went says what it showed.
      assert.matches('\n%- tabpanel "Overview" %[ref=e%d+%]: …%(%+1 lines inside, the first "Team plan with 12 seats%."%)', text)
      -- A click of the panel the page hid waits 5 s for it, not the
      -- action's 30 s, and says what hides it (run FM's moved Checkout).
      local hid, said = call("browser_click", { ref = panel })
      assert.is_true(hid.isError, said)
      assert.is_true(has(said, panel .. " is not visible after 5000 ms: the hidden attribute (display:none)"), said)
      local _, waited = ok("browser_wait_for", { ref_gone = panel })
      -- Hidden already: its locator is one that matches hidden elements too.
      assert.is_true(has(waited, "Recorded: await expect(page.locator('#p1')).toBeHidden();"), waited)
      assert.is_string(id, text)
      -- The gate replays the wait by its locator, in pages where the ref means nothing.
      local _, out = ok("browser_export_test", { filename = "tabs", runs = 2 })
      assert.is_true(has(out, "every step passed 2/2"), out)
      io.stderr:write(out)
      local file = exported("tabs.spec.ts")
      assert.matches("\n  await expect%(%w+%.locator%('#p1'%)%)%.toBeHidden%(%);\n", file)
    end)
  end)

  describe("the outline of a page loaded again", function()
    it("is one line when it is the page the first look showed, though actions changed it since", function()
      local _, first = open("tabs.html?again")
      assert.is_true(has(first, '\nOutline:\n- heading "Plan" [level=1]\n'), first)
      local _, nav = ok("browser_snapshot", {})
      ok("browser_click", { ref = ref_of(nav, 'tab "Usage"') })
      local _, again = open("tabs.html?again")
      assert.matches("\nOutline: not repeated, its %d+ lines read as your first look at this URL showed them, before your "
        .. "actions %(the same refs%); browser_snapshot%(%) reads the whole page\n", again)
      -- And what reads otherwise than the last look before the load (run
      -- FA took a find to see its cart back at 0).
      assert.matches('\nChanged against your last look %(%+%d+ %-%d+ ~%d+%):\n~ tab "Overview" %[selected%] %[ref=e%d+%] '
        .. '%(was not %[selected%]%)[^\n]*\n~ tab "Usage" %[ref=e%d+%] %(was %[selected%]%)\n', again)
      -- (No colon left open for children the lines do not give.)
      assert.matches('\n%+ tabpanel "Overview" %[ref=e%d+%]\n', again)
      -- A new test starts anew by design: its start says nothing of it
      -- (run FD read a start's "-10" as noise).
      local _, nav2 = ok("browser_snapshot", {})
      ok("browser_click", { ref = ref_of(nav2, 'tab "Usage"') })
      local _, started = ok("browser_start_test", { url = srv.url .. "/loop/tabs.html?again" })
      assert.is_nil(started:find("Changed against", 1, true), started)
    end)
  end)

  describe("a list in a new order", function()
    it("says when the app made its items anew, whose old refs are gone, and not when it moved them", function()
      local _, nav = open("sort.html")
      local _, moved = ok("browser_click", { ref = ref_of(nav, 'button "Reverse"') })
      assert.matches('\n↕ list "People"[^\n]* new order: Bea, Ann, Cleo', moved)
      assert.is_nil(moved:find("made anew", 1, true), moved)
      local _, sorted = ok("browser_click", { ref = ref_of(nav, 'button "Sort by name"') })
      assert.matches('\n↕ list "People"[^\n]* new order: Ann, Bea, Cleo\n  %(these items made anew: their refs are new, '
        .. "the old ones gone%)", sorted)
    end)
  end)

  describe("a row that went", function()
    it("is proposed gone by the text it showed, beside the count of those left", function()
      open("team.html")
      local _, found = ok("browser_find", { role = "button", name = "Remove", within = "Ada Lovelace" })
      local _, text = ok("browser_click", { ref = found:match('button "Remove" %[ref=(e%d+)%]') })
      -- In its table, as the count beside it (runs BF and BL).
      assert.matches("\n%[a%d+%] getByRole%('table', { name: 'Members' }%)%.getByRole%('row'%)%.filter%({ hasText: "
        .. "'Ada Lovelace' }%) toHaveCount%(0%)\n", text)
      assert.matches("getByRole%('row'%) toHaveCount%(3%)", text)
    end)
  end)

  describe("a submit the form's validation stopped", function()
    it("says where focus went and proposes that field is invalid, though nothing else changed", function()
      local _, nav = open("invalid.html")
      ok("browser_type", { ref = ref_of(nav, 'textbox "Email" %[required%]'), text = "not-an-email" })
      local _, text = ok("browser_click", { ref = ref_of(nav, 'button "Send invite"') })
      -- With the message the browser shows there (run BD's brief asked
      -- what the form says).
      assert.matches('\nFocus now: textbox "Email" %[invalid%][^\n]* — the form\'s validation stopped the submit there '
        .. '%(the browser says "Please include an \'@\' in the email address[^\n]*"%)\n', text)
      assert.matches("\n%[a%d+%] getByRole%('textbox', { name: 'Email' }%)%.and%(locator%(':user%-invalid'%)%) toBeVisible",
        text)
      assert.is_nil(text:find("Invitation sent", 1, true), text)
    end)

    it("is what the step did, not a change-less try to drop, with the field emptied before", function()
      open("invalid.html")
      ok("browser_start_test", {})
      local _, found = ok("browser_find", { text = "e" })
      local email = ref_of(found, 'textbox "Email" %[required%]')
      -- Emptied after an entry, the field is invalid before the submit:
      -- the click changes nothing the snapshot shows (run AN's name).
      ok("browser_fill_form", { fields = { { ref = email, value = "a" } } })
      ok("browser_fill_form", { fields = { { ref = email, value = "" } } })
      ok("browser_press_key", { key = "Tab" })
      local _, text = ok("browser_click", { ref = ref_of(found, 'button "Send invite"') })
      assert.matches("the form's validation stopped the submit there (the browser says \"Please fill out this "
        .. "field.\")", text, 1, true)
      -- Run AN was told "No change on the page … drop=[9] if it was only a try".
      assert.is_nil(text:find("No change on the page", 1, true), text)
      assert.is_nil(text:find("only a try", 1, true), text)
    end)
  end)

  describe("a wait whose condition does not come", function()
    it("is told in short: what did not come, one cause, one next step", function()
      open("invalid.html")
      local r, text = call("browser_wait_for", { text = "Something went wrong", timeout = 500 })
      assert.is_true(r.isError, text)
      assert.is_true(has(text, 'Message: text "Something went wrong" did not appear within 500 ms\n\nPossible causes:\n'
        .. "• The page did not get there in that time: the app did not do it, or shows it otherwise\n\n"
        .. "🔧 Action Required:\n1. Call browser_find(text=…) or browser_snapshot() to see what the page shows instead; "
        .. "wait again with a longer timeout if the app is just slow."), text)
      assert.is_nil(text:find("\n2. ", 1, true), text)
    end)
  end)

  describe("a wait for a locator to be hidden", function()
    it("says which frame shows a text the main document did not have", function()
      -- (Run BW's "unavailable" was in the payment frame: its wait looked in the page.)
      -- (Run CF's "Service unavailable" was recorded as a check of the
      -- page that passed at once: the one frame that shows it is waited in.)
      ok("browser_navigate", { url = srv.url .. "/loop/framed-status" })
      local r, text = call("browser_wait_for", { textGone = "Service unavailable", timeout = 1000 })
      assert.is_true(r.isError, text)
      assert.is_true(has(text, 'text "Service unavailable" did not go away within 1000 ms in frame f1 (the main '
        .. "document never showed it)"), text)
      ok("browser_navigate", { url = srv.url .. "/loop/framed-retry" })
      ok("browser_start_test", {})
      local _, snap = ok("browser_snapshot", {})
      ok("browser_click", { ref = ref_of(snap, 'button "Retry"') })
      text = select(2, ok("browser_wait_for", { textGone = "Service unavailable" }))
      assert.is_true(has(text, "Waited in frame f1: the main document never showed it, that frame does. Recorded: "
        .. "await expect(page.getByTitle('Payment').contentFrame().getByText('Service unavailable')"
        .. ".filter({ visible: true })).toHaveCount(0);"), text)
      assert.is_nil(text:find("⚠️", 1, true), text)
      local _, out = ok("browser_export_test", { filename = "framedwait", runs = 1 })
      assert.is_true(has(out, "every step passed 1/1"), out)
    end)

    it("says when the locator matched nothing before the wait either, and not when it did", function()
      open("tabs.html")
      ok("browser_start_test", {})
      local _, nav = ok("browser_snapshot", {})
      -- browser_verify_locator of no element proposes the check that none
      -- shows (runs EM and EP found no tool that records an empty list's).
      local _, none = ok("browser_verify_locator", { locator = "getByText('Never here')" })
      assert.is_true(has(none, "❌ Matches no element\nLocator: getByText('Never here')\nA typo's locator matches "
        .. "nothing too: check what shows instead as well (a status, the rows left).\nHolds now"), none)
      assert.matches("\n%[a%d+%] getByText%('Never here'%) toHaveCount%(0%)$", none)
      local _, never = ok("browser_wait_for", { locator = "getByText('Never here')", state = "hidden" })
      -- (The step's number, to drop it by: run DA could not.)
      local no = assert(never:match("toBeHidden%(%); %(step (%d+)%)\n"), never)
      assert.is_true(has(never, "Recorded: await expect(page.getByText('Never here')).toBeHidden(); (step " .. no .. ")\n⚠️ "
        .. "getByText('Never here') matched nothing before the wait either: the check passes for a wrong locator too"),
        never)
      -- A text to go that no element showed: the same.
      local _, text = ok("browser_wait_for", { textGone = "Never said" })
      assert.is_true(has(text, "\n⚠️ getByText('Never said') matched nothing before the wait either: the check "
        .. "passes for a wrong text too"), text)
      assert.matches("; browser_export_test drop=%[%d+%] takes this one out", text)
      ok("browser_click", { ref = ref_of(nav, 'tab "Usage"') })
      local _, gone = ok("browser_wait_for", { locator = "getByText('Team plan with 12 seats.')", state = "hidden" })
      assert.is_true(has(gone, "Recorded: await expect(page.getByText('Team plan with 12 seats.')).toBeHidden();"), gone)
      assert.is_nil(gone:find("matched nothing", 1, true), gone)
      local _, went = ok("browser_wait_for", { textGone = "Team plan with 12 seats." })
      assert.is_nil(went:find("matched nothing", 1, true), went)
      -- A role locator skips hidden elements: a link in a closed menu is
      -- one, which the test then finds with includeHidden.
      open("menu.html")
      local _, link = ok("browser_wait_for", { locator = "getByRole('link', { name: 'Overview' })", state = "hidden" })
      assert.is_true(has(link, "Recorded: await expect(page.getByRole('link', { name: 'Overview', includeHidden: true }))"
        .. ".toBeHidden(); (step 8)\n(includeHidden: getByRole skips hidden elements; with it the locator finds the one the "
        .. "page holds hidden now, so the test names a real element. The check fails when it shows.)\ncount: 1\n"), link)
      assert.is_nil(link:find("⚠️", 1, true), link)
      ok("browser_start_test", {})
      ok("browser_wait_for", { locator = "getByRole('link', { name: 'Overview' })", state = "hidden" })
      local _, out = ok("browser_export_test", { filename = "hiddenlink", runs = 1 })
      assert.is_true(has(out, "every step passed 1/1"), out)
      -- A ref whose element an action removed already: by the role and
      -- name it had (run BA's dialog, closed by its Send).
      open("dialog.html")
      local _, snap = ok("browser_snapshot", {})
      local dialog = ref_of(snap, 'dialog "Invite a member"')
      ok("browser_click", { ref = ref_of(snap, 'button "Send invite"') })
      local _, went = ok("browser_wait_for", { ref_gone = dialog })
      assert.is_true(has(went, "Recorded: await expect(page.getByRole('dialog', { name: 'Invite a member' }))"
        .. ".toBeHidden();"), went)
      -- One that finds nothing hidden either is a wrong locator.
      local _, none = ok("browser_wait_for", { locator = "getByRole('link', { name: 'Nowhere' })", state = "hidden" })
      assert.is_true(has(none, "matched nothing before the wait either (getByRole skips hidden elements: one hidden "
        .. "all along matches nothing)"), none)
      assert.is_true(has(none, "Recorded: await expect(page.getByRole('link', { name: 'Nowhere' })).toBeHidden();"), none)
    end)
  end)

  describe("an export", function()
    it("writes no wait for a load's late data when a check comes between or the load waits for the network", function()
      open("small.html")
      -- A check between, and none.
      ok("browser_start_test", {})
      local _, nav = open("late-cart")
      ok("browser_verify_text_visible", { text = "Steel Chair" })
      ok("browser_click", { ref = ref_of(nav, 'button "Checkout"') })
      local _, out = ok("browser_export_test", { filename = "latecart2" })
      assert.is_nil(out:find("after its load, and step", 1, true), out)
      -- A load that waits for the network to rest is the test's too.
      ok("browser_start_test", {})
      ok("browser_navigate", { url = srv.url .. "/loop/late-cart", wait_until = "networkidle" })
      ok("browser_click", { ref = ref_of(nav, 'button "Checkout"') })
      _, out = ok("browser_export_test", { filename = "latecart3", runs = 1 })
      assert.is_nil(out:find("after its load, and step", 1, true), out)
      assert.is_true(has(out, "every step passed 1/1"), out)
      assert.is_true(has(exported("latecart3.spec.ts"), "/loop/late-cart`, { waitUntil: 'networkidle' });"),
        exported("latecart3.spec.ts"))
      -- A request that got no response (a route aborts it): a wait for it
      -- would never end.
      ok("enable_tools", { caps = { "network" } })
      ok("browser_route", { pattern = "**/loop/late-items", abort = "failed" })
      ok("browser_start_test", {})
      _, nav = open("late-cart")
      ok("browser_click", { ref = ref_of(nav, 'button "Checkout"') })
      _, out = ok("browser_export_test", { filename = "latecart4" })
      assert.is_nil(out:find("after its load, and step", 1, true), out)
      assert.is_nil(exported("latecart4.spec.ts"):find("waitForResponse", 1, true), exported("latecart4.spec.ts"))
      ok("browser_unroute", {})
    end)

    it("warns of an action followed by a page load with no check between, naming the proposal that waits", function()
      local _, nav = open("products.html?race")
      ok("browser_start_test", {})
      ok("browser_type", { ref = ref_of(nav, 'textbox "Name"'), text = "Birch Box" })
      local _, snap = ok("browser_snapshot", {})
      local _, added = ok("browser_click", { ref = ref_of(snap, 'button "Add product"') })
      local id = assert(added:match("\n%[(a%d+)%] "), added)
      open("small.html")
      local _, out = ok("browser_export_test", { filename = "race" })
      assert.matches("\n⚠️ Step %d+ acts and step %d+ loads a page with nothing between that checks what the action did: "
        .. "the load may come before the app finished%. Keep " .. id .. " %(its proposal%), assertions=%[\"" .. id
        .. "\"%], so the test waits for it", out)
      -- Kept, the warning goes.
      local _, again = ok("browser_export_test", { filename = "race", assertions = { id } })
      assert.is_nil(again:find("loads a page with nothing between", 1, true), again)
    end)

    it("counts a click on a link to another page as a page load", function()
      local _, nav = open("linkrace.html")
      ok("browser_start_test", {})
      local _, added = ok("browser_click", { ref = ref_of(nav, 'button "Add to cart"') })
      local id = assert(added:match("\n%[(a%d+)%] "), added)
      ok("browser_click", { ref = ref_of(nav, 'link "Cart"') })
      local _, out = ok("browser_export_test", { filename = "linkrace" })
      assert.matches("\n⚠️ Step 2 acts and step 3 loads a page with nothing between that checks what the action did: "
        .. "the load may come before the app finished%. Keep " .. id .. " ", out)
    end)
  end)

  describe("the flake gate's replay", function()
    it("hovers a table row the agent reached by its container ref, as Playwright would", function()
      -- (Its own URL: the test below wants the first outline of products.html.)
      open("products.html?hover")
      ok("browser_start_test", {})
      local _, snap = ok("browser_snapshot", {})
      local row = assert(snap:match('row %[ref=(e%d+)%]:%s*%- cell "Oak Stool"'), snap)
      ok("browser_hover", { ref = row })
      local _, out = ok("browser_export_test", { filename = "row_hover", runs = 1 })
      assert.is_true(has(out, "every step passed 1/1"), out)
      assert.matches("\n  await %w+%.[^\n]*%.hover%(%);\n", exported("row_hover.spec.ts"))
    end)
  end)

  describe("the proposals", function()
    it("put what the page says it did (a status) before the other lines the action changed", function()
      local _, nav = open("confirm.html")
      local _, paid = ok("browser_click", { ref = ref_of(nav, 'button "Pay"') })
      -- (Run BJ's order confirmation went unproposed behind a heading and
      -- the payment frame's status.)
      assert.matches("\nHolds now[^\n]*\n%[a%d+%] getByRole%('status'%) toHaveText%('Order 1001 is confirmed'%)\n", paid)
    end)
  end)

  describe("a brief report (expect=)", function()
    it("names what the page says, then what is new, then what changed: a new row's controls before cleared fields",
        function()
      local _, nav = open("addrow.html")
      ok("browser_fill_form", { fields = { { ref = ref_of(nav, 'textbox "Product name" %[required%]'),
        value = "Teak Lamp Deluxe Edition" }, { ref = ref_of(nav, 'textbox "Price" %[required%]'), value = "24.00" } } })
      local _, added = ok("browser_click", { ref = ref_of(nav, 'button "Add product"'),
        expect = { "Teak Lamp Deluxe Edition" } })
      local line = assert(added:match("\n(Changes %([^\n]*)"), added)
      -- (Run BD's new row lost its Update price button to the two fields
      -- its submit had cleared.)
      assert.matches('^Changes %(%+%d+ %-0 ~%d+%): status %[ref=e%d+%]: Added Teak Lamp Deluxe Edition at %$24%.00%., row "Teak '
        .. 'Lamp Deluxe Edition %$24%.00 New price Update price" %[ref=e%d+%], textbox "New price" %[ref=e%d+%], '
        .. 'button "Update price" %[ref=e%d+%], ', line)
    end)

    it("proposes a dialog the action closed hidden, which no expected text says", function()
      open("dialog.html")
      -- A field of the dialog is located, and proposed, through it (run
      -- BI's fill_form was proposed page-wide beside its scoped actions).
      local _, name = ok("browser_find", { role = "textbox", name = "Name" })
      local _, filled = ok("browser_fill_form", { fields = { { ref = ref_of(name, 'textbox "Name"'), value = "Ada" } } })
      assert.is_true(has(filled, "\nLocator: getByRole('dialog', { name: 'Invite a member' }).getByRole('textbox', "
        .. "{ name: 'Name' })\n"), filled)
      -- (No toHaveValue('Ada'): it would say only what the fill did.)
      assert.is_nil(filled:find("toHaveValue", 1, true), filled)
      local _, found = ok("browser_find", { role = "button", name = "Send invite" })
      local _, sent = ok("browser_click", { ref = ref_of(found, 'button "Send invite"'), expect = { "Invitation sent" } })
      -- (Runs AZ, BA and BG wrote it by hand.)
      assert.matches("\n%[a%d+%] getByRole%('dialog', { name: 'Invite a member' }%) toBeHidden", sent)
    end)
  end)

  describe("the test's own data ({run})", function()
    it("scopes the locators of a row that shows the run's token, and of what is in it, to that row by it", function()
      local _, snap = open("products.html")
      -- The navigation's outline lists the table, with its rows under its
      -- head, which it shows when they are few.
      assert.matches("\n%- table %[ref=e%d+%]: 1 row under Product | Price | Reviews: %[Oak Stool | %$40%.00 | "
        .. "2 reviews%]\n", snap)
      local _, added = ok("browser_type", { element = "Name", text = "Walnut Tray {run}", submit = true,
        expect = { "Walnut Tray {run}" } })
      -- The brief report names the new row by what it shows.
      assert.matches('row "Walnut Tray {run} %$25%.00 0 reviews Rate" %[ref=e%d+%]', added)
      local _, found = ok("browser_find", { text = "Walnut Tray", context = 4 })
      local row = assert(found:match('row %[ref=(e%d+)%]:%s*%- cell "Walnut Tray {run}"'), found)
      -- The one row with 1 review after the click: unique today, and in
      -- the next run's page too only through the row of this run.
      local _, clicked = ok("browser_click", { element = "Rate", ref = ref_of(found, 'button "Rate"') })
      assert.is_true(has(clicked, "Locator: getByTestId('product-row').filter({ hasText: 'Walnut Tray {run}' })"
        .. ".getByRole('button', { name: 'Rate' })\n"), clicked)
      assert.is_true(has(clicked, "getByTestId('product-row').filter({ hasText: 'Walnut Tray {run}' })"
        .. ".getByRole('cell', { name: '1 reviews' }) toBeVisible"), clicked)
      -- A text with no ref of its own in that row: the whole text exactly,
      -- as the verify tools record it (run CA's proposal took a part).
      assert.is_true(has(clicked, "getByTestId('product-row').filter({ hasText: 'Walnut Tray {run}' })"
        .. ".getByText('Thanks for rating', { exact: true }) toBeVisible"), clicked)
      -- Checked in its cell, which its button and that text name: in the
      -- row, not through the cell's name (run CA's 'Update price Saved').
      local cell = assert(clicked:match("%+ cell %[ref=(e%d+)%]:\n%+ text: Thanks for rating"), clicked)
      local _, thanks = ok("browser_verify_text_visible", { text = "Thanks for rating", ref = cell })
      assert.is_true(has(thanks, "Recorded: await expect(page.getByTestId('product-row').filter({ hasText: "
        .. "'Walnut Tray {run}' }).getByText('Thanks for rating', { exact: true })).toBeVisible();"), thanks)
      -- A text verified (or expected) in that row is recorded through it.
      local _, seen = ok("browser_verify_text_visible", { text = "1 reviews" })
      assert.is_true(has(seen, "Recorded: await expect(page.getByTestId('product-row').filter({ hasText: "
        .. "'Walnut Tray {run}' }).getByRole('cell', { name: '1 reviews' })).toBeVisible();"), seen)
      local r, listed = ok("browser_verify_list_visible", { ref = row, items = { "Walnut Tray {run}", "$25.00" } })
      assert.is_true(has(listed, "getByTestId('product-row').filter({ hasText: 'Walnut Tray {run}' })"), listed)
      assert.is_nil(listed:find("getByRole('row', { name:", 1, true), listed)
      assert.is_table(r.structuredContent)
      -- Without a token the row is its whole name, as before.
      local _, other = ok("browser_generate_locator", { ref = ref_of(snap, 'button "Rate"') })
      assert.is_true(has(other, "getByTestId('product-row').filter({ hasText: 'Oak Stool' })"), other)
    end)
  end)

  describe("ids the app numbers", function()
    it("proposes a name or a text that holds #1001 as a regex that takes any number", function()
      local _, nav = open("order.html")
      local _, text = ok("browser_click", { element = "Place order", ref = ref_of(nav, 'button "Place order"') })
      assert.is_true(has(text, "getByRole('heading', { name: /Payment for order #\\d+/ }) toBeVisible"), text)
      -- (An exact text's regex is anchored: exact is for strings.)
      assert.is_true(has(text, "getByText(/^Order #\\d+ is confirmed: \\$25\\.00 paid\\.$/) toBeVisible"), text)
      assert.is_nil(text:find("#1001'", 1, true), text)
    end)
  end)

  describe("page errors", function()
    it("quotes the errors the page threw since the action, even when nothing changed", function()
      ok("browser_navigate", { url = srv.url .. "/loop/broken-pay" })
      local _, snap = ok("browser_snapshot", {})
      local r, text = ok("browser_click", { element = "Pay", ref = ref_of(snap, 'button "Pay"') })
      assert.is_true(has(text, "\nNo change on the page."), text)
      -- The request that failed, and that the page says nothing of it
      -- (run BM made six calls to be sure the app shows no message).
      -- What its status says is from before (run BO read it as this try's).
      assert.is_true(has(text, "\nRequest GET /loop/pay-500 (500) failed, and nothing on the page changed: no text, "
        .. "status or alert (it still says, from before: status: The card was declined). A message of this failure, "
        .. "if any, was there before: a test can wait for that response (page.waitForResponse), not for a message\n"),
        text)
      assert.same({ "GET /loop/pay-500 (500)" }, r.structuredContent.failed_requests)
      -- (The error came from the response the click brought, after the click itself.)
      assert.matches("\nPage errors since the action %(1; browser_console_messages lists every message%):\n"
        .. "%- [^\n]*SyntaxError[^\n]*JSON", text)
      assert.equal(1, r.structuredContent.page_errors)
      assert.is_nil(text:find("console_errors", 1, true), text)
      -- The next action answers its own errors only.
      _, text = ok("browser_click", { element = "Nothing", ref = ref_of(snap, 'button "Nothing"') })
      assert.is_nil(text:find("Page errors", 1, true), text)
    end)

    it("quotes no error of a fetch the page's leaving cut off (a list it polls)", function()
      local _, nav = ok("browser_navigate", { url = srv.url .. "/loop/polling" })
      require("vdx").sleep(300)
      local r, text = ok("browser_click", { ref = ref_of(nav, 'link "Leave"') })
      assert.matches("Navigated to [^\n]*/loop/small%.html", text)
      assert.is_nil(text:find("Page errors", 1, true), text)
      assert.is_nil(text:find("console_errors", 1, true), text)
      assert.is_nil(r.structuredContent.page_errors)
    end)
  end)

  describe("browser_fill_form", function()
    it("answers without console_errors or per-field noise", function()
      local _, nav = open("form.html")
      local r, text = ok("browser_fill_form", { fields = {
        { name = "Full name", type = "textbox", ref = ref_of(nav, 'textbox "Full name"'), value = "Ada" },
        { name = "Subscribe", type = "checkbox", ref = ref_of(nav, 'checkbox "Subscribe"'), value = "true" } } })
      -- (The steps it recorded, one a field, on its first line: run CL.)
      assert.matches("^Filled 2 fields %(steps (%d+)%-(%d+)%)\n", text)
      local a, b = text:match("^Filled 2 fields %(steps (%d+)%-(%d+)%)")
      assert.equal(tonumber(a) + 1, tonumber(b))
      assert.is_true(has(text, " fields (steps " .. a .. "-" .. b
        .. ")\nLocator: getByRole('textbox', { name: 'Full name' })\n"
        .. "Locator: getByRole('checkbox', { name: 'Subscribe' })\nChanges ("), text)
      assert.is_nil(text:find("console_errors", 1, true), text)
      assert.is_nil(text:find("fields:", 1, true), text)
      assert.is_nil(text:find("\ncount:", 1, true), text)
      assert.is_true(has(text, "\n~ checkbox \"Subscribe\" [checked]"), text)
      assert.is_table(r.structuredContent)
    end)

    it("writes the container its fields share once", function()
      local _, snap = ok("browser_navigate", { url = srv.url .. "/loop/sections.html" })
      _, snap = ok("browser_snapshot", {})
      local shipping = assert(snap:match('region "Shipping" %[ref=e%d+%]:(.*)$'), snap)
      local r, text = ok("browser_fill_form", { fields = {
        { name = "Name", type = "textbox", ref = ref_of(shipping, 'textbox "Name"'), value = "Ada" },
        { name = "Save it", type = "checkbox", ref = ref_of(shipping, 'checkbox "Save it"'), value = "true" } } })
      assert.is_true(has(text, " fields (steps " .. text:match("steps (%d+%-%d+)")
        .. ")\nLocators, each in getByRole('region', { name: 'Shipping' }):\n"
        .. "- getByRole('textbox', { name: 'Name' })\n- getByRole('checkbox', { name: 'Save it' })\nChanges ("), text)
      -- A checkbox's state is proposed; a field showing what was typed is not.
      assert.is_nil(text:find("toHaveValue", 1, true), text)
      assert.is_true(has(text, "toBeChecked"), text)
      local _, three = ok("browser_fill_form", { fields = {
        { name = "Name", type = "textbox", ref = ref_of(snap, 'textbox "Name"'), value = "Bo" },
        { name = "Name", type = "textbox", ref = ref_of(shipping, 'textbox "Name"'), value = "Cy" },
        { name = "Save it", type = "checkbox", ref = ref_of(snap, 'checkbox "Save it"'), value = "true" } } })
      assert.matches("%[a%d+%][^\n]*getByRole%('checkbox', { name: 'Save it' }%)[^\n]*toBeChecked", three)
      assert.is_nil(three:find("toHaveValue", 1, true), three)
      -- The structured answer keeps each whole.
      assert.same({ "getByRole('region', { name: 'Shipping' }).getByRole('textbox', { name: 'Name' })",
        "getByRole('region', { name: 'Shipping' }).getByRole('checkbox', { name: 'Save it' })" },
        r.structuredContent.locators)
      -- The first action of a new test records the goto of its page first:
      -- the range names it (run DF counted one step too many).
      ok("browser_start_test", {})
      local _, next_test = ok("browser_fill_form", { fields = {
        { name = "Name", type = "textbox", ref = ref_of(shipping, 'textbox "Name"'), value = "Di" } } })
      local a, b, goto_no = next_test:match("^Filled 1 field %(steps (%d+)%-(%d+), (%d+) its goto%)\n")
      assert.is_truthy(a, next_test)
      assert.equal(a, goto_no)
      assert.equal(tonumber(a) + 1, tonumber(b))
    end)
  end)
end)
