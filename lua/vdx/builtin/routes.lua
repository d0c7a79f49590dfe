--- vdx.builtin.routes: browser_route, browser_route_list and
-- browser_unroute, with Playwright MCP's names and arguments (plus
-- `abort`).  Routes apply to the current role's browser context, so every
-- tab of the role is routed, as Playwright MCP routes page.context().
-- Each change is recorded as a "code" step: browser_export_test writes
-- the same `context.route(…)`, and the flake gate replays it.
local vdx = require "vdx"
local routes = require "vdx.routes"
local rx = require "vdx.route_export"
local util = require "vdx.builtin.util"

local step_no = util.step_no

local function bad(msg, field)
  error(vdx.error("InvalidArgument", msg, { field = field }), 0)
end

-- The answer of the arguments but their delay (answer_of).
local function answer_without_delay(args)
  local headers
  for _, h in ipairs(args.headers or {}) do
    local name, value = tostring(h):match("^%s*([^:]-)%s*:%s*(.-)%s*$")
    if not name or name == "" then bad(("invalid header %q: expected \"Name: Value\""):format(tostring(h)), "headers") end
    headers = headers or {}
    headers[name] = value
  end
  if args.abort ~= nil then
    if args.body ~= nil or args.status ~= nil then
      bad("abort cannot be combined with status or body: a route either aborts or fulfils", "abort")
    end
    local reason = routes.REASONS[args.abort]
    if not reason then
      bad(("unknown abort reason %q: one of failed, aborted, timedout, accessdenied, blockedbyclient, " ..
        "connectionrefused, … (CDP's ErrorReason)"):format(tostring(args.abort)), "abort")
    end
    return { abort = reason }
  end
  if args.body ~= nil or args.status ~= nil then
    local f = { status = math.tointeger(args.status) or args.status or 200, body = args.body,
      content_type = args.contentType, headers = headers }
    routes.fulfil_params(f)
    return { fulfil = f }
  end
  local remove
  if args.removeHeaders then
    remove = {}
    for name in tostring(args.removeHeaders):gmatch("[^,%s]+") do remove[#remove + 1] = name end
  end
  if not headers and not remove then
    if args.delay ~= nil then return {} end
    bad("give status or body (fulfil), abort, headers/removeHeaders (change the request) or delay (hold it)",
      "pattern")
  end
  return { headers = headers, remove = remove }
end

--- The longest delay a route holds a request, in milliseconds.
local MAX_DELAY = 60000

-- The answer of a browser_route call: { fulfil = … } | { abort = … } |
-- { headers = …, remove = … } | {} (passed on as it is), with delay (ms)
-- when the request is held first; raises InvalidArgument on a bad
-- argument.
local function answer_of(args)
  local a = answer_without_delay(args)
  if args.method ~= nil then
    local m = tostring(args.method):upper()
    if not m:match("^[A-Z]+$") then bad(("method must be an HTTP method (GET, POST, …), not %q"):format(args.method),
      "method") end
    a.method = m
  end
  if args.delay ~= nil then
    local ms = math.tointeger(args.delay)
    if not ms or ms < 0 or ms > MAX_DELAY then
      bad(("delay must be a whole number of milliseconds, 0 to %d"):format(MAX_DELAY), "delay")
    end
    a.delay = ms > 0 and ms or nil
  end
  return a
end

-- The route handler of an answer but its delay.
local function answering(a)
  if a.fulfil then return function(route) route:fulfill(a.fulfil) end end
  if a.abort then return function(route) route:abort { reason = a.abort } end end
  if not a.headers and not a.remove then return function(route) route:fallback() end end
  return function(route, req)
    local h = {}
    for k, v in pairs(req.headers) do h[k] = v end
    for k, v in pairs(a.headers or {}) do h[k:lower()] = v end
    for _, k in ipairs(a.remove or {}) do h[k:lower()] = nil end
    route:continue { headers = h }
  end
end

-- The route handler of an answer: its delay, then its answer; a route
-- of one method lets the others fall back (a GET of the cart beside its
-- POST: run AU had to remove its route to load the cart again).
local function handler_of(a)
  local answer = answering(a)
  local fn = answer
  if a.delay then
    fn = function(route, req)
      -- An action's answer shows the page while it waits, not after.
      require("vdx.quiet").hold(route.page, req.network_id, req, a.delay)
      vdx.sleep(a.delay)
      return answer(route, req)
    end
  end
  if not a.method then return fn end
  return function(route, req)
    if tostring(req.method):upper() ~= a.method then return route:fallback() end
    return fn(route, req)
  end
end

-- A route as browser_route_list and browser_route's answer say it:
-- method, pattern and what it does.
local function describe(r)
  local d = r.fulfil or {}
  local parts = {}
  if d.abort then parts[#parts + 1] = "abort=" .. d.abort end
  if d.status then parts[#parts + 1] = "status=" .. d.status end
  if d.body then parts[#parts + 1] = "body=" .. (#d.body > 50 and d.body:sub(1, 50) .. "..." or d.body) end
  if d.content_type then parts[#parts + 1] = "contentType=" .. d.content_type end
  if d.headers then parts[#parts + 1] = "headers=" .. rx.js(d.headers) end
  if d.remove then parts[#parts + 1] = "removeHeaders=" .. table.concat(d.remove, ",") end
  if d.delay then parts[#parts + 1] = ("delay=%d ms"):format(d.delay) end
  return ("%s%s%s"):format(d.method and (d.method .. " ") or "", r.pattern,
    #parts > 0 and " (" .. table.concat(parts, ", ") .. ")" or "")
end

return {
  {
    name = "browser_route",
    title = "Mock network requests",
    description = "Set up a route to mock network requests matching a URL pattern, in every tab of the current " ..
      "role: fulfil them (status, body, contentType, headers), abort them (abort), or change their request " ..
      "headers (headers, removeHeaders); delay holds them first (a slow server, written in the test as a " ..
      "timeout in the route); method limits it to one method. The last route added is tried first.",
    input = { type = "object", required = { "pattern" }, properties = {
      pattern = { type = "string", minLength = 1,
        description = 'URL pattern to match, a glob (e.g., "**/api/users", "**/*.{png,jpg}")' },
      status = { type = "integer", minimum = 100, maximum = 599, description = "HTTP status code to return (default: 200)" },
      body = { type = "string", description = "Response body (text or JSON string)" },
      contentType = { type = "string", description = 'Content-Type header (e.g., "application/json", "text/html")' },
      headers = { type = "array", items = { type = "string" },
        description = 'Headers to add in "Name: Value" format (to the response when fulfilling, else to the request)' },
      removeHeaders = { type = "string", description = "Comma-separated list of header names to remove from request" },
      abort = { type = "string",
        description = 'Abort matching requests with this reason instead (e.g., "blockedbyclient", "failed")' },
      delay = { type = "integer", minimum = 0, maximum = MAX_DELAY,
        description = "Hold each matching request this many milliseconds first (alone: then let it go on)" },
      method = { type = "string", minLength = 1, description = "Only requests of this method (POST); others go on" },
    } },
    annotations = { readOnlyHint = false },
    run = function(ctx, args)
      local a = answer_of(args)
      local ctxt = ctx.role:context()
      local fn = handler_of(a)
      local desc = { abort = a.abort, headers = a.headers, remove = a.remove, delay = a.delay, method = a.method }
      for k, v in pairs(a.fulfil or {}) do desc[k] = v end
      local answers = (a.abort or a.fulfil or a.headers or a.remove) and not a.method and true or nil
      -- An earlier route on the pattern this one answers before (run CF
      -- removed each before trying the next failure).
      local hides = false
      for _, r in ipairs(answers and ctxt:routes() or {}) do
        if r.pattern == args.pattern then hides = true end
      end
      ctxt:route(args.pattern, fn, { fulfil = desc })
      -- (One that answers hides an earlier route on its pattern: a new test
      -- keeps only it, Log:restart.)
      -- (One of a method answers only some: it hides none.)
      -- (summary: what a start's list of the world kept says of it, where
      -- its code's first line named no method, status or body: run EN.)
      local st = util.record(ctx, { kind = "code", world = true, tool = "browser_route", route = args.pattern,
        answers = answers, summary = "route " .. describe { pattern = args.pattern, fulfil = desc },
        lines = rx.route_lines("{context}", args.pattern, a),
        replay = function(page) page:route(args.pattern, fn) end })
      -- What it does, said back (run BC's answer named only the pattern,
      -- and it listed the routes to see the rest).
      return "Route added: " .. describe { pattern = args.pattern, fulfil = desc } .. step_no(st)
        .. (hides and "\nIt answers in place of the route added before on this pattern (no browser_unroute needed); "
          .. "a test started now keeps only it" or "")
    end,
  },
  {
    name = "browser_route_list",
    title = "List network routes",
    description = "List the network routes of the current role, in the order they were added.",
    input = { type = "object", properties = {} },
    annotations = { readOnlyHint = true },
    run = function(ctx)
      local list = ctx.role:context():routes()
      if #list == 0 then return { text = "No active routes", structured = { routes = {} } } end
      local lines = {}
      for i, r in ipairs(list) do
        lines[i] = i .. ". " .. describe(r)
        -- Which of two routes on one pattern answers (run Y clicked to learn it).
        for j = #list, i + 1, -1 do
          local d = list[j].fulfil or {}
          -- (One that only holds the request, a delay, falls back to it,
          -- as answering's route:fallback() does; one that changes its
          -- headers sends it on to the network.)
          if list[j].pattern == r.pattern and (d.abort or d.status or d.body ~= nil or d.headers or d.remove)
              and (not d.method or d.method == (r.fulfil or {}).method) then
            lines[i] = lines[i] .. (" — not reached while %d stands (same pattern, added later)"):format(j)
            break
          end
        end
      end
      if #list > 1 then
        lines[#lines + 1] = "A request several match goes to the one added last; one that falls back (delay) passes it "
          .. "to the one before, as in Playwright."
      end
      return { text = table.concat(lines, "\n"), structured = { routes = list } }
    end,
  },
  {
    name = "browser_unroute",
    title = "Remove network routes",
    description = "Remove the current role's network routes on a pattern (or all routes if no pattern is given).",
    input = { type = "object", properties = {
      pattern = { type = "string", minLength = 1, description = "URL pattern to unroute (omit to remove all routes)" },
    } },
    annotations = { readOnlyHint = false },
    run = function(ctx, args)
      local c = ctx.role:context()
      if args.pattern then
        local n = c:unroute(args.pattern)
        local st = util.record(ctx, { kind = "code", world = true, tool = "browser_unroute", unroute = args.pattern,
          lines = { "await {context}.unroute(" .. rx.js(args.pattern) .. ");" },
          replay = function(page) page:unroute(args.pattern) end })
        return ("Removed %d route(s) for pattern: %s"):format(n, args.pattern) .. step_no(st)
      end
      local n = c:unroute_all()
      local st = util.record(ctx, { kind = "code", world = true, tool = "browser_unroute", unroute = true,
        lines = { "await {context}.unrouteAll();" },
        replay = function(page) page:unroute_all() end })
      return ("Removed all %d route(s)"):format(n) .. step_no(st)
    end,
  },
}
