--- bench/locator_dump.lua: every ref's locator, for telling whether a
-- change to the locator engine or the snapshot's reading changed any
-- answer.  For the bench's pages (shop, elements-2000, shadow, spa) and
-- every spec fixture page (spec/fixtures/*/*.html), in one browser: the
-- counts of getByRole(role) and getByRole(role, { includeHidden: true })
-- for 66 ARIA roles, then page:generate_locator(ref, { alternatives = 4 })
-- for every ref of a whole snapshot (locator, positional, each
-- alternative with its count), each call right after the snapshot as an
-- action's would be.  Pages are named by their path alone, so the dumps of
-- two checkouts compare line by line:
--
--   build/vdxlua bench/locator_dump.lua /tmp/after.txt
--   (cd ../old && build/vdxlua bench/locator_dump.lua /tmp/before.txt)
--   diff /tmp/before.txt /tmp/after.txt
--
-- About 2 minutes.  Prints the number of refs.
package.path = "bench/?.lua;" .. package.path
local vdx = require "vdx"
local fx = require "fixtures"

local OUT = arg[1]
if not OUT then
  io.stderr:write("usage: vdxlua bench/locator_dump.lua OUTFILE\n")
  os.exit(2)
end

local ROLES = { "alert", "article", "banner", "blockquote", "button", "caption", "cell", "checkbox", "code",
  "columnheader", "combobox", "complementary", "contentinfo", "definition", "deletion", "dialog", "emphasis",
  "figure", "form", "generic", "grid", "gridcell", "group", "heading", "img", "insertion", "link", "list",
  "listbox", "listitem", "main", "mark", "math", "menu", "menuitem", "meter", "navigation", "none", "option",
  "paragraph", "presentation", "progressbar", "radio", "region", "row", "rowgroup", "rowheader", "search",
  "searchbox", "separator", "slider", "spinbutton", "status", "strong", "subscript", "superscript", "switch",
  "tab", "table", "tablist", "tabpanel", "term", "textbox", "time", "tree", "treeitem" }

local srv, base = fx.serve(vdx)
local pages = {}
for _, p in ipairs { "shop.html", "elements-2000.html", "shadow.html", "spa.html" } do
  pages[#pages + 1] = { name = "/" .. p, url = base["local"] .. "/" .. p }
end
local ls = assert(io.popen("ls spec/fixtures/*/*.html"))
local cwd = assert(os.getenv("PWD"), "PWD is not set")
for f in ls:lines() do pages[#pages + 1] = { name = f, url = "file://" .. cwd .. "/" .. f } end
ls:close()

-- The count of expr's matches, or "err".
local function count(page, expr)
  local ok, f = pcall(page.bridge, page, "locatorFacts", { expr, { limit = 0 } })
  return ok and tostring(f.count) or "err"
end

local out = assert(io.open(OUT, "w"))
local browser = vdx.launch { headless = true }
local page = browser:new_page()
local refs = 0
for _, p in ipairs(pages) do
  local ok = pcall(page.navigate, page, p.url)
  local okS, snap = false, nil
  if ok then okS, snap = pcall(page.snapshot, page, { budget_tokens = 1000000 }) end
  if okS then
    out:write("## ", p.name, "\n")
    local counts = {}
    for i, r in ipairs(ROLES) do
      counts[i] = ("%s=%s/%s"):format(r, count(page, ("getByRole('%s')"):format(r)),
        count(page, ("getByRole('%s', { includeHidden: true })"):format(r)))
    end
    out:write(table.concat(counts, " "), "\n")
    for ref in snap.text:gmatch("%[ref=(f?%d*_?e%d+)%]") do
      refs = refs + 1
      local okl, l = pcall(page.generate_locator, page, ref, { alternatives = 4 })
      if okl then
        local alts = {}
        for i, a in ipairs(l.alternatives) do alts[i] = tostring(a.locator) .. "#" .. tostring(a.count) end
        out:write(ref, "\t", tostring(l.locator), "\t", tostring(l.positional), "\t", table.concat(alts, " | "), "\n")
      else
        out:write(ref, "\tERR ", tostring(l):sub(1, 80), "\n")
      end
    end
  else
    out:write("## ", p.name, " (not read)\n")
  end
end
out:close()
browser:close()
srv:close()
print("refs", refs)
