-- The snapshot's short roads against the long ones, byte for byte.
--
-- Style: the walk reads cursor, pointer-events and visibility only for the
-- elements a rule, an inline style, a presentation attribute or the UA
-- sheet may target, and of those only what the rules set.  A rule `* { visibility:
-- revert-layer }` in a layer of its own changes no element's style (it
-- reverts to what the cascade says without it) but makes every element
-- one a rule may target, so the same page then gets a full read per
-- element.
--
-- A big page (20,000 elements in blocks of a heading, a list with a link,
-- text and a button, and a paragraph, under `button { cursor: pointer }`)
-- takes every short road: a rule that sets only the cursor, boxes known
-- without a read, leaf text read in one call, links, headings and buttons
-- named from the text the walk read.  Three changes that alter nothing the page shows close them: the
-- layered rule above, a comment (the walk then reads named leaves node by
-- node) and a `::before` rule that matches nothing (every name then takes
-- the full computation).
local h = require "helpers"

local BLOCKS = 2000

local function big_page()
  local b = { [[<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Big</title>
<style>body { font: 14px sans-serif; } button { cursor: pointer; }</style></head><body><main>]] }
  for i = 1, BLOCKS do
    b[#b + 1] = ([[<section><h3>Block %d</h3><ul><li><a href="#b%d">Item %d</a></li><li><span>Value %d</span> ]] ..
      [[<button>Act %d</button></li></ul><p>Text of block %d with <b>bold</b> words.</p></section>]])
      :format(i, i, i, i, i, i)
  end
  b[#b + 1] = "</main></body></html>"
  return table.concat(b, "\n")
end

local LONG_ROADS = [[(() => {
  const s = document.createElement('style');
  s.textContent = '@layer vdx-full-read { * { visibility: revert-layer; } } .vdx-none::before { content: "x"; }';
  document.head.append(s);
  document.body.append(document.createComment('a comment'));
  return true;
})()]]

describe("the snapshot's short roads", function()
  local browser, srv, page

  setup(function()
    local body = big_page()
    srv, browser, page = h.open { ["GET /big"] = function() return body end }
  end)

  teardown(function() h.shut(browser, srv) end)

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

  it("read the cursor a rule alone sets as a full read does", function()
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

  it("give a big page the text the long ones give", function()
    page:navigate(srv.url .. "/big")
    local short = page:snapshot { budget_tokens = 10000000 }
    -- main, then per block a list, a link, the list item that holds more
    -- than one widget, and a button.
    assert.equal(4 * BLOCKS + 1, short.ref_count)
    assert.is_false(short.truncated)
    assert.matches('\n  %- heading "Block 2000" %[level=3%]\n  %- list %[ref=e7998%]:\n    %- listitem:\n' ..
      '      %- link "Item 2000" %[ref=e7999%]:\n        %- /url: "#b2000"\n    %- listitem %[ref=e8000%]:\n' ..
      '      %- text: Value 2000\n      %- button "Act 2000" %[ref=e8001%]\n' ..
      '  %- paragraph: Text of block 2000 with bold words%.\n$', short.text)
    assert.is_true(page:evaluate(LONG_ROADS))
    local long = page:snapshot { budget_tokens = 10000000 }
    assert.equal(#short.text, #long.text)
    assert.equal(short.text, long.text)
    -- A budgeted snapshot is the whole text's first lines.
    local cut = page:snapshot()
    assert.is_true(cut.truncated)
    local body = cut.text:gsub("[^\n]*\n$", "")
    assert.equal(short.text:sub(1, #body), body)
  end)
end)
