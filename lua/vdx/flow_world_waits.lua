--- vdx.flow_world_waits: r:wait_for{…}, a flow role's general wait
-- (page:wait_for, lua/vdx/wait.lua), added to flow.lua's Actor class.  An
-- element, URL or predicate wait is a node of the exported test
-- (locator.waitFor, page.waitForURL, page.waitForFunction); text and time
-- waits are not.
local wait = require "vdx.wait"

local M = {}

--- Adds Actor:wait_for.
function M.install(Actor, h)
  --- r:wait_for{ ref | locator | selector | text | text_gone | url |
  -- url_pattern | fn | time_ms, state =, frame =, timeout_ms = } -> the
  -- page:wait_for answer; timeout_ms defaults to the flow's timeout.
  function Actor:wait_for(opts)
    if type(opts) ~= "table" then h.fail("InvalidArgument", "wait_for: give a table of options", { field = "opts" }) end
    local o = {}
    for k, v in pairs(opts) do o[k] = v end
    if o.time_ms == nil then o.timeout_ms = self:timeout(opts) end
    -- The ref's locator now (the element may leave); none for a gone one.
    local got, loc = false, nil
    if o.ref then got, loc = pcall(self.page.generate_locator, self.page, o.ref, { alternatives = 0 }) end
    if not got then loc = nil end
    local res = self.page:wait_for(o)
    local lines = wait.code_lines(o, loc and loc.locator)
    if lines then self.flow:record { kind = "code", role = self.name, lines = lines } end
    return res
  end
end

return M
