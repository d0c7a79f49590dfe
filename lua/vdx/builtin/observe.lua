--- vdx.builtin.observe: what the page logged and loaded, screenshots, and
-- the checked evaluate.
local vdx = require "vdx"
local util = require "vdx.builtin.util"
local effects = require "vdx.effects"

local function lines(list, fmt)
  local out = {}
  for i, x in ipairs(list or {}) do out[i] = fmt(x) end
  return #out > 0 and table.concat(out, "\n") or "(none)"
end

return {
  {
    name = "browser_console_messages",
    title = "Get console messages",
    description = "Console messages and uncaught exceptions of the current page (bounded; oldest dropped first).",
    input = { type = "object", properties = {
      onlyErrors = { type = "boolean", description = "Only return error messages" },
      level = { type = "string", enum = { "debug", "info", "log", "warning", "error" }, description = "Minimum level" },
    } },
    annotations = { readOnlyHint = true },
    run = function(ctx, args)
      local page = ctx:page()
      local list = page:console(
        { level = args.onlyErrors and "error" or args.level })
      return { text = lines(list, function(m)
        return ("[%s] %s%s"):format(tostring(m.level or m.type or "log"), tostring(m.text or ""),
          m.url and (" (" .. tostring(m.url) .. (m.line and (":" .. m.line) or "") .. ")") or "")
      end), structured = { messages = list } }
    end,
  },
  {
    name = "browser_network_requests",
    title = "List network requests",
    description = "Network requests since the page loaded: method, URL, type, status, timing, failure.",
    input = { type = "object", properties = {
      filter = { type = "string", description = "Only requests whose URL contains this text" },
    } },
    annotations = { readOnlyHint = true },
    run = function(ctx, args)
      local page = ctx:page()
      local list = page:requests({ filter = args.filter })
      return { text = lines(list, function(r)
        return ("[%s] %s => %s%s"):format(tostring(r.method or "GET"), tostring(r.url),
          tostring(r.status or r.failure or "pending"), r.resource_type and (" " .. r.resource_type) or "")
      end), structured = { requests = list } }
    end,
  },
  {
    name = "browser_take_screenshot",
    title = "Take a screenshot",
    description = "Take a screenshot of the viewport, the full page or one element, saved to a file.\nYou cannot act on a screenshot; use browser_snapshot for that.",
    input = { type = "object", properties = {
      type = { type = "string", enum = { "png", "jpeg" }, description = "Image format, default png" },
      filename = { type = "string", description = "File name, relative to the output folder (default vdx-output/; --output-dir); folders in it are made; an existing file is never replaced and a symbolic link on the way is refused. Default: page-<time>-<n>.png" },
      element = util.ELEMENT, ref = util.REF,
      fullPage = { type = "boolean", description = "The full scrollable page instead of the viewport" },
    } },
    annotations = { readOnlyHint = true },
    run = function(ctx, args)
      local page = ctx:page()
      local fmt = args.type or "png"
      local policy = util.paths(ctx)
      -- The name is checked first, so a bad one is refused before the capture.
      local rel = args.filename and policy:output_name(args.filename, "page", fmt)
      local res = page:screenshot({ full_page = args.fullPage, ref = args.ref, format = fmt })
      local path = policy:write_file(rel, "page", fmt, vdx.base64_decode(res.base64))
      local out = { text = ("Screenshot saved to %s"):format(path),
        structured = { path = path, size = res.size, format = res.format }, images = {} }
      if res.size <= 2 * 1024 * 1024 then
        out.images[1] = { data = res.base64, mimeType = "image/" .. res.format }
      end
      return out
    end,
  },
  {
    name = "browser_evaluate",
    title = "Evaluate JavaScript",
    description = "Evaluate a JavaScript function on the page (or on an element, with ref) and return its JSON value.\nWith ref the function gets the element and runs in vdxlua's isolated world of its frame: it sees the DOM, not the page's script variables.\nFor reading only: a script that acts is refused, first by a pattern check of its source, then by what it does while it runs (navigation, requests that write, DOM changes, cookie and storage writes, history changes, focus, timers given code). Those effects are blocked or undone and the answer names them.",
    input = { type = "object", required = { "function" }, properties = {
      ["function"] = { type = "string", minLength = 1, description = "() => { /* code */ } or (element) => { /* code */ } when ref is given" },
      element = util.ELEMENT, ref = util.REF,
    } },
    annotations = { readOnlyHint = false },
    run = function(ctx, args)
      local page = ctx:page()
      local src = args["function"]
      local v
      if args.ref then
        -- On an element: the same refusal rules, then the bridge of the
        -- ref's frame calls the function with the element.
        -- In the isolated world the page's own prototypes are out of reach:
        -- the pattern check, then the watch of the DOM, storage, cookies,
        -- navigations and requests around the call.
        local refused = effects.pattern_refusal(src)
        if refused then error(refused, 0) end
        v = effects.around(page, function()
          return page:bridge("evaluateOn", { args.ref, src }, { frame = args.ref })
        end)
      else
        v = effects.evaluate(page, src)
      end
      local json = require "vdx.json"
      local text = json.encode(v == nil and json.null or v) or tostring(v)
      return { text = "Result: " .. text, structured = { result = v } }
    end,
  },
}
