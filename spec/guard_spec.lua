-- vdx.guard: the acting-pattern policy behind page:evaluate_checked.  Pure
-- Lua (no browser): the page-level behaviour is in actions_spec.lua.
local guard = require "vdx.guard"

describe("vdx.guard #unit", function()
  it("names the rule each acting script matches, with the matched text", function()
    local cases = {
      ["btn.click()"] = "click()",
      ["form.requestSubmit()"] = "requestSubmit()",
      ["document.forms[0].submit ()"] = "submit()",
      ["el.dispatchEvent(e)"] = "dispatchEvent()",
      ["const e = new KeyboardEvent('keydown')"] = "constructing an event",
      ["form.reset()"] = "a form reset()",
      ["input.value = 'x'"] = "a form value assignment",
      ["box.checked=true"] = "a form value assignment",
      ["n.valueAsNumber += 1"] = "a form value assignment",
      ["sel.selectedIndex = 2"] = "a form value assignment",
      ["location = '/'"] = "navigation (location)",
      ["window.location.href = '/x'"] = "navigation (location)",
      ["location.assign('/x')"] = "navigation (location)",
      ["document.location.reload()"] = "navigation (location)",
      ["history.pushState({}, '', '/y')"] = "navigation (history)",
      ["history.back()"] = "navigation (history)",
      ["window.open('/z')"] = "window.open()",
      ["open('/z')"] = "window.open()",
      ["input.focus()"] = "moving focus or selection",
      ["dlg.showModal()"] = "moving focus or selection",
      ["document.execCommand('bold')"] = "execCommand()",
      ["p.innerHTML = '<b>x</b>'"] = "rewriting the DOM",
      ["p.textContent += '!'"] = "rewriting the DOM",
      ["list.appendChild(li)"] = "changing the DOM",
      ["el.setAttribute('x', 1)"] = "changing the DOM",
      ["main.append(node)"] = "changing the DOM",
      ["el.remove()"] = "removing an element",
      ["document.write('<p>')"] = "document.write()",
      ["document.writeln('x')"] = "document.write()",
      ["document.cookie = 'a=b'"] = "writing cookies",
      ["localStorage.setItem('k', 'v')"] = "writing storage",
      ["sessionStorage.clear()"] = "writing storage",
      ["fetch('/api', { method: 'POST' })"] = "a request that writes (POST/PUT/PATCH/DELETE)",
      ["fetch('/api', { method: \"delete\" })"] = "a request that writes (POST/PUT/PATCH/DELETE)",
      ["navigator.sendBeacon('/log', d)"] = "sendBeacon()",
    }
    for src, what in pairs(cases) do
      local got, snippet = guard.check(src)
      assert.equal(what, got, src)
      assert.is_truthy(src:find(snippet, 1, true), src)
    end
  end)

  it("lets reading scripts through", function()
    for _, src in ipairs {
      "document.title",
      "document.getElementById('title').value === 'Old title'",
      "[...document.querySelectorAll('li')].map(li => li.textContent)",
      "location.href",
      "location.pathname == '/shop'",
      "el.checked !== true",
      "document.querySelector('select').selectedIndex",
      "history.length",
      "xhr.open",
      "localStorage.getItem('k')",
      "document.cookie.includes('sid')",
      "fetch('/api', { method: 'GET' })",
      "el.getAttribute('aria-label')",
      "document.activeElement && document.activeElement.id",
    } do
      assert.is_nil(guard.check(src), src)
    end
  end)

  it("cuts the matched text at 60 characters", function()
    local _, snippet = guard.check("el.value" .. (" "):rep(100) .. "= 1")
    assert.equal(60, #snippet)
  end)

  it("takes a rule a team adds at run time", function()
    table.insert(guard.RULES, { what = "talking to the clipboard", "navigator%.clipboard%.write" })
    local ok, what = pcall(guard.check, "navigator.clipboard.writeText('x')")
    table.remove(guard.RULES)
    assert.is_true(ok)
    assert.equal("talking to the clipboard", what)
    assert.is_nil(guard.check("navigator.clipboard.writeText('x')"))
  end)
end)
