--- vdx.options: the command line of `vdxlua mcp`.
local options = {}

--- The usage text of `vdxlua mcp`.
options.USAGE = [[
usage: vdxlua mcp [OPTIONS]      serve MCP over stdio (JSON-RPC, one message a line)
       vdxlua mcp --port N [OPTIONS]   serve MCP over HTTP (Streamable HTTP at /mcp)

  --port N                       serve MCP over HTTP on port N (0: any free port) at
                                 http://HOST:N/mcp, many clients, a session each with
                                 its own roles (docs/mcp.md, Over HTTP)
  --host ADDR                    the address --port listens on (default 127.0.0.1)
  --allow-remote                 let --host be an address that is not loopback:
                                 whoever reaches it drives the browser

  --role NAME AUTH_FILE [URL]    a role with its Playwright storageState file
                                 ("-" for none) and default URL (repeatable)
  --auth-required NAME           the role's auth file must load, or calls fail
  --role-endpoint NAME URL       the role's browser is remote (ws://, wss://, http://
                                 or https://; docs/farms.md)
  --endpoint URL                 a remote endpoint of the pool every role without
                                 --role-endpoint runs on (repeatable: roles are
                                 spread over them, least loaded first;
                                 docs/scale.md)
  --max-sessions N               sessions (roles) per --endpoint (default 10)
  --pool-wait MS                 how long a role waits for a place in a full pool
                                 before PoolExhausted (default 30000)
  --header 'NAME: VALUE'         send this header when connecting to an endpoint
                                 (repeatable; e.g. a farm's Authorization)
  --cacert FILE                  trust this CA (PEM) for wss:// and https:// endpoints
  --insecure                     accept any certificate of a wss:// or https:// endpoint
  --retries N                    ask a full farm (HTTP 429) again N times (default 4)
  --config FILE.lua              roles and options from a Lua table
  --tools FILE.lua               load user tools (repeatable; a missing file stops
                                 start-up)
  --skills DIR                   load the skills in DIR (repeatable; a missing
                                 folder stops start-up).  $VDX_SKILLS adds more
                                 folders (':'-separated).  Nothing is loaded from
                                 the current folder unless named here.
  --no-default-skills            do not load the built-in skills (compiled in)
  --no-watch                     do not reload --tools files and --skills folders
                                 when they change (hot reload is on by default)
  --workspace DIR                the project under test, for the workspace skill's
                                 tools (default: $VDX_WORKSPACE, else the current folder);
                                 also confines every file a tool reads to DIR
  --output-dir DIR               where tools write files (screenshots); default
                                 vdx-output/ in the workspace or the current folder
  --secrets FILE                 secrets in dotenv form (NAME=value): each value is
                                 shown as <secret>NAME</secret> in every answer and
                                 log, typed by its NAME, and read from process.env
                                 in an exported test (docs/world.md, Secrets)
  --save-test FILE               write the session as a Playwright test to FILE
                                 (kept current after each step, and written at exit)
  --caps LIST                    serve these tool groups too (comma-separated): network
                                 (routes, HAR, offline, throttling), pdf, storage
                                 (cookies, storage state), emulation, clock, vision
                                 (browser_click_at); or all
  --allow-file-urls              let pages open local files (file: URLs are refused
                                 otherwise, typed or reached)
  --allow-unsafe-code            add the tool browser_run_code_unsafe: JavaScript that
                                 may act, without browser_evaluate's read-only check
  --headed                       show the browser window
  --browser-arg ARG              extra Chromium flag (repeatable)
  --executable PATH              the Chromium to launch (default: $VDX_CHROMIUM, else
                                 chromium-headless-shell, chromium, chromium-browser or
                                 google-chrome on PATH; headed, the last three)
  --max-message-bytes N          refuse longer messages (default 4 MiB)
  --log FILE                     log here instead of stderr
  --log-level LEVEL              error, warn, info (default) or debug]]

-- Every option USAGE names, in its order.
local function known_options()
  local list, seen = {}, {}
  for o in options.USAGE:gmatch("\n%s+(%-%-[%w-]+)") do
    if not seen[o] then seen[o], list[#list + 1] = true, o end
  end
  return list
end

-- The message for an argument that is no option of `vdxlua mcp`.
local function unknown(a)
  local known = known_options()
  local near = a:match("^%-") and require("vdx.spelling").nearest(a, known, math.max(2, #a // 4))
  return ("unknown option '%s'%s; the options are listed below"):format(a,
    near and (" (did you mean " .. near .. "?)") or "")
end

local function is_url(s)
  return type(s) == "string" and (s:match("^%a[%w+.-]*://") or s:match("^about:")) ~= nil
end

--- Adds the capabilities of list ("network,storage" or "all") to o.caps;
-- raises a message naming an unknown one and the known ones.
function options.add_caps(o, list)
  local builtin = require "vdx.builtin"
  o.caps = o.caps or {}
  for name in tostring(list):gmatch("[^,%s]+") do
    if name == "all" then
      for _, c in ipairs(builtin.cap_names()) do o.caps[c] = true end
    elseif builtin.caps[name] then
      o.caps[name] = true
    else
      local near = require("vdx.spelling").nearest(name, builtin.cap_names())
      error(("--caps: unknown capability '%s'%s; the capabilities are %s and all"):format(name,
        near and (" (did you mean " .. near .. "?)") or "", table.concat(builtin.cap_names(), ", ")), 0)
    end
  end
end

--- Parses args (a list of strings after `mcp`).  Returns the options
-- table, or nil and a message naming the bad argument.
function options.parse(args)
  local o = { roles = {}, endpoints = {}, pool = {}, required = {}, tools = {}, skills = {}, browser_args = {},
    caps = {}, default_skills = true, watch = true, headless = true, max_bytes = 4 * 1024 * 1024, log_level = "info" }
  local i, conn = 1, { header = {} }
  local function value(name)
    local v = args[i + 1]
    if v == nil then error(name .. " needs a value", 0) end
    i = i + 1
    return v
  end
  local ok, err = pcall(function()
    while i <= #args do
      local a = args[i]
      if a == "--role" then
        local name, auth = value(a), value(a)
        local url
        if is_url(args[i + 1]) then url = value(a)
        elseif type(args[i + 1]) == "string" and args[i + 1]:match("^[%w.-]+:%d+") then
          -- host:port is a URL without its scheme (vdx.urls says which).
          local _, suggestion = require("vdx.urls").problem(args[i + 1])
          error(("--role %s: the URL %q has no scheme; write %s"):format(name, args[i + 1], suggestion), 0)
        end
        o.roles[#o.roles + 1] = { name = name, auth = auth ~= "-" and auth or nil, url = url }
      elseif a == "--auth-required" then o.required[#o.required + 1] = value(a)
      elseif a == "--role-endpoint" then
        local name, url = value(a), value(a)
        local okc, e = pcall(require("vdx.remote").check, require "vdx", url)
        if not okc then error("--role-endpoint " .. name .. " " .. e.message, 0) end
        o.endpoints[#o.endpoints + 1] = { name = name, url = url }
      elseif a == "--endpoint" then
        local url = value(a)
        local okc, e = pcall(require("vdx.remote").check, require "vdx", url)
        if not okc then error("--endpoint " .. e.message, 0) end
        o.pool[#o.pool + 1] = url
      elseif a == "--max-sessions" or a == "--pool-wait" then
        local n = math.tointeger(tonumber(value(a)))
        local least = a == "--max-sessions" and 1 or 0
        if not n or n < least then error(("%s needs a whole number >= %d"):format(a, least), 0) end
        o[a == "--max-sessions" and "max_sessions" or "pool_wait_ms"] = n
      elseif a == "--header" then conn.header[#conn.header + 1] = value(a)
      elseif a == "--cacert" then conn.ca = value(a)
      elseif a == "--insecure" then conn.insecure = true
      elseif a == "--retries" then conn.retries = value(a)
      elseif a == "--config" then o.config = value(a)
      elseif a == "--tools" then o.tools[#o.tools + 1] = value(a)
      elseif a == "--skills" then o.skills[#o.skills + 1] = value(a)
      elseif a == "--no-default-skills" then o.default_skills = false
      elseif a == "--no-watch" then o.watch = false
      elseif a == "--workspace" then o.workspace = value(a)
      elseif a == "--output-dir" then o.output_dir = value(a)
      elseif a == "--save-test" then o.save_test = value(a)
      elseif a == "--secrets" then o.secrets = value(a)
      elseif a == "--caps" then options.add_caps(o, value(a))
      elseif a == "--allow-file-urls" then o.allow_file_urls = true
      elseif a == "--allow-unsafe-code" then o.allow_unsafe_code = true
      elseif a == "--headed" then o.headless = false
      elseif a == "--browser-arg" then
        local v = value(a)
        -- (Chromium takes a word that is no switch for a page to open.)
        if v:sub(1, 1) ~= "-" then
          error(("--browser-arg %q is no Chromium switch: give one that starts with -- (--name=value)"):format(v), 0)
        end
        o.browser_args[#o.browser_args + 1] = v
      elseif a == "--executable" then o.executable = value(a)
      elseif a == "--max-message-bytes" then
        o.max_bytes = math.tointeger(tonumber(value(a)))
        if not o.max_bytes or o.max_bytes < 1024 then error("--max-message-bytes needs an integer >= 1024", 0) end
      elseif a == "--log" then o.log = value(a)
      elseif a == "--log-level" then
        o.log_level = value(a)
        if not ({ error = 1, warn = 1, info = 1, debug = 1 })[o.log_level] then
          error("--log-level must be error, warn, info or debug", 0)
        end
      elseif a == "--port" then
        o.port = math.tointeger(tonumber(value(a)))
        if not o.port or o.port < 0 or o.port > 65535 then error("--port needs an integer in 0..65535", 0) end
      elseif a == "--host" then o.host = value(a)
      elseif a == "--allow-remote" then o.allow_remote = true
      elseif a == "--help" or a == "-h" then o.help = true
      else error(unknown(tostring(a)), 0) end
      i = i + 1
    end
    if (o.host or o.allow_remote) and not o.port then error((o.host and "--host" or "--allow-remote") ..
      " goes with --port (MCP over HTTP)", 0) end
    if o.host and not o.allow_remote and not require("vdx.mcp_http").loopback(o.host) then
      error(("--host %s is not a loopback address: anyone who reaches it could drive the browser; add " ..
        "--allow-remote to listen there anyway, or use 127.0.0.1"):format(o.host), 0)
    end
    if o.port and o.save_test then error("--save-test is for stdio; over HTTP each session exports its own " ..
      "test (browser_export_test)", 0) end
    local c, cerr = require("vdx.remote").from_flags(conn)
    if cerr then error(cerr, 0) end
    o.connect = c
  end)
  if not ok then return nil, err end
  return o
end

return options
