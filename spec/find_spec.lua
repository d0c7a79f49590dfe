-- browser_find, refs on containers, a hidden or gone snapshot root, and
-- the structure tools started from a locator or a text, against the real
-- browser on a long documentation-style fixture (spec/fixtures/find).
local vdx = require "vdx"
local cjson = require "cjson"
local h = require "helpers"
local client = require "mcp_client"
local tools = require "vdx.tools"

describe("find", function()
  local browser, srv, page, registry, ctx

  setup(function()
    srv, browser, page = h.open()
    registry = require("vdx.builtin").register_all(tools.new())
    local role = { name = "default", failures = { drain = function() return {} end } }
    ctx = { role = role, page = function() return page end }
  end)

  teardown(function() h.shut(browser, srv) end)

  -- Calls tool name with args in process; returns its text and result.
  local function call(name, args)
    local res = registry:call(name, args, ctx)
    return res.content[1].text, res
  end

  local function open_long()
    page:navigate(srv.url .. "/find/long.html")
    return page:snapshot { budget_tokens = 100000 }
  end

  local function ref_of(text, pattern)
    return assert(text:match(pattern), "no match for " .. pattern .. " in:\n" .. text)
  end

  it("reads snapshot lines: quoted keys, names with colons, inline text, properties", function()
    local find = require "vdx.find"
    assert.same({ indent = 2, role = "button", name = "Price: 5", text = "", ref = "e2" },
      find.parse_line([=[  - 'button "Price: 5" [ref=e2]']=]))
    assert.same({ indent = 0, role = "paragraph", name = "", text = "$37.99", ref = "e18" },
      find.parse_line("- paragraph [ref=e18]: $37.99"))
    assert.same({ indent = 4, role = "heading", name = 'Say "hi"', text = "", ref = nil },
      find.parse_line([=[    - heading "Say \"hi\"" [level=2]]=]))
    assert.same({ indent = 2, role = "text", name = "", text = "42" }, find.parse_line('  - text: "42"'))
    assert.same({ indent = 0, role = "link", name = "Home", text = "", ref = "f1e3" },
      find.parse_line('- link "Home" [ref=f1e3]:'))
    assert.is_nil(find.parse_line("    - /url: /p/1"))
    assert.is_nil(find.parse_line('- note: "frame f1 could not be read"'))
  end)

  it("gives refs to landmarks, lists, tables, rows, dialogs and test ids, not to text-only cells", function()
    local snap = open_long()
    local text = "\n" .. snap.text
    for _, line in ipairs {
      '\n%- main %[ref=e%d+%]:\n', '\n  %- table "Stock" %[ref=e%d+%]:\n', '\n    %- row %[ref=e%d+%]:\n',
      '\n  %- list %[ref=e%d+%]:\n', '\n    %- listitem %[ref=e%d+%]:\n', '\n  %- dialog "Newsletter" %[ref=e%d+%]:\n',
      '\n  %- navigation "Main" %[ref=e%d+%]:\n', '\n  %- region "Section 7" %[ref=e%d+%]:\n',
      '\n%- banner %[ref=e%d+%]:\n',
    } do
      assert.truthy(text:find(line), line)
    end
    -- A cell that holds only text is no container: no ref.
    assert.truthy(snap.text:find('\n      %- cell "Desk"\n'))
    -- An empty list prints without a ref (nothing to start from).
    assert.truthy(snap.text:find('\n  %- list\n'))
  end)

  it("snapshots the subtree of a container ref", function()
    local snap = open_long()
    local dialog = ref_of(snap.text, 'dialog "Newsletter" %[ref=(e%d+)%]')
    local sub = page:snapshot { root = dialog }
    assert.equal(('- dialog "Newsletter" [ref=%s]:\n  - paragraph: Subscribe to the newsletter\n'
      .. '  - button "Subscribe" [ref=e%d]\n'):format(dialog, tonumber(dialog:sub(2)) + 1), sub.text)
    local text = call("browser_snapshot", { root = ref_of(snap.text, 'table "Stock" %[ref=(e%d+)%]') })
    assert.truthy(text:find('\n%- table "Stock" %[ref=e%d+%]:\n  %- row %[ref=e%d+%]:'))
    assert.falsy(text:find("Section 1", 1, true))
  end)

  it("snapshots a grid from its ref, rows and cells with it", function()
    page:navigate(srv.url .. "/explore/datagrid.html")
    local text = page:snapshot { budget_tokens = 100000 }.text
    local grid = ref_of(text, '%- grid "Transactions 1" %[ref=(e%d+)%]:')
    local sub = page:snapshot { root = grid }.text
    assert.equal('- grid "Transactions 1" [ref=' .. grid .. ']:', sub:match("^[^\n]+"))
    assert.truthy(sub:find('\n  %- row %[ref=e%d+%]:\n    %- columnheader "Date"\n'), sub)
    assert.truthy(sub:find('\n    %- gridcell "01%-Jan%-16" %[ref=e%d+%]\n'), sub)
    assert.falsy(sub:find("Transactions 2", 1, true))
  end)

  it("refuses a hidden root with the ref and the reason", function()
    local snap = open_long()
    local dialog = ref_of(snap.text, 'dialog "Newsletter" %[ref=(e%d+)%]')
    local list = ref_of(snap.text, '%- list %[ref=(e%d+)%]:\n    %- listitem %[ref=e%d+%]:\n      %- text: Modern')
    page:evaluate("document.querySelector('[role=dialog]').style.display = 'none'")
    local err = h.error_of(page.snapshot, page, { root = dialog })
    assert.is_true(vdx.is_error(err, "ElementNotVisible"))
    assert.equal(dialog, err.ref)
    assert.equal("display:none", err.reason)
    page:evaluate("document.querySelector('[data-testid=products]').setAttribute('aria-hidden', 'true')")
    err = h.error_of(page.snapshot, page, { root = list })
    assert.equal('aria-hidden="true"', err.reason)
    -- Through the tool the answer is an error that says so.
    local text, res = call("browser_snapshot", { root = dialog })
    assert.is_true(res.isError)
    assert.truthy(text:find("snapshot root " .. dialog .. " is hidden: display:none", 1, true), text)
  end)

  it("refuses a zero-size root and a root hidden by an ancestor", function()
    local snap = open_long()
    local section = ref_of(snap.text, 'region "Section 3" %[ref=(e%d+)%]')
    page:evaluate("const s = document.querySelector('[aria-label=\"Section 3\"]');"
      .. " s.style.cssText = 'display:block;width:0;height:0;overflow:hidden'; s.innerHTML = ''")
    local err = h.error_of(page.snapshot, page, { root = section })
    assert.is_true(vdx.is_error(err, "ElementNotVisible"))
    assert.truthy(err.reason:find("zero size", 1, true))
    assert.is_true(err.empty)
    -- Through the tool, a root with nothing in it is what the page shows,
    -- no element to open (run ER read the error's advice to open a menu).
    local text, res = call("browser_snapshot", { root = section })
    assert.is_falsy(res.isError, text)
    assert.equal(section .. " shows nothing now (zero size, and nothing in it has a box: empty, or filled later; "
      .. "browser_wait_for waits for what it should show)", text)
    local nav = ref_of(snap.text, 'navigation "Main" %[ref=(e%d+)%]')
    page:evaluate("document.querySelector('header').hidden = true")
    err = h.error_of(page.snapshot, page, { root = nav })
    assert.equal("the hidden attribute (display:none) on its ancestor <header>", err.reason)
  end)

  it("says a root that left the page is gone", function()
    local snap = open_long()
    local dialog = ref_of(snap.text, 'dialog "Newsletter" %[ref=(e%d+)%]')
    page:evaluate("document.querySelector('[role=dialog]').remove()")
    local err = h.error_of(page.snapshot, page, { root = dialog })
    assert.is_true(vdx.is_error(err, "StaleRef"))
    local text, res = call("browser_snapshot", { root = dialog })
    assert.is_true(res.isError)
    assert.truthy(text:find("Element is no longer on the page", 1, true), text)
  end)

  it("finds by text with the container path, far smaller than the snapshot", function()
    local snap = open_long()
    local text, res = call("browser_find", { text = "lamp" })
    local s = res.structuredContent
    assert.equal(2, s.total)
    assert.equal(2, #s.matches)
    local list = ref_of(snap.text, '%- list %[ref=(e%d+)%]:\n    %- listitem %[ref=e%d+%]:\n      %- text: Modern')
    local main = ref_of(snap.text, '%- main %[ref=(e%d+)%]')
    assert.equal("      - text: Modern Lamp", s.matches[1].line)
    assert.same({ "- main [ref=" .. main .. "]:", "  - list [ref=" .. list .. "]:" }, { s.matches[1].path[1], s.matches[1].path[2] })
    assert.truthy(s.matches[1].path[3]:match("^    %- listitem %[ref=e%d+%]:$"))
    -- Each ancestor line once: main and the list appear once for both matches.
    local _, mains = text:gsub("%- main %[", "")
    assert.equal(1, mains)
    -- The header says the two are in one tree (runs AJ and AK wondered).
    assert.truthy(text:find("^Page URL: " .. srv.url:gsub("%p", "%%%0") .. "/find/long.html\n2 matches in 1 tree:\n"), text)
    -- The fixture is deterministic: the answer is under 1/100 of the snapshot.
    assert.is_true(#snap.text > 30000, #snap.text)
    assert.is_true(#text * 100 < #snap.text, #text .. " vs " .. #snap.text)
  end)

  it("shows the title of each card whose button's role and name the others share", function()
    page:navigate(srv.url .. "/verify/app.html")
    local text = call("browser_find", { role = "button", name = "Delete" })
    assert.matches('\n  %- generic %[ref=e%d+%]:\n    %- heading "Alpha" %[level=3%]\n    %- button "Delete" %[ref=e%d+%]\n'
      .. '  %- generic %[ref=e%d+%]:\n    %- heading "Beta" %[level=3%]\n    %- button "Delete" %[ref=e%d+%]', text)
    -- A name no other match has needs no title.
    text = call("browser_find", { role = "button", name = "Add task" })
    assert.is_nil(text:find("heading", 1, true), text)
  end)

  it("finds by a JavaScript regex and by role and name, bounded", function()
    open_long()
    local text, res = call("browser_find", { regex = "/^run EXAMPLE 1\\d$/i" })
    assert.equal(10, res.structuredContent.total)
    assert.equal('      - button "Run example 10" [ref=' .. res.structuredContent.matches[1].ref .. ']',
      "  " .. res.structuredContent.matches[1].line)
    assert.truthy(text:find('\n  %- region "Section 19" %[ref=e%d+%]:\n    %- button "Run example 19"'))
    -- A plain source is a case-sensitive regex.
    assert.equal(0, select(2, call("browser_find", { regex = "^run example" })).structuredContent.total)
    -- It also reads the line as printed, role then quoted name (run BL's /^heading.*30/).
    res = select(2, call("browser_find", { regex = '^button "Run example 1[0-2]"$' }))
    assert.equal(3, res.structuredContent.total)
    assert.matches('button "Run example 10"', res.structuredContent.matches[1].line)
    -- role + name: role exact, name a substring; 120 matches, 10 shown.
    text, res = call("browser_find", { role = "button", name = "run example" })
    assert.equal(120, res.structuredContent.total)
    assert.equal(10, res.structuredContent.shown)
    assert.truthy(text:find("… 110 more matched. Narrow it:", 1, true), text)
    assert.is_true(#text < 2300, #text)
    -- max and the character bound, which a larger max raises (about 100
    -- characters a match): asked for 100, the answer has them.
    text, res = call("browser_find", { role = "button", name = "run example", max = 100 })
    assert.equal(100, res.structuredContent.shown)
    assert.is_true(#text < 100 * 100, #text)
    assert.truthy(text:find("… 20 more matched. Narrow it: add role=…", 1, true), text)
    -- Cut by the size bound, the answer says so and does not ask for a larger max.
    text, res = call("browser_find", { role = "region", name = "section", max = 30, context = 20 })
    assert.is_true(res.structuredContent.shown < 30, res.structuredContent.shown)
    assert.truthy(text:find("more matched (the answer's size bound). Narrow it", 1, true), text)
    assert.is_nil(text:find("raise max", 1, true), text)
    -- A bad regex is an InvalidArgument that says why.
    text, res = call("browser_find", { regex = "/(/" })
    assert.is_true(res.isError)
    assert.truthy(text:find("is not a valid JavaScript regular expression", 1, true), text)
    -- A role with a regex names the two it was given (run AX was told of text).
    text, res = call("browser_find", { role = "cell", regex = "Paid" })
    assert.is_true(res.isError)
    assert.truthy(text:find("Field: role\n", 1, true), text)
    assert.truthy(text:find("not regex and role together: a role's name takes no regex", 1, true), text)
  end)

  it("says what the matches past those shown are: the kinds shown again, or the few others", function()
    -- (Run EZ's regex found 65 buttons and fields of 13 alike examples,
    -- showed 10, and could not tell whether the guide had a search box.)
    page:navigate(srv.url .. "/verify/app.html")
    page:evaluate([[document.body.innerHTML = [...Array(8).keys()].map(i => '<section aria-label="Part ' + i
      + '"><button>Run</button><button>Stop</button></section>').join('') + '<input type="search" aria-label="Search">']])
    local text = call("browser_find", { regex = "/button|searchbox/", max = 6 })
    assert.truthy(text:find('\n… 11 more matched, among them searchbox "Search" (not shown above). Narrow it:', 1, true),
      text)
    text = call("browser_find", { role = "button", max = 6 })
    assert.truthy(text:find("\n… 10 more matched, each a role and name shown above again. Narrow it:", 1, true), text)
  end)

  it("finds a row by role and the name its cells give it, which its line leaves off", function()
    page:navigate(srv.url .. "/loop/products.html")
    local text, res = call("browser_find", { role = "row", name = "oak stool" })
    assert.equal(1, res.structuredContent.total, text)
    -- Its line says the name it matched.
    assert.matches('%- row "Oak Stool %$40%.00 2 reviews Rate" %[ref=e%d+%]', res.structuredContent.matches[1].line)
    assert.equal(0, select(2, call("browser_find", { role = "row", name = "Walnut" })).structuredContent.total)
  end)

  it("gives a named match without a ref one, which a check takes and the next change report does not count", function()
    -- (Run BW wrote its order's heading's locator by hand to remember the number in it.)
    page:navigate(srv.url .. "/loop/products.html")
    local text, res = call("browser_find", { text = "Oak Stool" })
    local ref = assert(text:match('%- cell "Oak Stool" %[ref=(e%d+)%]'), text)
    assert.equal(ref, res.structuredContent.matches[1].ref)
    local checked = call("browser_verify_text_visible", { ref = ref, text = "Oak Stool" })
    assert.matches("^✅ Page agrees", checked)
    assert.matches("No change on the page.", call("browser_press_key", { key = "Shift" }), 1, true)
  end)

  it("finds a control within the row or card that shows a text, and not in the page that holds them all", function()
    page:navigate(srv.url .. "/loop/products.html")
    page:evaluate([[(() => { const n = document.querySelector('#n'); n.value = 'Walnut Tray';
      document.querySelector('#f').requestSubmit(); })()]])
    local all = select(2, call("browser_find", { role = "button", name = "Rate" }))
    assert.equal(2, all.structuredContent.total)
    local text, res = call("browser_find", { role = "button", name = "Rate", within = "walnut tray" })
    assert.equal(1, res.structuredContent.total, text)
    assert.equal(all.structuredContent.matches[2].ref, res.structuredContent.matches[1].ref)
    -- A cell found alone says its row has more to read.
    -- (It is given a ref: run BW wrote a heading's locator by hand to remember from it.)
    local cell = call("browser_find", { text = "Oak Stool" })
    assert.matches('\n *%- cell "Oak Stool" %[ref=e%d+%]\n *… %d+ more lines here: context=%d+ shows them', cell)
    -- The line that shows the text is in the answer, above the match: the row is the one asked for.
    assert.matches('\n *%- cell "Walnut Tray"[^\n]*\n *%- cell:\n *%- button "Rate"', text)
    -- A table that shows the text and holds one match scopes it.
    page:evaluate([[(() => { const t = document.createElement('table'); t.setAttribute('aria-label', 'Solo');
      t.innerHTML = '<tr><th>Quantity</th></tr><tr><td><button>Restock</button></td></tr>'; document.body.append(t); })()]])
    assert.equal(1, select(2, call("browser_find", { role = "button", name = "Restock", within = "Quantity" }))
      .structuredContent.total)
    -- Only the table, which holds both buttons, shows "Price" (a header).
    text = call("browser_find", { role = "button", name = "Rate", within = "Price" })
    assert.truthy(text:find('No line of the snapshot matches role button name "Rate" within a container that shows "Price"', 1, true), text)
    -- `within` alone: the row that shows it, with its controls; not a
    -- status that repeats its name (run CA's "Added “Teak Lamp” at …").
    page:evaluate([[(() => { const s = document.createElement('p'); s.setAttribute('role', 'status');
      s.textContent = 'Added “Walnut Tray” at $25.00.'; document.querySelector('#f').append(s); })()]])
    local res2
    text, res2 = call("browser_find", { within = "Walnut Tray" })
    assert.matches('\n *%- cell "Walnut Tray"[^\n]*\n *%- cell[^\n]*\n[^\n]*\n?.*button "Rate" %[ref=e%d+%]', text)
    assert.is_nil(text:find("Oak Stool", 1, true), text)
    assert.is_nil(text:find("Added", 1, true), text)
    assert.equal(1, res2.structuredContent.total, text)
    -- Asked by text, the status is a match all the same.
    assert.equal(2, select(2, call("browser_find", { text = "Walnut Tray" })).structuredContent.total)
    -- A role's word is part of its line (run CH's text "status" found none).
    local st = call("browser_find", { text = "status" })
    assert.matches("%- status %[ref=e%d+%]: Added “Walnut Tray” at %$25%.00%.", st)
    -- Of matches in no item, one named by the text itself: the region
    -- "Offers", not the box "Search offers" (run CE's "Products").
    page:evaluate([[(() => { const b = document.createElement('input'); b.type = 'search';
      b.setAttribute('aria-label', 'Search offers'); document.body.prepend(b);
      const r = document.createElement('section'); r.setAttribute('aria-label', 'Offers');
      r.innerHTML = '<button>Claim</button>'; document.body.append(r); })()]])
    text, res2 = call("browser_find", { within = "Offers" })
    assert.equal(1, res2.structuredContent.total, text)
    assert.matches('%- region "Offers"', text)
    assert.is_nil(text:find("Search offers", 1, true), text)
    assert.equal(2, select(2, call("browser_find", { text = "Offers" })).structuredContent.total)
    -- A part of the page named just that wins over an item's link to it
    -- (run DB's guide: its contents' link, not the section).
    page:evaluate([[(() => { const n = document.createElement('nav'); n.setAttribute('aria-label', 'Contents');
      n.innerHTML = '<ul><li><a href="#offers">Offers</a></li></ul>'; document.body.prepend(n); })()]])
    text, res2 = call("browser_find", { within = "Offers" })
    assert.equal(1, res2.structuredContent.total, text)
    assert.matches('%- region "Offers" %[ref=e%d+%]:\n *%- button "Claim"', text)
    -- A row whose later cell shows the text is given whole, its first
    -- cells too (run DI's order row came from its Items cell on).
    page:evaluate([[(() => { const t = document.createElement('table'); t.setAttribute('aria-label', 'Orders');
      t.insertRow().innerHTML = '<td>#1006</td><td>Ann</td><td>Teak Bench × 1</td><td>Paid</td>';
      document.body.append(t); })()]])
    text, res2 = call("browser_find", { within = "Teak Bench" })
    assert.equal(1, res2.structuredContent.total, text)
    assert.matches('%- row "#1006 Ann Teak Bench × 1 Paid"[^\n]*\n *%- cell "#1006"', text)
  end)

  it("finds several controls of one row within it, by a regex on their role or name", function()
    page:navigate(srv.url .. "/loop/products.html")
    page:evaluate([[(() => { const t = document.createElement('table'); t.setAttribute('aria-label', 'Mine');
      for (const n of ['Oak Shelf', 'Pine Tray']) t.insertRow().innerHTML = '<td>' + n + '</td><td><input aria-label='
        + '"New price"></td><td><button>Update price</button></td><td><a href="/p">Details</a></td>';
      document.body.append(t); })()]])
    local text, res = call("browser_find", { regex = "New price|Update price", within = "Oak Shelf" })
    assert.equal(2, res.structuredContent.total, text)
    assert.matches('textbox "New price"', res.structuredContent.matches[1].line)
    assert.matches('button "Update price"', res.structuredContent.matches[2].line)
    -- The regex reads the role too.
    text, res = call("browser_find", { regex = "^textbox$", within = "Pine Tray" })
    assert.equal(1, res.structuredContent.total, text)
    -- A link's line ends without the colon of the /url under it, not shown.
    text = call("browser_find", { role = "link", name = "Details", within = "Pine Tray" })
    assert.matches('\n *%- link "Details" %[ref=e%d+%]\n', text .. "\n")
    -- A row that shows the text whole wins over one that shows it inside
    -- a longer text, which the answer names (run AK's "Modern Lamp 2").
    page:evaluate([[(() => { const t = document.querySelector('table[aria-label=Mine]');
      t.insertRow().innerHTML = '<td>Pine Tray XL</td><td><button>Update price</button></td>'; })()]])
    text, res = call("browser_find", { role = "button", name = "Update price", within = "pine tray" })
    assert.equal(1, res.structuredContent.total, text)
    assert.matches('cell "Pine Tray"', table.concat(res.structuredContent.matches[1].path, "\n"), 1, true)
    assert.truthy(text:find('\n(Left out: 1 in containers that show "pine tray" only inside a longer text: '
      .. '"Pine Tray XL".)', 1, true), text)
    -- With none that shows it whole, every one is kept.
    text, res = call("browser_find", { role = "button", name = "Update price", within = "Tray" })
    assert.equal(2, res.structuredContent.total, text)
    -- A row is the container of the text its cell shows (run BO's role=row within its order's number).
    text, res = call("browser_find", { role = "row", within = "Pine Tray XL" })
    assert.equal(1, res.structuredContent.total, text)
    assert.matches('^ *%- row', res.structuredContent.matches[1].line)
  end)

  it("shows the lines a match introduces with context, inside its container only", function()
    open_long()
    local text, res = call("browser_find", { text = "Topic 42", context = 10 })
    local m = res.structuredContent.matches[1]
    assert.equal(1, res.structuredContent.total)
    assert.truthy(m.line:match('heading "Topic 42"'), m.line)
    -- The section's prose, field and button follow the heading; Section
    -- 43 does not (it is outside the heading's container).
    local after = table.concat(m.context, "\n")
    assert.truthy(after:find("option number 42", 1, true), after)
    assert.truthy(after:find('textbox "Value 42" [ref=', 1, true), after)
    assert.truthy(after:find('button "Run example 42" [ref=', 1, true), after)
    assert.falsy(text:find("Section 43", 1, true), text)
    -- A context that stops inside the container says how many lines it
    -- left out, and how to see them.
    text, res = call("browser_find", { text = "Topic 42", context = 1 })
    m = res.structuredContent.matches[1]
    assert.equal(1, #m.context)
    assert.is_true(m.more >= 2, tostring(m.more))
    assert.truthy(text:find(("… %d more lines here: context=%d shows them"):format(m.more, 1 + m.more), 1, true), text)
    text, res = call("browser_find", { text = "Topic 42", context = 10 })
    assert.is_nil(res.structuredContent.matches[1].more)
    assert.falsy(text:find("more line", 1, true), text)
    -- Without context only the match and its path.
    res = select(2, call("browser_find", { text = "Topic 42" }))
    assert.equal(0, #res.structuredContent.matches[1].context)
    assert.truthy(select(1, call("browser_find", { text = "Topic 42", context = -1 })):find("context", 1, true))
  end)

  it("starts the structure tools from a locator or a text that names one element", function()
    open_long()
    local text, res = call("resolve_container", { text = "Modern Lamp" })
    assert.is_nil(res.isError, text)
    local c = res.structuredContent
    assert.equal("li", c.target.tag)
    assert.equal("product", c.target.attributes["data-testid"])
    assert.equal("products", c.ancestors[1].attributes["data-testid"])
    assert.truthy(text:find("^Container of e%d+ %(text \"Modern Lamp\"%):"))
    text, res = call("inspect_pattern", { locator = "getByTestId('products')", level = 1 })
    assert.is_nil(res.isError, text)
    assert.equal("main", res.structuredContent.container_at.tag)
    text, res = call("extract_anchors", { locator = "getByTestId('product').filter({ hasText: 'Tall' })", level = 1 })
    assert.is_nil(res.isError, text)
    local items = 0
    for _, d in ipairs(res.structuredContent.descendants) do
      if d.tag == "li" and d.attributes["data-testid"] == "product" then items = items + 1 end
    end
    assert.equal(3, items)
    -- A start that is not one element says how many matched.
    text, res = call("resolve_container", { text = "Lamp" })
    assert.is_true(res.isError)
    assert.truthy(text:find("matches 2 elements", 1, true), text)
    text, res = call("resolve_container", { locator = "getByRole('button', { name: 'Add to Cart' })" })
    assert.is_true(res.isError)
    assert.truthy(text:find("matches 3 elements", 1, true), text)
    text, res = call("resolve_container", { text = "no such words anywhere" })
    assert.is_true(res.isError)
    assert.truthy(text:find("Nothing matches", 1, true), text)
    -- The Lua API gives the same start.
    local ref = page:target_ref { text = "Classic Chair" }
    assert.equal("li", page:resolve_container(ref).target.tag)
  end)

  it("shows aria-sort and the target's own attributes in the structure facts", function()
    local snap = open_long().text
    -- The snapshot says which column is sorted, and how (not "none").
    assert.truthy(snap:find('columnheader "Item" %[sort=ascending%]:\n *%- button "Item"'), snap)
    assert.is_nil(snap:find("[sort=none]", 1, true), snap)
    local _, res = call("resolve_container", { locator = "getByRole('button', { name: 'Item' })" })
    local c = res.structuredContent
    assert.equal("th", c.ancestors[1].tag)
    assert.equal("ascending", c.ancestors[1].attributes["aria-sort"])
    local _, anchors = call("extract_anchors", { locator = "getByRole('button', { name: 'Count' })", level = 2 })
    local sorts = {}
    for _, d in ipairs(anchors.structuredContent.descendants) do
      if d.tag == "th" then sorts[#sorts + 1] = d.attributes["aria-sort"] end
    end
    assert.same({ "ascending", "none" }, sorts)
    -- A custom element's own attributes are its API: all are shown.
    page:evaluate([[document.body.innerHTML = '<star-rating product-id="7" value="4" votes="12" class="r">'
      + '<button>Rate</button></star-rating>']])
    _, res = call("resolve_container", { locator = "getByRole('button', { name: 'Rate' })" })
    assert.same({ ["product-id"] = "7", value = "4", votes = "12", class = "r" }, res.structuredContent.ancestors[1].attributes)
  end)

  it("finds options of lists that fold them, and a snapshot of the list shows them", function()
    page:navigate(srv.url .. "/find/picker.html")
    local snap = page:snapshot {}.text
    local list = ref_of(snap, 'listbox "Countries" %[options=21%] %[ref=(e%d+)%]')
    assert.is_nil(snap:find('option "Norway"', 1, true), snap)
    -- By role and name: the option, under its list.
    local text = call("browser_find", { role = "option", name = "Norway" })
    assert.truthy(text:find('1 match:', 1, true), text)
    assert.truthy(text:find('listbox "Countries" [ref=' .. list .. ']:', 1, true), text)
    assert.truthy(text:find('option "Norway" %[ref=e%d+%]'), text)
    -- By text: the paragraph and the option; an option of a native select.
    text = call("browser_find", { text = "Norway" })
    assert.truthy(text:find('2 matches:', 1, true), text)
    text = call("browser_find", { text = "NOK" })
    assert.truthy(text:find('option "Currency NOK"', 1, true), text)
    -- A snapshot rooted at the list lists its options.
    text = call("browser_snapshot", { root = list })
    assert.truthy(text:find('option "Norway" %[ref=e%d+%]'), text)
    assert.truthy(text:find('option "France" %[selected%] %[ref=e%d+%]'), text)
  end)

  it("prints an empty list as [] in text and over MCP", function()
    local s = client.start("")
    local _, tool = client.caller(s)
    tool("browser_navigate", { url = srv.url .. "/find/long.html" })
    -- The row after the "Desk" row holds no ref: its contains_refs.refs
    -- is an empty list.
    local res = tool("inspect_pattern", { text = "Desk", level = 1 })
    assert.is_nil(res.isError, res.content[1].text)
    assert.equal(2, res.structuredContent.siblings_total)
    assert.same({}, res.structuredContent.siblings[2].contains_refs.refs)
    -- The text says what the rows share once, and a line each.
    local text = res.content[1].text
    assert.truthy(text:find("^Pattern at level 1 of e%d+ %(text \"Desk\"%): 2 siblings <tr>\n#0 %(target%): "), text)
    assert.truthy(text:find('\n#1: text: Chair, 9$'), text)
    -- Without a level: the nearest ancestor repeated among its siblings.
    local auto = tool("inspect_pattern", { text = "Desk" })
    assert.equal(text, auto.content[1].text)
    auto = tool("inspect_pattern", { text = "Modern Lamp" })
    assert.truthy(auto.content[1].text:find("^Pattern at level 0 of [^\n]*: 3 siblings <li data%-testid=product>"),
      auto.content[1].text)
    local out = assert(io.open(s.dir .. "/out")):read("a")
    assert.equal(0, (s:close(20000)))
    assert.truthy(out:find('"refs":[]', 1, true), "an empty refs list is a JSON array")
    assert.falsy(out:find('"refs":{}', 1, true))
  end)
end)
