--- vdx.flow_world_routes: a flow role's routes -- r:route, r:unroute and
-- r:route_from_har -- added to flow.lua's Actor class.  Each is applied to
-- the role's page (vdx.routes) and recorded as a "code" node, so
-- --emit-playwright writes page.route(…) with the same fulfilment, or
-- page.routeFromHAR(…); a Lua function handler cannot be translated and
-- is exported as a `// not exported:` comment (vdx.route_export).
local rx = require "vdx.route_export"
local routes = require "vdx.routes"

local M = {}

-- The keys of a static answer table.
local ANSWER = { status = true, headers = true, body = true, json = true, path = true, content_type = true,
  abort = true }
local ROUTE_OPTS = { lua_pattern = true, resource_type = true, times = true }

--- Adds the route methods to the Actor class; h holds flow.lua's fail and
-- check_options.
function M.install(Actor, h)
  local fail, check_options = h.fail, h.check_options

  --- r:route(pattern, handler | answer [, opts]): handler(route, request)
  -- as page:route takes, or a static answer: a fulfilment table { status,
  -- headers, body | json | path, content_type } or { abort = reason }.
  function Actor:route(pattern, answer, opts)
    check_options(opts, ROUTE_OPTS, "route")
    local handler, export
    if type(answer) == "function" then
      handler, export = answer, { handler = true }
    elseif type(answer) == "table" then
      check_options(answer, ANSWER, "route answer")
      if answer.abort ~= nil then
        if answer.status or answer.body or answer.json or answer.path then
          fail("InvalidArgument", "route: an answer either aborts or fulfils, not both", { field = "abort" })
        end
        local reason = routes.REASONS[answer.abort]
        if not reason then
          fail("InvalidArgument", ("route: unknown abort reason %q"):format(tostring(answer.abort)),
            { field = "abort" })
        end
        handler, export = function(route) route:abort { reason = reason } end, { abort = reason }
      else
        local fulfil = {}
        for k, v in pairs(answer) do fulfil[k] = v end
        routes.fulfil_params(fulfil)       -- checked now, not at the first request
        handler, export = function(route) route:fulfill(fulfil) end, { fulfil = fulfil }
      end
    else
      fail("InvalidArgument", "route: the second argument is a handler function or an answer table",
        { field = "handler" })
    end
    local o = { lua_pattern = opts and opts.lua_pattern, resource_type = opts and opts.resource_type,
      times = opts and opts.times, fulfil = export.fulfil }
    self.page:route(pattern, handler, o)
    local lines = rx.route_lines("{page}", pattern, export, o.lua_pattern)
    if (o.resource_type or o.times) and not lines[1]:match("^//") then
      lines[#lines + 1] = "// note: the route's resource_type/times options are not exported"
    end
    self.flow:record { kind = "code", role = self.name, lines = lines }
    return self
  end

  --- r:unroute(pattern): removes the role page's routes on pattern.
  function Actor:unroute(pattern)
    local n = self.page:unroute(pattern)
    self.flow:record { kind = "code", role = self.name,
      lines = { "await {page}.unroute(" .. rx.js(pattern) .. ");" } }
    return n
  end

  --- r:route_from_har(path [, { url =, not_found = }]): answers the role's
  -- requests from a HAR file (page:route_from_har).
  function Actor:route_from_har(path, opts)
    check_options(opts, { url = true, not_found = true }, "route_from_har")
    self.page:route_from_har(path, opts)
    self.flow:record { kind = "code", role = self.name, lines = rx.har_lines("{page}", path, opts) }
    return self
  end
end

return M
