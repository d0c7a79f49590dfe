-- Links and buttons get a ref only when their box is not empty.  The walk
-- proves that box from the user-agent style where the author's sheets
-- cannot change it (bridge/src/geometry.js) and reads it everywhere else:
-- each page below breaks the user-agent geometry one way, and every link
-- and button must get a ref exactly when the browser's own box for it is
-- non-empty.
local h = require "helpers"

local LINKS = [[<p><a href="#1">L1</a> <button>B1</button></p>]]

-- { what, style, body, { [name] = has a non-empty box } }
local CASES = {
  { "user-agent geometry", "", LINKS, { L1 = true, B1 = true } },
  { "an ancestor scaled to nothing by a rule", "div{transform:scale(0)}",
    "<div>" .. LINKS .. "</div>", { L1 = false, B1 = false } },
  { "an ancestor scaled to nothing by its inline style", "",
    [[<div style="transform:scale(0)">]] .. LINKS .. "</div>", { L1 = false, B1 = false } },
  { "a font size of zero", "div{font-size:0}", "<div>" .. LINKS .. "</div>",
    { L1 = false, B1 = true } },
  { "a first line in a font size of zero", "p::first-line{font-size:0}", LINKS,
    { L1 = false, B1 = true } },
  { "a button without padding or border", "button{padding:0;border:0}",
    [[<p><button aria-label="B2"></button><button>B3</button></p>]], { B2 = false, B3 = true } },
  { "a grid parent with a track of zero width", ".g{display:grid;grid-template-columns:0px}",
    [[<div class="g"><a href="#1">L1</a></div><div class="g"><button>B1</button></div>]],
    { L1 = false, B1 = true } },
  { "a link without printable text", "", [[<p><a href="#1" aria-label="L3">&#8203;</a></p>]],
    { L3 = false } },
  { "letter spacing that folds the text", "p{letter-spacing:-40px}", LINKS,
    { L1 = false, B1 = true } },
  { "a zoom on an ancestor", "div{zoom:0.001}", "<div>" .. LINKS .. "</div>",
    { L1 = false, B1 = true } },
  { "a pseudo-element rule", "a::before{content:'';transform:scale(0)}", LINKS,
    { L1 = true, B1 = true } },
  { "a rule on the links themselves", "a{display:inline-block;width:0}", LINKS,
    { L1 = false, B1 = true } },
}

describe("the snapshot's refs on links and buttons", function()
  local browser, srv, page

  setup(function()
    local routes = {}
    for i, c in ipairs(CASES) do
      routes["GET /geometry/" .. i] = function()
        return "<!doctype html><meta charset=utf-8><style>" .. c[2] .. "</style><body>" .. c[3]
      end
    end
    srv, browser, page = h.open(routes)
  end)

  teardown(function() h.shut(browser, srv) end)

  for i, c in ipairs(CASES) do
    it("follow the browser's box: " .. c[1], function()
      page:navigate(srv.url .. "/geometry/" .. i)
      local boxes = page:evaluate([[Object.fromEntries([...document.querySelectorAll('a[href],button')]
        .map(e => { const r = e.getBoundingClientRect();
          return [e.getAttribute('aria-label') || e.textContent, r.width > 0 && r.height > 0]; }))]])
      -- The page breaks the geometry as the case says.
      assert.same(c[4], boxes)
      local text = page:snapshot().text
      local refs = {}
      for name in pairs(c[4]) do
        local line = text:match('[^\n]*"' .. name .. '"[^\n]*')
        assert.truthy(line, name .. " is not in the snapshot:\n" .. text)
        refs[name] = line:find("[ref=", 1, true) ~= nil
      end
      assert.same(c[4], refs)
    end)
  end
end)
