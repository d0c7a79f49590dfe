--- bench/fixtures.lua: the generated pages of the benchmark and the
-- reliability suites, as routes for vdx.serve.  Every page is built here in
-- Lua (no files on disk), so `make bench` and bench/serve_fixtures.lua
-- serve exactly the same bytes to vdxlua and to the Node peers.
--
--   /shop.html            200 product cards, a nav of 10 links, a form with
--                         5 labelled inputs and a 200-option select
--   /elements-N.html      about N elements (N = 2000, 20000, 100000)
--   /frames.html          5 nested same-origin iframes and 5 cross-origin
--                         ones (the latter on b.test: launch with
--                         --host-resolver-rules, see fixtures.RESOLVER)
--   /shadow.html          50 open shadow roots, each with a button and text
--   /spa.html             a small single-page app (history.pushState routes)
--   /huge.html?           /huge-50.html: a 50 MiB page (built on demand)
--   /hostile.html         a page that replaces DOM APIs and getBoundingClientRect
--   /dialogs.html         an alert loop
local fixtures = {}

--- The resolver rule that sends a.test and b.test to the fixture server.
fixtures.RESOLVER = "--host-resolver-rules=MAP a.test 127.0.0.1, MAP b.test 127.0.0.1"

--- The element-count pages, smallest first.
fixtures.SIZES = { 2000, 20000, 100000 }

local HEAD = [[<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>%s</title>
<style>
body { font: 14px sans-serif; margin: 0; }
nav ul { display: flex; gap: 12px; list-style: none; padding: 0; }
.grid { display: grid; grid-template-columns: repeat(4, 1fr); gap: 12px; }
.card { border: 1px solid #ccc; padding: 8px; }
.card img { width: 100%%; height: 80px; background: #eee; }
button { cursor: pointer; }
label { display: block; margin: 4px 0; }
iframe { width: 90%%; height: 160px; }
</style></head><body>
]]

local function page(title, body)
  return HEAD:format(title) .. body .. "\n</body></html>\n"
end

local NAV = { "Home", "New", "Laptops", "Phones", "Tablets", "Audio",
              "Cameras", "Deals", "Help", "Cart (0)" }

--- The 200-card shop: the page of the speed targets in issues 3 and 8.
function fixtures.shop()
  local b = { '<header><h1>Acme Shop</h1><nav aria-label="Main"><ul>' }
  for i, name in ipairs(NAV) do
    b[#b + 1] = ('<li><a href="/shop.html#c%d">%s</a></li>'):format(i, name)
  end
  b[#b + 1] = '</ul></nav></header><main><h2>Products</h2><div class="grid" id="grid">'
  for i = 1, 200 do
    local price = ("%.2f"):format((i * 37) % 1000 + 0.99)
    b[#b + 1] = ([[<div class="card" data-testid="product-card">
<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="">
<h3><a href="/shop.html#p%d">Product %d</a></h3>
<p class="price">$%s</p>
<button type="button" onclick="this.textContent='Added'">Add to Cart</button>
</div>]]):format(i, i, price)
  end
  b[#b + 1] = [[</div><h2>Checkout</h2>
<form aria-label="Checkout" onsubmit="return false">
<label for="name">Full name</label><input id="name" name="name" required>
<label for="email">Email</label><input id="email" type="email" name="email" value="a@b.c">
<label>Phone <input type="tel" name="phone"></label>
<label for="street">Street</label><input id="street" name="street">
<label for="city">City</label><input id="city" name="city">
<label for="country">Country</label><select id="country" name="country">]]
  for i = 1, 200 do
    b[#b + 1] = ('<option value="c%d"%s>Country %d</option>'):format(
      i, i == 42 and " selected" or "", i)
  end
  b[#b + 1] = [[</select>
<label><input type="checkbox" name="news" checked> Send me offers</label>
<button type="submit">Place order</button>
</form></main><footer><p>&copy; 2024 Acme Inc.</p></footer>]]
  return page("Acme Shop", table.concat(b, "\n"))
end

