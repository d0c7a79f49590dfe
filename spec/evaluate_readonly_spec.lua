--- spec/evaluate_readonly_spec.lua: browser_evaluate is read-only because
-- the JavaScript engine says so (V8's side-effect-free mode), through the
-- MCP server.  Every acting script below, with and without ref, is
-- refused and leaves nothing behind: not on the page (DOM, values, title,
-- URL, window.name, designMode, style sheets, focus, selection, scroll,
-- popovers, dialogs), not in storage (localStorage, sessionStorage,
-- cookies, IndexedDB, Cache Storage, service workers), not on the server
-- (no request of any method arrives) and not in the bridge (the snapshot
-- is the same).  The same scripts run through browser_run_code_unsafe do
-- act (so each one is a real test), and a table of reads passes.
local vdx = require "vdx"
local client = require "mcp_client"
local helpers = require "helpers"

-- The acting scripts.  `el` is the element of the ref (the button "Go")
-- when one is given, and the button otherwise.
local EL = "(el = document.querySelector('#b')) => "
local function act(body) return EL .. "{ " .. body .. "; return 1 }" end
local BREAKOUTS = 3   -- the last entries of NEW
local NEW = {
  -- the DOM, every kind of change
  act "document.title = 'pwn'",
  act "document.querySelector('#h').textContent = 'pwn'",
  act "document.querySelector('#h').innerHTML = '<b>pwn</b>'",
  act "document.querySelector('#h').outerHTML = '<p>pwn</p>'",
  act "document.querySelector('#h').setAttribute('data-x', '1')",
  act "document.querySelector('#h').removeAttribute('class')",
  act "document.querySelector('#h').toggleAttribute('hidden')",
  act "document.querySelector('#h').className = 'x'",
  act "document.querySelector('#h').classList.add('x')",
  act "document.querySelector('#h').style.color = 'red'",
  act "document.querySelector('#h').dataset.x = '1'",
  act "document.querySelector('#h').id = 'z'",
  act "document.querySelector('#h').hidden = true",
  act "document.body.appendChild(document.createElement('p'))",
  act "document.body.append('text')",
  act "document.body.prepend(document.createElement('hr'))",
  act "document.querySelector('#list').firstChild.remove()",
  act "document.querySelector('#list').replaceChildren()",
  act "document.querySelector('#list').insertBefore(document.createElement('li'), null)",
  act "document.querySelector('#h').insertAdjacentHTML('afterend', '<p>x</p>')",
  act "document.querySelector('#h').replaceWith(document.createElement('h2'))",
  act "document.querySelector('#h').firstChild.nodeValue = 'pwn'",
  act "document.querySelector('#h').firstChild.appendData('pwn')",
  act "document.querySelector('#h').remove()",
  act "document.write('<p>gone</p>')",
  act "document.open()",
  act "document.querySelector('#h').attachShadow({ mode: 'open' })",
  act "customElements.define('x-pwn', class extends HTMLElement {})",
  act "frames[0].document.body.textContent = 'pwn'",
  act "document.querySelector('#fr').srcdoc = '<p>pwn</p>'",
  -- clicks, submits, events, values
  act "el.click()",
  act "HTMLElement.prototype.click.call(el)",
  act "document.querySelector('#f').submit()",
  act "document.querySelector('#f').requestSubmit()",
  act "el.dispatchEvent(new MouseEvent('click', { bubbles: true }))",
  act "document.querySelector('#name').value = 'pwn'",
  act "document.querySelector('#name').defaultValue = 'pwn'",
  act "document.querySelector('#ta').value = 'pwn'",
  act "document.querySelector('#cb').checked = true",
  act "document.querySelector('#sel').selectedIndex = 1",
  act "document.querySelector('#sel').options[1].selected = true",
  act "document.querySelector('#f').reset()",
  act "document.querySelector('#name').setRangeText('pwn')",
  act "el.onclick = () => 1",
  -- focus, selection, scroll, popovers, dialogs, full screen
  act "document.querySelector('#name').focus()",
  act "document.querySelector('#name').select()",
  act "getSelection().selectAllChildren(document.querySelector('#h'))",
  act "const r = document.createRange(); r.selectNodeContents(document.body); getSelection().addRange(r)",
  act "window.scrollTo(0, 500)",
  act "document.querySelector('#bottom').scrollIntoView()",
  act "document.querySelector('#pop').showPopover()",
  act "document.querySelector('#dlg').show()",
  act "document.querySelector('#dlg').showModal()",
  -- navigation and history
  act "location.href = '/other'",
  act "location.assign('/other')",
  act "location.replace('/other')",
  act "location.reload()",
  act "location.hash = 'pwn'",
  act "history.pushState({}, '', '/pushed')",
  act "history.replaceState({}, '', '/replaced')",
  act "history.go(0)",
  act "navigation.navigate('/other')",
  act "window.open('/other')",
  act "open('/other', '_self')",
  act "document.querySelector('#link').click()",
  -- requests of every kind
  act "fetch('/hit', { method: 'POST', body: 'x' })",
  act "fetch('/hit')",
  act "fetch('/hit', { method: 'PUT', keepalive: true })",
  act "fetch('/hit', { method: 'DELETE' })",
  act "const x = new XMLHttpRequest(); x.open('POST', '/hit'); x.send('x')",
  act "navigator.sendBeacon('/hit', 'x')",
  act "const w = new WebSocket('ws://' + location.host + '/hit'); w.onopen = () => w.send('x')",
  act "new EventSource('/hit')",
  act "new Image().src = '/hit'",
  act "document.querySelector('#h').style.backgroundImage = 'url(/hit)'",
  act "import('/hit')",
  act "new Worker('/hit')",
  act "new SharedWorker('/hit')",
  act "navigator.serviceWorker.register('/sw.js')",
  act "document.fonts.add(new FontFace('pwn', 'url(/hit)')); document.fonts.load('10px pwn')",
  -- work deferred past the call
  act "setTimeout(() => { document.title = 'late' }, 0)",
  act "setInterval(() => { document.title = 'late' }, 10)",
  act "requestIdleCallback(() => { document.title = 'late' })",
  act "requestAnimationFrame(() => { document.title = 'late' })",
  act "queueMicrotask(() => { document.title = 'late' })",
  act "scheduler.postTask(() => { document.title = 'late' })",
  act "Promise.resolve().then(() => { document.title = 'late' })",
  act "(async () => { await null; document.title = 'late' })()",
  act "fetch('/hit').then(() => fetch('/hit', { method: 'POST' }))",
  act "const c = new MessageChannel(); c.port1.onmessage = () => { document.title = 'late' }; c.port2.postMessage(1)",
  act "new BroadcastChannel('pwn').postMessage(1)",
  act "document.addEventListener('click', () => fetch('/hit', { method: 'POST' }))",
  act "document.body.onclick = () => fetch('/hit', { method: 'POST' })",
  act "new MutationObserver(() => fetch('/hit', { method: 'POST' })).observe(document, { subtree: true, attributes: true })",
  act "new ResizeObserver(() => { document.title = 'late' }).observe(document.body)",
  -- page state the old watch never looked at
  act "document.designMode = 'on'",
  act "document.body.contentEditable = 'true'",
  act "document.styleSheets[0].insertRule('body { color: red }')",
  act "document.styleSheets[0].cssRules[0].style.color = 'red'",
  act "document.adoptedStyleSheets = [new CSSStyleSheet()]",
  act "indexedDB.open('pwn')",
  act "caches.open('pwn')",
  act "window.name = 'pwn'",
  -- storage and cookies
  act "document.cookie = 'pwn=1; path=/'",
  act "cookieStore.set('pwn', '1')",
  act "localStorage.setItem('pwn', '1')",
  act "localStorage.removeItem('keep')",
  act "localStorage.clear()",
  act "sessionStorage.setItem('pwn', '1')",
  act "sessionStorage.keep = 'pwn'",
  -- poisoning what later reads (and the bridge) rely on
  act "Array.prototype.join = () => 'pwn'",
  act "window.MutationObserver = function () {}",
  act "JSON.stringify = () => '{}'",
  act "Object.defineProperty(Node.prototype, 'textContent', { get() { return 'pwn' } })",
  act "String.prototype.trim = () => 'pwn'",
  act "globalThis.pwn = 1",
  act "window.state.count = 99",
  -- messages
  act "postMessage('act', '*')",
  act "frames[1].postMessage('post', '*')",
  -- roads around the check
  act "eval('document.title = 1')",
  act "new Function('document.title = 2')()",
  act "setTimeout('document.title = 3')",
  act "Reflect.set(document, 'title', 'pwn')",
  act "Object.assign(document, { title: 'pwn' })",
  -- breaking out of an argument list: the source is compiled alone
  "0), (localStorage.pwn = 'pwn'), (0",
  "() => 1), (document.title = 'pwn'",
  "() => 1 }); document.title = 'pwn'; ({ a: () => {",
}

-- Last round's 24 (spec/effects_spec.lua at a27c410), on this page.
local LAST_ROUND = {
  "() => { window['loc' + 'ation'].href = '/other'; return 1 }",
  "() => { Reflect.apply(location.assign, location, ['/other']); return 1 }",
  "() => { navigation.navigate('/other'); return 1 }",
  "() => { history['push' + 'State']({}, '', '/pushed'); return 1 }",
  "async () => { await fetch('/hit', { method: 'PO' + 'ST', body: 'x' }).catch(() => 0); return 1 }",
  "() => { const x = new XMLHttpRequest(); x.open('P' + 'OST', '/hit'); x.send('x'); return 1 }",
  "() => { HTMLFormElement.prototype.submit.call(document.getElementById('f')); return 1 }",
  "() => { document['wri' + 'te']('<p>gone</p>'); return 1 }",
  "() => eval(atob('ZG9jdW1lbnQuZ2V0RWxlbWVudEJ5SWQoJ2gnKS50ZXh0Q29udGVudCA9ICd4Jw=='))",
  "() => (new Function('document.getElementById(\"h\").id = \"z\"'))()",
  "() => { setTimeout('document.title = 1', 0); return 1 }",
  "() => { document.getElementById('b')['cli' + 'ck'](); return 1 }",
  "() => { Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(" ..
    "document.getElementById('name'), 'hacked'); return 1 }",
  "() => { Object.assign(document.getElementById('h'), { textContent: 'assigned' }); return 1 }",
  "() => { document['coo' + 'kie'] = 'k=v; path=/'; return 1 }",
  "() => { localStorage['x'] = 'y'; return 1 }",
  "() => { const s = localStorage; s['set' + 'Item']('a', 'b'); return 1 }",
  "() => { document.getElementById('list').firstChild['re' + 'move'](); return 1 }",
  "() => { document.body['append' + 'Child'](document.createElement('iframe')); return 1 }",
  "() => { document.getElementById('h')['set' + 'Attribute']('data-x', '1'); return 1 }",
  "() => { document.getElementById('name')['fo' + 'cus'](); return 1 }",
  "() => { const e = new window['Mouse' + 'Event']('click', { bubbles: true }); " ..
    "document.getElementById('b')['dispatch' + 'Event'](e); return 1 }",
  "async () => { await new Promise(r => setTimeout(r, 5)); document.getElementById('h').className = 'late'; return 1 }",
  "() => { document.getElementById('link')['cli' + 'ck'](); return 1 }",
}

local ACTING = {}
for _, s in ipairs(NEW) do ACTING[#ACTING + 1] = s end
for _, s in ipairs(LAST_ROUND) do ACTING[#ACTING + 1] = s end

-- { function, the exact answer }: reads that pass.
local READS = {
  { "() => document.title", 'Result: "readonly"' },
  { "() => document.querySelectorAll('#list li').length", "Result: 3" },
  { "() => [...document.querySelectorAll('#list li')].map(li => li.textContent).join('|')", 'Result: "one|two|three"' },
  { "() => document.querySelector('#h').innerText", 'Result: "Read only"' },
  { "() => document.querySelector('#h').textContent", 'Result: "Read only"' },
  { "() => getComputedStyle(document.querySelector('#h')).color", 'Result: "rgb(0, 0, 255)"' },
  { "() => document.querySelector('#name').value", 'Result: "typed"' },
  { "() => document.querySelector('#name').defaultValue", 'Result: "orig"' },
  { "() => document.querySelector('#ta').value", 'Result: "text"' },
  { "() => document.querySelector('#cb').checked", "Result: false" },
  { "() => document.querySelector('#sel').selectedIndex", "Result: 0" },
  { "() => document.querySelector('#h').getAttribute('class')", 'Result: "big"' },
  { "() => document.querySelector('#h').dataset.kind", 'Result: "head"' },
  { "() => document.querySelector('#h').hasAttribute('hidden')", "Result: false" },
  { "() => document.querySelector('#h').classList.contains('big')", "Result: true" },
  { "() => document.querySelector('#h').tagName", 'Result: "H1"' },
  { "() => document.querySelector('#link').getAttribute('href')", 'Result: "/other"' },
  { "() => location.pathname", 'Result: "/readonly/index.html"' },
  { "() => location.pathname.split('/').map(s => s.length).join()", 'Result: "0,8,10"' },
  { "() => JSON.stringify({ a: [1, 2], b: 'c' })", 'Result: "{\\"a\\":[1,2],\\"b\\":\\"c\\"}"' },
  { "() => ({ a: [1, 2], b: 'c' })", 'Result: {"a":[1,2],"b":"c"}' },
  { "() => Math.max(3, 7) + Math.floor(2.5)", "Result: 9" },
  { "() => new Date(0).toISOString()", 'Result: "1970-01-01T00:00:00.000Z"' },
  { "() => new Date(86400000).getUTCDate()", "Result: 2" },
  { "() => Date.now() > 0", "Result: true" },
  { "() => encodeURIComponent('a b&c')", 'Result: "a%20b%26c"' },
  { "() => decodeURIComponent(location.search) === ''", "Result: true" },
  { "() => 'a,b,c'.split(',').reverse().join('')", 'Result: "cba"' },
  { "() => [3, 1, 2].toSorted().join()", 'Result: "1,2,3"' },
  { "() => Object.keys(window.state).join()", 'Result: "count,items"' },
  { "() => window.state.items.length", "Result: 2" },
  { "() => localStorage.keep", 'Result: "ls"' },
  { "() => sessionStorage.length", "Result: 1" },
  { "() => document.cookie", 'Result: "keep=c"' },
  { "() => document.querySelector('#h').getBoundingClientRect().width > 0", "Result: true" },
  { "() => document.forms[0].elements.length", "Result: 5" },
  { "() => 0.1 + 0.2", "Result: 0.30000000000000004" },
  { "() => Number.MAX_SAFE_INTEGER", "Result: 9007199254740991" },
  { "() => undefined", "Result: null" },
  { "document.querySelectorAll('li').length", "Result: 3" },
  { "() => frames[0].document.body.textContent", 'Result: "inner"' },
}

-- The page's state, read by browser_run_code_unsafe (which may await):
-- everything a refused script could have left behind on the page and in
-- storage, the page's own built-ins, and `mark`, which a reload loses.
local STATE = [[async () => {
  const q = (s) => document.querySelector(s);
  const native = (f) => typeof f === 'function' && Function.prototype.toString.call(f).includes('[native code]');
  const dbs = (await indexedDB.databases()).map((d) => d.name).sort();
  return {
    html: document.documentElement && document.documentElement.outerHTML, title: document.title,
    url: location.href, name: window.name, design: document.designMode,
    editable: !!document.body && document.body.isContentEditable,
    sheets: [...document.styleSheets].map((s) => [...s.cssRules].map((r) => r.cssText).join()).join('|'),
    adopted: document.adoptedStyleSheets.length, focus: document.activeElement && document.activeElement.id,
    selection: String(getSelection()), scroll: scrollY, fullscreen: !!document.fullscreenElement,
    values: [q('#name') && q('#name').value, q('#ta') && q('#ta').value, q('#cb') && q('#cb').checked,
      q('#sel') && q('#sel').selectedIndex],
    popover: !!q('#pop') && q('#pop').matches(':popover-open'), dialog: !!q('#dlg') && q('#dlg').open,
    shadow: !!q('#h') && !!q('#h').shadowRoot, onclick: q('#b') ? String(q('#b').onclick).length : -1,
    frame: frames[0] ? frames[0].document.body.innerHTML : null, history: history.length, mark: window.mark,
    ls: JSON.stringify(localStorage), ss: JSON.stringify(sessionStorage), cookie: document.cookie,
    cookies: (await cookieStore.getAll()).map((c) => c.name).sort(), dbs, caches: await caches.keys(),
    workers: (await navigator.serviceWorker.getRegistrations()).length,
    globals: [typeof window.pwn, window.state && window.state.count, typeof customElements.get('x-pwn')],
    natives: [Array.prototype.join, JSON.stringify, window.MutationObserver, String.prototype.trim,
      Object.getOwnPropertyDescriptor(Node.prototype, 'textContent').get].map(native),
  };
}]]

-- Clears what an acting script run unsafe may have left.
local CLEAN = [[async () => {
  localStorage.clear(); sessionStorage.clear();
  for (const c of await cookieStore.getAll()) await cookieStore.delete(c.name);
  for (const d of await indexedDB.databases()) indexedDB.deleteDatabase(d.name);
  for (const k of await caches.keys()) await caches.delete(k);
  for (const r of await navigator.serviceWorker.getRegistrations()) await r.unregister();
  window.name = '';
  return 1;
}]]

-- What the page sees after a script: a click and a change of its own
-- (a time bomb's trigger), the same every time.
local TRIGGER = "() => { const t = document.querySelector('#target'); t.click(); t.setAttribute('data-t', '1'); return 1 }"

-- An MCP server with --allow-unsafe-code over a fixture server that counts
-- every request to the paths the scripts use, and the calls of a spec.
local function open_session()
  local e = { hits = {} }
  local function count(req) e.hits[#e.hits + 1] = req.method .. " " .. req.path return "hit" end
  local routes = { ["GET /sw.js"] = function(req) count(req) return { body = "", type = "text/javascript" } end }
  for _, m in ipairs { "GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD" } do
    for _, p in ipairs { "/hit", "/other", "/pushed", "/replaced" } do routes[m .. " " .. p] = count end
  end
  e.srv = helpers.serve(routes)
  e.url = e.srv.url .. "/readonly/index.html"
  -- b.test's frame out of process, as the full browser runs it.
  e.s = client.start("--allow-unsafe-code --browser-arg " .. client.q("--host-resolver-rules=MAP b.test 127.0.0.1")
    .. " --browser-arg --site-per-process")
  local _, call = client.caller(e.s)
  e.call = call
  function e.text_of(res) return res.content[1].text end
  function e.ok_call(name, args)
    local res = call(name, args)
    assert.is_falsy(res.isError, name .. ": " .. e.text_of(res))
    return e.text_of(res)
  end
  -- The value of an unsafe run (its answer without the change report).
  function e.unsafe(src) return e.ok_call("browser_run_code_unsafe", { ["function"] = src }):match("Result: [^\n]*") end
  function e.state() return e.unsafe(STATE) end
  -- (Without its head of URL and title, which only an answer between tells.)
  function e.snapshot()
    return (e.ok_call("browser_snapshot", {}):gsub("^Page URL: [^\n]*\nPage Title: [^\n]*\n", ""))
  end
  -- A fresh page (storage cleared, then loaded, marked); its snapshot and
  -- the ref of the button "Go".
  function e.fresh()
    e.ok_call("browser_navigate", { url = e.url })
    e.unsafe(CLEAN)
    e.ok_call("browser_navigate", { url = e.url })
    local snap = e.snapshot()
    local ref = snap:match('button "Go" %[ref=(e%d+)%]')
    assert(ref, snap)
    e.unsafe("() => { window.mark = 1; return 1 }")
    vdx.sleep(50)
    e.hits = {}
    return snap, ref
  end
  function e.close()
    if e.s then e.s:close() end
    e.srv:close()
  end
  return e
end

describe("browser_evaluate is read-only by the engine's judgement", function()
  local e, call, ok_call, text_of, state, snapshot

  setup(function()
    e = open_session()
    call, ok_call, text_of, state, snapshot = e.call, e.ok_call, e.text_of, e.state, e.snapshot
  end)

  teardown(function() if e then e.close() end end)

  local base, base_snap, ref

  it("starts from a page that the state probe reads", function()
    base_snap, ref = e.fresh()
    base = state()
    assert.matches('"title":"readonly"', base, 1, true)
    assert.matches('"ls":"{\\"keep\\":\\"ls\\"}"', base, 1, true)
    assert.matches('"natives":[true,true,true,true,true]', base, 1, true)
  end)

  it("runs the table of reads with their exact answers", function()
    for _, case in ipairs(READS) do
      local res = call("browser_evaluate", { ["function"] = case[1] })
      assert.is_falsy(res.isError, case[1] .. "\n" .. text_of(res))
      assert.equal(case[2], text_of(res), case[1])
    end
    assert.is_true(#READS >= 30)
    local res = call("browser_evaluate", { ref = ref, ["function"] = "(el) => [el.textContent, el.id, el.tagName]" })
    assert.equal('Result: ["Go","b","BUTTON"]', text_of(res))
  end)

  for i, src in ipairs(ACTING) do
    for _, with_ref in ipairs { false, true } do
      it(("refuses acting script %d %s and leaves no effect: %s"):format(i, with_ref and "with ref" or "without ref",
        src), function()
        local args = { ["function"] = src, ref = with_ref and ref or nil }
        local res = call("browser_evaluate", args)
        local text = text_of(res)
        assert.is_true(res.isError, text)
        -- Refused by the engine, or (a breakout; customElements, which an
        -- isolated world lacks) failed before it could act.
        local head = text:match("^[^\n]*")
        assert.is_true(head == "❌ Evaluate refused an acting script" or head == "❌ JavaScript error", text)
        -- Work deferred past the call would have run by now.
        vdx.sleep(30)
        assert.equal(base, state())
        assert.equal(base_snap, snapshot())
        assert.same({}, e.hits)
      end)
    end
  end

  it("bounds a huge value: the first 64 KiB of JSON and how long it was", function()
    local res = call("browser_evaluate", { ["function"] = "() => 'x'.repeat(1e8)" })
    local text = text_of(res)
    assert.is_falsy(res.isError, text:sub(1, 200))
    assert.is_true(#text < 66000, #text)
    assert.matches("^Result %(cut: the first 65536 of 100000002 characters of JSON", text)
    assert.is_true(res.structuredContent.cut)
    assert.equal(100000002, res.structuredContent.length)
  end)

  it("stops an endless loop at the timeout and says so; the page answers after", function()
    for _, r in ipairs { false, true } do
      local res = call("browser_evaluate", { ["function"] = "() => { while (true) {} }", timeout = 500,
        ref = r and ref or nil })
      assert.is_true(res.isError)
      assert.matches("the script ran longer than 500 ms and was stopped", text_of(res), 1, true)
      assert.equal('Result: "readonly"', text_of(call("browser_evaluate", { ["function"] = "() => document.title" })))
    end
  end)

  it("says why a script was refused and where to go instead", function()
    local text = text_of(call("browser_evaluate", { ["function"] = "() => document.getElementById('h').id" }))
    for _, want in ipairs { "could not prove it free of side effects", "getElementById", "closest", "matches",
      "browser_snapshot", "browser_find", "resolve_container", "inspect_pattern", "browser_run_code_unsafe",
      "querySelector('#id')" } do
      assert.matches(want, text, 1, true)
    end
  end)

  it("runs on an element of an out-of-process frame in that frame, and refuses acting there", function()
    local fref = base_snap:match('button "Pay" %[ref=(f%d+e%d+)%]')
    assert(fref, base_snap)
    local res = call("browser_evaluate", { ref = fref,
      ["function"] = "(el) => [el.textContent, location.hostname, document.title]" })
    assert.equal('Result: ["Pay","b.test","cross"]', text_of(res))
    res = call("browser_evaluate", { ref = fref, ["function"] = "(el) => { el.click(); return 1 }" })
    assert.equal("❌ Evaluate refused an acting script", text_of(res):match("^[^\n]*"))
    assert.equal(base_snap, snapshot())
    assert.same({}, e.hits)
  end)

  it("keeps the bridge's world its own: a poisoning ref script leaves the snapshot true", function()
    call("browser_evaluate", { ref = ref, ["function"] = "(el) => { Array.prototype.join = () => 'lie'; return 1 }" })
    call("browser_evaluate", { ref = ref, ["function"] = "(el) => { String.prototype.trim = () => 'lie'; return 1 }" })
    assert.equal(base_snap, snapshot())
  end)
  it("leaves no time bomb: a click, a key and a resize later nothing acts", function()
    ok_call("browser_click", { element = "Name", ref = base_snap:match('textbox "Name" %[ref=(e%d+)%]') })
    ok_call("browser_press_key", { key = "a" })
    ok_call("browser_resize", { width = 700, height = 500 })
    vdx.sleep(200)
    assert.same({}, e.hits)
  end)
end)

describe("the acting scripts, run without the check (browser_run_code_unsafe), do act", function()
  local e, triggered

  setup(function()
    e = open_session()
    e.fresh()
    e.unsafe(TRIGGER)
    vdx.sleep(150)
    triggered = e.state()
  end)

  teardown(function() if e then e.close() end end)

  for i, src in ipairs(ACTING) do
    it(("shows that acting script %d acts: %s"):format(i, src), function()
      e.fresh()
      local res = e.call("browser_run_code_unsafe", { ["function"] = src })
      if i > #NEW - BREAKOUTS and i <= #NEW then
        -- Compiled alone, a breakout is no script at all, checked or not.
        assert.is_true(res.isError)
        assert.matches("SyntaxError", e.text_of(res), 1, true)
        return
      end
      vdx.sleep(150)
      e.call("browser_run_code_unsafe", { ["function"] = TRIGGER })
      vdx.sleep(150)
      local now = e.call("browser_run_code_unsafe", { ["function"] = STATE })
      local seen = now.isError and e.text_of(now) or e.text_of(now):match("Result: [^\n]*")
      assert.is_true(seen ~= triggered or #e.hits > 0, "no effect seen:\n" .. tostring(seen))
    end)
  end
end)

describe("browser_run_code_unsafe", function()
  local srv, hits

  setup(function()
    hits = 0
    srv = helpers.serve { ["POST /hit"] = function() hits = hits + 1 return "hit" end }
  end)

  teardown(function() if srv then srv:close() end end)

  it("exists only with --allow-unsafe-code", function()
    local out = client.batch({ client.initialize(1, "2025-06-18"),
      { jsonrpc = "2.0", id = 2, method = "tools/list" } }, "")
    local names = {}
    for _, t in ipairs(client.by_id(out, 2).result.tools) do names[t.name] = true end
    assert.is_true(names.browser_evaluate)
    assert.is_nil(names.browser_run_code_unsafe)
  end)

  it("acts, answers with what changed, and is recorded as an action", function()
    local dir = client.tmpdir()
    local bin = helpers.vdxlua
    if bin:sub(1, 1) ~= "/" then bin = assert(io.popen("pwd")):read("l") .. "/" .. bin end
    local s = client.start("--allow-unsafe-code", nil, { cwd = dir, vdxlua = bin })
    local _, call = client.caller(s)
    local url = srv.url .. "/readonly/index.html"
    assert.is_falsy(call("browser_navigate", { url = url }).isError)
    call("browser_snapshot", {})
    local res = call("browser_run_code_unsafe", { ["function"] =
      "async () => { document.querySelector('#h').textContent = 'Changed'; " ..
      "await fetch('/hit', { method: 'POST' }); return document.title }" })
    local text = res.content[1].text
    assert.is_falsy(res.isError, text)
    assert.matches('Result: "readonly"', text, 1, true)
    assert.matches('Changed', text, 1, true)
    assert.equal(1, hits)
    local exported = call("browser_export_test", {}).content[1].text
    local name = exported:match("Wrote (%S+%.spec%.ts)")
    local spec = client.read(dir .. "/vdx-output/" .. tostring(name)) or exported
    s:close()
    os.execute("rm -rf " .. client.q(dir))
    assert.matches("await page.evaluate(async () => { document.querySelector('#h').textContent = 'Changed';",
      spec, 1, true)
  end)
end)
