--- vdx.flow_export: writes a finished flow as a Playwright Test file and
-- the config that runs it (vdx.flow_config).
-- One browser context per role (with its storageState when the role has
-- an auth file), each step as test.step, each action with the locator the
-- flow verified to match exactly one element at the moment it acted, each
-- expectation as the matching web-first assertion, parallel blocks as
-- Promise.all.  Nothing in it depends on the run that wrote it: URLs under
-- the flow's base URL use BASE_URL (the config sets it, and starts the
-- app when the flow served it itself); a state p:save_auth saved is saved
-- by the test too, at the same point, and the roles that start from that
-- file start from it (their context is made where the flow made it); any
-- other auth file comes from AUTH_<ROLE>, else the path relative to the
-- spec file.
local pw = require "vdx.pw_spec"
local run_token = require "vdx.run_token"
local pw_config = require "vdx.flow_config"
local flow_serve = require "vdx.flow_serve"
local pw_run = require "vdx.pw_run"

local export = {}

local q, ident = pw.quote, pw.ident

-- The receiver of a node's locator: the role's page or a frame in it.
local function receiver(node)
  local page = ident(node.role)
  if node.frame then
    return page .. ".frameLocator(" .. q('iframe[title="' .. node.frame:gsub('"', '\\"') .. '"]') .. ")"
  end
  return page
end

local emit

-- x: { base_url, saved = { [absolute path] = variable }, lazy = { [role] =
-- variable } } (see plan).
local function emit_list(x, nodes, out, indent)
  for _, n in ipairs(nodes) do emit(x, n, out, indent) end
end

