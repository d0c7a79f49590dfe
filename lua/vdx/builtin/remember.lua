--- vdx.builtin.remember: browser_remember, a value the test reads from
-- the page (an order number the app gives) and uses later as `{name}`
-- (vdx.remembered).
local vdx = require "vdx"
local util = require "vdx.builtin.util"
local remembered = require "vdx.remembered"

-- t's locator with the first quoted string that holds value, when that
-- has a digit (a heading named "Payment for order #1001"), read through
-- pattern instead (`name: /Payment for order #\d+/`), when that still
-- matches the one element; else nil.  A locator that names the value it
-- reads matches nothing once the app gives another (the next run's
-- order): run CF wrote that regex by hand.
local function unpinned(page, t, value, pattern)
  -- (A value with no digit, a word, is the same next run.)
  if not pattern or not value:find("%d") or t.frame or t.relative ~= t.locator then return nil end
  local done = false
  local loc = t.locator:gsub("'([^'\\]*)'", function(body)
    local i, j = body:find(value, 1, true)
    -- (One that says a remembered {name} is read in the test already.)
    if done or not i or body:find("{", 1, true) then return nil end
    done = true
    local escape = require("vdx.volatile").escape
    return "/" .. escape(body:sub(1, i - 1)) .. pattern .. escape(body:sub(j + 1)) .. "/"
  end)
  if not done then return nil end
  local ok, f = pcall(require("vdx.assertions").facts, page, loc, { limit = 2 })
  return ok and f.count == 1 and loc or nil
end

-- A quoted text of locator that holds a digit and that value holds, or
-- that holds value, white space aside: the element is found by what is
-- remembered (run ED's row, `getByRole('row', { name: 'Ceramic Mug 2
-- $10.80 $21.60' })`), or nil.
local function pinned_by(locator, value)
  -- (A value with no digit, a word, is the same next run.)
  if not value:find("%d") then return nil end
  local bare = value:gsub("%s+", "")
  for q in locator:gmatch("'([^'\\]*)'") do
    local b = q:gsub("%s+", "")
    if b:find("%d") and #b >= 3 and (bare:find(b, 1, true) or b:find(bare, 1, true)) then return "'" .. q .. "'" end
  end
  return nil
end

return {
  {
    name = "browser_remember",
    title = "Remember a value",
    description = "Keep an element's text, or the part pattern matches, as {name} for later texts (an order "
      .. "number the app gives).",
    input = { type = "object", required = { "name" }, properties = {
      name = { type = "string", minLength = 1, description = "Variable name (orderNo)" },
      ref = util.REF,
      locator = { type = "string", minLength = 1, description = "Or a locator of one element, or an [aN] id" },
      pattern = { type = "string", minLength = 1,
        description = ("JavaScript regex of the part to keep (#\\d+; %d characters or more)")
          :format(remembered.MIN_LENGTH) },
    } },
    annotations = { readOnlyHint = true },
    run = function(ctx, args)
      local bad = remembered.bad_name(args.name)
      if bad then error(vdx.error("InvalidArgument", bad, { field = "name" }), 0) end
      local page = ctx:page()
      local id = type(args.locator) == "string" and args.locator:match("^%[?(a%d+)%]?$")
      if id then
        -- A proposal's id: its locator (run EY wrote the order heading's
        -- by hand, which proposal [a12] of the answer before held).
        local p = ctx.session and ctx.session.proposed[id]
        if not p then
          error(vdx.error("InvalidArgument", ("no proposal %s in this session: give a ref or a Playwright locator")
            :format(id), { field = "locator" }), 0)
        end
        args = { name = args.name, pattern = args.pattern, locator = p.step.locator }
      end
      local t = util.checked_target(page, args)
      if t.elsewhere then error(vdx.error("InvalidArgument", "cannot remember from there: " .. t.elsewhere), 0) end
      local value, why = remembered.read(page, t.relative, args.pattern, t.frame)
      if not value then
        error(vdx.error("VerifyFailed", why, { field = args.pattern and "pattern" or "locator" }), 0)
      end
      if #value < remembered.MIN_LENGTH then
        -- (Run ED's quantity "3", remembered with no pattern, was told of one.)
        error(vdx.error("InvalidArgument", ("the value %q is shorter than %d characters: it would stand for too "
          .. "much in other texts; remember a longer part (the order's \"#1002\", not \"2\"%s)")
          :format(value, remembered.MIN_LENGTH, args.pattern and "" or ": an element that shows more, with pattern "
            .. "for the part"), { field = args.pattern and "pattern" or (args.ref and "ref" or "locator") }), 0)
      end
      local free = unpinned(page, t, value, args.pattern)
      if free then t = { locator = free, relative = free } end
      local step = { kind = remembered.KIND, name = args.name, locator = t.locator, pattern = args.pattern,
        value = value, tool = "browser_remember" }
      local kept = util.record(ctx, step)
      -- The answer passes through the server, which shows the value as
      -- {name} from now on: here it is said once, as it reads, in the
      -- locator and pattern it was read by too (`getByText('{order}
      -- paid')` read "paid": `… '{order} {state}'` read as a locator that
      -- needs the value it reads).
      local verbatim = require("vdx.run_token").verbatim
      local function as_read(s)
        return s and (s:gsub(remembered.plain(value), function(v) return verbatim(v) end))
      end
      local loc, pattern = as_read(t.locator), as_read(args.pattern)
      local pinned = not free and pinned_by(t.locator, value)
      return { text = ("Remembered {%s} = %s from %s%s%s. Later texts can say {%s} (answers show it so); the test "
        .. "reads it here.%s%s"):format(args.name, verbatim(("%q"):format(value)), loc,
        pattern and (" at /" .. pattern .. "/") or "",
        type(kept) == "table" and kept.no and (" (step %d)"):format(kept.no) or "", args.name,
        free and " (The locator named the value itself, which the next run's differs from: it reads it through "
          .. "the pattern.)" or "",
        pinned and ("\n⚠️ The locator finds the element by %s, which the value holds: the next run's value "
          .. "differs and the locator would find nothing. Remember it through a locator of where it shows, by what "
          .. "stays the same (locator=: a test id, a row by its product's name)"):format(verbatim(pinned)) or ""),
        structured = { name = args.name, value = verbatim(value), locator = loc, pattern = pattern } }
    end,
  },
}
