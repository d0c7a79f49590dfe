-- build-aux/fidelity.lua -- measures vdxlua's roles, names and descriptions
-- against the expectations pages state (data-expectedrole,
-- data-expectedlabel, data-expecteddescription: the attributes of the
-- public accname, html-aam and wai-aria conformance tests), beside what
-- Chromium's own accessibility tree reports for the same elements.
--
--   build/vdxlua build-aux/fidelity.lua [-v] ROOT [SUBDIR...]
--
-- Every *.html under ROOT (or under each ROOT/SUBDIR) is served from ROOT,
-- so pages find their own scripts and styles, and read once.  -v lists each
-- case either engine gets wrong.  For the public tests, ROOT is a
-- web-platform-tests checkout and the SUBDIRs accname, html-aam and
-- wai-aria.
--
-- On the public tests a few cases are not counted, each listed in EXCLUDED
-- with the reason; the run prints how many it left out.  A case is left
-- out only when Chromium's own baseline for that test file expects it to
-- fail for a fault of the page itself; every other case, including those
-- where vdxlua follows the spec against the page, is counted.
package.path = "spec/?.lua;" .. package.path
local vdx = require "vdx"
local fidelity = require "fidelity"

-- "path: data-testname" -> why the case is not counted.
local EXCLUDED = {
  -- The page gives two elements id="span4": aria-labeledby="span4" reaches
  -- the first, a visibility:hidden "label", so the name is "label", not the
  -- "foo" the page expects.  Chromium's baseline
  -- (comp_labelledby-expected.txt) expects this subtest to fail.
  ["accname/comp_labelledby.html: button's hidden referenced name (visibility:hidden) " ..
    "with hidden aria-labeledby traversal falls back to aria-label"] = "duplicate id in the page",
}

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

local sum, excluded = {}, 0
local function add(engine, total, right)
  sum[engine] = sum[engine] or { total = {}, right = {} }
  local s = sum[engine]
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
    local all, count = fidelity.cases(page)
    local cases = {}
    for _, c in ipairs(all) do
      if EXCLUDED[path .. ": " .. c.label] then
        excluded = excluded + 1
        if verbose then print(("%-8s %s: %s: not counted (%s)"):format("", path, c.label,
          EXCLUDED[path .. ": " .. c.label])) end
      else
        cases[#cases + 1] = c
      end
    end
    if #cases > 0 then
      for _, engine in ipairs { "vdx", "chromium" } do
        local items = engine == "vdx" and fidelity.vdx(page, count) or fidelity.chromium(page)
        local wrong, total, right = fidelity.compare(cases, items)
        add(engine, total, right)
        if verbose then
          for _, w in ipairs(wrong) do print(("%-8s %s: %s"):format(engine, path, w)) end
        end
      end
    end
  end
  p:close()
end
srv:close()

if excluded > 0 then print(("%d cases not counted (EXCLUDED in build-aux/fidelity.lua)"):format(excluded)) end
print(("%-12s %18s %18s"):format("", "vdxlua", "chromium AX tree"))
for _, what in ipairs { "role", "name", "description" } do
  local cells = {}
  for _, engine in ipairs { "vdx", "chromium" } do
    local s = sum[engine]
    local t, r = s and s.total[what] or 0, s and s.right[what] or 0
    cells[#cells + 1] = t == 0 and "-" or ("%d/%d %5.1f%%"):format(r, t, 100 * r / t)
  end
  print(("%-12s %18s %18s"):format(what, cells[1], cells[2]))
end
