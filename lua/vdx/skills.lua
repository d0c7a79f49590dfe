--- vdx.skills: skill folders.  A skill is a folder with a SKILL.md (YAML
-- frontmatter `name`, `description`, then instructions), optional
-- references/*.md and an optional tools.lua that registers tools.  Only
-- the frontmatter and the file names are read when loading; bodies and
-- references are read when asked for (progressive disclosure).
--
-- The built-in skills are compiled in (the module vdx.skill_files, made
-- from skills/ at build time and installed with the Lua modules); their
-- paths start with "builtin:".  Nothing is ever looked up in the current
-- directory: other skills come only from folders the user names.
local skills = {}

local BUILTIN = "builtin:"

-- The compiled-in files (path under skills/ -> bytes), or nil when the
-- module is missing (a stock lua5.4 without the build folder on its path).
local function builtin_files()
  local ok, files = pcall(require, "vdx.skill_files")
  return ok and type(files) == "table" and files or nil
end

-- The largest skill file read (SKILL.md, a reference, tools.lua).
skills.MAX_BYTES = 4 * 1024 * 1024

-- Reads path now: a compiled-in file, or a file read without blocking
-- (a FIFO is refused at once) beneath root, the skill's folder, where no
-- symbolic link is followed and a file with several hard links is
-- refused.  Returns the text, or nil and why.
local function read(path, root)
  if path:sub(1, #BUILTIN) == BUILTIN then
    local files = builtin_files()
    local text = files and files[path:sub(#BUILTIN + 1)]
    if not text then return nil, path .. ": no such built-in file" end
    return text
  end
  local vdx = require "vdx"
  if not root or path:sub(1, #root + 1) ~= root .. "/" then
    root = path:match("^(.*)/[^/]+$") or "."
  end
  local d, msg = vdx.open_dir(root)
  if not d then return nil, msg end
  local text, err = d:read(path:sub(#root + 2), { max_bytes = skills.MAX_BYTES })
  d:close()
  if not text then return nil, err end
  return text
end

local function shell_quote(s)
  return "'" .. s:gsub("'", "'\\''") .. "'"
end

-- True when something (a file, a FIFO, a link) has the name path; a
-- compiled-in path when the build has it.  Only the name is looked at.
local function file_exists(path)
  if path:sub(1, #BUILTIN) == BUILTIN then
    local files = builtin_files()
    return files ~= nil and files[path:sub(#BUILTIN + 1)] ~= nil
  end
  local dir, base = path:match("^(.*)/([^/]+)$")
  local d = require("vdx").open_dir(dir or ".")
  if not d then return false end
  local kind = d:kind(base or path)
  d:close()
  return kind ~= nil
end

-- Entries right under a compiled-in folder ("builtin:x/references").
local function builtin_entries(dir, pattern)
  local prefix, out, seen = dir:sub(#BUILTIN + 1), {}, {}
  prefix = prefix == "" and "" or prefix .. "/"
  for path in pairs(builtin_files() or {}) do
    local name = path:sub(1, #prefix) == prefix and path:sub(#prefix + 1):match("^[^/]+")
    if name and not seen[name] and (not pattern or name:match(pattern)) then
      seen[name] = true
      out[#out + 1] = name
    end
  end
  table.sort(out)
  return out
end

-- Entries of dir (names only), sorted; empty when dir is not readable.
local function entries(dir, pattern)
  if dir:sub(1, #BUILTIN) == BUILTIN then return builtin_entries(dir, pattern) end
  local out = {}
  local p = io.popen("ls -1 " .. shell_quote(dir) .. " 2>/dev/null")
  if not p then return out end
  for name in p:lines() do
    if not pattern or name:match(pattern) then out[#out + 1] = name end
  end
  p:close()
  table.sort(out)
  return out
end

local function unquote(v)
  v = v:match("^%s*(.-)%s*$")
  local q = v:match('^"(.*)"$') or v:match("^'(.*)'$")
  return q or v
end

--- Parses the YAML frontmatter of text (simple `key: value` pairs, quoted
-- values and `>`/`|` blocks); returns the fields and the body after it.
function skills.frontmatter(text)
  local head, body = text:match("^%-%-%-\r?\n(.-)\r?\n%-%-%-\r?\n?(.*)$")
  if not head then return {}, text end
  local fields, key, block = {}, nil, nil
  for line in (head .. "\n"):gmatch("([^\n]*)\n") do
    line = line:gsub("\r$", "")
    local k, v = line:match("^([%w_%-]+):%s*(.-)%s*$")
    if k then
      key = k
      if v == ">" or v == "|" or v == ">-" or v == "|-" then
        block, fields[k] = v:sub(1, 1), ""
      else
        block, fields[k] = nil, unquote(v)
      end
    elseif block and key and line:match("^%s+%S") then
      local sep = fields[key] == "" and "" or (block == ">" and " " or "\n")
      fields[key] = fields[key] .. sep .. line:match("^%s*(.-)%s*$")
    end
  end
  return fields, body
end

--- Loads the skill in folder dir: {name, description, dir, references}, or
-- nil and why.  With reg, also loads its tools.lua into the registry; the
-- tool file sees `skill`, plus the fields of env (e.g. `workspace`).
function skills.load(dir, reg, env)
  local text, why = read(dir .. "/SKILL.md", dir)
  if not text then return nil, dir .. "/SKILL.md: " .. tostring(why) end
  local fields = skills.frontmatter(text:sub(1, 8192))
  if not fields.name or fields.name == "" then return nil, dir .. "/SKILL.md: no name in the frontmatter" end
  local skill = { name = fields.name, description = fields.description or "", dir = dir,
    references = entries(dir .. "/references", "%.md$") }
  local code, cerr = nil, nil
  if reg and file_exists(dir .. "/tools.lua") then code, cerr = read(dir .. "/tools.lua", dir) end
  if cerr then skill.tools_error, skill.tools_file, skill.tool_names = cerr, dir .. "/tools.lua", {} end
  if code then
    local extra = { skill = skill }
    for k, v in pairs(env or {}) do extra[k] = v end
    local path = dir .. "/tools.lua"
    local chunkname = path:sub(1, #BUILTIN) == BUILTIN and "@skills/" .. path:sub(#BUILTIN + 1) or "@" .. path
    local added, err = reg:load_source(code, chunkname, path, extra)
    if not added then skill.tools_error = err end
    skill.tools_file, skill.tool_names = path, added or {}
  end
  return skill
end

--- Loads the compiled-in skills (skills/ of the source tree); returns the
-- list and the problems, like load_dir.  Without the compiled-in module
-- the list is empty and the problem says so.
function skills.load_builtin(reg, env)
  if not builtin_files() then
    return {}, { "the built-in skills are missing (module vdx.skill_files not found; run make install)" }
  end
  return skills.load_dir(BUILTIN, reg, env)
end

--- Loads every skill folder under dir; returns the list and the problems.
function skills.load_dir(dir, reg, env)
  local list, problems = {}, {}
  for _, name in ipairs(entries(dir)) do
    local sub = dir == BUILTIN and dir .. name or dir .. "/" .. name
    if file_exists(sub .. "/SKILL.md") then
      local s, err = skills.load(sub, reg, env)
      if s then
        list[#list + 1] = s
        if s.tools_error then problems[#problems + 1] = s.tools_error end
      else
        problems[#problems + 1] = err
      end
    end
  end
  return list, problems
end

--- The body of the skill's SKILL.md (after the frontmatter), read now.
function skills.body(skill)
  local text = read(skill.dir .. "/SKILL.md", skill.dir) or ""
  local _, body = skills.frontmatter(text)
  return body
end

--- The resources of a skill: {uri, name, description, path} for SKILL.md
-- and each reference.
function skills.resources(skill)
  local out = { { uri = ("skill://%s/SKILL.md"):format(skill.name), name = skill.name .. "/SKILL.md",
    description = skill.description, path = skill.dir .. "/SKILL.md", root = skill.dir } }
  for _, f in ipairs(skill.references) do
    out[#out + 1] = { uri = ("skill://%s/references/%s"):format(skill.name, f),
      name = skill.name .. "/references/" .. f, description = "Reference of skill " .. skill.name,
      path = skill.dir .. "/references/" .. f, root = skill.dir }
  end
  return out
end

--- Reads a resource path now (beneath root, its skill's folder, when
-- given); returns its text, or nil and why.
skills.read = read

return skills
