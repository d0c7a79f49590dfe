-- sheet_scan_spec.lua: the walk reads what a page's style sheets can do
-- (bridge/src/sheets.js) once, and keeps it while the sheets stay the
-- same: a sheet or rule added or removed anywhere, or an adopted sheet
-- replaced, is read at the next snapshot.  It reads the ::before and
-- ::after of only the elements a rule gives a content.  And a sheet of
-- more selectors than the walk queries for is no less exact: every
-- element's style is read instead.
local h = require "helpers"

local PAGE = [[<!doctype html><title>sheets</title>
<style>.a { color: red } @media screen { .m { color: blue } } @media print {}</style>
<main><button class="x">Later</button><button class="y">Stays</button>
<div id="host"></div></main>
<script>
  const root = document.getElementById('host').attachShadow({ mode: 'open' });
  root.innerHTML = '<button class="w">Shadowed</button>';
  window.adopted = new CSSStyleSheet();
  adopted.replaceSync('.v { color: green }');
  root.adoptedStyleSheets = [adopted];
</script>]]

-- 500 rules that hide, more than the walk queries for, and 500 that take
-- boxes away; classes h3 and n250 are used.
local function many()
  local t = { "<!doctype html><title>many</title><style>" }
  for i = 1, 500 do
    t[#t + 1] = (".h%d { visibility: hidden } .n%d { display: none }"):format(i, i)
  end
  t[#t + 1] = [[</style><main><button class="h3">Hidden one</button><button class="n250">Gone one</button>
<p class="h3">hidden text</p><button>Shown one</button></main>]]
  return table.concat(t, "\n")
end

-- Rules that give ::before and ::after a content, each owner reached its
-- own way, beside a rule for every pseudo-element that gives none: a
-- class and a child combinator on one page, a descendant combinator on
-- the other (an owner the walk cannot tell makes it read every element,
-- so each way is alone on a page).
local PSEUDO = {
  [[<!doctype html><title>pseudo</title><style>
*, ::before, ::after { box-sizing: border-box }
.tag::before { content: "NEW " }
.list > ::after { content: "!" }
</style><main><button class="tag">Buy</button><button>Sell</button><ul class="list"><li>One</li></ul></main>]],
  [[<!doctype html><title>pseudo</title><style>
*, ::before, ::after { box-sizing: border-box }
.b ::before { content: "> " }
</style><main><div class="b"><p>Deep</p></div><p>Flat</p></main>]],
}

describe("a page's style sheets, read once per change", function()
  local srv, browser, page
  setup(function()
    srv, browser, page = h.open {
      ["GET /sheets"] = function() return PAGE end,
      ["GET /many"] = many,
      ["GET /pseudo1"] = function() return PSEUDO[1] end,
      ["GET /pseudo2"] = function() return PSEUDO[2] end,
    }
  end)
  teardown(function() h.shut(browser, srv) end)

  local function shows(text) return page:snapshot().text:find(text, 1, true) ~= nil end

  it("sees a rule added to a sheet after a snapshot", function()
    page:navigate(srv.url .. "/sheets")
    assert.is_true(shows('"Later"'))
    page:evaluate("document.styleSheets[0].insertRule('.x { visibility: hidden }', 0)")
    assert.is_false(shows('"Later"'))
    assert.is_true(shows('"Stays"'))
  end)

  it("sees a rule added inside an @media block", function()
    page:navigate(srv.url .. "/sheets")
    assert.is_true(shows('"Later"'))
    page:evaluate("document.styleSheets[0].cssRules[1].insertRule('.x { display: none }', 0)")
    assert.is_false(shows('"Later"'))
  end)

  it("sees a rule added to an @media block that had none", function()
    page:navigate(srv.url .. "/sheets")
    assert.is_true(shows('"Later"'))
    page:evaluate("document.styleSheets[0].cssRules[2].insertRule('.x { display: none }', 0)")
    page:evaluate("document.styleSheets[0].cssRules[2].media.mediaText = 'screen'")
    assert.is_false(shows('"Later"'))
  end)

  it("sees a style element added, and a rule removed", function()
    page:navigate(srv.url .. "/sheets")
    assert.is_true(shows('"Stays"'))
    page:evaluate([[(() => { const s = document.createElement('style');
      s.textContent = '.y { visibility: hidden }'; document.head.append(s); })()]])
    assert.is_false(shows('"Stays"'))
    page:evaluate("document.styleSheets[1].deleteRule(0)")
    assert.is_true(shows('"Stays"'))
  end)

  it("sees an adopted sheet of a shadow root replaced with as many rules", function()
    page:navigate(srv.url .. "/sheets")
    assert.is_true(shows('"Shadowed"'))
    page:evaluate("adopted.replaceSync('.w { visibility: hidden }')")
    assert.is_false(shows('"Shadowed"'))
  end)

  it("reads the ::before and ::after of the elements a rule gives them to, and only those", function()
    page:navigate(srv.url .. "/pseudo1")
    local text = page:snapshot().text
    assert.matches('button "NEW Buy"', text)
    assert.matches('button "Sell"', text)
    assert.matches('listitem: One!', text)
    page:navigate(srv.url .. "/pseudo2")
    text = page:snapshot().text
    assert.matches('paragraph: "> Deep"', text)
    assert.matches('paragraph: Flat', text)
  end)

  it("hides what a sheet of too many selectors to query for hides", function()
    page:navigate(srv.url .. "/many")
    local text = page:snapshot().text
    assert.matches('button "Shown one"', text)
    assert.is_nil(text:find("Hidden one", 1, true))
    assert.is_nil(text:find("Gone one", 1, true))
    assert.is_nil(text:find("hidden text", 1, true))
  end)
end)
