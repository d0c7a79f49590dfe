--- vdx.builtin.observe: what the page logged and loaded, screenshots, and
-- the read-only evaluate.
local vdx = require "vdx"
local util = require "vdx.builtin.util"
local readonly = require "vdx.readonly"
local json = require "vdx.json"

-- The folder of the output folder that screenshots go to.
local SHOTS = "screenshots/"

local function lines(list, fmt)
  local out = {}
  for i, x in ipairs(list or {}) do out[i] = fmt(x) end
  return #out > 0 and table.concat(out, "\n") or "(none)"
end

-- The URL without its fragment.
local function bare(url)
  return (tostring(url or ""):gsub("#.*$", ""))
end

-- The seq of the request of the page's current document: the last
-- document request for the page's URL in every request of the tab
-- (whole, page:requests()), or nil (a page opened by a script, or one
-- whose load left the ring).
local function document_seq(page, whole)
  local at = require("vdx.urls").of(page)
  local url = at and bare(at)
  if not url then return nil end
  for i = #whole, 1, -1 do
    local r = whole[i]
    if r.type == "Document" and bare(r.url) == url then return r.seq end
  end
end

-- Where the current page's requests start in list (a page:requests
-- answer, filtered as shown): at its document's request
-- (document_seq), 1 when that is not found.
local function since_load(page, whole, list)
  local seq = document_seq(page, whole)
  if not seq then return 1 end
  for i, r in ipairs(list) do
    if (r.seq or 0) >= seq then return i end
  end
  return #list + 1
end

-- How many response bodies browser_network_requests {body} shows, and
-- how much of each.
local BODIES, BODY_CHARS = 5, 2000

-- The requests whose bodies are shown: the page's calls to its APIs, the
-- data a test mocks (not its documents, scripts or styles).
local API = { Fetch = true, XHR = true }

-- The kinds of response whose body is text worth showing.
local TEXTUAL = { "^text/", "json", "javascript", "xml", "urlencoded" }

-- The line of request r's response body (a page:requests record), counted
-- in bodies ({ shown, left }): its text, cut at BODY_CHARS, or why there
-- is none.  The browser keeps a body only while the page holds it.
local function body_line(page, r, bodies)
  bodies.shown = bodies.shown + 1
  local mime = tostring(r.mime_type or "")
  local textual = false
  for _, p in ipairs(TEXTUAL) do textual = textual or mime:find(p) ~= nil end
  if not r.status then return "  body: (none: the request did not finish)" end
  -- (One with no type is read: a route's empty body has none, and run
  -- BH read "(no type, not text)" for it.)
  if not textual and mime ~= "" then return ("  body: (%s, not text)"):format(mime) end
  -- A failed fetch or XHR kept its body as it finished (page:requests),
  -- so a later page's request list still shows what the API said.
  local text, size, binary = r.body, r.body_size, r.body_binary
  if text == nil and not binary then
    local ok, res = pcall(page.send, page, "Network.getResponseBody", { requestId = r.id })
    if not ok then
      if vdx.is_error(res, "Cancelled") then error(res, 0) end
      return "  body: (the browser no longer holds it: load the page again and ask at once)"
    end
    text, binary = tostring(res.body or ""), res.base64Encoded
    size = #text
  end
  if size == 0 then return "  body: (empty)" end
  if binary then return "  body: (binary)" end
  text = text:gsub("[\r\n]+%s*", " ")
  if size > BODY_CHARS then text = text:sub(1, BODY_CHARS) .. ("… (%d characters)"):format(size) end
  return "  body: " .. text
end