function emit(x, n, out, indent)
  local pad = ("  "):rep(indent)
  local function add(l) out[#out + 1] = pad .. l end
  if n.kind == "step" then
    local title = (n.role and ("[" .. n.role .. "] ") or "") .. n.name
    add("await test.step(" .. q(title) .. ", async () => {")
    emit_list(x, n.children, out, indent + 1)
    add("});")
  elseif n.kind == "parallel" then
    add("await Promise.all([")
    for _, b in ipairs(n.branches) do
      add("  (async () => {")
      emit_list(x, b, out, indent + 2)
      add("  })(),")
    end
    add("]);")
  elseif n.kind == "context" and x.lazy[n.role] then
    local id = ident(n.role)
    local emulate = x.emulate[n.role]
    add(id .. "Context = await browser.newContext(" .. pw.context_options(x.lazy[n.role], emulate) .. ");")
    add(id .. " = await " .. id .. "Context.newPage();")
    for _, l in ipairs(pw.code_lines(emulate and require("vdx.emulation_export").after(emulate), n.role)) do add(l) end
  elseif n.kind == "save_auth" then
    add("// " .. n.role .. " saved its state here (save_auth); the roles that start from it use it.")
    add(x.saved[pw.absolute(n.path)] .. " = await " .. ident(n.role) .. "Context.storageState();")
  elseif n.kind == "goto" then
    add("await " .. ident(n.role) .. ".goto(" .. pw.url_literal(x.base_url, n.url) .. ");")
  elseif n.kind == "code" then
    -- A change to the role's world (route, cookie, emulation, clock):
    -- lines with "{page}" and "{context}" for the role's variables.
    for _, l in ipairs(pw.code_lines(n.lines, n.role)) do add(l) end
  elseif n.kind == "keyboard" then
    add("await " .. ident(n.role) .. ".keyboard.press(" .. q(n.key) .. ");")
  elseif n.kind == "action" then
    if n.note then add("// " .. n.note) end
    add("await " .. pw.on(receiver(n), n.target) .. n.call .. ";")
  elseif n.kind == "remember" then
    -- A value the app gave, read at this point in each run: its variable
    -- is the test's (declared at the top, since a step is a block).
    for _, l in ipairs(pw.remembered_lines(n.name, n.pattern, pw.on(receiver(n), n.target))) do add(l) end
    x.read_at[#out] = { value = n.value, name = n.name }
  elseif n.kind == "expect" then
    if n.page_matcher then
      add("await expect(" .. ident(n.role) .. ")." .. n.page_matcher .. ";")
    else
      add("await expect(" .. pw.on(receiver(n), n.target) .. ")." .. n.matcher .. ";")
    end
  end
end

-- The roles in the order of their first use.
local function used_roles(nodes, acc, seen)
  for _, n in ipairs(nodes) do
    if n.kind == "context" and not seen[n.role] then
      seen[n.role] = true
      acc[#acc + 1] = n
    end
    if n.children then used_roles(n.children, acc, seen) end
    for _, b in ipairs(n.branches or {}) do used_roles(b, acc, seen) end
  end
  return acc
end

-- The states the flow saved (save_auth) and the roles that start from
-- one, in the order the flow ran: x of emit, and the variables' names.
local function plan(flow)
  local x, vars = { base_url = flow.base_url, saved = {}, lazy = {}, emulate = {}, read_at = {}, names = {} }, {}
  local function walk(nodes)
    for _, n in ipairs(nodes) do
      if n.kind == "save_auth" then
        local abs = pw.absolute(n.path)
        if not x.saved[abs] then
          vars[#vars + 1] = "savedState" .. (#vars + 1)
          x.saved[abs] = vars[#vars]
        end
      elseif n.kind == "remember" and not x.names[n.name] then
        x.names[n.name] = true
        x.names[#x.names + 1] = n.name
      elseif n.kind == "context" and n.auth and x.saved[pw.absolute(n.auth)] then
        x.lazy[n.role] = x.saved[pw.absolute(n.auth)]
      end
      -- A role's emulation, and what r:emulate changed that Playwright
      -- takes only as a context option: the options of its context.
      local settings = n.kind == "context" and n.emulate or n.kind == "code" and n.context_emulate
      if settings then
        x.emulate[n.role] = require("vdx.emulation_export").merge(x.emulate[n.role] or {}, settings)
      end
      if n.children then walk(n.children) end
      for _, b in ipairs(n.branches or {}) do walk(b) end
    end
  end
  walk(flow.program)
  return x, vars
end

-- The roles of the flow, each marked saved when it starts from a state the
-- flow saved.
local function roles_of(flow, x)
  local all = used_roles(flow.program, {}, {})
  local out = {}
  for i, c in ipairs(all) do
    out[i] = { role = c.role, auth = c.auth, saved = x.lazy[c.role] ~= nil, emulate = x.emulate[c.role] }
  end
  return out
end

--- The environment variable that names role's auth file: AUTH_<ROLE>.
export.auth_var = pw.auth_var

--- path relative to folder dir (both made absolute), with "../" as needed.
export.relative = pw.relative

--- The text of the Playwright spec for a finished flow; spec_dir is the
-- folder it is written to (auth paths are relative to it); config is the
-- file name of its config (for the header).
function export.text(flow, spec_dir, config)
  local x, vars = plan(flow)
  local out = {}
  -- The app the flow ran against is the test's own unless the flow served
  -- it (its config starts it then, on a port of that run).
  local served = flow.base_url and flow_serve.app_of(flow.base_url, flow.servers_before or 0)
  pw.preamble(out, {
    "Generated by vdxlua from the flow \"" .. flow.name .. "\". Every locator below matched",
    "exactly one element on the live page when the flow ran. This file is yours to edit.",
    "Run it with " .. (config or "the config vdxlua wrote beside it") .. " (vdxlua printed the command),",
    "or: BASE_URL=http://… npx playwright test <this file> (CHROMIUM_PATH=… picks another browser)",
  }, flow.browser_args, not served and flow.base_url or nil)
  out[#out + 1] = "test(" .. q(flow.name) .. ", async ({ browser }) => {"
  out[#out + 1] = "  test.setTimeout(" .. math.max(60000, (flow.ms or 0) * 4) // 1 .. ");"
  for _, v in ipairs(vars) do out[#out + 1] = "  let " .. v .. ";" end
  for _, name in ipairs(x.names) do out[#out + 1] = "  let " .. name .. " = ''; // p:remember in the flow" end
  local roles, now = roles_of(flow, x), {}
  for _, c in ipairs(roles) do
    if c.saved then
      out[#out + 1] = "  let " .. ident(c.role) .. "Context, " .. ident(c.role) .. ";"
    else
      now[#now + 1] = c
    end
  end
  pw.import_devices(out, roles)
  pw.contexts(out, now, spec_dir)
  out[#out + 1] = ""
  local first = #out + 1
  emit_list(x, flow.program, out, 1)
  out[#out + 1] = ""
  pw.close_contexts(out, roles)
  out[#out + 1] = "});"
  -- The data the flow made with f:run_token() is new in each run.
  -- A value a role remembered is its variable from the line that reads it on.
  local used, read = false, {}
  for i = first, #out do
    local changed
    out[i], changed = run_token.for_test(out[i], flow.token, "run")
    used = used or changed
    for _, r in ipairs(read) do out[i] = run_token.for_test(out[i], r.value, r.name) end
    if x.read_at[i] then
      read[#read + 1] = x.read_at[i]
      table.sort(read, function(a, b) return #a.value > #b.value end)
    end
  end
  if used then table.insert(out, first - 1, "  const run = " .. require("vdx.run_token").JS .. "; // unique per run: f:run_token() in the flow") end
  -- A secret's value is read from the environment, never written here.
  return require("vdx.secrets").for_test(pw.text(out))
end

-- The app the config starts, or nil and the words that say what to start
-- first: { command, port, index, args } (see vdx.flow_serve).
local function app_of(flow)
  if not flow.base_url then
    return nil, "the flow has no base_url, so its URLs are in the test as they were: start the apps they name first, "
      .. "and set BASE_URL (the test requires it) to the main one"
  end
  local app = flow_serve.app_of(flow.base_url, flow.servers_before or 0)
  local url = tostring(flow.base_url)
  if not app then
    return nil, ("the flow ran against %s, which it did not serve itself: start that app first "
      .. "(the test goes there unless BASE_URL names another copy)"):format(url)
  end
  local rerun, why = flow_serve.rerun()
  if not rerun then
    return nil, ("the app at %s was served by this process and ended with it (%s, so the config cannot "
      .. "start it): start it again at that URL first"):format(url, why)
  end
  local args = {}
  for i, a in ipairs(rerun.args) do args[i] = pw.shell_word(a) end
  -- The script ran from this folder and may name files relative to it.
  return { command = pw.shell_word(rerun.exe) .. " " .. pw.shell_word(rerun.script), port = app.port,
    index = app.index, args = table.concat(args, " "), cwd = pw.cwd() }
end

--- Writes the spec to path and its config beside it (NAME.config.ts for
-- NAME.spec.ts); returns path, the shell command that runs it (from any
-- folder), and the lines that say what was written and what to do.
function export.write(flow, path)
  path = pw.absolute(path)
  local dir, file = path:match("^(.*)/([^/]*)$")
  local name = file:gsub("%.spec%.[cm]?[jt]s$", ""):gsub("%.test%.[cm]?[jt]s$", ""):gsub("%.[%w]+$", "")
  local cfg = dir .. "/" .. name .. ".config.ts"
  local app, start_first = app_of(flow)
  local x = plan(flow)
  local env = pw.env(not app and flow.base_url, roles_of(flow, x))
  local runner, why = pw_run.runner(dir)
  local cmd
  if runner then
    cmd = env .. " " .. runner .. " test --config " .. pw.shell_word(cfg)
  else
    cmd = "cd " .. pw.shell_word(dir) .. " && " .. env .. " npx playwright test --config " .. pw.shell_word(name .. ".config.ts")
  end
  os.execute("mkdir -p " .. pw.shell_word(dir))
  local f = assert(io.open(path, "w"))
  f:write(export.text(flow, dir, name .. ".config.ts"))
  f:close()
  f = assert(io.open(cfg, "w"))
  f:write(pw_config.text { spec = file, flow = flow.name, base_url = flow.base_url, run = cmd,
    command = app and app.command, port = app and app.port, index = app and app.index, args = app and app.args,
    cwd = app and app.cwd })
  f:close()
  local lines = { ("wrote %s and its config %s"):format(path, cfg) }
  if app then
    lines[#lines + 1] = ("The config starts the flow's app (%s --serve-only %d) on port %d before the test.")
      :format(app.command, app.port, app.port)
  else
    lines[#lines + 1] = start_first:sub(1, 1):upper() .. start_first:sub(2) .. "."
  end
  if not runner then
    lines[#lines + 1] = pw.install_hint(dir, why)
  end
  lines[#lines + 1] = "Run it with:\n  " .. cmd
  return path, cmd, lines
end

return export
