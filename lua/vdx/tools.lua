--- vdx.tools: the tool registry.  A tool is a table: `name`, `title`,
-- `description`, `input` (JSON Schema of the arguments), optional `output`
-- (JSON Schema of structured results), `annotations` (readOnlyHint,
-- destructiveHint, idempotentHint, openWorldHint), `run(ctx, args)` and
-- `scope`, what the tool touches, which says what its calls wait for in
-- the MCP server (vdx.mcp_lanes):
--   "role" (the default)  one role's page, context or tabs: the registry
--                adds the optional argument `role` (`as_role` where the
--                tool's own `role` means something else), the role to act
--                as; without it, the current role;
--   "select"     as "role", where the tool's own `role` argument names the
--                role and the call makes it the current one (select_role);
--   "named"      as "role", where the tool's own `role` argument names the
--                role, which stays as current as it was (close_role);
--   "server"     every role (the session's export, the list of roles);
--   "none"       no role and no page (the name of the current role).
-- `roles_only = true` lists a tool only when the server has more than one
-- role (choosing among roles means nothing with one); it stays callable.
-- Built-in tools and user tools (`--tools FILE.lua`, skills) go through
-- the same registry.  Arguments are validated before `run`; failures
-- become results with `isError` and the formatted text (vdx.errors).
local json = require "vdx.json"
local schema = require "vdx.schema"
local errors = require "vdx.errors"

local tools = {}

local Registry = {}
Registry.__index = Registry

--- A new, empty registry.
function tools.new()
  return setmetatable({ byname = {}, order = {}, listeners = {}, failures = {} }, Registry)
end

local ANNOTATIONS = { readOnlyHint = true, destructiveHint = true, idempotentHint = true,
  openWorldHint = true, title = true }
local SCOPES = { role = true, select = true, named = true, server = true, none = true }

-- Raises InvalidArgument naming the tool and the problem, at the line
-- `level` levels above check_def (as for error()).
local function check_def(def, level)
  if type(def) ~= "table" then errors.misuse("a tool must be a table", level) end
  if type(def.name) ~= "string" or not def.name:match("^[%w_%-%.]+$") or #def.name > 128 then
    errors.misuse("a tool needs a name made of letters, digits, '_', '-' or '.'", level)
  end
  if type(def.run) ~= "function" then errors.misuse("tool " .. def.name .. ": run must be a function", level) end
  if type(def.description) ~= "string" then
    errors.misuse("tool " .. def.name .. ": description must be a string", level)
  end
  if def.input ~= nil and (type(def.input) ~= "table" or def.input.type ~= "object") then
    errors.misuse("tool " .. def.name .. ": input must be a JSON Schema with type = \"object\"", level)
  end
  for k in pairs(def.annotations or {}) do
    if not ANNOTATIONS[k] then errors.misuse("tool " .. def.name .. ": unknown annotation " .. tostring(k), level) end
  end
  if def.scope ~= nil and not SCOPES[def.scope] then
    errors.misuse("tool " .. def.name .. ": scope must be \"role\", \"select\", \"named\", \"server\" or \"none\"",
      level)
  end
end

--- The schema of the argument that names the role a call acts as, which
-- the registry adds to every tool of scope "role".
tools.ROLE_ARG = { type = "string", minLength = 1, description = "Role (default: the current)" }

--- The name of the argument of tool def that names the role its call acts
-- as ("role", "as_role"), or nil for a tool that acts in no chosen role.
function tools.role_arg(def)
  local scope = def.scope or "role"
  if scope == "select" or scope == "named" then return "role" end
  if scope ~= "role" then return nil end
  local props = def.input and def.input.properties or {}
  if props.role == tools.ROLE_ARG then return "role" end
  if props.as_role == tools.ROLE_ARG then return "as_role" end
end

--- Adds (or replaces) a tool; returns it.  Raises on a malformed tool.
function Registry:register(def)
  check_def(def, 3)
  def.input = def.input or { type = "object", properties = {} }
  if def.input.additionalProperties == nil then def.input.additionalProperties = false end
  if (def.scope or "role") == "role" then
    -- Added here, once, for every tool: a tool whose own `role` is the
    -- ARIA role (browser_find) takes the acting role as `as_role`.
    local props = def.input.properties or {}
    def.input.properties = props
    if props.role == nil or props.role == tools.ROLE_ARG then props.role = tools.ROLE_ARG
    elseif props.as_role == nil then props.as_role = tools.ROLE_ARG end
  end
  if not self.byname[def.name] then self.order[#self.order + 1] = def.name end
  self.byname[def.name] = def
  for _, fn in ipairs(self.listeners) do pcall(fn, "register", def.name) end
  return def
end

--- Adds the tools defs (a list), telling the listeners once (a
-- "register" of the last name): a client hears one list_changed.
-- Returns the names added.
function Registry:register_list(defs)
  local listeners, names = self.listeners, {}
  self.listeners = {}
  local ok, err = pcall(function()
    for _, def in ipairs(defs) do names[#names + 1] = self:register(def).name end
  end)
  self.listeners = listeners
  if not ok then error(err, 0) end
  if #names > 0 then
    for _, fn in ipairs(listeners) do pcall(fn, "register", names[#names]) end
  end
  return names
end

--- Removes a tool by name; returns true when it was there.
function Registry:unregister(name)
  if not self.byname[name] then return false end
  self.byname[name] = nil
  for i, n in ipairs(self.order) do
    if n == name then table.remove(self.order, i) break end
  end
  for _, fn in ipairs(self.listeners) do pcall(fn, "unregister", name) end
  return true
end

--- Calls fn(event, name) whenever a tool is added or removed.
function Registry:on_change(fn)
  self.listeners[#self.listeners + 1] = fn
end

--- The tools in registration order.
function Registry:list()
  local out = {}
  for i, n in ipairs(self.order) do out[i] = self.byname[n] end
  return out
end

--- The tool called name, or nil.
function Registry:get(name)
  return self.byname[name]
end

--- Checks args against the tool's input schema: true, or nil and the
-- message ("field ref: expected string, got number").
function Registry:validate(name, args)
  local def = self.byname[name]
  if not def then return nil, "unknown tool " .. tostring(name) end
  return schema.validate(def.input, args == nil and {} or args)
end

-- Turns what run returned into {content=, structuredContent=, isError=}.
local function to_result(v)
  if v == nil then return { content = json.array { { type = "text", text = "Done." } } } end
  if type(v) == "string" then return { content = json.array { { type = "text", text = v } } } end
  if type(v) ~= "table" then
    return { content = json.array { { type = "text", text = tostring(v) } } }
  end
  if v.content then
    local content = json.array {}
    for i, c in ipairs(v.content) do content[i] = c end
    if #content == 0 then content[1] = { type = "text", text = "" } end
    return { content = content, structuredContent = v.structuredContent, isError = v.isError or nil }
  end
  local content = json.array {}
  if v.text then content[#content + 1] = { type = "text", text = v.text } end
  for _, img in ipairs(v.images or {}) do
    content[#content + 1] = { type = "image", data = img.data, mimeType = img.mimeType or "image/png" }
  end
  if #content == 0 then
    content[1] = { type = "text", text = v.structured and json.encode(v.structured) or "Done." }
  end
  return { content = content, structuredContent = v.structured, isError = v.isError or nil }
end

-- A tool's answer v with a line of note after its text.
local function with_note(v, note)
  if v == nil then return note end
  if type(v) == "string" then return v .. "\n" .. note end
  if type(v) == "table" and type(v.text) == "string" then v.text = v.text .. "\n" .. note end
  return v
end

--- The result of a failed call: isError with the formatted text.
function tools.error_result(err, extra)
  local e = errors.normalize(err)
  return {
    content = json.array { { type = "text", text = errors.format(e, extra) } },
    isError = true,
    error = e,
  }
end

-- args with a locator written as a test writes it, `page.getByRole(…)`,
-- taken without its `page.`, which the recorded line puts before it
-- itself (run FR's `page.locator("body")` was recorded as
-- `page.page.locator('body')`); args itself when none is.
local function bare_locators(args)
  local out = args
  for _, k in ipairs { "locator", "target" } do
    local rest = type(args[k]) == "string" and args[k]:match("^%s*page%s*%.%s*(%a.*)$")
    if rest then
      if out == args then
        out = {}
        for a, v in pairs(args) do out[a] = v end
      end
      out[k] = rest
    end
  end
  return out
end

local function traceback(e)
  if type(e) == "table" then return e end
  return debug.traceback(tostring(e), 2)
end

--- Validates args and runs the tool; never raises.  Returns the result
-- table ({content=, structuredContent=, isError=}; failures carry `error`).
function Registry:call(name, args, ctx)
  local def = self.byname[name]
  if not def then
    return tools.error_result({ type = "InvalidArgument", message = "unknown tool " .. tostring(name),
      tool = name })
  end
  args = args == nil and {} or args
  local ok, msg = self:validate(name, args)
  if not ok then
    return tools.error_result({ type = "InvalidArgument", message = msg, tool = name,
      field = msg:match("^field ([^:]+):") })
  end
  args = bare_locators(schema.integers(def.input, args))
  -- The role the call names, when its caller (a host calling the registry
  -- itself) did not bind it as the MCP server does: ctx stays the
  -- caller's, the call sees that role through a view of it.
  local key = (def.scope or "role") == "role" and tools.role_arg(def)
  if key == "as_role" and args.as_role == nil and type(args.role) == "string" and ctx
    and type(ctx.roles) == "table" and type(ctx.roles.byname) == "table" and ctx.roles.byname[args.role] then
    -- `role` is the ARIA role here; the name of a user role in it is
    -- almost surely meant as the role to act as.
    return tools.error_result({ type = "InvalidArgument", tool = name, field = "role",
      message = ("field role: in %s, role is the element's ARIA role (button, link, …), and '%s' is a role this "
        .. "server acts as: pass as_role: '%s' to act as it (and role: the ARIA role, if you meant one too)")
        :format(name, args.role, args.role) })
  end
  local want = key and args[key]
  if type(want) == "string" and ctx and type(ctx.roles) == "table" and not (ctx.role and ctx.role.name == want) then
    local okr, r = pcall(ctx.roles.role, ctx.roles, want)
    if not okr then return tools.error_result(r, { tool = name, as_role = ctx.role_name }) end
    ctx = setmetatable({ role = r, role_name = r.name }, { __index = ctx })
  end
  -- The server's watch of committed URLs (vdx.url_guard) refuses a call
  -- during which a document opening a local file was reached.
  -- Both wait (for a page being left), so a cancellation can end them.
  local guard = ctx and type(ctx.roles) == "table" and ctx.roles.url_guard
  local okm, mark = true, nil
  if guard then okm, mark = pcall(guard.mark, guard) end
  if not okm then return tools.error_result(mark, { tool = name, as_role = ctx.role_name }) end
  local steps0 = ctx and type(ctx.session) == "table" and #ctx.session:list()
  -- The role's calls are counted: an answer may leave out what the one
  -- just before told (vdx.changes.page_head).
  if ctx and type(ctx.role) == "table" then ctx.role.calls = (ctx.role.calls or 0) + 1 end
  local okr, v = xpcall(def.run, traceback, ctx, args)
  local fields = type(args.fields) == "table" and args.fields or nil
  local tries, notes = fields and #fields or 1, {}
  while not okr and tries > 0 and ctx and type(ctx.renew_refs) == "function"
      and (not steps0 or #ctx.session:list() == steps0)
      and (args.ref ~= nil or args.target ~= nil or args.root ~= nil or fields) do
    -- A ref of the page before it loaded again, whose element is on the
    -- page now (vdx.ref_renew): the call, which did nothing, again with
    -- the element's ref of now (each of a form's fields' in turn).
    tries = tries - 1
    local okn, now, old, how = pcall(ctx.renew_refs, ctx, v)
    -- (A renewal that failed keeps the call's own error, unless cancelled.)
    if not okn and errors.normalize(now).type == "Cancelled" then v = now end
    if not (okn and now) then break end
    local again, hit = {}, false
    for k, x in pairs(args) do again[k] = x end
    for _, k in ipairs { "ref", "target", "root" } do
      if again[k] == old then again[k], hit = now, true end
    end
    if fields then
      local list = {}
      for i, f in ipairs(fields) do
        if type(f) == "table" and f.ref == old then
          local g = {}
          for k, x in pairs(f) do g[k] = x end
          g.ref, hit = now, true
          f = g
        end
        list[i] = f
      end
      again.fields, fields = list, list
    end
    if not hit then break end
    args = again
    notes[#notes + 1] = require("vdx.ref_renew").note(old, now, how)
    okr, v = xpcall(def.run, traceback, ctx, again)
  end
  if okr then
    for _, n in ipairs(notes) do v = with_note(v, n) end
  end
  if guard then
    local okg, refused = pcall(guard.refusal, guard, mark, ctx.role)
    if not okg or refused then return tools.error_result(refused, { tool = name, as_role = ctx.role_name }) end
  end
  if not okr then
    local e = errors.normalize(v)
    -- A remote role's dropped connection is a ConnectionLost naming it.
    if ctx and type(ctx.role) == "table" and ctx.role.explain then e = ctx.role:explain(e) end
    if e.type == "Error" and ctx and ctx.log then ctx.log("error", "tool %s: %s", name, e.message) end
    if e.type == "Error" then e.message = e.message:match("^[^\n]*") end
    return tools.error_result(e, { tool = name, as_role = ctx and ctx.role_name })
  end
  return to_result(v)
end

--- Loads a tool file: a Lua chunk that calls `register{…}` (a global in
-- its environment) and/or returns a tool or a list of tools.  Returns the
-- names it added, or nil and the error with its traceback; a failed file
-- is also remembered in registry.failures.  The file is read without
-- blocking (a FIFO in its place fails at once) and must be a regular
-- file, itself no symbolic link (vdx.paths.read_file).
function Registry:load_file(path, extra_env)
  local code, err = require("vdx.paths").read_file(path, { max_bytes = tools.MAX_FILE_BYTES })
  if not code then
    err = path .. ": " .. tostring(err)
    self.failures[#self.failures + 1] = { file = path, message = err }
    return nil, err
  end
  return self:load_source(code, "@" .. path, path, extra_env)
end

--- The largest tool file read, and the instructions a tool file's top
-- level may run while it loads (a file that loops forever fails instead
-- of hanging the server).
tools.MAX_FILE_BYTES = 4 * 1024 * 1024
tools.LOAD_BUDGET = 200 * 1000 * 1000

local HOOK_EVERY = 100000

-- Calls fn(...) under xpcall with an instruction budget of
-- tools.LOAD_BUDGET (a count hook that raises once it is spent, then at
-- every instruction so no pcall in the file can swallow it).  The hook
-- of the calling thread is restored after; coroutines made meanwhile
-- inherit the hook and drop it at their next count once the load is over.
local function budgeted(fn, ...)
  local left, over, done = tools.LOAD_BUDGET // HOOK_EVERY, false, false
  local old = table.pack(debug.gethook())
  local function hook()
    if done then debug.sethook() return end
    left = left - 1
    if left < 0 or over then
      if not over then
        over = true
        debug.sethook(hook, "", 1)
      end
      error(("the file's top level ran over %d instructions while loading (an endless loop?); a tool file "
        .. "should only define tools"):format(tools.LOAD_BUDGET), 2)
    end
  end
  local function handler(e)
    done = true
    debug.sethook()
    return traceback(e)
  end
  debug.sethook(hook, "", HOOK_EVERY)
  local res = table.pack(xpcall(fn, handler, ...))
  done = true
  if old[1] then debug.sethook(old[1], old[2], old[3]) else debug.sethook() end
  if over then
    res = table.pack(false, ("the file's top level ran over %d instructions while loading (an endless loop?); "
      .. "a tool file should only define tools"):format(tools.LOAD_BUDGET))
  end
  return table.unpack(res, 1, res.n)
end

--- Loads tool code already read (chunkname as for load; file names it in
-- registry.failures); otherwise as load_file.
function Registry:load_source(code, chunkname, file, extra_env)
  local added = {}
  local env = setmetatable({}, { __index = _G })
  -- A malformed tool is reported at the line of the tool file that registers it.
  env.register = function(def)
    check_def(def, 3)
    self:register(def)
    added[#added + 1] = def.name
    return def
  end
  env.tools = self
  for k, v in pairs(extra_env or {}) do env[k] = v end
  local chunk, err = load(code, chunkname, "t", env)
  if not chunk then
    self.failures[#self.failures + 1] = { file = file, message = err }
    return nil, err
  end
  local ok, ret = budgeted(function()
    local r = chunk()
    if type(r) == "table" then
      for _, def in ipairs(r.name and { r } or r) do env.register(def) end
    end
  end)
  if not ok then
    local msg = type(ret) == "table" and tostring(ret.message or ret) or tostring(ret)
    self.failures[#self.failures + 1] = { file = file, message = msg }
    return nil, msg
  end
  return added
end

--- The first line of a description.
local function summary(text)
  return (text or ""):match("^%s*([^\n]*)")
end

--- The registry as text: one line per tool, name and one-line description.
function tools.render_list(reg)
  local width = 0
  for _, t in ipairs(reg:list()) do width = math.max(width, #t.name) end
  local out = {}
  for _, t in ipairs(reg:list()) do
    out[#out + 1] = ("%-" .. width .. "s  %s"):format(t.name, summary(t.description))
  end
  return table.concat(out, "\n")
end

local function type_text(s)
  if not s then return "any" end
  local t = type(s.type) == "table" and table.concat(s.type, "|") or s.type or "any"
  if t == "array" and s.items then t = "array of " .. type_text(s.items) end
  if s.enum then
    local e = {}
    for i, v in ipairs(s.enum) do e[i] = ("`%s`"):format(tostring(v)) end
    t = t .. " (" .. table.concat(e, ", ") .. ")"
  end
  return t
end

--- The Markdown reference of every tool (docs/mcp-tools.md).
function tools.render_markdown(reg)
  local out = { "| tool | what it does |", "|---|---|" }
  for _, t in ipairs(reg:list()) do
    out[#out + 1] = ("| [`%s`](#%s) | %s |"):format(t.name, t.name:gsub("[^%w_-]", ""), summary(t.description))
  end
  for _, t in ipairs(reg:list()) do
    out[#out + 1] = ""
    out[#out + 1] = "### `" .. t.name .. "`" .. (t.title and (" — " .. t.title) or "")
    out[#out + 1] = ""
    out[#out + 1] = t.description
    if t.cap then
      out[#out + 1] = ""
      out[#out + 1] = "Served with `--caps " .. t.cap .. "` (or `--caps all`)."
    end
    local props, req = t.input.properties or {}, {}
    for _, r in ipairs(t.input.required or {}) do req[r] = true end
    local names = {}
    for n in pairs(props) do names[#names + 1] = n end
    table.sort(names, function(a, b)
      if req[a] ~= req[b] then return req[a] == true end
      return a < b
    end)
    out[#out + 1] = ""
    if #names == 0 then
      out[#out + 1] = "Arguments: none."
    else
      out[#out + 1] = "| argument | type | required | description |"
      out[#out + 1] = "|---|---|---|---|"
      for _, n in ipairs(names) do
        local p = props[n]
        out[#out + 1] = ("| `%s` | %s | %s | %s |"):format(n, type_text(p), req[n] and "yes" or "no",
          ((p.description or ""):gsub("|", "\\|"):gsub("\n", " ")))
      end
    end
    local a = t.annotations or {}
    out[#out + 1] = ""
    out[#out + 1] = ("Read-only: %s."):format(a.readOnlyHint and "yes" or "no")
  end
  return table.concat(out, "\n")
end

--- `vdxlua tools [--markdown] [--tools FILE]…`: prints the registry.
function tools.main(args)
  local markdown, files = false, {}
  local i = 1
  while i <= #args do
    local a = args[i]
    if a == "--markdown" then markdown = true
    elseif a == "--tools" and args[i + 1] then files[#files + 1] = args[i + 1]; i = i + 1
    else
      local near = require("vdx.spelling").nearest(tostring(a), { "--markdown", "--tools" })
      io.stderr:write("vdxlua tools: unknown argument '", tostring(a), "'",
        near and (" (did you mean " .. near .. "?)") or "", "\n",
        "usage: vdxlua tools [--markdown] [--tools FILE.lua]...\n")
      return 2
    end
    i = i + 1
  end
  local reg = tools.new()
  require("vdx.builtin").register_all(reg)
  for _, f in ipairs(files) do
    local ok, err = reg:load_file(f)
    if not ok then io.stderr:write("vdxlua tools: cannot load ", f, ": ", err, "\n") end
  end
  io.stdout:write((markdown and tools.render_markdown(reg) or tools.render_list(reg)), "\n")
  return 0
end

return tools
