--- vdx.run_token: test data unique to each run of a test.  An agent
-- writes `{run}` in a text it gives a tool (`Teak Lamp {run}`,
-- `ann+{run}@example.com`): the session's current test has a token of
-- its own (eight base-36 characters, the shape of JavaScript's
-- `Date.now().toString(36)`), the page gets the token where `{run}`
-- stood, answers show it back as `{run}`, and the exported test declares
-- `const run = <run_token.JS>;` and writes every string literal
-- that holds the token as a template on it (`` `Teak Lamp ${run}` ``), so
-- each run of the test makes data of its own and finds only that.  The
-- flake gate's replay takes a fresh token each run (run_token.swap).
local run_token = {}

--- What an agent writes for the token.
run_token.PLACEHOLDER = "{run}"

--- The exported test's token, made at each run: the milliseconds in base
-- 36 and three random characters, so two workers that start a test in
-- the same millisecond make data of their own (run CC saw that
-- `Date.now().toString(36)` alone could repeat).
run_token.JS = "Date.now().toString(36) + Math.random().toString(36).slice(2, 5)"

-- The Lua pattern that matches s literally.
local function plain(s) return (s:gsub("%W", "%%%0")) end

local last

--- A new token: eight base-36 characters, like `Date.now().toString(36)`
-- now (the milliseconds since 1970, the last three drawn at random so
-- two tokens of one second differ), never the one made before.
function run_token.new()
  local n, t = os.time() * 1000 + math.random(0, 999), {}
  repeat
    local d = n % 36
    t[#t + 1] = ("0123456789abcdefghijklmnopqrstuvwxyz"):sub(d + 1, d + 1)
    n = n // 36
  until n == 0
  local s = table.concat(t):reverse()
  if s == last then return run_token.new() end
  last = s
  return s
end

--- Whether a string of v (a string or a table of them, nested) holds
-- `{run}`.
function run_token.mentions(v)
  if type(v) == "string" then return v:find(run_token.PLACEHOLDER, 1, true) ~= nil end
  if type(v) ~= "table" then return false end
  for _, x in pairs(v) do if run_token.mentions(x) then return true end end
  return false
end

--- run_token.arguments(args, log) -> args with `{run}` in each string
-- (nested, keys aside) replaced by log's token (Log:run_token, made at
-- the first `{run}` of a test); args itself when no string holds `{run}`.
function run_token.arguments(args, log)
  if type(args) ~= "table" or not log then return args end
  if not run_token.mentions(args) then return args end
  local token = log:run_token(true)
  return run_token.strings(args, function(v) return (v:gsub(plain(run_token.PLACEHOLDER), token)) end)
end

--- A copy of v (a string or a table of them, nested, as a tool's
-- arguments are) with fn(s) for each string s; tables keep their
-- metatables (a JSON array stays one), other values are kept.
function run_token.strings(v, fn)
  if type(v) == "string" then return fn(v) end
  if type(v) ~= "table" then return v end
  local out = {}
  for k, x in pairs(v) do out[k] = run_token.strings(x, fn) end
  return setmetatable(out, getmetatable(v))
end

-- The mark around a part of an answer shown as it is (run_token.verbatim).
local MARK = "\u{E000}"

--- s marked to be shown as it is by run_token.answer (the marks dropped):
-- the one place an answer says the value a `{name}` stands for.
function run_token.verbatim(s)
  return MARK .. tostring(s) .. MARK
end

-- s with each token written back, its parts marked verbatim left as they are.
local function written_back(s, tokens)
  for _, t in ipairs(tokens) do
    local value, shown = t, run_token.PLACEHOLDER
    if type(t) == "table" then value, shown = t[1], t[2] end
    if s:find(value, 1, true) then s = s:gsub(plain(value), (shown:gsub("%%", "%%%%"))) end
  end
  return s
end

