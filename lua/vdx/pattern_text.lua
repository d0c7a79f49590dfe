--- vdx.pattern_text: the text answer of inspect_pattern for the model.
-- The bridge's facts (page:inspect_pattern) list, for each sibling, its
-- tag, attributes, outline, texts and refs; siblings of a repeated
-- container share most of them.  The answer says what they share once
-- and gives each sibling one line with what is its own:
--
--   Pattern at level 2 of e9: 12 siblings <product-card data-testid=product-card>
--   #0 (target) name=Modern Lamp: heading "Modern Lamp" [level=3], button "Add to Cart" [ref=e9]; text: $49.00
--
-- a third of the YAML it replaced on a shop's cards.  structuredContent
-- keeps every fact.
local pattern_text = {}

local function sorted_keys(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys)
  return keys
end

-- "k=v k2=v2" of the attributes of attrs not in skip.
local function attrs_text(attrs, skip)
  local out = {}
  for _, k in ipairs(sorted_keys(attrs)) do
    if not (skip and skip[k]) then out[#out + 1] = k .. "=" .. tostring(attrs[k]) end
  end
  return table.concat(out, " ")
end

-- The tag and attributes every sibling has alike: tag or nil, { k = v }.
local function shared_of(siblings)
  local first = siblings[1]
  if not first then return nil, {} end
  local tag, attrs = first.tag, {}
  for k, v in pairs(first.attributes or {}) do attrs[k] = v end
  for i = 2, #siblings do
    local s = siblings[i]
    if s.tag ~= tag then tag = nil end
    for k, v in pairs(attrs) do
      if (s.attributes or {})[k] ~= v then attrs[k] = nil end
    end
  end
  return tag, attrs
end

-- One sibling's line: its own tag and attributes, its outline, the texts
-- the outline does not show and the refs it does not name.
local function sibling_line(s, target, tag, shared)
  local head = { "#" .. tostring(s.index) }
  if s.index == target then head[#head + 1] = "(target)" end
  local own = attrs_text(s.attributes or {}, shared)
  if not tag then head[#head + 1] = "<" .. tostring(s.tag) .. (own ~= "" and (" " .. own) or "") .. ">"
  elseif own ~= "" then head[#head + 1] = own end
  local outline = table.concat(s.outline or {}, ", ")
  local parts = {}
  if outline ~= "" then parts[#parts + 1] = outline end
  local texts = {}
  for _, t in ipairs(s.contains_text or {}) do
    if not outline:find(t, 1, true) then texts[#texts + 1] = t end
  end
  if #texts > 0 then parts[#parts + 1] = "text: " .. table.concat(texts, ", ") end
  local refs = s.contains_refs or {}
  local missing = {}
  for _, r in ipairs(refs.refs or {}) do
    if not outline:find("[ref=" .. r .. "]", 1, true) then missing[#missing + 1] = r end
  end
  local more = (math.tointeger(refs.total) or 0) - #(refs.refs or {})
  if #missing > 0 then
    parts[#parts + 1] = "refs: " .. table.concat(missing, ", ") .. (more > 0 and (" and %d more"):format(more) or "")
  elseif more > 0 then
    -- Every ref listed is in the outline already: only the count is news.
    parts[#parts + 1] = ("%d more ref%s inside"):format(more, more == 1 and "" or "s")
  end
  local body = #parts > 0 and table.concat(parts, "; ") or "(nothing shown)"
  return table.concat(head, " ") .. ": " .. body
end

--- The text of inspect_pattern's result res for the start label (a ref,
-- or how a locator or text named it) at level.
function pattern_text.render(label, level, res)
  local siblings = res.siblings or {}
  local total = math.tointeger(res.siblings_total) or #siblings
  local tag, shared = shared_of(siblings)
  if not tag then shared = {} end
  local what = ""
  if tag then
    local a = attrs_text(shared)
    what = " <" .. tostring(tag) .. (a ~= "" and (" " .. a) or "") .. ">"
  end
  local out = { ("Pattern at level %d of %s: %d sibling%s%s"):format(level, label, total, total == 1 and "" or "s", what) }
  local target = math.tointeger(res.target_sibling_index)
  for _, s in ipairs(siblings) do out[#out + 1] = sibling_line(s, target, tag, shared) end
  if #siblings < total then
    out[#out + 1] = ("… %d more siblings: max_siblings shows more"):format(total - #siblings)
  end
  return table.concat(out, "\n")
end

return pattern_text
