--- vdx.builtin.export: browser_export_test, the end of the agent's loop.
-- It writes the session (navigations, actions with their verified
-- locators, verified assertions, in every role) as a Playwright test,
-- and with runs = N it is also the flake gate (vdx.export_gate): the
-- steps replayed N times in fresh contexts, each step's stability
-- reported, and the written file run under real Playwright where it is
-- installed.
local vdx = require "vdx"
local json = require "vdx.json"
local util = require "vdx.builtin.util"
local session_export = require "vdx.session_export"
local export_gate = require "vdx.export_gate"
local accounts = require "vdx.export_accounts"
local assertions = require "vdx.assertions"
local clip = require "vdx.clip"

-- The requests a test waits for as the answer names them (the first
-- session_export.MAX_RESPONSE_WAITS, "(and N more)"), and "those
-- responses" or "that response".
local function waited(requests)
  local n = math.min(#requests, session_export.MAX_RESPONSE_WAITS)
  local more = #requests > n and (" (and %d more)"):format(#requests - n) or ""
  return table.concat(requests, ", ", 1, n) .. more, n > 1 and "those responses" or "that response"
end

-- What a step of the session log does, in a word: goto, click, fill,
-- toBeVisible, remember.
local function step_word(st)
  if st.kind == "navigate" then return "goto" end
  if st.kind == "action" then return tostring(st.action or st.tool or "action") end
  if st.kind == "assert" then return tostring(st.matcher or "check") end
  return tostring(st.kind)
end

-- What a kept check checks, in short: its matcher, and its argument cut
-- (run FI kept a47 by id from an answer it had cut, and opened the file
-- to see it was the URL's check).
local function checks(st)
  if st.kind ~= "assert" then return step_word(st) end
  if st.locator == nil or st.value == nil then return tostring(st.matcher) end
  return ("%s(%s)"):format(st.matcher, clip(assertions.args(st), 40))
end

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

-- name, a spec's name, without the output folder's own name before it
-- (tests/cart.spec.ts, the folder being tests): the project's path of a
-- file in it, as the export's Run line names it (run FQ's went to
-- tests/tests/), unless the folder holds one of that name.
local function from_project(policy, name)
  local dir = type(name) == "string" and policy.output
  local own = dir and dir:match("([^/]+)/*$")
  local inner = own and name:sub(1, #own + 1) == own .. "/" and name:sub(#own + 2)
  if not inner or inner == "" or require("vdx.paths").kind(dir .. "/" .. own) ~= nil then return name end
  return inner
end

-- The requests of steps that may change the app's data (any method but
-- GET, HEAD and OPTIONS), at most two named ("POST /api/cart, POST
-- /api/pay and 1 more"), or nil when there is none.  A path's number
-- reads {id}: a run's request goes to what the run made (its product,
-- not the session's product 4).
local function writes_of(steps)
  -- (One a route of the test answers never reached the server: the path
  -- is tried under the route's own origin, or any.)
  local routes = {}
  for _, s in ipairs(steps) do
    if s.tool == "browser_route" and type(s.route) == "string" then
      local ok, m = pcall(require("vdx.route_match").compile, s.route)
      if ok then routes[#routes + 1] = { m = m, origin = s.route:match("^(%a+://[^/]+)") or "http://127.0.0.1" } end
    end
  end
  local function routed(path)
    for _, r in ipairs(routes) do
      if r.m(r.origin .. path) then return true end
    end
    return false
  end
  local seen, list = {}, {}
  for _, s in ipairs(steps) do
    -- (One the server refused made nothing: run BQ's form posts, all 400.)
    local refused = {}
    for _, f in ipairs(type(s.failed) == "table" and s.failed or {}) do
      refused[tostring(f):gsub(" %(%w+%)$", "")] = true
    end
    for _, r in ipairs(type(s.fetched) == "table" and s.fetched or {}) do
      local method, path = require("vdx.session_races").write_of(r)
      if method and not routed(path) and not refused[r] then
        local shown = method .. " " .. path:gsub("/%d+(%f[/?#\0])", "/{id}%1")
        if not seen[shown] then seen[shown], list[#list + 1] = true, shown end
      end
    end
  end
  if #list == 0 then return nil end
  return table.concat(list, ", ", 1, math.min(2, #list)) .. (#list > 2 and (" and %d more"):format(#list - 2) or "")
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

-- The steps of a test as one text, to tell the same steps again (nil
-- when they do not encode).
local function steps_key(steps) return (json.encode(steps)) end

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
        description = "Proposed assertions ([a3] …) to keep, beside those kept before" },
      runs = { type = "integer", minimum = 1, maximum = 10, description = "Flake gate runs" },
      drop = { type = "array", items = { type = "integer", minimum = 1 }, minItems = 1,
        description = "Steps to take out, by number (a check's answer gives its step)" },
    } },
    annotations = { readOnlyHint = false, destructiveHint = false },
    run = function(ctx, args)
      local log = ctx.session
      -- Everything the call asks is checked before the session changes: a
      -- refused export leaves its steps as they were (a play-test's drop
      -- went through in a call refused for its assertions, and again in
      -- the next).
      local policy = util.paths(ctx)
      local rel, path = policy:output_name(from_project(policy, spec_name(args.filename)), "session", "spec.ts")
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
      -- (the same test again replaces its own), unless it was changed since;
      -- one deleted since is no file of the session (run ED deleted one, and
      -- its export was refused, then written into an empty file it made).
      log:forget_gone(function(r) return policy:output_gone(r) end)
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
          dropped[i] = export_gate.step_line(numbers[i], st, session_export.origin(had), log:run_token(), fixture, log)
        end
      end
      -- The steps recorded since this test's last export, which join this
      -- one (run BM's look at its cart after an export went into the next
      -- unsaid, and it dropped them by number when it saw them).
      local since = log:since_export()
      -- The steps the kept proposals became, by the numbers drop takes: a
      -- kept check is numbered after the steps recorded before it, not by
      -- its place in the file (run BL dropped the wrong one by its line).
      local kept_as = {}
      if args.assertions then
        log:keep(args.assertions)
        for _, id in ipairs(args.assertions) do
          local st = log.kept and log.kept[id]
          if type(st) == "table" and st.no then
            kept_as[#kept_as + 1] = ("%s (%s) as step %d"):format(id, checks(st), st.no)
          end
        end
      end
      local steps = log:test_steps()
      -- The auth files as they are now: a later cut changes start_auth.
      local auth_of = auth_lookup(ctx, log)
      local token = log:run_token()
      local runs = math.tointeger(args.runs)
      local g
      if runs then
        -- The replay first: a file whose step fails every run is not
        -- written over the one before, and the session stays as it was.
        g = export_gate.replay(ctx, { steps = steps, runs = runs, base = session_export.origin(steps),
          fixture = session_export.fixture_of(steps, auth_of) })
        if g.broken then
          log:restore(saved)
          local out = { ("Not written: step %d failed in every run of the replay, so the file would fail as well. "
            .. "%s and the test's steps are as they were (nothing dropped or kept)."):format(g.broken,
            path:match("[^/]*$")) }
          export_gate.lines(g, runs, out)
          out[#out + 1] = ("Fix the test, then export again: drop=[%d] if the step is wrong; if it is right, the "
            .. "steps before it did not bring the page there (browser_snapshot shows it now)."):format(g.broken)
          if g.broken > 1 then
            -- (Run AH's stopped runs each left an unpaid order and an item
            -- in the shared cart, and its next export failed on them.)
            out[#out + 1] = ("The replay's runs did steps 1-%d against the live app and stopped there: anything they "
              .. "saved (an item in a cart, an order) is still there, for the session's roles too."):format(g.broken - 1)
          end
          return { text = table.concat(out, "\n"), structured = { written = false, broken = g.broken,
            flaky = json.array(g.flaky), gate_ms = g.ms } }
        end
      end
      -- The Run line starts in the project above the output folder, or in
      -- the spec's own folder (export_accounts.run_from).
      local run_from = accounts.run_from(policy, rel)
      local cmd, roles, base, notes, text, block = session_export.write(steps, path, { name = name,
        auth_of = auth_of, before = not edited and before or nil, token = token, edited = edited,
        -- The server's --browser-arg switches (a host mapping, a flag the
        -- app needs): the test's browser gets them too.
        browser_args = ctx.roles.launch_opts and ctx.roles.launch_opts.args,
        write = function(t) return policy:write(rel, t, before ~= nil) end, run_from = run_from })
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
      require("vdx.builtin.start_test").forget_starts(log)
      -- Files whose tests sign in as the same role's account run in
      -- parallel workers under Playwright's defaults: a config where the
      -- Run line starts runs them one at a time (one of the person's own
      -- is said of once).
      local shared = accounts.shared(log, rel, steps, auth_of)
      local config, root
      if #shared > 0 then config, root = accounts.one_at_a_time(policy, rel) end
      local sum = session_export.summary(steps)
      -- The file as the Run line names it: from the project's folder, its
      -- folder too (run EY looked for it with ls).
      local shown = select(2, session_export.run_path(path, run_from))
      local out = { ("Wrote %s: %d steps (%d navigations, %d actions, %d assertions), roles %s"):format(shown,
        sum.steps, sum.navigations, sum.actions, sum.assertions, table.concat(log:roles(), ", ")) }
      if #tests > 1 then
        -- How to put this recording in another's place (run Y deleted an
        -- earlier version by hand): that one's title replaces it.
        local others = {}
        for i = 1, math.min(#tests - 1, 3) do others[i] = ("%q"):format(tests[i].name) end
        out[1] = out[1] .. ("; test %q, %d of %d in the file (beside %s%s: test_name of one puts this test in "
          .. "its place)"):format(name, #tests, #tests, table.concat(others, ", "), #tests > 4 and ", …" or "")
      end
      if replaced then out[#out + 1] = ("Replaced the file's earlier test %q with this one"):format(replaced) end
      if #kept_as > 0 then
        -- (Runs BQ, BR and BS read "step 12" of a file of 11 steps as a
        -- place in it; said in short after the first time, which run CG
        -- had forgotten by its third export.)
        out[#out + 1] = "Kept " .. table.concat(kept_as, ", ") .. (log.numbers_told and " (drop numbers)"
          or " (its number for drop, not its place in the file)")
        log.numbers_told = true
      end
      if since and #since > 0 then
        -- Each with what it does (run CL read "drop=[14, 17, 18]" as
        -- advice to drop the checks it had just made, and the load).
        local nos = {}
        for i, st in ipairs(since) do nos[i] = ("%d (%s)"):format(st.no, step_word(st)) end
        local list = table.concat(nos, ", ")
        out[#out + 1] = #nos == 1 and ("Step %s was recorded since your last export of this test and is in it "
          .. "(drop=[%d] takes it out if it was only a look)"):format(list, since[1].no)
          or ("Steps %s were recorded since your last export of this test and are in it (drop=[n] takes out "
          .. "one that was only a look)"):format(list)
      end
      for _, l in ipairs(dropped or {}) do out[#out + 1] = "Dropped " .. l end
      if sum.assertions == 0 then
        out[#out + 1] = "⚠️ No assertions: verify the outcome (browser_verify_*) before you call the test done."
      end
      for _, l in ipairs(sum.positional) do out[#out + 1] = "⚠️ Positional locator: " .. l end
      local after = session_export.after_known_bug(steps)
      if after then out[#out + 1] = after end
      if #shared > 0 then
        local who = {}
        for i, x in ipairs(shared) do who[i] = ("%s (as %s)"):format(x.files, x.role) end
        local which = root and ("the playwright.config.ts of " .. root .. ", where the Run line starts,")
          or "this folder's playwright.config.ts"
        if config == "ours" then
          out[#out + 1] = ("Shares accounts with %s: %s runs one file at a time."):format(table.concat(who, "; "),
            which)
        elseif config == "wrote" or not log.told_shared then
          log.told_shared = true
          out[#out + 1] = ("⚠️ Tests of %s sign in as this test does: Playwright runs files in parallel workers, so "
            .. "they would change the same account's data (a cart, orders) at once. %s, or give each file an "
            .. "account of its own."):format(table.concat(who, "; "), config == "wrote"
              and ("Wrote %s with workers: 1: Playwright reads it in a run from there, as the Run line does (from "
                .. "another folder, add --workers=1)"):format(root and (root .. "/playwright.config.ts")
                or "playwright.config.ts in this folder")
              or ("%s has a Playwright config of its own: set workers: 1 there, or run with --workers=1")
                :format(root or "This folder"))
        end
      end
      local warned, mended = 0, 0
      for _, u in ipairs(log:unchecked_loads()) do
        local fetched = u.action.fetched
        if fetched and mended < 2 then
          -- (The file waits for the action's requests: run AB's Add to cart,
          -- then the cart's page, where the proposal was a count the
          -- server's cart changes from run to run.)
          mended = mended + 1
          local list, those = waited(fetched)
          out[#out + 1] = ("Step %d's answer waited for %s, and step %d loads a page right after: the test waits for "
            .. "%s before step %d (waitForResponse), as this answer did"):format(u.action.no, list, u.load.no, those,
            u.load.no)
        end
        if not fetched and warned < 2 then
          warned = warned + 1
          -- (A role switch with a page load after a save is the usual race.)
          local head = ("⚠️ Step %d acts and step %d loads a page with nothing between that checks what the action "
            .. "did: the load may come before the app finished. "):format(u.action.no, u.load.no)
          out[#out + 1] = head .. (u.id and ("Keep %s (its proposal), assertions=[%q], so the test waits for it%s")
            :format(u.id, u.id, u.volatile and "; it names a count or an amount, which a later run reads otherwise "
              .. "if the app keeps data between runs (a cart): a text the action shows each time (expect= on it) "
              .. "waits as well" or "")
            or "Its answer proposed no check to keep: start the test again and give that action expect= (a text it "
              .. "shows), so the test waits for it")
        end
      end
      -- Each page's data waited for is said once a session: the file waits
      -- for it in every test (run BZ read the same note at each export).
      log.told_waited = log.told_waited or {}
      local said = 0
      for _, u in ipairs(log:unready_actions()) do
        local late, those = waited(u.late)
        if said >= 2 or log.told_waited[late] then goto told end
        said, log.told_waited[late] = said + 1, true
        -- (Not a warning: the file waits. A check of what the data shows
        -- says more, and the agent may still add one.)
        local reads = u.action.kind == "remember"
        out[#out + 1] = ("Step %d loads a page that fetches %s after its load, and step %d %s at once: the test "
          .. "waits for %s before step %d (waitForResponse), as this answer did; Playwright alone would %s"):format(
          u.load.no, late, u.action.no, u.absent and "checks that something is absent" or reads and "reads a value"
          or "acts", those, u.action.no, u.absent and "pass it before the data came, whatever the data"
          or reads and "read what the page shows before the data came" or "act as soon as the element is there")
        ::told::
      end
      for i, u in ipairs(require("vdx.session_races").unsettled(log:list())) do
        if i > 2 then break end
        local list, those = waited(u.action.fetched)
        out[#out + 1] = ("Step %d %s, and step %d checks at once: the test waits for %s before step %d "
          .. "(waitForResponse), as this answer did; Playwright alone would pass the check before the app answered, "
          .. "whatever it answered"):format(u.action.no, u.action.unchanged and ("changed nothing on the page (it sent "
            .. list .. ")") or ("sent " .. list), u.check.no, those, u.check.no)
      end
      for i, u in ipairs(require("vdx.session_races").handoffs(log:list())) do
        if i > 2 then break end
        local list, those = waited(u.writes)
        out[#out + 1] = ("Step %d sent %s, and step %d is role %s's: the test waits for %s before it "
          .. "(waitForResponse), so that role finds the app's server as this answer left it"):format(u.action.no, list,
          u.next.no or 0, tostring(u.next.role), those)
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
        export_gate.finish({ steps = steps, runs = runs, path = path, env = env, line = line }, g, out, structured)
        -- Steps that passed, kept for an export of them again (a new title).
        log.gated = #g.flaky == 0 and g.unreached == 0 and structured.playwright ~= false
          and { key = steps_key(steps), runs = runs } or nil
        -- What the runs changed on the app's server, said once a session
        -- (runs BC and BE saw their cart and shop grow with each export).
        local writes = not log.told_writes and writes_of(steps)
        if writes then
          log.told_writes = true
          out[#out + 1] = ("The runs sent %s each time, for real: what they made (an item, an order) stays on the "
            .. "app's server, and the session's roles see it too."):format(writes)
        end
      elseif log.gated and log.gated.key and log.gated.key == steps_key(steps) then
        -- (Run EY exported again for a new title and was told to gate the
        -- steps that had just passed.)
        out[#out + 1] = ("Its steps passed the flake gate (runs=%d) at the export before: no need to run it again.")
          :format(log.gated.runs)
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
}
