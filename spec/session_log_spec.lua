-- vdx.session_log: the ordered record of an MCP session that
-- browser_export_test writes as a test.
local session_log = require "vdx.session_log"

describe("vdx.session_log", function()
  it("keeps steps in order, defaults the role and lists roles by first use", function()
    local log = session_log.new()
    log:add { kind = "navigate", url = "http://127.0.0.1/" }
    log:add { kind = "action", role = "admin", action = "click", locator = "getByRole('button')" }
    log:add { kind = "assert", role = "default", matcher = "toBeVisible", locator = "getByText('Saved')" }
    assert.equal(3, #log:list())
    assert.equal("default", log:list()[1].role)
    assert.same({ "default", "admin" }, log:roles())
    log:clear()
    assert.equal(0, #log:list())
  end)

  it("keeps one check of an element's text: its whole text's, in the place of a part's made right before", function()
    -- (Run BV's expect= recorded toContainText of the status, its verify the whole text.)
    local log = session_log.new()
    local status = "getByRole('status')"
    log:add { kind = "action", action = "click", locator = "getByRole('button', { name: 'Send' })" }
    local part = log:add { kind = "assert", matcher = "toContainText", locator = status, value = "Ada" }
    local whole = log:add { kind = "assert", matcher = "toHaveText", locator = status, value = "Sent to Ada" }
    assert.equal(2, #log:list())
    assert.equal(whole, log:list()[2])
    assert.same({ part.no, part.no }, { whole.no, whole.replaced })
    -- A part checked after the whole is in it already; another text is a check of its own.
    assert.equal(whole, log:add { kind = "assert", matcher = "toContainText", locator = status, value = "Sent" })
    log:add { kind = "assert", matcher = "toContainText", locator = status, value = "Bob" }
    assert.equal(3, #log:list())
  end)

  it("names, for an action a page load follows unchecked, a proposal whose count no later run reads otherwise", function()
    local log = session_log.new()
    log:add { kind = "navigate", url = "http://127.0.0.1/shop" }
    log:add { kind = "action", action = "click", locator = "getByRole('button', { name: 'Add to cart' })" }
    log:propose { kind = "assert", matcher = "toBeVisible", locator = "getByRole('link', { name: 'Cart (3)' })" }
    local steady = log:propose { kind = "assert", matcher = "toBeVisible", locator = "getByText('Added to cart')" }
    log:add { kind = "navigate", url = "http://127.0.0.1/cart" }
    assert.same({ steady, false }, { log:unchecked_loads()[1].id, log:unchecked_loads()[1].volatile })
    -- Only a count to keep: that one, said so.
    log = session_log.new()
    log:add { kind = "action", action = "click", locator = "getByRole('button', { name: 'Add to cart' })" }
    local count = log:propose { kind = "assert", matcher = "toHaveText", locator = "getByTestId('badge')", value = "Cart (3)" }
    log:add { kind = "navigate", url = "http://127.0.0.1/cart" }
    assert.same({ count, true }, { log:unchecked_loads()[1].id, log:unchecked_loads()[1].volatile })
  end)

  it("names only the last action before a load, and none when that one is done when it returns", function()
    local log = session_log.new()
    local function act(action, extra)
      local st = { kind = "action", action = action, locator = "getByRole('button')" }
      for k, v in pairs(extra or {}) do st[k] = v end
      log:add(st)
      return log:propose { kind = "assert", matcher = "toBeVisible", locator = "getByText('" .. action .. "')" }
    end
    log:add { kind = "navigate", url = "http://127.0.0.1/shop", role = "customer" }
    act("click")                                   -- Checkout: the fields below wait for its form
    act("fill")
    local pay = act("click")                       -- Pay: nothing waits for what it did
    log:add { kind = "navigate", url = "http://127.0.0.1/admin", role = "admin" }
    local u = log:unchecked_loads()
    assert.equal(1, #u)
    assert.equal(pay, u[1].id)
    assert.equal(log:list()[4], u[1].action)
    assert.equal(log:list()[5], u[1].load)
    -- A fill last before a submit that loads: its value is there at once.
    log = session_log.new()
    act("click")
    act("fill")
    log:add { kind = "action", action = "click", loads = true, locator = "getByRole('button', { name: 'Send' })" }
    assert.same({}, log:unchecked_loads())
    -- Typed and submitted with Enter: it may start work.
    log = session_log.new()
    local typed = act("type", { submit = true })
    log:add { kind = "navigate", url = "http://127.0.0.1/next" }
    assert.equal(typed, log:unchecked_loads()[1].id)
    -- An action whose answer proposed nothing is still named.
    log = session_log.new()
    log:add { kind = "action", action = "press", locator = "getByRole('textbox')" }
    log:add { kind = "navigate", url = "http://127.0.0.1/next" }
    assert.is_nil(log:unchecked_loads()[1].id)
    assert.equal("press", log:unchecked_loads()[1].action.action)
  end)

  it("names an action right after a load whose page fetched data after it, unless a check comes between", function()
    local log = session_log.new()
    log:add { kind = "navigate", url = "http://127.0.0.1/cart", role = "customer", late = { "GET /api/cart" } }
    log:add { kind = "action", action = "click", role = "customer", locator = "getByRole('button', { name: 'Checkout' })" }
    log:add { kind = "navigate", url = "http://127.0.0.1/shop", role = "customer" }
    log:add { kind = "action", action = "click", role = "customer", locator = "getByRole('link')" }
    local u = log:unready_actions()
    assert.equal(1, #u)
    assert.same({ "GET /api/cart" }, u[1].late)
    assert.equal(log:list()[2], u[1].action)
    log = session_log.new()
    log:add { kind = "navigate", url = "http://127.0.0.1/cart", late = { "GET /api/cart" } }
    log:add { kind = "assert", matcher = "toBeVisible", locator = "getByText('Ceramic Mug')" }
    log:add { kind = "action", action = "click", locator = "getByRole('button')" }
    assert.same({}, log:unready_actions())
    -- A value read at once reads what the page showed before its data.
    log = session_log.new()
    log:add { kind = "navigate", url = "http://127.0.0.1/cart", late = { "GET /api/cart" } }
    log:add { kind = "remember", name = "count", locator = "getByRole('link', { name: /Cart/ })", pattern = "\\d+" }
    assert.equal(log:list()[2], log:unready_actions()[1].action)
  end)

  it("adds no check that one right before it makes already", function()
    local log = session_log.new()
    log:add { kind = "action", action = "click", locator = "getByRole('button', { name: 'Active' })" }
    local first = log:add { kind = "assert", matcher = "toHaveCount", locator = "getByRole('listitem')", value = 1 }
    log:add { kind = "assert", matcher = "toContainText", locator = "getByRole('listitem')", value = { "Pay bills" } }
    assert.equal(first, log:add { kind = "assert", matcher = "toHaveCount", locator = "getByRole('listitem')", value = 1 })
    assert.equal(3, #log:list())
    -- Another value, or the same check after an action, is a check of its own.
    log:add { kind = "assert", matcher = "toHaveCount", locator = "getByRole('listitem')", value = 2 }
    log:add { kind = "action", action = "click", locator = "getByRole('button', { name: 'All' })" }
    log:add { kind = "assert", matcher = "toHaveCount", locator = "getByRole('listitem')", value = 1 }
    assert.equal(6, #log:list())
  end)

  it("refuses a step of an unknown kind as a typed misuse", function()
    local ok, e = pcall(function() session_log.new():add { kind = "bogus" } end)
    assert.is_false(ok)
    assert.equal("InvalidArgument", e.type)
  end)
end)

describe("vdx.session_log cuts", function()
  it("keeps of a role's world only what is still in effect: no route a later unroute removed, no cleared emulation", function()
    local log = session_log.new()
    local function world(t) t.kind, t.world = "code", true; t.lines = t.lines or { "x" }; log:add(t) end
    world { role = "a", route = "**/api/a", tool = "browser_route" }
    world { role = "a", route = "**/api/b", tool = "browser_route" }
    world { role = "b", route = "**/api/a", tool = "browser_route" }
    world { role = "a", unroute = "**/api/a", tool = "browser_unroute" }
    world { role = "a", emulation = true, tool = "browser_emulate_media" }
    world { role = "b", emulation = true, tool = "browser_resize" }
    world { role = "a", tool = "browser_clock_install" }
    local dropped, kept = log:restart({}, function(role) return role == "a" end)
    assert.same({ 3, 4 }, { dropped, kept })
    local left = {}
    for _, st in ipairs(log:list()) do left[#left + 1] = st.role .. " " .. st.tool .. " " .. tostring(st.route) end
    assert.same({ "a browser_route **/api/b", "b browser_route **/api/a", "b browser_resize nil",
      "a browser_clock_install nil" }, left)
    -- An unroute of all removes every route of its role, and itself.
    world { role = "b", unroute = true, tool = "browser_unroute" }
    assert.same({ 2, 3 }, { log:restart({}) })
    assert.same({ "a browser_route", "b browser_resize", "a browser_clock_install" },
      { log:list()[1].role .. " " .. log:list()[1].tool, log:list()[2].role .. " " .. log:list()[2].tool,
        log:list()[3].role .. " " .. log:list()[3].tool })
  end)

  it("keeps no route a later answering one on its pattern hides, and of a setting only its last state", function()
    local log = session_log.new()
    local function world(t) t.kind, t.world = "code", true; t.lines = t.lines or { "x" }; log:add(t) end
    -- (Run AB: a delay route, then a 502 on its pattern; offline, then online.)
    world { role = "a", route = "**/api/pay", tool = "browser_route" }
    world { role = "b", route = "**/api/pay", tool = "browser_route" }
    world { role = "a", route = "**/api/pay", answers = true, tool = "browser_route", lines = { "502" } }
    world { role = "a", setting = "offline", tool = "browser_network_state_set" }
    world { role = "a", setting = "offline", default = true, tool = "browser_network_state_set" }
    world { role = "a", setting = "cpu", tool = "browser_cpu_throttle", lines = { "4x" } }
    world { role = "a", setting = "cpu", tool = "browser_cpu_throttle", lines = { "6x" } }
    assert.same({ 4, 3 }, { log:restart({}) })
    local left = {}
    for _, st in ipairs(log:list()) do left[#left + 1] = st.role .. " " .. st.tool .. " " .. st.lines[1] end
    assert.same({ "b browser_route x", "a browser_route 502", "a browser_cpu_throttle 6x" }, left)
  end)

  it("starts the next test keeping only the settings of a role's world, and counts what was never exported", function()
    local log = session_log.new()
    log:add { kind = "navigate", role = "a", url = "u" }
    log:add { kind = "code", role = "a", world = true, lines = { "await {context}.route('**/x', r => r.abort());" } }
    log:add { kind = "code", role = "a", lines = { "await {page}.waitForURL('**/done');" } }
    log:add { kind = "code", role = "b", world = true, lines = { "await {context}.setOffline(true);" } }
    log:propose { kind = "assert", role = "a", matcher = "toBeVisible", locator = "getByText('x')" }
    -- The navigation is no work lost: it is not counted.
    assert.equal(3, log:unexported())
    log:mark_exported()
    log:add { kind = "action", role = "a", action = "click", locator = "getByRole('button')" }
    assert.equal(1, log:unexported())
    assert.equal(3, log:restart { a = "/out/test-start-a.json" })
    -- The two world settings stay, carried; the wait, the navigation,
    -- the click and the proposal are gone.
    assert.equal(2, #log:list())
    assert.is_true(log:list()[1].carried and log:list()[2].carried)
    assert.same({}, log.proposed)
    assert.equal(0, log:unexported())
    assert.equal("/out/test-start-a.json", log:start_auth("a"))
    assert.is_nil(log:start_auth("b"))
    -- A role that does nothing after the cut is not in the test.
    assert.same({}, log:test_steps())
    assert.same({}, log:roles())
    log:add { kind = "action", role = "b", action = "click", locator = "getByRole('link')" }
    assert.same({ "b" }, log:roles())
    local steps = log:test_steps()
    assert.equal(2, #steps)
    assert.equal("await {context}.setOffline(true);", steps[1].lines[1])
    assert.equal(1, log:unexported())
    log:clear()
    assert.is_nil(log:start_auth("a"))
  end)
end)

describe("vdx.session_log proposals", function()
  it("keeps proposed assertions where they were proposed, and names ids it never gave", function()
    local log = session_log.new()
    log:add { kind = "navigate", url = "u" }
    local a1 = log:propose { kind = "assert", matcher = "toBeVisible", locator = "getByText('one')" }
    log:add { kind = "action", action = "click", locator = "getByRole('button')" }
    local a2 = log:propose { kind = "assert", matcher = "toBeVisible", locator = "getByText('two')" }
    local a3 = log:propose { kind = "assert", matcher = "toBeChecked", locator = "getByRole('checkbox')" }
    log:add { kind = "action", action = "click", locator = "getByRole('link')" }
    assert.equal(3, #log:list())                       -- proposals are not steps yet
    assert.same({ nil, { "a9" } }, { log:keep { "a3", "a9" } })
    assert.is_true(log:keep { a3, a1 })
    local got = {}
    for i, s in ipairs(log:list()) do got[i] = s.locator or s.url end
    assert.same({ "u", "getByText('one')", "getByRole('button')", "getByRole('checkbox')", "getByRole('link')" }, got)
    -- a2, proposed before a3 at the same place, still lands before it.
    assert.is_true(log:keep { a2 })
    assert.equal("getByText('two')", log:list()[4].locator)
    assert.equal("getByRole('checkbox')", log:list()[5].locator)
    -- Kept once only: the id again adds nothing (an export sent again).
    assert.is_true(log:keep { a1 })
    assert.equal(6, #log:list())
    -- A kept step has the next number where it goes in; dropped since,
    -- it is no longer kept: its id is refused.
    local nos = {}
    for i, st in ipairs(log:list()) do nos[i] = st.no end
    assert.same({ 1, 4, 2, 6, 5, 3 }, nos)
    assert.is_true(log:drop { 4 } ~= nil)
    assert.same({ nil, { a1 } }, { log:keep { a1 } })
  end)

  it("drops steps by their number in the test, and a later proposal stays after the step before", function()
    local log = session_log.new()
    log:add { kind = "navigate", url = "http://a/" }
    log:add { kind = "action", action = "click", locator = "getByText('one')" }
    log:add { kind = "assert", matcher = "toBeVisible", locator = "getByText('bad')" }
    local a1 = log:propose { kind = "assert", matcher = "toBeVisible", locator = "getByText('after')" }
    log:add { kind = "action", action = "click", locator = "getByText('two')" }
    assert.same({ nil, { 9, 0 } }, { log:drop { 9, 0 } })
    local gone = log:drop { 3 }
    assert.equal("getByText('bad')", gone[1].locator)
    assert.is_true(log:keep { a1 })
    local locs = {}
    for i, st in ipairs(log:list()) do locs[i] = st.locator or st.url end
    assert.same({ "http://a/", "getByText('one')", "getByText('after')", "getByText('two')" }, locs)
    -- The numbers stay the steps' own: a later drop names them as the
    -- gate listed them before, the gap where step 3 stood.
    assert.equal("1-2, 5, 4", log:numbers())
    assert.same({ nil, { 3 } }, { log:drop { 3 } })
    assert.equal("getByText('two')", log:drop({ 4 })[1].locator)
    assert.equal("1-2, 5", log:numbers())
    -- What an export saw is put back whole when it writes nothing.
    local st = log:state()
    log:drop { 1, 2 }
    log:restore(st)
    assert.equal("1-2, 5", log:numbers())
  end)
  it("keeps a toBeHidden's check before the action once, when the test makes it already with only fields changed since", function()
    local dialog = "getByRole('dialog', { name: 'Invite a member' })"
    local function session(between)
      local log = session_log.new()
      log:add { kind = "action", action = "click", locator = "getByRole('button', { name: 'Invite member' })" }
      log:add { kind = "assert", matcher = "toBeVisible", locator = dialog }
      log:add(between)
      log:add { kind = "action", action = "click", locator = "getByRole('button', { name: 'Send invite' })" }
      local id = log:propose { kind = "assert", matcher = "toBeHidden", locator = dialog, before = "toBeVisible" }
      local later = log:propose { kind = "assert", matcher = "toBeVisible", locator = "getByText('Sent')" }
      assert.is_true(log:keep { id, later })
      local out = {}
      for _, st in ipairs(log:list()) do out[#out + 1] = st.matcher or st.action end
      return table.concat(out, " ")
    end
    -- Run AF's invite: the dialog checked open, a field filled, then Send closed it.
    assert.equal("click toBeVisible fill click toBeHidden toBeVisible",
      session { kind = "action", action = "fill", locator = "getByRole('textbox', { name: 'Name' })", value = "Dana" })
    -- A click between may have hidden it and shown it again: checked again.
    assert.equal("click toBeVisible click toBeVisible click toBeHidden toBeVisible",
      session { kind = "action", action = "click", locator = "getByRole('button', { name: 'Details' })" })
    -- So may a field submitted.
    assert.equal("click toBeVisible type toBeVisible click toBeHidden toBeVisible",
      session { kind = "action", action = "type", submit = true, locator = "getByRole('textbox')", value = "x" })
    -- Run AR kept the open check too, a proposal, in the same call: once.
    local log = session_log.new()
    log:add { kind = "action", action = "click", locator = "getByRole('button', { name: 'Invite member' })" }
    local open = log:propose { kind = "assert", matcher = "toBeVisible", locator = dialog }
    log:add { kind = "action", action = "fill", locator = "getByRole('textbox', { name: 'Name' })", value = "Dana" }
    log:add { kind = "action", action = "click", locator = "getByRole('button', { name: 'Send invite' })" }
    local closed = log:propose { kind = "assert", matcher = "toBeHidden", locator = dialog, before = "toBeVisible" }
    local after = log:propose { kind = "assert", matcher = "toBeVisible", locator = "getByText('Sent')" }
    assert.is_true(log:keep { closed, open, after })
    local out = {}
    for _, st in ipairs(log:list()) do out[#out + 1] = st.matcher or st.action end
    assert.equal("click toBeVisible fill click toBeHidden toBeVisible", table.concat(out, " "))
    -- (The removed check took no number.)
    assert.equal("1, 4, 2-3, 5-6", log:numbers())
    assert.is_nil(log:list()[2].pre)
  end)

  it("follows a kept order check that names every row with their count, and keeps later proposals after both", function()
    local log = session_log.new()
    log:add { kind = "action", action = "click", locator = "getByRole('button', { name: 'Name' })" }
    local rows = "getByRole('table', { name: 'Team' }).getByRole('row')"
    local order = log:propose { kind = "assert", matcher = "toContainText", locator = rows,
      value = { "Ada", "Alan", "Grace" }, count = 3 }
    local later = log:propose { kind = "assert", matcher = "toBeVisible", locator = "getByText('Sorted')" }
    assert.is_true(log:keep { order, later })
    local st = log:list()
    assert.same({ "click", "toContainText", "toHaveCount", "toBeVisible" },
      { st[1].action, st[2].matcher, st[3].matcher, st[4].matcher })
    assert.same({ rows, 3 }, { st[3].locator, st[3].value })
    assert.equal("1-4", log:numbers())
  end)
  it("keeps a proposal the test checks already right after its action as that check, not twice", function()
    local log = session_log.new()
    local items = "getByRole('list', { name: 'Todo items' }).getByRole('listitem')"
    log:add { kind = "action", action = "click", locator = "getByRole('link', { name: 'Active' })" }
    local count = log:propose { kind = "assert", matcher = "toHaveCount", locator = items, value = 1 }
    local status = log:propose { kind = "assert", matcher = "toHaveText", locator = "getByRole('status')", value = "1 left" }
    -- Run AG's list check, which records the items' count beside it.
    log:add { kind = "assert", matcher = "toHaveText", locator = items, value = { "Walk dog" } }
    local recorded = log:add { kind = "assert", matcher = "toHaveCount", locator = items, value = 1 }
    assert.is_true(log:keep { count, status })
    local st = log:list()
    assert.same({ "click", "toHaveText", "toHaveText", "toHaveCount" },
      { st[1].action, st[2].matcher, st[3].matcher, st[4].matcher })
    assert.equal("getByRole('status')", st[2].locator)
    assert.equal(recorded, st[4])
    assert.equal("1, 4, 2-3", log:numbers())     -- the kept check joins with the next number
    -- Another count is a check of its own.
    log = session_log.new()
    log:add { kind = "action", action = "click", locator = "getByRole('link', { name: 'All' })" }
    count = log:propose { kind = "assert", matcher = "toHaveCount", locator = items, value = 3 }
    log:add { kind = "assert", matcher = "toHaveCount", locator = items, value = 2 }
    assert.is_true(log:keep { count })
    assert.equal(3, #log:list())
  end)
end)
