--- vdx.flow: multi-role end-to-end flows in one linear Lua script.
--
--   local flow = require "vdx.flow"
--   return flow.run({ base_url = "http://shop.test:8080" }, function(f)
--     f:role("provider", { url = "/provider/login" })
--     f:as("provider", function(p)
--       p:step("sign in", function()
--         p:fill("textbox", "Email", "pro@market.test")
--         p:click("button", "Sign in")
--         p:expect_text("Welcome, Pat")
--       end)
--     end)
--   end)
--
-- Each role has its own browser context (vdx.roles: auth files, default
-- URL, endpoint).  Targets are found as an agent finds them: by role and
-- name (or label, placeholder, text, test id), scoped `within` a container
-- that has a test id and/or a text, inside a frame by its title, or by a
-- snapshot ref.  A target must match exactly one element; every action and
-- expectation retries until its timeout.  A failing step stops the flow
-- with the formatted error, the step, the role, the URL and a screenshot,
-- and flow.run returns 1.  Options from the command line (`--headed`,
-- `--slow-mo MS`, `--trace FILE`, `--report DIR`, `--emit-playwright FILE`,
-- `--endpoint URL`, `--serve-only PORT`) arrive through flow.configure.
local vdx = require "vdx"
local roles = require "vdx.roles"
local errors = require "vdx.errors"
local once = require "vdx.once"
local failure = require "vdx.flow_failure"
-- Loaded before the script starts its app, so it knows the app's server.
local flow_serve = require "vdx.flow_serve"
local urls = require "vdx.urls"
local flow_actor = require "vdx.flow_actor"
local fail, key_list = flow_actor.fail, flow_actor.key_list
local Actor = flow_actor.Actor
local world_emulate = require "vdx.flow_world_emulate"
world_emulate.install(Actor)
local flow_pool = require "vdx.flow_pool"

local flow = {}

--- The exit status the program owes its flows: 0, or 1 once any flow.run
-- failed.  `vdxlua FLOW.lua` exits with it whatever the script returns.
flow.status = 0

--- Options set from the command line; flow.run's own options win.
flow.options = {}

local OPTION_KEYS = {
  name = true, base_url = true, browser_args = true, timeout_ms = true, headed = true,
  slow_mo = true, trace = true, report = true, emit_playwright = true, artifacts = true,
  quiet = true, launch = true, out = true, endpoint = true, serve_only = true, executable = true,
  connect = true, device = true, emulate = true, pool = true, max_sessions = true, pool_wait_ms = true,
}

--- Merges command-line options into flow.options.
function flow.configure(opts)
  for k, v in pairs(opts or {}) do
    if not OPTION_KEYS[k] then
      errors.misuse(("flow.configure: unknown option '%s' (known: %s)"):format(tostring(k), key_list(OPTION_KEYS)), 2,
        { field = tostring(k) })
    end
    if k == "serve_only" then
      local port, index = flow_serve.parse(v)
      if not port then
        errors.misuse(("flow.configure: serve_only must be \"PORT\" or \"PORT@N\", got %s"):format(tostring(v)), 2,
          { field = "serve_only" })
      end
      flow_serve.reserve(port, index)
    end
    flow.options[k] = v
  end
end

local Flow = {}
Flow.__index = Flow
flow_pool.install(Flow)

local function now() return vdx.now() end

--- Raises InvalidArgument when opts (a table or nil) has a key that is
-- not in known (a set); what names the call ("click").
flow.check_options = flow_actor.check_options

---------------------------------------------------------------- recording

-- Per-task state: the list the export nodes go to and the step stack.
function Flow:task_state()
  local co = coroutine.running()
  local st = self.tasks[co]
  if not st then
    st = { nodes = self.program, steps = {}, scope = {} }
    self.tasks[co] = st
  end
  return st
end

