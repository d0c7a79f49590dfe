--- vdx.session_world: the settings of the roles' world (routes,
-- emulation, a clock) that browser_start_test carries into the next test
-- of an MCP session (vdx.session_log keeps the ones still in effect), as
-- the answer names them, and the clearing of them when the agent asks for
-- a test that starts without them (keep_world: false).
local M = {}

--- Clears the world of every active role of roles (browser_start_test
-- {keep_world: false}): its routes, its emulation, its network conditions
-- and CPU throttling, and a page with a
-- controlled clock (closed: no call uninstalls a clock, and the next use
-- of the role opens a new page).  Returns the line that says what went.
function M.clear(roles)
  local off = {}
  for _, k in ipairs(require("vdx.emulation").KEYS) do off[k] = false end
  local routes, clocks = 0, 0
  for _, info in ipairs(roles:list()) do
    if info.active then
      local role = roles:role(info.name)
      local okc, c = pcall(role.context, role)
      if okc and c then
        local okr, n = pcall(c.unroute_all, c)
        if okr and math.type(n) then routes = routes + n end
        pcall(c.emulate, c, off)
        -- (Offline or a throttled network, a slowed CPU: back to the browser's own.)
        pcall(c.network, c, { offline = false, preset = "No emulation" })
        pcall(c.cpu_throttle, c, 1)
        local p = role.page_
        if p and not p:is_closed() then
          pcall(p.emulate, p, off)
          -- (The page the agent last looked at is laid out anew, or gone:
          -- no report compares with that look.)
          role.last_snapshot, role.change_base = nil, nil
          if require("vdx.clock").installed(p) then
            pcall(p.close, p)
            role:forget_page(p)
            clocks = clocks + 1
          end
        end
      end
    end
  end
  return ("World cleared: %d route%s removed, emulation and network reset%s."):format(routes,
    routes == 1 and "" or "s", clocks > 0 and (", the clock's page closed (the next call opens a new one)") or "")
end

--- A line for each setting of the world the current test of log carried
-- over: its summary (a route's, as browser_route said it) or its first
-- statement as the export writes it, cut short.
local WORLD_LINE = 110
function M.lines(log)
  local out = {}
  for _, s in ipairs(log:list()) do
    if s.carried then
      local first = s.summary
      for _, l in ipairs(first == nil and s.lines or {}) do
        if not l:match("^%s*//") then first = l break end
      end
      first = (first or (s.lines or {})[1] or s.tool or "?"):gsub("{context}", "context"):gsub("{page}", "page")
        :gsub("^await ", "")
      if #first > WORLD_LINE then first = first:sub(1, WORLD_LINE - 1) .. "…" end
      out[#out + 1] = ("- %s%s"):format(first, #log:roles() > 1 and (" (" .. tostring(s.role) .. ")") or "")
    end
  end
  return out
end

return M
