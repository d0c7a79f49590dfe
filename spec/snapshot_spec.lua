-- The accessibility snapshot against the real browser: names, roles,
-- big pages, frames (nested, cross-origin, churning), SPA routes, hostile
-- pages, the budget marker and the isolation of the bridge.
local vdx = require "vdx"
local h = require "helpers"

local function count(text, pattern)
  local n = 0
  for _ in text:gmatch(pattern) do n = n + 1 end
  return n
end

local lines = h.lines

describe("page:snapshot", function()
  local browser, srv, page, base

  -- a.test and b.test are two sites that both reach the fixture server.
  setup(function() srv, browser, page, base = h.open_sites() end)

  teardown(function() h.shut(browser, srv) end)

  it("computes accessible names and descriptions for the accname table", function()
    page:navigate(srv.url .. "/snapshot/names.html")
    local cases = page:evaluate([[ [...document.querySelectorAll('[data-case]')]
      .map(e => [e.dataset.case, e.dataset.expect ?? null, e.dataset.expectDescription ?? null]) ]])
    local got = page:accessible("[data-case]", 1000)
    assert.equal(#cases, got.total)
    local wrong, names, descriptions = {}, 0, 0
    for i, c in ipairs(cases) do
      local item = got.items[i]
      if type(c[2]) == "string" then
        names = names + 1
        if item.name ~= c[2] then
          wrong[#wrong + 1] = ("%s: name %q, got %q"):format(c[1], c[2], tostring(item.name))
        end
      end
      if type(c[3]) == "string" then
        descriptions = descriptions + 1
        if item.description ~= c[3] then
          wrong[#wrong + 1] = ("%s: description %q, got %q"):format(c[1], c[3], tostring(item.description))
        end
      end
    end
    assert.same({}, wrong)
    assert.is_true(names >= 50)
    assert.is_true(descriptions >= 10)
  end)

  it("computes roles for every HTML element in the table", function()
    page:navigate(srv.url .. "/snapshot/roles.html")
    local cases = page:evaluate([[ [...document.querySelectorAll('[data-expect-role]')]
      .map(e => e.dataset.expectRole) ]])
    local got = page:accessible("[data-expect-role]", 1000)
    assert.is_true(#cases >= 100)
    local wrong = {}
    for i, role in ipairs(cases) do
      if got.items[i].role ~= role then
        wrong[#wrong + 1] = ("#%d: expected %s, got %s"):format(i, role, got.items[i].role)
      end
    end
    assert.same({}, wrong)
  end)

  it("shows a 200-card shop whole, with every button, price and state", function()
    page:navigate(srv.url .. "/snapshot/shop.html")
    local snap = page:snapshot { budget_tokens = 100000 }
    assert.is_false(snap.truncated)
    assert.same({}, snap.warnings)
    assert.equal("Acme Shop", snap.title)
    assert.equal(200, count(snap.text, 'button "Add to Cart[^"]*" %[ref=e%d+%]'))
    assert.equal(200, count(snap.text, "%$%d+%.%d%d"))
    -- Each card's heading is named by its link: the link's line prints the
    -- name, the heading's does not repeat it (Playwright's AI dialect).
    assert.equal(200, count(snap.text, 'heading %[level=3%]:\n *%- link "Product %d+" %[ref=e%d+%]'))
    assert.matches('      %- listitem:\n        %- link "Home" %[ref=e%d+%]:\n          %- /url: /\n', snap.text)
    assert.matches('combobox "Country" %[options=200%] %[ref=e%d+%]: ', snap.text)
    assert.equal(count(snap.text, "%[ref=e%d+%]"), snap.ref_count)
    local elements = page:evaluate("document.querySelectorAll('*').length")
    assert.equal(elements, snap.element_count)
    assert.equal(0, snap.unmeasurable)
  end)

  it("keeps refs for the same elements across snapshots of a document", function()
    page:navigate(srv.url .. "/snapshot/shop.html")
    local a = page:snapshot { budget_tokens = 100000 }
    local b = page:snapshot { budget_tokens = 100000 }
    assert.equal(a.text, b.text)
    local home = a.text:match('link "Home" %[ref=(e%d+)%]')
    assert.equal(home, b.text:match('link "Home" %[ref=(e%d+)%]'))
    local d = page:describe(home)
    assert.same({ ref = home, role = "link", name = "Home", tag = "a", frame = "main" },
      { ref = d.ref, role = d.role, name = d.name, tag = d.tag, frame = d.frame })
  end)

  it("gives the same text and refs after the idle warm-up as right after load", function()
    -- The warm-up (bridge/src/warm.js) walks the page in idle time with a
    -- registry of its own: a snapshot after it still starts at e1, with
    -- the refs a snapshot right after load gets.
    page:navigate(srv.url .. "/snapshot/shop.html")
    local now = page:snapshot { budget_tokens = 100000 }
    page:navigate(srv.url .. "/snapshot/shop.html")
    vdx.sleep(1200)
    local later = page:snapshot { budget_tokens = 100000 }
    assert.equal(now.text, later.text)
    assert.truthy(later.text:find("[ref=e1]", 1, true))
    assert.equal(now.ref_count, later.ref_count)
    -- A link put first after the warm-up has run gets e1: the warm-up
    -- numbered nothing.
    local buttons = ("<button>b</button>"):rep(40)
    page:navigate("data:text/html," .. buttons .. "<script>setTimeout(() => "
      .. "document.body.insertAdjacentHTML('afterbegin', '<a href=\"/x\">Late</a>'), 700)</script>")
    vdx.sleep(1200)
    local text = page:snapshot().text
    assert.truthy(text:find('link "Late" [ref=e1]', 1, true), text)
  end)

  it("moves aria-owns targets under their owner, except one hidden from all users", function()
    page:navigate(srv.url .. "/snapshot/owns.html")
    local snap = page:snapshot()
    assert.equal(table.concat({
      "- list [ref=e1]:",
      "  - listitem: First",
      "  - listitem: Second",
      "  - listitem: Third",
    }, "\n") .. "\n", snap.text)
  end)

  it("expands nested iframes three deep with frame-qualified refs", function()
    page:navigate(srv.url .. "/snapshot/frames.html")
    local snap = page:snapshot()
    assert.equal(table.concat({
      '- heading "Frames" [level=1]',
      '- button "Main button" [ref=e1]',
      '- iframe "Level 1" [ref=e2]:',
      '  - heading "Level 1" [level=2]',
      '  - button "Button 1" [ref=f1e1]',
      '  - iframe "Level 2" [ref=f1e2]:',
      '    - heading "Level 2" [level=3]',
      '    - link "Link 2" [ref=f4e1]:',
      '      - /url: "#two"',
      '    - iframe "Level 3" [ref=f4e2]:',
      '      - paragraph: Deepest',
      '      - textbox "Deep input" [ref=f5e1]: deep',
    }, "\n") .. "\n", snap.text)
    assert.same({}, snap.warnings)
    local d = page:describe("f5e1")
    assert.equal("textbox", d.role)
    assert.equal("f5", d.frame)
  end)

  it("reads a cross-origin iframe through its own session", function()
    page:navigate(base .. "/frames/xo-main.html")
    local snap = page:snapshot()
    assert.matches('%- iframe "Payment" %[ref=e1%]:\n  %- textbox "Card number" %[ref=f1e1%]\n  %- button "Pay now" %[ref=f1e2%]', snap.text)
    local oop = false
    for _, f in ipairs(page:frames()) do oop = oop or (f.frame == "f1" and f.out_of_process) end
    assert.is_true(oop)
    local d = page:describe("f1e2")
    assert.equal("Pay now", d.name)
    assert.equal("button", d.role)
  end)

  it("names a frame one way, \"main\" or \"f<K>\", in what it says and in every frame= it takes", function()
    page:navigate(base .. "/frames/xo-main.html")
    page:snapshot()
    local frames = page:frames()
    assert.same({ "main", "f1" }, { frames[1].frame, frames[2].frame })
    assert.is_nil(frames[1].parent)
    assert.equal("main", frames[2].parent)
    assert.is_nil(frames[2].id)
    local d = page:describe("f1e2")
    assert.equal("f1", d.frame)
    assert.is_nil(d.frame_id)
    -- What describe and frames() say is what frame= takes.
    assert.equal(page:bridge("pageInfo", {}, { frame = d.frame }).url,
      page:bridge("pageInfo", {}, { frame = "f1e2" }).url)
    assert.matches("/frames/", page:bridge("pageInfo", {}, { frame = "main" }).url)
    assert.equal(1, page:locator_count("getByRole('button', { name: 'Pay now' })", { frame = "f1" }).count)
    assert.equal(0, page:locator_count("getByRole('button', { name: 'Pay now' })", { frame = "main" }).count)
    local o = page:frame_offset("f1", 0, 0)
    assert.is_true(o.x > 0 or o.y > 0)
    -- Anything else is named: an ordinal, a CDP id, a frame that is not there.
    local e = h.error_of(page.bridge, page, "pageInfo", {}, { frame = 1 })
    assert.is_true(vdx.is_error(e, "InvalidArgument"), tostring(e))
    assert.matches('frame must be a frame\'s name, "main" or "f<K>"', e.message, 1, true)
    e = h.error_of(page.locator_count, page, "getByRole('button')", { frame = "f9" })
    assert.is_true(vdx.is_error(e, "FrameDetached"), tostring(e))
    assert.equal("there is no frame f9 in this page (it was removed or navigated away)", e.message)
  end)

  it("reads every one of several cross-origin iframes, load after load", function()
    -- Each child moves to its own process; its new session can report the
    -- frame's context before the parent reports the move.  That order once
    -- lost the context for good: the snapshot then timed out on the frame.
    for round = 1, 4 do
      -- A fresh context each round: new processes for the children.
      local ctx = browser:new_context()
      local page = ctx:new_page()
      page:navigate(base .. "/frames/xo-many.html")
      local snap, n, ready = nil, 0, 0
      -- Cross-origin frames attach after load: wait (bounded) for all five
      -- and their isolated worlds.  A lost context never comes back.
      for _ = 1, 50 do
        n, ready = 0, 0
        for _, f in ipairs(page:frames()) do
          if f.out_of_process then
            n = n + 1
            if f.has_context then ready = ready + 1 end
          end
        end
        if ready == 5 then break end
        vdx.sleep(100)
      end
      assert.equal(5, n, "round " .. round)
      assert.equal(5, ready, "round " .. round .. ": frames without a context")
      snap = page:snapshot { timeout_ms = 10000 }
      assert.same({}, snap.warnings, "round " .. round)
      local count = 0
      for _ in snap.text:gmatch('%- iframe "Payment %d" %[ref=e%d+%]:\n  %- textbox "Card number" %[ref=f%d+e1%]') do
        count = count + 1
      end
      assert.equal(5, count, snap.text)
      ctx:close()
    end
  end)

  it("survives iframes added and removed while snapshotting", function()
    page:navigate(srv.url .. "/frames/churn.html")
    local inside = 0
    for _ = 1, 40 do
      local snap = page:snapshot()
      assert.matches('^%- heading "Frames come and go" %[level=1%]\n%- button "Stable button" %[ref=e1%]\n', snap.text)
      -- Every iframe line is followed by its content or by a note saying why not.
      for after in snap.text:gmatch('%- iframe "Churn %d+" %[ref=e%d+%]:\n([^\n]*)') do
        assert.truthy(after:match("^  %- button \"Inside %d+\" %[ref=f%d+e1%]$") or
                      after:match("^  %- note: "), after)
        if after:match("Inside") then inside = inside + 1 end
      end
      vdx.sleep(3)
    end
    assert.is_true(inside > 0)
  end)

  it("keeps refs across SPA route changes and restarts them on a new document", function()
    page:navigate(srv.url .. "/snapshot/spa.html")
    local before = page:snapshot().text
    local home = before:match('link "Home" %[ref=(e%d+)%]')
    local products = before:match('link "Products" %[ref=(e%d+)%]')
    page:evaluate("document.querySelector('[data-route=products]').click()")
    local after = page:snapshot().text
    assert.matches('button "Buy widget"', after)
    assert.equal(home, after:match('link "Home" %[ref=(e%d+)%]'))
    assert.equal(products, after:match('link "Products" %[ref=(e%d+)%]'))
    page:navigate(srv.url .. "/snapshot/shop.html")
    assert.matches('^%- banner %[ref=e1%]:\n', page:snapshot().text)
  end)

  it("reports a removed element as StaleRef with what it was", function()
    page:navigate(srv.url .. "/snapshot/spa.html")
    local text = page:snapshot().text
    local cta = text:match('button "Start" %[ref=(e%d+)%]')
    page:evaluate("document.querySelector('[data-route=about]').click()")
    local err = h.error_of(page.describe, page, cta)
    assert.is_true(vdx.is_error(err, "StaleRef"), tostring(err))
    assert.equal("button", err.role)
    assert.equal("Start", err.name)
    assert.equal("button", err.tag)
    err = h.error_of(page.describe, page, "e999")
    assert.is_true(vdx.is_error(err, "UnknownRef"), tostring(err))
    assert.matches("not a ref", h.error_of(page.describe, page, "button"))
  end)

  it("is not fooled by a page that monkey-patches DOM APIs", function()
    page:navigate(srv.url .. "/snapshot/patched.html")
    local snap = page:snapshot()
    assert.equal(0, snap.unmeasurable)
    assert.is_true(snap.ref_count > 0)
    assert.same({}, snap.warnings)
  end)

  it("names plain elements as the full computation does", function()
    -- Text-only links, headings and buttons are read from their text; a
    -- comment, a child element, a label, blank text, a missing href, a
    -- title, a ::before or a text-transform each need the full
    -- computation, with the names below; a list is nameless, a fieldset
    -- and an image are named by their markup.
    page:navigate(srv.url .. "/snapshot/plain-names.html")
    assert.equal(table.concat({
      '- link "Plain link text" [ref=e1]:',
      '  - /url: "#a"',
      '- link "onetwo" [ref=e2]:',
      '  - /url: "#b"',
      '- link:',
      '  - /url: "#c"',
      '- text: no href',
      '- heading "with bold text" [level=3]',
      '- button "Start the run" [ref=e3]',
      '- button "Send" [ref=e4]',
      '- heading "Plain heading" [level=2]',
      '- link "Titled" [ref=e5]:',
      '  - /url: "#d"',
      '- list [ref=e6]:',
      '  - listitem: Entry',
      '- group "Group": Group',
      '- img "Logo"',
      '- link "SHOUT" [ref=e7]:',
      '  - /url: "#e"',
      '  - text: shout',
      -- The ::before is in the text too (as in Playwright), which then
      -- repeats the name.
      '- heading "Before Title" [level=4]',
      '- link "Inner" [ref=e8]:',
      '  - /url: "#f"',
      '',
    }, "\n"), page:snapshot().text)
    local got = page:accessible("#plain, #comment, #labelled, #bare, #heading, #titled", 10)
    local names = {}
    for i, item in ipairs(got.items) do names[i] = item.name end
    assert.same({ "Plain link text", "onetwo", "Start the run", "Send", "Plain heading", "Titled" }, names)
  end)

  it("leaves no trace in the page's own world", function()
    page:navigate(srv.url .. "/snapshot/shop.html")
    page:snapshot()
    assert.equal("undefined", page:evaluate("typeof globalThis.__vdxBridge"))
    assert.same({}, page:evaluate([[Object.getOwnPropertyNames(globalThis)
      .filter(n => /vdx/i.test(n))]]))
  end)

  it("ends at the budget with a marker, and continues from an offset", function()
    page:navigate(srv.url .. "/snapshot/budget.html")
    local whole = page:snapshot { budget_tokens = 1000000 }
    assert.is_false(whole.truncated)
    local first = page:snapshot { budget_tokens = 500 }
    assert.is_true(first.truncated)
    assert.is_true(#first.text <= 500 * 4 + 400)
    local marker = first.text:match("[^\n]*\n$")
    -- The bridge stopped walking at the budget: the total is an estimate
    -- from the part walked, and the lines shown are the whole text's first.
    assert.matches('^%- note: "snapshot truncated: lines 1 to %d+ of about %d+ shown', marker)
    -- One notice, and it names the Lua API's options.
    assert.equal(1, count(first.text, "snapshot truncated"))
    assert.matches(("left out. Call page:snapshot{offset=%d} for the rest, page:snapshot{root=REF} for one "
      .. 'part, or page:snapshot{depth=N} for less depth"\n$'):format(first.next_offset), first.text)
    assert.is_nil(first.line_count)
    assert.is_true(first.lines_estimate > whole.line_count / 2 and first.lines_estimate < whole.line_count * 2,
      first.lines_estimate .. " lines estimated, " .. whole.line_count .. " in the whole text")
    local shown = lines(first.text)
    table.remove(shown)
    assert.same({ table.unpack(lines(whole.text), 1, first.next_offset) }, shown)
    -- Walking the offsets gives back every line exactly once.
    local all, offset = {}, 0
    repeat
      local part = page:snapshot { budget_tokens = 2000, offset = offset }
      local ls = lines(part.text)
      if part.truncated then table.remove(ls) end
      for _, l in ipairs(ls) do all[#all + 1] = l end
      offset = part.next_offset
    until not part.truncated
    assert.same(lines(whole.text), all)
  end)

  it("has one default budget, the MCP tool's too", function()
    page:navigate(srv.url .. "/snapshot/budget.html")
    local snapshot = require "vdx.snapshot"
    assert.equal(12000, snapshot.DEFAULT_BUDGET)
    local default = page:snapshot()
    assert.equal(page:snapshot { budget_tokens = 12000 }.text, default.text)
    assert.is_true(#default.text <= 12000 * snapshot.CHARS_PER_TOKEN + 400)
  end)

  it("shows the whole text's lines at any budget and offset, frames and listboxes included", function()
    for _, name in ipairs { "frames.html", "roles.html", "states.html", "shop.html" } do
      page:navigate(base .. "/snapshot/" .. name)
      local take = require("vdx.snapshot").take
      local all = page:snapshot { budget_tokens = 1000000 }
      local whole = lines(all.text)
      -- Asked for, a whole text comes with its lines (what the change
      -- report compares without splitting the text again); a part has none,
      -- and page:snapshot keeps none.
      assert.is_nil(all.lines)
      assert.same(whole, take(page, { budget_tokens = 1000000 }, nil, nil, true).lines, name)
      for _, budget in ipairs { 20, 150, 600 } do
        for _, offset in ipairs { 0, 7, 40 } do
          local part = take(page, { budget_tokens = budget, offset = offset }, nil, nil, true)
          local shown = lines(part.text)
          if part.truncated then table.remove(shown) end
          local want = { table.unpack(whole, offset + 1, part.truncated and part.next_offset or #whole) }
          assert.same(want, shown, name .. " budget " .. budget .. " offset " .. offset)
          if part.lines then
            assert.is_true(offset == 0 and not part.truncated, name .. " budget " .. budget .. " offset " .. offset)
            assert.same(lines(part.text), part.lines)
          end
          -- One walk cut twice: the whole text and its lines beside the view.
          local two = take(page, { budget_tokens = budget }, nil, 1000000, true)
          assert.equal(all.text, two.whole_text, name .. " budget " .. budget)
          assert.same(whole, two.whole_lines, name .. " budget " .. budget)
        end
      end
      local shallow = lines(page:snapshot { budget_tokens = 1000000, depth = 2 }.text)
      local part = page:snapshot { budget_tokens = 40, depth = 2 }
      local shown = lines(part.text)
      if part.truncated then table.remove(shown) end
      assert.same({ table.unpack(shallow, 1, part.truncated and part.next_offset or #shallow) }, shown)
      assert.equal(#shallow, part.line_count)
    end
  end)

  it("cuts a snapshot at a depth at its own smaller budget, naming the smaller depths with their sizes", function()
    -- (Run DB's depth 3 of a long guide held its 150 contents links: 48,000 characters.)
    -- (Items of two kinds in turn: a run of alike ones would be folded.)
    local items = {}
    for i = 1, 400 do
      items[i] = (i % 2 == 0 and "<li><a href='/s%d'>Section number %d</a></li>"
        or "<li><button id=b%d>Section number %d</button></li>"):format(i, i)
    end
    page:navigate("data:text/html,<nav aria-label=Contents><ul>" .. table.concat(items) .. "</ul></nav><main><h1>Guide</h1></main>")
    local snap = page:snapshot { depth = 3 }
    assert.is_true(snap.truncated)
    local snapshot = require "vdx.snapshot"
    assert.is_true(#snap.text <= snapshot.DEPTH_BUDGET * snapshot.CHARS_PER_TOKEN + 400, #snap.text)
    assert.matches("or page:snapshot{depth=2} %(about 404 lines%), page:snapshot{depth=1} %(about 4 lines%) "
      .. "for less depth\"\n$", snap.text)
    -- Its own budget given, it is that.
    assert.is_false(page:snapshot { depth = 3, budget_tokens = 100000 }.truncated)
  end)

  it("folds a long run of alike parts at a depth into one line that names the first and last, and keeps their refs", function()
    -- (Run ER read a guide's whole snapshot twice to learn it was a
    -- contents list and 150 sections alike.)
    local links, sections = {}, {}
    for i = 1, 150 do
      links[i] = ("<li><a href='/s%d'>%d. Topic</a></li>"):format(i, i)
      sections[i] = ("<section id=s%d aria-labelledby=h%d><h2 id=h%d>%d. Topic</h2><p>Text of %d.</p>%s</section>")
        :format(i, i, i, i, i, i % 7 == 0 and "<pre>code</pre>" or "")
    end
    page:navigate("data:text/html,<nav aria-label=Contents><ul>" .. table.concat(links) .. "</ul></nav><main><h1>Guide</h1>"
      .. table.concat(sections) .. "<form aria-label=Ask><input aria-label=A><input aria-label=B><input aria-label=C>"
      .. "<input aria-label=D><input aria-label=E><input aria-label=F></form></main>")
    local one = page:snapshot { depth = 1 }
    local first = one.text:match('region "1%. Topic" %[ref=(e%d+)%]')
    assert.is_string(first, one.text)
    assert.matches('\n  %- region "2%. Topic" %[ref=e%d+%] %[%+2%]\n  %- region ×148 more alike: "3%. Topic" %[ref=e%d+%] … '
      .. '"150%. Topic" %[ref=e%d+%]\n', one.text)
    assert.is_false(one.truncated)
    assert.is_true(#one.text < 600, one.text)
    -- At depth 2 the sections show their heading, those with more in them
    -- alike still; each field of a form is no run to fold.
    local two = page:snapshot { depth = 2 }
    assert.matches('\n  %- region ×148 more alike: "3%. Topic" %[ref=e%d+%] … "150%. Topic" %[ref=e%d+%]\n', two.text)
    for _, f in ipairs { "A", "B", "C", "D", "E", "F" } do
      assert.matches('textbox "' .. f .. '" [ref=', two.text, 1, true)
    end
    -- At depth 3 the contents list's items fold too, with what each holds.
    local three = page:snapshot { depth = 3 }
    assert.matches('\n    %- listitem ×148 more alike %(each: link%): "3%. Topic" %[ref=e%d+%] … "150%. Topic" %[ref=e%d+%]\n',
      three.text)
    -- A folded section keeps its ref: a snapshot of it reads it.
    local last = one.text:match('… "150%. Topic" %[ref=(e%d+)%]')
    assert.matches('^%- region "150%. Topic" %[ref=' .. last .. '%]:\n  %- heading "150%. Topic"', page:snapshot { root = last }.text)
    -- The whole snapshot folds nothing.
    assert.matches('region "77. Topic"', page:snapshot { budget_tokens = 100000 }.text, 1, true)
  end)

  it("cuts a first line longer than the budget in the view only, not in the whole text of the same walk", function()
    page:navigate('data:text/html,<button aria-label="' .. ("word "):rep(150) .. '">x</button><p>after</p>')
    local all = page:snapshot { budget_tokens = 1000000 }
    local part = require("vdx.snapshot").take(page, { budget_tokens = 20 }, nil, 1000000, true)
    assert.matches('^%- button "word word [^\n]*…%(%d+ more bytes%)\n', part.text)
    assert.is_nil(part.lines)
    assert.equal(all.text, part.whole_text)
    assert.same(lines(all.text), part.whole_lines)
    assert.is_true(#part.whole_lines[1] > #part.text:match("^[^\n]*") + 100)
    assert.is_nil(part.whole_lines[1]:find("more bytes", 1, true))
  end)

  it("snapshots one subtree by ref and limits depth", function()
    page:navigate(srv.url .. "/snapshot/frames.html")
    local err = h.error_of(page.snapshot, page, { root = "e2" })
    assert.is_true(vdx.is_error(err, "UnknownRef"), tostring(err))
    assert.equal("ref e2 is not known in this document", err.message)
    -- tostring adds the line of the call that failed (here helpers.error_of's pcall).
    assert.equal("UnknownRef: ref e2 is not known in this document (at spec/helpers.lua:" ..
      err.where:match(":(%d+)$") .. ")", tostring(err))
    local whole = page:snapshot().text
    -- A frame's number follows the order its frames attached, which load
    -- can change: the refs are read from the whole text.
    local deep = whole:match('textbox "Deep input" %[ref=(f%d+e%d+)%]')
    local level3 = whole:match('iframe "Level 3" %[ref=(f%d+e%d+)%]')
    assert.is_string(deep, whole)
    assert.is_string(level3, whole)
    local part = page:snapshot { root = "e2" }
    assert.matches('^%- iframe "Level 1" %[ref=e2%]:\n  %- heading "Level 1"', part.text)
    assert.is_nil(part.text:find("Main button", 1, true))
    assert.truthy(part.text:find('textbox "Deep input" [ref=' .. deep .. ']', 1, true), part.text)
    local inner = page:snapshot { root = level3 }
    assert.equal('- iframe "Level 3" [ref=' .. level3 .. ']:\n  - paragraph: Deepest',
      inner.text:sub(1, #('- iframe "Level 3" [ref=' .. level3 .. ']:\n  - paragraph: Deepest')))
    page:navigate(srv.url .. "/snapshot/shop.html")
    local full = page:snapshot { budget_tokens = 100000 }
    local shallow = page:snapshot { depth = 1, budget_tokens = 100000 }
    assert.is_true(#shallow.text < #full.text)
  end)

  it("waits for the new document when called during a navigation", function()
    page:navigate(srv.url .. "/snapshot/shop.html")
    page:navigate(srv.url .. "/frames/one.html", { wait_until = "commit" })
    local snap = page:snapshot()
    assert.matches('button "Outside"', snap.text)
  end)

  it("checks its options", function()
    assert.matches("unexpected key 'budget'", h.error_of(page.snapshot, page, { budget = 1 }))
    assert.matches("budget_tokens must be > 0", h.error_of(page.snapshot, page, { budget_tokens = 0 }))
  end)
end)
