--- vdx.paths: where tools may read and write files, and which URLs they
-- may open.  One policy per server, built from the command line:
--
-- * `workspace` (--workspace DIR): every path a tool reads (uploads, the
--   workspace skill) must lead inside it, after resolving symbolic links.
--   Without it, reads are not confined.
-- * `output` (--output-dir DIR): where files a tool writes go (screenshots);
--   default `vdx-output/` in the workspace, or in the current folder.  A
--   name given by the agent is relative to it, may not leave it, and never
--   replaces an existing file.  Files are written through vdx.open_dir:
--   beneath the folder's descriptor, never through a symbolic link, as a
--   new file (a temporary file renamed without replacing).  The default
--   folder may not itself be a symbolic link (a cloned repository can ship
--   `vdx-output -> /elsewhere`); one named with --output-dir may.
-- * Every file a tool reads (uploads, skill files, --tools files) is read
--   with paths.read_file or a vdx.Dir: without blocking, only a regular
--   file with one hard link, never through a symbolic link beneath its
--   folder.
-- * `allow_file_urls` (--allow-file-urls): `file:` URLs are refused
--   unless it is set.
local vdx = require "vdx"
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

--- A policy.  opts: workspace (folder), output (folder, given with
-- --output-dir), allow_file_urls.
function paths.new(opts)
  opts = opts or {}
  local self = setmetatable({ workspace = opts.workspace, allow_file_urls = opts.allow_file_urls == true,
    shots = 0, output_named = opts.output ~= nil }, Policy)
  self.output = opts.output or ((opts.workspace or ".") .. "/vdx-output")
  if self.workspace then self.check_read, self.workspace_root = paths.checker(self.workspace, { absolute = true }) end
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

--- Raises the typed error for a failed read or write of a vdx.Dir (or
-- paths.read_file): code as they return it; what names the file for the
-- agent; field is the argument that named it.
function paths.raise(what, msg, code, field, file)
  local extra = { field = field, file = file }
  if code == "Symlink" or code == "HardLink" or code == "NotRegular" then
    local why = code == "Symlink" and "a symbolic link is in the way; links are never followed, so a link cannot "
      .. "lead the file elsewhere.  Use the real file or folder, not a link"
      or code == "HardLink" and "the file has more than one hard link, so it may be a file from elsewhere.  Copy "
      .. "it (cp) instead of linking it"
      or "it is not a regular file (a FIFO, socket, device or folder).  Give a regular file"
    error(vdx.error("UnsafePath", what .. ": " .. why, extra), 0)
  elseif code == "ENOSPC" then
    error(vdx.error("DiskFull", what .. ": the disk is full; nothing was left behind.  Free space on the disk "
      .. "that holds it (delete old screenshots there), or restart with --output-dir on another disk", extra), 0)
  elseif code == "Exists" then
    refuse(what .. " exists already; files are never overwritten: choose another filename", file, field)
  elseif code == "TooLarge" then
    refuse(what .. ": " .. msg .. "; use a smaller file", file, field)
  elseif code == "Timeout" then
    error(vdx.error("Timeout", what .. ": " .. msg, extra), 0)
  elseif code == "ENOENT" then
    refuse(what .. ": no such file or folder", file, field)
  end
  error(vdx.error("IOError", what .. ": " .. tostring(msg), extra), 0)
end

-- Calls method (read or kind) of the folder holding path on its last
-- name, opened for that one call; returns what it returns, or nil,
-- message, code when the folder cannot be opened.
local function in_folder(path, method, ...)
  local dir, base = tostring(path):match("^(.*)/([^/]+)$")
  if not dir then dir, base = ".", path end
  if dir == "" then dir = "/" end
  local d, msg, code = vdx.open_dir(dir)
  if not d then return nil, msg, code end
  local v
  v, msg, code = d[method](d, base, ...)
  d:close()
  return v, msg, code
end

--- Reads the file at path without blocking the loop: only a regular file
-- with one hard link, itself no symbolic link (its folder may be one);
-- returns its text, or nil, message, code as vdx.Dir:read.  opts as
-- vdx.Dir:read (max_bytes, timeout).
function paths.read_file(path, opts)
  return in_folder(path, "read", opts)
end

--- What stands at path ("file", "folder", "link", "fifo", …, as
-- vdx.Dir:kind), without opening it; nil, message, code when nothing.
function paths.kind(path)
  return in_folder(path, "kind")
end

-- The upload copies: the largest file and the private folder.
paths.UPLOAD_MAX = 64 * 1024 * 1024

-- The private folder (0700 under $TMPDIR) that holds the copies of the
-- uploaded files, made at the first upload.
function Policy:upload_dir()
  if self.uploads then return self.uploads end
  -- mktemp -d makes a new folder only it can have made, mode 0700.
  local h = io.popen("mktemp -d \"${TMPDIR:-/tmp}/vdx-uploads.XXXXXX\" 2>/dev/null")
  local made = h and h:read("l")
  if h then h:close() end
  local d, msg = made and vdx.open_dir(made, { follow = false })
  if not d then error(vdx.error("IOError", "cannot make a folder for uploads: " .. tostring(msg or "mktemp failed")), 0) end
  self.uploads, self.upload_n = d, 0
  return d
end

