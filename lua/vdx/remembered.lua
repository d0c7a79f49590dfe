--- vdx.remembered: values a test reads from the page and uses later, as
-- a person's test keeps an order number in a variable.  The agent calls
-- browser_remember {name, ref | locator, pattern} on the element that
-- shows the value (`Order #1002 is confirmed`); the session keeps it
-- under name, and from then on `{name}` in any text a tool takes stands
-- for it, as `{run}` does for the run token (vdx.run_token): the page
-- gets the value, answers show it back as `{name}`, and the exported test
-- reads it at that step once the element shows it (vdx.pw_spec writes
-- the lines),
--
--   await expect(customer.getByTestId('confirmation')).toContainText(/#\d+/);
--   const order = /#\d+/.exec(await customer.getByTestId('confirmation').textContent() ?? '')?.[0] ?? '';
--
-- and writes every later string that held it as a template on the
-- variable (`` getByText(`${order} paid`) ``).  The flake gate's replay
-- reads it again in each run and types that run's value where it stood.
local remembered = {}

--- The step's kind in the session log (vdx.session_log).
remembered.KIND = "remember"

--- The shortest value remembered: a value stands for itself in texts and
-- answers, and a short one ("1") would stand in for any digit.
remembered.MIN_LENGTH = 3

-- Names a test's own variables or JavaScript take.
local RESERVED = {}
for w in ([[run page context browser expect test path process devices BASE_URL
  break case catch class const continue debugger default delete do else enum export extends false finally
  for function if implements import in instanceof interface let new null package private protected public
  return static super switch this throw true try typeof var void while with yield await async undefined]]):gmatch("%S+") do
  RESERVED[w] = true
end

--- Why name cannot be a remembered value's name, or nil when it can: an
-- identifier (letters, digits, _, not first a digit), not a word of
-- JavaScript or of the test's own (run, page, context, a role's
-- `…Page` / `…Context`).
function remembered.bad_name(name)
  if type(name) ~= "string" or not name:match("^[%a_][%w_]*$") then
    return "name must be an identifier: letters, digits and _, not starting with a digit (orderNo)"
  end
  if RESERVED[name] or name:match("Page$") or name:match("Context$") then
    return ("name %q is a word the test uses itself: pick another (orderNo)"):format(name)
  end
end

--- The Lua pattern that matches s literally.
function remembered.plain(s) return (s:gsub("%W", "%%%0")) end
local plain = remembered.plain

--- args with `{name}` in each string (nested) replaced by the value log
-- remembered as name (Log:remembered); args itself when none is there.
function remembered.arguments(args, log)
  local values = log and log:remembered()
  if type(args) ~= "table" or not values or next(values) == nil then return args end
  return require("vdx.run_token").strings(args, function(v)
    if not v:find("{", 1, true) then return v end
    for name, r in pairs(values) do v = v:gsub(plain("{" .. name .. "}"), (r.value:gsub("%%", "%%%%"))) end
    return v
  end)
end

--- The { value, "{name}" } pairs of the values log remembered, longest
-- value first (for run_token.answer), or an empty list.
function remembered.shown(log)
  local out = {}
  for name, r in pairs(log and log:remembered() or {}) do out[#out + 1] = { r.value, "{" .. name .. "}" } end
  table.sort(out, function(a, b) return #a[1] > #b[1] end)
  return out
end

--- code (a Playwright line) as the exported test writes it once log has
-- remembered its values: each value it holds as its variable
-- (run_token.for_test: `` `${order} paid` ``, a number alone in a filter
-- as `new RegExp(`${order}(?!\\d)`)`), so an answer's "Recorded:" line
-- is the file's (run BC read `hasText: '{orderNo}'` and opened the file
-- to learn what it checked).  With step (a step of log, numbered), only
-- the values remembered before it: the file reads a value from its step on.
function remembered.in_test(code, log, step)
  local values = log and log:remembered()
  if type(code) ~= "string" or not values or next(values) == nil then return code end
  local upto = type(step) == "table" and tonumber(step.no)
  local read = {}
  for name, r in pairs(values) do
    local earlier = not upto or (type(r.step) == "table" and tonumber(r.step.no) and r.step.no < upto)
    if earlier and #tostring(r.value) >= remembered.MIN_LENGTH then
      read[#read + 1] = { value = tostring(r.value), name = name }
    end
  end
  table.sort(read, function(a, b) return #a.value > #b.value end)
  local run_token = require "vdx.run_token"
  for _, r in ipairs(read) do code = run_token.for_test(code, r.value, r.name) end
  return code
end

--- Reads the value locator shows on page (in frame, a ref there, or the
-- main frame): its one element's text, or the first match of pattern (a
-- JavaScript regular expression's source) in it, found by the page's own
-- engine as the test's will.  Returns the value, or nil and why.
function remembered.read(page, locator, pattern, frame)
  local f = require("vdx.assertions").facts(page, locator, { limit = 1, frame = frame })
  if f.count ~= 1 then return nil, ("%s matches %d elements, not exactly one"):format(locator, f.count) end
  local text = f.matches[1].text or ""
  if not pattern then return text end
  local ok, v = pcall(page.bridge, page, "firstMatch", { text, pattern }, { frame = frame or "main" })
  if not ok then
    return nil, ("pattern /%s/ is no JavaScript regular expression: %s"):format(pattern,
      tostring(type(v) == "table" and v.message or v))
  end
  if type(v) ~= "string" then return nil, ("the text %q has no match of /%s/"):format(text, pattern) end
  return v
end

--- The value log remembered last that can anchor locators (4 characters
-- or more: vdx.locators' anchor), or nil: an element in a row or card
-- that shows it is located through that item (`getByTestId('order-row')
-- .filter({ hasText: '#1005' })`, written `${order}` in the test).
function remembered.anchor(log)
  local last
  for _, s in ipairs(log and log:test_steps() or {}) do
    if s.kind == remembered.KIND and type(s.value) == "string" and #s.value >= 4 then last = s.value end
  end
  return last
end

return remembered
