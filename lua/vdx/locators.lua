--- vdx.locators: page:generate_locator, the one generator of Playwright
-- locators for a ref.  The bridge writes and verifies the candidates in
-- one round trip in the ref's frame (bridge/src/locgen.js); this module
-- checks the arguments and hands back plain Lua values (no JSON nulls),
-- so the tools, the flows and the session log share one shape.
local vdx = require "vdx"

local locators = {}

local KNOWN = { alternatives = true, timeout_ms = true }

-- A string, or nil for JSON null and anything else.
local function str(v)
  return type(v) == "string" and v or nil
end

--- page:generate_locator(ref [, {alternatives = 4, timeout_ms=}]) ->
-- { locator, positional, note, frame, alternatives = { {locator, kind,
-- count}, … } }: a Playwright locator expression (codegen style, relative
-- to the frame's page) verified on the live page to match the element of
-- ref and nothing else.  positional is true (and note says why) when only
-- `.nth()` tells it apart.  frame names the ref's frame when it is not
-- the main one (the locator is relative to that frame's document).
-- Raises InvalidArgument for a bad ref or option, UnknownRef / StaleRef
-- for an element the page no longer has.
function locators.generate_locator(page, ref, opts)
  local r, frame = vdx.check_ref(ref)
  opts = opts or {}
  if type(opts) ~= "table" then
    error(vdx.error("InvalidArgument", "generate_locator: options must be a table"), 2)
  end
  for k in pairs(opts) do
    if not KNOWN[k] then
      error(vdx.error("InvalidArgument", ("generate_locator: unexpected key '%s' (known: alternatives, timeout_ms)")
        :format(tostring(k)), { field = tostring(k) }), 2)
    end
  end
  local n = opts.alternatives or 4
  if math.type(n) ~= "integer" or n < 0 then
    error(vdx.error("InvalidArgument", "generate_locator: alternatives must be an integer >= 0",
      { field = "alternatives" }), 2)
  end
  local res = page:bridge("locatorFor", { r, { alternatives = n } }, { frame = r, timeout_ms = opts.timeout_ms })
  local alts = {}
  for i, a in ipairs(type(res.alternatives) == "table" and res.alternatives or {}) do
    alts[i] = { locator = str(a.locator), kind = str(a.kind), count = math.tointeger(a.count) }
  end
  return { locator = str(res.locator), positional = res.positional == true, note = str(res.note),
    frame = frame ~= "main" and frame or nil, alternatives = alts }
end

--- Adds page:generate_locator to a table of page methods (vdx.Page;
-- lua/vdx.lua calls this when `vdx` loads).
function locators.install(methods)
  methods.generate_locator = locators.generate_locator
end

return locators