--- Reads the file at path for a tool (field: the argument that named
-- it): inside the workspace when there is one; a regular file with one
-- link, no link beneath the workspace; at most max_bytes.  Returns its
-- bytes and its own path (resolved in the workspace).  Raises
-- InvalidArgument, UnsafePath or IOError otherwise.
function Policy:read(path, field, max_bytes)
  if type(path) ~= "string" or path == "" or path:find("%z") then
    refuse("a file path must be a non-empty string", path, field)
  end
  local text, msg, code
  local real = path
  if self.check_read then
    local rel
    real, rel = self.check_read(path)
    if rel == "." then refuse(path .. " is the workspace folder, not a file", path, field) end
    local d, derr, dcode = vdx.open_dir(self.workspace_root)
    if not d then paths.raise(path, derr, dcode, field, path) end
    text, msg, code = d:read(rel, { max_bytes = max_bytes })
    d:close()
  else
    text, msg, code = paths.read_file(path, { max_bytes = max_bytes })
  end
  if not text then paths.raise(path, msg, code, field, path) end
  return text, real
end

--- The path to give the browser for a file a tool uploads: the file is
-- read now (inside the workspace when there is one; a regular file with
-- one link, no link beneath the workspace; at most UPLOAD_MAX bytes) and
-- the browser gets a private copy of it under the same name, so the file
-- it sends is the file that was checked; second, the file's own path
-- (resolved in the workspace).  Raises InvalidArgument or UnsafePath
-- otherwise.
function Policy:read_path(path)
  local text, real = self:read(path, "paths", paths.UPLOAD_MAX)
  local d = self:upload_dir()
  self.upload_n = self.upload_n + 1
  local copy, werr, wcode = d:write(("%d/%s"):format(self.upload_n, path:match("[^/]+$")), text)
  if not copy then paths.raise(path, werr, wcode, "paths", path) end
  return copy, real
end

--- Removes the private copies of uploaded files (at the server's end).
function Policy:close()
  if not self.uploads then return end
  os.execute("rm -rf -- " .. shell_quote(self.uploads:path()))
  self.uploads:close()
  self.uploads = nil
end

--- The output folder, opened now (made when missing) as a vdx.Dir.  The
-- default folder may not be a symbolic link; a folder named with
-- --output-dir may.  Raises UnsafePath or IOError otherwise.
function Policy:output_dir()
  local d, msg, code = vdx.open_dir(self.output, { create = true, follow = self.output_named })
  if d then return d end
  if code == "Symlink" then
    error(vdx.error("UnsafePath", ("the output folder %s is a symbolic link (to %s); a cloned repository can ship "
      .. "one to send files elsewhere, so it is not used.  Remove the link, or restart with --output-dir %s to "
      .. "write there on purpose"):format(self.output, tostring(paths.realpath(self.output) or "?"), self.output),
      { field = "filename", file = self.output }), 0)
  end
  errors.misuse("cannot create the output folder " .. self.output .. " (" .. tostring(msg)
    .. "); pass --output-dir with a writable folder", 0, { field = "filename", file = self.output })
end

--- The name of a new file in the output folder: name (relative to it;
-- default prefix-<time>-N.ext) checked to stay inside it; returns the
-- normalised relative name and the absolute path it will have.  Raises
-- InvalidArgument for an absolute name or one that leaves the folder.
function Policy:output_name(name, prefix, ext)
  local d = self:output_dir()
  local dir = d:path()
  d:close()
  if name == nil then
    self.shots = self.shots + 1
    name = ("%s-%d-%d.%s"):format(prefix, os.time(), self.shots, ext)
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
  return rel, dir .. "/" .. rel
end

--- Writes data as the new file rel (from output_name) of the output
-- folder, making the folders on its way; returns its absolute path.  An
-- existing file is never replaced (unless replace is true and it is a
-- regular file: one this session wrote, which the caller checked) and a
-- link never followed (InvalidArgument, UnsafePath); a full disk leaves
-- nothing (DiskFull).
function Policy:write(rel, data, replace)
  local d = self:output_dir()
  local full, msg, code = d:write(rel, data, replace and { replace = true } or nil)
  local dir = d:path()
  d:close()
  if not full then paths.raise(dir .. "/" .. rel, msg, code, "filename", rel) end
  return full
end

--- Whether nothing stands at rel in the output folder (a file deleted).
function Policy:output_gone(rel)
  local d = self:output_dir()
  local kind, _, code = d:kind(rel)
  d:close()
  return kind == nil and code == "ENOENT"
end

--- The text of the file rel of the output folder, or nil when it cannot
-- be read (gone, a link, too large).
function Policy:read_output(rel)
  local d = self:output_dir()
  local text = d:read(rel, { max_bytes = 4 * 1024 * 1024 })
  d:close()
  return text
end

--- output_name then write, trying the next default name while one exists.
function Policy:write_file(name, prefix, ext, data)
  for _ = 1, 100 do
    local rel = self:output_name(name, prefix, ext)
    local d = self:output_dir()
    local full, msg, code = d:write(rel, data)
    local dir = d:path()
    d:close()
    if full then return full end
    if not (name == nil and code == "Exists") then paths.raise(dir .. "/" .. rel, msg, code, "filename", rel) end
  end
  error(vdx.error("IOError", "no free file name in the output folder"), 0)
end

return paths
