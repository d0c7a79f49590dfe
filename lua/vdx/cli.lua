--- vdx.cli: the `vdxlua` command line.
-- `vdxlua FILE [args]` runs a script, `vdxlua -e CODE` runs a chunk,
-- `vdxlua --version` and `vdxlua --help` say what they say.  The main
-- function runs inside a vdx task, so the script's browser calls yield to
-- the event loop instead of blocking it.
local vdx = require "vdx"

local cli = {}

local USAGE = [[
usage: vdxlua FILE [ARGS...]     run a Lua script (arguments in `arg`)
       vdxlua -e CODE [ARGS...]  run a chunk of Lua
       vdxlua mcp [OPTIONS]      serve MCP over stdio (vdxlua mcp --help)
       vdxlua tools [--markdown] list the MCP tools (Markdown reference)
       vdxlua FLOW.lua [--headed] [--slow-mo MS] [--trace FILE.json]
               [--report DIR] [--emit-playwright FILE.spec.ts]
               [--endpoint URL] [--header 'Name: value']... [--cacert FILE]
               [--insecure] [--retries N] [-- ARGS...]
                                 run a flow (--endpoint: every role's
                                 browser on a remote CDP endpoint, ws://,
                                 wss://, http:// or https://; see
                                 docs/farms.md; a misspelt option is an
                                 error; the script's own arguments may
                                 follow, or go after --)
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
  ["--endpoint"] = { "endpoint", true }, ["--header"] = { "header", true }, ["--insecure"] = { "insecure" },
  ["--cacert"] = { "ca", true }, ["--retries"] = { "retries", true },
}

-- The connection flags (--header, repeatable; --insecure, --cacert, --retries)
-- folded into the flow's connect option, and --endpoint checked where it
-- enters; nil and a message when one is wrong.
local function connect_flags(opts, headers)
  local remote = require "vdx.remote"
  local c, err = remote.from_flags { header = headers, ca = opts.ca, insecure = opts.insecure,
    retries = opts.retries }
  if err then return nil, err end
  opts.ca, opts.insecure, opts.retries, opts.connect = nil, nil, nil, c
  if opts.endpoint then
    local ok, e = pcall(remote.check, vdx, opts.endpoint)
    if not ok then return nil, "--endpoint " .. e.message end
  end
  return opts
end

-- The edit distance between a and b (insertions, deletions, changes and
-- swaps of neighbours), for telling a misspelt flag from a script's own.
local function distance(a, b)
  local d = {}
  for i = 0, #a do d[i] = { [0] = i } end
  for j = 0, #b do d[0][j] = j end
  for i = 1, #a do
    for j = 1, #b do
      local cost = a:sub(i, i) == b:sub(j, j) and 0 or 1
      d[i][j] = math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
      if i > 1 and j > 1 and a:sub(i, i) == b:sub(j - 1, j - 1) and a:sub(i - 1, i - 1) == b:sub(j, j) then
        d[i][j] = math.min(d[i][j], d[i - 2][j - 2] + 1)
      end
    end
  end
  return d[#a][#b]
end

-- The flow flag that a dashed argument is a misspelling of, or nil.
local function near_flag(a)
  local name = a:match("^%-%-?([^=]+)")
  if not name then return nil end
  for flag in pairs(FLOW_FLAGS) do
    if distance(name, flag:sub(3)) <= 2 then return flag end
  end
end

-- argv without the flow flags, and the options they set (nil when none);
-- or nil and a message.  A dashed argument that is a misspelt flow flag
-- (`--reprot`) is an error, never dropped silently; other arguments go to
-- the script, and everything after a "--" goes to it as it is.
local function take_flow_flags(argv)
  local out, opts, headers = { [0] = argv[0] }, nil, {}
  local i = 1
  while i <= #argv do
    local f = FLOW_FLAGS[argv[i]]
    if argv[i] == "--" and #out >= 1 then
      table.move(argv, i + 1, #argv, #out + 1, out)
      break
    elseif not f and #out >= 1 and near_flag(argv[i]) then
      local known = {}
      for k in pairs(FLOW_FLAGS) do known[#known + 1] = k end
      table.sort(known)
      return nil, ("unknown option '%s' (did you mean %s? flow options: %s; the script's own arguments go after --)")
        :format(argv[i], near_flag(argv[i]), table.concat(known, ", "))
    end
    if f then
      local v = true
      if f[2] then
        v = argv[i + 1]
        if v == nil then return nil, argv[i] .. " needs a value" end
        if f[1] == "slow_mo" then v = math.tointeger(tonumber(v)) or -1 end
        if v == -1 then return nil, "--slow-mo needs milliseconds" end
        i = i + 1
      end
      opts = opts or {}
      if f[1] == "header" then headers[#headers + 1] = v else opts[f[1]] = v end
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

--- Runs the command line `argv` (argv[0] is the program); returns the
-- process exit status.
function cli.main(argv)
  if argv[1] ~= "mcp" and argv[1] ~= "tools" and argv[1] ~= "-e" then
    local rest, opts = take_flow_flags(argv)
    if not rest then
      io.stderr:write("vdxlua: ", opts, "\n")
      return 2
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
