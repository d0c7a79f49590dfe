--- marketplace: the embedded demo app.  A small three-role marketplace
-- (admin, provider, customer) served by vdx.serve from the calling
-- process: plain HTML and JavaScript pages in public/, a JSON API in Lua,
-- and all state in memory.  start(opts) -> app with
--   app.url           the shop's base URL (http://shop.test:PORT)
--   app.pay_url       the payment provider's origin (http://pay.test:PORT),
--                     a different site, so the payment iframe is cross-origin
--   app.browser_args  the Chromium flags that map both names to 127.0.0.1
--   app.local_url     http://127.0.0.1:PORT (pay is then served as localhost)
--   app:auth_file(role, path)  writes a Playwright storageState for a user
--   app:close()
-- Sessions are signed cookies (mp_session=<email>.<signature>), so a saved
-- storageState stays valid against any instance of the app.  The signing is
-- a demo's, not a real MAC.
local vdx = require "vdx"
local json = require "vdx.json"

local M = {}

local HERE = (debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$")) or "."
local PUBLIC = HERE .. "/public"
local SECRET = "vdx-marketplace-demo"

local USERS = {
  ["admin@market.test"] = { name = "Ada", role = "admin" },
  ["pro@market.test"] = { name = "Pat", role = "provider", shop = "Pat's Workshop" },
  ["nora@market.test"] = { name = "Nora", role = "provider", shop = "Nordic Goods" },
  ["ann@market.test"] = { name = "Ann", role = "customer" },
}
local PASSWORD = "demo"
local HOME = { admin = "/admin/orders", provider = "/provider", customer = "/shop" }

-- A 32-bit FNV-1a hash as hex: enough to make cookies unguessable by hand.
local function sign(s)
  local h = 2166136261
  for i = 1, #s do
    h = ((h ~ s:byte(i)) * 16777619) & 0xffffffff
  end
  return ("%08x"):format(h)
end

local function session_value(email)
  return email .. "." .. sign(SECRET .. email)
end

local function current_user(req)
  local v = req.cookies and req.cookies.mp_session
  if not v then return nil end
  local email, sig = v:match("^(.+)%.(%x+)$")
  if not email or sign(SECRET .. email) ~= sig or not USERS[email] then return nil end
  local u = USERS[email]
  return { email = email, name = u.name, role = u.role, shop = u.shop }
end

local function read(path)
  local f = assert(io.open(PUBLIC .. "/" .. path, "rb"))
  local s = f:read("a")
  f:close()
  return s
end

local function urldecode(s)
  s = s:gsub("+", " ")
  return (s:gsub("%%(%x%x)", function(h) return string.char(tonumber(h, 16)) end))
end

local function form(body)
  local t = {}
  for k, v in (body or ""):gmatch("([^&=]+)=([^&]*)") do t[urldecode(k)] = urldecode(v) end
  return t
end

local function html_escape(s)
  return (tostring(s):gsub("[&<>\"]", { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;" }))
end

local function redirect(to, cookie)
  return { status = 303, headers = { location = to, ["set-cookie"] = cookie }, body = "" }
end

local function money(cents)
  return ("$%d.%02d"):format(cents // 100, cents % 100)
end

--- Writes a Playwright storageState file that signs in role's demo user
-- on shop_host ("shop.test"); returns the path.  Sessions are signed, so
-- the file works against any instance of the app.
function M.auth_file(role, path, shop_host)
  local users = { admin = "admin@market.test", provider = "pro@market.test", customer = "ann@market.test" }
  local email = assert(users[role], "no demo user for role " .. tostring(role))
  local state = { cookies = { { name = "mp_session", value = session_value(email), domain = shop_host or "shop.test",
    path = "/", expires = -1, httpOnly = true, secure = false, sameSite = "Lax" } },
    origins = json.array() }
  local f = assert(io.open(path, "w"))
  f:write(json.encode(state))
  f:close()
  return path
end

--- Starts the app.  opts: port (0 picks one), shop_host ("shop.test"),
-- pay_host ("pay.test").
function M.start(opts)
  opts = opts or {}
  local shop_host, pay_host = opts.shop_host or "shop.test", opts.pay_host or "pay.test"

  local products, next_product = {}, 1
  local carts, orders, next_order = {}, {}, 1001

  local function add_product(p, owner)
    local item = { id = next_product, name = p.name, price = p.price, discount = p.discount or 0,
      owner = owner, shop = USERS[owner].shop, rating = p.rating or 0, votes = p.votes or 0 }
    next_product = next_product + 1
    products[#products + 1] = item
    return item
  end
  add_product({ name = "Linen Tote Bag", price = 2400, rating = 4.5, votes = 12 }, "nora@market.test")
  add_product({ name = "Ceramic Mug", price = 1200, discount = 10, rating = 4.0, votes = 31 }, "nora@market.test")
  add_product({ name = "Wool Blanket", price = 8900, rating = 4.8, votes = 7 }, "nora@market.test")

  local function find_product(id)
    for _, p in ipairs(products) do if p.id == id then return p end end
  end

  local function sale_price(p)
    return p.price - (p.price * p.discount + 50) // 100
  end

  local function public_product(p)
    return { id = p.id, name = p.name, price = p.price, discount = p.discount,
      sale_price = sale_price(p), shop = p.shop, rating = p.rating, votes = p.votes }
  end

  local function cart_of(email)
    carts[email] = carts[email] or {}
    return carts[email]
  end

  local function cart_view(email)
    local lines, total = {}, 0
    for _, line in ipairs(cart_of(email)) do
      local p = find_product(line.id)
      if p then
        local unit = sale_price(p)
        lines[#lines + 1] = { id = p.id, name = p.name, qty = line.qty, unit = unit, total = unit * line.qty }
        total = total + unit * line.qty
      end
    end
    return { lines = json.array(lines), total = total }
  end

  local port
  local function origins(req)
    local host = req.headers and req.headers.host or ""
    if host:match("^127%.0%.0%.1") or host:match("^localhost") then
      return "http://127.0.0.1:" .. port, "http://localhost:" .. port
    end
    return "http://" .. shop_host .. ":" .. port, "http://" .. pay_host .. ":" .. port
  end

  -- A page that only a role may see; others are sent to that role's login.
  local function page(role, file)
    return function(req)
      local u = current_user(req)
      if not u or u.role ~= role then return redirect("/" .. role .. "/login") end
      local shop, pay = origins(req)
      return (read(file):gsub("{{([%w_]+)}}", {
        user = html_escape(u.name), role = role, shop = html_escape(u.shop or ""),
        shop_origin = shop, pay_origin = pay }))
    end
  end

  local function api(role, fn)
    return function(req)
      local u = current_user(req)
      if not u or (role and u.role ~= role) then
        return { status = 401, json = { error = "sign in as " .. (role or "a user") .. " first" } }
      end
      return fn(req, u)
    end
  end

  local function login_page(role)
    return function(req)
      local u = current_user(req)
      if u and u.role == role then return redirect(HOME[role]) end
      local title = role:sub(1, 1):upper() .. role:sub(2)
      local err = req.params and req.params.error and
        '<p class="error" role="alert">Wrong email or password.</p>' or ""
      return (read("login.html"):gsub("{{([%w_]+)}}", { role = role, title = title, error = err }))
    end
  end

  local function login(role)
    return function(req)
      local f = form(req.body)
      local u = USERS[f.email or ""]
      if not u or u.role ~= role or f.password ~= PASSWORD then
        return redirect("/" .. role .. "/login?error=1")
      end
      return redirect(HOME[role], "mp_session=" .. session_value(f.email) .. "; Path=/; HttpOnly; SameSite=Lax")
    end
  end

  local routes = {
    ["GET /"] = function() return read("index.html") end,
    ["GET /logout"] = function() return redirect("/", "mp_session=; Path=/; Max-Age=0") end,
    ["GET /provider"] = page("provider", "provider.html"),
    ["GET /shop"] = page("customer", "shop.html"),
    ["GET /shop/cart"] = page("customer", "cart.html"),
    ["GET /admin/orders"] = page("admin", "orders.html"),
    ["GET /pay"] = function(req)
      local shop = origins(req)
      return (read("pay.html"):gsub("{{([%w_]+)}}", { shop_origin = shop }))
    end,

    ["GET /api/me"] = api(nil, function(_, u) return { json = u } end),
    ["GET /api/products"] = api(nil, function()
      local out = {}
      for i, p in ipairs(products) do out[i] = public_product(p) end
      return { json = json.array(out) }
    end),
    ["GET /api/my/products"] = api("provider", function(_, u)
      local out = {}
      for _, p in ipairs(products) do
        if p.owner == u.email then out[#out + 1] = public_product(p) end
      end
      return { json = json.array(out) }
    end),
    ["POST /api/products"] = api("provider", function(req, u)
      local b = req.json or {}
      local price = tonumber(b.price)
      local discount = tonumber(b.discount ~= "" and b.discount or 0)
      if type(b.name) ~= "string" or b.name:match("^%s*$") then
        return { status = 400, json = { error = "A product needs a name." } }
      elseif not price or price <= 0 then
        return { status = 400, json = { error = "The price must be a positive amount." } }
      elseif not discount or discount < 0 or discount > 90 then
        return { status = 400, json = { error = "The discount must be between 0 and 90 %." } }
      end
      local p = add_product({ name = b.name, price = math.floor(price * 100 + 0.5),
        discount = math.floor(discount) }, u.email)
      return { status = 201, json = public_product(p) }
    end),
    ["POST /api/products/*"] = api("provider", function(req, u)
      local p = find_product(tonumber(req.path:match("(%d+)$")))
      if not p or p.owner ~= u.email then return { status = 404, json = { error = "No such product." } } end
      local price = tonumber((req.json or {}).price)
      if not price or price <= 0 then
        return { status = 400, json = { error = "The price must be a positive amount." } }
      end
      p.price = math.floor(price * 100 + 0.5)
      return { json = public_product(p) }
    end),
    ["POST /api/rate"] = api("customer", function(req)
      local b = req.json or {}
      local p = find_product(tonumber(b.id))
      local stars = tonumber(b.stars)
      if not p or not stars or stars < 1 or stars > 5 then return { status = 400, json = { error = "bad rating" } } end
      p.rating = (p.rating * p.votes + stars) / (p.votes + 1)
      p.votes = p.votes + 1
      return { json = public_product(p) }
    end),
    ["GET /api/cart"] = api("customer", function(_, u) return { json = cart_view(u.email) } end),
    ["POST /api/cart"] = api("customer", function(req, u)
      local id = tonumber((req.json or {}).id)
      if not find_product(id) then return { status = 404, json = { error = "No such product." } } end
      local cart = cart_of(u.email)
      for _, line in ipairs(cart) do
        if line.id == id then line.qty = line.qty + 1; return { json = cart_view(u.email) } end
      end
      cart[#cart + 1] = { id = id, qty = 1 }
      return { json = cart_view(u.email) }
    end),
    ["POST /api/checkout"] = api("customer", function(_, u)
      local view = cart_view(u.email)
      if #view.lines == 0 then return { status = 400, json = { error = "Your cart is empty." } } end
      local o = { id = next_order, customer = u.name, email = u.email, lines = view.lines,
        total = view.total, status = "Awaiting payment", token = sign(SECRET .. next_order .. os.time()) }
      next_order = next_order + 1
      orders[#orders + 1] = o
      return { status = 201, json = { id = o.id, total = o.total, token = o.token } }
    end),
    ["GET /api/orders/*"] = api(nil, function(req, u)
      local id = tonumber(req.path:match("(%d+)$"))
      for _, o in ipairs(orders) do
        if o.id == id and (o.email == u.email or u.role == "admin") then
          return { json = { id = o.id, status = o.status, total = o.total } }
        end
      end
      return { status = 404, json = { error = "No such order." } }
    end),
    ["GET /api/orders"] = api("admin", function()
      local out = {}
      for i, o in ipairs(orders) do
        out[i] = { id = o.id, customer = o.customer, lines = o.lines, total = o.total, status = o.status }
      end
      return { json = json.array(out) }
    end),
    -- The payment provider's API: reached from the pay origin, no session.
    ["POST /api/pay"] = function(req)
      local b = req.json or {}
      local card = tostring(b.card or ""):gsub("%s", "")
      if not card:match("^%d+$") or #card ~= 16 then
        return { status = 400, json = { error = "The card number must have 16 digits." } }
      end
      if type(b.name) ~= "string" or b.name == "" then
        return { status = 400, json = { error = "Enter the name on the card." } }
      end
      for _, o in ipairs(orders) do
        if o.token == b.token and o.status == "Awaiting payment" then
          o.status = "Paid"
          o.card = card:sub(-4)
          carts[o.email] = {}
          return { json = { ok = true, order = o.id, amount = money(o.total) } }
        end
      end
      return { status = 404, json = { error = "Unknown or already paid order." } }
    end,
  }
  for _, role in ipairs { "admin", "provider", "customer" } do
    routes["GET /" .. role .. "/login"] = login_page(role)
    routes["POST /" .. role .. "/login"] = login(role)
  end

  -- JSON answers go through vdx.json, so empty lists are written as [].
  for key, fn in pairs(routes) do
    routes[key] = function(req)
      local res = fn(req)
      if type(res) == "table" and res.json ~= nil then
        local headers = res.headers or {}
        headers["content-type"] = "application/json"
        return { status = res.status, headers = headers, body = assert(json.encode(res.json)) }
      end
      return res
    end
  end

  local srv = assert(vdx.serve { root = PUBLIC, port = opts.port or 0, routes = routes })
  port = assert(tonumber(srv.url:match(":(%d+)/?$")))
  local app = {
    server = srv, port = port,
    url = "http://" .. shop_host .. ":" .. port,
    pay_url = "http://" .. pay_host .. ":" .. port,
    local_url = "http://127.0.0.1:" .. port,
    browser_args = { ("--host-resolver-rules=MAP %s 127.0.0.1, MAP %s 127.0.0.1"):format(shop_host, pay_host) },
    users = { admin = "admin@market.test", provider = "pro@market.test", customer = "ann@market.test" },
    password = PASSWORD,
    orders = orders, products = products,
  }

  --- Writes a Playwright storageState file for role's demo user.
  function app:auth_file(role, path) return M.auth_file(role, path, shop_host) end

  function app:close() srv:close() end
  return app
end

return M
