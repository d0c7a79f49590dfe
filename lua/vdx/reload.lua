--- vdx.reload: hot reload for `vdxlua mcp`.  Watches the --tools files
-- and --skills folders (libuv fs events through vdx.watch); a changed or
-- new file is loaded again, the tools it no longer defines are removed,
-- and the client hears `notifications/tools/list_changed` (and
-- `resources/list_changed`, `prompts/list_changed` for skills).  A file
-- that fails to load is reported in the log and its previous version keeps
-- serving; a deleted tools file's tools are unregistered (and the client
-- hears it).  A file is read without blocking (a FIFO in its place fails
-- at once) and its top level runs under an instruction budget, so a file
-- that loops fails to load instead of hanging the server.  Events are
-- gathered for a short moment (editors write a file in several steps)
-- before a reload runs.
local vdx = require "vdx"
local tools = require "vdx.tools"
local skills_mod = require "vdx.skills"
local paths = require "vdx.paths"

local reload = {}

local Reloader = {}
Reloader.__index = Reloader

--- The delay between the first event and the reload, in milliseconds.
reload.SETTLE_MS = 150

--- A reloader.  opts: server (vdx.mcp server), registry, log, env (extra
-- environment of skill tool files), builtin (set of built-in tool names).
function reload.new(opts)
  return setmetatable({ server = opts.server, reg = opts.registry, log = opts.log, env = opts.env or {},
    builtin = opts.builtin or {}, owned = {}, dirs = {}, order = {}, watchers = {}, pending = {} }, Reloader)
end

--- Records that file defined the tools names (at start-up).
function Reloader:own(file, names)
  self.owned[file] = names or {}
end

-- Loads file into a scratch registry; on success moves its tools into the
-- real one, removing the tools the file no longer defines; a file that is
-- gone loses all its tools.  Returns true, or nil and the error (the
-- previous tools stay).
function Reloader:load_tools(file, extra_env, code, chunkname)
  local _, _, why = paths.kind(file)
  if not code and why == "ENOENT" then
    -- The file was deleted: its tools go, and the client hears it.
    local names = self.owned[file] or {}
    self:drop(file)
    self.owned[file] = {}
    self.log("info", "%s was removed; its %d tools are unregistered", file, #names)
    return true
  end
  local scratch = tools.new()
  local added, err
  if code then added, err = scratch:load_source(code, chunkname, file, extra_env)
  else added, err = scratch:load_file(file, extra_env) end
  if not added then
    self.log("error", "reloading %s failed; the previous version keeps serving:\n%s", file, err)
    return nil, err
  end
  local now = {}
  for _, n in ipairs(added) do now[n] = true end
  for _, n in ipairs(self.owned[file] or {}) do
    if not now[n] then self.reg:unregister(n) end
  end
  for _, n in ipairs(added) do
    if self.builtin[n] then self.log("warn", "%s replaces the built-in tool %s", file, n) end
    self.reg:register(scratch:get(n))
  end
  self.owned[file] = added
  self.log("info", "reloaded %d tools from %s", #added, file)
  return true
end

--- Forgets the tools file defined (a skill that went away).
function Reloader:drop(file)
  for _, n in ipairs(self.owned[file] or {}) do self.reg:unregister(n) end
  self.owned[file] = nil
end

--- Records the skills loaded from folder dir at start-up.
function Reloader:own_dir(dir, list)
  if not self.dirs[dir] then self.order[#self.order + 1] = dir end
  self.dirs[dir] = list
  for _, s in ipairs(list) do
    if s.tools_file then self.owned[s.tools_file] = s.tool_names or {} end
  end
end

-- Loads the skills of dir again: their metadata, then each tools.lua as a
-- tool file; skills that are gone lose their tools.
function Reloader:reload_dir(dir)
  local list, problems = skills_mod.load_dir(dir, nil, self.env)
  for _, p in ipairs(problems) do self.log("error", "skill in %s: %s", dir, p) end
  local still = {}
  for _, s in ipairs(list) do
    local path = s.dir .. "/tools.lua"
    local code, why = skills_mod.read(path, s.dir)
    if not code and paths.kind(path) then
      -- There, but not a file to load (a FIFO, a link): the old tools stay.
      self.log("error", "reloading %s failed; the previous version keeps serving:\n%s", path, why)
      still[path] = true
    elseif code then
      local extra = { skill = s }
      for k, v in pairs(self.env) do extra[k] = v end
      s.tools_file = path
      self:load_tools(path, extra, code, "@" .. path)
      still[path] = true
    end
  end
  for _, old in ipairs(self.dirs[dir] or {}) do
    if old.tools_file and not still[old.tools_file] then self:drop(old.tools_file) end
  end
  self.dirs[dir] = list
  self.log("info", "reloaded %d skills from %s", #list, dir)
end

--- The skills of the watched folders, in order (for the server's list).
function Reloader:skills()
  local out = {}
  for _, d in ipairs(self.order) do
    for _, s in ipairs(self.dirs[d]) do out[#out + 1] = s end
  end
  return out
end

-- Runs fn once the events of the next SETTLE_MS have arrived, as one
-- batch of list changes.
function Reloader:later(key, fn)
  if self.pending[key] then return end
  self.pending[key] = true
  vdx.spawn(function()
    vdx.sleep(reload.SETTLE_MS)
    self.pending[key] = nil
    self.server:batch(fn)
  end)
end

local function split(path)
  local dir, base = path:match("^(.*)/([^/]+)$")
  if not dir then return ".", path end
  return dir == "" and "/" or dir, base
end

-- Watches folder dir (once), calling on(name) for each event in it.
function Reloader:watch(dir, on)
  local entry = self.watchers[dir]
  if not entry then
    entry = { handlers = {} }
    local w, err = vdx.watch(dir, function(name)
      for _, h in ipairs(entry.handlers) do h(name) end
    end)
    if not w then
      self.log("warn", "not watching %s: %s", dir, err)
      return
    end
    entry.watcher = w
    self.watchers[dir] = entry
  end
  entry.handlers[#entry.handlers + 1] = on
end

--- Starts watching: each tool file (through its folder, so a file that an
-- editor replaces is still seen) and each skill folder and its skills.
function Reloader:start(tool_files, skill_dirs)
  for _, f in ipairs(tool_files) do
    local dir, base = split(f)
    self:watch(dir, function(name)
      if name == base then self:later(f, function() self:load_tools(f) end) end
    end)
  end
  for _, d in ipairs(skill_dirs) do
    local function again()
      self:later(d, function()
        self:reload_dir(d)
        self:watch_skills(d, again)
        self.server:set_skills(self.base_skills, self:skills())
      end)
    end
    self:watch(d, again)
    self:watch_skills(d, again)
  end
end

-- Watches each skill folder under d (and its references) not yet watched.
function Reloader:watch_skills(d, again)
  for _, s in ipairs(self.dirs[d] or {}) do
    for _, sub in ipairs { s.dir, s.dir .. "/references" } do
      if not self.watchers[sub] then
        local f = io.open(sub .. "/.", "rb")
        if f then
          f:close()
          self:watch(sub, again)
        end
      end
    end
  end
end

--- Stops every watcher.
function Reloader:close()
  for _, e in pairs(self.watchers) do e.watcher:close() end
  self.watchers = {}
end

return reload
