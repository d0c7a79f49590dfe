--- vdx.pw_spec: the parts of a Playwright Test file that both writers
-- share -- a finished flow (vdx.flow_export) and an agent's MCP session
-- (vdx.session_export): quoting, one identifier per role, the BASE_URL
-- and CHROMIUM_PATH preamble, one browser context per role with its
-- storageState from AUTH_<ROLE> or next to the spec, and the command
-- that runs the file.  One place, so the two kinds of spec read and run
-- the same way.
local locator = require "vdx.flow_locator"

local pw = {}

--- The JavaScript single-quoted literal of s.
pw.quote = locator.quote
local q = pw.quote

--- The locator expr (as vdxlua writes it: `getByTestId('card').filter({
-- has: getByRole('heading', …) })`, relative to a page) on receiver (`page`,
-- `alice`), as a test file writes it: every chain nested in has, hasNot,
-- and or or starts at receiver too (a leading `page.` there is replaced).
-- Quoted strings are left alone.
function pw.on(receiver, expr)
  local out, i, n = { receiver, "." }, 1, #expr
  while i <= n do
    local c = expr:sub(i, i)
    if c == "'" or c == '"' or c == "`" then
      local j = i + 1
      while j <= n and expr:sub(j, j) ~= c do j = j + (expr:sub(j, j) == "\\" and 2 or 1) end
      out[#out + 1] = expr:sub(i, j)
      i = j + 1
    else
      local lead = expr:match("^has: ", i) or expr:match("^hasNot: ", i) or expr:match("^%.and%(", i)
        or expr:match("^%.or%(", i)
      if lead then
        out[#out + 1] = lead
        i = i + #lead
        if expr:sub(i, i + 4) == "page." then i = i + 5 end
        if expr:match("^%a", i) then out[#out + 1] = receiver .. "." end
      else
        out[#out + 1] = c
        i = i + 1
      end
    end
  end
  return table.concat(out)
end

-- Characters after which a `/` opens a regular expression literal (not
-- a division): an expression starts there.
local REGEX_AFTER = { ["("] = true, [","] = true, [":"] = true, ["["] = true, ["{"] = true, ["="] = true,
  ["!"] = true, ["&"] = true, ["|"] = true, ["?"] = true, [";"] = true, ["}"] = true }

-- The end of the regular expression literal of js opening at i: the
-- index of its closing slash's last flag.
local function regex_end(js, i)
  local j, n, class = i + 1, #js, false
  while j <= n do
    local c = js:sub(j, j)
    if c == "\\" then j = j + 1
    elseif c == "[" then class = true
    elseif c == "]" then class = false
    elseif c == "/" and not class then break
    elseif c == "\n" then return nil end
    j = j + 1
  end
  if j > n then return nil end
  return j + #(js:match("^%a*", j + 1))
end

--- The pieces of JavaScript text js, in order, as a list of { text,
-- quote }: a string literal ('…', "…" or `…`, quotes included) has its
-- quote character, a regular expression literal (`/#\d+/i`) the quote
-- "/", the text between literals none.  Backslashes escape inside a
-- literal; a string left open runs to the end.
function pw.pieces(js)
  local out, i, n, from, last = {}, 1, #js, 1, "("
  while i <= n do
    local c = js:sub(i, i)
    local j
    if c == "'" or c == '"' or c == "`" then
      j = i + 1
      while j <= n and js:sub(j, j) ~= c do j = j + (js:sub(j, j) == "\\" and 2 or 1) end
    elseif c == "/" and REGEX_AFTER[last] then
      j = regex_end(js, i)
    end
    if j then
      if i > from then out[#out + 1] = { text = js:sub(from, i - 1) } end
      out[#out + 1] = { text = js:sub(i, j), quote = c }
      i, from, last = j + 1, j + 1, ")"
    else
      if not c:find("%s") then last = c end
      i = i + 1
    end
  end
  if from <= n then out[#out + 1] = { text = js:sub(from) } end
  return out
end

--- expr (a Playwright locator expression) with its double-quoted strings
-- written single-quoted, as codegen and every locator vdxlua writes
-- them: `getByTestId("row")` -> `getByTestId('row')`; a regular
-- expression is left as it is.  expr as it is when it holds a string
-- JSON cannot read.
function pw.requote(expr)
  if type(expr) ~= "string" or not expr:find('"', 1, true) then return expr end
  local out = {}
  for i, p in ipairs(pw.pieces(expr)) do
    local text = p.text
    if p.quote == '"' then
      local ok, v = pcall(require("cjson").decode, text)
      if not ok or type(v) ~= "string" then return expr end
      text = q(v)
    end
    out[i] = text
  end
  return table.concat(out)
end

--- expr (a Playwright locator expression) whose last call is a
-- getByRole, with includeHidden: true in its options, which finds the
-- element while it is hidden (a plain getByRole skips hidden elements):
-- `getByRole('navigation', { name: 'Site' })` -> `getByRole('navigation',
-- { name: 'Site', includeHidden: true })`.  nil when expr ends otherwise,
-- or already says includeHidden.
function pw.include_hidden(expr)
  if type(expr) ~= "string" or expr:find("includeHidden", 1, true) then return nil end
  expr = pw.requote(expr)
  -- The text with each string literal as Q: what is left is code.
  local skel = {}
  for i, p in ipairs(pw.pieces(expr)) do skel[i] = p.quote and "Q" or p.text end
  skel = table.concat(skel)
  local at
  for i in skel:gmatch("()getByRole%(") do at = i end
  if not at then return nil end
  local tail = skel:sub(at)
  if tail:match("^getByRole%(Q%)$") then return expr:sub(1, -2) .. ", { includeHidden: true })" end
  if tail:match("^getByRole%(Q, {[^{}]*}%)$") then
    return (expr:gsub("%s*}%)$", ", includeHidden: true })"))
  end
end

-- JavaScript's reserved words, which cannot name a variable.
local RESERVED = {}
for w in ([[await break case catch class const continue debugger default delete do else enum export
  extends false finally for function if import in instanceof let new null return static super switch
  this throw true try typeof var void while with yield]]):gmatch("%a+") do RESERVED[w] = true end
-- And the names a test file declares itself: the imports, the fixtures,
-- the run token (vdx.run_token).
for w in ("test expect devices path browser page context run"):gmatch("%a+") do RESERVED[w] = true end

--- The JavaScript identifier of a role's page ("shop admin" -> shopAdmin,
-- "default" -> defaultPage).
function pw.ident(role)
  local s = role:gsub("[^%w]+(%w)", function(c) return c:upper() end):gsub("[^%w]", "")
  if s:match("^%d") or s == "" then s = "r" .. s end
  if RESERVED[s] then s = s .. "Page" end
  return s
end

--- The statements that read a remembered value (vdx.remembered) into
-- the variable name on the element of locator_code, as the session or
-- flow read it: first a web-first check that waits until the element
-- shows a match of pattern (a JavaScript regular expression's source,
-- written as a literal with its `/` escaped), or any text when pattern is
-- nil, so a page that shows none fails there instead of the test going
-- on with an empty value; then the read of the first match, or of the
-- whole text with its white space collapsed.  declare: `const` it (a
-- session's test), else assign a variable declared before (a flow's,
-- whose steps are blocks).
function pw.remembered_lines(name, pattern, locator_code, declare)
  local regex = pattern and ("/" .. pattern:gsub("\\?/", "\\/") .. "/") or "/\\S/"
  -- (Its text as the checks read it, textContent: a table row's innerText
  -- parts its cells with tabs, and run ED's toHaveText of a remembered row
  -- failed under Playwright.)
  local read = ("await %s.textContent() ?? ''"):format(locator_code)
  local value = pattern and ("%s.exec(%s)?.[0] ?? ''"):format(regex, read)
    or ("(%s).replace(/\\s+/g, ' ').trim()"):format(read)
  return { ("await expect(%s).toContainText(%s);"):format(locator_code, regex),
    ("%s%s = %s;"):format(declare and "const " or "", name, value) }
end

--- The lines of a "code" step (vdx.session_log) or flow node (a change
-- to a role's world: route, cookie, emulation, clock) with "{page}" and
-- "{context}" replaced by the role's page and context variables (with
-- fixture, Playwright's `page` and `context` fixtures).
function pw.code_lines(lines, role, fixture)
  local page, out = fixture and "page" or pw.ident(role), {}
  local context = fixture and "context" or page .. "Context"
  for i, l in ipairs(lines or {}) do
    out[i] = (l:gsub("{page}", page):gsub("{context}", context))
  end
  return out
end

--- The literal of url: a template on BASE_URL when url is under base.
function pw.url_literal(base, url)
  base = base and base:gsub("/$", "")
  if base and url:sub(1, #base) == base then
    local rest = url:sub(#base + 1)
    return "`${BASE_URL}" .. rest:gsub("[`\\]", "\\%0"):gsub("%${", "\\${") .. "`"
  end
  return q(url)
end

--- The environment variable that names role's auth file: AUTH_<ROLE>.
function pw.auth_var(role)
  return "AUTH_" .. role:upper():gsub("[^%w]", "_")
end

--- An absolute path (under the current folder for a relative one).
function pw.absolute(path)
  if path:sub(1, 1) == "/" then return path end
  return pw.cwd() .. "/" .. path:gsub("^%./", "")
end

--- The process's working folder (".", when it cannot be read).
function pw.cwd()
  local p = io.popen("pwd")
  local cwd = p and p:read("l") or "."
  if p then p:close() end
  return cwd
end

--- path relative to folder dir (both made absolute), with "../" as needed.
function pw.relative(path, dir)
  local a, b = {}, {}
  for x in pw.absolute(path):gmatch("[^/]+") do a[#a + 1] = x end
  for x in pw.absolute(dir):gmatch("[^/]+") do b[#b + 1] = x end
  local i = 1
  while i <= #a and i <= #b and a[i] == b[i] do i = i + 1 end
  local out = {}
  for _ = i, #b do out[#out + 1] = ".." end
  for j = i, #a do out[#out + 1] = a[j] end
  return table.concat(out, "/")
end

--- The browser a written test falls back to when CHROMIUM_PATH is not
-- set as it runs: the one it was written with (CHROMIUM_PATH then), else
-- Debian's Chromium, so `npx playwright test` needs no variable on the
-- machine that recorded it and downloads nothing.
pw.CHROMIUM = os.getenv("CHROMIUM_PATH") or "/usr/bin/chromium"

--- Appends the file's preamble to out: the comment lines of head, the
-- imports, BASE_URL and the launch options (CHROMIUM_PATH and
-- browser_args, a list of Chromium switches).  BASE_URL defaults to
-- default_base (the app the session or flow ran against) when given, so
-- the file runs as written against that app; without it the test
-- requires BASE_URL.
function pw.preamble(out, head, browser_args, default_base)
  for _, l in ipairs(head) do out[#out + 1] = "// " .. l end
  local base = {
    "// The app under test (vdxlua prints the URL it ran against when it writes this file).",
    "const BASE_URL = (process.env.BASE_URL ?? '').replace(/\\/$/, '');",
    "if (!BASE_URL) throw new Error('set BASE_URL to the URL of the app under test');",
  }
  if default_base then
    base = { "// The app under test: the one the test was recorded on, unless BASE_URL names another.",
      "const BASE_URL = (process.env.BASE_URL || " .. q((default_base:gsub("/$", ""))) .. ").replace(/\\/$/, '');" }
  end
  out[#out + 1] = "import { test, expect } from '@playwright/test';"
  out[#out + 1] = "import * as fs from 'fs';"
  out[#out + 1] = "import * as path from 'path';"
  out[#out + 1] = ""
  for _, l in ipairs(base) do out[#out + 1] = l end
  out[#out + 1] = ""
  out[#out + 1] = "// The browser: CHROMIUM_PATH, else " .. pw.CHROMIUM .. " where this machine has it, else Playwright's own."
  out[#out + 1] = "const CHROMIUM = process.env.CHROMIUM_PATH || (fs.existsSync(" .. q(pw.CHROMIUM) .. ") ? "
    .. q(pw.CHROMIUM) .. " : undefined);"
  for _, l in ipairs { "", "test.use({", "  launchOptions: {" } do out[#out + 1] = l end
  if browser_args and #browser_args > 0 then
    local args = {}
    for i, a in ipairs(browser_args) do args[i] = q(a) end
    out[#out + 1] = "    args: [" .. table.concat(args, ", ") .. "],"
  end
  out[#out + 1] = "    executablePath: CHROMIUM,"
  out[#out + 1] = "  },"
  out[#out + 1] = "});"
  out[#out + 1] = ""
end

--- The argument of browser.newContext for a role: its storageState
-- (a JavaScript expression, or nil) and its emulation settings (see
-- vdx.emulation_export; nil or {} for none); "" when it has neither.
function pw.context_options(storage, emulate)
  local props = storage and { "storageState: " .. storage } or {}
  if emulate then
    -- A device's spread comes first, so the explicit options win over it.
    for _, p in ipairs(require("vdx.emulation_export").context_options(emulate)) do
      if p:sub(1, 3) == "..." then table.insert(props, 1, p) else props[#props + 1] = p end
    end
  end
  if #props == 0 then return "" end
  return "{ " .. table.concat(props, ", ") .. " }"
end

--- Adds devices to the import of '@playwright/test' in out when a role's
-- context uses a device preset (emulate: the settings of each role).
function pw.import_devices(out, roles)
  local ex = require "vdx.emulation_export"
  for _, c in ipairs(roles) do
    if c.emulate and ex.uses_devices(c.emulate) then
      for i, l in ipairs(out) do
        if l == "import { test, expect } from '@playwright/test';" then
          out[i] = "import { test, expect, devices } from '@playwright/test';"
        end
      end
      return
    end
  end
end

--- Appends one context and page per role to out; roles is a list of
-- { role = name, auth = path or nil, emulate = settings or nil }; auth
-- paths are written relative to spec_dir, AUTH_<ROLE> taking precedence;
-- emulate (page:emulate's keys) become the context's options (a device as
-- `...devices[NAME]`), and the media type a page.emulateMedia after it.
function pw.contexts(out, roles, spec_dir)
  pw.import_devices(out, roles)
  for _, c in ipairs(roles) do
    local id = pw.ident(c.role)
    local storage
    if c.auth then
      local rel = pw.relative(c.auth, spec_dir or ".")
      storage = ("process.env.%s ?? path.join(__dirname, %s)"):format(pw.auth_var(c.role), q(rel))
    end
    out[#out + 1] = "  const " .. id .. "Context = await browser.newContext(" .. pw.context_options(storage, c.emulate) .. ");"
    out[#out + 1] = "  const " .. id .. " = await " .. id .. "Context.newPage();"
    if c.emulate then
      for _, l in ipairs(pw.code_lines(require("vdx.emulation_export").after(c.emulate), c.role)) do
        out[#out + 1] = "  " .. l
      end
    end
  end
end

--- The file's lines out joined, with the import of 'path' left out when
-- no line uses it (no role's storageState is read from a file).
function pw.text(out)
  local used = false
  for _, l in ipairs(out) do
    if l ~= "import * as path from 'path';" and l:find("path.", 1, true) and l:find("%f[%w_]path%.") then
      used = true
      break
    end
  end
  local lines = out
  if not used then
    lines = {}
    for _, l in ipairs(out) do
      if l ~= "import * as path from 'path';" then lines[#lines + 1] = l end
    end
  end
  return table.concat(lines, "\n") .. "\n"
end

--- Appends the closing of each role's context to out.
function pw.close_contexts(out, roles)
  for _, c in ipairs(roles) do out[#out + 1] = "  await " .. pw.ident(c.role) .. "Context.close();" end
end

--- s as one shell word: as it is when it needs no quoting, else quoted.
function pw.shell_word(s)
  s = tostring(s)
  if s:match("^[%w%-_./:@=,+%%]+$") then return s end
  return "'" .. s:gsub("'", "'\\''") .. "'"
end

--- The sentence that says how to install @playwright/test for a spec in
-- dir, which has none (why: what vdx.pw_run.find said).
function pw.install_hint(dir, why)
  local first = why and why:match("^Node") and (" (" .. why .. ": install Node and npm first)") or ""
  return ("Install the runner once%s: `cd %s && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm i -D @playwright/test` "
    .. "(vdxlua found none in $VDX_PLAYWRIGHT_DIR, the spec's folder or above it, or the current folder or above it)."):format(
    first, pw.shell_word(dir))
end

--- The environment assignments that run a spec against base_url with the
-- roles' auth files: "CHROMIUM_PATH=… BASE_URL=… AUTH_ADMIN=…" (no
-- BASE_URL when base_url is false; the roles with saved set are left out;
-- no CHROMIUM_PATH for a file of pw.preamble, written, which falls back
-- to pw.CHROMIUM itself: run EF read the variable as one to set).
function pw.env(base_url, roles, written)
  local env = {}
  if not written then env[1] = "CHROMIUM_PATH=" .. pw.shell_word(pw.CHROMIUM) end
  if base_url ~= false then
    env[#env + 1] = "BASE_URL=" .. pw.shell_word((base_url or "http://…"):gsub("/$", ""))
  end
  for _, c in ipairs(roles) do
    if c.auth and not c.saved then env[#env + 1] = pw.auth_var(c.role) .. "=" .. pw.shell_word(pw.absolute(c.auth)) end
  end
  return table.concat(env, " ")
end

return pw
