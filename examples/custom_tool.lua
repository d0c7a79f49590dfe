--- examples/custom_tool.lua: a Lua tool added to the MCP server, without
-- recompiling anything.
--
--   vdxlua mcp --tools examples/custom_tool.lua --role customer auth/customer.json http://shop.test:8080/shop
--
-- A tool file calls register{…} (or returns a tool or a list of tools).
-- Arguments are checked against `input` before run is called; run gets
-- ctx (ctx:page() is the current role's page, ctx.role_name its name) and the
-- arguments, and returns text, or { text =, structured = } for programs.
-- Raising a typed error (vdx.error) gives the agent the formatted failure.
local vdx = require "vdx"

register {
  name = "count_cards",
  title = "Count cards by test id",
  description = "Count the elements with a data-testid on the current page, and list the texts of the first few, "
    .. "to see how a grid or list is built before writing a locator for one of its items.",
  input = { type = "object", required = { "test_id" }, properties = {
    test_id = { type = "string", minLength = 1, maxLength = 100, description = "The data-testid value, e.g. product-card" },
    limit = { type = "integer", minimum = 1, maximum = 20, description = "How many texts to show (default 5)" },
  } },
  annotations = { readOnlyHint = true, openWorldHint = false },
  run = function(ctx, args)
    local page = ctx:page()
    local js = ("Array.from(document.querySelectorAll('[data-testid=%q]'), e => e.innerText.replace(/\\s+/g, ' ').trim())")
      :format(args.test_id)
    local texts = page:evaluate(js)
    if #texts == 0 then
      error(vdx.error("NoMatch", "no element has data-testid=" .. args.test_id,
        { description = args.test_id }), 0)
    end
    local lines = { ("%d elements with data-testid=%q (role %s)"):format(#texts, args.test_id, ctx.role_name or "?") }
    for i = 1, math.min(#texts, args.limit or 5) do
      lines[#lines + 1] = ("%d. %s"):format(i, texts[i]:sub(1, 120))
    end
    return { text = table.concat(lines, "\n"), structured = { count = #texts, texts = texts } }
  end,
}
