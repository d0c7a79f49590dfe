--- vdx.mcp_main: the start of `vdxlua mcp` -- options, the logger, the
-- tool registry, roles and skills, hot reload, and the loop that reads
-- stdin line by line into the protocol server of vdx.mcp -- and its end
-- (waiting for running calls, closing the browsers).
local vdx = require "vdx"
local tools = require "vdx.tools"
local skills_mod = require "vdx.skills"
local mcp = require "vdx.mcp"
local secrets = require "vdx.secrets"

local M = {}

-- One line of the start-up timeline (VDX_TRACE_START=1; docs/api.md, "Start-up timeline").
local trace = vdx.trace

-- The logger: level-filtered lines on stderr or the --log file.
local LEVELS = { error = 1, warn = 2, info = 3, debug = 4 }
local function make_logger(o)
  local out = io.stderr
  if o.log then
    local f, err = io.open(o.log, "a")
    if not f then return nil, err end
    f:setvbuf("line")
    out = f
  end
  local max = LEVELS[o.log_level] or 3
  return function(level, fmt, ...)
    if (LEVELS[level] or 3) > max then return end
    local ok, msg = pcall(string.format, fmt, ...)
    -- No secret's value in a log line (vdx.secrets).
    out:write(("vdxlua mcp [%s] %s\n"):format(level, secrets.redact(ok and msg or tostring(fmt))))
    out:flush()
  end
end

-- True when path names an existing folder (with file: something that is
-- not a folder, whose reading then says what it is).  Nothing is opened
-- but folders, so a FIFO named here cannot block the start.
local function exists(path, file)
  local d = vdx.open_dir(path)
  if d then d:close() end
  if not file then return d ~= nil end
  if d then return false end
  local kind = require("vdx.paths").kind(path)
  return kind ~= nil
end