function Flow:record(node)
  local st = self:task_state()
  st.nodes[#st.nodes + 1] = node
end

function Flow:event(ev)
  local st = self:task_state()
  local step = st.steps[#st.steps]
  ev.step = step and step.name or nil
  ev.t = now() - self.started
  self.events[#self.events + 1] = ev
  if #self.events > 5000 then table.remove(self.events, 1) end
end

function Flow:say(fmt, ...)
  if not self.quiet then
    io.stdout:write(fmt:format(...), "\n")
    io.stdout:flush()
  end
end

---------------------------------------------------------------- roles

local ROLE_KEYS = { auth = true, url = true, endpoint = true, auth_required = true }
-- A role's emulation: any key of page:emulate (vdx.flow_world_emulate).
for k in pairs(world_emulate.ROLE_KEYS) do ROLE_KEYS[k] = true end

--- Declares a role: spec { auth = storageState file, url = default URL
-- (absolute, or a path under base_url), endpoint = browser URL (default:
-- the flow's endpoint option, `--endpoint URL`; none launches Chromium),
-- auth_required = true by default when auth is given, and page:emulate's
-- keys: device, viewport, timezone, locale, color_scheme, geolocation, …
-- over the flow's device and emulate options (vdx.flow_world_emulate) }.
function Flow:role(name, spec)
  spec = spec or {}
  for k in pairs(spec) do
    if not ROLE_KEYS[k] then
      errors.misuse(("f:role: unknown key '%s' (known: %s)"):format(tostring(k), key_list(ROLE_KEYS)), 2,
        { field = tostring(k) })
    end
  end
  -- A role's URL is checked where it is declared, not at its first use.
  if spec.url ~= nil then self:url(spec.url, ("f:role %s: url"):format(tostring(name))) end
  local emulate = world_emulate.role_settings(self.opts, spec, ("f:role %s"):format(tostring(name)))
  local endpoint = spec.endpoint or self.opts.endpoint
  local args = self.manager.launch_opts.args or {}
  if (endpoint or self.manager.pool) and #args > 0 and not self.told_args and not self.quiet then
    -- A remote browser was started by its farm, with the farm's flags.
    self.told_args = true
    io.stderr:write(("vdx.flow: role %s runs on %s, which gets none of the flow's browser_args (%s); "
      .. "a --host-resolver-rules mapping does not reach it, so use URLs that browser can resolve\n")
      :format(name, endpoint and require("vdx.remote").redact(endpoint) or "an endpoint of the pool",
        table.concat(args, " ")))
  end
  local r = self.manager:add { name = name, auth = spec.auth, endpoint = endpoint,
    auth_required = spec.auth ~= nil and spec.auth_required ~= false }
  self.roles[name] = { name = name, spec = spec, role = r, emulate = emulate }
  self.role_order[#self.role_order + 1] = name
  return self
end

--- The absolute URL of a path under base_url; raises InvalidURL (what names
-- the URL's source, "navigate" by default) for one that is neither.
function Flow:url(path, what)
  if not urls.problem(path) then return path end
  -- A path is under base_url; host:port is a URL without its scheme.
  if not self.base_url or type(path) ~= "string" or path:match("^[%w.-]+:%d+") then
    urls.check(path, what or "navigate")
  end
  return (self.base_url:gsub("/$", "")) .. (path:sub(1, 1) == "/" and "" or "/") .. path
end

--- The token this run of the flow writes in data it creates (vdx.run_token:
-- eight base-36 characters, made at the first call): `p:fill("textbox",
-- "Name", "Teak Lamp " .. f:run_token())`.  The exported test makes its
-- own each run (`const run = <run_token.JS>`) and writes every
-- string that held this one as a template on it (`Teak Lamp ${run}`).
function Flow:run_token()
  self.token = self.token or require("vdx.run_token").new()
  return self.token
end

--- The value a role read with p:remember(name, …), or nil: what a later
-- step of another role looks for (`p:expect_text(f:remembered("order")
-- .. " paid")`); the value p:remember returned, kept by name.
function Flow:remembered(name)
  return self.remembered_values[name]
end

-- The actor of a role, creating its context and page on first use.
function Flow:actor(name)
  local entry = self.roles[name]
  if not entry then
    -- Named, with the role it most likely means; no_page: the failure
    -- shows no other role's page, which would look like this one's.
    local near = require("vdx.spelling").nearest(tostring(name), self.role_order)
    fail("RoleUnknown", ("there is no role %q%s; the flow declares %s"):format(tostring(name),
      near and (" (did you mean %q?)"):format(near) or "",
      #self.role_order > 0 and table.concat(self.role_order, ", ") or "no role yet (declare one with f:role())"),
      { roles = self.role_order, no_page = true })
  end
  self.starting = self.starting or {}
  if entry.actor and not self.starting[name] then return entry.actor end
  local st = self:task_state()
  local ok, res = pcall(once.run, self.starting, name, function()
    -- The start runs in a task of its own: it records into the program of
    -- the caller that started it, as if it ran inline there.
    self.tasks[coroutine.running()] = st
    local a = setmetatable({ flow = self, name = name, entry = entry }, Actor)
    self:record { kind = "context", role = name, auth = entry.spec.auth, emulate = entry.emulate }
    -- The role's emulation is its context's before the first page opens.
    if entry.emulate then entry.role:context():emulate(entry.emulate) end
    a.page = entry.role:new_page()
    entry.actor = a
    if entry.spec.url then a:navigate(entry.spec.url) end
    return a
  end)
  if not ok then
    if type(res) == "table" then res.flow_role = res.flow_role or name end
    error(res, 0)
  end
  return res
end

--- Runs fn(actor) as role name and returns what fn returns.
function Flow:as(name, fn)
  local a = self:actor(name)
  return fn(a)
end

--- A named step of the flow (fn takes no arguments); prints its outcome.
function Flow:step(name, fn, role)
  local st = self:task_state()
  local rec = { name = name, role = role, started = now() - self.started, depth = #st.steps }
  self.steps[#self.steps + 1] = rec
  local node = { kind = "step", name = name, role = role, children = {} }
  self:record(node)
  local outer = st.nodes
  st.nodes = node.children
  st.steps[#st.steps + 1] = rec
  local ok, err = xpcall(fn, function(e)
    if type(e) == "table" then
      e.flow_step = e.flow_step or name
      e.flow_role = e.flow_role or role
      e.flow_where = e.flow_where or flow.where(3)
      return e
    end
    return { type = "Error", message = tostring(e), traceback = debug.traceback("", 2),
      flow_step = name, flow_role = role, flow_where = flow.where(3) }
  end)
  st.steps[#st.steps] = nil
  st.nodes = outer
  rec.ms = now() - self.started - rec.started
  rec.ok = ok
  local who = role and ("[" .. role .. "] ") or ""
  self:say("%s%s %s%s (%d ms)", ("  "):rep(rec.depth + 1), ok and "✓" or "✗", who, name, rec.ms)
  if self.report and role then
    rec.screenshot = self:shot(role, role)
  end
  if not ok then error(err, 0) end
end

--- Runs the functions in the list at once, each as its own task, and
-- waits for all of them; the first failure is raised after all ended.
function Flow:parallel(list)
  local node = { kind = "parallel", branches = {} }
  self:record(node)
  local parent = self:task_state()
  local tasks = {}
  for i, fn in ipairs(list) do
    local branch = {}
    node.branches[i] = branch
    tasks[i] = vdx.spawn(function()
      self.tasks[coroutine.running()] = { nodes = branch, steps = { table.unpack(parent.steps) }, scope = {} }
      return fn()
    end)
  end
  local first
  for _, t in ipairs(tasks) do
    local ok, err = pcall(vdx.wait, t)
    if not ok and not first then first = err end
  end
  if first then error(first, 0) end
end

-- A screenshot of role's current page into the artifacts folder: the path,
-- or nil.  Names are numbered in the order taken ("001-label.png", …),
-- with no repeat and no gap: a number is used only by a written file.
function Flow:shot(role, label)
  local entry = self.roles[role]
  if not entry or not entry.actor then return nil end
  local dir = self.report and (self.report .. "/shots") or self:artifacts()
  os.execute("mkdir -p '" .. dir:gsub("'", "'\\''") .. "'")
  local n = (self.shot_count or 0) + 1
  local path = ("%s/%03d-%s.png"):format(dir, n, (label:gsub("[^%w%-_.]", "_")))
  local ok = pcall(entry.actor.page.screenshot, entry.actor.page, { path = path })
  if not ok then return nil end
  self.shot_count = n
  return path
end

function Flow:artifacts()
  if not self.artifacts_dir then
    local tmp = os.getenv("TMPDIR") or "/tmp"
    self.artifacts_dir = self.opts.artifacts or
      ("%s/vdx-flow-%d-%04d"):format(tmp, os.time(), math.random(0, 9999))
  end
  return self.artifacts_dir
end

---------------------------------------------------------------- running

--- The catalog entry a failure is shown with (errors.entry for a flow).
function flow.advice(e) return errors.entry(e, "flow") end
--- The flow file:line nearest to an error being raised (vdx.flow_failure).
flow.where = failure.where

--- The failure text for err (see vdx.flow_failure.text).
function Flow:failure_text(err, shot, excerpt)
  return failure.text(err, self.failure_url, shot, excerpt)
end

--- Runs a flow: flow.run([opts,] fn).  opts: name, base_url, browser_args
-- (extra Chromium flags), endpoint (a ws://, wss://, http:// or https://
-- CDP endpoint every role without one of its own runs on, such as a
-- browser farm), connect (vdx.connect's options for remote endpoints:
-- headers, ca, insecure, retries),
-- timeout_ms (per action or expectation, 10000),
-- quiet, artifacts (folder for failure screenshots), and the command-line
-- options headed, slow_mo, trace, report, emit_playwright, serve_only
-- (which also come from flow.configure), device and emulate (every role's
-- emulation: a device preset, page:emulate's settings; see f:role).  Returns 0 when every step
-- passed, else 1, and the flow object (steps, events, failure); under
-- serve_only it serves the script's app and does not return (or returns 1
-- when there is none).
function flow.run(opts, fn)
  if type(opts) == "function" then opts, fn = {}, opts end
  local o = {}
  for k, v in pairs(flow.options) do o[k] = v end
  for k, v in pairs(opts or {}) do
    if not OPTION_KEYS[k] then
      errors.misuse(("flow.run: unknown option '%s' (known: %s)"):format(tostring(k), key_list(OPTION_KEYS)), 2,
        { field = tostring(k) })
    end
    o[k] = v
  end
  -- `vdxlua FLOW --serve-only PORT` (what an exported test's config runs):
  -- the app the script started is served instead of the steps run.
  if o.serve_only then
    local status = flow_serve.serve_forever(o.name or "flow", o.base_url)
    flow.status = status
    return status
  end
  local launch = { headless = not o.headed, args = o.browser_args or {}, executable = o.executable }
  for k, v in pairs(o.launch or {}) do launch[k] = v end
  local the_pool = flow_pool.make(o)
  local self = setmetatable({
    opts = o, name = o.name or "flow", base_url = o.base_url, timeout_ms = o.timeout_ms or 10000,
    slow_mo = tonumber(o.slow_mo) or 0, quiet = o.quiet, report = o.report,
    manager = roles.new { launch = launch, connect = o.connect, pool = the_pool }, roles = {}, role_order = {},
    program = {}, events = {}, steps = {}, remembered_values = {}, tasks = setmetatable({}, { __mode = "k" }),
    started = now(), browser_args = o.browser_args, servers_before = flow_serve.count(),
  }, Flow)
  self:say("▶ %s", self.name)
  local ok, err = xpcall(function(f)
    f:preflight()
    return fn(f)
  end, function(e)
    if type(e) == "table" then
      e.flow_where = e.flow_where or flow.where(3)
      return e
    end
    return { type = "Error", message = tostring(e), traceback = debug.traceback("", 2), flow_where = flow.where(3) }
  end, self)
  local status = 0
  if not ok then
    status = 1
    local e = errors.normalize(err)
    -- A failure before any role acted (a bad base_url, no browser, an
    -- unknown role) shows no page: another role's would mislead.
    local role = not e.no_page and (e.flow_role or self:last_role()) or nil
    e, role = self:explain(e, role)
    local actor = role and self.roles[role] and self.roles[role].actor
    if actor then self.failure_url = actor:current_url() end
    local shot = role and self:shot(role, "failure-" .. role)
    local excerpt = actor and failure.excerpt(actor, e)
    -- The failure's text is what people read (stderr, the report): no secret's value in it.
    self.failure = { error = e, text = require("vdx.secrets").redact(self:failure_text(e, shot, excerpt)),
      screenshot = shot, role = role }
    if not self.quiet then io.stderr:write("\n", self.failure.text, "\n") end
  end
  self.ms = now() - self.started
  local outputs_ok, out_err = pcall(function()
    if o.trace then require("vdx.flow_report").trace(self, o.trace) end
    if o.report then require("vdx.flow_report").html(self, o.report) end
    if o.emit_playwright then
      if status == 0 then
        local _, _, lines = require("vdx.flow_export").write(self, o.emit_playwright)
        self:say("%s", table.concat(lines, "\n"))
      else
        local step = self.failure and self.failure.error.flow_step
        io.stderr:write("vdx.flow: wrote nothing to ", o.emit_playwright, ": the flow failed",
          step and (" at step \"" .. step .. "\"") or "",
          ", and a spec is only written from a run that passed (its locators are the ones that matched);",
          " fix the flow and run it again\n")
      end
    end
  end)
  if not outputs_ok then
    io.stderr:write("vdx.flow: writing outputs failed: ", tostring(out_err), "\n")
    status = 1
  end
  self.manager:close()
  self:say("%s %s: %d steps in %d ms", status == 0 and "✔" or "✘", self.name, #self.steps, self.ms)
  if status ~= 0 then flow.status = status end
  return status, self
end

-- The flow's own inputs, checked before its first step so that a wrong
-- one is named as what it is: base_url, and the browser to launch unless
-- every role runs on --endpoint.
function Flow:preflight()
  local function stop(e)
    if type(e) == "table" then e.no_page = true end
    error(e, 0)
  end
  if self.base_url ~= nil then
    local ok, e = pcall(urls.check, self.base_url, "flow.run: base_url")
    if not ok then stop(e) end
  end
  if not self.opts.endpoint and not self.manager.pool then
    local ok, e = pcall(self.manager.check_browser, self.manager, "--executable (or launch.executable)")
    if not ok then stop(e) end
  end
end

local REMOTE_KINDS = { InvalidEndpoint = true, ConnectFailed = true, TLSFailed = true, FarmBusy = true }

-- The failure e of role as the flow reports it: a lost connection to a
-- remote browser becomes ConnectionLost naming the role whose endpoint
-- dropped (the role the error came from, or else the one remote role
-- whose connection is gone); returns the error and its role.
function Flow:explain(e, role)
  -- What the world did to a remote browser needs no traceback (the task
  -- that started the role's browser adds one): the message says it all.
  if REMOTE_KINDS[e.type] then e.traceback = nil end
  if role and self.roles[role] then
    local x = self.roles[role].role:explain(e)
    if x ~= e then return x, role end
  end
  if vdx.is_error(e, "BrowserClosed") then
    for _, name in ipairs(self.role_order) do
      local x = self.roles[name].role:explain(e)
      if x ~= e then
        x.flow_role = name
        return x, name
      end
    end
  end
  return e, role
end

function Flow:last_role()
  for i = #self.events, 1, -1 do
    if self.events[i].role then return self.events[i].role end
  end
  return self.role_order[1]
end

return flow
