-- The options of a list an action opened.  A picker whose options exist
-- only while it is open (a country combobox) shows in the action's report
-- as one folded line, `listbox "Countries" [options=21]`: the snapshot
-- folds a list of more than snapshot.FOLD_OPTIONS options.  The agent
-- opened it to choose one, so the report lists them, with their refs,
-- and spares the call that would read them.

local vdx = require "vdx"
local snapshot = require "vdx.snapshot"

local opened_options = {}

--- How many options the report shows of a list it opened; the rest are
-- counted, and browser_find reads any of them.
opened_options.SHOWN = 30

-- Lists unfolded in one report, at most (a page that opens many at once
-- gets the first ones).
local LISTS = 2

-- The option lines under the line at index i of lines (deeper than it).
local function children(lines, i)
  local indent = #lines[i]:match("^ *")
  local out = {}
  for j = i + 1, #lines do
    if #lines[j]:match("^ *") <= indent then break end
    out[#out + 1] = lines[j]
  end
  return out
end

-- The option lines of the list whose ref is ref, read again unfolded;
-- nil when it cannot be read.
local function unfolded(page, ref)
  local ok, snap = pcall(snapshot.take, page, { root = ref, max_options = snapshot.ROOT_OPTIONS,
    budget_tokens = 4000 }, nil, nil, true)
  if not ok and vdx.is_error(snap, "Cancelled") then error(snap, 0) end
  return ok and snap.lines and #snap.lines > 1 and children(snap.lines, 1) or nil
end

--- opened_options.lines(page, d) -> the lines that list the options of
-- each listbox d (a snapshot_diff comparison) added folded
-- (`[options=N]`), at most SHOWN of each, under a line that names the
-- list; {} when none.  A native select's options are not listed:
-- browser_select_option takes an option's label, and lists them when it
-- misses.
function opened_options.lines(page, d)
  local out, lists = {}, 0
  for _, e in ipairs(d.added) do
    local count = e.role == "listbox" and e.ref and tonumber(e.content:match(" %[options=(%d+)%]"))
    if count and lists < LISTS then
      local kids = unfolded(page, e.ref)
      if kids then
        lists = lists + 1
        local indent = #kids[1]:match("^ *")
        out[#out + 1] = ("Options of %s%s (%d):"):format(e.role, e.name and (' "' .. e.name .. '"') or "", count)
        for k = 1, math.min(#kids, opened_options.SHOWN) do
          out[#out + 1] = kids[k]:sub(indent + 1)
        end
        if #kids > opened_options.SHOWN then
          out[#out + 1] = ("… %d more (browser_find role=option name=… finds one)"):format(#kids - opened_options.SHOWN)
        end
      end
    end
  end
  return out
end

return opened_options
