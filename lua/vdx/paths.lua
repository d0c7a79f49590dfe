--- vdx.paths: where tools may read and write files, and which URLs they
-- may open.  One policy per server, built from the command line:
--
-- * `workspace` (--workspace DIR): every path a tool reads (uploads, the
--   workspace skill) must lead inside it, after resolving symbolic links.
--   Without it, reads are not confined.
-- * `output` (--output-dir DIR): where files a tool writes go (screenshots);
--   default `vdx-output/` in the workspace, or in the current folder.  A
--   name given by the agent is relative to it, may not leave it, and never
--   replaces an existing file.
-- * `allow_file_urls` (--allow-file-urls): `file:` URLs are refused
--   unless it is set.
local errors = require "vdx.errors"

local paths = {}

local function shell_quote(s)
  return "'" .. tostring(s):gsub("'", "'\\''") .. "'"
end

--- The canonical absolute path of p (symbolic links resolved), or nil
-- when p does not exist.
function paths.realpath(p)
  local h = io.popen("realpath -e -- " .. shell_quote(p) .. " 2>/dev/null")
  if not h then return nil end
  local out = h:read("l")
  h:close()
  return out
end

local function refuse(msg, path, field)
  errors.misuse(msg, 0, { field = field or "path", file = path })
end

-- The parts of a relative path, with "." dropped and ".." applied; raises
-- when ".." climbs above the start.
local function normalise(path, field)
  local parts = {}
  for part in path:gmatch("[^/]+") do
    if part == ".." then
      if #parts == 0 then refuse("the path leaves the " .. field, path) end
      parts[#parts] = nil
    elseif part ~= "." then
      parts[#parts + 1] = part
    end
  end
  return table.concat(parts, "/")
end

local function inside(real, root)
  return real == root or real:sub(1, #root + 1) == root .. "/"
end

--- The checker for root: check(path) -> absolute path inside root, its
-- path relative to root; raises InvalidArgument for a path outside it.
-- With opts.absolute, an absolute path inside root is accepted too.
function paths.checker(root, opts)
  local real_root = paths.realpath(root)
  if not real_root then
    errors.misuse("workspace: the root " .. tostring(root) .. " does not exist", 2, { field = "workspace", file = root })
  end
  local absolute = opts and opts.absolute
  return function(path)
    path = path or "."
    if type(path) ~= "string" or path:find("%z") then refuse("the path must be a string", path) end
    local first = path:sub(1, 1)
    if first == "~" or (first == "/" and not absolute) then
      refuse("the path must be relative to the workspace root (absolute paths are refused)", path)
    end
    local rel
    if first == "/" then
      local real = paths.realpath(path)
      if not real then refuse("no such file: " .. path, path) end
      if not inside(real, real_root) then
        refuse("the path is outside the workspace " .. real_root .. " (only files in it may be used)", path)
      end
      return real, real == real_root and "." or real:sub(#real_root + 2)
    end
    rel = normalise(path, "workspace root")
    local full = real_root .. (rel ~= "" and ("/" .. rel) or "")
    local real = paths.realpath(full)
    if not real then refuse("no such file or folder in the workspace: " .. (rel ~= "" and rel or "."), path) end
    if not inside(real, real_root) then
      refuse("the path leads outside the workspace root (through a symbolic link)", path)
    end
    return real, rel ~= "" and rel or "."
  end, real_root
end

local Policy = {}
Policy.__index = Policy

--- A policy.  opts: workspace (folder), output (folder), allow_file_urls.
function paths.new(opts)
  opts = opts or {}
  local self = setmetatable({ workspace = opts.workspace, allow_file_urls = opts.allow_file_urls == true,
    shots = 0 }, Policy)
  self.output = opts.output or ((opts.workspace or ".") .. "/vdx-output")
  if self.workspace then self.check_read = paths.checker(self.workspace, { absolute = true }) end
  return self
end

--- Refuses url when it opens a local file (file: or filesystem:, itself
-- or wrapped in view-source:, blob: or filesystem:, its scheme read as the
-- browser reads it: see vdx.urls.local_file) and file URLs are not
-- allowed; returns url otherwise.
function Policy:check_url(url)
  local urls = require "vdx.urls"
  if not self.allow_file_urls and urls.local_file(url) then error(urls.local_file_error(url), 0) end
  return url
end

--- The absolute path of a file a tool may read (an upload): inside the
-- workspace when there is one; raises InvalidArgument otherwise.
function Policy:read_path(path)
  if type(path) ~= "string" or path == "" then refuse("a file path must be a non-empty string", path, "paths") end
  if not self.check_read then return path end
  return (self.check_read(path))
end

-- Creates the output folder when missing; returns its real path.
function Policy:output_dir()
  local real = paths.realpath(self.output)
  if real then return real end
  os.execute("mkdir -p -- " .. shell_quote(self.output))
  real = paths.realpath(self.output)
  if not real then
    errors.misuse("cannot create the output folder " .. self.output .. "; pass --output-dir with a writable folder",
      0, { field = "filename", file = self.output })
  end
  return real
end

--- The absolute path where a tool writes a new file: name (relative to
-- the output folder; default prefix-N.ext) must stay inside it and must
-- not exist yet.  Raises InvalidArgument otherwise.
function Policy:write_path(name, prefix, ext)
  local dir = self:output_dir()
  if name == nil then
    repeat
      self.shots = self.shots + 1
      name = ("%s-%d-%d.%s"):format(prefix, os.time(), self.shots, ext)
    until not paths.realpath(dir .. "/" .. name)
  end
  if type(name) ~= "string" or name == "" or name:find("%z") then
    refuse("the file name must be a non-empty string", name, "filename")
  end
  if name:sub(1, 1) == "/" or name:sub(1, 1) == "~" then
    refuse("the file name must be relative to the output folder " .. dir .. " (absolute paths are refused)",
      name, "filename")
  end
  local rel = normalise(name, "output folder")
  if rel == "" then refuse("the file name names the output folder itself", name, "filename") end
  local parent = rel:match("^(.*)/[^/]*$")
  local real_parent = parent and paths.realpath(dir .. "/" .. parent) or dir
  if not real_parent or not inside(real_parent, dir) then
    refuse("the file must go in the output folder " .. dir .. " (or a folder in it that exists)", name, "filename")
  end
  local full = real_parent .. "/" .. rel:match("[^/]+$")
  local probe = io.open(full, "rb")
  local is_link = os.execute("test -L " .. shell_quote(full))
  if probe or is_link then
    if probe then probe:close() end
    refuse(full .. " exists already; files are never overwritten: choose another filename", name, "filename")
  end
  return full
end

return paths
