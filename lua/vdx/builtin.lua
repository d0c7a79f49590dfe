--- vdx.builtin: the built-in tools, registered through the same registry
-- as user tools.  Names and argument names follow Playwright MCP where the
-- function matches.
local builtin = {}

--- The modules that each return a list of tools, in listing order.
builtin.groups = { "vdx.builtin.navigation", "vdx.builtin.explore", "vdx.builtin.verify", "vdx.builtin.locators",
  "vdx.builtin.actions", "vdx.builtin.observe", "vdx.builtin.tabs", "vdx.builtin.roles", "vdx.builtin.export",
  "vdx.builtin.clock",
  "vdx.builtin.routes",
  "vdx.builtin.network",
  "vdx.builtin.storage",
  "vdx.builtin.emulate" }

--- Registers every built-in tool in reg.
function builtin.register_all(reg)
  for _, m in ipairs(builtin.groups) do
    for _, def in ipairs(require(m)) do reg:register(def) end
  end
  return reg
end

return builtin
