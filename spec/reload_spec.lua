-- Hot reload in `vdxlua mcp`: a changed tool file is loaded again and the
-- client is told (list_changed), a broken edit keeps the previous version
-- serving, new skills appear as resources and prompts, --no-watch turns it
-- off.  The loop keeps turning while the spec waits (client.wait_until).
local h = require "helpers"
local client = require "mcp_client"

local q = h.quote

local function write(path, text)
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
end

local function tool_file(name, reply)
  return ([[register { name = %q, description = "A tool for the reload spec.",
  run = function() return %q end }
]]):format(name, reply)
end

local function tmpdir()
  return (h.run("mktemp -d /tmp/vdx-reload-spec.XXXXXX"):match("^(.-)%s*$"))
end

local function names(msg)
  local out = {}
  for _, t in ipairs(msg.result.tools) do out[t.name] = true end
  return out
end

local function count(session, method)
  local n = 0
  for _, m in ipairs(session:messages()) do if m.method == method then n = n + 1 end end
  return n
end

local function start(args)
  local s = client.start(args)
  s:send(client.initialize(1, "2025-11-25"))
  assert.is_table(s:wait_for(1))
  s:send { jsonrpc = "2.0", method = "notifications/initialized" }
  return s
end

describe("hot reload", function()
  it("reloads a changed tool file, tells the client, and keeps the last good version on error", function()
    local dir = tmpdir()
    local file = dir .. "/my_tools.lua"
    write(file, tool_file("greet_v1", "hello one"))
    local s = start("--tools " .. q(file))
    assert.matches("watching 1 tool files and 0 skill folders", s:stderr(), 1, true)
    s:send { jsonrpc = "2.0", id = 2, method = "tools/list" }
    assert.is_true(names(s:wait_for(2)).greet_v1)

    write(file, tool_file("greet_v2", "hello two"))
    assert.is_table(s:wait_for(function(m) return m.method == "notifications/tools/list_changed" end))
    s:send { jsonrpc = "2.0", id = 3, method = "tools/list" }
    local now = names(s:wait_for(3))
    assert.is_true(now.greet_v2)
    assert.is_nil(now.greet_v1)
    s:send(client.call(4, "greet_v2", {}))
    assert.equal("hello two", client.text(s:wait_for(4)))

    write(file, "register { name = 'broken',\n")
    assert.is_truthy(client.wait_until(function()
      return s:stderr():find("reloading " .. file .. " failed; the previous version keeps serving", 1, true)
    end))
    s:send(client.call(5, "greet_v2", {}))
    assert.equal("hello two", client.text(s:wait_for(5)))
    assert.equal(1, count(s, "notifications/tools/list_changed"))
    local rc = s:close()
    os.execute("rm -rf " .. q(dir))
    assert.equal(0, rc)
  end)

  it("serves a skill added to a --skills folder, with its tools", function()
    local dir = tmpdir()
    os.execute("mkdir -p " .. q(dir .. "/skills"))
    local s = start("--skills " .. q(dir .. "/skills"))
    s:send { jsonrpc = "2.0", id = 2, method = "resources/list" }
    assert.same({}, s:wait_for(2).result.resources)
    os.execute("mkdir -p " .. q(dir .. "/skills/late"))
    write(dir .. "/skills/late/tools.lua", tool_file("late_skill_tool", "late"))
    write(dir .. "/skills/late/SKILL.md", "---\nname: late\ndescription: Added while serving.\n---\n# Late\n")
    assert.is_table(s:wait_for(function(m) return m.method == "notifications/prompts/list_changed" end))
    assert.is_table(s:wait_for(function(m) return m.method == "notifications/resources/list_changed" end))
    assert.is_table(s:wait_for(function(m) return m.method == "notifications/tools/list_changed" end))
    s:send { jsonrpc = "2.0", id = 3, method = "resources/list" }
    assert.equal("skill://late/SKILL.md", s:wait_for(3).result.resources[1].uri)
    s:send(client.call(4, "late_skill_tool", {}))
    assert.equal("late", client.text(s:wait_for(4)))
    s:close()
    os.execute("rm -rf " .. q(dir))
  end)

  it("does not watch with --no-watch", function()
    local dir = tmpdir()
    local file = dir .. "/my_tools.lua"
    write(file, tool_file("greet_v1", "hello one"))
    local s = start("--no-watch --tools " .. q(file))
    write(file, tool_file("greet_v2", "hello two"))
    -- A later request is answered from the unchanged registry.
    s:send { jsonrpc = "2.0", id = 2, method = "tools/list" }
    local now = names(s:wait_for(2))
    local err = s:stderr()
    local _, msgs = s:close()
    assert.matches("loaded 1 tools from " .. file, err, 1, true)
    assert.not_matches("watching", err)
    os.execute("rm -rf " .. q(dir))
    assert.is_true(now.greet_v1)
    assert.is_nil(now.greet_v2)
    for _, m in ipairs(msgs) do assert.is_nil(m.method) end
  end)
end)
