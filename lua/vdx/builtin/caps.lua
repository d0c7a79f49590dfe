--- vdx.builtin.caps: enable_tools, which serves the tools of a
-- capability this server holds back (vdx.builtin.caps) as `--caps` would
-- have at its start: an agent whose test needs a mocked request, a fake
-- clock or a phone's screen gets those tools without a restart.  The
-- client hears notifications/tools/list_changed once and lists them again.
local vdx = require "vdx"
local builtin = require "vdx.builtin"

-- What each capability's tools do, for the description.
local WHAT = {
  network = "mock requests",
  emulation = "device, dark mode",
}

local function described()
  local parts = {}
  for _, cap in ipairs(builtin.cap_names()) do
    parts[#parts + 1] = cap .. (WHAT[cap] and (" (" .. WHAT[cap] .. ")") or "")
  end
  return table.concat(parts, ", ")
end

-- A tool in one line: its name, its arguments (optional ones marked ?, the
-- acting role's own left out) and its description, whole: a client that
-- lists the tools again for it reads every schema (run BW listed all 30 KB
-- to read what browser_route's cut line left out).
local SHORT = { integer = "int", boolean = "bool" }
local function signature(def)
  local props, required, args = (def.input or {}).properties or {}, {}, {}
  for _, r in ipairs((def.input or {}).required or {}) do required[r] = true end
  for k in pairs(props) do
    if k ~= "role" and k ~= "as_role" then args[#args + 1] = k end
  end
  table.sort(args, function(a, b)
    if required[a] ~= required[b] then return required[a] == true end
    return a < b
  end)
  for i, k in ipairs(args) do
    -- A few values to choose from are named (colorScheme?=dark|light|no-preference),
    -- else the type (abort?:string: a boolean there is refused).
    local p = type(props[k]) == "table" and props[k] or {}
    local types = {}
    for j, ty in ipairs(type(p.type) == "table" and p.type or { p.type }) do types[j] = SHORT[ty] or tostring(ty) end
    local choice = type(p.enum) == "table" and #p.enum <= 4 and ("=" .. table.concat(p.enum, "|"))
      or (#types > 0 and (":" .. table.concat(types, "|"))) or ""
    args[i] = (required[k] and k or (k .. "?")) .. choice
  end
  return ("%s(%s): %s"):format(def.name, table.concat(args, ", "), tostring(def.description or ""))
end

local names = builtin.cap_names()
names[#names + 1] = "all"

return {
  {
    name = "enable_tools",
    title = "Serve more tools",
    description = "Serve held-back tools: " .. described() .. ".",
    input = { type = "object", required = { "caps" }, properties = {
      caps = { type = "array", minItems = 1, items = { type = "string", enum = names }, description = "Groups" },
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
      local lines = { ("Now serving %d more tools (the client's next tools/list has their schemas):"):format(#added) }
      for _, def in ipairs(defs) do lines[#lines + 1] = "- " .. signature(def) end
      return { text = table.concat(lines, "\n"), structured = { added = added } }
    end,
  },
}