--- run_token.answer(v, tokens) -> a copy of v (a string or a table of
-- them, nested) with each of tokens (a list) written back as `{run}`, or,
-- for an entry { value, placeholder } (a value the test remembered,
-- vdx.remembered), as its placeholder, but in the parts marked by
-- run_token.verbatim (the marks dropped); image data is left whole.  v
-- itself when tokens is empty.
function run_token.answer(v, tokens)
  if type(v) == "string" and v:find(MARK, 1, true) then
    local out, i = {}, 1
    for part in (v .. MARK):gmatch("(.-)" .. MARK) do
      out[#out + 1] = (i % 2 == 0 or not tokens or #tokens == 0) and part or written_back(part, tokens)
      i = i + 1
    end
    return table.concat(out)
  end
  if not tokens or #tokens == 0 then return v end
  if type(v) == "string" then return written_back(v, tokens) end
  if type(v) ~= "table" then return v end
  local out = {}
  for k, x in pairs(v) do
    if k == "data" and v.type == "image" then out[k] = x else out[k] = run_token.answer(x, tokens) end
  end
  return setmetatable(out, getmetatable(v))
end

--- run_token.swap(v, old, new) -> a copy of v (a string or a table of
-- them, nested, as a session's steps are) with token old replaced by
-- new; functions and other values are kept as they are.
function run_token.swap(v, old, new)
  if type(v) == "string" then return (v:gsub(plain(old), new)) end
  if type(v) ~= "table" then return v end
  local out = {}
  for k, x in pairs(v) do out[k] = run_token.swap(x, old, new) end
  return setmetatable(out, getmetatable(v))
end

-- The template literal of a JavaScript string literal's body (between
-- its quotes), token written as ${var}: its escapes kept, a backtick and
-- a `${` escaped.
local function template(body, token, var)
  local out, i, n = {}, 1, #body
  while i <= n do
    local c = body:sub(i, i)
    if c == "\\" then
      out[#out + 1] = body:sub(i, i + 1)
      i = i + 2
    else
      if c == "`" then out[#out + 1] = "\\`"
      elseif c == "$" and body:sub(i + 1, i + 1) == "{" then out[#out + 1] = "\\$"
      else out[#out + 1] = c end
      i = i + 1
    end
  end
  return "`" .. table.concat(out):gsub(plain(token), "${" .. var .. "}") .. "`"
end

-- The bounds of a value that ends in a digit ("#1015") as a filter's
-- whole text: not followed by another digit (a substring would find
-- "#10150" too), nor preceded by one when it starts with a digit; nil, nil
-- for another value.  Not a word boundary: a row's cells join with no
-- space between ("#1015Ann"), where \b finds nothing.  Its characters
-- need no escape in a RegExp, and the next run's value, read by the same
-- pattern, has the same kinds.
local function bounds(value)
  if not value:match("^[%w#_%-]*%d$") then return nil, nil end
  return value:match("^%d") and "(?<!\\d)" or "", "(?!\\d)"
end

-- The characters a filter's text may have before such a value, when it
-- is a number alone, and still be bounded ("#" of "#1015", "Order #"):
-- none is special in a RegExp or a template literal, and the last is no
-- digit, so no bound is needed before.  (A run token is no number: `Teak
-- Lamp ${run}` stays a template, run CN.)
local PREFIX = "[%a%s#:_%-]"

-- The pattern of what may stand before value in a bounded filter's text.
local function prefix_of(value)
  return value:match("^%d+$") and PREFIX .. "*" or "\0*"   -- (no text: "" captured)
end

--- run_token.bounded(v, value) -> v (a step table or a string) with each
-- filter whose whole text is value, a remembered number (`hasText:
-- '#1015'`), bounded as the test writes it (`hasText: /#1015(?!\d)/`):
-- the flake gate checks what the file checks.  v itself when value is
-- no such number.
function run_token.bounded(v, value)
  local before, after = bounds(tostring(value or ""))
  if not after then return v end
  if type(v) == "table" then
    local out = {}
    for k, x in pairs(v) do out[k] = run_token.bounded(x, value) end
    return setmetatable(out, getmetatable(v))
  end
  if type(v) ~= "string" then return v end
  -- (The text before the number is captured, "" when there is none.)
  return (v:gsub("hasText: '(" .. prefix_of(value) .. ")" .. plain(value) .. "'", function(prefix)
    return "hasText: /" .. (prefix == "" and before or prefix) .. value .. after .. "/"
  end))
end

-- The regular expression literal re (from vdx.pw_spec.pieces) that
-- holds token written as a RegExp of a template on var: /Bad
-- (Price|Discount) k3x9q2ab/i -> new RegExp(`Bad (Price|Discount)
-- ${run}`, 'i'), its backslashes doubled for the template (run AN's
-- recorded regex kept the session's token, and so passed in every run
-- where it checked that nothing matched).
local function regex_literal(re, token, var)
  local body, flags = re:match("^/(.*)/(%a*)$")
  if not body then return re end
  local t = body:gsub("\\", "\\\\"):gsub("`", "\\`"):gsub("%$%{", "\\${")
  return "new RegExp(`" .. t:gsub(plain(token), "${" .. var .. "}") .. "`"
    .. (flags ~= "" and (", '" .. flags .. "'") or "") .. ")"
end

--- run_token.for_test(line, token, var) -> line (JavaScript) with each
-- string literal ('…', "…" or `…`) that holds token written as a template
-- on var (`Teak Lamp ${run}`), a filter's hasText that is a number alone
-- as a RegExp bounded (new RegExp(`${order}(?!\\d)`): see bounds), each
-- regular expression literal that holds it as a RegExp of a template
-- (regex_literal), and whether it changed.  Other code is left alone.
function run_token.for_test(line, token, var)
  if not token or not line:find(token, 1, true) then return line, false end
  local out = {}
  local before, after = bounds(token)
  for i, p in ipairs(require("vdx.pw_spec").pieces(line)) do
    local text = p.text
    if p.quote and p.quote ~= "/" and text:find(token, 1, true) then
      local body = text:sub(2, -2)
      -- (A text before the number, "#" of "#1015", is kept: run CL's
      -- `hasText: `#${orderNo}`` found "#10010" too.)
      local prefix = body:sub(-#token) == token and body:sub(1, #body - #token)
      local filter = (out[i - 1] or ""):sub(-9) == "hasText: "
      if after and prefix and prefix:match("^" .. prefix_of(token) .. "$") and filter then
        -- (In a template literal, a RegExp's backslash is written twice.)
        local b, a = before:gsub("\\", "\\\\"), after:gsub("\\", "\\\\")
        text = "new RegExp(`" .. (prefix == "" and b or prefix) .. "${" .. var .. "}" .. a .. "`)"
      elseif p.quote == "`" then text = "`" .. body:gsub(plain(token), "${" .. var .. "}") .. "`"
      else text = template(body, token, var) end
    elseif p.quote == "/" and text:find(token, 1, true) then
      text = regex_literal(text, token, var)
    end
    out[i] = text
  end
  return table.concat(out), true
end

return run_token
