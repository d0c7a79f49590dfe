--- vdx.builtin.verify_rows: checks of table rows given as the outline and
-- the snapshot show them, their cells apart (`Teak Lamp 1 $30.00` or
-- `[Teak Lamp | 1 | $30.00]`), where a row's own text, as Playwright reads
-- it, runs them together ('Teak Lamp1$30.00'): each row's cells checked
-- one text each (toHaveText of getByRole('cell')).
local assertions = require "vdx.assertions"
local common = require "vdx.builtin.verify_common"

local M = {}

-- A row as given, without the brackets around its cells' list.
local function unbracketed(s)
  return (s:gsub("^%[%s*(.-)%s*%]$", "%1"))
end

--- The check of a table row's cells (t: verify_common.target's, m: its
-- facts), when text is their texts as the outline and snapshot show
-- them, apart (`Teak Lamp 1 $30.00 $30.00` or `[Teak Lamp | 1 | $30.00 |
-- $30.00]`), while the row's own text runs them together ('Teak
-- Lamp1$30.00$30.00'): toHaveText of all its cells, one text each, when
-- text gives the first two or more of them (the outline leaves out a last
-- cell of controls), else nil.  Runs DE and DI recorded the run-together
-- text.
function M.cells(page, t, m, text)
  if m.role ~= "row" then return nil end
  local f = assertions.facts(page, t.relative .. ".getByRole('cell')", { frame = t.frame, limit = 50 })
  if f.count < 2 or f.count > #f.matches then return nil end
  local cells = {}
  for i, c in ipairs(f.matches) do cells[i] = assertions.normalize(c.text) end
  local given = unbracketed(assertions.normalize(text))
  for k = #cells, 2, -1 do
    local first = { table.unpack(cells, 1, k) }
    if given == table.concat(first, " ") or given == table.concat(first, " | ") then
      return { matcher = "toHaveText", locator = t.locator .. ".getByRole('cell')", value = cells,
        positional = t.positional }
    end
  end
  return nil
end

-- A text without its spaces, brackets and bars: a row as given, or as
-- its own text runs its cells together.
local function bare(s)
  return (assertions.normalize(s):gsub("[%s|%[%]]", ""))
end

--- browser_verify_list_visible of rows (items_rel: the locator of the
-- list's items, f: their facts) given as their cells, apart: a toHaveText
-- of each row's cells, through the row's own locator, in the order
-- given, and the rows' count when every row is given.  The answer, or nil
-- when items are no rows given so (runs EC and EI wanted one array of
-- cells per row, and were told to give the run-together text).
function M.list(ctx, items_expr, items_rel, t, f, items)
  local page, steps, j = ctx:page(), {}, 1
  for i, m in ipairs(f.matches) do
    if j > #items then break end
    if m.role ~= "row" then return nil end
    local want = bare(items[j])
    if m.visible and m.ref and want ~= "" and bare(m.text):sub(1, #want) == want then
      -- (Not found by the texts it checks, as a name of them all is.)
      local said = unbracketed(items[j]):gsub("%s*|%s*", " ")
      local ok, l = pcall(assertions.locator_of, page, m.ref, nil, said)
      if not ok or not l or l.positional or not l.from_page then return nil end
      local step = M.cells(page, { relative = ("%s.nth(%d)"):format(items_rel, i - 1), locator = l.locator,
        frame = t.frame }, m, items[j])
      if not step then return nil end
      steps[#steps + 1] = step
      j = j + 1
    end
  end
  if j <= #items then return nil end
  local res = common.agreed(ctx, "browser_verify_list_visible", steps[1])
  for k = 2, #steps do common.also(ctx, res, "And", steps[k], "browser_verify_list_visible") end
  if f.count == #items and f.count <= #f.matches and ctx.session then
    -- Every row given: no other row may show beside them.
    common.also(ctx, res, "And the count", { locator = items_expr, matcher = "toHaveCount", value = #items,
      positional = t.positional }, "browser_verify_list_visible")
  end
  return res
end

return M
