-- skills/workspace/tools.lua: read-only tools over the project under test
-- (list_directory, read_file, find_test_ids), confined to one root: the
-- folder given on the command line (the loader passes it as `workspace`,
-- e.g. `vdxlua mcp --workspace DIR`), else $VDX_WORKSPACE, else the
-- current directory.
--
-- Confinement: a path is taken relative to the root, normalised lexically
-- (".." cannot climb above the root), then resolved with realpath so a
-- symbolic link that points outside the root is refused too; files are
-- then read beneath the root's descriptor (vdx.open_dir), where no link is
-- followed at all, so a name swapped for a link after the check is refused.  Every output
-- is bounded (entries, bytes, lines, files scanned, matches).
local vdx = require "vdx"

local M = {}

-- read_bytes: the largest file read_file opens; line_bytes: where a long
-- line is cut (with a marker) so that paging always moves on.
local LIMITS = { entries = 200, bytes = 64 * 1024, lines = 400, files = 2000, file_bytes = 1024 * 1024,
  matches = 300, read_bytes = 16 * 1024 * 1024, line_bytes = 4096 }
M.limits = LIMITS

local SKIP_DIRS = { [".git"] = true, node_modules = true, dist = true, build = true, [".next"] = true,
  coverage = true, vendor = true, ["test-results"] = true }
local SOURCE_EXT = { html = true, htm = true, js = true, jsx = true, ts = true, tsx = true, mjs = true,
  vue = true, svelte = true, lua = true, py = true, rb = true, erb = true, php = true, java = true,
  kt = true, swift = true, cs = true, cshtml = true, hbs = true, ejs = true, astro = true, go = true }

