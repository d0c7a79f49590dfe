-- examples/vdx.config.lua
return {
  default_role = "customer",
  roles = {
    provider = { auth = "auth/provider.json", url = "http://127.0.0.1:8080/provider", auth_required = true },
    customer = { auth = "auth/customer.json", url = "http://127.0.0.1:8080/shop" },
    admin    = { url = "http://127.0.0.1:8080/admin", endpoint = "ws://grid.local:9222/devtools/browser/…" },
  },
}
