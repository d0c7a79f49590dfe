-- Accessible names, descriptions and roles against the corpus of pages in
-- spec/fixtures/fidelity: every element there states the exact role, name
-- or description it must get (data-expectedrole, data-expectedlabel,
-- data-expecteddescription, the attributes the public conformance tests
-- use), and page:accessible must report exactly that.
local h = require "helpers"
local fidelity = require "fidelity"

local function pages()
  local p = io.popen("ls spec/fixtures/fidelity/*.html")
  local out = {}
  for f in p:lines() do out[#out + 1] = f:match("[^/]+$") end
  p:close()
  return out
end

describe("accessible names, descriptions and roles", function()
  local browser, srv, page
  local counted = { role = 0, name = 0, description = 0 }

  setup(function()
    srv, browser, page = h.open()
  end)

  teardown(function() h.shut(browser, srv) end)

  for _, file in ipairs(pages()) do
    it("match every case of fidelity/" .. file, function()
      page:navigate(srv.url .. "/fidelity/" .. file)
      local cases, count = fidelity.cases(page)
      assert.is_true(#cases > 0)
      local wrong, total = fidelity.compare(cases, fidelity.vdx(page, count))
      for k, n in pairs(total) do counted[k] = counted[k] + n end
      assert.same({}, wrong)
    end)
  end

  it("names grid cells from their content and cuts long names in the snapshot", function()
    page:navigate(srv.url .. "/fidelity/snapshot/grid.html")
    local long = ("The quick brown fox jumps over the lazy dog. "):rep(5):sub(1, -2)
    -- Cut at the last space within the first 200 characters.
    local cut = long:sub(1, 201):match("^(.*) ")
    assert.equal(table.concat({
      '- grid "Transactions" [ref=e1]:',
      '  - row [ref=e2]:',
      -- A cell's name its child line prints whole is left off the line
      -- (Playwright's AI snapshot); the cell keeps it (below).
      '    - gridcell [ref=e3]:',
      '      - link "Cash Deposit" [ref=e4]:',
      '        - /url: "#t1"',
      '    - gridcell [ref=e5]:',
      '      - button "Edit" [ref=e6]',
      '    - gridcell "$1,000.00" [ref=e7]',
      '- button "' .. cut .. '\u{2026}" [name=' .. #long .. ' chars] [ref=e8]',
      '- button "cooperate" [ref=e9]',
      '',
    }, "\n"), page:snapshot().text)
    -- page:accessible keeps the whole name, and each cell's.
    assert.equal(long, page:accessible("button", 5).items[2].name)
    local cells = page:accessible("td", 5).items
    assert.same({ "Cash Deposit", "Edit", "$1,000.00" }, { cells[1].name, cells[2].name, cells[3].name })
  end)

  it("covers at least 300 cases, names, roles and descriptions each", function()
    assert.is_true(counted.name + counted.role + counted.description >= 300,
      ("only %d cases"):format(counted.name + counted.role + counted.description))
    assert.is_true(counted.name >= 100)
    assert.is_true(counted.role >= 100)
    assert.is_true(counted.description >= 20)
  end)
end)
