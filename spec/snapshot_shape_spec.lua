-- The snapshot's shape against Playwright's aria-snapshot grammar: each
-- page of spec/shape_cases.lua is served, snapshotted, and its text with
-- the refs dropped must be exactly the YAML Playwright prints for it; where
-- Node is installed, Playwright itself (its ariaSnapshot() of each page, on
-- Debian's Chromium) is asked to confirm that YAML.
local cjson = require "cjson"
local h = require "helpers"
local cases = require "shape_cases"

local function without_refs(text)
  return (text:gsub(" %[ref=[%w_]+%]", ""):gsub("\n$", ""))
end

-- Text YAML 1.1 reads as typed, besides what Playwright quotes.
local YAML_PAGE = [=[<!doctype html><meta charset=utf-8><body>
<p>~</p><p>.inf</p><p>-.NaN</p><p>2024-05-01</p><p>1:30</p><p>1_000</p><p>0x1F</p><p>Y</p><p>&lt;&lt;</p>
<p>=</p><p>ok then</p><p>it's fine</p><p>say "hi"</p><p>50%</p>
<button>it's: here</button><input aria-label="Year" value="2024"><input aria-label="Q" placeholder="#1 choice">
</body>]=]

local YAML_EXPECTED = [=[
- paragraph: "~"
- paragraph: ".inf"
- paragraph: "-.NaN"
- paragraph: "2024-05-01"
- paragraph: "1:30"
- paragraph: "1_000"
- paragraph: "0x1F"
- paragraph: "Y"
- paragraph: "<<"
- paragraph: "="
- paragraph: ok then
- paragraph: it's fine
- paragraph: say "hi"
- paragraph: 50%
- 'button "it''s: here"'
- textbox "Year": "2024"
- textbox "Q":
  - /placeholder: "#1 choice"]=]

-- Scalars of letters, digits and a line key's marks print plain; the near
-- misses around that shortcut are still quoted: the typed words, "Infinity"
-- (a number to JavaScript), a name with a quote, a backslash or a line
-- separator (a plain value keeps its backslash).
local PLAIN_PAGE = [=[<!doctype html><meta charset=utf-8><body>
<p>Infinity</p><p>Infinity and beyond</p><p>FALSE</p><p>Yes please</p><p>Off-line (2) = [x] / y_z.</p>
<p>back\slash</p>
<button>Infinity</button><button>say "hi"</button><button>a\b</button><button>line&#x2028;sep</button>
</body>]=]

local PLAIN_EXPECTED = [=[
- paragraph: "Infinity"
- paragraph: Infinity and beyond
- paragraph: "FALSE"
- paragraph: Yes please
- paragraph: Off-line (2) = [x] / y_z.
- paragraph: back\slash
- button "Infinity"
- button "say \"hi\""
- button "a\\b"
- button "line\u2028sep"]=]

-- Links, headings and buttons named by their text children, which the
-- walk reads once for the text and the name: a comment among them, split
-- and blank text nodes, white space, a hidden link, nested elements.
local TEXT_NAMED_PAGE = [=[<!doctype html><meta charset=utf-8><body>
<a href="#c">Two <!-- c -->parts</a>
<h2>  spaced
  out </h2>
<button id="split">Splitting</button><button id="blank"></button>
<a href="#h" style="visibility:hidden">Hidden link</a>
<h3>Head <b>bold</b> tail</h3>
<button> </button>
<script>
document.getElementById('split').firstChild.splitText(5);
document.getElementById('blank').append('', ' ', '');
</script>
</body>]=]

local TEXT_NAMED_EXPECTED = [=[
- link "Two parts":
  - /url: "#c"
- heading "spaced out" [level=2]
- button "Splitting"
- button
- heading "Head bold tail" [level=3]
- button]=]

-- The same with no comment anywhere in the page: the walk then reads a
-- leaf's text in one call, for the name too; text split into nodes is
-- joined either way.
local TEXT_ONLY_PAGE = TEXT_NAMED_PAGE:gsub('<a href="#c">Two <!%-%- c %-%->parts</a>', '<p id="joined">one</p>')
  :gsub("</script>", "document.getElementById('joined').append('two', 'three');\n</script>")
local TEXT_ONLY_EXPECTED = TEXT_NAMED_EXPECTED:gsub('%- link "Two parts":\n  %- /url: "#c"', "- paragraph: onetwothree")

-- aria-owns: an owner that is hidden moves nothing; an element two owners
-- claim goes to the first.
local OWNS_PAGE = [=[<!doctype html><meta charset=utf-8><body>
<div role="list" aria-owns="a" style="display:none"><div role="listitem">Hidden</div></div>
<div role="listitem" id="a">Stays here</div>
<div role="listbox" aria-label="Picks" aria-owns="b"><div role="option">First</div></div>
<div role="group" aria-label="Late claim" aria-owns="b"></div>
<div role="option" id="b">Moved</div>
</body>]=]

describe("the snapshot's shape", function()
  local browser, srv, page

  setup(function()
    local routes = {}
    for i, c in ipairs(cases) do
      routes["GET /shape/" .. i] = function()
        return "<!doctype html><meta charset=utf-8><body>" .. c[2] .. "</body>"
      end
    end
    local depth_page = [=[<nav aria-label="Week"><ul aria-label="Due: today"><li>Milk</li><li>Eggs</li></ul></nav>]=]
    for path, body in pairs { ["/yaml"] = YAML_PAGE, ["/plain"] = PLAIN_PAGE, ["/text-named"] = TEXT_NAMED_PAGE,
      ["/text-only"] = TEXT_ONLY_PAGE, ["/owns"] = OWNS_PAGE, ["/depth"] = depth_page } do
      routes["GET " .. path] = function() return body end
    end
    srv, browser, page = h.open(routes)
  end)

  teardown(function() h.shut(browser, srv) end)

  it("quotes every scalar that YAML 1.1 or 1.2 would read as something other than a string", function()
    page:navigate(srv.url .. "/yaml")
    assert.equal(YAML_EXPECTED, without_refs(page:snapshot().text))
  end)

  it("prints plain scalars plain and still quotes the near misses", function()
    page:navigate(srv.url .. "/plain")
    assert.equal(PLAIN_EXPECTED, without_refs(page:snapshot().text))
  end)

  it("names links, headings and buttons from their text children as the full computation does", function()
    page:navigate(srv.url .. "/text-named")
    assert.equal(TEXT_NAMED_EXPECTED, without_refs(page:snapshot().text))
    page:navigate(srv.url .. "/text-only")
    assert.is_false(page:evaluate("document.documentElement.outerHTML.includes('<!--')"))
    assert.equal(TEXT_ONLY_EXPECTED, without_refs(page:snapshot().text))
  end)

  it("keeps a line cut by the depth limit one YAML scalar", function()
    page:navigate(srv.url .. "/depth")
    assert.equal([=[- navigation "Week":
  - 'list "Due: today" [+2]']=], without_refs(page:snapshot { depth = 1 }.text))
  end)

  it("lists what aria-owns moves once, under its first owner, unless that owner is hidden", function()
    page:navigate(srv.url .. "/owns")
    assert.equal(table.concat({
      "- listitem: Stays here",
      '- listbox "Picks":',
      '  - option "First"',
      '  - option "Moved"',
      '- group "Late claim"',
    }, "\n"), without_refs(page:snapshot().text))
  end)

  it("puts the summary's ref on a details group, so acting on it opens the group", function()
    local closed
    for i, c in ipairs(cases) do
      if c[1]:find("closed details", 1, true) then closed = i end
    end
    page:navigate(srv.url .. "/shape/" .. closed)
    local ref = page:snapshot().text:match("^%- group %[ref=(e%d+)%]: Shipping\n?$")
    assert.truthy(ref)
    local d = page:describe(ref)
    assert.equal("summary", d.tag)
    page:click(ref)
    -- The summary took focus when clicked: the group line says so.
    assert.equal(("- group [active] [ref=%s]:\n  - text: Shipping\n  - paragraph: Two days"):format(ref),
      (page:snapshot().text:gsub("\n$", "")))
  end)

  it("matches what Playwright itself prints for every case page (needs Node and npm)", function()
    local pw, why = h.playwright()
    if not pw then
      pending(why)
      return
    end
    local json = os.tmpname()
    local f = assert(io.open(json, "w"))
    local triples = {}
    for i, c in ipairs(cases) do triples[i] = { c[1], c[2], c[3] } end
    f:write(cjson.encode(triples))
    f:close()
    os.execute(("cp spec/pw_aria_snapshot.mjs %s/"):format(pw))
    local out, st = h.run(("cd %s && CHROMIUM_PATH=%s timeout 300 node pw_aria_snapshot.mjs %s 2>/dev/null"):format(
      pw, os.getenv("VDX_CHROMIUM") or "/usr/bin/chromium", json))
    os.remove(json)
    assert.equal(0, st, out)
    local printed = cjson.decode(out)
    local wrong = {}
    for i, c in ipairs(cases) do
      if printed[i] ~= c[3] then
        wrong[#wrong + 1] = ("%s:\n%s\n-- but Playwright prints --\n%s"):format(c[1], c[3], printed[i])
      end
    end
    assert.same({}, wrong)
  end)

  for i, c in ipairs(cases) do
    it("prints as Playwright does: " .. c[1], function()
      page:navigate(srv.url .. "/shape/" .. i)
      assert.equal(c.ai or c[3], without_refs(page:snapshot().text))
    end)
  end
end)
