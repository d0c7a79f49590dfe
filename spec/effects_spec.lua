--- spec/effects_spec.lua: browser_evaluate judges a script by what it does.
-- Every acting script below is refused with the effect named, the effect
-- is blocked or undone (the page, its URL, cookies, storage and history are
-- as before; the server got no write), and a table of reads passes.
local tools = require "vdx.tools"
local roles_mod = require "vdx.roles"
local errors = require "vdx.errors"
local helpers = require "helpers"

-- The page's state that no refused script may change.
local STATE = [[JSON.stringify({ url: location.href, h: document.getElementById('h').textContent,
  name: document.getElementById('name').value, list: document.getElementById('list').innerHTML,
  cookie: document.cookie, ls: JSON.stringify(localStorage), hist: history.length, title: document.title,
  attrs: document.getElementById('h').getAttributeNames().join(','), body: document.body.children.length,
  frame: frames[0].document.body.innerHTML })]]

-- { script, the effect the refusal names }: the 24 acting scripts of the
-- probe, then two through a frame.  Every one passes the pattern check (the
-- first pass); the effect check catches them.
local ACTING = {
  { "() => { window['loc' + 'ation'].href = '/effects/other.html'; return 1 }", "navigation" },
  { "() => { Reflect.apply(location.assign, location, ['/effects/other.html']); return 1 }", "navigation" },
  { "() => { navigation.navigate('/effects/other.html'); return 1 }", "navigation" },
  { "() => { history['push' + 'State']({}, '', '/pushed'); return 1 }", "a history change" },
  { "async () => { await fetch('/effects/post', { method: 'PO' + 'ST', body: 'x' }).catch(() => 0); return 1 }",
    "a network request that writes (POST)" },
  { "() => { const x = new XMLHttpRequest(); x.open('P' + 'OST', '/effects/post'); x.send('x'); return 1 }",
    "a network request that writes (POST)" },
  { "() => { HTMLFormElement.prototype.submit.call(document.getElementById('f')); return 1 }", "submitting a form" },
  { "() => { document['wri' + 'te']('<p>gone</p>'); return 1 }", "document.write()" },
  { "() => eval(atob('ZG9jdW1lbnQuZ2V0RWxlbWVudEJ5SWQoJ2gnKS50ZXh0Q29udGVudCA9ICd4Jw=='))", "changing the DOM" },
  { "() => (new Function('document.getElementById(\"h\").id = \"z\"'))()", "changing the DOM" },
  { "() => { setTimeout('document.title = 1', 0); return 1 }", "a timer that runs a string of code" },
  { "() => { document.getElementById('b')['cli' + 'ck'](); return 1 }", "click()" },
  { "() => { Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(" ..
    "document.getElementById('name'), 'hacked'); return 1 }", "a form value assignment" },
  { "() => { Object.assign(document.getElementById('h'), { textContent: 'assigned' }); return 1 }",
    "changing the DOM" },
  { "() => { document['coo' + 'kie'] = 'k=v; path=/'; return 1 }", "writing cookies" },
  { "() => { localStorage['x'] = 'y'; return 1 }", "writing storage" },
  { "() => { const s = localStorage; s['set' + 'Item']('a', 'b'); return 1 }", "writing storage" },
  { "() => { document.getElementById('list').firstChild['re' + 'move'](); return 1 }", "changing the DOM" },
  { "() => { document.body['append' + 'Child'](document.createElement('iframe')); return 1 }", "changing the DOM" },
  { "() => { document.getElementById('h')['set' + 'Attribute']('data-x', '1'); return 1 }", "changing the DOM" },
  { "() => { document.getElementById('name')['fo' + 'cus'](); return 1 }", "moving focus or selection" },
  { "() => { const e = new window['Mouse' + 'Event']('click', { bubbles: true }); document.getElementById('b')['dispatch' + " ..
    "'Event'](e); return 1 }", "dispatchEvent()" },
  { "async () => { await new Promise(r => setTimeout(r, 5)); document.getElementById('h').className = 'late'; " ..
    "return 1 }", "changing the DOM" },
  { "() => { document.getElementById('link')['cli' + 'ck'](); return 1 }", "click()" },
  -- A same-origin frame's own prototypes are watched too.
  { "() => { frames[0].HTMLElement.prototype['cli' + 'ck'].call(document.getElementById('b')); return 1 }",
    "click()" },
  { "() => { Object.assign(frames[0].document.body, { textContent: 'x' }); return 1 }", "changing the DOM" },
}

