--- vdx.flow_locator: Playwright locator expressions for flow targets.
-- A target spec is a table { role=, name=, exact=, label=, placeholder=,
-- text=, test_id=, css=, within=, nth= }; `of(spec)` writes it as the
-- locator chain that page:locator_count evaluates with Playwright's own
-- matching rules, so the expression that found the element in the flow is
-- the one written to the exported test.  `synthesize` finds a locator for
-- a bare ref: role and name first, then scoped to a test id (filtered by a
-- text of the container when the test id repeats), `.nth()` last.
local vdx = require "vdx"
local errors = require "vdx.errors"

local locator = {}

--- The JavaScript single-quoted literal of s.
function locator.quote(s)
  s = tostring(s):gsub("[\\']", "\\%0"):gsub("\n", "\\n"):gsub("\r", "\\r")
  return "'" .. s .. "'"
end
local q = locator.quote

--- True when s is a snapshot ref (e12, f1_e7): the core's one grammar.
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

--- The full expression of spec: scope, base and nth.
function locator.of(spec)
  local e = locator.base(spec)
  if spec.within then e = locator.scope(spec.within) .. "." .. e end
  if spec.nth then e = e .. ".nth(" .. math.tointeger(spec.nth) .. ")" end
  return e
end

-- True when expr matches exactly the element of ref in its frame.
local function unique(page, expr, ref, frame)
  local ok, r = pcall(page.locator_count, page, expr, { frame = frame })
  return ok and r.count == 1 and r.refs and r.refs[1] == ref
end

-- The texts of a container that may tell it apart from its siblings:
-- headings first, then the other short texts, as extract_anchors sees them.
local function container_texts(page, ref, level, skip)
  local ok, a = pcall(page.extract_anchors, page, ref, level, { max_total = 60 })
  if not ok or type(a) ~= "table" then return {} end
  local heads, rest, seen = {}, {}, { [skip or ""] = true }
  for _, d in ipairs(a.descendants or {}) do
    local t = d.direct_text or d.full_text or d.name
    if type(t) == "string" then
      t = t:gsub("^%s+", ""):gsub("%s+$", ""):gsub("%s+", " ")
      if #t >= 2 and #t <= 60 and not seen[t] then
        seen[t] = true
        local list = tostring(d.tag):match("^h%d$") and heads or rest
        list[#list + 1] = t
      end
    end
  end
  for _, t in ipairs(rest) do heads[#heads + 1] = t end
  return heads
end

--- A locator for ref, verified on the live page to match it alone, and a
-- note when it had to fall back to `.nth()`.  frame is the ref itself
-- (locator_count runs in the ref's frame).
function locator.synthesize(page, ref)
  local d = page:describe(ref)
  local spec
  if d.role and d.role ~= "" and d.role ~= "generic" and d.name and d.name ~= "" then
    spec = { role = d.role, name = d.name }
  elseif d.attributes and d.attributes["data-testid"] then
    spec = { test_id = d.attributes["data-testid"] }
  elseif d.attributes and d.attributes.placeholder then
    spec = { placeholder = d.attributes.placeholder }
  elseif d.role and d.role ~= "" and d.role ~= "generic" then
    spec = { role = d.role }
  else
    spec = { css = d.tag or "*" }
  end
  local candidates = { locator.of(spec) }
  if spec.name then
    spec.exact = true
    candidates[#candidates + 1] = locator.of(spec)
  end
  for _, e in ipairs(candidates) do
    if unique(page, e, ref, ref) then return e end
  end
  local base = locator.base(spec)
  local ok, rc = pcall(page.resolve_container, page, ref)
  if ok and type(rc) == "table" then
    for _, anc in ipairs(rc.ancestors or {}) do
      local tid = anc.attributes and anc.attributes["data-testid"]
      if tid then
        local c = "getByTestId(" .. q(tid) .. ")"
        if unique(page, c .. "." .. base, ref, ref) then return c .. "." .. base end
        for i, t in ipairs(container_texts(page, ref, anc.level, spec.name)) do
          if i > 12 then break end
          local e = c .. ".filter({ hasText: " .. q(t) .. " })." .. base
          if unique(page, e, ref, ref) then return e end
        end
      end
    end
  end
  -- The bridge's own verified target: a role locator scoped by its row,
  -- or a CSS path under a container; either beats a bare position.
  if d.locator and unique(page, d.locator, ref, ref) then return d.locator end
  if d.selector then
    local e = "locator(" .. q(d.selector) .. ")"
    if unique(page, e, ref, ref) then return e end
  end
  local all = page:locator_count(locator.of(spec), { frame = ref })
  for i, r in ipairs(all.refs or {}) do
    if r == ref then
      return locator.of(spec) .. ".nth(" .. (i - 1) .. ")",
        "nth(): no role and name, test id or container text was unique"
    end
  end
  return nil, "no locator matches " .. ref .. " alone"
end

return locator
