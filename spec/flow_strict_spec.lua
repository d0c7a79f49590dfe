-- Flows as a QA engineer meets them: a failing flow fails the program
-- (with an in-process server kept alive through a tail call), failure
-- text written for a flow author, strict options everywhere, numbered
-- screenshots.
local h = require "helpers"
local vdx = require "vdx"

local q, read = h.quote, h.read

local PAGE = '<title>Shop</title><h1>Hello shop</h1><div data-testid="card"><h2>Tea</h2><button>Buy</button>'
  .. '</div><div data-testid="other"><h2>Cake</h2><button>Buy</button></div>'

-- Writes a flow script with the given body (after a server and flow.run
-- prologue) into a temporary folder; returns its path and the folder.
local function script(body, tail)
  local dir = h.run("mktemp -d /tmp/vdx-flow-strict.XXXXXX"):match("^(.-)%s*$")
  local path = dir .. "/shop_flow.lua"
  local f = assert(io.open(path, "w"))
  f:write(([[
local vdx = require "vdx"
local flow = require "vdx.flow"
local srv = assert(vdx.serve { routes = { ["GET /"] = function() return { body = %q } end } })
%s flow.run({ base_url = srv.url, timeout_ms = 4000, artifacts = %q }, function(f)
  f:role("customer", { url = "/" })
  f:as("customer", function(p)
%s
  end)
end)
%s
]]):format(PAGE, tail and "" or "return", dir .. "/artifacts", body, tail or ""))
  f:close()
  return path, dir
end

local function run(body, tail, flags)
  local path, dir = script(body, tail)
  local out, rc = h.run(h.vdxlua .. " " .. q(path) .. " " .. (flags or ""))
  return out, rc, dir, path
end

