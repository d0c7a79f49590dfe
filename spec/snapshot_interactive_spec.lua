--- spec/snapshot_interactive_spec.lua: the interactive-only snapshot,
-- page:snapshot{ interactive = true } and browser_snapshot
-- {interactive: true}, against the real browser: exactly the elements an
-- agent acts on, a heading only where it tells two alike apart, the same
-- refs the full snapshot gives, refs that act (click, type, check, select,
-- in a frame too) and start the structure queries, the budget's cut and
-- offset, and a wrong value refused.
local vdx = require "vdx"
local helpers = require "helpers"
local client = require "mcp_client"

-- spec/fixtures/snapshot/interactive.html, interactive only: no text, no
-- URL, no banner or main; the three "Edit" buttons under their headings;
-- the select's value; the frame's button under its iframe line; each
-- card's "Rating" group, repeated, under its card's heading.
local EXPECTED = [[
- navigation "Main" [ref=e1]:
  - link "Home" [ref=e2]
  - link "Help" [ref=e3]
- heading "Alpha" [level=3]
- button "Edit" [ref=e4]
- heading "Beta" [level=3]
- button "Edit" [ref=e5]
- heading "Gamma" [level=3]
- button "Edit" [ref=e6]
- form "Contact" [ref=e7]:
  - textbox "Name" [ref=e8]
  - checkbox "Subscribe" [checked] [ref=e9]
  - combobox "Size" [ref=e10]: Large
  - button "Send" [ref=e11]
- iframe "Chat" [ref=e12]:
  - button "Ask" [ref=f1e1]
- heading "Mug" [level=3]
- group "Rating" [ref=e13]:
  - button "1 star" [ref=e14]
  - button "2 stars" [ref=e15]
- button "Add to cart" [ref=e16]
- heading "Lamp" [level=3]
- group "Rating" [ref=e17]:
  - button "1 star" [ref=e18]
  - button "2 stars" [ref=e19]
- button "Add to cart" [ref=e20]
]]

