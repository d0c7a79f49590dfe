--- vdx.session_log: what an agent's MCP session did, in order, so that
-- browser_export_test can write it as a Playwright test and replay it.
-- The server keeps one log (ctx.session in every tool call); tools add
-- steps as they succeed.  A step is a plain table:
--
--   { kind = "navigate", role = "admin", url = "http://…" }
--   { kind = "action", role = …, action = "click" | "dblclick" | "fill" |
--     "type" | "press" | "check" | "uncheck" | "select" | "hover" | "drag" |
--     "upload" | "back" | "click_at", locator = "getByRole('button', { name:
--     'Add' })", positional = bool, value = …, values = {…} (select), key = …,
--     submit = bool, button = …, modifiers = {…}, to_locator = … (drag),
--     files = {…} (upload), x = …, y = … (click_at), tool = name }
--     (press, back and click_at have no locator)
--   { kind = "assert", role = …, matcher = "toBeVisible" | "toHaveText" |
--     "toContainText" | "toHaveValue" | "toBeChecked" | "not.toBeChecked" |
--     "toHaveCount", locator = …, value = …, positional = bool, tool = name }
--
-- The verify tools (lua/vdx/builtin/verify.lua) record assertions checked
-- on the live page, each locator matching exactly the checked element:
--   toBeVisible      getByRole('button', { name: 'Save' }), no value
--   toHaveValue      getByLabel('Email'), value = "a@b.c" (a select's
--                    option value, as Playwright's toHaveValue reads it)
--   toBeChecked, not.toBeChecked   a checkbox or radio, no value
--   toHaveText, toContainText      "<list>.getByRole('listitem')" (or the
--                    list's own item role; `.locator(':scope > *')` when it
--                    has none), value = { "item", … } (Playwright's array
--                    form: all items in order, or a subset in order)
--   toHaveCount      "<list>.getByRole('listitem')", value = integer
-- The exporter writes each as `await expect(page.<locator>).<matcher>(<value>)`.
--
-- Locators are Playwright locator expressions relative to the role's page
-- (`getByRole(…)`, `getByTestId(…).filter(…)`), as browser_verify_locator
-- takes them.
local errors = require "vdx.errors"

local session_log = {}

local Log = {}
Log.__index = Log

local KINDS = { navigate = true, action = true, assert = true }

--- A new, empty log.
function session_log.new()
  return setmetatable({ steps = {} }, Log)
end

--- Appends step (see the module comment) and returns it.  role is the
-- name of the role the step ran in; it defaults to "default".
function Log:add(step)
  if type(step) ~= "table" or not KINDS[step.kind] then
    errors.misuse("session_log:add: step.kind must be navigate, action or assert", 2, { field = "kind" })
  end
  step.role = step.role or "default"
  self.steps[#self.steps + 1] = step
  if self.listener then self.listener(self, step) end
  return step
end

--- Calls fn(log, step) after each step is added (one listener; nil
-- removes it): `vdxlua mcp --save-test` keeps its file current with it.
function Log:on_add(fn)
  self.listener = fn
end

--- The steps so far, oldest first (the log's own list: do not change it).
function Log:list()
  return self.steps
end

--- The names of the roles the steps ran in, in order of first use.
function Log:roles()
  local seen, out = {}, {}
  for _, s in ipairs(self.steps) do
    if not seen[s.role] then seen[s.role] = true; out[#out + 1] = s.role end
  end
  return out
end

--- Forgets every step.
function Log:clear()
  self.steps = {}
end

return session_log
