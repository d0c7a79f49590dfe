--- spec/flow_remember_spec.lua: p:remember in a flow keeps a value the
-- app gives (an order number, new at each visit) for later steps of any
-- role, and the exported test reads it again in each run: the file passes
-- twice in a row against one app, which it cannot with the first run's
-- number written in.
local helpers = require "helpers"

local read, q = helpers.read, helpers.quote
local FLOW = "spec/fixtures/flow/remember.lua"

local function has(s, needle) return s:find(needle, 1, true) ~= nil end

describe("p:remember in a flow", function()
  local app, flow
  setup(function()
    package.path = "spec/fixtures/flow/?.lua;" .. package.path
    app = require("remember_app").start()
    flow = require "vdx.flow"
  end)
  teardown(function() if app then app:close() end end)

  -- Runs fn(f, buyer) as a flow on the app; returns status and the flow.
  local function run(fn)
    return flow.run({ name = "remember", base_url = app.url, quiet = true, timeout_ms = 3000 }, function(f)
      f:role("buyer", { url = "/order" })
      f:as("buyer", function(b) fn(f, b) end)
    end)
  end

  it("returns the value, keeps it by name and writes the test's read of it", function()
    local got, whole
    local status, f = run(function(fl, b)
      got = b:remember("order", { test_id = "confirmation" }, { pattern = "#\\d+" })
      whole = b:remember("line", { test_id = "confirmation" })
      b:expect_text(fl:remembered("order") .. " is confirmed")
    end)
    assert.equal(0, status, f.failure and f.failure.text)
    assert.matches("^#10%d%d$", got)
    assert.equal("Order " .. got .. " is confirmed", whole)
    assert.equal(got, f:remembered("order"))
    local text = require("vdx.flow_export").text(f)
    assert.is_true(has(text, "\n  let order = ''; // p:remember in the flow\n"), text)
    -- The test waits for the value before it reads it: a page that never
    -- shows one fails there, not later with an empty value.
    assert.is_true(has(text, "\n  await expect(buyer.getByTestId('confirmation')).toContainText(/#\\d+/);\n"
      .. "  order = /#\\d+/.exec(await buyer.getByTestId('confirmation').textContent() ?? '')?.[0] ?? '';\n"), text)
    assert.is_true(has(text, "\n  await expect(buyer.getByTestId('confirmation')).toContainText(/\\S/);\n"), text)
    assert.is_true(has(text, "\n  line = (await buyer.getByTestId('confirmation').textContent() ?? '').replace(/\\s+/g, ' ').trim();\n"),
      text)
    -- The longer value is written first: the line holds the order too.
    assert.is_true(has(text, "toContainText(`${order} is confirmed`)"), text)
    assert.is_nil(text:find(got, 1, true), text)
  end)

  it("refuses a name the test uses, a pattern that is no regex and a value too short, saying why", function()
    local cases = {
      { function(b) b:remember("page", { test_id = "confirmation" }) end, "name \"page\" is a word the test uses itself" },
      { function(b) b:remember("9x", { test_id = "confirmation" }) end, "name must be an identifier" },
      { function(b) b:remember("order", { test_id = "confirmation" }, { pattern = "(" }) end,
        "pattern /(/ is no JavaScript regular expression" },
      { function(b) b:remember("order", { test_id = "confirmation" }, { pattern = "\\d" }) end,
        "the value \"1\" is shorter than 3 characters" },
      { function(b) b:remember("order", { test_id = "confirmation" }, { pattern = "Z+", timeout_ms = 300 }) end,
        "has no match of /Z+/" },
    }
    for _, c in ipairs(cases) do
      local status, f = run(function(_, b) c[1](b) end)
      assert.equal(1, status, c[2])
      assert.is_true(has(f.failure.text, c[2]), f.failure.text)
    end
  end)
end)

describe("an exported flow with a remembered value", function()
  local dir, pw, pw_why, out, status

  lazy_setup(function()
    local r = helpers.export_flow(FLOW, "refund.spec.ts")
    dir, pw, pw_why, out, status = r.dir, r.pw, r.pw_why, r.out, r.status
  end)
  lazy_teardown(function() if dir then os.execute("rm -rf " .. q(dir)) end end)

  it("reads the value in each run: two runs against one app pass", function()
    assert.equal(0, status, out)
    local spec = read(dir .. "/out/refund.spec.ts")
    assert.is_true(has(spec, "await admin.getByRole('listitem').filter({ hasText: `${order} paid` })"
      .. ".getByRole('button', { name: 'Refund' }).click();"), spec)
    assert.is_true(has(spec, "toContainText(`Order ${order} refunded`)"), spec)
    if not pw then return pending(pw_why) end
    local cmd = assert(out:match("\nRun it with:\n  ([^\n]+)\n"), out)
    local res, st = helpers.run(("cd %s && timeout 300 sh -c %s"):format(q(dir .. "/elsewhere"),
      q(cmd .. " --repeat-each=2 --workers=1")))
    assert.equal(0, st, res)
    assert.matches("2 passed", res)
  end)
end)