describe("flows #flow", function()
  it("exit 1 on failure through `return flow.run(…)` with an in-process server", function()
    -- The collector runs before the page is loaded again: the server that
    -- only the tail-called chunk referred to must still answer.
    local out, rc, dir = run([[    collectgarbage() collectgarbage() p:navigate("/")
    p:step("buy", function() p:click("button", "Buy", { within = "card" }) end)
    p:expect_text("Hello shop")
    p:expect_text("Goodbye")]])
    os.execute("rm -rf " .. q(dir))
    assert.equal(1, rc, out)
    -- The page loaded and the click ran: the server outlived the tail call.
    assert.matches("✓ [customer] buy", out, 1, true)
    assert.not_matches("ERR_CONNECTION_REFUSED", out)
    assert.matches("Message: the page does not show \"Goodbye\" after 4000 ms; the page shows " ..
      "\"Hello shop Tea Buy Cake Buy\"", out, 1, true)
  end)

  it("exit 1 on failure even when the script returns 0", function()
    local out, rc, dir = run([[    p:expect_text("Goodbye")]], "return 0")
    os.execute("rm -rf " .. q(dir))
    assert.equal(1, rc, out)
  end)

  it("shows the flow's file:line, a snapshot excerpt and no agent advice", function()
    local out, rc, dir, path = run([[    p:step("buy", function()
      p:click("button", "Checkout")
    end)]])
    os.execute("rm -rf " .. q(dir))
    assert.equal(1, rc)
    -- Line 8 of the script is the p:click call.
    assert.matches("❌ No element matches the target\nStep: buy\nFlow: " .. path .. ":8\n", out, 1, true)
    assert.matches("Snapshot excerpt:\n  - button \"Buy\" [ref=e2]\n  - button \"Buy\" [ref=e4]\n", out, 1, true)
    assert.not_matches("browser_snapshot", out)
    assert.not_matches("vdxlua mcp", out)
    assert.not_matches("bug in vdxlua", out)
  end)

  it("refuses an unknown option of an action, naming it and the known ones", function()
    local out, rc, dir = run([[    p:click("button", "Buy", { withn = "card" })]])
    os.execute("rm -rf " .. q(dir))
    assert.equal(1, rc)
    assert.matches("❌ Invalid argument\n", out, 1, true)
    assert.matches("Message: click: unknown option 'withn' (known: exact, frame, nth, timeout_ms, within)",
      out, 1, true)
  end)

  it("refuses unknown keys of a target, expectation and navigate options", function()
    local out = run([[    p:click({ role = "button", nmae = "Buy" })]])
    assert.matches("click target: unknown option 'nmae'", out, 1, true)
    out = run([[    p:expect_text("Hello", { timeout = 5 })]])
    assert.matches("expect_text: unknown option 'timeout' (known: frame, timeout_ms, within)", out, 1, true)
    out = run([[    p:navigate(42)]])
    assert.matches("Message: navigate: url must be a string, got number", out, 1, true)
  end)

  it("refuses a misspelt command-line flag with status 2", function()
    local out, rc, dir = run([[    p:expect_text("Hello shop")]], nil, "--reprot out")
    os.execute("rm -rf " .. q(dir))
    assert.equal(2, rc)
    assert.matches("vdxlua: unknown option '--reprot' (did you mean --report?) (flow options: --cacert, "
      .. "--emit-playwright, --endpoint, --executable, --headed, --header, --insecure, --max-sessions, --pool-wait, --report, --retries, "
      .. "--secrets, --serve-only, --slow-mo, --trace); a script's own dashed arguments go "
      .. "after --: vdxlua FILE.lua [OPTIONS] -- --reprot\n", out, 1, true)
    -- A script's own arguments: plain ones anywhere, dashed ones after --.
    local path, dir2 = script([[    p:expect_text("Hello shop")]], "print('own:', arg[1], arg[2], arg[3])")
    out, rc = h.run(h.vdxlua .. " " .. q(path) .. " plain -- --check --reprot")
    assert.equal(0, rc, out)
    assert.matches("own:\tplain\t--check\t--reprot\n", out, 1, true)
    -- A dashed argument before -- that is no flow flag, near one or not, is refused.
    out, rc = h.run(h.vdxlua .. " " .. q(path) .. " --check")
    os.execute("rm -rf " .. q(dir2))
    assert.equal(2, rc, out)
    assert.matches("vdxlua: unknown option '--check' (flow options: ", out, 1, true)
  end)

  it("says that --emit-playwright wrote nothing for a failed flow, and why", function()
    local out, rc, dir = run([[    p:step("look", function() p:expect_text("Goodbye") end)]], nil,
      "--emit-playwright out.spec.ts")
    local written = read("out.spec.ts")
    os.execute("rm -rf " .. q(dir))
    assert.equal(1, rc)
    assert.is_nil(written)
    assert.matches("vdx.flow: wrote nothing to out.spec.ts: the flow failed at step \"look\", and a spec is only "
      .. "written from a run that passed (its locators are the ones that matched); fix the flow and run it again\n",
      out, 1, true)
  end)

  it("numbers report screenshots without repeats or gaps (nested steps too)", function()
    local path, dir = script([[    p:step("outer", function()
      p:step("inner one", function() p:expect_text("Hello shop") end)
      p:step("inner two", function() p:expect_text("Tea") end)
    end)
    p:step("last", function() p:expect_text("Cake") end)]])
    local out, rc = h.run(h.vdxlua .. " " .. q(path) .. " --report " .. q(dir .. "/report"))
    local names = h.run("ls " .. q(dir .. "/report/shots"))
    os.execute("rm -rf " .. q(dir))
    assert.equal(0, rc, out)
    assert.equal("001-customer.png\n002-customer.png\n003-customer.png\n004-customer.png\n", names)
  end)
end)

describe("strict options of the flow object", function()
  it("refuses an unknown key of f:role and of flow.run", function()
    local flow = require "vdx.flow"
    local status, f = flow.run({ quiet = true }, function(f) f:role("customer", { urll = "/shop" }) end)
    assert.equal(1, status)
    -- The known keys include page:emulate's (a role's emulation).
    assert.matches("f:role: unknown key 'urll' (known: auth, auth_required, color_scheme, device, "
      .. "device_scale_factor, endpoint, forced_colors, geolocation, has_touch, is_mobile, locale, media, "
      .. "reduced_motion, timezone, url, user_agent, viewport)",
      f.failure.error.message, 1, true)
    local ok, err = pcall(flow.run, { bsae_url = "x" }, function() end)
    assert.is_false(ok)
    assert.is_true(vdx.is_error(err, "InvalidArgument"), tostring(err))
    assert.matches("flow.run: unknown option 'bsae_url' (known: artifacts, base_url,", tostring(err), 1, true)
  end)
end)

describe("strict options in the core", function()
  it("refuses a launch option of the wrong type", function()
    local ok, err = pcall(vdx.launch, { headless = "yes" })
    assert.is_false(ok)
    assert.matches("option 'headless' must be a boolean, got string", err, 1, true)
  end)

  it("says url must be a string for page:navigate(42)", function()
    local b <close> = vdx.launch()
    local p = b:new_page()
    local ok, err = pcall(p.navigate, p, 42)
    assert.is_false(ok)
    assert.matches("url must be a string", err, 1, true)
  end)
end)
