-- build-aux/fidelity.lua -- measures vdxlua's roles, names and descriptions
-- against the expectations pages state (data-expectedrole,
-- data-expectedlabel, data-expecteddescription: the attributes of the
-- public accname, html-aam and wai-aria conformance tests), beside what
-- Chromium's own accessibility tree reports for the same elements.
--
--   build/vdxlua build-aux/fidelity.lua [-- -v] ROOT [SUBDIR...]
--
-- Every *.html under ROOT (or under each ROOT/SUBDIR) is served from ROOT,
-- so pages find their own scripts and styles, and read once; a test name
-- a page states twice for the same kind counts once.  Names are compared
-- as the public tests' aria-utils.js compares them (ASCII white space
-- collapsed and trimmed).  -v lists each case either engine gets wrong.  For the public tests, ROOT is a
-- web-platform-tests checkout and the SUBDIRs accname, html-aam and
-- wai-aria.
--
-- On the public tests a few cases are not counted, each listed in
-- EXCLUDED with the reason; the run prints the figures both ways, every
-- expectation and the counted ones.  A case is left out only when the page
-- itself is at fault: the markup cannot produce the expectation in any
-- engine, the page names another case's expectation, or the newer upstream
-- revision of the page changed the expectation to what the spec says.
-- Cases where vdxlua follows the spec or another page against the page
-- are counted, and fail.
package.path = "spec/?.lua;" .. package.path
local vdx = require "vdx"
local fidelity = require "fidelity"

