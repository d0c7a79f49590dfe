--- spec/readers_spec.lua: every file `vdxlua mcp` reads for a client is
-- read without blocking, so a FIFO in place of a SKILL.md, a skill
-- reference or a --tools file gives a clear error and the server keeps
-- answering ping (one as --config, a clear error at start); a tools file whose top level loops fails to reload and
-- the old tools keep serving; a deleted tools file's tools go, with
-- list_changed; an upload of a FIFO, a folder or a hard link is refused.
-- (Issue 28, items 7 and 9.)
local client = require "mcp_client"
local helpers = require "helpers"

local q = client.q

local function write(path, text)
  local f = assert(io.open(path, "wb"))
  f:write(text)
  f:close()
end

local function tmpdir()
  return (helpers.run("mktemp -d /tmp/vdx-readers-spec.XXXXXX"):match("^(.-)%s*$"))
end

-- Opens each FIFO for writing (for at most 2 s) so that a reader stuck on
-- one, as before the fix, is let go and the spec's server can end.
local function free_fifos(dir)
  os.execute(("for f in $(find %s -type p 2>/dev/null); do timeout 2 sh -c \": > \\\"$f\\\"\" & done; wait")
    :format(q(dir)))
end

-- Ends the server processes whose command line names dir (a folder made
-- for one test), by their ids: a server spinning in a loop, as before the
-- fix, would never end by itself.
local function end_servers(dir)
  local p = io.popen("pgrep -f -- " .. q("mcp .*" .. dir))
  for pid in p:lines() do os.execute("kill -9 " .. pid) end
  p:close()
end

local function start(args)
  local s = client.start(args)
  s:send(client.initialize(1, "2025-11-25"))
  s:send { jsonrpc = "2.0", method = "notifications/initialized" }
  return s
end

local function ping(s, id)
  s:send { jsonrpc = "2.0", id = id, method = "ping" }
  return s:wait_for(id, 10000)
end

local function tool_names(msg)
  local out = {}
  for _, t in ipairs(msg.result.tools) do out[t.name] = true end
  return out
end

local function skill(dir, name)
  os.execute("mkdir -p " .. q(dir .. "/" .. name .. "/references"))
  write(dir .. "/" .. name .. "/SKILL.md", ("---\nname: %s\ndescription: A skill of the readers spec.\n---\nBody.\n")
    :format(name))
end

