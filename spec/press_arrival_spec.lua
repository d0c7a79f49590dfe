-- The policy of pointer input into an out-of-process frame (Action:point
-- and Action:mouse in lua/vdx/action.lua): a press or a hover is sent
-- again while the frame says it did not arrive, InputNotRouted when the
-- action's time runs out, nothing asked of frames in the page's own
-- process nor after a drag.  A stand-in page answers for the browser;
-- actions_spec.lua presses and hovers in a real frame the browser routes
-- wrongly.
local vdx = require "vdx"
local actions = require "vdx.actions"

-- A page whose frame f1 is out of process (oop) and says "not arrived"
-- misses times before it says "arrived" (never when misses is math.huge).
local function stand_in(oop, misses, new_document)
  local p = { inputs = 0, asked = 0, armed = nil }
  function p:default_timeout() return 30000 end
  function p:mark() return 0 end
  function p:frames() return { { frame = "main" }, { frame = "f1", out_of_process = oop } } end
  function p:frame_offset(_, x, y) return { x = x + 100, y = y + 200 } end
  function p:pointer() end
  function p:input(events) self.inputs = self.inputs + 1; self.events = events end
  function p:bridge(method, args)
    if method == "actionPoint" then
      self.armed = args[2].arm
      return { x = 10, y = 20 }
    end
    assert.equal("pointerArrived", method)
    self.asked = self.asked + 1
    self.kind = args[2].kind
    vdx.sleep(5)
    if new_document then return { arrived = false, armed = false } end
    return { arrived = self.asked > misses, armed = true }
  end
  return p
end

local function press(page, timeout_ms)
  local a = actions.begin(page, { timeout_ms = timeout_ms })
  a.frames.f1e1 = "f1"
  local x, y = a:point("f1e1")
  a:mouse(actions.press_events(x, y, "left", 1), x, y)
  return a
end

describe("a press into an out-of-process frame #unit", function()
  it("is sent once when the frame saw it", function()
    local page = stand_in(true, 0)
    local a = press(page, 1000)
    assert.is_true(page.armed)
    assert.equal(1, page.inputs)
    assert.equal(1, page.asked)
    assert.is_nil(a.extra.input_retries)
    assert.equal(110, page.events[2][2].x)   -- the press at the frame's point in the page
    assert.equal("press", page.kind)
  end)

  it("is sent again until the frame saw it, and says how often", function()
    local page = stand_in(true, 2)
    local a = press(page, 1000)
    assert.equal(3, page.inputs)
    assert.equal(2, a.extra.input_retries)
  end)

  it("fails with InputNotRouted naming the frame when the time runs out", function()
    local page = stand_in(true, math.huge)
    local ok, err = pcall(press, page, 60)
    assert.is_false(ok)
    assert.is_true(vdx.is_error(err, "InputNotRouted"), tostring(err))
    assert.equal("f1", err.frame)
    assert.equal("f1e1", err.ref)
    assert.matches("not into it", err.message)
    assert.is_true(page.inputs >= 2)
  end)

  it("is not sent again to a frame that loaded a new document since (a submit's press)", function()
    local page = stand_in(true, math.huge, true)
    local a = press(page, 1000)
    assert.equal(1, page.inputs)
    assert.equal(1, page.asked)
    assert.equal("new document", a.extra.input_arrival)
    assert.is_nil(a.extra.input_retries)
  end)

  it("sends a hover again until the frame saw a move", function()
    local page = stand_in(true, 1)
    local a = actions.begin(page, { timeout_ms = 1000 })
    a.frames.f1e1 = "f1"
    local x, y = a:point("f1e1")
    a:mouse(actions.press_events(x, y, nil, 0), x, y)
    assert.equal("move", page.kind)
    assert.equal(2, page.inputs)
    assert.equal(1, a.extra.input_retries)
  end)

  it("asks nothing of a frame in the page's own process, nor after a drag", function()
    local page = stand_in(false, math.huge)
    press(page, 1000)
    assert.is_false(page.armed)
    assert.equal(0, page.asked)
    page = stand_in(true, math.huge)
    local a = actions.begin(page, { timeout_ms = 1000 })
    a.frames.f1e1 = "f1"
    local x, y = a:point("f1e1")
    a:mouse({ vdx.input.mouse("mouseMoved", x, y), vdx.input.mouse("mousePressed", x, y, { button = "left" }),
      vdx.input.mouse("mouseMoved", x + 50, y), vdx.input.mouse("mouseReleased", x + 50, y, { button = "left" }) },
      x + 50, y)
    assert.equal(0, page.asked)
    assert.equal(1, page.inputs)
  end)
end)