-- Attribute names and call forms that carry test ids, in the order reported.
local PATTERNS = {
  { "data-testid", [[data%-testid%s*=%s*["'{]+([^"'}]+)]] },
  { "data-test-id", [[data%-test%-id%s*=%s*["'{]+([^"'}]+)]] },
  { "data-test", [[data%-test%s*=%s*["'{]+([^"'}]+)]] },
  { "data-qa", [[data%-qa%s*=%s*["'{]+([^"'}]+)]] },
  { "data-cy", [[data%-cy%s*=%s*["'{]+([^"'}]+)]] },
  { "testID", [[testID%s*=%s*["'{]+([^"'}]+)]] },
  { "getByTestId", [[getByTestId%(%s*["'`]([^"'`]+)]] },
  { "setAttribute", [[setAttribute%(%s*["']data%-testid["']%s*,%s*["']([^"']+)]] },
  { "object key", [=[['"]data%-testid['"]%s*:%s*['"`]([^'"`]+)]=] },
}

local function shell_quote(s)
  return "'" .. tostring(s):gsub("'", "'\\''") .. "'"
end

local function refuse(msg, path)
  error({ type = "InvalidArgument", message = msg, field = "path", file = path }, 0)
end

--- The checker for root: check(path) -> absolute path inside root, its
-- path relative to root; raises InvalidArgument for a path outside it.
M.checker = require("vdx.paths").checker

-- Reads the regular file rel beneath the folder real_root without
-- blocking the loop, through one descriptor of the folder: no symbolic
-- link on the way is followed and a file with several hard links is
-- refused, so a name swapped for a link meanwhile cannot lead outside.
-- Raises a typed error that says what to do when it cannot.
local function read_whole(real_root, rel, path, max)
  local dir, derr = vdx.open_dir(real_root)
  if not dir then refuse("cannot open the workspace root: " .. tostring(derr), path) end
  local data, msg, code = dir:read(rel, { max_bytes = max })
  dir:close()
  if data then return data end
  if code == "Symlink" then
    refuse(rel .. ": a symbolic link is on the way; links are not followed (one could lead outside the "
      .. "workspace root): read the file it points to by its own path", path)
  elseif code == "HardLink" then
    refuse(rel .. ": the file has more than one hard link (it may be a file outside the workspace root)", path)
  end
  if code == "Timeout" then
    error({ type = "Timeout", message = "reading " .. rel .. ": " .. msg, file = rel }, 0)
  elseif code == "NotRegular" then
    refuse(rel .. " is " .. msg .. "; only regular files are read", path)
  elseif code == "TooLarge" then
    refuse(rel .. ": " .. msg .. "; read a smaller file", path)
  end
  refuse("cannot read " .. rel .. ": " .. msg, path)
end

-- Cuts line to at most n bytes on a UTF-8 character boundary, with a
-- marker that says how long the line was.
local function cut_line(line, n)
  if #line <= n then return line end
  local stop = n
  while stop > 0 and (line:byte(stop + 1) or 0) & 0xC0 == 0x80 do stop = stop - 1 end
  return line:sub(1, stop) .. (" … [line cut: %d bytes in all]"):format(#line)
end

local function is_dir(p)
  local h = io.popen("test -d " .. shell_quote(p) .. " && echo d")
  local out = h:read("a")
  h:close()
  return out:match("d") ~= nil
end

--- The tool definitions for root.
function M.new(root)
  local check, real_root = M.checker(root)
  local defs = {}

  defs[#defs + 1] = {
    name = "list_directory",
    title = "List a workspace folder",
    description = "List a folder of the project under test (at most " .. LIMITS.entries .. " entries).",
    input = { type = "object", properties = { path = { type = "string", description = "Under the workspace (default: its root)", maxLength = 1024 } } },
    annotations = { readOnlyHint = true, idempotentHint = true, openWorldHint = false },
    run = function(_, args)
      local full, rel = check(args.path)
      if not is_dir(full) then refuse("not a folder: " .. rel, args.path) end
      local h = io.popen("find " .. shell_quote(full) .. " -mindepth 1 -maxdepth 1 -printf '%y %s %f\\n' 2>/dev/null | sort -k3")
      local entries, total = {}, 0
      for line in h:lines() do
        total = total + 1
        if #entries < LIMITS.entries then
          local kind, size, name = line:match("^(%S+) (%d+) (.*)$")
          if kind then
            entries[#entries + 1] = { name = name, type = kind == "d" and "dir" or kind == "l" and "link" or "file",
              size = kind == "f" and tonumber(size) or nil }
          end
        end
      end
      h:close()
      local lines = { ("%s (%d entries%s)"):format(rel, total, total > #entries and (", first " .. #entries .. " shown") or "") }
      for _, e in ipairs(entries) do
        lines[#lines + 1] = e.type == "dir" and (e.name .. "/") or (e.name .. (e.size and ("  " .. e.size .. " B") or ""))
      end
      return { text = table.concat(lines, "\n"),
        structured = { path = rel, entries = entries, total = total, truncated = total > #entries } }
    end,
  }

  defs[#defs + 1] = {
    name = "read_file",
    title = "Read a workspace file",
    description = "Read a text file of the project under test, with line numbers (" .. LIMITS.lines .. " lines at most; page with offset).",
    input = { type = "object", required = { "path" }, properties = {
      path = { type = "string", maxLength = 1024, description = "File under the workspace (relative to its root)" },
      offset = { type = "integer", minimum = 1, description = "First line (default 1)" },
      limit = { type = "integer", minimum = 1, maximum = LIMITS.lines, description = "Lines to read" } } },
    annotations = { readOnlyHint = true, idempotentHint = true, openWorldHint = false },
    run = function(_, args)
      local full, rel = check(args.path)
      if is_dir(full) then refuse("a folder, not a file: " .. rel .. " (use list_directory)", args.path) end
      local data = read_whole(real_root, rel, args.path, LIMITS.read_bytes)
      if data:find("%z") then refuse("a binary file: " .. rel, args.path) end
      local first, limit = args.offset or 1, args.limit or LIMITS.lines
      local out, n, bytes, more, pos = {}, 0, 0, false, 1
      while pos <= #data do
        local nl = data:find("\n", pos, true)
        local line = data:sub(pos, (nl or #data + 1) - 1)
        pos = (nl or #data) + 1
        n = n + 1
        if n >= first then
          line = cut_line(line, LIMITS.line_bytes)
          -- The first line always fits (cut), so paging always advances.
          if #out >= limit or (#out > 0 and bytes + #line > LIMITS.bytes) then more = true break end
          out[#out + 1] = ("%5d  %s"):format(n, line)
          bytes = bytes + #line + 1
        end
      end
      local text = table.concat(out, "\n")
      if more then text = text .. ("\n… more lines follow; call read_file with offset=%d"):format(first + #out) end
      return { text = text, structured = { path = rel, offset = first, lines = #out, more = more,
        next_offset = more and (first + #out) or nil } }
    end,
  }

  defs[#defs + 1] = {
    name = "find_test_ids",
    title = "Find test ids in the source",
    description = "The test ids (data-testid, data-qa, data-cy, …) in the source under the workspace folder (--workspace), with file and line: its selector conventions.",
    input = { type = "object", properties = {
      path = { type = "string", maxLength = 1024, description = "Folder or file (default: the root)" },
      value = { type = "string", maxLength = 200, description = "Only ids containing this" } } },
    annotations = { readOnlyHint = true, idempotentHint = true, openWorldHint = false },
    run = function(_, args)
      local full, rel = check(args.path)
      local h = io.popen("find " .. shell_quote(full) .. " \\( -type d \\( " ..
        (function()
          local t = {}
          for d in pairs(SKIP_DIRS) do t[#t + 1] = "-name " .. shell_quote(d) end
          table.sort(t)
          return table.concat(t, " -o ")
        end)() .. " \\) -prune \\) -o -type f -size -" .. (LIMITS.file_bytes // 1024) .. "k -print 2>/dev/null | sort")
      local matches, per_attr, scanned, total = {}, {}, 0, 0
      -- Files are read beneath the root's descriptor (no link followed).
      local read_root <close> = vdx.open_dir(real_root)
      for file in h:lines() do
        local ext = file:match("%.([%w]+)$")
        if ext and SOURCE_EXT[ext:lower()] and scanned < LIMITS.files then
          scanned = scanned + 1
          local data = file:sub(1, #real_root + 1) == real_root .. "/" and
            read_root and read_root:read(file:sub(#real_root + 2), { max_bytes = LIMITS.file_bytes })
          if data then
            local n = 0
            for line in data:gmatch("[^\n]*") do
              n = n + 1
              for _, p in ipairs(PATTERNS) do
                for v in line:gmatch(p[2]) do
                  if not args.value or v:find(args.value, 1, true) then
                    total = total + 1
                    per_attr[p[1]] = (per_attr[p[1]] or 0) + 1
                    if #matches < LIMITS.matches then
                      matches[#matches + 1] = { value = v, attribute = p[1],
                        file = file:sub(#real_root + 2), line = n }
                    end
                  end
                end
              end
            end
          end
        end
      end
      h:close()
      local conv = {}
      for k, v in pairs(per_attr) do conv[#conv + 1] = { attribute = k, count = v } end
      table.sort(conv, function(a, b) return a.count > b.count or (a.count == b.count and a.attribute < b.attribute) end)
      local lines = { ("%d test ids in %d files scanned under %s%s"):format(total, scanned,
        rel == "." and real_root or rel, total > #matches and (" (first " .. #matches .. " shown)") or "") }
      -- Only tests here (those the session wrote, say): the app's source is elsewhere.
      local tests_only = true
      for _, m in ipairs(matches) do
        if not m.file:match("%.spec%.[jt]sx?$") and not m.file:match("%.test%.[jt]sx?$") then tests_only = false break end
      end
      if tests_only then
        lines[#lines + 1] = "No app source here" .. (total > 0 and " (only test files)" or "")
          .. ": start the server with --workspace <the app's source folder> to read its conventions"
      end
      for _, c in ipairs(conv) do lines[#lines + 1] = ("  %s: %d"):format(c.attribute, c.count) end
      for _, m in ipairs(matches) do
        lines[#lines + 1] = ("%s:%d  %s=%q"):format(m.file, m.line, m.attribute, m.value)
      end
      return { text = table.concat(lines, "\n"), structured = { matches = matches, total = total,
        files_scanned = scanned, conventions = conv, truncated = total > #matches } }
    end,
  }
  return defs
end

local root = rawget(_ENV, "workspace") or os.getenv("VDX_WORKSPACE") or "."
for _, def in ipairs(M.new(root)) do register(def) end
