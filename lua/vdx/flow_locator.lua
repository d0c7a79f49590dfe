--- vdx.flow_locator: Playwright locator expressions for flow targets.
-- A target spec is a table { role=, name=, exact=, label=, placeholder=,
-- text=, test_id=, css=, within=, nth= }; `of(spec)` writes it as the
-- locator chain that page:locator_count evaluates with Playwright's own
-- matching rules, so the expression that found the element in the flow is
-- the one written to the exported test.  `synthesize` finds a locator for
-- a bare ref with page:generate_locator: role and name first, then scoped
-- to the nearest container that makes it unique, `.nth()` last.
local vdx = require "vdx"
local errors = require "vdx.errors"

local locator = {}

--- The JavaScript single-quoted literal of s.
function locator.quote(s)
  s = tostring(s):gsub("[\\']", "\\%0"):gsub("\n", "\\n"):gsub("\r", "\\r")
  return "'" .. s .. "'"
end
local q = locator.quote

--- True when s is a snapshot ref (e12, f1e7): the core's one grammar.
function locator.is_ref(s)
  return (vdx.is_ref(s))
end

local KINDS = { "role", "label", "placeholder", "text", "test_id", "css", "ref" }

--- True when t is a target spec table (has one of the target keys).
function locator.is_spec(t)
  if type(t) ~= "table" then return false end
  for _, k in ipairs(KINDS) do if t[k] ~= nil then return true end end
  return false
end

local function exact_opt(spec)
  return spec.exact and ", { exact: true }" or ""
end

--- The locator of spec without its scope: getByRole(…), getByLabel(…), …
function locator.base(spec)
  if spec.role then
    local opts = {}
    if spec.name then opts[#opts + 1] = "name: " .. q(spec.name) end
    if spec.name and spec.exact then opts[#opts + 1] = "exact: true" end
    if spec.level then opts[#opts + 1] = "level: " .. math.tointeger(spec.level) end
    local o = #opts > 0 and (", { " .. table.concat(opts, ", ") .. " }") or ""
    return "getByRole(" .. q(spec.role) .. o .. ")"
  elseif spec.label then return "getByLabel(" .. q(spec.label) .. exact_opt(spec) .. ")"
  elseif spec.placeholder then return "getByPlaceholder(" .. q(spec.placeholder) .. exact_opt(spec) .. ")"
  elseif spec.text then return "getByText(" .. q(spec.text) .. exact_opt(spec) .. ")"
  elseif spec.test_id then return "getByTestId(" .. q(spec.test_id) .. ")"
  elseif spec.css then return "locator(" .. q(spec.css) .. ")"
  end
  errors.misuse("flow: a target needs role, label, placeholder, text, test_id, css or a ref", 3)
end

--- The container locator of a `within` value: a test id string, or
-- { test_id= | css= | role=, name=, text= } (text filters with hasText).
function locator.scope(within)
  if type(within) == "string" then within = { test_id = within } end
  if type(within) ~= "table" then errors.misuse("flow: within must be a test id or a table", 3, { field = "within" }) end
  local c
  if within.test_id then c = "getByTestId(" .. q(within.test_id) .. ")"
  elseif within.css then c = "locator(" .. q(within.css) .. ")"
  elseif within.role then c = locator.base { role = within.role, name = within.name }
  else c = "locator('*')" end
  if within.text then c = c .. ".filter({ hasText: " .. q(within.text) .. " })" end
  return c
end

--- What a failure's snapshot excerpt looks for to show the part of the
-- page that spec aims at (vdx.flow_failure): { ref, role, name (or
-- label or placeholder), text, within (the container's text or name) }.
function locator.look_of(spec)
  local w = type(spec.within) == "table" and spec.within or {}
  return { ref = spec.ref, role = spec.role, name = spec.name or spec.label or spec.placeholder, text = spec.text,
    within = w.text or w.name }
end

--- The full expression of spec: scope, base and nth.
function locator.of(spec)
  local e = locator.base(spec)
  if spec.within then e = locator.scope(spec.within) .. "." .. e end
  if spec.nth then e = e .. ".nth(" .. math.tointeger(spec.nth) .. ")" end
  return e
end

--- A locator for ref, verified on the live page to match it alone, and a
-- note when only `.nth()` tells it apart: page:generate_locator's, the
-- one generator (bridge/src/locgen.js), so a flow exports the locator an
-- MCP action names.
function locator.synthesize(page, ref)
  local loc = page:generate_locator(ref, { alternatives = 0 })
  if not loc.locator then return nil, loc.note or ("no locator matches " .. ref .. " alone") end
  -- The flow's export puts a frame's target under its own frameLocator.
  return loc.frame_relative or loc.locator, loc.positional and loc.note or nil
end

return locator
