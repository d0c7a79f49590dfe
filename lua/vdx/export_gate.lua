--- vdx.export_gate: the flake gate of browser_export_test
-- (vdx.builtin.export).  The steps of the session's test are replayed N
-- times in fresh contexts (vdx.session_replay) before the file is
-- written, each step's stability reported by its number in the test
-- (vdx.session_log), and once written the file is run under real
-- Playwright where it is installed (vdx.pw_run).
local vdx = require "vdx"
local json = require "vdx.json"
local session_export = require "vdx.session_export"
local replay = require "vdx.session_replay"
local pw_run = require "vdx.pw_run"
local clip = require "vdx.clip"

local gate = {}

-- How long the Playwright run of the written file may take.
local PW_TIMEOUT_MS = 300000

--- One line of the report for step i: its statements as the test says
-- them (`page` on Playwright's fixture: session_export.fixture_of), a
-- comment aside, joined; the run token (vdx.run_token) as `{run}`, so a
-- cut line never shows part of it; a value the session log remembered
-- as the file writes it (vdx.remembered.in_test: runs BM and BN read
-- `{orderNo}` here and `${orderNo}` in the file).
function gate.step_line(i, s, base, token, fixture, log)
  local parts = {}
  for _, l in ipairs(session_export.statements(s, base, fixture)) do
    if not l:match("^//") or #parts == 0 then parts[#parts + 1] = (l:gsub("^await ", ""):gsub(";$", "")) end
  end
  local text = require("vdx.remembered").in_test(table.concat(parts, "; "), log, s)
  if token then text = text:gsub(token, "{run}") end
  -- (As it is: the answer would write a value remembered after the step
  -- back as its {name}, which the file does not.)
  text = clip(text, 140)
  if log and next(log:remembered()) then text = require("vdx.run_token").verbatim(text) end
  return ("%d. [%s] %s"):format(i, s.role, text)
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

-- A hint for a step that failed in some run after an action and then a
-- page load with no check between (a cart the click filled on the
-- server, then its page opened): the load may come before the app
-- finished what the action started, so the page shows the state before.
local function race_hint(steps, i)
  local loaded
  for j = i - 1, 1, -1 do
    local s = steps[j]
    local log = require "vdx.session_log"
    if log.is_check(s) then return nil end
    if log.loads(s) and not loaded then loaded = s.no or j
    elseif s.kind == "action" and loaded then
      return ("↳ step %s acts and step %s loads a page before anything checks what the action did: the load may come "
        .. "before the app finished (a request under way). Keep a check of its result after step %s (its proposal, "
        .. "or expect= on the action) so the test waits for it"):format(s.no or j, loaded, s.no or j)
    end
  end
  return nil
end

-- The gate's report lines, the numbers of the unstable steps (those
-- that failed in some run: each step's `no`, vdx.session_log), their
-- places in steps, and the number of steps only left unreached by an
-- earlier one's failure.
local function gate_report(steps, results, runs, base, token, fixture, log)
  local out, flaky, places, hidden, unreached = {}, {}, {}, 0, 0
  for i, s in ipairs(steps) do
    local r = results[i]
    local line = gate.step_line(s.no or i, s, base, token, fixture, log) .. ("  %d/%d"):format(r.passed, runs)
    local why, skipped = {}, {}
    for _, f in ipairs(r.failures) do
      if f.not_reached then skipped[#skipped + 1] = f.run
      else why[#why + 1] = ("run %d: %s"):format(f.run, f.reason) end
    end
    if #why > 0 then
      flaky[#flaky + 1], places[#places + 1] = s.no or i, i
      out[#out + 1] = line .. " ❌ " .. table.concat(why, "; ")
      local hint = grown_hint(r.failures) or race_hint(steps, i)
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
-- Playwright runs times; returns report lines, true when it passed (nil
-- when it could not run) and the command it ran.
local function playwright_run(path, env, runs, line)
  local dir = path:match("^(.*)/[^/]*$")
  local pw_dir, why = pw_run.find(dir)
  -- Where it looked and how to install it: the note the export adds.
  if not pw_dir then return { "Playwright: not run: " .. (why:gsub(" %(.*$", "")) } end
  local cmd = pw_run.command(path, env, pw_dir, runs, line)
  local rc, out = pw_run.shell(cmd, PW_TIMEOUT_MS)
  local summary = pw_run.summary(out) or (out:sub(-400))
  -- The command it ran is said when it failed, to run it again as it
  -- ran; a pass has the answer's Run: line (runs BD and BF read two
  -- commands, nearly the same, in every export).
  local lines = { ("Playwright (%d runs of the %s): %s%s"):format(runs, line and "test" or "file", rc == 0 and "✅ " or "❌ ",
    summary), rc ~= 0 and ("Ran: " .. cmd) or nil }
  local failed, passed = tonumber(summary:match("(%d+) failed")), tonumber(summary:match("(%d+) passed"))
  if rc ~= 0 and failed and passed and failed > 0 and passed > 0 then
    -- One run passes, the next fails: what the first left is in the way,
    -- or a step races the page.
    lines[#lines + 1] = "↳ some runs passed and others failed: a run may find what an earlier one left on the "
      .. "server (a product, an order, a cart). Type the data a test makes with {run} (Teak Lamp {run}), and "
      .. "check counts the test itself controls. Or a step races what the page still does (a fetch after its "
      .. "load, a timer): a check before it of what that shows makes every run wait"
  end
  if rc ~= 0 then
    local tail = out:gsub("\27%[[%d;]*m", "")
    if #tail > 1500 then tail = "…" .. tail:sub(-1500) end
    lines[#lines + 1] = tail
  end
  return lines, rc == 0, cmd
end

--- The first part of the flake gate of job { steps, runs, base, fixture }:
-- the replay in fresh contexts.  Returns { lines (each step's), flaky
-- (numbers), places, unreached, broken (the number of a step that failed
-- every run, when one did), results, ms }.
function gate.replay(ctx, job)
  local t0 = vdx.now()
  local log = ctx.session
  local results = replay.run(job.steps, job.runs, function(role)
    return ctx.roles:role(role):fresh_page(log and log:start_auth(role))
  end, { token = log and log:run_token() })
  local g = { results = results, ms = vdx.now() - t0 }
  g.lines, g.flaky, g.places, g.unreached = gate_report(job.steps, results, job.runs, job.base,
    log and log:run_token(), job.fixture, log)
  -- A step that failed every run: the test cannot pass as written.
  for k, i in ipairs(g.places) do
    -- (One whose locator found several has its own hint: the data grew.)
    if results[i].passed == 0 and not grown_hint(results[i].failures) then g.broken = g.flaky[k] break end
  end
  return g
end

--- The gate's first line and its step lines (when a step failed a run)
-- for g (gate.replay's), added to out; returns where the step lines go
-- when they are told later (Playwright failed).
function gate.lines(g, runs, out)
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

--- The line that says why the replay failed steps (g.flaky) of a file
-- that passed every Playwright run.  A step the replay failed in every
-- run is one it misread; one it failed in some runs only may race what
-- the page does after its load, and Playwright's runs came out right
-- (run Y: a clock paused before the page's fetch had rendered).
function gate.disagreement(g)
  local sometimes = false
  for _, i in ipairs(g.places) do
    if g.results[i].passed > 0 then sometimes = true end
  end
  local steps = table.concat(g.flaky, ", ")
  if sometimes then
    return ("The gate's replay and Playwright disagree: the file passed every run, but the replay failed step %s in "
      .. "some runs only. The step may race what the page still does after the step before it (a fetch it makes "
      .. "after its load, a timer), which Playwright's runs won: a check before it of what the page shows once "
      .. "ready makes every run wait. Else the replay read it wrongly"):format(steps)
  end
  return "The gate's replay and Playwright disagree: the file passed every run, so trust Playwright; the "
    .. "replay's reading of step " .. steps .. " may be wrong"
end

--- The rest of the flake gate of job { steps, runs, base, path, env,
-- line } once the file is written: the replay's report (g, gate.replay's)
-- and the Playwright runs of the file; adds its report lines to out and
-- its facts to structured.
function gate.finish(job, g, out, structured)
  local runs = job.runs
  structured.gate_ms = g.ms
  local at = gate.lines(g, runs, out)
  structured.stability = {}
  for i, r in ipairs(g.results) do
    structured.stability[i] = { step = job.steps[i].no, passed = r.passed, runs = runs,
      failures = json.array(r.failures) }
  end
  structured.flaky = json.array(g.flaky)
  local t0 = vdx.now()
  local pl, passed, cmd = playwright_run(job.path, job.env, runs, job.line)
  structured.playwright_ms = vdx.now() - t0
  structured.playwright_command = cmd
  for _, l in ipairs(pl) do out[#out + 1] = l end
  structured.playwright = passed
  if passed == false and #g.flaky == 0 and g.unreached == 0 then
    for i, l in ipairs(g.lines) do table.insert(out, at + i - 1, "  " .. l) end
  end
  if passed and #g.flaky > 0 then out[#out + 1] = gate.disagreement(g) end
end

return gate
