-- tools/fidelity.lua -- measures vdxlua's roles, names and descriptions
-- against the expectations pages state (data-expectedrole,
-- data-expectedlabel, data-expecteddescription: the attributes of the
-- public accname, html-aam and wai-aria conformance tests), beside what
-- Chromium's own accessibility tree reports for the same elements.
--
--   build/vdxlua tools/fidelity.lua [-v] DIR...
--
-- Every *.html under each DIR (found with `find`) is served from DIR and
-- read once.  -v lists each case either engine gets wrong.
package.path = "spec/?.lua;" .. package.path
local vdx = require "vdx"
local fidelity = require "fidelity"

local verbose, dirs = false, {}
for _, a in ipairs(arg) do
  if a == "-v" then verbose = true else dirs[#dirs + 1] = a end
end
if #dirs == 0 then
  io.stderr:write("usage: build/vdxlua tools/fidelity.lua [-v] DIR...\n")
  os.exit(2)
end

local sum = {}
local function add(engine, what, total, right)
  sum[engine] = sum[engine] or { total = {}, right = {} }
  local s = sum[engine]
  for k, n in pairs(total) do
    s.total[k] = (s.total[k] or 0) + n
    s.right[k] = (s.right[k] or 0) + right[k]
  end
end

local browser <close> = vdx.launch {}
local page = browser:new_page()
for _, dir in ipairs(dirs) do
  local srv = vdx.serve { root = dir, port = 0 }
  local p = io.popen("cd '" .. dir .. "' && find . -name '*.html' | sort")
  for file in p:lines() do
    local path = file:sub(3)
    page:navigate(srv.url .. "/" .. path)
    local cases, count = fidelity.cases(page)
    if #cases > 0 then
      for _, engine in ipairs { "vdx", "chromium" } do
        local items = engine == "vdx" and fidelity.vdx(page, count) or fidelity.chromium(page)
        local wrong, total, right = fidelity.compare(cases, items)
        add(engine, path, total, right)
        if verbose then
          for _, w in ipairs(wrong) do print(("%-8s %s: %s"):format(engine, path, w)) end
        end
      end
    end
  end
  p:close()
  srv:close()
end

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
