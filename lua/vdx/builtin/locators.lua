--- vdx.builtin.locators: browser_generate_locator, the Playwright locator
-- of any ref with its ranked alternatives, each verified on the live page
-- (page:generate_locator), so an agent writing a test need not compose
-- one from the structure tools.
local json = require "vdx.json"
local util = require "vdx.builtin.util"

-- The answer's text: the locator, a plain warning when it is positional,
-- then the alternatives with their kinds and counts.
local function answer_text(loc)
  if not loc.locator then return "❌ No locator reaches this element: " .. (loc.note or "?") end
  local out = { "Locator: " .. loc.locator }
  if loc.positional then
    out[#out + 1] = "⚠️ Positional: only .nth() tells this element apart (" .. (loc.note or "") ..
      "); a test id or a distinct name would make it stable"
  end
  if loc.frame_relative then
    out[#out + 1] = ("In frame %s: %s (verified there)"):format(loc.frame, loc.frame_relative)
  elseif loc.frame then
    out[#out + 1] = "Note: " .. loc.note
  end
  if #loc.alternatives > 0 then
    out[#out + 1] = "Alternatives, best first:"
    for i, a in ipairs(loc.alternatives) do
      out[#out + 1] = ("%d. %s (%s, matches %d)"):format(i, a.locator, a.kind or "?", a.count or 1)
    end
  elseif not loc.positional then
    out[#out + 1] = "No alternative is unique."
  end
  return table.concat(out, "\n")
end

return {
  {
    name = "browser_generate_locator",
    title = "Generate locator",
    description = "The locator codegen would write for an element, scoped by the nearest container that makes it unique, with alternatives.",
    input = { type = "object", required = { "ref" }, properties = {
      ref = util.REF, element = util.ELEMENT,
      alternatives = { type = "integer", minimum = 0, maximum = 10, description = "Alternatives listed (default 4)" },
    } },
    annotations = { readOnlyHint = true },
    run = function(ctx, args)
      local page = ctx:page()
      local loc = page:generate_locator(args.ref, { alternatives = args.alternatives })
      return { text = answer_text(loc), structured = { locator = loc.locator, positional = loc.positional,
        note = loc.note, frame = loc.frame, frame_locator = loc.frame_locator, frame_relative = loc.frame_relative,
        alternatives = json.array(loc.alternatives) } }
    end,
  },
}
