--- vdx: the module `require "vdx"` returns (lua/vdx.lua).  The C primitives come from
-- vdx.core (vdx.so, or compiled into vdxlua); this file adds the Lua
-- layer's page methods to vdx.Page, the methods table every page shares:
-- the actions (vdx.actions), page:snapshot (vdx.snapshot),
-- page:evaluate_checked (vdx.readonly) and page:generate_locator
-- (vdx.locators), page:evaluate's stop of a busy page (vdx.busy), cookies
-- and storage on vdx.Context and vdx.Page (vdx.storage); and
-- vdx.connect's endpoint check and retries on a full farm (vdx.remote).
-- A team's own Lua module may add methods to vdx.Page the same way.
local vdx = require "vdx.core"

-- vdx.actions and the modules it requires ask for "vdx" while this file
-- runs: they get the same table.
package.loaded.vdx = vdx
require("vdx.actions").install(vdx.Page)
require("vdx.snapshot").install(vdx.Page)
require("vdx.find").install(vdx.Page)
require("vdx.readonly").install(vdx.Page)
require("vdx.locators").install(vdx.Page)
require("vdx.busy").install(vdx.Page)
require("vdx.clock").install(vdx.Page)
require("vdx.wait").install(vdx.Page)
--- vdx.secrets: values kept out of every answer, log and report (vdx.secrets).
vdx.secrets = require "vdx.secrets"
require("vdx.routes").install(vdx.Page, vdx.Context)
require("vdx.network").install(vdx.Page)
require("vdx.storage").install(vdx)
require("vdx.remote").install(vdx)
require("vdx.pool").install(vdx)
-- page:emulate and ctx:emulate; the context's methods are the __index of
-- its metatable, which the C half registers as "vdx.Context".
require("vdx.emulation").install(vdx.Page, debug.getregistry()["vdx.Context"].__index)

--- vdx.serve(opts) -> server | nil, message: the fixture HTTP server, a
-- module of its own (vdx.serve: build/vdx/serve.so, built into vdxlua), so
-- that vdx.so is the browser host; loaded on first use.
function vdx.serve(opts)
  local serve = require("vdx.serve").serve
  local srv, err = serve(opts)
  return srv, err
end

return vdx
