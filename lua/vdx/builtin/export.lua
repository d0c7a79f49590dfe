--- vdx.builtin.export: browser_export_test, the end of the agent's loop.
-- It writes the session (navigations, actions with their verified
-- locators, verified assertions, in every role) as a Playwright test,
-- and with runs = N it is also the flake gate: the steps replayed N times
-- in fresh contexts, each step's stability reported, and the written file
-- run under real Playwright where it is installed.
local vdx = require "vdx"
local json = require "vdx.json"
local util = require "vdx.builtin.util"
local session_export = require "vdx.session_export"
local replay = require "vdx.session_replay"
local pw_run = require "vdx.pw_run"
local storage = require "vdx.storage"

-- How long the Playwright run of the written file may take.
local PW_TIMEOUT_MS = 300000

-- The file name of the spec: name as given when it is a spec file name,
-- with ".spec.ts" added when it has no extension.
local function spec_name(name)
  if name == nil then return nil end
  if type(name) ~= "string" or name == "" then return name end
  if name:match("%.spec%.[cm]?[jt]s$") or name:match("%.test%.[cm]?[jt]s$") then return name end
  if name:match("%.[cm]?[jt]s$") then
    error(vdx.error("InvalidArgument", ("field filename: %s would not be found by `npx playwright test`, "
      .. "which runs *.spec.ts and *.test.ts files: name it like checkout.spec.ts"):format(name),
      { field = "filename", expected = "a name ending in .spec.ts" }), 0)
  end
  return name .. ".spec.ts"
end

