--- vdx.builtin: the built-in tools, registered through the same registry
-- as user tools.  Names and argument names follow Playwright MCP where the
-- function matches.
local builtin = {}

--- The modules that each return a list of tools, in listing order: the
-- core, always served.
builtin.groups = { "vdx.builtin.navigation", "vdx.builtin.explore", "vdx.builtin.verify", "vdx.builtin.remember", "vdx.builtin.locators",
  "vdx.builtin.actions", "vdx.builtin.observe", "vdx.builtin.tabs", "vdx.builtin.roles", "vdx.builtin.pool", "vdx.builtin.export",
  "vdx.builtin.start_test",
  "vdx.builtin.caps" }

--- The capabilities: tool groups `vdxlua mcp` serves only when named in
-- --caps (as Playwright MCP's --caps), so an agent that does not need them
-- does not pay for their descriptions in every tools/list.  Each maps to
-- its modules; a tool may name its own capability (def.cap) instead.
builtin.caps = {
  network = { "vdx.builtin.routes", "vdx.builtin.network" },
  pdf = {},
  storage = { "vdx.builtin.storage" },
  emulation = { "vdx.builtin.emulate" },
  clock = { "vdx.builtin.clock" },
  vision = {},
}

--- The capability names, sorted.
function builtin.cap_names()
  local out = {}
  for k in pairs(builtin.caps) do out[#out + 1] = k end
  table.sort(out)
  return out
end

-- Every optional tool with its capability: { {def, cap}, … } in listing order:
-- the core modules' tools that name a capability (def.cap), then each
-- capability's modules.
local function optional()
  local out = {}
  for _, m in ipairs(builtin.groups) do
    for _, def in ipairs(require(m)) do
      if def.cap then out[#out + 1] = { def, def.cap } end
    end
  end
  for _, cap in ipairs(builtin.cap_names()) do
    for _, m in ipairs(builtin.caps[cap]) do
      for _, def in ipairs(require(m)) do
        def.cap = def.cap or cap
        out[#out + 1] = { def, def.cap }
      end
    end
  end
  return out
end

--- The capability that serves the built-in tool name, or nil for a core
-- tool or a name that is no built-in tool.
function builtin.cap_of(name)
  for _, e in ipairs(optional()) do
    if e[1].name == name then return e[2] end
  end
end

--- The tool definitions of capability cap, in listing order.
function builtin.defs_of(cap)
  local out = {}
  for _, e in ipairs(optional()) do
    if e[2] == cap then out[#out + 1] = e[1] end
  end
  return out
end

--- Registers the built-in tools in reg: the core, and the tools of each
-- capability caps names ({ network = true, … }); caps nil registers every
-- tool (the tool reference, `vdxlua tools`).  Returns reg.
function builtin.register_all(reg, caps)
  for _, m in ipairs(builtin.groups) do
    for _, def in ipairs(require(m)) do
      if not def.cap then reg:register(def) end
    end
  end
  for _, e in ipairs(optional()) do
    if caps == nil or caps[e[2]] then reg:register(e[1]) end
  end
  return reg
end

return builtin
