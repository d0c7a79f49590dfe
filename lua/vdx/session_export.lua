--- vdx.session_export: writes an agent's MCP session (vdx.session_log) as
-- one @playwright/test test.  Each role the steps ran in gets its own
-- browser context (its storageState when it has an auth file), the
-- navigations become goto on BASE_URL (the session's origin is replaced,
-- so the file runs against any deployment), each action acts on the
-- locator that matched exactly its target when the agent acted, and each
-- assertion a verify tool recorded becomes the web-first expect.  The
-- shared parts (preamble, contexts, command) come from vdx.pw_spec, as
-- for flows.
local pw = require "vdx.pw_spec"
local pw_run = require "vdx.pw_run"
local run_token = require "vdx.run_token"
local remembered = require "vdx.remembered"
local session_log = require "vdx.session_log"
local session_races = require "vdx.session_races"

local export = {}

local q, ident = pw.quote, pw.ident

-- The variable of a test's run token (vdx.run_token): `${run}`.  No
-- role's page is named so (pw.ident makes a role "run" runPage).
local RUN_VAR = "run"

-- A JavaScript literal of a recorded value: string, number, boolean or a
-- list of them.
local function literal(v)
  if type(v) == "table" then
    local parts = {}
    for i, x in ipairs(v) do parts[i] = literal(x) end
    return "[" .. table.concat(parts, ", ") .. "]"
  elseif type(v) == "number" then
    return math.tointeger(v) and tostring(math.tointeger(v)) or tostring(v)
  elseif type(v) == "boolean" then
    return tostring(v)
  end
  return q(v)
end

