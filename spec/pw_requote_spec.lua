-- vdx.pw_spec.pieces and requote: a locator the agent wrote in double
-- quotes is kept in codegen's single quotes, regular expressions and all.
local pw = require "vdx.pw_spec"

describe("vdx.pw_spec.pieces #unit", function()
  it("tells a regular expression literal from a division", function()
    local p = pw.pieces([[getByText(/a\/b[/]"c/i).nth(10 / 2)]])
    assert.same({ text = [[/a\/b[/]"c/i]], quote = "/" }, p[2])
    assert.equal(").nth(10 / 2)", p[3].text)
    assert.is_nil(p[3].quote)
  end)

  it("reads a quote inside a regular expression as no string", function()
    local p = pw.pieces([[getByRole("link", { name: /say "hi"/ })]])
    assert.equal('"link"', p[2].text)
    assert.equal("/", p[4].quote)
    assert.equal([[/say "hi"/]], p[4].text)
    assert.equal(" })", p[5].text)
  end)
end)

describe("vdx.pw_spec.requote #unit", function()
  it("writes double-quoted strings single-quoted beside a regular expression", function()
    -- (Run BP's remembered heading kept its double quotes in the file.)
    assert.equal([[getByRole('heading', { name: /Payment for order #\d+/ })]],
      pw.requote([[getByRole("heading", { name: /Payment for order #\d+/ })]]))
    assert.equal([[getByRole('link', { name: /say "hi"/i }).filter({ hasText: 'it\'s' })]],
      pw.requote([[getByRole("link", { name: /say "hi"/i }).filter({ hasText: "it's" })]]))
  end)

  it("leaves single quotes, and a string JSON cannot read, as they are", function()
    assert.equal("getByText('x')", pw.requote("getByText('x')"))
    assert.equal([[getByText("a\q")]], pw.requote([[getByText("a\q")]]))
  end)
end)