-- A page of n sections, each a heading, a paragraph and a button.
local function many(n)
  local t = { "<title>many</title>" }
  for i = 1, n do
    t[#t + 1] = ("<section><h3>Part %d</h3><p>Words of part %d.</p><button>Go %d</button></section>"):format(i, i, i)
  end
  return table.concat(t, "\n")
end

local PAGES = { ["GET /many"] = function() return many(3000) end }

-- The lines of text that carry a ref, keyed by the ref.
local function ref_lines(text)
  local out = {}
  for line in text:gmatch("[^\n]+") do
    local ref = line:match("%[ref=([%w_]+)%]")
    if ref then out[ref] = line:match("^ *%- (.-%[ref=[%w_]+%])") end
  end
  return out
end

describe("page:snapshot{ interactive = true }", function()
  local srv, browser, page

  setup(function()
    srv, browser, page = helpers.open(PAGES)
  end)

  teardown(function()
    helpers.shut(browser, srv)
  end)

  before_each(function()
    page:navigate(srv.url .. "/snapshot/interactive.html")
  end)

  it("prints only what an agent acts on, with a heading where it tells alike buttons apart", function()
    local snap = page:snapshot { interactive = true }
    assert.equal(EXPECTED, snap.text)
    assert.is_false(snap.truncated)
    assert.equal(21, snap.ref_count)
  end)

  it("gives every element the ref the full snapshot gives it, taken before or after", function()
    local compact = ref_lines(page:snapshot { interactive = true }.text)
    local full = ref_lines(page:snapshot {}.text)
    local n = 0
    for ref, line in pairs(compact) do
      n = n + 1
      assert.equal(line, full[ref], ref)
    end
    assert.equal(21, n)
    -- A new document: the full snapshot first, then the compact one.
    page:navigate(srv.url .. "/snapshot/interactive.html")
    full = ref_lines(page:snapshot {}.text)
    compact = ref_lines(page:snapshot { interactive = true }.text)
    for ref, line in pairs(compact) do assert.equal(line, full[ref], ref) end
    assert.equal("checkbox \"Subscribe\" [checked] [ref=e11]", compact.e11)
  end)

  it("gives refs that click, type, check and select, in a frame too", function()
    local text = page:snapshot { interactive = true }.text
    local beta = select(2, text:match('heading "Alpha".-button "Edit" %[ref=(e%d+)%].-heading "Beta".-'
      .. 'button "Edit" %[ref=(e%d+)%]'))
    page:click(beta)
    assert.equal("edit beta", page:evaluate("document.title"))
    page:type(text:match('textbox "Name" %[ref=(e%d+)%]'), "Ada")
    page:uncheck(text:match('checkbox "Subscribe" %[checked%] %[ref=(e%d+)%]'))
    page:select_option(text:match('combobox "Size" %[ref=(e%d+)%]'), { "Small" })
    page:click(text:match('button "Ask" %[ref=(f%d+e%d+)%]'))
    local after = page:snapshot { interactive = true }.text
    -- Focus may add [active] to a line.
    assert.matches('\n  %- textbox "Name"[^\n]* %[ref=e8%]: Ada\n', after)
    assert.matches('\n  %- checkbox "Subscribe"[^\n%[]*%[?a?c?t?i?v?e?%]? ?%[ref=e9%]\n', after)
    assert.matches('\n  %- combobox "Size"[^\n]* %[ref=e10%]: Small\n', after)
    assert.matches('\n  %- button "Asked"[^\n]* %[ref=f1e1%]', after)
  end)

  it("gives refs the structure queries start from", function()
    local ref = page:snapshot { interactive = true }.text:match('heading "Gamma" %[level=3%]\n%- button "Edit" %[ref=(e%d+)%]')
    local c = page:resolve_container(ref)
    assert.equal("button", c.target.tag)
    assert.equal("section", c.ancestors[1].tag)
  end)

  it("is cut at the budget with the notice, and the offset goes on where it stopped", function()
    page:navigate(srv.url .. "/many")
    local whole = page:snapshot { interactive = true, budget_tokens = 200000 }
    assert.is_false(whole.truncated)
    -- Every "Go" button, and no heading: no two buttons share a name.
    local lines = {}
    for l in whole.text:gmatch("[^\n]+") do lines[#lines + 1] = l end
    assert.equal(3000, #lines)
    assert.equal("- button \"Go 1\" [ref=e1]", lines[1])
    assert.equal("- button \"Go 3000\" [ref=e3000]", lines[3000])
    local part = page:snapshot { interactive = true, budget_tokens = 500 }
    assert.is_true(part.truncated)
    local shown = {}
    for l in part.text:gmatch("[^\n]+") do shown[#shown + 1] = l end
    assert.matches("^%- note: \"snapshot truncated: lines 1 to " .. part.next_offset .. " of ", shown[#shown])
    for i = 1, part.next_offset do assert.equal(lines[i], shown[i]) end
    local rest = page:snapshot { interactive = true, budget_tokens = 200000, offset = part.next_offset }
    assert.equal(lines[part.next_offset + 1], rest.text:match("^[^\n]+"))
  end)

  it("refuses an interactive that is not a boolean", function()
    local err = helpers.error_of(page.snapshot, page, { interactive = "yes" })
    assert.is_true(vdx.is_error(err, "InvalidArgument"), tostring(err))
    assert.matches("interactive must be true or false", tostring(err), 1, true)
  end)
end)

describe("browser_snapshot {interactive: true}", function()
  local srv, s, call, request

  setup(function()
    srv = helpers.serve()
    s = client.start("")
    request, call = client.caller(s)
  end)

  teardown(function()
    if s then s:close() end
    srv:close()
  end)

  it("takes the argument, answers the compact text and its refs act", function()
    local tools = request("tools/list", {}).tools
    local prop
    for _, t in ipairs(tools) do
      if t.name == "browser_snapshot" then prop = t.inputSchema.properties.interactive end
    end
    assert.equal("boolean", prop and prop.type)
    call("browser_navigate", { url = srv.url .. "/snapshot/interactive.html" })
    local res = call("browser_snapshot", { interactive = true })
    local text = client.text { result = res }
    assert.is_nil(res.isError, text)
    -- browser_navigate took the full snapshot first: the same elements
    -- kept the refs it gave them.  (Its answer told the URL and title:
    -- the snapshot starts with the page.)
    local function unref(t) return (t:gsub("%[ref=e%d+%]", "[ref=eN]")) end
    assert.equal(1, (unref(text):find(unref(EXPECTED), 1, true)), text)
    assert.matches('^%- navigation "Main" %[ref=e2%]:\n', text)
    res = call("browser_click", { element = "Ask", ref = "f1e1" })
    assert.is_nil(res.isError, client.text { result = res })
    text = client.text { result = call("browser_snapshot", { interactive = true }) }
    assert.matches('button "Asked"[^\n]* %[ref=f1e1%]', text)
  end)
end)
