--- vdx.builtin.remember: browser_remember, a value the test reads from
-- the page (an order number the app gives) and uses later as `{name}`
-- (vdx.remembered).
local vdx = require "vdx"
local util = require "vdx.builtin.util"
local remembered = require "vdx.remembered"

return {
  {
    name = "browser_remember",
    title = "Remember a value",
    description = "Keep an element's text, or the part pattern matches, as {name} for later texts (an order "
      .. "number the app gives).",
    input = { type = "object", required = { "name" }, properties = {
      name = { type = "string", minLength = 1, description = "Variable name (orderNo)" },
      ref = util.REF,
      locator = { type = "string", minLength = 1, description = "Or a Playwright locator of one element" },
      pattern = { type = "string", minLength = 1,
        description = ("JavaScript regex of the part to keep (#\\d+; %d characters or more)")
          :format(remembered.MIN_LENGTH) },
    } },
    annotations = { readOnlyHint = true },
    run = function(ctx, args)
      local bad = remembered.bad_name(args.name)
      if bad then error(vdx.error("InvalidArgument", bad, { field = "name" }), 0) end
      local page = ctx:page()
      local t = util.checked_target(page, args)
      if t.elsewhere then error(vdx.error("InvalidArgument", "cannot remember from there: " .. t.elsewhere), 0) end
      local value, why = remembered.read(page, t.relative, args.pattern, t.frame)
      if not value then
        error(vdx.error("VerifyFailed", why, { field = args.pattern and "pattern" or "locator" }), 0)
      end
      if #value < remembered.MIN_LENGTH then
        error(vdx.error("InvalidArgument", ("the value %q is shorter than %d characters: it would stand for too "
          .. "much in other texts; remember a longer part (the order's \"#1002\", not \"2\")")
          :format(value, remembered.MIN_LENGTH), { field = "pattern" }), 0)
      end
      local step = { kind = remembered.KIND, name = args.name, locator = t.locator, pattern = args.pattern,
        value = value, tool = "browser_remember" }
      util.record(ctx, step)
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
      return { text = ("Remembered {%s} = %s from %s%s. Later texts can say {%s} (answers show it so); the test "
        .. "reads it here."):format(args.name, verbatim(("%q"):format(value)), loc,
        pattern and (" at /" .. pattern .. "/") or "", args.name),
        structured = { name = args.name, value = verbatim(value), locator = loc, pattern = pattern } }
    end,
  },
}