-- One line of the report for step i: its statements as the test says
-- them (`page` on Playwright's fixture: session_export.fixture_of), a
-- comment aside, joined; the run token (vdx.run_token) as `{run}`, so a
-- cut line never shows part of it.
local function step_line(i, s, base, token, fixture)
  local parts = {}
  for _, l in ipairs(session_export.statements(s, base, fixture)) do
    if not l:match("^//") or #parts == 0 then parts[#parts + 1] = (l:gsub("^await ", ""):gsub(";$", "")) end
  end
  local text = table.concat(parts, "; ")
  if token then text = text:gsub(token, "{run}") end
  if #text > 140 then text = text:sub(1, 140) .. "…" end
  return ("%d. [%s] %s"):format(i, s.role, text)
end

-- The auth file each role of the session's test starts from, as it is
-- now (a later browser_start_test changes it): function(role) -> path or
-- nil, each role looked up once.
local function auth_lookup(ctx, log)
  local auth = {}
  return function(r)
    if auth[r] == nil then auth[r] = log:start_auth(r) or ctx.roles:role(r).auth or false end
    return auth[r] or nil
  end
end

-- How many stable steps the gate lists one by one (unstable ones are
-- always listed).
local STABLE_SHOWN = 40

-- A hint for a step that failed in the replay because its locator, which
-- matched one element when the agent acted, matched several: the session
-- and the runs add what it finds (a product, an order of the same name),
-- so the test is not repeatable as written.
local function grown_hint(failures)
  local grown
  for _, f in ipairs(failures) do
    local n = not f.not_reached and tonumber(tostring(f.reason):match(" matches (%d+) elements"))
    if n and n > 1 then grown = math.max(grown or 0, n) end
  end
  if not grown then return nil end
  return ("↳ it matched one element when recorded and %d in a replay: the session and each run seem to add what "
    .. "it finds; type the test's data with {run} (`Teak Lamp {run}`: each run gets a value of its own, the "
    .. "test writes ${run}) or scope the locator to the new one"):format(grown)
end

-- The tests a file this session wrote holds besides the current one
-- (nil when the session never wrote rel: a new file), the name of the
-- current test there when it was written before (else title numbered,
-- told apart from the others'), and, for a file edited by hand since
-- (or once), { text = its text now, replace = the current test's block
-- there }: the test goes into the file as it is, not rewritten whole.
-- Raises when the edits changed the current test's own lines.
local function suite_of(policy, log, rel, path, title)
  local f = log:exported_file(rel)
  if not f then return nil, nil end
  local now = policy:read_output(rel)
  local before, name, mine, written = {}, nil, nil, false
  for _, t in ipairs(f.tests) do
    if t.no == log.test_no then name, mine, written = t.name, t.block, true else before[#before + 1] = t end
  end
  if not name and #before > 0 then name = ("%s %d"):format(title, #before + 1) end
  if now == f.text and not f.edited then return before, name end
  if not now then
    error(vdx.error("InvalidArgument", ("%s cannot be read now; give another filename"):format(path),
      { field = "filename", file = path }), 0)
  end
  if written and not (mine and now:find(mine, 1, true)) then
    error(vdx.error("InvalidArgument", ("%s was edited since this session wrote it, this test's lines too: give "
      .. "another filename, or test_name for a test beside it"):format(path),
      { field = "filename", file = path, expected = "a file whose lines of this test are as the session wrote them" }), 0)
  end
  return before, name, { text = now, replace = written and mine or nil }
end

-- Removes the state files earlier browser_start_test calls wrote that
-- neither the current test starts from nor a written test loads; returns
-- how many went.
local function forget_starts(log)
  local keep, removed = log:loaded_states(), 0
  for _, p in pairs(log.starts or {}) do keep[p] = true end
  for path in pairs(log.start_files or {}) do
    if not keep[path] then
      log.start_files[path] = nil
      if os.remove(path) then removed = removed + 1 end
    end
  end
  return removed
end

-- The signed-in roles (those with an auth or state file) the test of
-- steps shares with tests of the session's other files, and those files:
-- { role, files = "a.spec.ts, b.spec.ts" } in role order, or an empty list.
local function shared_accounts(log, rel, steps, auth_of)
  local mine, out = {}, {}
  for _, st in ipairs(steps) do if auth_of(st.role) then mine[st.role] = true end end
  local names = {}
  for r in pairs(mine) do names[#names + 1] = r end
  table.sort(names)
  for _, r in ipairs(names) do
    local files = {}
    for other, f in pairs(log.files or {}) do
      if other ~= rel then
        local uses = false
        for _, t in ipairs(f.tests or {}) do
          for _, st in ipairs(t.steps or {}) do
            if st.role == r and t.auth_of and t.auth_of(r) then uses = true end
          end
        end
        if uses then files[#files + 1] = other:match("[^/]*$") end
      end
    end
    table.sort(files)
    if #files > 0 then out[#out + 1] = { role = r, files = table.concat(files, ", ") } end
  end
  return out
end

-- The tests before of a file and the title name of the test going in:
-- a test of the file with that title given (test_name) is an earlier
-- recording of this one, which it replaces (Playwright refuses a file with
-- two tests of one title); a title made up (the file's name, numbered)
-- takes the next free number instead.  Returns before without it, the
-- name, and the title replaced or nil.  Raises when the earlier one was
-- edited by hand in edited's text.
local function same_title(before, name, given, edited, path)
  if not before then return before, name, nil end
  local function taken(n)
    for i, t in ipairs(before) do if t.name == n then return i, t end end
  end
  local i, t = taken(name)
  if not i then return before, name, nil end
  if not given then
    local base, k = name:gsub(" %d+$", ""), #before + 1
    while taken(("%s %d"):format(base, k)) do k = k + 1 end
    return before, ("%s %d"):format(base, k), nil
  end
  if edited then
    if not (t.block and edited.text:find(t.block, 1, true)) then
      error(vdx.error("InvalidArgument", ("%s holds a test %q edited by hand since: give another test_name, or "
        .. "delete that test from the file first"):format(path, name),
        { field = "test_name", file = path, expected = "a title no test of the file has" }), 0)
    end
    edited.replace = t.block
  end
  local rest = {}
  for j, x in ipairs(before) do if j ~= i then rest[#rest + 1] = x end end
  return rest, name, name
end

-- The gate's report lines, the numbers of the unstable steps (those
-- that failed in some run: each step's `no`, vdx.session_log), their
-- places in steps, and the number of steps only left unreached by an
-- earlier one's failure.
local function gate_report(steps, results, runs, base, token, fixture)
  local out, flaky, places, hidden, unreached = {}, {}, {}, 0, 0
  for i, s in ipairs(steps) do
    local r = results[i]
    local line = step_line(s.no or i, s, base, token, fixture) .. ("  %d/%d"):format(r.passed, runs)
    local why, skipped = {}, {}
    for _, f in ipairs(r.failures) do
      if f.not_reached then skipped[#skipped + 1] = f.run
      else why[#why + 1] = ("run %d: %s"):format(f.run, f.reason) end
    end
    if #why > 0 then
      flaky[#flaky + 1], places[#places + 1] = s.no or i, i
      out[#out + 1] = line .. " ❌ " .. table.concat(why, "; ")
      local hint = grown_hint(r.failures)
      if hint then out[#out + 1] = "     " .. hint end
    elseif #skipped > 0 then
      unreached = unreached + 1
      out[#out + 1] = line .. " (not reached in run " .. table.concat(skipped, ", ") .. ")"
    elseif i - #flaky - unreached <= STABLE_SHOWN then
      out[#out + 1] = line
    else
      hidden = hidden + 1
    end
  end
  if hidden > 0 then out[#out + 1] = ("… and %d more steps, each %d/%d"):format(hidden, runs, runs) end
  return out, flaky, places, unreached
end

-- Runs the written file (line: only its test starting there) under
-- Playwright runs times; returns report lines and true when it passed
-- (nil when it could not run).
local function playwright_run(path, env, runs, line)
  local dir = path:match("^(.*)/[^/]*$")
  local pw_dir, why = pw_run.find(dir)
  -- Where it looked and how to install it: the note the export adds.
  if not pw_dir then return { "Playwright: not run: " .. (why:gsub(" %(.*$", "")) } end
  local cmd = pw_run.command(path, env, pw_dir, runs, line)
  local rc, out = pw_run.shell(cmd, PW_TIMEOUT_MS)
  local summary = pw_run.summary(out) or (out:sub(-400))
  local lines = { ("Playwright (%d runs of the %s): %s%s"):format(runs, line and "test" or "file", rc == 0 and "✅ " or "❌ ",
    summary),
    "Ran: " .. cmd }
  local failed, passed = tonumber(summary:match("(%d+) failed")), tonumber(summary:match("(%d+) passed"))
  if rc ~= 0 and failed and passed and failed > 0 and passed > 0 then
    -- One run passes, the next fails: what the first left is in the way.
    lines[#lines + 1] = "↳ some runs passed and others failed: a run may find what an earlier one left on the "
      .. "server (a product, an order, a cart). Type the data a test makes with {run} (Teak Lamp {run}), and "
      .. "check counts the test itself controls"
  end
  if rc ~= 0 then
    local tail = out:gsub("\27%[[%d;]*m", "")
    if #tail > 1500 then tail = "…" .. tail:sub(-1500) end
    lines[#lines + 1] = tail
  end
  return lines, rc == 0
end

-- The first part of the flake gate of job { steps, runs, base, fixture }:
-- the replay in fresh contexts.  Returns { lines (each step's), flaky
-- (numbers), places, unreached, broken (the number of a step that failed
-- every run, when one did), results, ms }.
local function replay_gate(ctx, job)
  local t0 = vdx.now()
  local log = ctx.session
  local results = replay.run(job.steps, job.runs, function(role)
    return ctx.roles:role(role):fresh_page(log and log:start_auth(role))
  end, { token = log and log:run_token() })
  local g = { results = results, ms = vdx.now() - t0 }
  g.lines, g.flaky, g.places, g.unreached = gate_report(job.steps, results, job.runs, job.base,
    log and log:run_token(), job.fixture)
  -- A step that failed every run: the test cannot pass as written.
  for k, i in ipairs(g.places) do
    -- (One whose locator found several has its own hint: the data grew.)
    if results[i].passed == 0 and not grown_hint(results[i].failures) then g.broken = g.flaky[k] break end
  end
  return g
end

-- The gate's first line and its step lines (when a step failed a run)
-- for g (replay_gate's), added to out; returns where the step lines go
-- when they are told later (Playwright failed).
local function gate_lines(g, runs, out)
  out[#out + 1] = ("Flake gate: %d runs in fresh contexts, %s%s"):format(runs,
    #g.flaky == 0 and ("every step passed " .. runs .. "/" .. runs)
    or g.broken and ("⚠️ step %d failed in every run: the page is not what the test expects there (a step before it "
      .. "missing or out of order, data an earlier run left, or a locator of another page)"):format(g.broken)
    or ("⚠️ %d unstable steps (%s): fix them before you call the test done (drop=[%s] takes a step out)"):format(
      #g.flaky, table.concat(g.flaky, ", "), g.flaky[1]),
    g.unreached > 0 and ("; %d later steps not reached in the runs that stopped"):format(g.unreached) or "")
  -- Every step passed: the list is told only if Playwright fails, whose
  -- failure a step's number (drop) may answer.
  local at = #out + 1
  if #g.flaky > 0 or g.unreached > 0 then
    for _, l in ipairs(g.lines) do out[#out + 1] = "  " .. l end
  end
  return at
end

-- The rest of the flake gate of job { steps, runs, base, path, env,
-- line } once the file is written: the replay's report (g, replay_gate's)
-- and the Playwright runs of the file; adds its report lines to out and
-- its facts to structured.
local function gate(job, g, out, structured)
  local runs = job.runs
  structured.gate_ms = g.ms
  local at = gate_lines(g, runs, out)
  structured.stability = {}
  for i, r in ipairs(g.results) do
    structured.stability[i] = { step = job.steps[i].no, passed = r.passed, runs = runs,
      failures = json.array(r.failures) }
  end
  structured.flaky = json.array(g.flaky)
  local t0 = vdx.now()
  local pl, passed = playwright_run(job.path, job.env, runs, job.line)
  structured.playwright_ms = vdx.now() - t0
  for _, l in ipairs(pl) do out[#out + 1] = l end
  structured.playwright = passed
  if passed == false and #g.flaky == 0 and g.unreached == 0 then
    for i, l in ipairs(g.lines) do table.insert(out, at + i - 1, "  " .. l) end
  end
  if passed and #g.flaky > 0 then
    -- The file itself passed every run: the replay misread a step.
    out[#out + 1] = "The gate's replay and Playwright disagree: the file passed every run, so trust Playwright; the "
      .. "replay's reading of step " .. table.concat(g.flaky, ", ") .. " may be wrong"
  end
end

return {
  {
    name = "browser_export_test",
    title = "Export the session as a test",
    description = "Write the test so far as a Playwright spec in the output folder; runs=N replays it and runs it N times (the flake gate). Waits for earlier calls.",
    scope = "server",
    input = { type = "object", properties = {
      filename = { type = "string", description = "Spec file in the output folder (default session-….spec.ts)" },
      test_name = { type = "string", minLength = 1, description = "Test title (default: the file's name)" },
      assertions = { type = "array", items = { type = "string", pattern = "^a[0-9]+$" },
        description = "Proposed assertions ([a3] …) to keep" },
      runs = { type = "integer", minimum = 1, maximum = 10, description = "Flake gate runs" },
      drop = { type = "array", items = { type = "integer", minimum = 1 }, minItems = 1,
        description = "Steps, as the gate numbers them, to take out" },
    } },
    annotations = { readOnlyHint = false, destructiveHint = false },
    run = function(ctx, args)
      local log = ctx.session
      -- Everything the call asks is checked before the session changes: a
      -- refused export leaves its steps as they were (a play-test's drop
      -- went through in a call refused for its assertions, and again in
      -- the next).
      local policy = util.paths(ctx)
      local rel, path = policy:output_name(spec_name(args.filename), "session", "spec.ts")
      local had = log and log:test_steps() or {}
      local gone, adding = {}, {}
      if args.drop and log then
        local bad
        gone, bad = log:dropping(args.drop)
        if not gone then
          local shown = {}
          for i, n in ipairs(bad) do shown[i] = tostring(n) end
          error(vdx.error("InvalidArgument", ("drop: the test has no step %s (its steps: %s)")
            :format(table.concat(shown, ", "), log:numbers()),
            { field = "drop", expected = ("step numbers as the flake gate lists them (%s)"):format(log:numbers()) }),
            0)
        end
      end
      if args.assertions and log then
        local unknown
        adding, unknown = log:keeping(args.assertions)
        if not adding then
          error(vdx.error("InvalidArgument", ("assertions: %s %s not proposed in this session")
            :format(table.concat(unknown, ", "), #unknown == 1 and "was" or "were"),
            { field = "assertions", expected = "ids from the [aN] lines of change reports" }), 0)
        end
      end
      local n_gone = 0
      for _ in pairs(gone) do n_gone = n_gone + 1 end
      if #had - n_gone + #adding <= 0 then
        error(vdx.error("InvalidArgument", #had == 0 and "the session has no steps to export yet: navigate, act and "
          .. "verify first" or ("drop: it would take out every step of the test (%d)"):format(#had),
          { field = #had == 0 and "filename" or "drop", expected = "a session with steps" }), 0)
      end
      local title = path:match("([^/]*)$"):gsub("%.spec%.[cm]?[jt]s$", ""):gsub("%.test%.[cm]?[jt]s$", "")
      -- A file this session wrote takes the test beside the ones it holds
      -- (the same test again replaces its own), unless it was changed since.
      local before, name, edited = suite_of(policy, log, rel, path, title)
      if edited and args.test_name and args.test_name ~= name then edited.replace, name = nil, nil end
      name = args.test_name or name or title
      local replaced
      before, name, replaced = same_title(before, name, args.test_name ~= nil, edited, path)
      -- Now the session changes: the steps dropped, the assertions kept
      -- (put back when the replay shows the file would fail).
      local saved = log:state()
      local dropped
      if args.drop then
        local out_steps, numbers = log:drop(args.drop)
        dropped = {}
        local fixture = session_export.fixture_of(had, auth_lookup(ctx, log))
        for i, st in ipairs(out_steps) do
          dropped[i] = step_line(numbers[i], st, session_export.origin(had), log:run_token(), fixture)
        end
      end
      if args.assertions then log:keep(args.assertions) end
      local steps = log:test_steps()
      -- The auth files as they are now: a later cut changes start_auth.
      local auth_of = auth_lookup(ctx, log)
      local token = log:run_token()
      local runs = math.tointeger(args.runs)
      local g
      if runs then
        -- The replay first: a file whose step fails every run is not
        -- written over the one before, and the session stays as it was.
        g = replay_gate(ctx, { steps = steps, runs = runs, base = session_export.origin(steps),
          fixture = session_export.fixture_of(steps, auth_of) })
        if g.broken then
          log:restore(saved)
          local out = { ("Not written: step %d failed in every run of the replay, so the file would fail as well. "
            .. "%s and the test's steps are as they were (nothing dropped or kept)."):format(g.broken,
            path:match("[^/]*$")) }
          gate_lines(g, runs, out)
          out[#out + 1] = ("Fix the test, then export again: drop=[%d] if the step is wrong; if it is right, the "
            .. "steps before it did not bring the page there (browser_snapshot shows it now)."):format(g.broken)
          return { text = table.concat(out, "\n"), structured = { written = false, broken = g.broken,
            flaky = json.array(g.flaky), gate_ms = g.ms } }
        end
      end
      local cmd, roles, base, notes, text, block = session_export.write(steps, path, { name = name,
        auth_of = auth_of, before = not edited and before or nil, token = token, edited = edited,
        -- The server's --browser-arg switches (a host mapping, a flag the
        -- app needs): the test's browser gets them too.
        browser_args = ctx.roles.launch_opts and ctx.roles.launch_opts.args,
        write = function(t) return policy:write(rel, t, before ~= nil) end })
      if not cmd then
        error(vdx.error("IOError", "cannot write " .. path .. ": " .. tostring(roles), { file = path }), 0)
      end
      local tests = {}
      for _, t in ipairs(before or {}) do tests[#tests + 1] = t end
      tests[#tests + 1] = { no = log.test_no, name = name, steps = steps, auth_of = auth_of, token = token,
        block = block }
      log:wrote(rel, text, tests, edited ~= nil)
      log:mark_exported()
      -- The state files of a test no written file loads any more (one
      -- replaced, one never exported) go: they hold the roles' cookies.
      forget_starts(log)
      -- Files whose tests sign in as the same role's account run in
      -- parallel workers under Playwright's defaults: said once a session.
      local shared = not log.told_shared and shared_accounts(log, rel, steps, auth_of) or {}
      local sum = session_export.summary(steps)
      -- The folder is in the Run line below.
      local out = { ("Wrote %s: %d steps (%d navigations, %d actions, %d assertions), roles %s"):format(
        path:match("[^/]*$"),
        sum.steps, sum.navigations, sum.actions, sum.assertions, table.concat(log:roles(), ", ")) }
      if #tests > 1 then
        out[1] = out[1] .. ("; test %q, %d of %d in the file"):format(name, #tests, #tests)
      end
      if replaced then out[#out + 1] = ("Replaced the file's earlier test %q with this one"):format(replaced) end
      for _, l in ipairs(dropped or {}) do out[#out + 1] = "Dropped " .. l end
      if sum.assertions == 0 then
        out[#out + 1] = "⚠️ No assertions: verify the outcome (browser_verify_*) before you call the test done."
      end
      for _, l in ipairs(sum.positional) do out[#out + 1] = "⚠️ Positional locator: " .. l end
      if #shared > 0 then
        log.told_shared = true
        local who = {}
        for i, x in ipairs(shared) do who[i] = ("%s (as %s)"):format(x.files, x.role) end
        out[#out + 1] = ("⚠️ Tests of %s sign in as this test does: Playwright runs files in parallel workers, so "
          .. "they would change the same account's data (a cart, orders) at once. Run them with --workers=1 (or "
          .. "workers: 1 in a config), or give each file an account of its own."):format(table.concat(who, "; "))
      end
      if sum.missing > 0 then
        out[#out + 1] = ("⚠️ %d actions have no locator and are left out of the test (a comment in the file says why)")
          :format(sum.missing)
      end
      local structured = { path = path, steps = sum.steps, actions = sum.actions, assertions = sum.assertions,
        navigations = sum.navigations, positional = json.array(sum.positional), roles = json.array(log:roles()) }
      local env = require("vdx.pw_spec").env(base, roles)
      if runs then
        -- In a suite file, Playwright runs this test alone (file:line).
        local line
        if #tests > 1 then
          local head, n = "test(" .. require("vdx.pw_spec").quote(name) .. ",", 0
          for l in text:gmatch("([^\n]*)\n") do
            n = n + 1
            if l:sub(1, #head) == head then line = n end
          end
        end
        gate({ steps = steps, runs = runs, path = path, env = env, line = line }, g, out, structured)
      else
        out[#out + 1] = "Before you call it done: runs=3 (the flake gate)."
      end
      for _, l in ipairs(notes) do out[#out + 1] = l end
      local secrets = require "vdx.secrets"
      if secrets.active() then
        out[#out + 1] = ("The test reads the secrets %s from process.env: export them before you run it "
          .. "(from the --secrets file: set -a; . FILE; set +a)."):format(table.concat(secrets.names(), ", "))
      end
      out[#out + 1] = "Run: " .. cmd
      structured.command = cmd
      return { text = table.concat(out, "\n"), structured = structured }
    end,
  },
  {
    name = "browser_start_test",
    title = "Start the next test",
    description = "Start the next test here (export the last first): each role on its page, signed in as now. Waits for earlier calls.",
    scope = "server",
    input = { type = "object", properties = {
      keep_state = { type = "boolean", description = "Default true; false: each role from its auth file" },
      url = { type = "string", description = "Open this URL as the first step" },
    } },
    annotations = { readOnlyHint = false, destructiveHint = true },
    run = function(ctx, args)
      local log = ctx.session
      if not log then
        error(vdx.error("InvalidArgument", "this server records no session, so there is no test to start: "
          .. "browser_export_test is not served either", { field = "keep_state" }), 0)
      end
      local keep = args.keep_state ~= false
      local unexported = log:unexported()
      local starts, lines, policy = {}, {}, util.paths(ctx)
      for _, info in ipairs(ctx.roles:list()) do
        if info.active then
          local role = ctx.roles:role(info.name)
          local page = role.page_
          local ok, pi = pcall(function() return page and page:bridge("pageInfo", {}) end)
          local url = ok and type(pi) == "table" and pi.url or "no page"
          -- The current role opens url as the test's first step.
          if args.url ~= nil and info.name == ctx.role.name then url = args.url end
          local line = ("- %s on %s, "):format(info.name, url)
          local bad = role.error_page
          if bad and bad.url == url and not (args.url ~= nil and info.name == ctx.role.name) then
            -- The page the agent tried and found missing: no start for a test.
            line = ("- %s on %s ⚠️ (it answered %d: browser_navigate the role elsewhere, or give url), ")
              :format(info.name, url, bad.status)
          end
          local state = keep and storage.storage_state(role:context())
          if keep and #state.cookies == 0 and #state.origins == 0 and not role.auth then
            -- Nothing to carry over: the test starts signed out, on
            -- Playwright's own page.
            line = line .. "signed out (no cookies, no localStorage)"
          elseif keep then
            local name = "test-start-" .. info.name:gsub("[^%w_-]", "_")
            local text = storage.encode_state(state)
            log.start_files = log.start_files or {}
            -- The role's state as an earlier start saved it: that file again
            -- (a run of tests on one signed-in role wrote one file a test).
            local path
            for p, f in pairs(log.start_files) do
              if f.role == info.name and f.text == text then path = p break end
            end
            path = path or policy:write_file(nil, name, "json", text)
            starts[info.name] = path
            log.start_files[path] = { role = info.name, text = text }
            line = line .. ("as it is (%d cookies, %d origins with localStorage: %s)"):format(#state.cookies,
              #state.origins, path:match("[^/]*$"))
          else
            -- The live role starts where its test will: its storage set to
            -- the auth file's (or cleared), its page loaded again with it.
            local okr, why = pcall(function()
              storage.set_storage_state(role:context(), role.auth or { cookies = {}, origins = {} }, { lenient = true })
              if page and tostring(url):match("^https?:") and not (args.url and info.name == ctx.role.name) then
                page:navigate(url)
              end
            end)
            line = line .. (role.auth and ("from its auth file " .. role.auth) or "signed out")
              .. (okr and ", its storage reset to it" or (": its storage could not be reset (" .. tostring(why) .. ")"))
          end
          lines[#lines + 1] = line
        end
      end
      local dropped, carried = log:restart(starts)
      -- The state files of earlier starts that no written test loads go:
      -- they hold the roles' cookies.
      local removed = forget_starts(log)
      local out = { "New test started: browser_export_test writes the steps from here." }
      if unexported > 0 then
        out[#out + 1] = unexported == 1 and "⚠️ 1 step was never exported and is dropped."
          or ("⚠️ %d steps were never exported and are dropped."):format(unexported)
      end
      if #lines > 0 then
        out[#out + 1] = "Each role starts"
        for _, l in ipairs(lines) do out[#out + 1] = l end
      else
        out[#out + 1] = "No role has a page yet: each starts from its auth file and default URL."
      end
      if carried > 0 then
        out[#out + 1] = ("Kept: %d %s of the roles' world (routes, emulation, network, clock)."):format(carried,
          carried == 1 and "setting" or "settings")
      end
      if removed > 0 then
        out[#out + 1] = ("Removed %d state %s of the last start that no written test loads."):format(removed,
          removed == 1 and "file" or "files")
      end
      local files = json.array {}
      for r, path in pairs(starts) do files[#files + 1] = { role = r, file = path } end
      table.sort(files, function(a, b) return a.role < b.role end)
      local structured = { dropped = dropped, unexported = unexported, carried = carried, states = files }
      if args.url ~= nil then
        -- The new test's first step, told as browser_navigate tells it.
        local res = ctx.tools:call("browser_navigate", { url = args.url }, ctx)
        out[#out + 1] = ""
        out[#out + 1] = res.content and res.content[1] and res.content[1].text or ""
        if res.isError then error(vdx.error("NavigationFailed", table.concat(out, "\n"), { url = args.url }), 0) end
        structured.navigate = res.structuredContent
      end
      return { text = table.concat(out, "\n"), structured = structured }
    end,
  },
}
