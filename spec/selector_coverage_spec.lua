-- Unique selectors on widget pages built like real ones: a TodoMVC in the
-- style of the React build (test ids on every row part), one in the style
-- of the web-components build (rows in shadow roots that repeat the same
-- ids) and two APG-style data grids on one page.  Every ref must get a
-- CSS selector or a role locator that matches it and nothing else,
-- counted through open shadow roots.
local vdx = require "vdx"
local cjson = require "cjson"
local h = require "helpers"

describe("selector coverage on widget pages", function()
  local browser, srv, page

  setup(function()
    srv, browser, page = h.open()
  end)

  teardown(function() h.shut(browser, srv) end)

  -- Snapshots path, checks every ref's selector or locator with the
  -- locator engine (and light-DOM CSS with querySelectorAll too), and
  -- returns the coverage and the description of each ref by ref.
  local function check(path)
    page:navigate(srv.url .. path)
    local text = page:snapshot { budget_tokens = 100000 }.text
    local cov = page:selector_coverage()
    print(("\n# selector coverage %s: %d/%d (css %d, locator %d)"):format(
      path, cov.with_selector, cov.refs, cov.with_css, cov.with_locator))
    local wrong, described = {}, {}
    for ref in text:gmatch("%[ref=(e%d+)%]") do
      local d = page:describe(ref)
      described[ref] = d
      local expr = d.selector and ("locator(" .. cjson.encode(d.selector) .. ")") or d.locator
      if not expr then
        wrong[#wrong + 1] = ref .. ": no selector"
      else
        local c = page:locator_count(expr)
        if c.count ~= 1 or c.refs[1] ~= ref then
          wrong[#wrong + 1] = ("%s: %s matches %d"):format(ref, expr, c.count)
        end
        if d.selector and not d.in_shadow then
          local n = page:evaluate(("document.querySelectorAll(%s).length"):format(cjson.encode(d.selector)))
          if n ~= 1 then wrong[#wrong + 1] = ("%s: %s matches %d in the document"):format(ref, d.selector, n) end
        end
      end
    end
    assert.same({}, wrong)
    return cov, described
  end

  it("scopes TodoMVC rows by their list's test id and position", function()
    local cov, d = check("/explore/todomvc.html")
    -- 27 refs to act on and 26 containers (the header, main, lists, rows
    -- and test-id parts).
    assert.same({ refs = 53, with_selector = 53, with_css = 53, with_locator = 0, ratio = 1, without = {} }, cov)
    assert.equal("#todo-input", d.e2.selector)
    assert.equal("[data-testid='todo-list'] [data-testid='todo-item']:nth-of-type(1)", d.e6.selector)
    assert.equal("[data-testid='todo-list'] li:nth-of-type(1) [data-testid='todo-item-toggle']", d.e7.selector)
    assert.equal("[data-testid='todo-list'] li:nth-of-type(3) [data-testid='todo-item-button']", d.e17.selector)
    assert.equal("a[href='#/active']", d.e49.selector)
    assert.equal("button.clear-completed", d.e51.selector)
  end)

  it("finds rows living in shadow roots by role, and never offers an id every row repeats", function()
    local cov, d = check("/explore/todomvc-wc.html")
    -- The rows themselves are containers with refs, located by their text.
    assert.same({ refs = 39, with_selector = 39, with_css = 9, with_locator = 30, ratio = 1, without = {} }, cov)
    assert.equal("getByRole('listitem').filter({ hasText: 'Buy milk' })", d.e5.locator)
    -- Every row's shadow root has its own #toggle-todo: unique in each
    -- root, ten across them.
    assert.equal(10, page:locator_count('locator("#toggle-todo")').count)
    assert.is_nil(d.e6.selector)
    assert.is_true(d.e6.in_shadow)
    assert.equal("getByRole('listitem').filter({ hasText: 'Buy milk' }).getByRole('checkbox')", d.e6.locator)
    assert.equal("getByRole('listitem').filter({ hasText: 'Pay the rent' }).getByRole('button', { name: '×' })",
      d.e13.locator)
    -- A flow's exported locator takes the verified role locator before a
    -- bare position.
    local flow_locator = require "vdx.flow_locator"
    local loc, note = flow_locator.synthesize(page, "e9")
    assert.equal("getByRole('listitem').filter({ hasText: 'Walk the dog' }).getByRole('checkbox')", loc)
    assert.is_nil(note)
    -- Ids that appear once across all the trees are kept.
    assert.equal("#new-todo", d.e2.selector)
    assert.equal("#clear-completed", d.e39.selector)
  end)

  it("scopes data grid cells by their example's id, row and column", function()
    local cov, d = check("/explore/datagrid.html")
    -- 155 refs to act on and 33 containers (main, grids, rows, ...).
    assert.same({ refs = 188, with_selector = 188, with_css = 188, with_locator = 0, ratio = 1, without = {} }, cov)
    local text = page:snapshot { budget_tokens = 100000 }.text
    local cell = text:match('gridcell "Down Town Grocery" %[ref=(e%d+)%]')
    local link = text:match('link "Cash Deposit" %[ref=(e%d+)%]')
    assert.equal("#ex1 tr:nth-of-type(2) td:nth-of-type(3)", d[cell].selector)
    assert.equal("#ex1 tr:nth-of-type(1) td:nth-of-type(3) a[href='#']", d[link].selector)
    local amount = text:match('button "Amount" %[ref=(e%d+)%]')
    assert.equal("#ex2 th:nth-of-type(4) span", d[amount].selector)
  end)
end)
