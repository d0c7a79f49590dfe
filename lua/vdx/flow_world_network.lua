--- vdx.flow_world_network: a flow role's network world, added to the
-- Actor class of vdx.flow_actor: r:network{…} (offline, throttling),
-- r:cpu_throttle(rate), r:record_har{ path, content, url } and
-- r:on_response(fn, opts), each on the role's browser context (every tab
-- of the role, those it opens later included).  Each change is recorded
-- for --emit-playwright as a "code" node: setOffline where Playwright has
-- it, a comment where it has none.
local network = require "vdx.network"

local M = {}

--- Adds the methods to Actor; h holds flow_actor's fail and check_options.
function M.install(Actor, h)
  local fail = h.fail

  local function context_of(self) return self.page:context() end

  --- Sets the role's network: { offline =, preset =, latency_ms =,
  -- download_bps =, upload_bps = } (page:network's options); {} restores it.
  function Actor:network(opts)
    return self:tagged(function()
      local c = network.conditions(opts, "network")
      context_of(self):network(opts)
      local lines = { ("await {context}.setOffline(%s);"):format(c.offline and "true" or "false") }
      if c.latency > 0 or c.downloadThroughput >= 0 or c.uploadThroughput >= 0 then
        lines[#lines + 1] = ("// vdx throttled the network here (latency %s ms, download %s B/s, upload %s B/s); "
          .. "Playwright has no API for throttling"):format(tostring(c.latency), tostring(c.downloadThroughput),
          tostring(c.uploadThroughput))
      end
      self.flow:record { kind = "code", role = self.name, lines = lines }
      return c
    end)
  end

  --- Slows the role's CPU down rate times (1 ends it).
  function Actor:cpu_throttle(rate)
    return self:tagged(function()
      if type(rate) ~= "number" or rate < 1 then
        fail("InvalidArgument", "cpu_throttle: rate must be a number >= 1 (1: no throttling)", { field = "rate" })
      end
      context_of(self):cpu_throttle(rate)
      self.flow:record { kind = "code", role = self.name, lines = {
        ("// vdx throttled the CPU %sx here; Playwright has no API for it"):format(tostring(rate)) } }
      return rate
    end)
  end

  --- Records the role's traffic as a HAR 1.2 file: { path, content =
  -- "embed" | "omit", url = glob }; the file is written at recorder:stop()
  -- or when the flow's browser closes.
  function Actor:record_har(opts)
    return self:tagged(function()
      local r = context_of(self):record_har(opts)
      self.flow:record { kind = "code", role = self.name, lines = {
        ("// vdx recorded this role's traffic to %s (Playwright: browser.newContext({ recordHar: { path: %q } }))")
          :format(tostring(opts.path), tostring(opts.path)) } }
      return r
    end)
  end

  --- fn(response) as a task for each response of the role's tabs
  -- (ctx:on_response's options); returns the function that stops it.
  function Actor:on_response(fn, opts)
    return self:tagged(function() return context_of(self):on_response(fn, opts) end)
  end
end

return M