-- The requests of list from index from, those alike (method, URL, type
-- and outcome) as one { first, last, n }, in order of first appearance;
-- with bodies, a fetch or XHR whose body was kept (a failed one's) goes
-- with those of the same body only: two answers alike may say different
-- things (run BO's two 500s of /api/cart, its route's JSON the second).
-- The others' bodies are read from the browser, which holds the newest
-- (run EB's shop polled /api/products 24 times, each listed with a body
-- the browser no longer held).
local function grouped(list, from, bodies)
  local groups, by = {}, {}
  for i = from, #list do
    local r = list[i]
    local key = table.concat({ tostring(r.method), tostring(r.url), tostring(r.type),
      tostring(r.status or r.failure or "pending"), bodies and API[r.type] and r.body ~= nil and tostring(r.body) or ""
    }, "\0")
    local g = by[key]
    if g then g.n, g.last = g.n + 1, r else
      g = { first = r, last = r, n = 1 }
      by[key], groups[#groups + 1] = g, g
    end
  end
  return groups
end

return {
  {
    name = "browser_console_messages",
    title = "Get console messages",
    description = "The page's console messages and uncaught errors since it loaded.",
    input = { type = "object", properties = {
      onlyErrors = { type = "boolean", description = "Errors only" },
      level = { type = "string", enum = { "debug", "info", "log", "warning", "error" }, description = "Minimum level" },
      all = { type = "boolean", description = "Earlier pages' too (the tab's last 500)" },
    } },
    annotations = { readOnlyHint = true },
    run = function(ctx, args)
      local page = ctx:page()
      local list = page:console(
        { level = args.onlyErrors and "error" or args.level })
      local earlier = 0
      if not args.all then
        -- The messages since the current document's request (run S took
        -- an earlier order's errors for this one's).
        local seq = document_seq(page, page:requests())
        if seq then
          local kept = {}
          for _, m in ipairs(list) do
            if (m.request_seq or 0) >= seq then kept[#kept + 1] = m else earlier = earlier + 1 end
          end
          list = kept
        end
      end
      local text = lines(list, function(m)
        return ("[%s] %s%s"):format(tostring(m.level or m.type or "log"), tostring(m.text or ""), util.message_at(m))
      end)
      if earlier > 0 then
        text = ("Since the page loaded (%d earlier messages of this tab: all=true lists them too):\n"):format(earlier)
          .. text
      end
      return { text = text, structured = { messages = json.array(list), earlier = earlier } }
    end,
  },
  {
    name = "browser_network_requests",
    title = "List network requests",
    description = "The page's network requests since it loaded.",
    input = { type = "object", properties = {
      filter = { type = "string", description = "URL substring" },
      all = { type = "boolean", description = "Earlier pages' too (the tab's last 1000)" },
      body = { type = "boolean", description = "Also the responses' text (fetch/XHR: what to mock)" },
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
      local groups = grouped(list, from, args.body)
      -- The newest bodies are shown, the earlier ones over BODIES left out
      -- (run BT's one real body, the last, was cut behind earlier ones).
      local bodies, api = { shown = 0, left = 0 }, 0
      if args.body then
        for _, g in ipairs(groups) do if API[g.first.type] then api = api + 1 end end
      end
      bodies.left = math.max(0, api - BODIES)
      local skip = bodies.left
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
        if args.body and API[r.type] then
          if skip > 0 then skip = skip - 1 else out[#out + 1] = body_line(page, g.last, bodies) end
        end
      end
      if args.body and bodies.left > 0 then
        out[#out + 1] = ("(%d earlier bodies not shown: narrow the list with filter)"):format(bodies.left)
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
    description = "Save a screenshot of the viewport, page or an element.",
    input = { type = "object", properties = {
      type = { type = "string", enum = { "png", "jpeg" }, description = "Default png" },
      filename = { type = "string", description = "Name in the output folder's screenshots/ (default page-<time>-<n>.png)" },
      element = util.ELEMENT, ref = util.REF,
      fullPage = { type = "boolean", description = "The whole scrollable page" },
    } },
    annotations = { readOnlyHint = true },
    run = function(ctx, args)
      local page = ctx:page()
      local fmt = args.type or "png"
      local policy = util.paths(ctx)
      -- A name alone goes to screenshots/, away from the tests an output
      -- folder holds (runs EB, ED, EJ and EP deleted theirs from tests/);
      -- one with a folder goes where it says.
      local name = args.filename
      if type(name) == "string" and not name:find("/", 1, true) then name = SHOTS .. name end
      -- The name is checked first, so a bad one is refused before the capture.
      local rel = name and policy:output_name(name, SHOTS .. "page", fmt)
      local res = page:screenshot({ full_page = args.fullPage, ref = args.ref, format = fmt })
      local path = policy:write_file(rel, SHOTS .. "page", fmt, vdx.base64_decode(res.base64))
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
    description = "Run a read-only JavaScript function on the page or a ref's element; answers its JSON value. V8 refuses side effects (EvaluateRefused).",
    input = readonly.input(util.ELEMENT, util.REF),
    annotations = { readOnlyHint = true },
    run = function(ctx, args)
      local r = readonly.run(ctx:page(), args["function"], { ref = args.ref, timeout_ms = args.timeout })
      return readonly.answer(r)
    end,
  },
}
