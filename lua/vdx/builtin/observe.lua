--- vdx.builtin.observe: what the page logged and loaded, screenshots, and
-- the read-only evaluate.
local vdx = require "vdx"
local util = require "vdx.builtin.util"
local readonly = require "vdx.readonly"

local function lines(list, fmt)
  local out = {}
  for i, x in ipairs(list or {}) do out[i] = fmt(x) end
  return #out > 0 and table.concat(out, "\n") or "(none)"
end

-- The URL without its fragment.
local function bare(url)
  return (tostring(url or ""):gsub("#.*$", ""))
end

-- Where the current page's requests start in list (a page:requests
-- answer, filtered as shown): after the last document request for the
-- page's URL in every request of the tab (whole).  1 when none is found
-- (a page opened by a script, or one whose load left the ring).
local function since_load(page, whole, list)
  local ok, info = pcall(page.bridge, page, "pageInfo", {})
  local url = ok and type(info) == "table" and bare(info.url) or nil
  if not url then return 1 end
  local seq
  for i = #whole, 1, -1 do
    local r = whole[i]
    if r.type == "Document" and bare(r.url) == url then seq = r.seq break end
  end
  if not seq then return 1 end
  for i, r in ipairs(list) do
    if (r.seq or 0) >= seq then return i end
  end
  return #list + 1
end

-- The requests of list from index from, those alike (method, URL, type
-- and outcome) as one { first, n }, in order of first appearance.
local function grouped(list, from)
  local groups, by = {}, {}
  for i = from, #list do
    local r = list[i]
    local key = table.concat({ tostring(r.method), tostring(r.url), tostring(r.type),
      tostring(r.status or r.failure or "pending") }, "\0")
    local g = by[key]
    if g then g.n = g.n + 1 else
      g = { first = r, n = 1 }
      by[key], groups[#groups + 1] = g, g
    end
  end
  return groups
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
    description = "Network requests of the current page since it loaded (all: every request of the tab, the last 1000): method, URL, status or failure, type and duration. A request repeated alike (a page that polls) is one line with its count.",
    input = { type = "object", properties = {
      filter = { type = "string", description = "Only requests whose URL contains this text" },
      all = { type = "boolean", description = "Every request the tab made, earlier pages' too (default: since the page loaded)" },
    } },
    annotations = { readOnlyHint = true },
    run = function(ctx, args)
      local page = ctx:page()
      local list = page:requests({ filter = args.filter })
      local from, earlier = 1, 0
      if not args.all then
        from = since_load(page, args.filter and page:requests() or list, list)
        earlier = from - 1
      end
      local groups = grouped(list, from)
      local out = {}
      if earlier > 0 then
        out[1] = ("Since the page loaded (%d earlier requests of this tab: all=true lists them too):"):format(earlier)
      end
      for _, g in ipairs(groups) do
        local r = g.first
        local what = {}
        if r.type then what[#what + 1] = tostring(r.type) end
        if math.type(r.duration_ms) or type(r.duration_ms) == "number" then
          what[#what + 1] = ("%d ms"):format(math.floor(r.duration_ms + 0.5))
        end
        out[#out + 1] = ("[%s] %s => %s%s%s"):format(tostring(r.method or "GET"), tostring(r.url),
          tostring(r.status or r.failure or "pending"), #what > 0 and (" (" .. table.concat(what, ", ") .. ")") or "",
          g.n > 1 and (" ×%d"):format(g.n) or "")
      end
      if #groups == 0 then out[#out + 1] = "(none)" end
      local structured = {}
      for i, g in ipairs(groups) do
        local r = g.first
        structured[i] = { method = r.method, url = r.url, status = r.status, failure = r.failure, type = r.type,
          duration_ms = r.duration_ms, count = g.n }
      end
      return { text = table.concat(out, "\n"),
        structured = { requests = require("vdx.json").array(structured), earlier = earlier } }
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
    title = "Evaluate JavaScript (read-only)",
    description = "Evaluate a JavaScript function on the page (or on an element, with ref) and return its JSON value (at most 64 KiB of JSON; a longer value is cut and the answer says how long it was).\n"
      .. "Read-only, enforced by the JavaScript engine: the function runs in V8's side-effect-free mode, and anything V8 cannot prove free of side effects (a write to the page, a request, a timer, a promise, an event, a navigation) is refused with EvaluateRefused before it acts. Some pure reads are refused too (getElementById: use querySelector('#id'); closest, matches, new URL): read with browser_snapshot, browser_find, resolve_container or inspect_pattern instead.\n"
      .. "Without ref the function runs in the page's main world (it sees the page's script variables); with ref it gets the element and runs in an isolated world of its own (it sees the DOM, not the page's variables). The source is compiled by itself: give one function expression and nothing around it.",
    input = readonly.input(util.ELEMENT, util.REF),
    annotations = { readOnlyHint = true },
    run = function(ctx, args)
      local r = readonly.run(ctx:page(), args["function"], { ref = args.ref, timeout_ms = args.timeout })
      return readonly.answer(r)
    end,
  },
}
