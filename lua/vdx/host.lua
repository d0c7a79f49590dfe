--- vdx.host: what the adapters for hosts that own their event loop
-- (vdx.luv, vdx.cqueues, vdx.copas) share: one adapter at a time, and a
-- handle whose :close() uninstalls it.
local vdx = require "vdx"
local errors = require "vdx.errors"

local host = {}

local Handle = {}
Handle.__index = Handle

-- Raises HostOwnsLoop when the code installing the adapter of `name`
-- already runs on vdx's loop (a vdx task: the script vdxlua runs is one).
-- The host's loop (uv.run(), cq:loop(), copas.loop()) would then block
-- vdx's, which could never turn again, and every call would fail far from
-- the cause; so the mistake is named where it is made.
local function refuse_inside_vdx(name)
  if not vdx.current_task() then return end
  local script = type(_G.arg) == "table" and type(_G.arg[0]) == "string" and _G.arg[0] or nil
  error(vdx.error("HostOwnsLoop", ("vdx.%s.install: the program runs %s's event loop itself, so it cannot "
    .. "run inside a vdx task (vdxlua runs every script as one), whose loop it would block: run it with "
    .. "lua5.4 %s, vdx on LUA_PATH and LUA_CPATH (see docs/install.md)")
    :format(name, name, script or "FILE.lua"), { file = script }), 0)
end

--- Installs wait as the adapter called name (see vdx.set_host) and
-- returns its handle: a table with closed = false, whose :close() runs
-- on_close(handle) (if given) after uninstalling.  Raises at the caller of
-- the adapter's install when another adapter is installed, and
-- HostOwnsLoop inside a vdx task (a script run by vdxlua).
function host.install(name, wait, on_close)
  if vdx.host() then
    errors.misuse(("vdx.%s.install: the %s adapter is already installed; close it "
                   .. "first"):format(name, vdx.host()), 3)
  end
  refuse_inside_vdx(name)
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
