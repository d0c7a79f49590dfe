--- vdx.volatile: the parts of an element's name that the next run of a
-- test reads otherwise, and an action's locator with them left free.
--
-- A button named `Pay $10.80` is named after the cart: a test that fails
-- half-way leaves the cart fuller, and the next run's button reads `Pay
-- $21.60`.  A count in parentheses (`Cart (4)`) and an id the app numbers
-- (`Order #1001`) change the same way.  The locator a recorded action
-- keeps finds the element by the rest of its words,
--
--   getByRole('button', { name: /^Pay \$[\d.,]+$/ })
--
-- once the page confirms that it still finds that one element alone
-- (util.locator_of); a check of the value itself is the agent's to write.
local volatile = {}

-- The changing parts: a Lua pattern and the regex source of its number.
-- A price with its currency sign before or after it (each sign a literal:
-- they are several bytes in UTF-8), a count in parentheses, an id the app
-- numbers.
local PRICE, WHOLE = "[\\d.,]+", "\\d+"
local PARTS = {
  { "%(%d+%)", WHOLE },
  { "#%d%d+", WHOLE },
  { "%d[%d,.]*%s?USD", PRICE },
  { "%d[%d,.]*%s?EUR", PRICE },
}
for _, sign in ipairs { "$", "€", "£", "¥", "₹" } do
  local lit = sign:gsub("%p", "%%%0")
  PARTS[#PARTS + 1] = { lit .. "%s?%d[%d,.]*", PRICE }
  if sign ~= "$" then PARTS[#PARTS + 1] = { "%d[%d,.]*%s?" .. lit, PRICE } end
end

--- The regex source of s literally (a quote as its code: the scans of a
-- written test read quotes as strings).
function volatile.escape(s)
  s = s:gsub("[%^%$%(%)%%%.%[%]%*%+%-%?{}|/\\]", "\\%0")
  return (s:gsub("['\"`]", function(c) return ("\\x%02x"):format(c:byte()) end))
end

--- The regex source of s literally but for its numbers, each free
-- (`Cart \(\d+\)` of "Cart (3)"): a count the next run reads anew.
function volatile.numbers_free(s)
  local out, at = {}, 1
  for i, j in s:gmatch("()%d+()") do
    out[#out + 1] = volatile.escape(s:sub(at, i - 1))
    out[#out + 1] = "\\d+"
    at = j
  end
  out[#out + 1] = volatile.escape(s:sub(at))
  return table.concat(out)
end

-- The spans { from, to, regex } of the changing numbers of s, in
-- order and apart, leaving out the ids of the set kept (values the test
-- remembered, which the export writes as read in each run).
local function spans(s, kept)
  local found = {}
  for _, p in ipairs(PARTS) do
    local init = 1
    while true do
      local a, b = s:find(p[1], init)
      if not a then break end
      local m = s:sub(a, b)
      if not (kept and kept[m]) then
        -- The number's own span: what is around it stays literal.
        local na, nb = m:find("%d[%d,.]*")
        if m:sub(nb, nb):match("[,.]") then nb = nb - 1 end
        found[#found + 1] = { a + na - 1, a + nb - 1, p[2] }
      end
      init = b + 1
    end
  end
  table.sort(found, function(x, y) return x[1] < y[1] end)
  local out, last = {}, 0
  for _, f in ipairs(found) do
    if f[1] > last then out[#out + 1], last = f, f[2] end
  end
  return out
end

--- True when s holds a part the next run reads otherwise (a price, a
-- count in parentheses, an app-numbered id not in kept).
function volatile.holds(s, kept)
  return type(s) == "string" and #spans(s, kept) > 0
end

--- The regex source that matches s with its changing parts free (`Pay
-- \$[\d.,]+`; anchored, `^…$`, when whole), or nil when s holds none.
function volatile.regex(s, kept, whole)
  local list = spans(s, kept)
  if #list == 0 then return nil end
  local out, at = { whole and "^" or "" }, 1
  for _, f in ipairs(list) do
    out[#out + 1] = volatile.escape(s:sub(at, f[1] - 1))
    out[#out + 1] = f[3]
    at = f[2] + 1
  end
  out[#out + 1] = volatile.escape(s:sub(at)) .. (whole and "$" or "")
  return table.concat(out)
end

--- locator (a Playwright locator expression) with each name, text or
-- hasText string that holds a changing part written as a regex of the
-- rest (volatile.regex: whole where the string was exact, which a regex
-- then says itself), or nil when none does.
function volatile.loosen(locator, kept)
  if type(locator) ~= "string" then return nil end
  local pw = require "vdx.pw_spec"
  local pieces = pw.pieces(locator)
  local parts, changed = {}, false
  for i, p in ipairs(pieces) do
    local text = p.text
    local before = parts[i - 1] or ""
    if p.quote == "'" and (before:sub(-6) == "name: " or before:sub(-9) == "hasText: "
        or before:match("getByText%($") or before:match("getByLabel%($")) then
      local after = pieces[i + 1] and pieces[i + 1].text or ""
      local exact = after:match("^,?%s*{?%s*exact: true") ~= nil
      local src = volatile.regex((text:sub(2, -2):gsub("\\(.)", "%1")), kept, exact)
      if src then text, changed = "/" .. src .. "/", true end
    end
    parts[i] = text
  end
  if not changed then return nil end
  local out = table.concat(parts)
  out = out:gsub("(name: /[^\n]-/), exact: true", "%1"):gsub("(getBy%a+%(/[^\n]-/), { exact: true }%)", "%1)")
  return out
end

return volatile
