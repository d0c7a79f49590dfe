--- vdx.builtin.navigation: browser_navigate and browser_navigate_back.
local errors = require "vdx.errors"
local util = require "vdx.builtin.util"

-- Drains the role's failure log: raises the critical one, returns the
-- warnings text for the rest (plus any the caller passes).
local function decide(ctx, extra)
  local fatal, warnings = errors.decide(ctx.role.failures:drain())
  if fatal then error(fatal, 0) end
  for _, w in ipairs(extra or {}) do warnings[#warnings + 1] = w end
  return warnings
end

local function nav_result(res, warnings)
  local text = ("Navigated to %s"):format(tostring(res and res.url or "?"))
  if res and res.status then text = text .. (" (status %s)"):format(tostring(res.status)) end
  if res and res.title and res.title ~= "" then text = text .. ("\nTitle: %s"):format(res.title) end
  text = text .. "\nCall browser_snapshot() to see the page." .. errors.warnings_text(warnings)
  return { text = text, structured = { url = res and res.url, status = res and res.status,
    title = res and res.title, warnings = warnings } }
end

return {
  {
    name = "browser_navigate",
    title = "Navigate to a URL",
    description = "Navigate to a URL in the current role's page.\nWaits for the load event (or wait_until) and reports the final URL, status and title. file: URLs are refused unless the server runs with --allow-file-urls.",
    input = { type = "object", required = { "url" }, properties = {
      url = { type = "string", minLength = 1, description = "The URL to navigate to" },
      wait_until = { type = "string", enum = { "commit", "domcontentloaded", "load", "networkidle" },
        description = "When navigation counts as done (default load)" },
    } },
    annotations = { readOnlyHint = false, destructiveHint = false, openWorldHint = true },
    run = function(ctx, args)
      util.paths(ctx):check_url(args.url)
      local page = ctx:page()
      local res = page:navigate(args.url, { wait_until = args.wait_until })
      local result = nav_result(res, decide(ctx))
      util.record(ctx, { kind = "navigate", tool = "browser_navigate", url = args.url })
      return result
    end,
  },
  {
    name = "browser_navigate_back",
    title = "Go back",
    description = "Go back to the previous page in the current role's history.",
    input = { type = "object", properties = {} },
    annotations = { readOnlyHint = false, destructiveHint = false },
    run = function(ctx)
      local page = ctx:page()
      local res = page:back()
      local result = nav_result(res or {}, decide(ctx))
      util.record(ctx, { kind = "action", tool = "browser_navigate_back", action = "back" })
      return result
    end,
  },
}
