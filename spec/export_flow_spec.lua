--- spec/export_flow_spec.lua: `vdxlua FLOW --emit-playwright FILE` writes a
-- test that passes when the command it prints is run as printed: from
-- another folder, after the flow (and the app it served) has ended, with
-- the state a role saved (save_auth) made by the test itself, and failing
-- when the app's text changes.  A flow against an app it did not serve
-- says what to start first.
local helpers = require "helpers"

local read, q, write = helpers.read, helpers.quote, helpers.write
local FLOW = "spec/fixtures/flow/export_auth.lua"

-- True when the plain text needle is in s.
local function has(s, needle) return s:find(needle, 1, true) ~= nil end

-- The command the flow printed after "Run it with:".
local function printed_command(out)
  return out:match("\nRun it with:\n  ([^\n]+)\n")
end

describe("vdx.flow_serve #unit", function()
  local flow_serve = require "vdx.flow_serve"

  it("reads --serve-only PORT and PORT@N", function()
    assert.same({ 8080, 1 }, { flow_serve.parse("8080") })
    assert.same({ 8080, 2 }, { flow_serve.parse("8080@2") })
    for _, bad in ipairs { "", "x", "0", "70000", "8080@0", "8080@", "-1", "80 80" } do
      assert.is_nil(flow_serve.parse(bad), bad)
    end
  end)
end)

