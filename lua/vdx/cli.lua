--- vdx.cli: the `vdxlua` command line.
-- `vdxlua FILE [args] [-- args]` runs a script, `vdxlua -e CODE` runs a chunk,
-- `vdxlua --version` and `vdxlua --help` say what they say.  The main
-- function runs inside a vdx task, so the script's browser calls yield to
-- the event loop instead of blocking it.
local vdx = require "vdx"

local cli = {}

local USAGE = [[
usage: vdxlua FILE [ARGS...] [-- ARGS...]
                                 run a Lua script (arguments in `arg`; its
                                 dashed ones after --)
       vdxlua -e CODE [ARGS...]  run a chunk of Lua
       vdxlua mcp [OPTIONS]      serve MCP over stdio (vdxlua mcp --help)
       vdxlua tools [--markdown] list the MCP tools (Markdown reference)
       vdxlua FLOW.lua [--headed] [--slow-mo MS] [--trace FILE.json]
               [--report DIR] [--emit-playwright FILE.spec.ts]
               [--endpoint URL]... [--max-sessions N] [--pool-wait MS]
               [--header 'Name: value']... [--cacert FILE]
               [--insecure] [--retries N] [--executable PATH]
               [--secrets FILE] [ARGS...] [-- ARGS...]
                                 run a flow (--endpoint: every role's
                                 browser on a remote CDP endpoint, ws://,
                                 wss://, http:// or https://; see
                                 docs/farms.md; repeated, a pool that
                                 spreads the roles, each endpoint taking
                                 at most --max-sessions of them (10), a
                                 role waiting up to --pool-wait ms (30000)
                                 for a place; docs/scale.md;
                                 --executable: the Chromium
                                 to launch; --secrets: a dotenv file whose
                                 values no report, trace, error or export
                                 shows; an unknown option is an error;
                                 the script's own arguments follow, its
                                 dashed ones after --)
       vdxlua FLOW.lua --serve-only PORT [-- ARGS...]
                                 serve the app the flow's script starts,
                                 on PORT, without running its steps (what
                                 an exported test's config runs)
       vdxlua --version          print the version
       vdxlua --help             print this help

Scripts run on vdx's event loop: vdx.launch(), page:navigate() and the other
calls look blocking but let other tasks (vdx.spawn) run while they wait.
See README.md to start and docs/api.md for the API.]]

--- Builds the global `arg` table the way lua5.4 does.
local function set_arg(argv, script_index)
  local a = {}
  for i = 0, #argv do a[i - script_index] = argv[i] end
  _G.arg = a
  return table.unpack(a, 1, #argv - script_index)
end

-- Flow options (see vdx.flow), taken out of a script's command line
-- wherever they appear: flag -> { option, takes a value }.
local FLOW_FLAGS = {
  ["--headed"] = { "headed" }, ["--slow-mo"] = { "slow_mo", true }, ["--trace"] = { "trace", true },
  ["--report"] = { "report", true }, ["--emit-playwright"] = { "emit_playwright", true },
  ["--endpoint"] = { "endpoint", true }, ["--executable"] = { "executable", true },
  ["--serve-only"] = { "serve_only", true },
  ["--header"] = { "header", true }, ["--insecure"] = { "insecure" },
  ["--cacert"] = { "ca", true }, ["--retries"] = { "retries", true },
  ["--secrets"] = { "secrets", true },
  ["--max-sessions"] = { "max_sessions", true }, ["--pool-wait"] = { "pool_wait_ms", true },
}

-- Whether a looks like an option: "-x" or "--x", but neither "-" (the
-- usual name of stdin) nor a negative number.
local function dashed(a)
  return a:match("^%-.") ~= nil and not a:match("^%-%.?%d")
end

-- The connection flags (--header, repeatable; --insecure, --cacert, --retries)
-- folded into the flow's connect option, and --endpoint checked where it
-- enters; nil and a message when one is wrong.
local function connect_flags(opts, headers)
  local remote = require "vdx.remote"
  local c, err = remote.from_flags { header = headers, ca = opts.ca, insecure = opts.insecure,
    retries = opts.retries }
  if err then return nil, err end
  opts.ca, opts.insecure, opts.retries, opts.connect = nil, nil, nil, c
  local eps = opts.endpoint
  for _, url in ipairs(eps or {}) do
    local ok, e = pcall(remote.check, vdx, url)
    if not ok then return nil, "--endpoint " .. e.message end
  end
  if eps then opts.endpoint = #eps == 1 and eps[1] or eps end
  for _, k in ipairs { "max_sessions", "pool_wait_ms" } do
    if opts[k] then
      local n = math.tointeger(tonumber(opts[k]))
      local flag = k == "max_sessions" and "--max-sessions" or "--pool-wait"
      if not n or n < (k == "max_sessions" and 1 or 0) then
        return nil, flag .. (k == "max_sessions" and " needs a whole number >= 1" or " needs milliseconds (>= 0)")
      end
      opts[k] = n
    end
  end
  if opts.max_sessions and not eps then return nil, "--max-sessions needs --endpoint URL (the endpoints of the pool)" end
  return opts
end

-- The message for a dashed argument that is no flow flag: the flag it
-- most likely means, the known ones, and where a script's own go.
local function unknown_flag(a)
  local known = {}
  for k in pairs(FLOW_FLAGS) do known[#known + 1] = k end
  table.sort(known)
  local name = a:match("^([^=]*)")
  local near = require("vdx.spelling").nearest(name, known, math.max(2, #name // 4))
  return ("unknown option '%s'%s (flow options: %s); a script's own dashed arguments go after --: " ..
    "vdxlua FILE.lua [OPTIONS] -- %s"):format(a, near and (" (did you mean " .. near .. "?)") or "",
    table.concat(known, ", "), a)
end

-- argv without the flow flags, and the options they set (nil when none);
-- or nil and a message.  A dashed argument after the script that is no
-- flow flag (`--reprot`, `--emit`) is an error, never dropped or passed
-- on silently; other arguments go to the script, and everything after a
-- "--" goes to it as it is.
local function take_flow_flags(argv)
  local out, opts, headers = { [0] = argv[0] }, nil, {}
  local i = 1
  while i <= #argv do
    local f = FLOW_FLAGS[argv[i]]
    if argv[i] == "--" and #out >= 1 then
      table.move(argv, i + 1, #argv, #out + 1, out)
      break
    elseif not f and #out >= 1 and dashed(argv[i]) then
      return nil, unknown_flag(argv[i])
    end
    if f then
      local v = true
      if f[2] then
        v = argv[i + 1]
        if v == nil then return nil, argv[i] .. " needs a value" end
        if f[1] == "slow_mo" then v = math.tointeger(tonumber(v)) or -1 end
        if v == -1 then return nil, "--slow-mo needs milliseconds" end
        if f[1] == "serve_only" and not require("vdx.flow_serve").parse(v) then
          return nil, "--serve-only needs a port (PORT, or PORT@N for the script's Nth server)"
        end
        i = i + 1
      end
      opts = opts or {}
      if f[1] == "header" then headers[#headers + 1] = v
      elseif f[1] == "endpoint" then
        opts.endpoint = opts.endpoint or {}
        opts.endpoint[#opts.endpoint + 1] = v
      else opts[f[1]] = v end
    else
      out[#out + 1] = argv[i]
    end
    i = i + 1
  end
  if opts then
    local err
    opts, err = connect_flags(opts, headers)
    if not opts then return nil, err end
  end
  return out, opts
end

-- The failure text of --executable PATH when PATH is no browser, or nil.
local function check_executable(path)
  local mgr = require("vdx.roles").new { launch = { executable = path } }
  local ok, e = pcall(mgr.check_browser, mgr, "--executable")
  if ok then return nil end
  local errors = require "vdx.errors"
  return errors.format(e, { entry = errors.entry(errors.normalize(e), "flow") })
end

--- Runs the command line `argv` (argv[0] is the program); returns the
-- process exit status.
function cli.main(argv)
  if argv[1] ~= "mcp" and argv[1] ~= "tools" and argv[1] ~= "-e" then
    local rest, opts = take_flow_flags(argv)
    if not rest then
      io.stderr:write("vdxlua: ", opts, "\n")
      return 2
    end
    local bad = opts and opts.executable and check_executable(opts.executable)
    if bad then
      io.stderr:write("vdxlua: ", bad, "\n")
      return 2
    end
    if opts and opts.secrets then
      local ok, e = pcall(require("vdx.secrets").load, opts.secrets)
      if not ok then
        io.stderr:write("vdxlua: --secrets: ", tostring(vdx.is_error(e) and e.message or e), "\n")
        return 2
      end
      opts.secrets = nil
      if next(opts) == nil then opts = nil end
    end
    if opts then require("vdx.flow").configure(opts) end
    argv = rest
  end
  local first = argv[1]
  if first == nil or first == "--help" or first == "-h" then
    print(USAGE)
    return first == nil and 1 or 0
  elseif first == "--version" or first == "-v" then
    print("vdxlua " .. vdx.version .. " (" .. _VERSION .. ")")
    return 0
  elseif first == "mcp" or first == "tools" then
    local rest = {}
    for i = 2, #argv do rest[#rest + 1] = argv[i] end
    return require("vdx." .. first).main(rest)
  elseif first == "-e" then
    local code = argv[2]
    if not code then
      io.stderr:write("vdxlua: -e needs a chunk of Lua code\n")
      return 2
    end
    local chunk, err = load(code, "=(command line)", "t")
    if not chunk then
      io.stderr:write("vdxlua: ", err, "\n")
      return 2
    end
    chunk(set_arg(argv, 2))
    return 0
  elseif first:sub(1, 1) == "-" then
    io.stderr:write("vdxlua: unknown option '", first, "'\n", USAGE, "\n")
    return 2
  end
  local chunk, err = loadfile(first, "t")
  if not chunk then
    io.stderr:write("vdxlua: ", err, "\n")
    return 2
  end
  local status = chunk(set_arg(argv, 1))
  status = math.type(status) == "integer" and status or 0
  -- A failed flow fails the program, whatever the script returned.
  local fl = package.loaded["vdx.flow"]
  if status == 0 and type(fl) == "table" and (fl.status or 0) ~= 0 then status = fl.status end
  return status
end

return cli
