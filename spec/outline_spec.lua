--- vdx.outline: what browser_navigate's outline keeps of a snapshot's
-- text (a pure function of the text: no browser needed).
local outline = require "vdx.outline"

describe("outline.of", function()
  it("outlines a named region no heading names, with its first text, when the page has few", function()
    -- (Run FN's status page: its maintenance countdown, a region named by
    -- aria-label over one paragraph, was in no line of the outline.)
    local text = table.concat({
      '- main [ref=e7]:',
      '  - region "Maintenance" [ref=e8]:',
      '    - paragraph: Scheduled maintenance starts in 9:57.',
      '  - heading "System status" [level=1]',
      '  - region "Subscribe" [ref=e9]:',
      '    - heading "Subscribe" [level=2]',
      '    - paragraph: Get mail when something breaks.',
    }, "\n")
    local items = outline.of(text)
    assert.same({
      '- region "Maintenance" [ref=e8]: Scheduled maintenance starts in 9:57.',
      '- heading "System status" [level=1]',
      '- heading "Subscribe" [level=2]',
    }, items)
  end)

  it("leaves out named regions when the page has many (a guide's sections)", function()
    local lines = {}
    for i = 1, 4 do
      lines[#lines + 1] = ('- region "%d. Part" [ref=e%d]:'):format(i, i)
      lines[#lines + 1] = '  - paragraph: Words.'
    end
    assert.same({}, (outline.of(table.concat(lines, "\n"))))
  end)
end)