describe("an exported flow", function()
  local dir, pw, pw_why
  local out, status

  lazy_setup(function()
    dir = os.tmpname()
    os.remove(dir)
    os.execute("mkdir -p " .. q(dir .. "/work") .. " " .. q(dir .. "/elsewhere"))
    pw, pw_why = helpers.playwright()
    if pw and not pw:match("^/") then pw = io.popen("pwd"):read("l") .. "/" .. pw end
    out, status = helpers.run(("%s%s %s --emit-playwright %s -- %s"):format(
      pw and ("VDX_PLAYWRIGHT_DIR=" .. q(pw) .. " ") or "", helpers.vdxlua, FLOW, q(dir .. "/out/signin.spec.ts"),
      q(dir .. "/work")))
  end)

  lazy_teardown(function()
    if dir then os.execute("rm -rf " .. q(dir)) end
  end)

  -- Runs the printed command as printed, through sh, from another folder
  -- (env: assignments before it, as a user's shell would have them);
  -- returns its output and status, or nil when Playwright is not here.
  local function run_printed(env)
    if not pw then
      pending(pw_why)
      return nil
    end
    local cmd = assert(printed_command(out), out)
    return helpers.run(("cd %s && %stimeout 300 sh -c %s"):format(q(dir .. "/elsewhere"), env or "", q(cmd)))
  end

  it("writes the spec and its config, and prints a command that names every file by its absolute path", function()
    assert.equal(0, status, out)
    assert.is_true(has(out, "wrote " .. dir .. "/out/signin.spec.ts and its config " .. dir .. "/out/signin.config.ts\n"),
      out)
    assert.matches("\nThe config starts the flow's app %(%S+/vdxlua %S+/spec/fixtures/flow/export_auth%.lua " ..
      "%-%-serve%-only (%d+)%) on port %1 before the test%.\n", out)
    local cmd = assert(printed_command(out), out)
    -- No BASE_URL: the config sets it to the app it starts.
    assert.is_nil(cmd:find("BASE_URL", 1, true))
    for word in cmd:gmatch("%S+") do
      local value = word:match("^[%u_]+=(.*)$") or word
      if value:find("/", 1, true) then assert.matches("^/", value, 1, false) end
    end
    assert.is_true(has(cmd, " test --config " .. dir .. "/out/signin.config.ts"), cmd)

    local spec = read(dir .. "/out/signin.spec.ts")
    -- The writer's state is saved by the test where the flow saved it; the
    -- reader's context starts from it there, not from this run's file.
    assert.is_true(has(spec, "    savedState1 = await writerContext.storageState();\n  });\n"
      .. "  readerContext = await browser.newContext({ storageState: savedState1 });\n"
      .. "  reader = await readerContext.newPage();\n  await reader.goto(`${BASE_URL}/home`);\n"), spec)
    assert.is_nil(spec:find("writer.json", 1, true))
    local config = read(dir .. "/out/signin.config.ts")
    assert.is_true(has(config, "testMatch: ['signin.spec.ts'],"), config)
    assert.is_true(has(config, "process.env.BASE_URL ||= 'http://127.0.0.1:' + PORT;"), config)
    assert.is_true(has(config, "reuseExistingServer: false,"), config)
    -- The script names its app relative to the folder it ran from.
    assert.is_true(has(config, "      cwd: '" .. helpers.run("pwd"):gsub("\n$", "") .. "',\n"), config)
    assert.is_true(has(config, " --serve-only ' + PORT + ' -- " .. dir .. "/work',"), config)
  end)

  it("passes when the printed command is run as printed, from another folder, after the flow ended", function()
    -- Not the file this run saved: the test makes its own.
    assert.is_string(read(dir .. "/work/writer.json"))
    os.remove(dir .. "/work/writer.json")
    local res, st = run_printed()
    if not res then return end
    assert.equal(0, st, res)
    assert.matches("1 passed", res)
    assert.is_nil(read(dir .. "/work/writer.json"))
  end)

  it("fails when the app's text changes under it", function()
    local res, st = run_printed("EXPORT_GREETING=Goodbye ")
    if not res then return end
    assert.is_not.equal(0, st, res)
    assert.matches("1 failed", res)
    assert.is_true(has(res, 'Received string:    "Goodbye, wes@example.test"'), res)
  end)

  it("says how to install the runner when it finds none, and the command passes once it is installed", function()
    -- Run from the repository, which the flow's script needs (and where no
    -- node_modules is).
    local res, st = helpers.run(("env -u VDX_PLAYWRIGHT_DIR %s %s --emit-playwright %s -- %s"):format(
      helpers.vdxlua, FLOW, q(dir .. "/bare/signin.spec.ts"), q(dir .. "/work")))
    assert.equal(0, st, res)
    assert.is_true(has(res, "\nInstall the runner once: `cd " .. dir .. "/bare && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 "
      .. "npm i -D @playwright/test` (vdxlua found none in $VDX_PLAYWRIGHT_DIR, the spec's folder or above it, or "
      .. "the current folder or above it).\n"), res)
    local cmd = assert(printed_command(res), res)
    assert.matches("^cd " .. dir:gsub("%p", "%%%0") .. "/bare && CHROMIUM_PATH=%S+ npx playwright test "
      .. "%-%-config signin%.config%.ts$", cmd)
    if not pw then
      pending(pw_why)
      return
    end
    -- Installed there (linked to the one the specs installed).
    os.execute(("ln -s %s %s"):format(q(pw .. "/node_modules"), q(dir .. "/bare/node_modules")))
    res, st = helpers.run(("cd %s && timeout 300 sh -c %s"):format(q(dir .. "/elsewhere"), q(cmd)))
    assert.equal(0, st, res)
    assert.matches("1 passed", res)
  end)

  it("says which app to start first when the flow ran against one it did not serve", function()
    -- The app in a process of its own: the flow's script, serving only.
    local probe = require("vdx").serve { port = 0 }
    local port = probe.port
    probe:close()
    local pidfile, log = dir .. "/app.pid", dir .. "/app.log"
    os.execute(("sh -c 'echo $$ > %s; exec %s %s --serve-only %d -- %s > %s 2>&1' &"):format(q(pidfile),
      helpers.vdxlua, FLOW, port, q(dir .. "/work"), q(log)))
    local url = "http://127.0.0.1:" .. port
    for _ = 1, 100 do
      if has(read(log) or "", "serving " .. url) then break end
      os.execute("sleep 0.1")
    end
    local ext, st = helpers.run(("%s%s %s --emit-playwright %s -- %s %s"):format(
      pw and ("VDX_PLAYWRIGHT_DIR=" .. q(pw) .. " ") or "", helpers.vdxlua, FLOW, q(dir .. "/ext/signin.spec.ts"),
      q(dir .. "/work"), url))
    local res, pst = "", 0
    local cmd = printed_command(ext or "")
    if pw and cmd then
      res, pst = helpers.run(("cd %s && timeout 300 sh -c %s"):format(q(dir .. "/elsewhere"), q(cmd)))
    end
    local pid = read(pidfile)
    if pid then os.execute("kill " .. pid:match("%d+") .. " 2>/dev/null") end
    assert.is_true(has(read(log) or "", 'serving ' .. url .. ' for the flow "saved sign-in" on port ' .. port), read(log))
    assert.equal(0, st, ext)
    assert.is_true(has(ext, "\nThe flow ran against " .. url .. ", which it did not serve itself: start that app "
      .. "first (the test goes there unless BASE_URL names another copy).\n"), ext)
    assert.is_true(has(cmd, " BASE_URL=" .. url .. " "), cmd)
    -- The file runs as written against the app the flow ran against.
    assert.is_true(has(read(dir .. "/ext/signin.spec.ts"),
      "\nconst BASE_URL = (process.env.BASE_URL || '" .. url .. "').replace(/\\/$/, '');\n"), read(dir .. "/ext/signin.spec.ts"))
    assert.is_nil(read(dir .. "/ext/signin.config.ts"):find("webServer", 1, true))
    assert.equal(0, pst, res)
  end)

  it("serves nothing, and says why, when the script starts no server before flow.run", function()
    local script = write(dir .. "/no_app.lua", 'local flow = require "vdx.flow"\n'
      .. 'return flow.run({ name = "no app", base_url = "http://127.0.0.1:9" }, function() end)\n')
    local res, st = helpers.run(helpers.vdxlua .. " " .. q(script) .. " --serve-only 4321")
    assert.equal(1, st, res)
    assert.is_true(has(res, "vdxlua --serve-only: the script started 0 servers before flow.run, so there is no "
      .. "server 1 to serve on port 4321;"), res)
    res, st = helpers.run(helpers.vdxlua .. " " .. q(script) .. " --serve-only http")
    assert.equal(2, st, res)
    assert.is_true(has(res, "vdxlua: --serve-only needs a port (PORT, or PORT@N for the script's Nth server)"), res)
  end)
end)
