-- The walk's style shortcuts against a full style read.  The walk reads
-- cursor, pointer-events and visibility only for the elements a rule, an
-- inline style, a presentation attribute or the UA sheet may target, and
-- the cursor alone, where a rule sets nothing else, only where it can
-- change the text.  A rule `* { visibility: revert-layer }` in a layer of
-- its own changes no element's style (it reverts to what the cascade says
-- without it) but makes every element one a rule may target, so the same
-- page then gets a full read per element: both texts must be the same
-- bytes.
local vdx = require "vdx"
local h = require "helpers"

describe("the snapshot's style shortcuts", function()
  local browser, srv, page

  setup(function()
    srv = h.serve()
    browser = vdx.launch {}
    page = browser:new_page()
  end)

  teardown(function()
    if browser then browser:close() end
    if srv then srv:close() end
  end)

  local FULL_READ = [[(() => { const s = document.createElement('style');
    s.textContent = '@layer vdx-full-read { * { visibility: revert-layer; } }'; document.head.append(s); return true; })()]]

  -- The snapshot of the page at path as it is, and with every element's
  -- style read.
  local function both(path)
    page:navigate(srv.url .. path)
    local short = page:snapshot { budget_tokens = 100000 }
    assert.is_true(page:evaluate(FULL_READ))
    return short, page:snapshot { budget_tokens = 100000 }
  end

  it("print what a full style read per element prints", function()
    local short, full = both("/snapshot/styles.html")
    assert.equal(full.text, short.text)
    assert.equal(0, short.unmeasurable)
  end)

  it("read a cursor that a rule alone sets where it changes the text", function()
    local short, full = both("/snapshot/cursor.html")
    assert.equal(full.text, short.text)
    -- A pointer widget holding text keeps its one ref; a pointer inside a
    -- pointer widget gets none; a pointer inside a default link, or under
    -- a default element, is the outermost and gets its own; no events, no
    -- ref.
    local text = ("\n" .. short.text):gsub(" %[ref=[%w_]+%]", "%%")
    assert.matches('\n%- button "Leaf pointer"%%\n', text)
    assert.matches('\n%- button "Inner pointer"%%\n', text)
    assert.matches('\n%- link "Link with a pointer inside"%%:\n  %- /url: "#d"\n  %- generic%%: Link with a pointer inside\n', text)
    assert.matches('\n%- generic%%: Pointer under default\n', text)
    assert.matches('\n%- button "Role button"%%\n', text)
    assert.matches('\n%- generic%%:\n  %- button "Default in pointer"%%\n  %- text: same pointer\n', text)
    assert.matches('\n%- generic%%: Pointer card\n', text)
    assert.matches('\n%- button "No events"\n', text)
    assert.matches('\n%- generic%%: Shadow pointer\n%- button "Shadow leaf"%%', text)
  end)
end)