--- The skill folders named by $VDX_SKILLS (':'-separated), in order.
function M.env_skill_dirs()
  local out = {}
  for d in (os.getenv("VDX_SKILLS") or ""):gmatch("[^:]+") do out[#out + 1] = d end
  return out
end

-- Loads a tool file named by the user; logs what it added and warns when
-- it replaces a built-in tool.  Returns the names added, or nil and why
-- (the other tools keep serving; with hot reload, a fixed file loads).
local function load_tools(reg, f, builtin, log)
  local added, lerr = reg:load_file(f)
  if not added then
    log("error", "cannot load tool file %s (the other tools keep serving):\n%s", f, lerr)
    return nil, lerr
  end
  log("info", "loaded %d tools from %s", #added, f)
  for _, n in ipairs(added) do
    if builtin[n] then log("warn", "%s replaces the built-in tool %s", f, n) end
  end
  return added
end

-- The failure text when a role will launch a browser and there is none
-- to launch (--executable or $VDX_CHROMIUM names no executable file, or
-- none is on PATH), else nil: said at start, not at the first tool call.
local function check_browser(mgr)
  local launches = #mgr.list_ == 0
  for _, r in ipairs(mgr.list_) do launches = launches or not r.endpoint end
  if mgr.pool then return nil end
  if not launches then return nil end
  local ok, e = pcall(mgr.check_browser, mgr, "--executable")
  if ok then return nil end
  return require("vdx.errors").format(e)
end

-- Builds the registry, roles and skills from the options; returns the
-- server parts, or nil and a message.  The built-in skills come from the
-- binary; other skills only from --skills, the config and $VDX_SKILLS.
local function setup(o, log)
  local roles_mod = require "vdx.roles"
  local reg = tools.new()
  require("vdx.builtin").register_all(reg, o.caps or {})
  if o.allow_unsafe_code then reg:register(require "vdx.builtin.unsafe") end
  local builtin = {}
  for _, t in ipairs(reg:list()) do builtin[t.name] = true end
  local mgr = roles_mod.new { log = log, connect = o.connect, launch = { headless = o.headless,
    args = #o.browser_args > 0 and o.browser_args or nil, executable = o.executable } }
  if o.config then
    local cfg, err = mgr:load_config(o.config)
    if not cfg then return nil, "--config " .. o.config .. ": " .. tostring(err) end
    for _, f in ipairs(cfg.tools or {}) do o.tools[#o.tools + 1] = f end
    for _, d in ipairs(cfg.skills or {}) do o.skills[#o.skills + 1] = d end
    if cfg.headless == false then mgr.launch_opts.headless = false end
    if cfg.browser_args then mgr.launch_opts.args = cfg.browser_args end
    if cfg.connect and not o.connect then mgr.connect_opts = cfg.connect end
    if #o.pool == 0 and cfg.pool then o.pool = cfg.pool end
    o.max_sessions = o.max_sessions or cfg.max_sessions
    o.pool_wait_ms = o.pool_wait_ms or cfg.pool_wait_ms
  end
  if #o.pool > 0 then
    local spec = { max_sessions = o.max_sessions, wait_ms = o.pool_wait_ms, connect = mgr.connect_opts, log = log }
    for i, e in ipairs(o.pool) do spec[i] = e end
    local okp, p = pcall(vdx.pool, spec)
    if not okp then
      return nil, "--endpoint: " .. tostring(type(p) == "table" and p.message or p):gsub("^[^:]+:%d+: ", "")
    end
    mgr.pool = p
    log("info", "pool: %s", p:describe())
  end
  local ok, err = pcall(function()
    for _, r in ipairs(o.roles) do mgr:add(r) end
    for _, e in ipairs(o.endpoints) do mgr:set_endpoint(e.name, e.url) end
    for _, n in ipairs(o.required) do mgr:role(n).auth_required = true end
  end)
  if not ok then
    local msg = type(err) == "table" and tostring(err.message) or tostring(err)
    if type(err) == "table" and err.roles then msg = msg .. " (declared: " .. table.concat(err.roles, ", ") ..
      "; declare it with --role NAME AUTH_FILE first)" end
    return nil, msg
  end
  local bad_browser = check_browser(mgr)
  if bad_browser then return nil, bad_browser end
  for _, f in ipairs(o.tools) do
    if not exists(f, true) then return nil, "--tools " .. f .. ": no such file" end
  end
  for _, d in ipairs(o.skills) do
    if not exists(d) then return nil, "--skills " .. d .. ": no such folder" end
  end
  local env = { workspace = o.workspace }
  local all = {}
  local parts = { env = env, builtin = builtin, base_skills = {}, owned = {}, dir_lists = {}, dirs = {} }
  local function add_skills(where, list, problems)
    for _, s in ipairs(list) do
      all[#all + 1] = s
      log("info", "skill %s (%s)%s", s.name, where, s.tools_file and ", with tools" or "")
    end
    for _, p in ipairs(problems) do log("error", "skill in %s: %s", where, p) end
    return list
  end
  if o.default_skills then parts.base_skills = add_skills("built in", skills_mod.load_builtin(reg, env)) end
  for _, t in ipairs(reg:list()) do builtin[t.name] = true end
  for _, f in ipairs(o.tools) do parts.owned[f] = load_tools(reg, f, builtin, log) or {} end
  local dirs = parts.dirs
  for _, d in ipairs(o.skills) do dirs[#dirs + 1] = d end
  for _, d in ipairs(M.env_skill_dirs()) do
    if exists(d) then dirs[#dirs + 1] = d
    else log("warn", "VDX_SKILLS names %s, which is not a folder; skipped", d) end
  end
  for _, d in ipairs(dirs) do parts.dir_lists[d] = add_skills(d, skills_mod.load_dir(d, reg, env)) end
  return reg, mgr, all, parts
end

-- Starts hot reload of the user's tool files and skill folders.
local function start_watching(server, reg, o, parts, log)
  local r = require("vdx.reload").new { server = server, registry = reg, log = log, env = parts.env,
    builtin = parts.builtin }
  r.base_skills = parts.base_skills
  for f, names in pairs(parts.owned) do r:own(f, names) end
  for _, d in ipairs(parts.dirs) do r:own_dir(d, parts.dir_lists[d]) end
  r:start(o.tools, parts.dirs)
  server.watching = true
  log("info", "watching %d tool files and %d skill folders for changes (--no-watch turns it off)",
    #o.tools, #parts.dirs)
  return r
end

--- The saver of `--save-test FILE`: writes the server's session as a
-- Playwright test to path after every step (so the file is current
-- however the server ends, a signal included) and once more at exit
-- (save(true), which logs the command that runs it).  A session without
-- steps writes nothing.
function M.test_saver(server, mgr, path, log)
  local session_export = require "vdx.session_export"
  path = require("vdx.pw_spec").absolute(path)
  local title = path:match("([^/]*)$"):gsub("%.spec%.[cm]?[jt]s$", ""):gsub("%.test%.[cm]?[jt]s$", "")
  local function auth_of(name)
    local start = server.session:start_auth(name)
    if start then return start end
    local ok, r = pcall(mgr.role, mgr, name)
    return ok and r.auth or nil
  end
  local function save(at_exit)
    local steps = server.session:test_steps()
    if #steps == 0 then
      if at_exit then log("info", "--save-test: the session has no steps; %s not written", path) end
      return
    end
    local cmd, err, _, notes = session_export.write(steps, path, { name = title, auth_of = auth_of,
      browser_args = mgr.launch_opts and mgr.launch_opts.args })
    if not cmd then log("error", "--save-test: cannot write %s: %s", path, tostring(err))
    elseif at_exit then
      log("info", "--save-test: wrote %s (%d steps). %s Run it with: %s", path, #steps, table.concat(notes, " "), cmd)
    end
  end
  server.session:on_add(function() save(false) end)
  return save
end

--- `vdxlua mcp --port N`: serves MCP over HTTP (vdx.mcp_http) until a
-- signal ends the process (which ends the browsers first); returns the
-- exit status when it cannot start.  parts: what setup built.
function M.serve_http(o, parts)
  local log, mgr = parts.log, parts.roles
  local http, err = require("vdx.mcp_http").start { host = o.host, port = o.port, allow_remote = o.allow_remote,
    registry = parts.registry, roles = mgr, skills = parts.skills, paths = parts.paths, max_bytes = o.max_bytes,
    log = log }
  if not http then
    io.stderr:write("vdxlua mcp: --port ", tostring(o.port), ": ", tostring(err), "\n")
    mgr:close()
    return 1
  end
  mgr.url_guard.roles = http
  local reloader = o.watch and (#o.tools > 0 or #parts.parts.dirs > 0)
    and start_watching(http, parts.registry, o, parts.parts, log)
  if reloader then http.watching = true end
  log("info", "serving MCP over HTTP at %s: %d tools, %d skills, protocol %s", http.url, #parts.registry:list(),
    #parts.skills, table.concat(mcp.SUPPORTED, ", "))
  -- The browser starts now, for the first session's first call to join.
  local launches = #mgr.list_ == 0
  for _, r in ipairs(mgr.list_) do launches = launches or not r.endpoint end
  if launches then
    vdx.spawn(function()
      local ok, e = pcall(mgr.browser, mgr, nil)
      if not ok then log("info", "warm-up: %s", tostring(type(e) == "table" and e.message or e)) end
    end)
  end
  while true do vdx.sleep(3600 * 1000) end
end

--- `vdxlua mcp [options]`: serves MCP on stdin/stdout until stdin ends;
-- returns the exit status.
function M.main(args)
  local options = require "vdx.options"
  local o, perr = options.parse(args)
  if not o then
    io.stderr:write("vdxlua mcp: ", perr, "\n", options.USAGE, "\n")
    return 2
  end
  if o.help then io.stdout:write(options.USAGE, "\n") return 0 end
  local log, lerr = make_logger(o)
  if not log then io.stderr:write("vdxlua mcp: --log: ", tostring(lerr), "\n") return 2 end
  -- stdout carries protocol only: prints and io.write from tools go to the log.
  local stdout = io.stdout
  stdout:setvbuf("full")
  _G.print = function(...)
    local parts = table.pack(...)
    for i = 1, parts.n do parts[i] = tostring(parts[i]) end
    log("info", "print: %s", table.concat(parts, "\t", 1, parts.n))
  end
  io.output(io.stderr)
  if o.secrets then
    local ok, e = pcall(secrets.load, o.secrets)
    if not ok then
      io.stderr:write("vdxlua mcp: --secrets: ", tostring(vdx.is_error(e) and e.message or e), "\n")
      return 2
    end
    log("info", "--secrets: %d secrets (%s), shown as <secret>NAME</secret>; type one by its name",
      #e, table.concat(e, ", "))
  end
  local reg, mgr, skill_list, parts = setup(o, log)
  if not reg then
    io.stderr:write("vdxlua mcp: ", mgr, "\n")
    return 2
  end
  local policy_ok, policy = pcall(require("vdx.paths").new, { workspace = o.workspace, output = o.output_dir,
    allow_file_urls = o.allow_file_urls })
  if not policy_ok then
    io.stderr:write("vdxlua mcp: --workspace: ", tostring(vdx.is_error(policy) and policy.message or policy), "\n")
    return 2
  end
  -- The URL a document commits is checked too, in every browser the roles start.
  mgr.url_guard = require("vdx.url_guard").new { policy = policy, roles = mgr, log = log }
  -- A role's page opened at its default URL by any first call (select_role,
  -- a tool's role) lets the page's own requests finish first, as
  -- browser_navigate does: a list the page fetches after load is in the
  -- first snapshot.
  mgr.open_default = function(page, url)
    return (require("vdx.quiet").around(page, { open_only = true }, page.navigate, page, url))
  end
  if o.port then
    return M.serve_http(o, { registry = reg, roles = mgr, skills = skill_list, parts = parts, log = log,
      paths = policy })
  end
  local server = mcp.new { registry = reg, roles = mgr, skills = skill_list, log = log, paths = policy,
    max_bytes = o.max_bytes, write = function(line)
      stdout:write(line, "\n")
      stdout:flush()
      trace("mcp: wrote a message")
    end }
  local save_test = o.save_test and M.test_saver(server, mgr, o.save_test, log)
  log("info", "serving %d tools, %d skills, protocol %s", #reg:list(), #skill_list,
    table.concat(mcp.SUPPORTED, ", "))
  local reloader = o.watch and (#o.tools > 0 or #parts.dirs > 0) and start_watching(server, reg, o, parts, log)
  -- The browser, and the current role's context and page, start now,
  -- while the client is still starting up or thinking: the first tool
  -- call that needs the page joins this start (Role:page starts once)
  -- instead of beginning it.  A failure here is left for that call to
  -- meet and report.
  local warm = vdx.spawn(function()
    trace("mcp: warm-up starts")
    local ok, err = pcall(function() return mgr:current():page() end)
    trace("mcp: warm-up done")
    if not ok then log("info", "warm-up: %s", tostring(type(err) == "table" and err.message or err)) end
  end)
  -- Each line runs as its own task; the ones still running at end of input
  -- are waited for (at most a minute in all) before the browsers close.
  local running = {}
  local reader = vdx.read_lines(0, function(line, what, n)
    local me = vdx.current_task()
    running[me] = true
    if line then
      trace("mcp: read a line")
      pcall(server.handle_line, server, line)
    elseif what == "too_long" then
      server:too_long(n)
    end
    running[me] = nil
  end, { max_bytes = o.max_bytes })
  reader:wait()
  -- Every line task was queued before the end of input was reported, so
  -- each has started and is in `running` by now.
  local t0, left = vdx.now(), 0
  for t in pairs(running) do
    local rest = 60000 - (vdx.now() - t0)
    if rest <= 0 or not pcall(vdx.wait, t, rest) and vdx.now() - t0 >= 60000 then break end
  end
  for _ in pairs(running) do left = left + 1 end
  -- A warm-up still launching would leave its browser behind the close.
  pcall(vdx.wait, warm, math.max(1, 60000 - (vdx.now() - t0)))
  log("info", "input closed (waited %d ms; %d calls still running); closing the browsers",
    vdx.now() - t0, left)
  if reloader then reloader:close() end
  if save_test then save_test(true) end
  mgr:close()
  policy:close()
  stdout:flush()
  return 0
end

return M
