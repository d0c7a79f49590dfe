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
end)
