--- examples/save_auth.lua: makes the auth files of the demo marketplace's
-- three roles, the way to make one for any app: sign in as a person does,
-- then save the role's cookies as a Playwright storageState file
-- (`p:save_auth(path)`), which `vdxlua mcp --role NAME FILE URL`, a flow's
-- `f:role(name, { auth = FILE })` and examples/mcp.json read.
--
--   build/vdxlua examples/save_auth.lua [DIR]   # DIR/customer.json, provider.json, admin.json (DIR: auth)
--
-- It starts the demo app in this process.  The files hold for any instance
-- of the app on shop.test, such as `build/vdxlua
-- examples/marketplace/serve.lua 8080`, because its sessions are signed
-- cookies for that host.
local here = (arg and arg[0] or "examples/save_auth.lua"):match("^(.*)/[^/]*$") or "."
package.path = here .. "/marketplace/?.lua;" .. package.path

local flow = require "vdx.flow"
local app = require("app").start()
local dir = arg and arg[1] or "auth"
os.execute("mkdir -p '" .. dir:gsub("'", "'\\''") .. "'")

-- Each role's demo user and the page a signed-in one lands on.
local ROLES = {
  { name = "customer", email = "ann@market.test", home = "/shop" },
  { name = "provider", email = "pro@market.test", home = "/provider" },
  { name = "admin", email = "admin@market.test", home = "/admin/orders" },
}

return flow.run({ name = "save auth", base_url = app.url, browser_args = app.browser_args }, function(f)
  for _, r in ipairs(ROLES) do
    f:role(r.name, { url = "/" .. r.name .. "/login" })
    f:as(r.name, function(p)
      p:step("sign in as " .. r.name, function()
        p:fill("textbox", "Email", r.email)
        p:fill({ label = "Password" }, "demo")
        p:click("button", "Sign in")
        p:expect_url(r.home)
        print("wrote " .. p:save_auth(dir .. "/" .. r.name .. ".json"))
      end)
    end)
  end
end)
