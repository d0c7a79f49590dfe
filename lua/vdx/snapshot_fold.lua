--- vdx.snapshot_fold: a snapshot cut at a depth (a look over the page's
-- parts) with each long run of alike siblings told in one line: the
-- long guide's 150 sections, the shop's 200 cards.  Run ER read the
-- guide's whole snapshot twice (123,138 characters) to learn that it is
-- a contents list and 150 sections alike; at depth 2 that takes a few
-- lines now.  Only the text changes: every folded element keeps its ref,
-- and browser_find or a snapshot of one part reads it.
local clip = require "vdx.clip"

local fold = {}

--- A run of more than this many alike siblings is folded.
fold.RUN = 4
--- How many of a folded run are shown whole before its one line.
fold.SHOWN = 2

--- The nesting level of a snapshot line (two spaces a level) and what
-- follows its "- ", or nil for a line that is no element's.
function fold.level_of(line)
  local lead, rest = line:match("^( *)%- (.*)$")
  if not lead then return nil end
  return #lead // 2, rest
end
local level_of = fold.level_of

-- The role of a line's element ("region", "/url" for a property line).
local function role_of(rest)
  return rest:match("^'?(/?[%w]+)") or rest
end

-- The block of the element on line i (at level lev): its end (the index
-- past its last line), its kind (its role and its first child's: what
-- makes two sections or cards alike whatever their titles and extras;
-- nil for an element that holds nothing, such as a form's fields, which
-- are no run to fold) and its shape (its children's roles).
local function block(lines, i, lev)
  local _, rest = level_of(lines[i])
  local kids = {}
  local j = i + 1
  while j <= #lines do
    local l, r = level_of(lines[j])
    if l == nil or l <= lev then break end
    if l == lev + 1 then kids[#kids + 1] = role_of(r) end
    j = j + 1
  end
  local kind = (kids[1] or rest:find(" %[%+%d+%]")) and (role_of(rest) .. " " .. (kids[1] or "")) or nil
  return j, kind, table.concat(kids, ", ")
end

-- What tells a block apart: its element's name, else its first child's
-- name or text ("Product 3" of a card whose heading holds it), with the
-- first ref of the block.
local function label(lines, i, j)
  local name, ref
  for k = i, j - 1 do
    local l = lines[k]
    ref = ref or l:match("%[ref=([%w_]+)%]")
    name = name or l:match('^ *%- [%w/]+ "([^"]*)"') or (k > i and l:match("^ *%- [%w]+: (.+)$"))
    if name == "" then name = nil end
    if name and ref then break end
  end
  local parts = {}
  if name then parts[#parts + 1] = ("%q"):format(clip(name, 40)) end
  if ref then parts[#parts + 1] = ("[ref=%s]"):format(ref) end
  return table.concat(parts, " ")
end

-- Folds lines[i .. j-1] into out, run by run.
local function fold_range(lines, i, j, out)
  while i < j do
    local lev = level_of(lines[i])
    if not lev then
      out[#out + 1] = lines[i]
      i = i + 1
    else
      -- The run of alike siblings that starts here.
      local ends, kind, shape = {}, nil, nil
      local k = i
      while k < j and level_of(lines[k]) == lev do
        local e, kd, sh = block(lines, k, lev)
        if kd == nil or (kind and kd ~= kind) then break end
        kind, shape = kd, (shape == nil or shape == sh) and sh or false
        ends[#ends + 1] = e
        k = e
      end
      if #ends > fold.RUN then
        local from = i
        for b = 1, fold.SHOWN do
          fold_range(lines, from, ends[b], out)
          from = ends[b]
        end
        local last_start = #ends > 1 and ends[#ends - 1] or i
        -- (Their children are named when every one has the same.)
        out[#out + 1] = ("%s- %s ×%d more alike%s: %s … %s"):format(("  "):rep(lev), kind:match("^%S+"),
          #ends - fold.SHOWN, shape and shape ~= "" and (" (each: " .. shape .. ")") or "",
          label(lines, from, ends[fold.SHOWN + 1]), label(lines, last_start, ends[#ends]))
        i = ends[#ends]
      else
        out[#out + 1] = lines[i]
        i = i + 1
      end
    end
  end
end

--- lines (a snapshot's, cut at a depth) with every run of more than
-- fold.RUN alike siblings (the same role, and first children of the same
-- role; each holding something) as its first fold.SHOWN whole and one
-- line for the rest:
-- `- region ×148 more alike (each: heading, paragraph): "3. Routing" [ref=e156] … "150. Plugins" [ref=e303]`.
-- Returns a new list; lines is not changed.
function fold.runs(lines)
  local out = {}
  fold_range(lines, 1, #lines + 1, out)
  return out
end

return fold