--- A page of about n elements: blocks of 10 elements (a section with a
-- heading, a list with a link, text and a button, and a paragraph).
function fixtures.elements(n)
  local b = { ("<h1>%d elements</h1>"):format(n) }
  local blocks = math.max(1, (n - 8) // 10)  -- html, head, meta, title, style, body, h1, main
  b[#b + 1] = "<main>"
  for i = 1, blocks do
    b[#b + 1] = ([[<section><h3>Block %d</h3><ul><li><a href="#b%d">Item %d</a></li><li><span>Value %d</span> <button>Act %d</button></li></ul><p>Text of block %d with <b>bold</b> words.</p></section>]])
      :format(i, i, i, i, i, i)
  end
  b[#b + 1] = "</main>"
  return page(("%d elements"):format(n), table.concat(b, "\n"))
end

--- The frames page: 5 nested same-origin frames (a chain) and 5
-- cross-origin frames on cross_base (http://b.test:PORT).
function fixtures.frames(cross_base)
  local b = { "<h1>Frames</h1>", '<iframe title="nest 1" src="/nest-1.html"></iframe>' }
  for i = 1, 5 do
    b[#b + 1] = ('<iframe title="cross %d" src="%s/cross-%d.html"></iframe>'):format(i, cross_base, i)
  end
  return page("Frames", table.concat(b, "\n"))
end

function fixtures.nest(d)
  local inner = d < 5 and ('<iframe title="nest %d" src="/nest-%d.html"></iframe>'):format(d + 1, d + 1) or ""
  return page("Nest " .. d, ('<h2>Nested frame %d</h2><button>Nested %d</button><a href="#n%d">link %d</a>%s')
    :format(d, d, d, d, inner))
end

--- A cross-origin frame; a 'busy' message keeps its process busy for 2 s
-- (the fault specs use it to hold a call in the middle).
function fixtures.cross(i)
  return page("Cross " .. i, ([[<h2>Cross-origin frame %d</h2><label>Field %d <input></label><button>Cross %d</button>
<script>addEventListener('message', (e) => {
  if (e.data === 'busy') { const t = Date.now() + 2000; while (Date.now() < t) {} }
});</script>]]):format(i, i, i))
end

--- 50 custom elements with open shadow roots.
function fixtures.shadow()
  return page("Shadow", [[<h1>Shadow roots</h1><div id="host"></div>
<script>
class XCard extends HTMLElement {
  constructor() {
    super();
    const r = this.attachShadow({ mode: 'open' });
    const n = this.getAttribute('n');
    r.innerHTML = `<style>:host{display:block}</style><h3>Shadow card ${n}</h3>
      <p>Price $${n}.99</p><button>Buy ${n}</button><slot></slot>`;
  }
}
customElements.define('x-card', XCard);
const host = document.getElementById('host');
for (let i = 1; i <= 50; i++) {
  const c = document.createElement('x-card');
  c.setAttribute('n', i);
  c.innerHTML = `<a href="#s${i}">Slotted ${i}</a>`;
  host.appendChild(c);
}
</script>]])
end

--- A single-page app: links change the route with history.pushState.
function fixtures.spa()
  return page("SPA", [[<nav><a href="/spa/1" data-route>One</a> <a href="/spa/2" data-route>Two</a>
<a href="/spa/3" data-route>Three</a></nav><main id="view"></main>
<script>
function render(path) {
  const n = path.split('/').pop() || '0';
  document.getElementById('view').innerHTML =
    `<h2>Route ${n}</h2><button>Route button ${n}</button><input aria-label="Route input ${n}">`;
}
window.go = (path) => { history.pushState({}, '', path); render(path); };
document.addEventListener('click', (e) => {
  const a = e.target.closest('a[data-route]');
  if (a) { e.preventDefault(); window.go(a.getAttribute('href')); }
});
window.addEventListener('popstate', () => render(location.pathname));
render(location.pathname);
</script>]])
end

--- A page whose scripts replace DOM APIs and measurements.
function fixtures.hostile()
  return page("Hostile", [[<h1>Hostile</h1><button id="b">Press</button>
<a href="#x">Link</a><input aria-label="Field">
<script>
Element.prototype.getBoundingClientRect = function () { throw new Error('no rects'); };
Element.prototype.getClientRects = function () { return []; };
Element.prototype.getAttribute = function () { return 'patched'; };
Element.prototype.querySelectorAll = function () { return []; };
Document.prototype.querySelectorAll = function () { return []; };
Document.prototype.querySelector = function () { return null; };
window.getComputedStyle = function () { throw new Error('no styles'); };
Node.prototype.contains = function () { return false; };
Object.defineProperty(Element.prototype, 'children', { get() { return []; } });
JSON.stringify = function () { return '"patched"'; };
Array.prototype.map = function () { return []; };
window.Promise = function () { throw new Error('no promises'); };
</script>]])
end

--- An alert loop (the dialog storm).
function fixtures.dialogs()
  return page("Dialogs", [[<h1>Dialogs</h1><button id="go" onclick="storm()">Storm</button>
<script>
window.storm = function () { for (let i = 0; i < 20; i++) alert('storm ' + i); };
</script>]])
end

--- A page of about mib MiB of HTML (text paragraphs).
function fixtures.huge(mib)
  local para = ("<p>" .. ("lorem ipsum dolor sit amet "):rep(36) .. "</p>\n")  -- ~1 KiB
  local n = mib * 1024
  return page("Huge", "<h1>Huge</h1><button>Top</button>\n" .. para:rep(n))
end

--- Routes for vdx.serve.  cross_base is the origin of the cross-origin
-- frames (http://b.test:PORT); since the port is known only once the
-- server listens, the frames page is built per request from its Host.
function fixtures.routes()
  local cache = {}
  local function cached(key, build)
    return function()
      local v = cache[key]
      if not v then v = build(); cache[key] = v end
      return v
    end
  end
  local r = {
    ["GET /shop.html"] = cached("shop", fixtures.shop),
    ["GET /shadow.html"] = cached("shadow", fixtures.shadow),
    ["GET /spa.html"] = cached("spa", fixtures.spa),
    ["GET /spa/*"] = cached("spa", fixtures.spa),
    ["GET /hostile.html"] = cached("hostile", fixtures.hostile),
    ["GET /dialogs.html"] = cached("dialogs", fixtures.dialogs),
    ["GET /huge-50.html"] = function() return fixtures.huge(50) end,
    ["GET /blank.html"] = function() return page("Blank", "<p>blank</p>") end,
    ["GET /frames.html"] = function(req)
      local port = (fixtures.port or "")
      return fixtures.frames("http://b.test:" .. port)
    end,
  }
  for _, n in ipairs(fixtures.SIZES) do
    r[("GET /elements-%d.html"):format(n)] = cached("e" .. n, function() return fixtures.elements(n) end)
  end
  for d = 1, 5 do
    r[("GET /nest-%d.html"):format(d)] = cached("n" .. d, function() return fixtures.nest(d) end)
    r[("GET /cross-%d.html"):format(d)] = cached("c" .. d, function() return fixtures.cross(d) end)
  end
  return r
end

--- Starts the fixture server; returns it and its base URLs
-- { local = http://127.0.0.1:P, a = http://a.test:P, b = http://b.test:P }.
-- extra (optional) adds { root = DIR, routes = { ... } } to the bench's
-- own routes (bench/serve_fixtures.lua serves the agent apps this way).
function fixtures.serve(vdx, extra)
  local routes = fixtures.routes()
  for k, v in pairs(extra and extra.routes or {}) do routes[k] = v end
  local srv = assert(vdx.serve { port = 0, routes = routes, root = extra and extra.root })
  local port = srv.url:match(":(%d+)$")
  fixtures.port = port
  return srv, { ["local"] = srv.url, a = "http://a.test:" .. port, b = "http://b.test:" .. port }
end

--- The URL of the bench page `page` on the server of base (what
-- fixtures.serve returns): a frames page on a.test, whose cross-origin
-- frames are on b.test (launch with fixtures.RESOLVER), any other on
-- 127.0.0.1.
function fixtures.url(base, page)
  return (page:match("^frames") and base.a or base["local"]) .. "/" .. page
end

return fixtures