-- "path: data-testname" -> { why = the reason the case is not counted,
-- expected = the expectation at fault (any, if nil), only = a JavaScript
-- test of the case's element `e` that holds where the page is at fault }.
-- Playwright's copy of the accname tests keeps the upstream paths and test
-- names, in revisions of its own: expected and only keep an exclusion to
-- the revision that is at fault.
local EXCLUDED = {}
local function exclude(path, why, ...)
  local opts, names = {}, { ... }
  if type(why) == "table" then opts, why = why, why[1] end
  for _, name in ipairs(names) do
    EXCLUDED[path .. ": " .. name] = { why = why, expected = opts.expected, only = opts.only }
  end
end
-- Why the case c of the page at path is not counted, or nil.
local function excluded(page, path, c)
  local e = EXCLUDED[path .. ": " .. c.label]
  if not e or (e.expected and e.expected ~= c.expected) then return nil end
  if e.only and not page:evaluate(("((e) => %s)(document.querySelectorAll(%q)[%d])")
      :format(e.only, fidelity.SELECTOR, c.index - 1)) then return nil end
  return e.why
end
-- The page gives two elements id="span4": aria-labeledby="span4" reaches
-- the first, a visibility:hidden "label", so the name is "label", not the
-- "foo" the page expects.  Chromium's baseline (comp_labelledby-expected.txt)
-- expects this subtest to fail.
exclude("accname/name/comp_labelledby.html", "duplicate id in the page",
  "button's hidden referenced name (visibility:hidden) with hidden aria-labeledby traversal falls back to aria-label")
-- The page sets `content: "x" / "alt"` on the element itself, not on a
-- pseudo-element, and two such classes on one element override each other:
-- no engine renders strings there, and one rule cannot give both texts.
exclude("accname/name/comp_name_from_content.html", { "content set on the element, not a pseudo-element",
    only = "getComputedStyle(e, '::before').content === 'none'" },
  "button name from fallback content with ::before and ::after",
  "heading name from fallback content with ::before and ::after",
  "link name from fallback content with ::before and ::after")
-- The link's aria-labelledby names "nested_image_label3", but the image
-- the case is about is "nested_image_label_3": the reference reaches no
-- element, so the link is named by its content and the heading is "link
-- link", in any engine (Chromium says so too).  Playwright lists the case
-- as failing.
exclude("accname/name/comp_name_from_content.html", "aria-labelledby names a missing id",
  "heading with link referencing image using aria-labelledby, that in turn references text element via aria-labelledby")
-- accname 1.2 takes the title last (2I, after name from content); the newer
-- upstream revision of this page expects a link's contents to win over its
-- title ("link with text with tooltip label and contents"), and Chromium
-- agrees.
exclude("accname/name/comp_tooltip.html", { "superseded upstream: contents win over the title", expected = "title" },
  "link with text with tooltip label", "button with tooltip label", "summary with tooltip label")
-- Playwright's copy of comp_tooltip.html expects an image with an empty
-- alt to be named by its title; upstream moved that case to
-- comp_tooltip.tentative.html, expecting no name (an empty alt marks the
-- image decorative), as Chromium says.
exclude("accname/name/comp_tooltip.html", "superseded upstream: an empty alt gives no name",
  "img with tooltip label with empty alt")
-- Playwright's copy of comp_text_node.html expects the no-break spaces at
-- the edges of a content name trimmed; web-platform-tests corrected those
-- five cases to keep them (accname trims ASCII white space only), as
-- Chromium does.
exclude("accname/name/comp_text_node.html", { "superseded upstream: edge no-break spaces are kept",
    only = [[!/^\u00a0|\u00a0$/.test(e.getAttribute('data-expectedlabel'))]] },
  "span[role=button] with text node, with leading/trailing non-breaking space",
  "div[role=heading] with text node, with leading/trailing non-breaking space",
  "button with text node, with leading/trailing non-breaking space",
  "heading with text node, with leading/trailing non-breaking space",
  "link with text node, with leading/trailing non-breaking space")
-- Two links with the invalid roles "&amp" and "&lt" expect "navigation",
-- the expectation of the <nav> cases above them: an invalid role leaves the
-- element's own role, link, and Chromium reports link too.
exclude("wai-aria/role/invalid-roles.html", "the <nav> cases' expectation, copied onto links",
  "link with role set to ampersand character", "link with role set to less than angle bracket character")
-- The role capitalization cases expect the role "indeterminate", which is
-- no role: the pages say these subtests "should fail in order to observe
-- role return values", and every engine fails them.
exclude("wai-aria/role/roles.html", "expects no role on purpose (\"indeterminate\")",
  "div[role=hEaDiNG]", "nav[role=GROUP]", "button[role=Link]")
exclude("wai-aria/role/fallback-roles.html", "expects no role on purpose (\"indeterminate\")",
  "div[role=foo Link] with tabindex=0, illegal role and capitalized fallback role, has Link role",
  "button[role=foo Link] with illegal role and capitalized fallback, has Link role",
  "nav[role=foo GROUP] with illegal role and all upper case fallback, has group role",
  "div[role=foo ReGiOn] with illegal role and alternating case fallback, has region role",
  "div[role=ReGiOn foo,aria-label] with alternating case role and illegal fallback role, has region role",
  "div[role=BUTTON LINK] with tabindex=0", "div[role=ReGiOn group]",
  "div[role=ReGiOn group] with aria-label", "div[role=buTtOn] ignoring line break")

local verbose, args = false, {}
for _, a in ipairs(arg) do
  if a == "-v" then verbose = true else args[#args + 1] = a end
end
local root = table.remove(args, 1)
if not root then
  io.stderr:write("usage: build/vdxlua build-aux/fidelity.lua [-v] ROOT [SUBDIR...]\n")
  os.exit(2)
end
if #args == 0 then args[1] = "." end

-- sum[basis][engine] = { total = {kind = n}, right = {kind = n} }, basis
-- "all" (every expectation) or "counted" (EXCLUDED left out).
local sum, nexcluded = { all = {}, counted = {} }, 0
local function add(basis, engine, total, right)
  sum[basis][engine] = sum[basis][engine] or { total = {}, right = {} }
  local s = sum[basis][engine]
  for k, n in pairs(total) do
    s.total[k] = (s.total[k] or 0) + n
    s.right[k] = (s.right[k] or 0) + right[k]
  end
end

local browser <close> = vdx.launch {}
local page = browser:new_page()
local srv = vdx.serve { root = root, port = 0 }
for _, sub in ipairs(args) do
  local p = io.popen("cd '" .. root .. "' && find '" .. sub .. "' -name '*.html' | sort")
  for file in p:lines() do
    local path = file:gsub("^%./", "")
    page:navigate(srv.url .. "/" .. path)
    local found, count = fidelity.cases(page)
    -- Each check once: a page that states the same test name twice for
    -- the same kind (a copied line) runs one test under that name.
    local all, cases, seen = {}, {}, {}
    for _, c in ipairs(found) do
      local key = c.label .. "\0" .. c.what
      if not seen[key] then
        seen[key] = true
        all[#all + 1] = c
      end
    end
    for _, c in ipairs(all) do
      local why = excluded(page, path, c)
      if why then
        nexcluded = nexcluded + 1
        if verbose then print(("%-8s %s: %s: not counted (%s)"):format("", path, c.label, why)) end
      else
        cases[#cases + 1] = c
      end
    end
    if #all > 0 then
      for _, engine in ipairs { "vdx", "chromium" } do
        local items = engine == "vdx" and fidelity.vdx(page, count) or fidelity.chromium(page)
        local _, total, right = fidelity.compare(all, items)
        add("all", engine, total, right)
        local wrong
        wrong, total, right = fidelity.compare(cases, items)
        add("counted", engine, total, right)
        if verbose then
          for _, w in ipairs(wrong) do print(("%-8s %s: %s"):format(engine, path, w)) end
        end
      end
    end
  end
  p:close()
end
srv:close()

local function report(basis, title)
  print(title)
  print(("%-12s %18s %18s"):format("", "vdxlua", "chromium AX tree"))
  for _, what in ipairs { "role", "name", "description" } do
    local cells = {}
    for _, engine in ipairs { "vdx", "chromium" } do
      local s = sum[basis][engine]
      local t, r = s and s.total[what] or 0, s and s.right[what] or 0
      cells[#cells + 1] = t == 0 and "-" or ("%d/%d %6.2f%%"):format(r, t, 100 * r / t)
    end
    print(("%-12s %18s %18s"):format(what, cells[1], cells[2]))
  end
end
if nexcluded > 0 then
  report("all", "every expectation:")
  report("counted", ("counted (%d cases left out, EXCLUDED in build-aux/fidelity.lua):"):format(nexcluded))
else
  report("counted", "every expectation:")
end
