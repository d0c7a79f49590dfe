-- The folding of alike parts in a snapshot cut at a depth
-- (vdx.snapshot_fold), on snapshot texts: what a run is, and what its one
-- line says.
local fold = require "vdx.snapshot_fold"
local lines = require("helpers").lines

-- n cards, each a generic with a heading, a price and a button.
local function cards(n, from)
  local out = {}
  for i = from or 1, (from or 1) + n - 1 do
    out[#out + 1] = ('  - generic [ref=e%d]:\n    - heading "Card %d" [level=3] [+1]\n    - paragraph: $%d\n'
      .. '    - button "Add" [ref=e%d]'):format(i * 2, i, i, i * 2 + 1)
  end
  return table.concat(out, "\n")
end

describe("vdx.snapshot_fold #unit", function()
  it("folds a run of more than four alike parts into two shown and one line naming the first and last", function()
    local out = fold.runs(lines("- main [ref=e1]:\n" .. cards(6) .. "\n  - heading \"Checkout\" [level=2]"))
    assert.same({ "- main [ref=e1]:",
      "  - generic [ref=e2]:", '    - heading "Card 1" [level=3] [+1]', "    - paragraph: $1", '    - button "Add" [ref=e3]',
      "  - generic [ref=e4]:", '    - heading "Card 2" [level=3] [+1]', "    - paragraph: $2", '    - button "Add" [ref=e5]',
      '  - generic ×4 more alike (each: heading, paragraph, button): "Card 3" [ref=e6] … "Card 6" [ref=e12]',
      '  - heading "Checkout" [level=2]' }, out)
  end)

  it("leaves a run of four, and fields that hold nothing, as they are", function()
    local four = lines("- main [ref=e1]:\n" .. cards(4))
    assert.same(four, fold.runs(four))
    local form = lines('- form "Ship" [ref=e1]:\n  - textbox "A" [ref=e2]\n  - textbox "B" [ref=e3]\n'
      .. '  - textbox "C" [ref=e4]\n  - textbox "D" [ref=e5]\n  - textbox "E" [ref=e6]\n  - textbox "F" [ref=e7]')
    assert.same(form, fold.runs(form))
  end)

  it("folds parts cut at the depth, and ends a run at a part of another kind", function()
    local t = { "- main [ref=e1]:" }
    for i = 1, 6 do t[#t + 1] = ('  - region "%d. Topic" [ref=e%d] [+3]'):format(i, i + 1) end
    t[#t + 1] = '  - list "Links" [ref=e9] [+3]'
    for i = 1, 3 do t[#t + 1] = ('  - region "%d. More" [ref=e%d] [+3]'):format(i, i + 9) end
    local out = fold.runs(t)
    assert.same({ "- main [ref=e1]:", '  - region "1. Topic" [ref=e2] [+3]', '  - region "2. Topic" [ref=e3] [+3]',
      '  - region ×4 more alike: "3. Topic" [ref=e4] … "6. Topic" [ref=e7]', '  - list "Links" [ref=e9] [+3]',
      '  - region "1. More" [ref=e10] [+3]', '  - region "2. More" [ref=e11] [+3]', '  - region "3. More" [ref=e12] [+3]' },
      out)
  end)

  it("folds runs inside the parts it shows, and names parts by their first text when they have no name", function()
    local items = {}
    for i = 1, 5 do items[#items + 1] = ("    - listitem:\n      - link \"Item %d\" [ref=e%d]"):format(i, i + 2) end
    local t = lines('- navigation "Contents" [ref=e1]:\n  - list [ref=e2]:\n' .. table.concat(items, "\n"))
    assert.same({ '- navigation "Contents" [ref=e1]:', "  - list [ref=e2]:",
      "    - listitem:", '      - link "Item 1" [ref=e3]', "    - listitem:", '      - link "Item 2" [ref=e4]',
      '    - listitem ×3 more alike (each: link): "Item 3" [ref=e5] … "Item 5" [ref=e7]' }, fold.runs(t))
    assert.equal(0, #fold.runs({}))
  end)
end)
