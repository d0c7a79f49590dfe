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
       vdxlua --version          print the version
       vdxlua --help             print this help

Scripts run on vdx's event loop: vdx.launch(), page:goto() and the other
calls look blocking but let other tasks (vdx.spawn) run while they wait.
See README.md for the API.]]

--- Builds the global `arg` table the way lua5.4 does.
local function set_arg(argv, script_index)
  local a = {}
  for i = 0, #argv do a[i - script_index] = argv[i] end
  _G.arg = a
  return table.unpack(a, 1, #argv - script_index)
end

--- Runs the command line `argv` (argv[0] is the program); returns the
-- process exit status.
function cli.main(argv)
  local first = argv[1]
  if first == nil or first == "--help" or first == "-h" then
    print(USAGE)
    return first == nil and 1 or 0
  elseif first == "--version" or first == "-v" then
    print("vdxlua " .. vdx.version .. " (" .. _VERSION .. ")")
    return 0
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
  return math.type(status) == "integer" and status or 0
end

return cli
