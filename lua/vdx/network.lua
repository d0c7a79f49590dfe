--- vdx.network: what a script sees of and sets on the network around a
-- page, added to vdx.Page and vdx.Context: the response hook
-- (page:on_response, ctx:on_response), offline and throttling
-- (page:network, ctx:network), CPU throttling (page:cpu_throttle,
-- ctx:cpu_throttle), the PDF of a page (page:pdf), and HAR recording
-- (page:record_har, ctx:record_har, in vdx.har).  Policy only: the events
-- come from the Network domain the core enables on each page (vdx.netwatch).
local vdx = require "vdx.core"
local netwatch = require "vdx.netwatch"

local network = {}

local function bad(msg, field)
  error(vdx.error("InvalidArgument", msg, { field = field }), 3)
end

local function check_opts(opts, known, what)
  if opts == nil then return {} end
  if type(opts) ~= "table" then bad(what .. ": options must be a table, got " .. type(opts), "opts") end
  for k in pairs(opts) do
    if not known[k] then
      local names = {}
      for n in pairs(known) do names[#names + 1] = n end
      table.sort(names)
      bad(("%s: unknown option %q (known: %s)"):format(what, tostring(k), table.concat(names, ", ")), tostring(k))
    end
  end
  return opts
end
network.check_opts = check_opts

-- ------------------------------------------------------------ URL globs

--- A predicate on URLs from a glob (Playwright's URL globs, as routes
-- read them: vdx.route_match), a function fn(url) -> bool, or nil (every
-- URL).
function network.url_matcher(glob, what)
  if glob == nil then return function() return true end end
  if type(glob) == "function" then return glob end
  if type(glob) ~= "string" then bad(what .. ": url must be a glob string or a function", "url") end
  return require("vdx.route_match").compile(glob)
end

-- ------------------------------------------------------ response hook

local function lower_headers(h)
  local out = {}
  for k, v in pairs(h or {}) do out[k:lower()] = v end
  return out
end

-- The response object a hook gets, from a finished record (body asked).
local function response_of(page, rec, want_body)
  local res = rec.response
  local req = rec.request
  local post = req.postData
  if post == nil and req.hasPostData and not page:is_closed() then
    local ok, r = pcall(page.send, page, "Network.getRequestPostData", { requestId = rec.id })
    if ok then post = r.postData end
  end
  local out = { url = res.url or req.url, status = res.status, status_text = res.statusText,
    headers = lower_headers(res.headers), mime_type = res.mimeType, resource_type = rec.type,
    request = { method = req.method, url = req.url, headers = lower_headers(req.headers), post_data = post },
    frame = netwatch.frame_name(page, rec.frame_id), failure = rec.failed,
    redirected_to = rec.redirected }
  if want_body and not rec.failed and not rec.redirected and not page:is_closed() then
    local ok, r = pcall(page.send, page, "Network.getResponseBody", { requestId = rec.id })
    if ok then
      out.body = r.base64Encoded and vdx.base64_decode(r.body) or r.body
    else
      out.body_error = type(r) == "table" and r.message or tostring(r)
    end
  end
  return out
end

local HOOK_OPTS = { body = true, url = true }

local function hook_page(page, fn, opts, match)
  return netwatch.subscribe(page, { finished = function(p, rec)
    if not rec.response or not match(rec.response.url or rec.request.url) then return end
    vdx.spawn(function() fn(response_of(p, rec, opts.body)) end)
  end })
end

local function check_hook(fn, opts, what)
  if type(fn) ~= "function" then bad(what .. ": the hook must be a function", "fn") end
  opts = check_opts(opts, HOOK_OPTS, what)
  return opts, network.url_matcher(opts.url, what)
end

--- page:on_response(fn [, { body = false, url = glob }]) -> off(): fn(response)
-- runs as a task for each response of the page (when its body has
-- loaded): { url, status, status_text, headers (lower-case names),
-- mime_type, resource_type, request = { method, url, headers, post_data },
-- frame, body (bytes; only with body = true), failure?, redirected_to? }.
-- off() stops it.
function network.page_on_response(page, fn, opts)
  local match
  opts, match = check_hook(fn, opts, "page:on_response")
  return hook_page(page, fn, opts, match)
end

--- ctx:on_response(fn [, opts]) -> off(): page:on_response on every page
-- of the context, those it opens later included.
function network.context_on_response(ctx, fn, opts)
  local match
  opts, match = check_hook(fn, opts, "ctx:on_response")
  local offs, stopped = {}, false
  local stop_new = netwatch.on_pages(ctx, function(page)
    if not stopped then offs[#offs + 1] = hook_page(page, fn, opts, match) end
  end)
  return function()
    stopped = true
    stop_new()
    for _, off in ipairs(offs) do off() end
  end
end

-- ---------------------------------------------------- network state

--- The throttling presets, as chrome-devtools-mcp and Puppeteer name them
-- (PredefinedNetworkConditions; bytes per second, milliseconds).
network.PRESETS = {
  ["Slow 3G"] = { download_bps = 50000, upload_bps = 50000, latency_ms = 2000 },
  ["Fast 3G"] = { download_bps = 180000, upload_bps = 84375, latency_ms = 562.5 },
  ["Slow 4G"] = { download_bps = 180000, upload_bps = 84375, latency_ms = 562.5 },
  ["Fast 4G"] = { download_bps = 1012500, upload_bps = 168750, latency_ms = 165 },
}
local PRESET_NAMES = { "No emulation", "Offline", "Slow 3G", "Fast 3G", "Slow 4G", "Fast 4G" }
network.PRESET_NAMES = PRESET_NAMES

local STATE_OPTS = { offline = true, latency_ms = true, download_bps = true, upload_bps = true, preset = true }

--- The CDP parameters of Network.emulateNetworkConditions for opts.
function network.conditions(opts, what)
  opts = check_opts(opts, STATE_OPTS, what)
  local c = { offline = false, latency = 0, downloadThroughput = -1, uploadThroughput = -1 }
  if opts.preset ~= nil then
    local p = network.PRESETS[opts.preset]
    if opts.preset == "Offline" then c.offline = true
    elseif opts.preset ~= "No emulation" and not p then
      bad(("%s: unknown preset %q (known: %s)"):format(what, tostring(opts.preset), table.concat(PRESET_NAMES, ", ")),
        "preset")
    end
    if p then c.latency, c.downloadThroughput, c.uploadThroughput = p.latency_ms, p.download_bps, p.upload_bps end
  end
  for key, field in pairs { latency_ms = "latency", download_bps = "downloadThroughput", upload_bps = "uploadThroughput" } do
    local v = opts[key]
    if v ~= nil then
      if type(v) ~= "number" or v < 0 then bad(("%s: %s must be a number >= 0"):format(what, key), key) end
      c[field] = v
    end
  end
  if opts.offline ~= nil then
    if type(opts.offline) ~= "boolean" then bad(what .. ": offline must be a boolean", "offline") end
    c.offline = c.offline or opts.offline
  end
  return c
end

-- Sends the conditions to the page's session and to each of its
-- out-of-process frames (which load through their own session).
local function send_conditions(page, c)
  page:send("Network.emulateNetworkConditions", c)
  local ok, frames = pcall(page.frames, page)
  if ok then
    for _, f in ipairs(frames) do
      if f.out_of_process then pcall(page.send, page, "Network.emulateNetworkConditions", c, { frame = f.frame }) end
    end
  end
end

-- Returns once the network service holds the conditions sent before.
-- The browser hands them to the network service on its own channel and
-- answers the command without waiting, so a request a page starts at once
-- can reach the network service first: a fetch sent together with the
-- command went out online once in 100, and CI saw one right after the
-- answer.  Network.getCookies (of a URL with none) is answered by the
-- network service over the browser's same channel, after the conditions:
-- one round trip covers every page and frame of the browser.
local function settled(page)
  page:send("Network.getCookies", { urls = { "http://vdx.invalid/" } })
end

local function apply_conditions(page, c)
  send_conditions(page, c)
  settled(page)
end

--- page:network{ offline =, latency_ms =, download_bps =, upload_bps =,
-- preset = } -> the conditions set: an empty table (or preset "No
-- emulation") restores the network.
function network.page_network(page, opts)
  local c = network.conditions(opts, "page:network")
  apply_conditions(page, c)
  return c
end

--- ctx:network{…}: page:network on every page of the context, those it
-- opens later included, until the next ctx:network.
local ctx_conditions = setmetatable({}, { __mode = "k" })
function network.context_network(ctx, opts)
  local c = network.conditions(opts, "ctx:network")
  local key = ctx:browser()
  ctx_conditions[key] = ctx_conditions[key] or {}
  local per = ctx_conditions[key]
  local first = per[ctx:id()] == nil
  per[ctx:id()] = { net = c, cpu = per[ctx:id()] and per[ctx:id()].cpu }
  local pages = ctx:pages()
  for _, page in ipairs(pages) do send_conditions(page, c) end
  if #pages > 0 then settled(pages[#pages]) end
  if first then network.follow(ctx, per) end
  return c
end

-- Applies a context's current conditions to each page it opens later.
function network.follow(ctx, per)
  local id = ctx:id()
  local seen = setmetatable({}, { __mode = "k" })
  for _, page in ipairs(ctx:pages()) do seen[page] = true end
  netwatch.on_pages(ctx, function(page)
    if seen[page] then return end
    seen[page] = true
    local st = per[id]
    if st and st.net then apply_conditions(page, st.net) end
    if st and st.cpu then page:send("Emulation.setCPUThrottlingRate", { rate = st.cpu }) end
  end)
end

--- page:cpu_throttle(rate) -> rate: the page's CPU runs rate times slower
-- (Emulation.setCPUThrottlingRate; 1 ends the throttling).
function network.page_cpu_throttle(page, rate)
  if type(rate) ~= "number" or rate < 1 then bad("page:cpu_throttle: rate must be a number >= 1 (1: no throttling)", "rate") end
  page:send("Emulation.setCPUThrottlingRate", { rate = rate })
  return rate
end

--- ctx:cpu_throttle(rate): page:cpu_throttle on every page of the
-- context, those it opens later included.
function network.context_cpu_throttle(ctx, rate)
  if type(rate) ~= "number" or rate < 1 then bad("ctx:cpu_throttle: rate must be a number >= 1 (1: no throttling)", "rate") end
  local key = ctx:browser()
  ctx_conditions[key] = ctx_conditions[key] or {}
  local per = ctx_conditions[key]
  local first = per[ctx:id()] == nil
  per[ctx:id()] = { net = per[ctx:id()] and per[ctx:id()].net, cpu = rate }
  for _, page in ipairs(ctx:pages()) do page:send("Emulation.setCPUThrottlingRate", { rate = rate }) end
  if first then network.follow(ctx, per) end
  return rate
end

-- ---------------------------------------------------------------- PDF

local PDF_OPTS = { path = true, landscape = true, print_background = true, scale = true, page_ranges = true,
  paper_width = true, paper_height = true, margin = true, prefer_css_page_size = true, header_template = true,
  footer_template = true, timeout_ms = true }

-- True when the page's browser runs headless (its product says so);
-- cached per browser.
local headless_of = setmetatable({}, { __mode = "k" })
local function headless(page)
  local b = page:context():browser()
  if headless_of[b] == nil then
    local v = b:version()
    headless_of[b] = tostring(v.product or ""):match("^HeadlessChrome") ~= nil
      or tostring(v.userAgent or ""):match("HeadlessChrome") ~= nil
  end
  return headless_of[b]
end

--- page:pdf{ path?, landscape = false, print_background = true, scale,
-- page_ranges ("1-3"), paper_width / paper_height (inches), margin
-- (inches, a number or { top, bottom, left, right }),
-- prefer_css_page_size, header_template, footer_template, timeout_ms }
-- -> { path?, size, base64 }: the page printed (Page.printToPDF).  With
-- path the file is written (vdx.write_base64).  A headed browser raises
-- HeadlessOnly.
function network.page_pdf(page, opts)
  opts = check_opts(opts, PDF_OPTS, "page:pdf")
  if not headless(page) then
    error(vdx.error("HeadlessOnly", "page:pdf: Chromium prints a page to PDF only when it runs headless; this browser "
      .. "is headed. Launch with headless = true (vdxlua mcp: without --headed) to save a PDF, or take a screenshot",
      { method = "page:pdf" }), 2)
  end
  local p = { landscape = opts.landscape == true, printBackground = opts.print_background ~= false,
    scale = opts.scale, pageRanges = opts.page_ranges, paperWidth = opts.paper_width,
    paperHeight = opts.paper_height, preferCSSPageSize = opts.prefer_css_page_size }
  if opts.header_template or opts.footer_template then
    p.displayHeaderFooter = true
    p.headerTemplate, p.footerTemplate = opts.header_template or "<span></span>", opts.footer_template or "<span></span>"
  end
  local m = opts.margin
  if type(m) == "number" then
    p.marginTop, p.marginBottom, p.marginLeft, p.marginRight = m, m, m, m
  elseif type(m) == "table" then
    p.marginTop, p.marginBottom, p.marginLeft, p.marginRight = m.top, m.bottom, m.left, m.right
  end
  local ok, r = pcall(page.send, page, "Page.printToPDF", p, { timeout_ms = opts.timeout_ms })
  if not ok then
    -- A browser that says it is headless and still cannot print (a headed
    -- one behind a proxy that renames it) answers "not implemented".
    if vdx.is_error(r, "CDPError") and tostring(r.message):lower():find("not implemented", 1, true) then
      headless_of[page:context():browser()] = false
      error(vdx.error("HeadlessOnly", "page:pdf: this browser cannot print to PDF (" .. tostring(r.message)
        .. "); Chromium prints only when it runs headless", { method = "page:pdf" }), 2)
    end
    error(r, 0)
  end
  local out = { base64 = r.data, size = #vdx.base64_decode(r.data) }
  if opts.path ~= nil then
    if type(opts.path) ~= "string" then bad("page:pdf: path must be a string", "path") end
    out.path = vdx.write_base64(opts.path, r.data).path
  end
  return out
end

-- ------------------------------------------------------------ install

--- The methods table of vdx.Context.
function network.context_methods()
  return vdx.Context
end

--- Adds the methods to Page (vdx.Page) and to vdx.Context's and
-- vdx.Browser's methods tables.
function network.install(Page)
  local Context, Browser = vdx.Context, vdx.Browser
  netwatch.install(Context, Browser)
  local har = require "vdx.har"
  Page.on_response, Context.on_response = network.page_on_response, network.context_on_response
  Page.network, Context.network = network.page_network, network.context_network
  Page.cpu_throttle, Context.cpu_throttle = network.page_cpu_throttle, network.context_cpu_throttle
  Page.record_har, Context.record_har = har.page_record, har.context_record
  Page.pdf = network.page_pdf
end

return network
