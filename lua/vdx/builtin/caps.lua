--- vdx.builtin.caps: enable_tools, which serves the tools of a
-- capability this server holds back (vdx.builtin.caps) as `--caps` would
-- have at its start: an agent whose test needs a mocked request, a fake
-- clock or a phone's screen gets those tools without a restart.  The
-- client hears notifications/tools/list_changed once and lists them again.
local vdx = require "vdx"
local builtin = require "vdx.builtin"

-- What each capability's tools do, for the description.
local WHAT = {
  network = "mock or fail requests (browser_route), offline, HAR",
  clock = "a fake clock (install, fast-forward, fixed time)",
  emulation = "a device, dark mode, locale, timezone, geolocation",
  storage = "cookies, localStorage, storage state",
  pdf = "save as PDF",
  vision = "click at x,y",
}

local function described()
  local parts = {}
  for _, cap in ipairs(builtin.cap_names()) do parts[#parts + 1] = cap .. " (" .. (WHAT[cap] or cap) .. ")" end
  return table.concat(parts, "; ")
end

local names = builtin.cap_names()
names[#names + 1] = "all"

return {
  {
    name = "enable_tools",
    title = "Serve more tools",
    description = "Serve tools held back to keep this list short, then list the tools again: " .. described() .. ".",
    input = { type = "object", required = { "caps" }, properties = {
      caps = { type = "array", minItems = 1, items = { type = "string", enum = names }, description = "Groups to serve" },
    } },
    scope = "server",
    annotations = { readOnlyHint = false, idempotentHint = true },
    run = function(ctx, args)
      local want = {}
      for _, cap in ipairs(args.caps) do
        if cap == "all" then
          for _, c in ipairs(builtin.cap_names()) do want[c] = true end
        else
          want[cap] = true
        end
      end
      local defs, had = {}, {}
      for _, cap in ipairs(builtin.cap_names()) do
        if want[cap] then
          for _, def in ipairs(builtin.defs_of(cap)) do
            if ctx.tools:get(def.name) then had[#had + 1] = def.name else defs[#defs + 1] = def end
          end
        end
      end
      if #defs == 0 then
        return ("Served already: %s."):format(#had > 0 and table.concat(had, ", ") or "nothing in those groups")
      end
      local added = ctx.tools:register_list(defs)
      return { text = ("Now serving %d more tools: %s. List the tools again for their arguments."):format(#added,
        table.concat(added, ", ")), structured = { added = added } }
    end,
  },
}
