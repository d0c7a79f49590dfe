--- vdx.builtin.network: the current role's network state (offline,
-- throttling), its CPU throttling, its traffic as a HAR file and the PDF
-- of its page.  Names and
-- arguments follow Playwright MCP (browser_network_state_set { state },
-- browser_pdf_save { filename }); the throttling presets are
-- chrome-devtools-mcp's.  Each change to the role's world is recorded as
-- a "code" step, so the exported test does the same where Playwright can.
local vdx = require "vdx"
local util = require "vdx.builtin.util"
local network = require "vdx.network"

local PRESETS = { "No emulation", "Slow 3G", "Fast 3G", "Slow 4G", "Fast 4G" }

-- A number as a person writes it: 4, not 4.0 (JSON numbers may come as floats).
local function num(v)
  if math.type(v) == "float" and v == math.floor(v) and math.abs(v) < 2^53 then return ("%d"):format(v) end
  return tostring(v)
end

local function invalid(msg, field)
  error(vdx.error("InvalidArgument", msg, { field = field }), 0)
end

-- The page:network options of the tool's arguments.
local function state_opts(args)
  local opts = {}
  if args.state ~= nil then opts.offline = args.state == "offline" end
  if args.throttling ~= nil then opts.preset = args.throttling end
  opts.latency_ms, opts.download_bps, opts.upload_bps = args.latency, args.downloadThroughput, args.uploadThroughput
  return opts
end

