-- The one road into the bridge (src/page/bridge_call.c, bridge/host/call.js,
-- bridge/src/call.js): every call gets the envelope's typed answers, the
-- calls on a frame's owner element and by reference included.
local h = require "helpers"

local function ref_of(text, line)
  return assert(text:match(line:gsub("%p", "%%%0") .. " %[ref=([%w_]+)%]"), line)
end

describe("the bridge road", function()
  local browser, srv, page

  setup(function() srv, browser, page = h.open() end)
  teardown(function() h.shut(browser, srv) end)

  before_each(function() page:navigate(srv.url .. "/road/top.html") end)

  it("answers a method the bridge does not have with UnknownMethod naming it", function()
    for _, name in ipairs { "noSuchMethod", "toString", "constructor", "version" } do
      local err = h.error_of(page.bridge, page, name, {})
      assert.equal("UnknownMethod", err.type, tostring(err))
      assert.equal(name, err.method)
      assert.equal('the bridge has no method "' .. name .. '"', err.message)
    end
    page:snapshot()
    local err = h.error_of(page.bridge, page, "noSuchMethod", { 1 }, { frame = "f1" })
    assert.equal("UnknownMethod", err.type, tostring(err))
    assert.equal("noSuchMethod", err.method)
  end)

  it("tags a frame and places a point in it by calls on the iframe element", function()
    local snap = page:snapshot()
    assert.matches('%- iframe "Inner" %[ref=e%d+%]:\n  %- button "Inside" %[ref=f1e1%]', snap.text)
    -- One bridge call on the iframe element in the main frame's bridge.
    assert.same({ x = 45, y = 126 }, page:frame_offset("f1e1", 5, 6))
    -- A new document in the parent: the owner element is found again.
    page:navigate(srv.url .. "/road/top.html")
    assert.same({ x = 45, y = 126 }, page:frame_offset("f1e1", 5, 6))
  end)

  it("sets a file input's files by reference, and keeps the bridge's error kinds", function()
    local snap = page:snapshot()
    local input, plain = ref_of(snap.text, 'button "Avatar"'), ref_of(snap.text, 'button "Plain"')
    local file = os.tmpname()
    assert.is_true(page:set_input_files(input, { file }))
    os.remove(file)
    assert.equal(1, page:evaluate("document.querySelector('input').files.length"))
    local err = h.error_of(page.set_input_files, page, plain, { "/etc/hostname" })
    assert.equal("NotFileInput", err.type, tostring(err))
    assert.equal("button", err.tag)
  end)
end)
