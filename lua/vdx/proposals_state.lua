--- vdx.proposals_state: the proposals of an element's state that an
-- action changed (vdx.proposals): a field's value, a checkbox checked, a
-- tab selected, a disclosure expanded, a toggle pressed (`getByRole(…,
-- { pressed: true })`), a field the form refused
-- (`.and(locator(':user-invalid'))`), a column sorted anew
-- (`toHaveAttribute('aria-sort', …)`).  install(Proposer) adds the
-- methods to vdx.proposals' checker.
local assertions = require "vdx.assertions"

local M = {}

local P = {}

--- The roles of a checkbox's kind (toBeChecked) and of a field
-- (toHaveValue), whose new state a report proposes (P:state).
M.CHECKABLE = { checkbox = true, radio = true, switch = true, menuitemcheckbox = true, menuitemradio = true }
M.FIELD = { textbox = true, searchbox = true, combobox = true, spinbutton = true, slider = true }
local CHECKABLE, FIELD = M.CHECKABLE, M.FIELD

-- The fields whose snapshot value is what toHaveValue reads (a
-- combobox's is its option's label, a spinbutton's may be formatted).
local TYPED_VALUE = { textbox = true, searchbox = true }

-- A field's or checkbox's new state.
function P:state(e)
  if CHECKABLE[e.role] then
    local on = false
    for _, s in ipairs(e.states) do on = on or s == "[checked]" end
    return self:first(e, on and "toBeChecked" or "not.toBeChecked")
  end
  if FIELD[e.role] and e.ref then
    -- A field that shows just what the action put in it says only what
    -- the test's fill did (runs CN and CR called these proposals noise);
    -- one the page changed as it went in (a mask, a total) is news.
    if self.typed and self.typed[e.value or ""] and (e.value or "") ~= "" then return false end
    -- The field the action typed into: its locator was verified to match
    -- it alone just before, and the snapshot just taken read its value,
    -- so no read of the page again (a third of a type's bridge time).
    local v, a = e.value, self.acted
    if a and a.ref == e.ref and TYPED_VALUE[e.role] and v and v ~= "" and #v <= 200 and v:match("^%S")
        and v:match("%S$") and not v:find("  ", 1, true) and not v:find("[\\\n\226]") then
      return self:try({ matcher = "toHaveValue", locator = a.locator, value = v }, nil,
        { count = 1, matches = { { ref = e.ref, value = v, visible = true } } })
    end
    for loc, ref in self:locators(e, true) do
      local okf, facts = pcall(assertions.facts, self.page, loc, { limit = 1, batch = self.batch })
      -- (A field that shows up empty, a new frame's, is no news; one an
      -- action emptied is.)
      local emptied = e.was and (e.was.value or "") ~= ""
      -- (A password's snapshot value is masked: what was typed is read here.)
      local got = okf and facts.count == 1 and facts.matches[1].value
      if got and self.typed and self.typed[got] and got ~= "" then return false end
      if got and (got ~= "" or emptied) and (not ref or facts.matches[1].ref == ref) then
        return self:try({ matcher = "toHaveValue", locator = loc, value = facts.matches[1].value }, nil, facts)
      end
    end
  end
  return false
end

-- The ARIA states a locator option can hold: a line's state that came
-- (or went) is checked with getByRole(…, { selected: true }).
local STATE_OPTION = { ["[selected]"] = "selected", ["[expanded]"] = "expanded", ["[pressed]"] = "pressed" }
-- The roles whose state is what the action was for: a tab or a row
-- selected, a disclosure opened (a combobox's list closing after a pick
-- is not the news).
local STATE_ROLES = { ["[selected]"] = { tab = true, treeitem = true, row = true, gridcell = true },
  ["[expanded]"] = { button = true, link = true, treeitem = true, menuitem = true },
  ["[pressed]"] = { button = true } }

-- loc (a getByRole locator) with the option key: value.
local function with_option(loc, key, value)
  local v = key .. ": " .. tostring(value)
  if loc:sub(-3) == " })" then return loc:sub(1, -4) .. ", " .. v .. " })" end
  return loc:sub(1, -2) .. ", { " .. v .. " })"
end

-- A tab selected, a disclosure expanded or collapsed, a toggle button
-- pressed or released (a changed line whose [selected], [expanded] or
-- [pressed] came or went): the element by its role, name and that state
-- is visible.
-- A field the form refused (the browser's own validation, or the app's
-- aria-invalid) as a check that it is invalid: no matcher says so, a
-- locator does.  True when one was offered.
function P:invalid(role, name, ref)
  -- (:user-invalid holds only once the user tried to send or left the
  -- field: a bad value typed alone is :invalid already.)
  for _, mark in ipairs { "locator(':user-invalid')", "locator(':invalid')", "locator('[aria-invalid=\"true\"]')" } do
    local loc = assertions.by_role(role, name) .. ".and(" .. mark .. ")"
    if self:try({ matcher = "toBeVisible", locator = loc }, ref) then return true end
    if self:full() then return false end
  end
  return false
end

-- A column sorted anew (a header whose [sort=…] changed): its aria-sort,
-- beside the rows' new order (which a sort the wrong way round passes
-- when the rows were in that order already).  True when one was offered.
local function sort_of(states)
  for _, st in ipairs(states) do
    local v = st:match("^%[sort=(%a+)%]$")
    if v then return v end
  end
end
function P:sorted(e, now)
  for _, exact in ipairs { false, true } do
    local step = { matcher = "toHaveAttribute", locator = assertions.by_role(e.role, e.name, exact),
      attribute = "aria-sort", value = now }
    if self:try(step, e.ref) then return true end
    if self:full() then return false end
  end
  return false
end

function P:aria_state(e)
  if e.in_frame or not e.was or (e.name or "") == "" then return end
  local had, has = {}, {}
  for _, st in ipairs(e.was.states) do had[st] = true end
  for _, st in ipairs(e.states) do has[st] = true end
  if has["[invalid]"] and not had["[invalid]"] and self:invalid(e.role, e.name, e.ref) then return end
  local sort = sort_of(e.states)
  if sort and sort ~= sort_of(e.was.states) and self:sorted(e, sort) then return end
  for st, key in pairs(STATE_OPTION) do
    if had[st] ~= has[st] and STATE_ROLES[st][e.role] and not (st == "[selected]" and not has[st]) then
      local scope = self:scope(e)
      for _, exact in ipairs(scope and { "scoped", false, true } or { false, true }) do
        local loc = with_option(assertions.by_role(e.role, e.name, exact == true), key, has[st] == true)
        if exact == "scoped" then loc = scope .. "." .. loc end
        if self:try({ matcher = "toBeVisible", locator = loc }, e.ref) then return end
        if self:full() then return end
      end
    end
  end
end

--- Adds the state proposals (state, invalid, sorted, aria_state) to Proposer,
-- the checker vdx.proposals makes for each report.
function M.install(Proposer)
  for k, f in pairs(P) do Proposer[k] = f end
end

return M