-- { script, the exact result text } that must pass.
local READS = {
  { "() => document.title", 'Result: "effects"' },
  { "() => [...document.querySelectorAll('#list li')].map(li => li.textContent)", 'Result: ["one","two"]' },
  { "() => location.pathname.split('/').pop()", 'Result: "index.html"' },
  { "() => document.getElementById('name').value", 'Result: "orig"' },
  { "() => JSON.stringify(localStorage)", 'Result: "{}"' },
  { "() => history.length > 0", "Result: true" },
  { "async () => (await fetch('/effects/index.html')).status", "Result: 200" },
  { "async () => { await new Promise(r => setTimeout(r, 5)); return document.title }", 'Result: "effects"' },
  { "() => Object.assign(document.createElement('div'), { textContent: 'detached' }).textContent",
    'Result: "detached"' },
  { "() => getComputedStyle(document.body).display", 'Result: "block"' },
  { "() => document.getElementById('h').getBoundingClientRect().width > 0", "Result: true" },
  { "() => Number.MAX_SAFE_INTEGER", "Result: 9007199254740991" },
  { "document.querySelectorAll('li').length", "Result: 2" },
  { "() => undefined", "Result: null" },
}

describe("browser_evaluate judges scripts by effect", function()
  local srv, reg, roles, ctx, posts

  setup(function()
    posts = 0
    srv = helpers.serve { ["POST /effects/post"] = function() posts = posts + 1 return "posted" end }
    reg = tools.new()
    require("vdx.builtin").register_all(reg)
    roles = roles_mod.new {}
    local role = roles:current()
    ctx = { roles = roles, role = role, role_name = role.name, errors = errors, tools = reg,
      log = function() end }
    function ctx.page(c) return c.role:page() end
  end)

  teardown(function()
    roles:close()
    srv:close()
  end)

  local function call(name, args)
    local res = reg:call(name, args, ctx)
    return res, res.content[1].text
  end

  local function fresh()
    local res, text = call("browser_navigate", { url = srv.url .. "/effects/index.html" })
    assert.is_nil(res.isError, text)
    return ctx.role:page():evaluate(STATE)
  end

  for i, case in ipairs(ACTING) do
    it(("refuses acting script %d and undoes it: %s"):format(i, case[1]), function()
      local before = fresh()
      local res, text = call("browser_evaluate", { ["function"] = case[1] })
      assert.is_true(res.isError, text)
      assert.equal("❌ Evaluate refused an acting script", text:match("^[^\n]*"))
      assert.matches("refused the script by what it did", text, 1, true)
      assert.matches(case[2], text, 1, true)
      assert.equal(before, ctx.role:page():evaluate(STATE))
      assert.equal(0, posts)
    end)
  end

  it("passes every read with its exact result", function()
    fresh()
    for _, case in ipairs(READS) do
      local res, text = call("browser_evaluate", { ["function"] = case[1] })
      assert.is_nil(res.isError, case[1] .. "\n" .. text)
      assert.equal(case[2], text, case[1])
    end
  end)

  it("watches a script run on an element (ref) in the isolated world", function()
    local before = fresh()
    local _, snap = call("browser_snapshot", {})
    local ref = snap:match('button "Go" %[ref=(e%d+)%]')
    assert.is_string(ref, snap)
    local res, text = call("browser_evaluate", { ref = ref, ["function"] = "(el) => el.textContent" })
    assert.is_nil(res.isError, text)
    assert.equal('Result: "Go"', text)
    for _, case in ipairs {
      { "(el) => { Object.assign(el, { textContent: 'z' }); return 1 }", "changing the DOM" },
      { "(el) => { el.ownerDocument['coo' + 'kie'] = 'k=v'; return 1 }", "writing cookies" },
      { "(el) => { localStorage['x'] = 'y'; return 1 }", "writing storage" },
      { "async (el) => { await fetch('/effects/post', { method: 'PO' + 'ST' }).catch(() => 0); return 1 }",
        "a network request that writes (POST)" },
    } do
      res, text = call("browser_evaluate", { ref = ref, ["function"] = case[1] })
      assert.is_true(res.isError, case[1] .. "\n" .. text)
      assert.matches(case[2], text, 1, true)
    end
    -- The cookie cannot be taken back; everything else is as before.
    local after = ctx.role:page():evaluate(STATE)
    assert.equal("Go", ctx.role:page():evaluate("document.getElementById('b').textContent"))
    assert.equal(before:gsub('"cookie":"[^"]*"', ""), (after:gsub('"cookie":"[^"]*"', "")))
    assert.equal(0, posts)
  end)
end)
