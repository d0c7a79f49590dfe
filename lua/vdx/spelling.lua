--- vdx.spelling: "did you mean" for names a person types (command-line
-- options, role names), so a typo is answered with the name it most
-- likely meant instead of a bare "unknown".
local spelling = {}

--- The edit distance between strings a and b: insertions, deletions,
-- changes and swaps of neighbours each count one.
function spelling.distance(a, b)
  local d = {}
  for i = 0, #a do d[i] = { [0] = i } end
  for j = 0, #b do d[0][j] = j end
  for i = 1, #a do
    for j = 1, #b do
      local cost = a:sub(i, i) == b:sub(j, j) and 0 or 1
      d[i][j] = math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
      if i > 1 and j > 1 and a:sub(i, i) == b:sub(j - 1, j - 1) and a:sub(i - 1, i - 1) == b:sub(j, j) then
        d[i][j] = math.min(d[i][j], d[i - 2][j - 2] + 1)
      end
    end
  end
  return d[#a][#b]
end

--- The name in the list `names` that word most likely means, or nil: the
-- nearest one within max edits (default: 2, or 1 for words of up to 4
-- letters), else the one name that starts with word (at least 3 letters).
-- Ties go to the earlier name in the list.
function spelling.nearest(word, names, max)
  if type(word) ~= "string" or word == "" then return nil end
  max = max or (#word <= 4 and 1 or 2)
  local best, best_d
  for _, n in ipairs(names) do
    local d = spelling.distance(word:lower(), n:lower())
    if d <= max and (not best_d or d < best_d) then best, best_d = n, d end
  end
  if best then return best end
  local prefixed
  for _, n in ipairs(names) do
    if #word >= 3 and n:sub(1, #word) == word then
      if prefixed then return nil end
      prefixed = n
    end
  end
  return prefixed
end

return spelling