-- The throttling of conditions c in words ("latency 2000 ms, download
-- 50000 B/s"), its parts that are set.
local function throttled(c)
  local parts = {}
  if c.latency > 0 then parts[#parts + 1] = ("latency %s ms"):format(num(c.latency)) end
  if c.downloadThroughput >= 0 then parts[#parts + 1] = ("download %s B/s"):format(num(c.downloadThroughput)) end
  if c.uploadThroughput >= 0 then parts[#parts + 1] = ("upload %s B/s"):format(num(c.uploadThroughput)) end
  return table.concat(parts, ", ")
end

-- The Playwright lines of the change: setOffline where Playwright has it,
-- a comment for the throttling, which it has no API for.
local function state_lines(args, c)
  local lines = {}
  if args.state ~= nil then
    lines[#lines + 1] = ("await {context}.setOffline(%s);"):format(args.state == "offline" and "true" or "false")
  end
  if c.latency > 0 or c.downloadThroughput >= 0 or c.uploadThroughput >= 0 then
    lines[#lines + 1] = ("// vdx throttled the network here (%s); Playwright has no API for throttling, so the "
      .. "test runs unthrottled"):format(throttled(c))
  elseif args.throttling == "No emulation" then
    lines[#lines + 1] = "// vdx ended the network throttling here"
  end
  return lines
end

local function describe_state(c)
  local t = throttled(c)
  return (c.offline and "offline" or "online") .. (t ~= "" and (", " .. t) or "")
end

-- What a throttling answer adds: the test cannot do it.
local UNTHROTTLED = "The exported test and its flake gate run unthrottled (Playwright has no API for it): to test a "
  .. "slow server, hold its requests with browser_route {pattern, delay}, which the test writes."

-- The HAR recorder of each role (one at a time), by role object.
local recorders = setmetatable({}, { __mode = "k" })

return {
  {
    name = "browser_network_state_set",
    title = "Set network state",
    description = "Set the current role's network (every tab of it, and tabs it opens later): state \"offline\" makes "
      .. "every request fail, \"online\" restores it; throttling slows it with a preset (chrome-devtools-mcp's names; "
      .. "\"No emulation\" ends it) or with latency and throughputs of your own. Offline is exported as "
      .. "context.setOffline(); throttling has no Playwright API and is exported as a comment.",
    input = { type = "object", properties = {
      state = { type = "string", enum = { "online", "offline" },
        description = "\"offline\" to simulate no network, \"online\" to restore it" },
      throttling = { type = "string", enum = PRESETS, description = "A throttling preset; \"No emulation\" ends throttling" },
      latency = { type = "number", minimum = 0, description = "Added latency of each request, in milliseconds" },
      downloadThroughput = { type = "number", minimum = 0, description = "Download throughput, bytes per second" },
      uploadThroughput = { type = "number", minimum = 0, description = "Upload throughput, bytes per second" },
    } },
    annotations = { readOnlyHint = false },
    run = function(ctx, args)
      if args.state == nil and args.throttling == nil and args.latency == nil and args.downloadThroughput == nil
          and args.uploadThroughput == nil then
        invalid("give state (\"online\" or \"offline\"), throttling (a preset) or latency/downloadThroughput/"
          .. "uploadThroughput", "state")
      end
      local opts = state_opts(args)
      local c = network.conditions(opts, "browser_network_state_set")
      ctx.role:context():network(opts)
      -- The gate replays what the test does: offline, not the throttling.
      local offline = args.state ~= nil and { offline = opts.offline } or nil
      -- A change of the state alone replaces the one before it, and one
      -- back online leaves nothing for a new test to keep (Log:restart).
      local alone = args.throttling == nil and args.latency == nil and args.downloadThroughput == nil
        and args.uploadThroughput == nil
      util.record(ctx, { kind = "code", world = true, tool = "browser_network_state_set", lines = state_lines(args, c),
        replay = offline and function(page) page:context():network(offline) end,
        setting = alone and "offline" or nil, default = alone and not opts.offline or nil })
      local text = "Network is now " .. describe_state(c) .. " in the role's tabs"
      if c.latency > 0 or c.downloadThroughput >= 0 or c.uploadThroughput >= 0 then
        text = text .. ".\n" .. UNTHROTTLED
      end
      return { text = text, structured = { offline = c.offline, latency = c.latency,
        downloadThroughput = c.downloadThroughput, uploadThroughput = c.uploadThroughput } }
    end,
  },
  {
    name = "browser_cpu_throttle",
    title = "Throttle the CPU",
    description = "Slow the current role's pages' CPU down by rate (4 = four times slower; 1 ends it), every tab "
      .. "of the role and those it opens later (Emulation.setCPUThrottlingRate). Playwright has no API for it: "
      .. "the exported test has a comment instead.",
    input = { type = "object", required = { "rate" }, properties = {
      rate = { type = "number", minimum = 1, maximum = 100, description = "Slowdown factor; 1 ends the throttling" },
    } },
    annotations = { readOnlyHint = false },
    run = function(ctx, args)
      local rate = args.rate
      ctx.role:context():cpu_throttle(rate)
      util.record(ctx, { kind = "code", world = true, tool = "browser_cpu_throttle", setting = "cpu",
        default = rate == 1 or nil,
        lines = { rate == 1 and "// vdx ended the CPU throttling here" or
          ("// vdx throttled the CPU %sx here; Playwright has no API for it, so the test runs at full speed")
            :format(num(rate)) } })
      -- (No replay: the gate runs what the test does, at full speed.)
      return { text = rate == 1 and "CPU throttling ended" or
        ("CPU throttled %sx in the role's tabs.\nThe exported test and its flake gate run at full speed (Playwright "
          .. "has no API for it)."):format(num(rate)), structured = { rate = rate } }
    end,
  },
  {
    name = "browser_start_har",
    title = "Start recording a HAR",
    description = "Record the current role's traffic (every tab of it, and tabs it opens later) as a HAR 1.2 file "
      .. "in the output folder, written by browser_stop_har (or when the browser closes). content \"embed\" "
      .. "(default) keeps each response body, \"omit\" none; url keeps only the requests a glob matches.",
    input = { type = "object", properties = {
      filename = { type = "string", description = "File name, relative to the output folder; an existing file is "
        .. "never replaced. Default: traffic-<time>-<n>.har" },
      content = { type = "string", enum = { "embed", "omit" }, description = "Keep the response bodies (embed) or not" },
      url = { type = "string", description = "Only requests whose URL matches this glob (** any characters, * any but /)" },
    } },
    annotations = { readOnlyHint = false },
    run = function(ctx, args)
      local role = ctx.role
      if recorders[role] and not recorders[role].result then
        invalid("the role records a HAR already (to " .. tostring(recorders[role].path or "the default name")
          .. "); call browser_stop_har first", "filename")
      end
      local policy = util.paths(ctx)
      -- The name is checked now, so a bad one is refused before recording.
      local rel = args.filename and policy:output_name(args.filename, "traffic", "har")
      recorders[role] = role:context():record_har { path = rel or false, content = args.content, url = args.url,
        paths = policy }
      util.record(ctx, { kind = "code", world = true, tool = "browser_start_har", lines = {
        ("// vdx recorded this role's traffic to a HAR file here (Playwright: browser.newContext({ recordHar: "
          .. "{ path: '%s' } }))"):format(rel or "traffic.har") } })
      return { text = "Recording the role's traffic; browser_stop_har writes the file",
        structured = { recording = true } }
    end,
  },
  {
    name = "browser_stop_har",
    title = "Stop recording the HAR",
    description = "Stop the current role's HAR recording (browser_start_har) and write the file into the output folder.",
    input = { type = "object", properties = {} },
    annotations = { readOnlyHint = false },
    run = function(ctx)
      local r = recorders[ctx.role]
      if not r or r.result then invalid("the role records no HAR: call browser_start_har first", "filename") end
      local res = r:stop()
      recorders[ctx.role] = nil
      -- The recording is over: the next test does not keep it.
      for _, s in ipairs(ctx.session and ctx.session:list() or {}) do
        if s.tool == "browser_start_har" and s.role == ctx.role.name then s.world = nil end
      end
      return { text = ("Saved %d entries to %s"):format(res.entries, res.path),
        structured = { path = res.path, entries = res.entries } }
    end,
  },
  {
    name = "browser_pdf_save",
    cap = "pdf",
    title = "Save as PDF",
    description = "Save the current page as a PDF file in the output folder (headless browsers only: a headed "
      .. "one answers HeadlessOnly).",
    input = { type = "object", properties = {
      filename = { type = "string", description = "File name, relative to the output folder (default vdx-output/; "
        .. "--output-dir); folders in it are made; an existing file is never replaced. Default: page-<time>-<n>.pdf" },
    } },
    annotations = { readOnlyHint = true },
    run = function(ctx, args)
      local page = ctx:page()
      local policy = util.paths(ctx)
      -- The name is checked first, so a bad one is refused before printing.
      local rel = args.filename and policy:output_name(args.filename, "page", "pdf")
      local res = page:pdf()
      local path = policy:write_file(rel, "page", "pdf", vdx.base64_decode(res.base64))
      return { text = ("Saved page as PDF to %s (%d bytes)"):format(path, res.size),
        structured = { path = path, size = res.size } }
    end,
  },
}