--- The origin (scheme://host:port) of the session: of its first
-- navigation, or nil when it has none.
function export.origin(steps)
  for _, s in ipairs(steps) do
    if s.kind == "navigate" and type(s.url) == "string" then
      return s.url:match("^(%a[%w+.-]*://[^/?#]+)")
    end
  end
end

-- The click's options ({ button: 'right', modifiers: [...] }) or "".
local function click_opts(s)
  local o = {}
  if s.button and s.button ~= "left" then o[#o + 1] = "button: " .. q(s.button) end
  if type(s.modifiers) == "table" and #s.modifiers > 0 then o[#o + 1] = "modifiers: " .. literal(s.modifiers) end
  return #o > 0 and ("{ " .. table.concat(o, ", ") .. " }") or ""
end

-- The call an action makes on its locator: ".click()", ".fill('x')", …
local CALLS = {
  click = function(s) return ".click(" .. click_opts(s) .. ")" end,
  dblclick = function(s) return ".dblclick(" .. click_opts(s) .. ")" end,
  fill = function(s) return ".fill(" .. literal(tostring(s.value or "")) .. ")" end,
  type = function(s) return ".pressSequentially(" .. literal(tostring(s.value or "")) .. ")" end,
  press = function(s) return ".press(" .. q(s.key) .. ")" end,
  check = function() return ".check()" end,
  uncheck = function() return ".uncheck()" end,
  select = function(s)
    local v = s.values or s.value
    if type(v) == "table" and #v == 1 then v = v[1] end
    return ".selectOption(" .. literal(v) .. ")"
  end,
  hover = function() return ".hover()" end,
  drag = function(s, page) return ".dragTo(" .. pw.on(page, s.to_locator) .. ")" end,
  upload = function(s) return ".setInputFiles(" .. literal(s.files or {}) .. ")" end,
  evaluate = function(s) return ".evaluate(" .. s.code .. ")" end,
}

--- The statements of one step (a list of lines without indentation).
-- fixture: the step's role is the test's only one, on Playwright's own
-- `page` and `context` fixtures.
function export.statements(s, base, fixture)
  local page = fixture and "page" or ident(s.role)
  if s.kind == "code" then return pw.code_lines(s.lines, s.role, fixture) end
  if s.kind == "remember" then return pw.remembered_lines(s.name, s.pattern, pw.on(page, s.locator), true) end
  if s.kind == "navigate" then
    local opts = s.wait_until and (", { waitUntil: '" .. s.wait_until .. "' }") or ""
    return { "await " .. page .. ".goto(" .. pw.url_literal(base, s.url) .. opts .. ");" }
  elseif s.kind == "assert" then
    local v = s.value ~= nil and literal(s.value) or ""
    if s.matcher == "toHaveURL" and type(s.value) == "string" and s.value:find("*", 1, true) then
      -- A glob of the path (a proposal after a link to #s42): the regular
      -- expression it stands for, whatever host BASE_URL names.
      v = require("vdx.route_match").js_regex(s.value)
    end
    if s.attribute then v = q(s.attribute) .. ", " .. v end
    -- (A check of what took long to show: see vdx.slow_checks.)
    if s.timeout then v = (v == "" and "" or v .. ", ") .. ("{ timeout: %d }"):format(s.timeout) end
    if not s.locator then return { "await expect(" .. page .. ")." .. s.matcher .. "(" .. v .. ");" } end
    return { "await expect(" .. pw.on(page, s.locator) .. ")." .. s.matcher .. "(" .. v .. ");" }
  end
  if s.action == "press" and not s.locator then
    return { "await " .. page .. ".keyboard.press(" .. q(s.key) .. ");" }
  elseif s.action == "back" then
    return { "await " .. page .. ".goBack();" }
  elseif s.action == "reload" then
    local opts = s.wait_until and ("{ waitUntil: '" .. s.wait_until .. "' }") or ""
    return { "await " .. page .. ".reload(" .. opts .. ");" }
  elseif s.action == "evaluate" and not s.locator and not s.unlocated then
    -- browser_run_code_unsafe: the agent's function, as it ran.
    return { "await " .. page .. ".evaluate(" .. s.code .. ");" }
  elseif s.action == "click_at" then
    return { "await " .. page .. ".mouse.click(" .. literal(s.x) .. ", " .. literal(s.y) .. ");" }
  end
  if not s.locator or (s.action == "drag" and not s.to_locator) then
    return { ("// %s (%s) is not in the test: %s"):format(s.action or "?", s.tool or "?",
      s.unlocated or "no locator matched its target alone") }
  end
  local out = {}
  if s.positional then out[1] = "// positional: no role, label, test id or container text told it apart" end
  local call = (CALLS[s.action] or CALLS.click)(s, page)
  out[#out + 1] = "await " .. pw.on(page, s.locator) .. call .. ";"
  if s.submit then out[#out + 1] = "await " .. pw.on(page, s.locator) .. ".press('Enter');" end
  return out
end

--- How many of a step's requests (session_races.response_steps) its test waits
-- for (the first ones).
export.MAX_RESPONSE_WAITS = 3

-- The JavaScript test of a path (the expression pathname, default a
-- response r's): equal to path, or, when a segment holds a digit (an id,
-- which another run numbers anew), a regular expression in which such a
-- segment is any segment.
local function path_test(path, pathname)
  pathname = pathname or "new URL(r.url()).pathname"
  if not path:find("%d") then return pathname .. " === " .. q(path) end
  local parts = {}
  for seg in (path .. "/"):gmatch("([^/]*)/") do
    parts[#parts + 1] = seg:find("%d") and "[^/]+" or (seg:gsub("[%^%$%.%*%+%?%(%)%[%]{}|\\]", "\\%0"))
  end
  return "/^" .. table.concat(parts, "\\/") .. "$/.test(" .. pathname .. ")"
end

-- The variable of the wait for path's response: its last segment without
-- a digit, in camel case, then suffix (default "Response":
-- `lateItemsResponse`); taken names (a set) get 2, 3, … after it.
local function response_var(path, taken, suffix)
  local word
  for seg in path:gmatch("[^/]+") do
    -- (Its file's extension aside: form.html is formFrame.)
    seg = seg:gsub("%.%a+$", "")
    if not seg:find("%d") and seg ~= "" then word = seg end
  end
  local name = ""
  for w in (word or ""):gmatch("%w+") do
    name = name .. (name == "" and w:sub(1, 1):lower() or w:sub(1, 1):upper()) .. w:sub(2)
  end
  if name == "" or name:find("^%d") then name = "data" end
  name = name .. (suffix or "Response")
  local n, v = 1, name
  while taken[v] do n = n + 1; v = name .. n end
  taken[v] = true
  return v
end

--- The lines a step is written between so that the test's next step
-- waits, as the MCP answer did, for the requests late ({ "GET /api/cart",
-- … }, session_races.response_steps): before, `const cartResponse =
-- page.waitForResponse(…)` for each (the first
-- export.MAX_RESPONSE_WAITS); after, `await cartResponse;`.  taken: the
-- variable names the test has used (a set, added to).
function export.response_waits(late, page, taken)
  local before, after = {}, {}
  for i, line in ipairs(late) do
    if i > export.MAX_RESPONSE_WAITS then break end
    local method, path = line:match("^(%u+) (/[^?#]*)$")
    if method then
      local var = response_var(path, taken)
      local test = path_test(path)
      if method ~= "GET" then test = "r.request().method() === " .. q(method) .. " && " .. test end
      before[#before + 1] = ("const %s = %s.waitForResponse((r) => %s);"):format(var, page, test)
      after[#after + 1] = ("await %s;"):format(var)
    end
  end
  return before, after
end

--- The lines written after an action that brought frames whose document
-- came later (step.frames: their paths, vdx.changes.report), so that the
-- test's next step waits for each frame's load as the MCP answer did
-- (run AD's Pay was clicked before the payment frame's script had run,
-- and the form posted for real): the frame found by its path, polled
-- until it is there, then its load awaited.  taken as response_waits.
function export.frame_waits(frames, page, taken)
  local out = {}
  for i, path in ipairs(frames) do
    if i > export.MAX_RESPONSE_WAITS then break end
    local var = response_var(path, taken, "Frame")
    out[#out + 1] = ("const %s = () => %s.frame({ url: (u) => %s });"):format(var, page, path_test(path, "u.pathname"))
    out[#out + 1] = ("await expect.poll(() => !!%s()).toBe(true);"):format(var)
    out[#out + 1] = ("await %s().waitForLoadState();"):format(var)
  end
  return out
end

-- The roles of steps in order of first use: { role, auth, emulate }.
local function roles_of(steps, opts)
  local roles, seen = {}, {}
  for _, s in ipairs(steps) do
    if not seen[s.role] then
      roles[#roles + 1] = { role = s.role, auth = opts.auth_of and opts.auth_of(s.role) or nil }
      seen[s.role] = roles[#roles]
    end
    if s.kind == "code" and s.context_emulate then
      -- Settings Playwright takes only as context options (a device, a
      -- timezone, a locale): the role's context is made with them.
      local r = seen[s.role]
      r.emulate = require("vdx.emulation_export").merge(r.emulate or {}, s.context_emulate)
    end
  end
  return roles
end

--- Whether a test of steps runs on Playwright's own `page` and `context`
-- fixtures: one role, signed out (auth_of(role) nil) and not emulated, as
-- a person writes a test.  Its statements then say `page`, not
-- `<role>Page` (export.statements' fixture).
function export.fixture_of(steps, auth_of)
  local roles = roles_of(steps, { auth_of = auth_of })
  return #roles == 1 and not roles[1].auth and not roles[1].emulate
end

--- The text of a spec of one or more tests.  tests: { { steps, name,
-- auth_of, token }, … } (name: the test's title; auth_of: function(role)
-- -> auth file or nil, the storageState its context loads; token: the
-- run token its steps hold, vdx.run_token, written as `${run}`); opts: base_url (the
-- origin replaced by BASE_URL; default the first test's first
-- navigation's), spec_dir (auth paths are relative to it), browser_args.
-- Returns the text, the roles of all tests and the base URL.
function export.suite_text(tests, opts)
  opts = opts or {}
  local base = opts.base_url or export.origin(tests[1].steps)
  local out, all, seen = {}, {}, {}
  pw.preamble(out, {
    "Generated by vdxlua from an MCP session. Every locator below matched exactly one",
    "element on the live page when the agent acted; the assertions are the checks it verified.",
    "Run: npx playwright test <this file> (BASE_URL=… for another copy of the app, CHROMIUM_PATH=… another browser)",
  }, opts.browser_args, base)
  for i, t in ipairs(tests) do
    local roles = roles_of(t.steps, t)
    for _, r in ipairs(roles) do
      if not seen[r.role] then seen[r.role] = true; all[#all + 1] = r end
    end
    if i > 1 then out[#out + 1] = "" end
    -- One role, signed out and not emulated, runs on Playwright's own page
    -- and context fixtures, as a person writes a test.
    local fixture = export.fixture_of(t.steps, t.auth_of)
    if fixture then
      local uses = {}
      for _, s in ipairs(t.steps) do
        for _, l in ipairs(s.kind == "code" and s.lines or {}) do
          if l:find("{context}", 1, true) then uses.context = true end
        end
      end
      out[#out + 1] = "test(" .. q(t.name or "session") .. ", async ({ page" .. (uses.context and ", context" or "")
        .. " }) => {"
    else
      out[#out + 1] = "test(" .. q(t.name or "session") .. ", async ({ browser }) => {"
      out[#out + 1] = "  test.setTimeout(60000);"
      pw.contexts(out, roles, opts.spec_dir)
      out[#out + 1] = ""
    end
    local first, used, read, bug = #out + 1, false, {}, nil
    -- The steps whose requests the next step waits for.
    local waits, taken = session_races.response_steps(t.steps), {}
    for _, s in ipairs(t.steps) do
      local lines = export.statements(s, base, fixture)
      -- A check of the app's bug (vdx.builtin.known_bug): the test is
      -- expected to fail there.
      if s.kind == "assert" and type(s.known_bug) == "string" then
        -- test.fail() right before the bug's check: Playwright marks the
        -- test as failing from there, so a step before it that breaks is
        -- a failure still (at the top it passed the test whichever step
        -- failed: run ET moved it by hand).
        if not bug then table.insert(lines, 1, "test.fail(true, " .. q(s.known_bug) .. ");") end
        -- Soft, so that the steps after it run (runs FE and FK made it so
        -- by hand, to reach a second bug and the payment that empties
        -- the shared cart).
        for i, l in ipairs(lines) do
          local soft, n = l:gsub("^await expect%(", "await expect.soft(", 1)
          if n > 0 then lines[i] = soft break end
        end
        bug = bug or s.known_bug
        table.insert(lines, 1, "// Known bug: " .. s.known_bug:gsub("[\r\n]+", " "))
      end
      if waits[s] then
        local before, after = export.response_waits(waits[s], fixture and "page" or ident(s.role), taken)
        table.move(lines, 1, #lines, #before + 1, before)
        table.move(after, 1, #after, #before + 1, before)
        lines = before
      end
      if s.kind == "action" and s.frames and s.locator then
        local after = export.frame_waits(s.frames, fixture and "page" or ident(s.role), taken)
        table.move(after, 1, #after, #lines + 1, lines)
      end
      for _, l in ipairs(lines) do
        local changed
        l, changed = run_token.for_test(l, t.token, RUN_VAR)
        used = used or changed
        -- A value read earlier in the test is its variable from then on.
        for _, r in ipairs(read) do l = run_token.for_test(l, r.value, r.name) end
        out[#out + 1] = "  " .. l
      end
      if s.kind == "remember" and #tostring(s.value or "") >= remembered.MIN_LENGTH then
        read[#read + 1] = { value = s.value, name = s.name }
        table.sort(read, function(a, b) return #a.value > #b.value end)
      end
    end
    if used then
      -- The data the agent typed with `{run}` is new in each run.
      table.insert(out, first, "")
      table.insert(out, first, "  const " .. RUN_VAR .. " = " .. require("vdx.run_token").JS .. "; // unique per run: {run} in the session")
    end
    if not fixture then
      out[#out + 1] = ""
      pw.close_contexts(out, roles)
    end
    out[#out + 1] = "});"
  end
  -- A secret's value is read from the environment, never written here.
  return require("vdx.secrets").for_test(pw.text(out)), all, base
end

--- The line that says which steps come after the test's first check of
-- a known bug (vdx.builtin.known_bug): they run, the check being soft,
-- and once it failed a failure of theirs passes as the test's expected
-- one too; nil when none does.
function export.after_known_bug(steps)
  local at
  local later = {}
  for i, s in ipairs(steps) do
    if at then later[#later + 1] = tostring(s.no or i)
    elseif s.kind == "assert" and s.known_bug then at = s end
  end
  if #later == 0 then return nil end
  local many = #later > 1
  return ("Step%s %s run%s after the known bug's check (step %s), which is soft: a failure there would pass as "
    .. "the test's expected failure too, so a check that matters goes in a test of its own"):format(
    many and "s" or "", table.concat(later, ", "), many and "" or "s", tostring(at.no or "?"))
end

--- The text of the spec of one test.  opts: name (the test's title),
-- base_url, auth_of, token, spec_dir, browser_args (see
-- export.suite_text).
function export.text(steps, opts)
  opts = opts or {}
  return export.suite_text({ { steps = steps, name = opts.name, auth_of = opts.auth_of, token = opts.token } }, opts)
end

local NO_LOCATOR = session_log.NO_LOCATOR

--- Counts of a session's steps: { steps, actions, navigations,
-- assertions, positional = { locator, … }, missing = n } ("code" steps,
-- changes to a role's world, count as steps only, and as assertions when
-- they are checks: a URL or element wait; a reload is a navigation).
function export.summary(steps)
  local r = { steps = #steps, actions = 0, navigations = 0, assertions = 0, positional = {}, missing = 0 }
  for _, s in ipairs(steps) do
    if s.kind == "navigate" or s.action == "reload" then r.navigations = r.navigations + 1
    elseif session_log.is_check(s) then r.assertions = r.assertions + 1
    elseif s.kind ~= "code" and s.kind ~= "remember" then   -- "code": a change to the world, no action and no locator to miss
      r.actions = r.actions + 1
      if s.positional then r.positional[#r.positional + 1] = s.locator end
      local whole_page = s.action == "evaluate" and not s.unlocated
      if not s.locator and not NO_LOCATOR[s.action] and not whole_page then r.missing = r.missing + 1 end
    end
  end
  return r
end

--- Writes the spec of steps to path (a new file; with opts.write, a
-- function(text) that writes it, raising on failure), after the tests
-- opts.before ({ { steps, name, auth_of, token }, … }: those the file
-- held) when given, as a test named opts.name whose `{run}` was
-- opts.token (vdx.run_token); returns the command
-- that runs it (from any folder: it starts with cd to opts.run_from, the
-- project's folder, with the spec's path from there, else to the spec's
-- folder, and names the Playwright found, vdx.pw_run.runner, else npx), the roles
-- and base URL it was written with, and the sentences that say what to
-- start (the app at BASE_URL) and install first, the text written, and,
-- with opts.edited ({ text, replace }: a file edited by hand since the
-- session wrote it, and this test's block written there before, if any),
-- and the block of this test (its lines, export.merge).
function export.write(steps, path, opts)
  opts = opts or {}
  local dir = path:match("^(.*)/[^/]*$") or "."
  opts.spec_dir = dir
  local tests = {}
  for _, t in ipairs(opts.before or {}) do tests[#tests + 1] = t end
  tests[#tests + 1] = { steps = steps, name = opts.name, auth_of = opts.auth_of, token = opts.token }
  local text, roles, base = export.suite_text(tests, opts)
  -- This test's lines: from its test( line to the first }); at the margin.
  local head = "\ntest(" .. q(opts.name or "session") .. ", "
  local at = text:find(head, 1, true)
  local block = at and text:sub(at + 1, (text:find("\n});", at + 1, true) or #text) + 3) or nil
  if opts.edited and block then
    -- A file edited by hand since: the test alone, added to it (or put in
    -- place of its own earlier text), the rest left as the person wrote it.
    text = export.merge(opts.edited.text, block, opts.edited.replace)
  end
  if opts.write then
    -- The caller's writer (the output folder's: beneath it, never replacing).
    opts.write(text)
  else
    -- Written beside and renamed, so a reader (or an exit in between)
    -- never sees half a file.
    local f, err = io.open(path .. ".tmp", "w")
    if not f then return nil, err end
    f:write(text)
    f:close()
    local ok, rerr = os.rename(path .. ".tmp", path)
    if not ok then return nil, rerr end
  end
  local from, file = export.run_path(path, opts.run_from)
  local runner, why = pw_run.runner(from)
  -- No BASE_URL: the file goes to the app it was recorded on by default.
  local env = pw.env(base and false, roles, true)
  local cmd = ("cd %s && %s%s test %s"):format(pw.shell_word(from), env ~= "" and env .. " " or "",
    runner or "npx playwright", pw.shell_word(file))
  local notes = { ("The test needs the app up at %s."):format(base or "BASE_URL") }
  if not runner then notes[2] = pw.install_hint(from, why) end
  return cmd, roles, base, notes, text, block
end

--- The folder the Run line of the spec at path starts in, run_from when
-- path lies under it (else the spec's own folder), and the spec's path
-- from there.
function export.run_path(path, run_from)
  if run_from and path:sub(1, #run_from + 1) == run_from .. "/" then return run_from, path:sub(#run_from + 2) end
  return path:match("^(.*)/[^/]*$") or ".", path:match("[^/]*$")
end

--- The text of a spec edited by hand (edited) with a test's block added
-- at its end, or put in place of old (the block written before, which
-- edited still holds verbatim); the import of path added when the block
-- needs it and the file has none.
function export.merge(edited, block, old)
  local text
  if old then
    local at = edited:find(old, 1, true)
    text = edited:sub(1, at - 1) .. block .. edited:sub(at + #old)
  else
    text = edited:gsub("\n*$", "") .. "\n\n" .. block .. "\n"
  end
  if block:find("%f[%w_]path%.join%(") and not text:find("import * as path", 1, true) then
    text = text:gsub("(import { [^\n]- } from '@playwright/test';\n)", "%1import * as path from 'path';\n", 1)
  end
  return text
end

return export
