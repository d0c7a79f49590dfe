--- spec/helpers.lua: shared set-up for the specs.
local vdx = require "vdx"

local helpers = {}

--- The vdxlua binary of the build under test.
helpers.vdxlua = (os.getenv("VDX_BUILD") or "build") .. "/vdxlua"

--- Starts the fixture server on spec/fixtures (port 0) with extra routes.
function helpers.serve(routes)
  return vdx.serve { root = "spec/fixtures", port = 0, routes = routes }
end

--- A describe's set-up: serves spec/fixtures with extra routes (see
--- helpers.serve) and launches a browser with launch_opts, opened on one
--- page.  Returns srv, browser, page; helpers.shut ends them.
function helpers.open(routes, launch_opts)
  local srv = helpers.serve(routes)
  local browser = vdx.launch(launch_opts or {})
  return srv, browser, browser:new_page()
end

--- helpers.open for pages on two sites: a.test and b.test both reach the
--- fixture server, so an iframe from b.test in a page from a.test is
--- cross-origin, and out of process (`--site-per-process`, the full
--- browser's default) unless in_process is true (the headless shell's
--- default).  Returns srv, browser, page and the base URL on a.test.
function helpers.open_sites(routes, in_process)
  local args = { "--host-resolver-rules=MAP a.test 127.0.0.1, MAP b.test 127.0.0.1" }
  if not in_process then args[2] = "--site-per-process" end
  local srv, browser, page = helpers.open(routes, { args = args })
  return srv, browser, page, "http://a.test:" .. srv.url:match(":(%d+)$")
end

--- A describe's tear-down: closes browser and srv, skipping either when
--- its set-up did not get that far (nil).
function helpers.shut(browser, srv)
  if browser then browser:close() end
  if srv then srv:close() end
end

--- Runs fn(err) for the error that f raises; fails when f does not raise.
function helpers.error_of(f, ...)
  local ok, err = pcall(f, ...)
  assert(not ok, "expected an error, got success")
  return err
end

--- Process ids still alive among pids (via /proc).
function helpers.alive(pid)
  local f = io.open("/proc/" .. pid .. "/stat")
  if not f then return false end
  local stat = f:read("a")
  f:close()
  return not stat:match("^%d+ %b() Z")
end

