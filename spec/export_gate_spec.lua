-- vdx.export_gate: what the flake gate says when its replay and the
-- Playwright runs of the file disagree.
local gate = require "vdx.export_gate"

describe("vdx.export_gate #unit", function()
  it("says a step the replay failed in some runs only may race the page, and one failed in every run was misread", function()
    -- Step 5 (the third of the steps) passed 1 of 2 replays; Playwright passed the file.
    local sometimes = { flaky = { 5 }, places = { 3 },
      results = { { passed = 2 }, { passed = 2 }, { passed = 1 } } }
    local line = gate.disagreement(sometimes)
    assert.matches("the replay failed step 5 in some runs only", line, 1, true)
    assert.matches("a check before it of what the page shows once ready makes every run wait", line, 1, true)
    assert.is_nil(line:find("trust Playwright", 1, true), line)
    local always = { flaky = { 5 }, places = { 3 },
      results = { { passed = 2 }, { passed = 2 }, { passed = 0 } } }
    assert.matches("so trust Playwright; the replay's reading of step 5 may be wrong", gate.disagreement(always), 1, true)
  end)
end)
