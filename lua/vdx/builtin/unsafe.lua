--- vdx.builtin.unsafe: browser_run_code_unsafe, the evaluate without the
-- engine's side-effect check, for scripts that act.  It is registered only
-- when the server starts with --allow-unsafe-code (vdx.mcp_main); each
-- run is recorded in the session as an action (exported as
-- page.evaluate) and answered with what it changed, like the other
-- acting tools.
local util = require "vdx.builtin.util"
local readonly = require "vdx.readonly"

return require("vdx.builtin.report").report_changes({
  {
    name = "browser_run_code_unsafe",
    title = "Run JavaScript that may act (unsafe)",
    description = "Run a JavaScript function in the page (or on an element, with ref) WITHOUT the read-only check of browser_evaluate: it may click, submit, write storage, send requests and navigate. "
      .. "Exists only because the server was started with --allow-unsafe-code. Every run is recorded as an action of the session, and the answer says what it changed on the page. "
      .. "Prefer browser_evaluate for reading and the acting tools (browser_click, browser_type…) for acting.\n"
      .. "Without ref the function runs in the page's main world; with ref it gets the element and runs in an isolated world of its own. A promise it returns is awaited; the value is returned as JSON (at most 64 KiB).",
    input = readonly.input(util.ELEMENT, util.REF),
    annotations = { readOnlyHint = false, destructiveHint = true, openWorldHint = true },
    run = function(ctx, args)
      local page = ctx:page()
      local src = args["function"]
      local loc = args.ref and util.locator_of(ctx, { ref = args.ref }) or nil
      local mark = page:mark()
      local r = readonly.run(page, src, { ref = args.ref, unsafe = true, timeout_ms = args.timeout })
      local ok, res = pcall(page.settle, page, mark)
      util.record(ctx, { kind = "action", tool = "browser_run_code_unsafe", action = "evaluate", code = src,
        unlocated = args.ref and not loc and "no locator matched its element alone" or nil }, loc)
      local out = readonly.answer(r)
      out.structured = { result = out.structured.result, cut = out.structured.cut,
        length = out.structured.length, json_prefix = out.structured.json_prefix }
      if ok and type(res) == "table" then
        for k, v in pairs(res) do if out.structured[k] == nil then out.structured[k] = v end end
      end
      out.text = "Ran the code (unsafe). " .. out.text
      return out
    end,
  },
}, { browser_run_code_unsafe = true })[1]