--- Number of processes in the process group pgid (zombies excluded).
--- The non-empty lines of text, as a list.
function helpers.lines(text)
  local out = {}
  for l in text:gmatch("[^\n]+") do out[#out + 1] = l end
  return out
end

function helpers.group_size(pgid)
  local p = io.popen("ps -o pid=,stat= -g " .. pgid .. " 2>/dev/null")
  local n = 0
  for line in p:lines() do
    if not line:match("%sZ") then n = n + 1 end
  end
  p:close()
  return n
end

--- The full Chromium browser (not chromium-headless-shell, which vdx
--- launches headless when installed): the path of `chromium` on PATH, or
--- nil.  The full browser keeps a ProcessSingleton folder in $TMPDIR, the
--- shell does not, so the clean-up specs run on it.
function helpers.full_chromium()
  local out, status = helpers.run("command -v chromium")
  return status == 0 and out:match("[^\n]+") or nil
end

--- Runs a shell command; returns its stdout and exit status.
function helpers.run(cmd)
  local p = io.popen(cmd .. " 2>&1; echo \"@@$?\"")
  local out = p:read("a")
  p:close()
  local body, status = out:match("^(.*)@@(%d+)%s*$")
  return body, tonumber(status)
end

--- The folder where @playwright/test is installed for the specs that check
--- against Playwright itself (kept between runs; the browser is Debian's
--- Chromium, so nothing else is downloaded).  Returns the folder, or nil and
--- why it is not available.
function helpers.playwright()
  local _, has_node = helpers.run("command -v node && command -v npm")
  if has_node ~= 0 then return nil, "Node and npm are not installed" end
  local pw = os.getenv("VDX_PLAYWRIGHT_DIR") or ((os.getenv("VDX_BUILD") or "build") .. "/playwright")
  local f = io.open(pw .. "/node_modules/@playwright/test/package.json")
  if f then
    f:close()
    return pw
  end
  local out, st = helpers.run(("mkdir -p %s && cd %s && (test -f package.json || echo '{\"private\":true}' > package.json) " ..
    "&& PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 timeout 600 npm install --no-audit --no-fund @playwright/test"):format(pw, pw))
  if st ~= 0 then return nil, "npm could not install @playwright/test: " .. out:sub(-300) end
  return pw
end

--- helpers.playwright's folder for a server: the environment that hands
--- it over (`VDX_PLAYWRIGHT_DIR=…`, the folder made absolute) and the
--- folder, or nil and why it is not available.
function helpers.playwright_env()
  local pw, why = helpers.playwright()
  if not pw then return nil, why end
  if not pw:match("^/") then pw = io.popen("pwd"):read("l") .. "/" .. pw end
  return "VDX_PLAYWRIGHT_DIR=" .. helpers.quote(pw), pw
end

--- Runs the flow file flow with `--emit-playwright DIR/out/name` in a
--- fresh folder DIR (with DIR/elsewhere to run the printed command from),
--- Playwright's folder given when it is installed.  Returns { dir =, pw =,
--- pw_why =, out =, status = }: the flow's output and exit status, and
--- helpers.playwright's answer (pw made absolute).
function helpers.export_flow(flow, name)
  local r = { dir = os.tmpname() }
  os.remove(r.dir)
  os.execute("mkdir -p " .. helpers.quote(r.dir .. "/elsewhere"))
  r.pw, r.pw_why = helpers.playwright()
  if r.pw and not r.pw:match("^/") then r.pw = io.popen("pwd"):read("l") .. "/" .. r.pw end
  r.out, r.status = helpers.run(("%s%s %s --emit-playwright %s"):format(
    r.pw and ("VDX_PLAYWRIGHT_DIR=" .. helpers.quote(r.pw) .. " ") or "", helpers.vdxlua, flow,
    helpers.quote(r.dir .. "/out/" .. name)))
  return r
end

--- The bytes of the file at path, or nil when it cannot be read.
function helpers.read(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return s
end

--- The built-in MCP tools called in this process, as the server calls
--- them: returns call(name, args) -> result, its first text; the tools'
--- ctx (one role, ctx.session a session log); and the roles, which the
--- caller closes.
function helpers.tool_session(role_opts)
  local reg = require("vdx.tools").new()
  require("vdx.builtin").register_all(reg)
  local roles = require("vdx.roles").new(role_opts or {})
  local role = roles:current()
  local ctx = { roles = roles, role = role, role_name = role.name, errors = require "vdx.errors", tools = reg,
    log = function() end, session = require("vdx.session_log").new() }
  function ctx.page(c) return c.role:page() end
  function ctx.renew_refs(c, err) return require("vdx.ref_renew").renewed(c, err) end
  local function call(name, args)
    local res = reg:call(name, args, ctx)
    return res, res.content[1].text
  end
  return call, ctx, roles
end

--- Starts a fixture server and a tool session (helpers.tool_session) in t:
--- t.srv, t.call, t.ctx, t.roles (a describe's set-up).
function helpers.start_tool_session(t, role_opts)
  t.srv = helpers.serve()
  t.call, t.ctx, t.roles = helpers.tool_session(role_opts)
  return t
end

--- The assertion steps of a session log, oldest first (its navigations
--- and actions left out).
function helpers.asserts(session)
  local out = {}
  for _, s in ipairs(session:list()) do
    if s.kind == "assert" then out[#out + 1] = s end
  end
  return out
end

--- Ends what helpers.start_tool_session started in t (a describe's tear-down).
function helpers.stop_tool_session(t)
  if t.roles then t.roles:close() end
  if t.srv then t.srv:close() end
end

--- Writes text to the file at path (replacing it); returns path.
function helpers.write(path, text)
  local f = assert(io.open(path, "wb"))
  f:write(text)
  f:close()
  return path
end

--- path quoted for sh.
function helpers.quote(s)
  return "'" .. tostring(s):gsub("'", "'\\''") .. "'"
end

return helpers
