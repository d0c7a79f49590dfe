--- vdx.builtin.pool: close_role, which ends a role's browser context and
-- pages and, on a pool of endpoints (--endpoint repeated), frees its
-- session for a role waiting for one (docs/scale.md, Endpoint pools).
return {
  {
    name = "close_role",
    title = "Close role",
    -- It runs in the lane of the role it closes, after that role's calls.
    scope = "named",
    roles_only = true,
    description = "Close a role's context and pages and free its pool session; waits for its earlier calls.",
    input = { type = "object", required = { "role" }, properties = {
      role = { type = "string", minLength = 1, description = "Role name" },
    } },
    annotations = { readOnlyHint = false, destructiveHint = true, idempotentHint = true },
    run = function(ctx, args)
      local r = ctx.roles:role(args.role)
      local where = r:pooled_endpoint()
      local was = r.ctx ~= nil
      r:close()
      local text = was and ("Closed role %s%s; its next call starts it anew."):format(r.name,
        where and (" and freed its session on " .. require("vdx.remote").redact(where)) or "")
        or ("Role %s was not started; nothing to close."):format(r.name)
      return { text = text, structured = { role = r.name, closed = was } }
    end,
  },
}
