-- Acting on the page like a user: real input events, waits that fit,
-- covered elements, frames (cross-origin too), dialogs, tabs, console and
-- network records, navigation waits, the description ladder and the
-- evaluate guard, all against the real browser and fixture pages.
local vdx = require "vdx"
local h = require "helpers"

-- The ref of the first snapshot line matching pattern (a Lua pattern).
local function ref_of(snap, pattern)
  for line in snap.text:gmatch("[^\n]+") do
    if line:find(pattern) then
      local r = line:match("%[ref=([%w_]+)%]")
      if r then return r end
    end
  end
  error("no line matches " .. pattern .. " in\n" .. snap.text)
end

local function text_of(page, id, frame)
  return page:evaluate(("document.getElementById(%q).textContent"):format(id))
end

describe("page actions", function()
  local browser, srv, page, base, ctx
  local tmp = os.tmpname()
  os.remove(tmp)
  os.execute("mkdir -p " .. tmp)

  setup(function()
    srv = h.serve {
      ["GET /api/items"] = function() return { json = { n = 3 } } end,
      ["GET /api/broken"] = function() return { status = 500, body = "no" } end,
      ["GET /api/hang"] = function() vdx.sleep(6000); return "late" end,
    }
    local port = srv.url:match(":(%d+)$")
    -- The checkout's cross-origin frame out of process, as the full browser runs it.
    browser = vdx.launch {
      args = { "--host-resolver-rules=MAP a.test 127.0.0.1, MAP b.test 127.0.0.1", "--site-per-process" },
    }
    base = "http://a.test:" .. port
    ctx = browser:new_context()
    page = ctx:new_page()
  end)

  teardown(function()
    if browser then browser:close() end
    if srv then srv:close() end
    os.execute("rm -rf " .. tmp)
  end)

  it("names the cookie banner that covers a button, then clicks once it is gone", function()
    page:navigate(srv.url .. "/actions/covered.html")
    local snap = page:snapshot()
    local buy, accept = ref_of(snap, 'button "Buy now"'), ref_of(snap, 'button "Accept cookies"')
    local err = h.error_of(page.click, page, buy)
    assert.is_true(vdx.is_error(err, "ElementCovered"))
    assert.equal(buy, err.ref)
    assert.equal("cookie-banner", err.covering.layer and err.covering.layer.id or err.covering.id)
    assert.matches('id="cookie%-banner"', err.message)
    assert.matches("retrying will not help", err.message)
    assert.equal("nothing", text_of(page, "out"))     -- no click went through
    local r = page:click(accept)
    assert.same({ ref = accept, console_errors = 0 }, r)
    r = page:click(buy)
    assert.same({ ref = buy, console_errors = 0 }, r)
    assert.equal("bought 1", text_of(page, "out"))
  end)

  it("opens a menu that reacts to pointerdown only, with trusted events", function()
    page:navigate(srv.url .. "/actions/menu.html")
    local snap = page:snapshot()
    page:click(ref_of(snap, 'button "Options"'))
    assert.equal("pointerover pointerdown pointerup click", text_of(page, "log"))
    snap = page:snapshot()
    assert.matches('button "Options" %[expanded%]', snap.text)
    page:click(ref_of(snap, 'menuitem "Delete"'))
    assert.equal("chose delete", text_of(page, "out"))
  end)

  it("types into inputs, textareas and a contenteditable editor", function()
    page:navigate(srv.url .. "/actions/editor.html")
    local snap = page:snapshot()
    local title, notes = ref_of(snap, 'textbox "Title"'), ref_of(snap, 'textbox "Notes"')
    local body, q = ref_of(snap, 'textbox "Body"'), ref_of(snap, 'textbox "Search"')
    page:type(title, "New title", { clear = true })
    assert.equal("New title", page:evaluate("document.getElementById('title').value"))
    page:type(notes, "ab", { slowly = true })
    assert.equal("ab", page:evaluate("document.getElementById('notes').value"))
    assert.same({ "notes:keydown:a", "notes:keypress:a", "notes:input:a", "notes:keyup:a",
                  "notes:keydown:b", "notes:keypress:b", "notes:input:b", "notes:keyup:b" },
      page:evaluate("window.keys.filter(k => k.startsWith('notes:'))"))
    page:type(body, " world")
    assert.equal("Hello world", page:evaluate("document.getElementById('editor').textContent"))
    page:type(body, "Replaced", { clear = true, slowly = true })
    assert.equal("Replaced", page:evaluate("document.getElementById('editor').textContent"))
    -- press_key: select all in the title, then type over it; Enter submits.
    page:press_key("Control+A", { target = title })
    page:press_key("x")
    assert.equal("x", page:evaluate("document.getElementById('title').value"))
    -- ControlOrMeta, as the click tool's modifiers offer it: Control here.
    page:press_key("ControlOrMeta+a", { target = title })
    page:press_key("y")
    assert.equal("y", page:evaluate("document.getElementById('title').value"))
    page:type(q, "shoes", { submit = true })
    assert.equal("submitted y", text_of(page, "out"))
    page:type(title, "", { clear = true })
    assert.equal("", page:evaluate("document.getElementById('title').value"))
    assert.has_error(function() page:press_key("Control+Nope") end)
    -- A link or a checkbox never takes typed text: refused at once, saying
    -- what the ref is (it waited the whole timeout for "editable").
    snap = page:snapshot()
    local err = h.error_of(page.type, page, ref_of(snap, 'link "Help"'), "x", { timeout_ms = 10000 })
    assert.is_true(vdx.is_error(err, "NotEditable"), tostring(err))
    assert.matches('^e%d+ %(link "Help"%) is a <a>, not an <input>, <textarea> or contenteditable element', err.message)
    err = h.error_of(page.type, page, ref_of(snap, 'checkbox "Agree"'), "x", { clear = true, timeout_ms = 10000 })
    assert.is_true(vdx.is_error(err, "NotEditable"), tostring(err))
    assert.matches('is an <input type=checkbox>, which takes no typed text', err.message)
    -- A read-only field may become editable: it is waited for, as before.
    err = h.error_of(page.type, page, ref_of(snap, 'textbox "Code"'), "x", { timeout_ms = 300 })
    assert.is_true(vdx.is_error(err, "Timeout"), tostring(err))
  end)

  it("selects one of 200 options by label or value and lists them on a miss", function()
    page:navigate(srv.url .. "/actions/select.html")
    local snap = page:snapshot()
    local s = ref_of(snap, 'combobox "Pick one"')
    local r = page:select_option(s, "Option 150")
    assert.same({ "v150" }, r.selected)
    assert.equal("changed to v150", text_of(page, "out"))
    r = page:select_option(s, { "v7" })
    assert.same({ "v7" }, r.selected)
    local err = h.error_of(page.select_option, page, s, "Option 201")
    assert.is_true(vdx.is_error(err, "NoOption"))
    assert.equal(200, err.option_count)
    assert.equal(50, #err.available)
    assert.same({ value = "v1", label = "Option 1" }, err.available[1])
    assert.matches('"Option 1", "Option 2"', err.message)
  end)

  it("fills and submits a checkout form inside a cross-origin iframe by refs", function()
    page:navigate(base .. "/actions/checkout.html")
    local snap = page:snapshot()
    local name = ref_of(snap, 'textbox "Name on card"')
    assert.matches("^f%d+e%d+$", name)
    local frames = page:frames()
    local oop = false
    for _, f in ipairs(frames) do oop = oop or f.out_of_process end
    assert.is_true(oop)
    page:type(name, "Ada Lovelace")
    page:type(ref_of(snap, 'textbox "Card number"'), "4242 4242", { slowly = true })
    page:select_option(ref_of(snap, 'combobox "Country"'), "Germany")
    local r = page:check(ref_of(snap, 'checkbox "Save card"'))
    assert.is_true(r.changed)
    r = page:check(ref_of(snap, 'checkbox "Save card"'))
    assert.is_false(r.changed)
    page:click(ref_of(snap, 'button "Pay %$42.00"'))
    page:wait_for { text = "paid by", timeout_ms = 5000 }
    assert.equal("paid by Ada Lovelace card 4242 4242 in de saved", text_of(page, "status"))
  end)

  it("presses, hovers and drags in a frame just scrolled into view, which the browser routes to its iframe", function()
    -- The old build lost most of these: CheckFailed, a click, a hover or a
    -- drag that did nothing.  Three rounds, each on a frame freshly out of
    -- view.
    for round = 1, 3 do
      page:navigate(base .. "/actions/below.html")
      local snap = page:snapshot()
      local r = page:check(ref_of(snap, 'checkbox "I agree"'))
      assert.is_true(r.changed, "round " .. round)
      assert.matches('checkbox "I agree" %[checked%]', page:snapshot().text)
      page:evaluate("window.scrollTo(0, 0)")
      page:click(ref_of(snap, 'button "Send"'))
      -- Pressed once in the frame, whatever the parent took.
      assert.matches('button "Sent 1"', page:snapshot().text, "round " .. round)
      page:evaluate("window.scrollTo(0, 0)")
      page:hover(ref_of(snap, 'button "Help"'))
      assert.matches("Help shown", page:snapshot().text, "round " .. round)
      page:evaluate("window.scrollTo(0, 0)")
      page:drag(ref_of(snap, 'button "Drag me"'), ref_of(snap, 'button "Drop here"'))
      assert.matches("paragraph: Dropped", page:snapshot().text, "round " .. round)
      -- A select's wait for its element to hold still, the frame out of
      -- view again (bench/frame_below.lua times it).
      page:evaluate("window.scrollTo(0, 0)")
      page:select_option(ref_of(snap, 'combobox "Plan"'), "Pro")
      assert.matches('option "Pro" %[selected%]', page:snapshot().text, "round " .. round)
    end
  end)

  it("brings a frame into view before acting in it, and only a frame none of which is in view", function()
    page:navigate(base .. "/actions/below.html")
    local frame = ref_of(page:snapshot(), 'checkbox "I agree"'):match("^(f%d+)e%d")
    assert.equal(0, page:evaluate("scrollY"))
    page:frame_offset(frame, 0, 0, { reveal = true })
    assert.is_true(page:evaluate("scrollY") > 0)
    -- Its top above the viewport, the rest in it: reveal leaves it there.
    page:evaluate("window.scrollTo(0, document.getElementById('consent').getBoundingClientRect().top + scrollY + 100)")
    local y = page:evaluate("scrollY")
    page:frame_offset(frame, 0, 0, { reveal = true })
    assert.equal(y, page:evaluate("scrollY"))
    -- A point is brought into view, the frame's top-left corner here.
    page:frame_offset(frame, 0, 0)
    assert.is_true(page:evaluate("scrollY") < y)
    local err = h.error_of(page.frame_offset, page, frame, 0, 0, { reveal = "yes" })
    assert.is_true(vdx.is_error(err, "InvalidArgument"), tostring(err))
  end)

  it("reports a popup and a new tab, which appear in ctx:pages()", function()
    page:navigate(srv.url .. "/actions/popup.html")
    local snap = page:snapshot()
    local r = page:click(ref_of(snap, 'button "Open popup"'))
    assert.equal(1, #r.popups)
    assert.equal(srv.url .. "/actions/second.html?popup", r.popups[1].url)
    r = page:click(ref_of(snap, 'link "Open help in a new tab"'))
    assert.equal(1, #r.popups)
    local pages = ctx:pages()
    assert.equal(3, #pages)
    assert.equal(page, pages[1])
    local urls = {}
    for i = 2, 3 do
      pages[i]:wait_for { text = "Second page", timeout_ms = 5000 }
      urls[#urls + 1] = pages[i]:evaluate("location.href")
    end
    table.sort(urls)
    assert.same({ srv.url .. "/actions/second.html", srv.url .. "/actions/second.html?popup" }, urls)
    assert.same(pages, ctx:pages())                 -- the same objects each time
    assert.is_true(pages[3]:bring_to_front())
    pages[3]:close()
    pages[2]:close()
    assert.equal(1, #ctx:pages())
    -- a plain link navigates, and the result says so
    r = page:click(ref_of(snap, 'link "Go to second"'))
    assert.same({ url = srv.url .. "/actions/second.html", status = 200, same_document = false },
      r.navigation)
  end)

  it("answers alert, confirm and prompt by policy or as told, never hanging", function()
    page:navigate(srv.url .. "/actions/dialogs.html")
    local snap = page:snapshot()
    local r = page:click(ref_of(snap, 'button "Alert"'))
    assert.equal("alert done", text_of(page, "out"))
    assert.same({ { type = "alert", message = "Saved!", accepted = true, seq = 1,
                    url = srv.url .. "/actions/dialogs.html", default_prompt = "" } }, r.dialogs)
    r = page:click(ref_of(snap, 'button "Confirm"'))
    assert.equal("confirm:false", text_of(page, "out"))
    assert.is_false(r.dialogs[1].accepted)
    page:click(ref_of(snap, 'button "Prompt"'))
    assert.equal("prompt:null", text_of(page, "out"))
    page:handle_dialog { accept = true, prompt_text = "Bob" }
    r = page:click(ref_of(snap, 'button "Prompt"'))
    assert.equal("prompt:Bob", text_of(page, "out"))
    assert.equal("Bob", r.dialogs[1].prompt_text)
    page:handle_dialog { accept = true }
    page:click(ref_of(snap, 'button "Confirm"'))
    assert.equal("confirm:true", text_of(page, "out"))
    assert.equal(5, #page:dialogs())
    -- a dialog from evaluate does not hang it either
    assert.equal(1, page:evaluate("alert('x'), 1"))
  end)

  it("keeps console messages, exceptions and requests, with failures", function()
    page:navigate(srv.url .. "/actions/errors.html")
    page:wait_for { text = "More errors" }
    page:console()                                   -- mark: since = "last"
    assert.same({}, page:console { since = "last" })
    -- A read from a seq of its own (an action's answer quoting the errors
    -- since it began) leaves the "last" mark to the reader that keeps it.
    -- (The page logs errors of its own meanwhile: the one read is found by its text.)
    local function mine(list)
      for _, m in ipairs(list) do if m.text == "read twice" then return m end end
    end
    local all = page:console { since = 0 }
    local seq0 = #all > 0 and all[#all].seq or 0
    page:evaluate("console.error('read twice'), 1")
    local until_ms = vdx.now() + 5000
    while not mine(page:console { since = seq0 }) and vdx.now() < until_ms do vdx.sleep(20) end
    assert.truthy(mine(page:console { since = seq0 }))
    assert.truthy(mine(page:console { since = "last" }))
    page:navigate(srv.url .. "/actions/errors.html")
    local deadline = vdx.now() + 5000
    local errs
    repeat
      vdx.sleep(50)
      errs = page:console { level = "error", since = 0 }
    until #errs >= 2 or vdx.now() > deadline
    local texts = {}
    for _, e in ipairs(errs) do texts[#texts + 1] = e.source .. ": " .. e.text end
    assert.truthy(table.concat(texts, "\n"):find("console: first error", 1, true))
    assert.truthy(table.concat(texts, "\n"):find("exception: Error: late boom", 1, true))
    local log = page:console { since = 0 }
    local found
    for _, e in ipairs(log) do if e.text == "hello 42 Object" then found = e end end
    assert.is_table(found)
    assert.equal("log", found.level)
    assert.equal(srv.url .. "/actions/errors.html", found.url)
    assert.equal(6, found.line)
    local api = page:requests { filter = "api/" }
    local by = {}
    for _, q in ipairs(api) do by[q.url:match("api/(%w+)")] = q end
    assert.equal(404, by.missing.status)
    assert.equal(200, by.items.status)
    assert.equal("GET", by.items.method)
    assert.equal("Fetch", by.items.type)
    assert.is_true(by.items.duration_ms >= 0)
    local failed = page:requests { failed = true }
    local refused
    for _, q in ipairs(failed) do if q.url:find(":9/refused", 1, true) then refused = q end end
    assert.equal("net::ERR_UNSAFE_PORT", refused.failure)   -- port 9: refused by the browser
    -- an action reports the console errors it caused
    local snap = page:snapshot()
    local r = page:click(ref_of(snap, 'button "More errors"'))
    assert.equal(1, r.console_errors)
  end)

  it("waits for load, or for network quiet, on a page that keeps a request open", function()
    -- A socket that listens and never answers: the page's request to it
    -- stays open for as long as the page lives.
    local socket = require "socket"
    local hang = assert(socket.tcp())
    assert(hang:bind("127.0.0.1", 0))
    assert(hang:listen(8))
    local _, hport = hang:getsockname()
    local url = srv.url .. "/actions/longlived.html?port=" .. hport
    local t0 = vdx.now()
    local nav = page:navigate(url, { wait_until = "networkidle", timeout_ms = 5000 })
    assert.equal("Long", nav.title)
    assert.is_true(vdx.now() - t0 >= 500)
    assert.is_true(vdx.now() - t0 < 4000)
    local open = page:requests { filter = "/stream" }
    assert.equal(1, #open)
    assert.is_nil(open[1].finished)
    t0 = vdx.now()
    local r = page:reload { wait_until = "networkidle", timeout_ms = 5000 }
    assert.equal(url, r.url)
    assert.is_true(vdx.now() - t0 >= 500)
    assert.is_true(vdx.now() - t0 < 4000)
    page:navigate(srv.url .. "/actions/second.html")
    r = page:back { wait_until = "domcontentloaded" }
    hang:close()
    assert.equal(url, r.url)
    r = page:forward()                        -- from the back/forward cache
    assert.equal(srv.url .. "/actions/second.html", r.url)
    local err = h.error_of(page.forward, page)
    assert.is_true(vdx.is_error(err, "NavigationFailed"))
  end)

  it("finds elements by description and says what it tried on a miss", function()
    page:navigate(srv.url .. "/actions/ladder.html")
    local r = page:click({ description = 'click the "Place order" button' })
    assert.equal("role", r.found_by)
    assert.equal("ordered", text_of(page, "out"))
    -- A name with a word the ladder would drop as filler ("in"), said
    -- alone, with its role, or as an instruction.
    for _, desc in ipairs { "Sign in", "Sign in button", "click the Sign in button" } do
      page:evaluate("document.getElementById('out').textContent = '-'")
      r = page:click({ description = desc })
      assert.equal("signed in", text_of(page, "out"), desc)
    end
    -- A column header and a button read "Actions": the button is meant.
    r = page:click({ description = "Actions" })
    assert.equal("menu", text_of(page, "out"))
    r = page:type({ description = "the Email address field" }, "a@b.c")  -- "field": role textbox
    assert.equal("role", r.found_by)
    r = page:type({ description = "Email address" }, "x@y.z", { clear = true })
    assert.equal("label", r.found_by)
    assert.equal("x@y.z", page:evaluate("document.getElementById('email').value"))
    r = page:type({ description = '"Search products"' }, "boots")
    assert.equal("placeholder", r.found_by)
    local err = h.error_of(page.click, page, { description = 'click the "Secret deals" link' })
    assert.is_true(vdx.is_error(err, "NoMatch"))
    assert.same({ { phrase = "Secret deals", role = "link", by_role = 1, by_label = 0,
                    by_placeholder = 0, by_text = 1 } }, err.tried)
    assert.equal(srv.url .. "/actions/second.html?hidden", err.href)
    assert.equal(srv.url .. "/actions/ladder.html", err.url)
    assert.equal("Help center", err.links[1].text)
    assert.matches("use its refs: they are the reliable way", err.message)
    assert.matches("page:navigate%(%) can go there directly", err.message)
    -- Several visible elements alike: nothing is clicked, each is listed
    -- with its ref and the text around it; one visible and one hidden is
    -- the visible one.
    err = h.error_of(page.click, page, { description = "Delete" })
    assert.is_true(vdx.is_error(err, "NotUnique"))
    assert.equal(2, err.count)
    assert.equal("text", err.by)
    assert.equal(2, #err.candidates)
    assert.equal("Buy milk Delete", err.candidates[1].around)
    assert.equal("Walk dog Delete", err.candidates[2].around)
    assert.equal("button", err.candidates[1].role)
    assert.equal("Delete", err.candidates[1].name)
    assert.matches("Nothing was done", err.message)
    assert.matches(err.candidates[2].ref, err.message, 1, true)
    assert.equal(4, page:evaluate("document.querySelectorAll('li').length"))
    r = page:click({ ref = err.candidates[2].ref })
    assert.equal("Buy milk", page:evaluate("document.querySelector('li').firstChild.data.trim()"))
    assert.equal(3, page:evaluate("document.querySelectorAll('li').length"))
    r = page:click({ description = "Remove" })
    assert.equal("text", r.found_by)
    assert.equal(2, page:evaluate("document.querySelectorAll('li').length"))
  end)

  it("refuses acting scripts in evaluate_checked by the engine's side-effect check", function()
    page:navigate(srv.url .. "/actions/editor.html")
    local err = h.error_of(page.evaluate_checked, page, "document.querySelector('form').requestSubmit()")
    assert.is_true(vdx.is_error(err, "EvaluateRefused"))
    assert.matches("could not prove it free of side effects", err.message)
    for _, src in ipairs {
      "document.querySelector('#title').value = 'x'",
      "document.querySelector('#title').click()",
      "location.href = '/'",
      "document.querySelector('#title').dispatchEvent(new Event('input'))",
      "document.forms[0].reset()",
    } do
      assert.is_true(vdx.is_error(h.error_of(page.evaluate_checked, page, src), "EvaluateRefused"), src)
    end
    assert.equal("-", text_of(page, "out"))
    assert.equal("Editor", page:evaluate_checked("document.title"))
    -- The refusal names the pure reads the check refuses (run EK's
    -- matchMedia) and those it lets through.
    local mm = h.error_of(page.evaluate_checked, page, "() => matchMedia('(min-width: 1px)').matches")
    assert.is_true(vdx.is_error(mm, "EvaluateRefused"))
    assert.matches("matchMedia, new URL", mm.message, 1, true)
    assert.is_string(page:evaluate_checked("() => getComputedStyle(document.body).display"))
    assert.equal(5, page:evaluate_checked("(a, b) => a + b.n", 2, { n = 3 }))
    assert.is_true(page:evaluate_checked("document.querySelector('#title').value === 'Old title'"))
    -- The source is compiled alone: a trailing comment, a comma
    -- expression, a nil argument; a breakout is a SyntaxError.
    assert.equal(5, page:evaluate_checked("(a, b) => a + b.n // adds", 2, { n = 3 }))
    assert.equal(2, page:evaluate_checked("1, 2"))
    assert.is_true(page:evaluate_checked("(a, b, c) => a === null && b === 'x' && c === undefined", nil, "x"))
    assert.is_true(vdx.is_error(h.error_of(page.evaluate_checked, page, 5), "InvalidArgument"))
    err = h.error_of(page.evaluate_checked, page, "0), (document.title = 'pwn'), (0")
    assert.is_true(vdx.is_error(err, "JavaScriptError"))
    assert.matches("SyntaxError", err.message)
    assert.equal("Editor", page:evaluate_checked("document.title"))
  end)

  it("fills a form of every field kind, uploads a file, drags and presses at a point", function()
    page:navigate(srv.url .. "/actions/form.html")
    local snap = page:snapshot()
    local file = tmp .. "/avatar.txt"
    local f = assert(io.open(file, "w")); f:write("hi"); f:close()
    local r = page:fill_form {
      { target = ref_of(snap, 'textbox "Full name"'), value = "Grace" },
      { target = ref_of(snap, 'checkbox "I agree"'), value = true },
      { target = ref_of(snap, 'radio "Pro"'), value = true },
      { target = ref_of(snap, 'combobox "Size"'), value = "L" },
      { target = ref_of(snap, 'slider "Volume"'), value = 7 },
      { target = ref_of(snap, 'button "Avatar"'), value = file },
    }
    assert.equal(6, r.count)
    page:click(ref_of(snap, 'button "Save"'))
    assert.same({ name = "Grace", terms = "on", plan = "pro", size = "L", volume = "7",
                  avatar = {} }, page:evaluate("JSON.parse(document.getElementById('out').textContent)"))
    assert.equal("avatar.txt", page:evaluate("document.getElementById('avatar').files[0].name"))
    page:drag(ref_of(snap, 'button "Drag me"'), ref_of(snap, 'button "Drop zone"'))
    assert.equal("dropped", text_of(page, "dragged"))
    -- Each of the drag's 5 steps reached the page as a move of its own.
    assert.equal("5", page:evaluate("document.getElementById('src').dataset.moves"))
    local box = page:evaluate("(() => { const r = document.getElementById('slider').getBoundingClientRect(); return {x: r.x, y: r.y} })()")
    r = page:click_at(box.x + 100, box.y + 10, { hold_ms = 250, steps = 4 })
    assert.equal("held true at 100", text_of(page, "held"))
    assert.equal("\137PNG", r.png:sub(1, 4))
  end)

  it("writes screenshots of the viewport, the full page and one element, and a PDF", function()
    page:navigate(srv.url .. "/actions/select.html")
    local snap = page:snapshot()
    local function png_size(path)
      local f = assert(io.open(path, "rb")); local d = f:read("a"); f:close()
      assert.equal("\137PNG\r\n\26\n", d:sub(1, 8))
      return string.unpack(">I4I4", d, 17)
    end
    local r = page:screenshot { path = tmp .. "/v.png" }
    assert.equal(tmp .. "/v.png", r.path)
    assert.is_true(r.size > 100)
    local w, hgt = png_size(r.path)
    assert.equal(page:evaluate("innerWidth"), w)
    assert.equal(page:evaluate("innerHeight"), hgt)
    r = page:screenshot { path = tmp .. "/e.png", ref = ref_of(snap, 'combobox "Pick one"') }
    local ew, eh = png_size(r.path)
    local rect = page:evaluate("(() => { const r = document.getElementById('s').getBoundingClientRect(); return [Math.round(r.width), Math.round(r.height)] })()")
    assert.same(rect, { ew, eh })
    r = page:screenshot { path = tmp .. "/j.jpg", format = "jpeg", full_page = true }
    assert.is_true(r.size > 100)
    assert.equal("jpeg", r.format)
    -- Without a path nothing is written: the image comes back as the
    -- browser sent it, base64, with its decoded size.
    local mem = page:screenshot()
    assert.is_nil(mem.path)
    assert.equal("png", mem.format)
    assert.equal("\137PNG\r\n\26\n", vdx.base64_decode(mem.base64):sub(1, 8))
    assert.equal(#vdx.base64_decode(mem.base64), mem.size)
    local file = page:screenshot { path = tmp .. "/v2.png" }
    local fh = assert(io.open(file.path, "rb")); local bytes = fh:read("a"); fh:close()
    assert.equal(bytes, vdx.base64_decode(file.base64))
    assert.equal(#bytes, file.size)
    r = page:pdf { path = tmp .. "/p.pdf" }
    local f = assert(io.open(r.path, "rb")); local d = f:read(5); f:close()
    assert.equal("%PDF-", d)
  end)

  it("takes a box the snapshot read, then a frame, as holding still; a moved or moving one waits", function()
    page:navigate(srv.url .. "/actions/moving.html")
    local snap = page:snapshot()
    local still, later, slide = ref_of(snap, 'button "Still"'), ref_of(snap, 'button "Later"'),
      ref_of(snap, 'button "Slide"')
    local function point(ref)
      return page:bridge("actionPoint", { ref, { hit = false, timeout = 400 } }, { frame = ref })
    end
    -- Waits in the page until the snapshot's box reads count (still.js): its
    -- background reads have run (an idle callback runs after them) and a
    -- frame has begun since.  A fixed sleep
    -- here failed on a loaded machine, whose renderer took longer to draw.
    local function frame_after_snapshot()
      page:evaluate("new Promise((done) => requestIdleCallback(() => "
        .. "requestAnimationFrame(() => requestAnimationFrame(() => done(true)))))")
    end
    frame_after_snapshot()
    -- The same box as the snapshot read, a frame later: no frame to wait for.
    assert.equal("snapshot", point(still).still_by)
    -- Moved since the snapshot: its box now, then after the next frame.
    page:evaluate("document.getElementById('later').style.left = '40px'")
    local p = point(later)
    assert.equal("frame", p.still_by)
    local box = page:evaluate("(() => { const r = document.getElementById('later')"
      .. ".getBoundingClientRect(); return r.left + r.width / 2 })()")
    assert.equal(box, p.x)
    page:click(later)
    assert.equal("later clicked", text_of(page, "out"))
    -- Never still: the wait runs out and says why.
    local err = h.error_of(page.click, page, slide, { timeout_ms = 400 })
    assert.is_true(vdx.is_error(err, "Timeout"), tostring(err))
    assert.equal("is still moving", err.reason)
    assert.equal("later clicked", text_of(page, "out"))
    -- Frames that come late (a page busy in tasks of 60 ms): a box read
    -- twice with no frame between says nothing.  The build before took
    -- the sliding button as still about four times in five.
    for _ = 1, 2 do
      page:navigate(srv.url .. "/actions/moving.html?busy")
      local busy = ref_of(page:snapshot(), 'button "Slide"')
      err = h.error_of(page.click, page, busy, { timeout_ms = 800 })
      assert.equal("is still moving", err.reason, tostring(err))
      assert.equal("nothing", text_of(page, "out"))
    end
    -- An animated box may come back to where the snapshot saw it a period
    -- later: while an animation runs around an element, only two frames
    -- in a row tell, even when it is (here: paused) where it was.
    page:navigate(srv.url .. "/actions/moving.html")
    page:evaluate("document.getAnimations()[0].pause()")
    snap = page:snapshot()
    frame_after_snapshot()
    assert.equal("frame", point(ref_of(snap, 'button "Slide"')).still_by)
    assert.equal("snapshot", point(ref_of(snap, 'button "Still"')).still_by)
  end)

  it("says a hidden page takes no hover, and still clicks it", function()
    page:navigate(srv.url .. "/actions/moving.html")
    local still = ref_of(page:snapshot(), 'button "Still"')
    local target = page:send("Target.getTargetInfo", {}).targetInfo.targetId
    local win = browser:send("Browser.getWindowForTarget", { targetId = target }).windowId
    browser:send("Browser.setWindowBounds", { windowId = win, bounds = { windowState = "minimized" } })
    local ok, failure = pcall(function()
      assert.equal("hidden", page:evaluate("document.visibilityState"))
      local err = h.error_of(page.hover, page, still, { timeout_ms = 1000 })
      assert.is_true(vdx.is_error(err, "PageHidden"), tostring(err))
      assert.matches("minimized", err.message)
      page:click(still)
      assert.equal("still clicked", text_of(page, "out"))
    end)
    browser:send("Browser.setWindowBounds", { windowId = win, bounds = { windowState = "normal" } })
    assert(ok, failure)
    page:hover(still)
  end)

  it("waits for a task given as alongside before its input, so the task reads the page as it was", function()
    page:navigate(srv.url .. "/actions/moving.html")
    local still = ref_of(page:snapshot(), 'button "Still"')
    -- The task outlasts the click's own waits: the input waits for it.
    local read = vdx.spawn(function()
      vdx.sleep(80)
      return page:evaluate("document.getElementById('out').textContent")
    end)
    page:click(still, { alongside = read })
    assert.equal("nothing", vdx.wait(read))
    assert.equal("still clicked", text_of(page, "out"))
    -- An action that changes the page with no input event waits too.
    page:navigate(srv.url .. "/actions/select.html")
    local pick = ref_of(page:snapshot(), 'combobox "Pick one"')
    read = vdx.spawn(function()
      vdx.sleep(80)
      return page:evaluate("document.querySelector('select').value")
    end)
    page:select_option(pick, "Option 150", { alongside = read })
    assert.equal("v1", vdx.wait(read))
    assert.equal("changed to v150", text_of(page, "out"))
    local err = h.error_of(page.click, page, still, { alongside = function() end })
    assert.is_true(vdx.is_error(err, "InvalidArgument"), tostring(err))
    assert.matches("alongside", err.message)
  end)

  it("fails with UnknownRef and StaleRef carrying what the element was", function()
    page:navigate(srv.url .. "/actions/covered.html")
    local snap = page:snapshot()
    local accept = ref_of(snap, 'button "Accept cookies"')
    page:click(accept)
    local err = h.error_of(page.click, page, accept, { timeout_ms = 2000 })
    assert.is_true(vdx.is_error(err, "StaleRef"))
    assert.same({ "button", "Accept cookies", "button" }, { err.role, err.name, err.tag })
    assert.equal(accept .. ' was the button "Accept cookies" (<button>), which has left the page', err.message)
    err = h.error_of(page.click, page, "e99")
    assert.is_true(vdx.is_error(err, "UnknownRef"))
    assert.equal("ref e99 is not known in this document", err.message)
    assert.equal("main", err.frame)                 -- the name refs use, not a CDP frame id
    err = h.error_of(page.click, page, "f9e1")
    assert.is_true(vdx.is_error(err, "UnknownRef"))
    assert.equal("ref f9e1 is not known: its frame f9 is gone", err.message)
    err = h.error_of(page.click, page, "#buy")         -- not a ref, and not guessed
    assert.is_true(vdx.is_error(err, "InvalidArgument"), tostring(err))
    assert.equal("'#buy' is not a ref: refs are e<N> or f<K>e<N> with N, K >= 1, as in e3 "
      .. "or f1e7, taken from the latest snapshot", err.message)
    -- a hidden element: ElementNotVisible that says why
    page:evaluate("document.getElementById('buy').style.visibility = 'hidden'")
    local buy = ref_of(snap, 'button "Buy now"')
    err = h.error_of(page.click, page, buy, { timeout_ms = 300 })
    assert.is_true(vdx.is_error(err, "ElementNotVisible"), tostring(err))
    assert.equal("is not visible", err.reason)
    assert.equal(buy .. " is not visible after 300 ms: visibility:hidden", err.message)
    -- Hidden by an ancestor, waited for only hidden_ms (an agent's ref of a
    -- part the page hid: run FM waited out 30 s), and said where.
    page:evaluate([[{ const b = document.getElementById('buy'); b.style.visibility = '';
      const w = document.createElement('section'); w.id = 'pay'; b.before(w); w.append(b); w.style.display = 'none' }]])
    err = h.error_of(page.click, page, buy, { timeout_ms = 20000, hidden_ms = 200 })
    assert.is_true(vdx.is_error(err, "ElementNotVisible"), tostring(err))
    assert.equal(buy .. " is not visible after 200 ms: display:none on its ancestor <section#pay>", err.message)
    require("vdx.action").hidden_wait(page, 150)
    err = h.error_of(page.click, page, buy, { timeout_ms = 20000 })
    assert.equal(buy .. " is not visible after 150 ms: display:none on its ancestor <section#pay>", err.message)
    require("vdx.action").hidden_wait(page, nil)
    page:evaluate("document.getElementById('pay').replaceWith(document.getElementById('buy'))")
    -- a disabled one: ElementNotEnabled
    page:evaluate("const b = document.getElementById('buy'); b.style.visibility = ''; b.disabled = true")
    err = h.error_of(page.click, page, buy, { timeout_ms = 300 })
    assert.is_true(vdx.is_error(err, "ElementNotEnabled"), tostring(err))
    assert.equal("is disabled", err.reason)
  end)
end)
