-- Secrets (lua/vdx/secrets.lua): a dotenv file's values never leave in an
-- answer, a log, an export or a report.  The dotenv reader and the
-- redaction as units; then a login through `vdxlua mcp --secrets` typing
-- the password by its name, every byte the server wrote scanned, the
-- exported test run under real Playwright with the value in its
-- environment; then a flow with --secrets, its report, trace and export.
local vdx = require "vdx"
local helpers = require "helpers"
local client = require "mcp_client"

local read, q, write = helpers.read, helpers.quote, helpers.write
local PASSWORD = "S3cretPass-9x"

local function has(s, needle) return s:find(needle, 1, true) ~= nil end

describe("vdx.secrets #unit", function()
  local secrets = vdx.secrets
  after_each(function() secrets.clear() end)

  it("reads dotenv lines: comments, export, quotes, escapes", function()
    local t = secrets.parse(table.concat({
      "# a comment", "", "ADMIN_PASSWORD=S3cretPass-9x", "export API_TOKEN = 'tok en#1' # trailing",
      'MULTI="a\\nb\\"c"', "BARE=value # comment", "HASH=abc#def",
    }, "\n"), "x.env")
    assert.same({ ADMIN_PASSWORD = PASSWORD, API_TOKEN = "tok en#1", MULTI = 'a\nb"c', BARE = "value",
      HASH = "abc#def" }, t)
  end)

  it("names the line of a bad entry and refuses values shorter than 4", function()
    local e = helpers.error_of(secrets.parse, "OK_ONE=longer\nnot a line\n", "s.env")
    assert.equal("InvalidArgument", e.type)
    assert.matches("^s%.env:2: expected NAME=value", e.message)
    e = helpers.error_of(secrets.parse, "\n\nPIN=123\n", "s.env")
    assert.matches("^s%.env:3: PIN: the value has 3 characters; a secret needs at least 4", e.message)
    e = helpers.error_of(secrets.parse, "X='open\n", "s.env")
    assert.matches("^s%.env:1: X: the quote ' is not closed", e.message)
  end)

  it("redacts values to <secret>NAME</secret>, longest first, and resolves what an agent types", function()
    secrets.add { PW = "hunter22", PW_LONG = "hunter22-and-more" }
    assert.equal("a <secret>PW_LONG</secret> b <secret>PW</secret>", secrets.redact("a hunter22-and-more b hunter22"))
    local r = secrets.redact_all { content = { { type = "text", text = "x hunter22" } }, [ "hunter22" ] = 1 }
    assert.equal("x <secret>PW</secret>", r.content[1].text)
    assert.equal(1, r["<secret>PW</secret>"])
    local a = secrets.arguments("browser_type", { ref = "e1", text = "PW" })
    assert.equal("hunter22", a.text)
    a = secrets.arguments("browser_fill_form", { fields = { { type = "textbox", value = "<secret>PW</secret>" },
      { type = "textbox", value = "PW_LONG" }, { type = "checkbox", value = "PW" } } })
    assert.same({ "hunter22", "hunter22-and-more", "PW" },
      { a.fields[1].value, a.fields[2].value, a.fields[3].value })
    -- Elsewhere only the marker stands for the value: a bare name is text.
    assert.equal("PW", secrets.arguments("browser_wait_for", { text = "PW" }).text)
    assert.equal("hunter22", secrets.arguments("browser_wait_for", { text = "<secret>PW</secret>" }).text)
    assert.equal("await p.fill(process.env['PW']);\n// <secret>PW</secret> here",
      secrets.for_test("await p.fill('hunter22');\n// hunter22 here"))
  end)
end)

