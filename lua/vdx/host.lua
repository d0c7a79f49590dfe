--- vdx.host: what the adapters for hosts that own their event loop
-- (vdx.luv, vdx.cqueues, vdx.copas) share: one adapter at a time, and a
-- handle whose :close() uninstalls it.
local vdx = require "vdx"
local errors = require "vdx.errors"

local host = {}

local Handle = {}
Handle.__index = Handle

--- Installs wait as the adapter called name (see vdx.set_host) and
-- returns its handle: a table with closed = false, whose :close() runs
-- on_close(handle) (if given) after uninstalling.  Raises at the caller of
-- the adapter's install when another adapter is installed.
function host.install(name, wait, on_close)
  if vdx.host() then
    errors.misuse(("vdx.%s.install: the %s adapter is already installed; close it "
                   .. "first"):format(name, vdx.host()), 3)
  end
  vdx.set_host { name = name, wait = wait }
  return setmetatable({ closed = false, on_close = on_close }, Handle)
end

--- Uninstalls the adapter.  Safe to call twice.
function Handle:close()
  if self.closed then return end
  self.closed = true
  vdx.set_host(nil)
  if self.on_close then self.on_close(self) end
end

return host