describe("vdxlua mcp readers", function()
  local dir

  before_each(function() dir = tmpdir() end)
  after_each(function()
    free_fifos(dir)
    end_servers(dir)
    os.execute("rm -rf " .. q(dir))
  end)

  it("reports a FIFO in place of a SKILL.md and keeps answering", function()
    skill(dir, "good")
    os.execute("mkdir -p " .. q(dir .. "/stuck") .. " && mkfifo " .. q(dir .. "/stuck/SKILL.md"))
    local s = start("--skills " .. q(dir))
    assert.is_table(s:wait_for(1, 10000), "initialize did not answer")
    assert.same({}, ping(s, 2).result)
    s:send { jsonrpc = "2.0", id = 3, method = "resources/list" }
    local uris = {}
    for _, r in ipairs(s:wait_for(3, 10000).result.resources) do uris[#uris + 1] = r.uri end
    assert.same({ "skill://good/SKILL.md" }, uris)
    assert.matches("stuck/SKILL.md: not a regular file (a FIFO, socket or device cannot be read)", s:stderr(), 1, true)
    assert.equal(0, s:close(20000))
  end)

  it("answers a read of a FIFO reference at once with why, and keeps answering", function()
    skill(dir, "refs")
    write(dir .. "/refs/references/fine.md", "# Fine\n")
    os.execute("mkfifo " .. q(dir .. "/refs/references/pipe.md"))
    local s = start("--skills " .. q(dir))
    assert.is_table(s:wait_for(1, 10000))
    s:send { jsonrpc = "2.0", id = 2, method = "resources/read", params = { uri = "skill://refs/references/pipe.md" } }
    local r = s:wait_for(2, 10000)
    assert.is_table(r, "resources/read of a FIFO did not answer")
    assert.matches("not a regular file", r.error.message, 1, true)
    assert.same({}, ping(s, 3).result)
    s:send { jsonrpc = "2.0", id = 4, method = "resources/read", params = { uri = "skill://refs/references/fine.md" } }
    assert.equal("# Fine\n", s:wait_for(4, 10000).result.contents[1].text)
    assert.equal(0, s:close(20000))
  end)

  it("reports a FIFO given as --tools and serves the other tool files", function()
    os.execute("mkfifo " .. q(dir .. "/tools.lua"))
    write(dir .. "/other.lua", [[register { name = "other_tool", description = "x", run = function() return "ok" end }]])
    local s = start("--no-watch --tools " .. q(dir .. "/tools.lua") .. " --tools " .. q(dir .. "/other.lua"))
    assert.is_table(s:wait_for(1, 10000), "initialize did not answer")
    assert.same({}, ping(s, 2).result)
    s:send(client.call(3, "other_tool", {}))
    assert.equal("ok", client.text(s:wait_for(3, 10000)))
    assert.matches("cannot load tool file " .. dir .. "/tools.lua", s:stderr(), 1, true)
    assert.matches("not a regular file", s:stderr(), 1, true)
    assert.equal(0, s:close(20000))
  end)

  it("reports a FIFO given as --config at once instead of waiting for a writer", function()
    os.execute("mkfifo " .. q(dir .. "/config.lua"))
    local _, _, err, rc = client.batch({ client.initialize(1, "2025-06-18") }, "--config " .. q(dir .. "/config.lua"),
      20000)
    assert.equal(2, rc, err)
    assert.matches("--config " .. dir .. "/config.lua: " .. dir .. "/config.lua: not a regular file", err, 1, true)
  end)

  it("keeps the old tools serving when a reloaded tools file loops forever", function()
    local file = dir .. "/t.lua"
    write(file, [[register { name = "steady", description = "x", run = function() return "still here" end }]])
    local s = start("--tools " .. q(file))
    assert.is_table(s:wait_for(1, 10000))
    write(file, "local n = 0\nwhile true do n = n + 1 pcall(function() while true do end end) end\n")
    assert.is_truthy(client.wait_until(function()
      return s:stderr():find("reloading " .. file .. " failed; the previous version keeps serving", 1, true)
    end, 20000), "the loop was not reported: " .. s:stderr())
    assert.matches("instructions while loading (an endless loop?)", s:stderr(), 1, true)
    assert.same({}, ping(s, 2).result)
    s:send(client.call(3, "steady", {}))
    assert.equal("still here", client.text(s:wait_for(3, 10000)))
    assert.equal(0, s:close(20000))
  end)

  it("unregisters a deleted tools file's tools and says so with list_changed", function()
    local file = dir .. "/gone.lua"
    write(file, [[register { name = "soon_gone", description = "x", run = function() return "here" end }]])
    local s = start("--tools " .. q(file))
    assert.is_table(s:wait_for(1, 10000))
    s:send { jsonrpc = "2.0", id = 2, method = "tools/list" }
    assert.is_true(tool_names(s:wait_for(2)).soon_gone)
    os.remove(file)
    assert.is_table(s:wait_for(function(m) return m.method == "notifications/tools/list_changed" end, 20000),
      "no list_changed after the file was deleted")
    s:send { jsonrpc = "2.0", id = 3, method = "tools/list" }
    assert.is_nil(tool_names(s:wait_for(3)).soon_gone)
    s:send(client.call(4, "soon_gone", {}))
    local r = s:wait_for(4, 10000)
    assert.is_true((r.result and r.result.isError) or r.error ~= nil)
    -- Back again, it serves again.
    write(file, [[register { name = "soon_gone", description = "x", run = function() return "back" end }]])
    assert.is_truthy(client.wait_until(function()
      local n = 0
      for _, m in ipairs(s:messages()) do
        if m.method == "notifications/tools/list_changed" then n = n + 1 end
      end
      return n >= 2
    end, 20000))
    s:send(client.call(5, "soon_gone", {}))
    assert.equal("back", client.text(s:wait_for(5, 10000)))
    assert.equal(0, s:close(20000))
  end)
end)

describe("browser_file_upload", function()
  local srv, dir

  setup(function()
    srv = helpers.serve {}
    dir = tmpdir()
    os.execute(("mkdir -p %s/ws/folder %s/outside && mkfifo %s/ws/pipe"):format(q(dir), q(dir), q(dir)))
    write(dir .. "/outside/secret.txt", "outside-secret\n")
    write(dir .. "/ws/ok.txt", "fine\n")
    os.execute(("ln %s/outside/secret.txt %s/ws/hard.txt"):format(q(dir), q(dir)))
  end)

  teardown(function()
    free_fifos(dir)
    end_servers(dir)
    os.execute("rm -rf " .. q(dir))
    srv:close()
  end)

  local function session(args)
    local lines = { client.initialize(1, "2025-06-18"),
      client.call(2, "browser_navigate", { url = srv.url .. "/actions/form.html" }) }
    local uploads = { dir .. "/ws/pipe", dir .. "/ws/folder", dir .. "/ws/hard.txt", dir .. "/ws/ok.txt" }
    for i, p in ipairs(uploads) do lines[#lines + 1] = client.call(2 + i, "browser_file_upload",
      { element = "Avatar", paths = { p } }) end
    lines[#lines + 1] = client.call(7, "browser_evaluate",
      { ["function"] = "() => [...document.querySelector('#avatar').files].map(f => f.name + ':' + f.size)" })
    lines[#lines + 1] = { jsonrpc = "2.0", id = 8, method = "ping" }
    local msgs, _, err, rc = client.batch(lines, args, 60000)
    assert.equal(0, rc, err)
    return msgs
  end

  for _, args in ipairs { "", "--workspace " } do
    it("refuses a FIFO, a folder and a hard link" .. (args == "" and "" or " inside the workspace"), function()
      local msgs = session(args == "" and "" or args .. q(dir .. "/ws"))
      local want = { "not a regular file", "not a regular file", "more than one hard link" }
      for i = 1, 3 do
        local r = client.by_id(msgs, 2 + i)
        assert.is_true(r.result.isError, "upload " .. i .. ": " .. client.text(r))
        assert.matches(want[i], client.text(r), 1, true)
        assert.matches("^❌ A file or folder on the way is not safe to use\n", client.text(r))
      end
      assert.is_nil(client.by_id(msgs, 6).result.isError, client.text(client.by_id(msgs, 6)))
      assert.equal('Result: ["ok.txt:5"]', client.text(client.by_id(msgs, 7)))
      assert.same({}, client.by_id(msgs, 8).result)
      -- The browser's private copies are gone with the server.
      local tmp = os.getenv("TMPDIR") or "/tmp"
      local left = helpers.run("find " .. q(tmp) .. " -maxdepth 1 -name 'vdx-uploads.*'")
      assert.equal("", left)
    end)
  end
end)
