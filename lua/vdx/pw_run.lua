--- vdx.pw_run: runs a written spec under real Playwright, where Node and
-- @playwright/test are installed, so browser_export_test can say the
-- file passes (not only that its steps replayed).  The Playwright found
-- is the one in $VDX_PLAYWRIGHT_DIR, else in the spec's folder or one
-- above it, else in the current folder or one above it.  The run is a
-- background process polled from the loop, so the server keeps serving
-- (and a cancellation is heard) while it runs.
local vdx = require "vdx"

local run = {}

local function q(s) return "'" .. tostring(s):gsub("'", "'\\''") .. "'" end

-- The text of the file at path, or nil (read with the loop turning).
local function read(path)
  return (vdx.read_file(path))
end

local function folders_up(dir, out)
  while dir and dir ~= "" do
    out[#out + 1] = dir
    dir = dir:match("^(.*)/[^/]*$")
  end
  return out
end

--- The folder whose node_modules holds @playwright/test (its cli.js), for
-- a spec in spec_dir; or nil and why not.
function run.find(spec_dir)
  if not os.execute("command -v node >/dev/null 2>&1") then return nil, "Node is not installed" end
  local cands = {}
  if os.getenv("VDX_PLAYWRIGHT_DIR") then cands[1] = os.getenv("VDX_PLAYWRIGHT_DIR") end
  folders_up(spec_dir, cands)
  folders_up(require("vdx.pw_spec").cwd(), cands)
  for _, d in ipairs(cands) do
    if read(d .. "/node_modules/@playwright/test/cli.js") then return d end
  end
  return nil, "@playwright/test is not installed (not in $VDX_PLAYWRIGHT_DIR, the spec's folder or above it, "
    .. "nor the current folder or above it; `npm install -D @playwright/test` there, or `make bench-peers`)"
end

-- The words that start the Playwright run.find finds for spec_dir, or nil
-- and why not (see run.runner).
local function runner_words(spec_dir)
  local dir, why = run.find(spec_dir)
  if not dir then return nil, why end
  local pw = require "vdx.pw_spec"
  local root, at = pw.absolute(dir), pw.absolute(spec_dir)
  -- An install in the spec's folder or above it is the one npx runs and
  -- the spec's import finds from there: no path needs naming.
  if at == root or at:sub(1, #root + 1) == root .. "/" then return "npx playwright" end
  local mods = root .. "/node_modules"
  local bin = mods .. "/.bin/playwright"
  if read(bin) then return "NODE_PATH=" .. pw.shell_word(mods) .. " " .. pw.shell_word(bin) end
  return "NODE_PATH=" .. pw.shell_word(mods) .. " node " .. pw.shell_word(mods .. "/@playwright/test/cli.js")
end

local runners = {}

--- How long (ms) run.runner trusts that a folder has no Playwright.
run.MISS_MS = 5000

--- The words that start Playwright Test for a spec in spec_dir, from that
-- folder: "npx playwright" for an install in it or above it, else
-- "NODE_PATH=… /…/node_modules/.bin/playwright" for the install run.find
-- finds (NODE_PATH, so the spec's import of @playwright/test finds that
-- same install wherever the spec is); or nil and why none was found.
-- A find is kept per folder (a saved session asks after every step); a
-- miss only for run.MISS_MS, so an install made meanwhile is found.
function run.runner(spec_dir)
  local r = runners[spec_dir]
  if not r or (not r[1] and vdx.now() - r.at >= run.MISS_MS) then
    r = { runner_words(spec_dir) }
    r.at = vdx.now()
    runners[spec_dir] = r
  end
  return r[1], r[2]
end

--- The folder a run of the specs in dir leaves its results in (traces,
-- screenshots of failures): one per spec folder under the temporary
-- folder, not test-results/ beside the tests, where the agent's tests
-- are and a person reviews them.
function run.results_dir(dir)
  local h = 5381
  for i = 1, #dir do h = (h * 33 + dir:byte(i)) % 4294967296 end
  return ("%s/vdx-playwright-results-%08x"):format(os.getenv("TMPDIR") or "/tmp", h)
end

--- The command that runs the spec at path (from its folder) with env
-- (assignments) under the Playwright of pw_dir, repeat times; line, when
-- given, runs only the test that starts there (`file:line`: the others of
-- a suite file are not run again).  Its results go to run.results_dir.
function run.command(path, env, pw_dir, repeat_each, line)
  local dir, file = path:match("^(.*)/([^/]*)$")
  local rep = repeat_each and repeat_each > 1 and (" --repeat-each=" .. repeat_each) or ""
  return ("cd %s && NODE_PATH=%s %s node %s test %s --reporter=line --workers=1 --output=%s%s"):format(q(dir),
    q(pw_dir .. "/node_modules"), env, q(pw_dir .. "/node_modules/@playwright/test/cli.js"),
    q(file .. (line and (":" .. line) or "")), q(run.results_dir(dir)), rep)
end

--- Runs cmd in the background and waits (turning the loop) for at most
-- timeout_ms; returns the exit status (nil on timeout) and the output.
function run.shell(cmd, timeout_ms)
  local p = io.popen("mktemp -d /tmp/vdx-pwrun.XXXXXX")
  local tmp = p:read("l")
  p:close()
  -- Its own session, so a run past the timeout is ended with all of its
  -- processes (Playwright's workers and browsers).
  -- The secrets (vdx.secrets) reach the test as environment variables,
  -- from a file only this user reads, never on a command line.
  local secrets, prefix = require "vdx.secrets", ""
  if secrets.active() then
    local f = assert(io.open(tmp .. "/secrets.env", "w"))
    f:write(secrets.shell_exports())
    f:close()
    prefix = ". " .. q(tmp .. "/secrets.env") .. "; "
  end
  local script = ("%s( %s ) > %s/out 2>&1; echo $? > %s/rc.tmp; mv %s/rc.tmp %s/rc"):format(prefix, cmd, tmp, tmp, tmp,
    tmp)
  os.execute(("setsid sh -c %s >/dev/null 2>&1 & echo $! > %s/pid"):format(q(script), tmp))
  local t0 = vdx.now()
  local rc = read(tmp .. "/rc")
  while not rc and vdx.now() - t0 < timeout_ms do
    vdx.sleep(200)
    rc = read(tmp .. "/rc")
  end
  local out = read(tmp .. "/out") or ""
  if not rc then
    local pid = tonumber((read(tmp .. "/pid") or ""):match("%d+"))
    if pid then os.execute(("kill -- -%d 2>/dev/null"):format(pid)) end
    out = out .. ("\n(stopped after %d s)"):format(timeout_ms // 1000)
  end
  os.execute("rm -rf " .. q(tmp))
  return rc and tonumber(rc), out
end

--- The summary line of Playwright's line reporter ("3 passed (9.1s)",
-- "1 failed", …) from its output.
function run.summary(out)
  local parts = {}
  for n, what in out:gmatch("\n%s*(%d+) (%a+)") do
    if what == "passed" or what == "failed" or what == "flaky" or what == "skipped" then
      parts[#parts + 1] = n .. " " .. what
    end
  end
  return #parts > 0 and table.concat(parts, ", ") or nil
end

return run
