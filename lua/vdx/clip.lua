-- clip.lua -- a text cut to a length for an answer, at a character's edge.
--
-- Answers cut long lines (an outline's status text, a table row, a find's
-- context, a change's label) to keep an agent's tokens down; a cut inside
-- a UTF-8 character would leave a byte the JSON writer turns into U+FFFD.

--- s when it has at most n bytes; else its first n bytes, less any
-- character they would split, and "…".
return function(s, n)
  if #s <= n then return s end
  local at = n
  -- A continuation byte right after the cut means the character it
  -- belongs to starts before it: end before that character.
  while at > 0 and (s:byte(at + 1) or 0) & 0xC0 == 0x80 do at = at - 1 end
  return s:sub(1, at) .. "…"
end
