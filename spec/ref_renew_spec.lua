--- spec/ref_renew_spec.lua: a ref read before the page loaded again (a
-- test started anew on its page, a reload) still acts when it names the
-- element of the same role and name, the only one, in the new document
-- (vdx.ref_renew), and fails as before when two elements could be it or
-- the page is another.
local h = require "helpers"

describe("a ref of the page before it loaded again", function()
  local t = {}
  setup(function() h.start_tool_session(t) end)
  teardown(function() h.stop_tool_session(t) end)

  local function ref_of(text, pattern) return assert(text:match(pattern), text) end

  -- fn(url) on a page served at url: a section named by each of names,
  -- each holding the markup inner; the server is closed after fn, which
  -- raises or not.
  local function in_sections(names, inner, fn)
    local srv = h.serve { ["GET /twins"] = function()
      local body = ""
      for _, n in ipairs(names) do body = body .. ('<section aria-label="%s">%s</section>'):format(n, inner) end
      return { headers = { ["Content-Type"] = "text/html" }, body = body }
    end }
    local ok, err = pcall(fn, srv.url .. "/twins")
    srv:close()
    assert(ok, err)
  end

  -- The snapshot lines in region name of the page at url, opened and
  -- looked at whole.
  local function region_at(url, name)
    t.call("browser_navigate", { url = url })
    local _, snap = t.call("browser_snapshot", {})
    return ref_of(snap, 'region "' .. name:gsub("%p", "%%%0") .. '" %[ref=e%d+%]:(.*)$')
  end

  -- Opens the long page, finds a button, loads the page again without a
  -- look (no snapshot gives the new document refs); returns the ref.
  local function stale(change)
    local url = t.srv.url .. "/find/long.html"
    t.call("browser_navigate", { url = url })
    local _, found = t.call("browser_find", { role = "button", name = "Run example 3" })
    local ref = ref_of(found, 'button "Run example 3" %[ref=(e%d+)%]')
    local page = t.ctx.role:page()
    page:navigate(url)
    if change then page:evaluate(change) end
    return ref
  end

  it("acts on the element it named, when the page is the same", function()
    local ref = stale()
    local res, text = t.call("browser_click", { ref = ref })
    assert.is_nil(res.isError, text)
    assert.matches("getByRole%('button', { name: 'Run example 3'", text)
    -- New elements before it give it another ref: found by its role and name.
    ref = stale("document.querySelector('main').prepend(Object.assign(document.createElement('button'), "
      .. "{ textContent: 'New first' }))")
    res, text = t.call("browser_click", { ref = ref })
    assert.is_nil(res.isError, text)
    assert.matches("getByRole%('button', { name: 'Run example 3'", text)
  end)

  it("reads a container's snapshot by its root ref, and says the ref it used", function()
    local url = t.srv.url .. "/find/long.html"
    t.call("browser_navigate", { url = url })
    local _, found = t.call("browser_find", { role = "button", name = "Run example 3", context = 1 })
    local ref = ref_of(found, 'button "Run example 3" %[ref=(e%d+)%]')
    t.ctx.role:page():navigate(url)
    local res, text = t.call("browser_snapshot", { root = ref })
    assert.is_nil(res.isError, text)
    assert.matches('%- button "Run example 3" %[ref=e%d+%]', text)
    -- (The same page: the same ref, said so.)
    assert.matches("\nNote: " .. ref .. " was a ref of the page before it loaded again; the page now gives its element "
      .. "%(same role and name%) the same ref$", text)
  end)

  it("finds one of alike buttons again from a look at its container that a look at another followed", function()
    -- (Run BX read section 6's example, then section 150's, started its
    -- test anew and clicked section 6's Dark mode: UnknownRef.)
    in_sections({ "6. Internals", "150. Metrics" }, '<div class="ex"><h3>Example</h3><button>Dark mode</button></div>',
      function(url)
      t.call("browser_navigate", { url = url })
      local _, found = t.call("browser_find", { text = "Example" })
      local roots = {}
      for r in found:gmatch('region "[^"]+" %[ref=(e%d+)%]') do roots[#roots + 1] = r end
      assert.equal(2, #roots, found)
      local _, six = t.call("browser_snapshot", { root = roots[1] })
      local dark = ref_of(six, 'button "Dark mode" %[ref=(e%d+)%]')
      t.call("browser_snapshot", { root = roots[2] })
      t.ctx.role:page():navigate(url)
      local res, text = t.call("browser_click", { ref = dark })
      assert.is_nil(res.isError, text)
      assert.matches("getByRole('region', { name: '6. Internals', exact: true }).getByRole('button', { name: 'Dark mode' })",
        text, 1, true)
    end)
  end)

  it("outlines the page browser_navigate_back returns to, whose refs act", function()
    local _, first = t.call("browser_navigate", { url = t.srv.url .. "/verify/tabs.html" })
    local yearly = ref_of(first, 'tab "Yearly" %[ref=(e%d+)%]')
    t.call("browser_navigate", { url = t.srv.url .. "/verify/counter.html" })
    local res, back = t.call("browser_navigate_back", {})
    assert.is_nil(res.isError, back)
    assert.matches("\nOutline: not repeated, as shown before for this URL %(%d+ outline lines, the same refs%)", back)
    res = t.call("browser_click", { ref = yearly })
    assert.is_nil(res.isError, res.content[1].text)
  end)

  it("finds one of alike fields again in its named container, each of a form's fields", function()
    in_sections({ "1. Intro", "30. Routing" }, '<label>Name <input></label><label><input type="checkbox"> Weekly</label>',
      function(url)
      local region = region_at(url, "30. Routing")
      local name = ref_of(region, 'textbox "Name" %[ref=(e%d+)%]')
      local weekly = ref_of(region, 'checkbox "Weekly" %[ref=(e%d+)%]')
      local page = t.ctx.role:page()
      page:navigate(url)
      local res, text = t.call("browser_fill_form", { fields = {
        { name = "Name", type = "textbox", ref = name, value = "Ada" },
        { name = "Weekly", type = "checkbox", ref = weekly, value = "true" } } })
      assert.is_nil(res.isError, text)
      -- The page looked at again before the lookup gives refs in its order,
      -- as the agent's were: the same page, the same refs, the second
      -- field's included.
      assert.matches("Note: " .. name .. " was a ref of the page before it loaded again; the page now gives its "
        .. "element (same role and name) the same ref", text, 1, true)
      -- The second section's fields, not the first's.
      assert.same({ "", false, "Ada", true }, page:evaluate("[...document.querySelectorAll('input')]"
        .. ".map(i => i.type === 'checkbox' ? i.checked : i.value)"))
      -- Without types, each field's is read from the element that stands
      -- for its ref now: the checkbox is recorded checked, not filled.
      page:navigate(url)
      res, text = t.call("browser_fill_form", { fields = {
        { name = "Name", ref = name, value = "Ada" }, { name = "Weekly", ref = weekly, value = "true" } } })
      assert.is_nil(res.isError, text)
      local steps = t.ctx.session:list()
      assert.same({ "fill", "check" }, { steps[#steps - 1].action, steps[#steps].action })
    end)
  end)

  it("reads a panel of no name by its ref where the page loaded again gives it the same ref at the same place", function()
    -- (Run EU's e179, a guide's example panel read before
    -- browser_start_test opened the guide again: UnknownRef.)
    in_sections({ "1. Intro", "2. Routing" }, '<div data-testid="panel"><p>Count: 0</p><button>Add</button></div>',
      function(url)
      local region = region_at(url, "2. Routing")
      local panel = ref_of(region, '%- generic %[ref=(e%d+)%]')
      local page = t.ctx.role:page()
      page:navigate(url)
      local res, text = t.call("browser_snapshot", { root = panel })
      assert.is_nil(res.isError, text)
      assert.matches('button "Add"', text)
      assert.matches("\nNote: " .. panel .. " was a ref of the page before it loaded again; the page now gives its "
        .. "element (same place, same line) the same ref", text, 1, true)
      -- A page that reads otherwise now (a panel more before it): the ref
      -- is not taken for whatever stands under that number.
      page:navigate(url)
      page:evaluate("document.body.prepend(Object.assign(document.createElement('div'), { innerHTML: "
        .. "'<section aria-label=\"0. New\"><div data-testid=\"panel\"><p>Count: 0</p><button>Add</button></div>"
        .. "</section>' }))")
      res, text = t.call("browser_snapshot", { root = panel })
      assert.is_true(res.isError, text)
      assert.matches("Unknown element reference", text, 1, true)
    end)
  end)

  it("fails as before when two elements could be it, or the page is another", function()
    local ref = stale("document.querySelector('main').prepend(Object.assign(document.createElement('button'), "
      .. "{ textContent: 'Run example 3' }))")
    local res, text = t.call("browser_click", { ref = ref })
    assert.is_true(res.isError, text)
    assert.matches("Unknown element reference", text, 1, true)
    ref = stale()
    t.ctx.role:page():navigate(t.srv.url .. "/find/long.html?other")
    res, text = t.call("browser_click", { ref = ref })
    assert.is_true(res.isError, text)
    assert.matches("Unknown element reference", text, 1, true)
  end)
end)
