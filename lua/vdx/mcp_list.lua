--- vdx.mcp_list: the tools/list of the MCP server (vdx.mcp): each tool as
-- the negotiated protocol version lists it, and which tools a server with
-- one role leaves out.  Every session pays for this list once, before its
-- first call, so it carries nothing that says no more than the spec's
-- defaults.
local json = require "vdx.json"
local tools = require "vdx.tools"

local mcp_list = {}

-- The value each tool hint takes when it is left out (the spec's
-- ToolAnnotations), and the hints that mean something only when a tool is
-- not read-only: a listed tool carries only the hints that say more, so
-- every tools/list is smaller by them and means the same.
local HINT_DEFAULT = { readOnlyHint = false, destructiveHint = true, idempotentHint = false, openWorldHint = true }
local WRITE_HINT = { destructiveHint = true, idempotentHint = true }

--- Tool definition t as listed for the negotiated version.  one_role: the
-- server has one role, so the role argument (tools.ROLE_ARG) names nothing
-- to choose and is left out of the list (a call may still give it).
function mcp_list.entry(t, version, one_role)
  local input = {}
  for k, v in pairs(t.input) do input[k] = v end
  if input.required and #input.required == 0 then input.required = nil end
  input.properties = input.properties or {}
  if one_role then
    local props = {}
    for k, v in pairs(input.properties) do
      if v ~= tools.ROLE_ARG then props[k] = v end
    end
    input.properties = props
  end
  local e = { name = t.name, description = t.description, inputSchema = input }
  if version >= "2025-03-26" and t.annotations then
    local a = {}
    for k, v in pairs(t.annotations) do
      if HINT_DEFAULT[k] ~= v and not (t.annotations.readOnlyHint and WRITE_HINT[k]) then a[k] = v end
    end
    if version < "2025-06-18" then a.title = a.title or t.title end
    if next(a) ~= nil then e.annotations = a end
  end
  if version >= "2025-06-18" then
    e.title = t.title
    e.outputSchema = t.output
  end
  return e
end

--- The tools of registry as tools/list answers them for version; a
-- server with one role (one_role) leaves out the tools that choose among
-- roles (def.roles_only), which stay callable.
function mcp_list.list(registry, version, one_role)
  local list = json.array {}
  for _, t in ipairs(registry:list()) do
    if not (one_role and t.roles_only) then list[#list + 1] = mcp_list.entry(t, version, one_role) end
  end
  return list
end

return mcp_list
