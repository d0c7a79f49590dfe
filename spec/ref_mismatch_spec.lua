--- spec/ref_mismatch_spec.lua: an action given a ref and an element
-- description that names another element of the same role alone refuses
-- and names that element's ref; nothing is done.  A play-test clicked
-- "Archive account" through a ref read before a reload, where it had been
-- "Export data" (refs are given anew per load), with element "Export data".
local helpers = require "helpers"

describe("an action whose ref and element disagree", function()
  local srv, call, ctx, roles

  setup(function()
    srv = helpers.serve {
      -- The two buttons swap places with ?swap, as a re-sorted menu.
      ["GET /acct"] = function(req)
        local export = [[<button onclick="out.textContent = 'exported'">Export data</button>]]
        local archive = [[<button onclick="out.textContent = 'archived'">Archive account</button>]]
        local swap = (req.query or ""):find("swap", 1, true)
        return ([[<title>Account</title><h1>Lamp</h1>%s%s<p role="status" id="out">idle</p>]])
          :format(swap and archive or export, swap and export or archive)
      end,
      -- The only link is inside a component's shadow root.
      ["GET /shadow"] = function()
        return [[<title>Shop</title><x-card></x-card><script>customElements.define('x-card', class extends HTMLElement {
          connectedCallback() { this.attachShadow({ mode: 'open' }).innerHTML = '<a href="#lamp">Details</a>'; } });
          </script>]]
      end,
      ["GET /bare"] = function() return "<title>Bare</title><p>Nothing here</p>" end,
      -- A field and a button that share a word.
      ["GET /form"] = function()
        return [[<title>New</title><label>Product name <input id=n></label>
          <button onclick="out.textContent = 'added ' + n.value">Add product</button><p role="status" id="out">idle</p>]]
      end,
    }
    call, ctx, roles = helpers.tool_session()
  end)

  teardown(function()
    if roles then roles:close() end
    if srv then srv:close() end
  end)

  -- The ref of the button named name in a fresh snapshot.
  local function ref_of(name)
    local _, text = call("browser_snapshot", {})
    return assert(text:match('button "' .. name .. '" %[ref=(e%d+)%]'), text)
  end

  it("refuses a ref read before the page loaded again, and names the ref the description has now", function()
    call("browser_navigate", { url = srv.url .. "/acct" })
    local old = ref_of("Export data")
    call("browser_navigate", { url = srv.url .. "/acct?swap" })
    local now = ref_of("Export data")
    assert.are_not.equal(old, now)
    local res, text = call("browser_click", { ref = old, element = "Export data button" })
    assert.is_true(res.isError, text)
    assert.truthy(text:find(('ref %s is button "Archive account", not "Export data button"'):format(old), 1, true), text)
    assert.truthy(text:find(("act again with ref %s"):format(now), 1, true), text)
    local _, snap = call("browser_snapshot", {})
    assert.truthy(snap:find('status [ref=e%d+]: idle') or snap:find("idle", 1, true), snap)
    assert.is_nil(snap:find("archived", 1, true), snap)
    -- The ref the error names does what was meant.
    local ok, done = call("browser_click", { ref = now, element = "Export data button" })
    assert.is_not_true(ok.isError, done)
    assert.truthy(done:find("exported", 1, true), done)
  end)

  it("names the links a description missed, those in shadow roots too, and no empty list", function()
    call("browser_navigate", { url = srv.url .. "/shadow" })
    local res, text = call("browser_click", { element = "the Buy button" })
    assert.is_true(res.isError, text)
    assert.truthy(text:find("Links on the page: href=" .. srv.url .. "/shadow#lamp, text=Details", 1, true), text)
    call("browser_navigate", { url = srv.url .. "/bare" })
    res, text = call("browser_click", { element = "the Buy button" })
    assert.is_true(res.isError, text)
    assert.is_nil(text:find("Links on the page", 1, true), text)
  end)

  it("acts when the description shares a word with the element or names nothing else of its role", function()
    call("browser_navigate", { url = srv.url .. "/acct" })
    local archive = ref_of("Archive account")
    -- Loose words, a card's heading for its button: no other button is meant.
    for _, said in ipairs { "the archive button", "the submit button", "Lamp" } do
      local res, text = call("browser_click", { ref = archive, element = said })
      assert.is_not_true(res.isError, said .. ": " .. text)
      assert.truthy(text:find("archived", 1, true), said .. ": " .. text)
      call("browser_navigate", { url = srv.url .. "/acct" })
    end
  end)

  it("refuses a description that is the whole name of another control, though it shares a word with the ref's", function()
    call("browser_navigate", { url = srv.url .. "/form" })
    local _, snap = call("browser_snapshot", {})
    local field = assert(snap:match('textbox "Product name" %[ref=(e%d+)%]'), snap)
    local button = assert(snap:match('button "Add product" %[ref=(e%d+)%]'), snap)
    -- A probe of mine clicked the field's ref saying "Add product".
    local res, text = call("browser_click", { ref = field, element = "Add product" })
    assert.is_true(res.isError, text)
    assert.truthy(text:find(('ref %s is textbox "Product name", not "Add product": button "Add product" is %s')
      :format(field, button), 1, true), text)
    -- A description that says the field itself still acts.
    res, text = call("browser_type", { ref = field, element = "the Product name field", text = "Lamp" })
    assert.is_not_true(res.isError, text)
    res, text = call("browser_click", { ref = button, element = "the Add product button" })
    assert.is_not_true(res.isError, text)
    assert.truthy(text:find("added Lamp", 1, true), text)
  end)
end)