describe("vdxlua mcp --secrets", function()
  local srv, dir, logins = nil, nil, {}
  setup(function()
    srv = helpers.serve {
      ["GET /secrets/api/login"] = function(req)
        local pw = (req.query or ""):match("pw=([^&]*)")
        logins[#logins + 1] = pw
        return { json = { ok = pw == PASSWORD } }
      end,
    }
    dir = client.tmpdir()
    os.execute("mkdir -p " .. q(dir .. "/out"))
    write(dir .. "/secrets.env", "# the admin's sign-in\nexport ADMIN_PASSWORD=\"" .. PASSWORD .. "\"\n")
  end)
  teardown(function()
    if srv then srv:close() end
    if dir then os.execute("rm -rf " .. q(dir)) end
  end)

  it("types a secret by its name and never shows its value: answers, stderr, the export", function()
    local pw = helpers.playwright()
    if pw and not pw:match("^/") then pw = io.popen("pwd"):read("l") .. "/" .. pw end
    local s = client.start(("--secrets %s --output-dir %s --log-level debug"):format(q(dir .. "/secrets.env"),
      q(dir .. "/out")), pw and ("VDX_PLAYWRIGHT_DIR=" .. q(pw)) or nil)
    local _, call = client.caller(s)
    local function text(r) return r.content[1].text end
    call("browser_navigate", { url = srv.url .. "/secrets/login.html" })
    local snap = text(call("browser_snapshot", {}))
    local ref = assert(snap:match('textbox "Password" %[ref=([%w_]+)%]'), snap)
    -- The agent types the secret by its name (Playwright MCP's convention).
    local typed = call("browser_type", { element = "Password", ref = ref, text = "ADMIN_PASSWORD" })
    assert.is_nil(typed.isError, text(typed))
    call("browser_click", { element = "Sign in", ref = assert(snap:match('button "Sign in" %[ref=([%w_]+)%]')) })
    call("browser_wait_for", { text = "Welcome, admin" })
    assert.equal(PASSWORD, logins[#logins])       -- the page got the value itself
    -- Every place the value could come back holds the name instead.
    snap = text(call("browser_snapshot", {}))
    assert.is_true(has(snap, 'textbox "Password"'), snap)
    assert.is_true(has(snap, "<secret>ADMIN_PASSWORD</secret>"), snap)
    local console = text(call("browser_console_messages", {}))
    assert.is_true(has(console, "signing in with <secret>ADMIN_PASSWORD</secret>"), console)
    local net = text(call("browser_network_requests", {}))
    assert.is_true(has(net, "pw=<secret>ADMIN_PASSWORD</secret>"), net)
    local ev = text(call("browser_evaluate", { ["function"] = "() => document.querySelector('#pw').value" }))
    assert.is_true(has(ev, "<secret>ADMIN_PASSWORD</secret>"), ev)
    local bad = call("browser_wait_for", { text = "Bye " .. "<secret>ADMIN_PASSWORD</secret>", timeout = 300 })
    assert.is_true(bad.isError)                   -- the error names the text by its marker too
    assert.is_true(has(text(bad), "<secret>ADMIN_PASSWORD</secret>"), text(bad))
    -- The flake gate and a Playwright run: minutes on a busy machine.
    s:send(client.call(900, "browser_export_test", { filename = "login", runs = 1 }))
    local export = assert(s:wait_for(900, 300000), "browser_export_test did not answer").result
    local answer = text(export)
    local raw_out, raw_err = read(s.dir .. "/out") or "", s:stderr()
    local rc = s:close(60000)
    assert.equal(0, rc)
    -- Not one byte of any answer, nor of the log, holds the value.
    assert.is_true(#raw_out > 1000)
    assert.is_nil(raw_out:find(PASSWORD, 1, true))
    assert.is_nil(raw_err:find(PASSWORD, 1, true))
    assert.is_true(has(raw_err, "--secrets: 1 secrets (ADMIN_PASSWORD)"), raw_err)
    -- The test reads it from the environment.
    local spec = assert(read(dir .. "/out/login.spec.ts"), answer)
    assert.is_nil(spec:find(PASSWORD, 1, true))
    assert.is_true(has(spec, "pressSequentially(process.env['ADMIN_PASSWORD'])")
      or has(spec, "fill(process.env['ADMIN_PASSWORD'])"), spec)
    assert.is_true(has(answer, "The test reads the secrets ADMIN_PASSWORD from process.env"), answer)
    if not pw then
      pending("Playwright is not installed here")
      return
    end
    -- Real Playwright, with the value in its environment, signs in.
    assert.is_true(has(answer, "Playwright (1 runs of the file): ✅ 1 passed"), answer)
    assert.equal(PASSWORD, logins[#logins])
  end)

  it("refuses a secrets file with a short value, naming its line", function()
    local f = write(dir .. "/short.env", "GOOD=long enough\nPIN=12\n")
    local _, _, err, rc = client.batch({}, "--secrets " .. q(f))
    assert.equal(2, rc)
    assert.is_true(has(err, "vdxlua mcp: --secrets: " .. f .. ":2: PIN: the value has 2 characters"), err)
  end)
end)

describe("vdxlua --secrets FLOW.lua", function()
  local dir, flow_file
  setup(function()
    dir = client.tmpdir()
    write(dir .. "/secrets.env", "ADMIN_PASSWORD=" .. PASSWORD .. "\n")
    -- The flow types the secret by vdx.secrets.value; with "fail" its last
    -- expectation fails on purpose, with the value in what it expected.
    flow_file = write(dir .. "/login_flow.lua", ([[
local vdx = require "vdx"
local flow = require "vdx.flow"
local srv = vdx.serve { root = %q, port = 0, routes = {
  ["GET /secrets/api/login"] = function(req)
    return { json = { ok = (req.query or ""):match("pw=([^&]*)") == vdx.secrets.value("ADMIN_PASSWORD") } }
  end } }
local status = flow.run({ name = "secret login", base_url = srv.url, timeout_ms = 5000 }, function(f)
  f:role("admin", { url = "/secrets/login.html" })
  f:as("admin", function(a)
    a:step("sign in", function()
      a:fill("textbox", "Password", vdx.secrets.value("ADMIN_PASSWORD"))
      a:click("button", "Sign in")
      a:expect_text("Welcome, admin")
      if arg[1] == "fail" then a:expect_text("Bye " .. vdx.secrets.value("ADMIN_PASSWORD"), { timeout_ms = 300 }) end
    end)
  end)
end)
srv:close()
return status
]]):format(io.popen("pwd"):read("l") .. "/spec/fixtures"))
  end)
  teardown(function()
    if dir then os.execute("rm -rf " .. q(dir)) end
  end)

  local function run(extra, arg1)
    return helpers.run(("%s --secrets %s %s %s %s 2>&1"):format(helpers.vdxlua, q(dir .. "/secrets.env"), q(flow_file),
      extra, arg1 or ""))
  end

  it("exports the typed secret as process.env", function()
    local out, st = run("--emit-playwright " .. q(dir .. "/login.spec.ts"))
    assert.equal(0, st, out)
    assert.is_nil(out:find(PASSWORD, 1, true), out)
    local spec = assert(read(dir .. "/login.spec.ts"), out)
    assert.is_nil(spec:find(PASSWORD, 1, true), spec)
    assert.is_true(has(spec, ".fill(process.env['ADMIN_PASSWORD'])"), spec)
  end)

  it("keeps the value out of stderr, the report and the trace of a failure", function()
    local out, st = run(("--report %s --trace %s"):format(q(dir .. "/report"), q(dir .. "/trace.json")), "fail")
    assert.is_true(st ~= 0, out)
    assert.is_true(has(out, "<secret>ADMIN_PASSWORD</secret>"), out)
    assert.is_nil(out:find(PASSWORD, 1, true), out)
    local html = assert(read(dir .. "/report/index.html"))
    assert.is_nil(html:find(PASSWORD, 1, true))
    assert.is_true(has(html, "&lt;secret&gt;ADMIN_PASSWORD&lt;/secret&gt;"), html)
    local trace = assert(read(dir .. "/trace.json"))
    assert.is_nil(trace:find(PASSWORD, 1, true))
    assert.is_true(has(trace, "ADMIN_PASSWORD"), trace)
  end)
end)
