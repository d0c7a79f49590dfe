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

-- "path: data-testname" -> why the case is not counted.
local EXCLUDED = {}
local function exclude(path, why, ...)
  for _, name in ipairs { ... } do EXCLUDED[path .. ": " .. name] = why end
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
exclude("accname/name/comp_name_from_content.html", "content set on the element, not a pseudo-element",
  "button name from fallback content with ::before and ::after",
  "heading name from fallback content with ::before and ::after",
  "link name from fallback content with ::before and ::after")
-- accname 1.2 takes the title last (2I, after name from content); the newer
-- upstream revision of this page expects a link's contents to win over its
-- title ("link with text with tooltip label and contents"), and Chromium
-- agrees.
exclude("accname/name/comp_tooltip.html", "superseded upstream: contents win over the title",
  "link with text with tooltip label", "button with tooltip label", "summary with tooltip label")
-- Playwright's copy of comp_text_node.html expects the no-break spaces at
-- the edges of a content name trimmed; web-platform-tests corrected those
-- five cases to keep them (accname trims ASCII white space only), as
-- Chromium does.
exclude("accname/name/comp_text_node.html", "superseded upstream: edge no-break spaces are kept",
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
local sum, excluded = { all = {}, counted = {} }, 0
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
      if EXCLUDED[path .. ": " .. c.label] then
        excluded = excluded + 1
        if verbose then print(("%-8s %s: %s: not counted (%s)"):format("", path, c.label,
          EXCLUDED[path .. ": " .. c.label])) end
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
if excluded > 0 then
  report("all", "every expectation:")
  report("counted", ("counted (%d cases left out, EXCLUDED in build-aux/fidelity.lua):"):format(excluded))
else
  report("counted", "every expectation:")
end
