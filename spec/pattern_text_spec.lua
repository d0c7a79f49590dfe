--- spec/pattern_text_spec.lua: the text of inspect_pattern (vdx.pattern_text):
-- what the siblings share said once, a line each with what is its own.
-- A unit test of the text policy on facts shaped as the bridge's.
local pattern_text = require "vdx.pattern_text"

local function card(i, name, refs, price)
  return { index = i, tag = "product-card", attributes = { ["data-testid"] = "product-card", name = name },
    outline = { ('heading "%s" [level=3]'):format(name), ('button "Add" [ref=%s]'):format(refs[1]) },
    contains_text = { name, price, "Add" }, contains_refs = { refs = refs, total = #refs } }
end

describe("vdx.pattern_text", function()
  it("says the shared tag and attributes once, and each sibling's own attributes, texts and refs", function()
    local res = { siblings_total = 3, target_sibling_index = 1, siblings = {
      card(0, "Lamp", { "e3" }, "$5"), card(1, "Desk", { "e5", "e6" }, "$9") } }
    assert.equal(table.concat({
      "Pattern at level 2 of e5: 3 siblings <product-card data-testid=product-card>",
      '#0 name=Lamp: heading "Lamp" [level=3], button "Add" [ref=e3]; text: $5',
      '#1 (target) name=Desk: heading "Desk" [level=3], button "Add" [ref=e5]; text: $9; refs: e6',
      "… 1 more siblings: max_siblings shows more" }, "\n"), pattern_text.render("e5", 2, res))
  end)

  it("counts the refs not listed, and names none when every listed one is in the outline", function()
    local c = card(0, "Lamp", { "e3" }, "$5")
    c.contains_refs.total = 4
    local d = card(1, "Desk", { "e5", "e6" }, "$9")
    d.contains_refs.total = 5
    local text = pattern_text.render("e5", 2, { siblings_total = 2, target_sibling_index = 1, siblings = { c, d } })
    assert.is_true(text:find('\n#0 name=Lamp: heading "Lamp" [level=3], button "Add" [ref=e3]; text: $5; 3 more refs inside\n',
      1, true) ~= nil, text)
    assert.is_true(text:find("; refs: e6 and 3 more", 1, true) ~= nil, text)
    assert.is_nil(text:find("refs:  and", 1, true), text)
  end)

  it("names each sibling's tag when they differ, and says when one shows nothing", function()
    local res = { siblings_total = 2, target_sibling_index = 0, siblings = {
      { index = 0, tag = "h2", attributes = {}, outline = {}, contains_text = { "All" },
        contains_refs = { refs = {}, total = 0 } },
      { index = 1, tag = "p", attributes = { role = "status" }, outline = {}, contains_text = {},
        contains_refs = { refs = {}, total = 0 } } } }
    assert.equal("Pattern at level 1 of e2: 2 siblings\n#0 (target) <h2>: text: All\n#1 <p role=status>: (nothing shown)",
      pattern_text.render("e2", 1, res))
  end)
end)
