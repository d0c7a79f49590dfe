--- A client may send its requests without waiting for each answer: tool
-- calls then run one at a time in the order they came, and each acts in
-- the role current when its turn comes, so a call sent after select_role
-- acts in the role it selected even while select_role was still queued
-- behind a slow first call (the browser's launch).
local cjson = require "cjson"
local helpers = require "helpers"
local client = require "mcp_client"

describe("vdxlua mcp with requests sent ahead of their answers", function()
  local srv, dir

  setup(function()
    srv = helpers.serve { ["GET /whoami"] = function(req)
      return "<title>whoami</title><p>sid " .. (req.cookies and req.cookies.sid or "nobody") .. "</p>"
    end, ["GET /whoami-heading"] = function(req)
      return "<title>whoami</title><h1>sid " .. (req.cookies and req.cookies.sid or "nobody") .. "</h1>"
    end }
    dir = client.tmpdir()
  end)

  teardown(function()
    srv:close()
    os.execute("rm -rf " .. client.q(dir))
  end)

  it("runs each call in the role selected before it", function()
    local function auth(name)
      return helpers.write(dir .. "/" .. name .. ".json", cjson.encode { cookies = { { name = "sid", value = name,
        domain = "127.0.0.1", path = "/", expires = -1, httpOnly = true, secure = false, sameSite = "Lax" } },
        origins = {} })
    end
    local who = srv.url .. "/whoami"
    local call = function(id, name, args) return client.call(id, name, args) end
    local msgs, out, err, rc = client.batch({
      client.initialize(1, "2025-06-18"),
      call(2, "browser_navigate", { url = who }),
      call(3, "browser_snapshot", {}),
      call(4, "select_role", { role = "bob" }),
      call(5, "browser_navigate", { url = who }),
      call(6, "browser_snapshot", {}),
      call(7, "select_role", { role = "alice" }),
      call(8, "browser_snapshot", {}),
    }, ("--role alice %s %s --role bob %s %s"):format(auth("alice"), who, auth("bob"), who))
    assert.equal(0, rc, err)
    local by_id = {}
    for _, m in ipairs(msgs) do if m.id then by_id[m.id] = m end end
    local function text(id)
      assert.is_table(by_id[id] and by_id[id].result, out)
      return by_id[id].result.content[1].text
    end
    assert.matches("Role: alice\n", text(3), 1, true)
    assert.matches("sid alice", text(3), 1, true)
    assert.matches("Role: bob\n", text(6), 1, true)
    assert.matches("sid bob", text(6), 1, true)
    assert.matches("Role: alice\n", text(8), 1, true)
    assert.matches("sid alice", text(8), 1, true)
  end)

  it("runs a navigate queued behind a wait and a select_role in the role it selected (issue 28's sequence)", function()
    -- The exact sequence of the report: a call that keeps the server busy
    -- (browser_wait_for time=2), then select_role and browser_navigate
    -- sent without waiting.  The navigate's own answer outlines the
    -- page's heading, which names the cookie it was served with.
    local function auth(name)
      return helpers.write(dir .. "/" .. name .. ".json", cjson.encode { cookies = { { name = "sid", value = name,
        domain = "127.0.0.1", path = "/", expires = -1, httpOnly = true, secure = false, sameSite = "Lax" } },
        origins = {} })
    end
    local who = srv.url .. "/whoami-heading"
    local msgs, out, err, rc = client.batch({
      client.initialize(1, "2025-06-18"),
      client.call(2, "browser_wait_for", { time = 2 }),
      client.call(3, "select_role", { role = "second" }),
      client.call(4, "browser_navigate", { url = who }),
      client.call(5, "browser_snapshot", {}),
    }, ("--role first %s --role second %s"):format(auth("first"), auth("second")))
    assert.equal(0, rc, err)
    local function text(id)
      local m = client.by_id(msgs, id)
      assert.is_table(m and m.result, out)
      return client.text(m)
    end
    assert.matches('heading "sid second"', text(4), 1, true)
    assert.not_matches("sid first", text(4), 1, true)
    assert.matches("Role: second\n", text(5), 1, true)
    assert.matches("sid second", text(5), 1, true)
  end)
end)
