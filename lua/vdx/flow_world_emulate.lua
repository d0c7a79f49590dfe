--- vdx.flow_world_emulate: emulation in a flow.  flow.run{ device = …,
-- emulate = { … } } sets every role's; f:role(name, { device =,
-- timezone =, locale =, color_scheme =, … }) sets one role's (any key of
-- page:emulate, over the flow's); the role's context gets them before its
-- first page opens, and the exported test makes that role's context with
-- them as options (`...devices['iPhone 13']`, timezoneId, locale,
-- colorScheme, geolocation and its permission).  r:emulate{ … } changes
-- them during the run: the media settings and the viewport on the role's
-- current page, the rest on its whole context (as in Playwright).
local emulation = require "vdx.emulation"
local ex = require "vdx.emulation_export"

local M = {}

--- The keys of page:emulate a role's spec may carry, as a set.
M.ROLE_KEYS = {}
for _, k in ipairs(emulation.KEYS) do M.ROLE_KEYS[k] = true end

--- The settings of a role: the flow's emulate and device options under
-- the role spec's own keys, checked (InvalidArgument names a bad one);
-- nil when there are none.  what names the call for the error.
function M.role_settings(opts, spec, what)
  local o = {}
  for k, v in pairs(opts.emulate or {}) do o[k] = v end
  if opts.device ~= nil then o.device = opts.device end
  for k in pairs(M.ROLE_KEYS) do
    if spec[k] ~= nil then o[k] = spec[k] end
  end
  if next(o) == nil then return nil end
  return emulation.check(o, what)
end

-- The settings a page keeps to itself in Playwright (page.emulateMedia,
-- page.setViewportSize); the others are the context's.
local PAGE_KEYS = { viewport = true, color_scheme = true, reduced_motion = true, forced_colors = true, media = true }

--- Installs r:emulate(opts) on the actor class.
function M.install(Actor)
  --- r:emulate(opts) -> r: page:emulate's settings for this role, during
  -- the run (see the module comment); recorded for the export.
  function Actor:emulate(opts)
    local o = emulation.check(opts, "r:emulate")
    local page_o, ctx_o = {}, {}
    for k, v in pairs(o) do
      if PAGE_KEYS[k] then page_o[k] = v else ctx_o[k] = v end
    end
    if next(ctx_o) then self.page:context():emulate(ctx_o) end
    if next(page_o) then self.page:emulate(page_o) end
    local change = ex.change(o)
    self.flow:record { kind = "code", role = self.name, lines = change.lines, context_emulate = change.context }
    self.flow:event { kind = "emulate", role = self.name }
    return self
  end
end

return M
