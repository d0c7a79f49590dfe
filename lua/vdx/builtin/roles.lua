--- vdx.builtin.roles: select_role, list_roles and get_current_role.
local json = require "vdx.json"

local function role_line(r)
  return ("%s %s%s%s%s"):format(r.current and "*" or "-", r.name,
    r.active and " (active)" or " (not started)",
    r.auth and (" auth=" .. r.auth) or " no auth",
    r.url and (" url=" .. r.url) or "")
end

return {
  {
    name = "select_role",
    title = "Select role",
    description = "Act as another role (own context, login, pages, refs) in the calls sent after this one, on its page (its URL, opened the first time); it waits for that role's earlier calls.",
    scope = "select",
    roles_only = true,
    input = { type = "object", required = { "role" }, properties = {
      role = { type = "string", minLength = 1, description = "Role name" },
    } },
    annotations = { readOnlyHint = false, idempotentHint = true },
    run = function(ctx, args)
      -- The role's page starts first: a role that cannot start (its
      -- browser fails to launch or connect) leaves the current one as it was.
      local r = ctx.roles:role(args.role)
      r:page()
      -- Through the MCP server the role became current as the call arrived
      -- (vdx.mcp_lanes), and a later select_role may have chosen since.
      if not ctx.selected then ctx.roles:select(r.name) end
      ctx.role = r
      -- Where the role is; a page of the role the agent has not looked
      -- at yet (its default URL, opened now; a document new since its
      -- last look, as after browser_start_test {keep_state: false}) is
      -- outlined, as a navigation's is: run DF navigated to the page it
      -- was on for its refs, and run EA acted with refs of the page the
      -- context before showed.  Else browser_find or a navigation reads
      -- what is needed.
      local page = r:page()
      local ok, info = pcall(page.bridge, page, "pageInfo", {})
      local url = ok and type(info) == "table" and info.url or nil
      local title = ok and type(info) == "table" and info.title or nil
      local text = ("Current role: %s"):format(r.name)
      if url then text = text .. ("\nPage: %s%s"):format(url, title and title ~= "" and (' — "' .. title .. '"') or "") end
      if url and not require("vdx.changes").current(r.last_snapshot, page) then
        local outline = require "vdx.builtin.page_outline"
        local snap = outline.small_snapshot(ctx, page)
        local told = snap and outline.told(r, url, snap)
        if told and told:find("^\nOutline") then
          text = text .. told
          require("vdx.changes").told_page(r, page, url, title or "")
        end
      end
      return { text = text, structured = { role = r.name, url = url, title = title } }
    end,
  },
  {
    name = "list_roles",
    title = "List roles",
    description = "The roles, active or not, with auth file and URL; * marks the current. Waits 2 s at most for earlier calls.",
    scope = "server",
    roles_only = true,
    input = { type = "object", properties = {} },
    annotations = { readOnlyHint = true },
    run = function(ctx)
      ctx.roles:current()
      local list = ctx.roles:list()
      local lines = {}
      for i, r in ipairs(list) do lines[i] = role_line(r) end
      return { text = table.concat(lines, "\n"), structured = { roles = json.array(list) } }
    end,
  },
  {
    name = "get_current_role",
    title = "Current role",
    description = "The role calls act as now (it waits for none).",
    scope = "none",
    roles_only = true,
    input = { type = "object", properties = {} },
    annotations = { readOnlyHint = true },
    run = function(ctx)
      local r = ctx.roles:current()
      return { text = "Current role: " .. r.name, structured = { role = r.name, auth = r.auth, url = r.url } }
    end,
  },
}
