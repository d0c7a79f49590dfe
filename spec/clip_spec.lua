-- vdx.clip: the one cut of a long text for an answer (outline, find,
-- changes), at a character's edge so no byte of a split character is left.
local clip = require "vdx.clip"

describe("vdx.clip #unit", function()
  it("leaves a text that fits as it is", function()
    assert.equal("Cart", clip("Cart", 4))
    assert.equal("", clip("", 0))
  end)

  it("cuts a longer text to n bytes and marks the cut", function()
    assert.equal("Car…", clip("Cart (3)", 3))
  end)

  it("ends before a character the cut would split, and keeps one it does not", function()
    -- "é" is two bytes, "€" three: a cut inside either drops it whole.
    assert.equal("Caf…", clip("Café au lait", 4))
    assert.equal("Café…", clip("Café au lait", 5))
    assert.equal("10 …", clip("10 € each", 4))
    assert.equal("10 …", clip("10 € each", 5))
    assert.equal("10 €…", clip("10 € each", 6))
    assert.truthy(utf8.len(clip(("ü"):rep(50), 33)))
  end)
end)
