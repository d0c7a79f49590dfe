-- Where skills and tool files come from: the built-in skills are compiled
-- into vdxlua (and installed with it), nothing is loaded from the working
-- folder unless named, and a named file or folder that is missing stops
-- start-up.
local h = require "helpers"
local cjson = require "cjson"

local ROOT = h.run("pwd"):match("^(.-)%s*$")
local VDXLUA = ROOT .. "/" .. h.vdxlua

local q, read = h.quote, h.read

local function tmpdir()
  return (h.run("mktemp -d /tmp/vdx-skills-spec.XXXXXX"):match("^(.-)%s*$"))
end

local INIT = cjson.encode { jsonrpc = "2.0", id = 1, method = "initialize", params = {
  protocolVersion = "2025-06-18", capabilities = {}, clientInfo = { name = "spec", version = "1" } } }
local LISTS = INIT .. "\n" .. '{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n'
  .. '{"jsonrpc":"2.0","id":3,"method":"resources/list"}\n'

-- Runs `CMD` in folder cwd with the MCP lines on stdin; returns the
-- replies by id, stderr and the exit status.
local function serve(cwd, cmd, input)
  local dir = tmpdir()
  local f = assert(io.open(dir .. "/in", "wb"))
  f:write(input or LISTS)
  f:close()
  local _, rc = h.run(("(cd %s && %s < %s/in > %s/out 2> %s/err)"):format(q(cwd), cmd, dir, dir, dir))
  local by_id = {}
  for line in (read(dir .. "/out") or ""):gmatch("[^\n]+") do
    local m = cjson.decode(line)
    if m.id then by_id[m.id] = m end
  end
  local err = read(dir .. "/err") or ""
  os.execute("rm -rf " .. q(dir))
  return by_id, err, rc
end

local function names(reply, list, key)
  local out = {}
  for _, t in ipairs(reply.result[list]) do out[t[key]] = true end
  return out
end

describe("skills", function()
  it("never runs a tools.lua from the working folder, and serves the built-in skills from anywhere", function()
    local cwd = tmpdir()
    os.execute(("cp -r %s/spec/fixtures/skills_cwd/skills %s/"):format(q(ROOT), q(cwd)))
    local by_id, err, rc = serve(cwd, q(VDXLUA) .. " mcp")
    assert.is_nil(read(cwd .. "/PWNED"))
    os.execute("rm -rf " .. q(cwd))
    assert.equal(0, rc, err)
    local tools = names(by_id[2], "tools", "name")
    assert.is_nil(tools.evil_tool)
    assert.is_true(tools.read_file)
    assert.is_true(tools.find_test_ids)
    local uris = names(by_id[3], "resources", "uri")
    assert.is_true(uris["skill://vdx-selector-authoring/SKILL.md"])
    assert.is_true(uris["skill://vdx-selector-authoring/references/selector-patterns.md"])
    assert.is_true(uris["skill://workspace/SKILL.md"])
    assert.is_nil(uris["skill://evil/SKILL.md"])
    assert.matches("[info] skill vdx-selector-authoring (built in)\n", err, 1, true)
    assert.matches("[info] skill workspace (built in), with tools\n", err, 1, true)
  end)

  it("loads skills from a folder only when the user names it (--skills or VDX_SKILLS)", function()
    local dir = ROOT .. "/spec/fixtures/mcp/skills"
    local by_id, err = serve("/tmp", q(VDXLUA) .. " mcp --no-default-skills --skills " .. q(dir))
    assert.same({ ["skill://demo-skill/SKILL.md"] = true, ["skill://demo-skill/references/patterns.md"] = true },
      names(by_id[3], "resources", "uri"))
    assert.matches("skill demo-skill (" .. dir .. "), with tools", err, 1, true)
    by_id, err = serve("/tmp", "VDX_SKILLS=" .. q(dir .. ":/no/such/skills") .. " " .. q(VDXLUA)
      .. " mcp --no-default-skills")
    assert.same({ ["skill://demo-skill/SKILL.md"] = true, ["skill://demo-skill/references/patterns.md"] = true },
      names(by_id[3], "resources", "uri"))
    assert.matches("[warn] VDX_SKILLS names /no/such/skills, which is not a folder; skipped", err, 1, true)
  end)

  it("stops with status 2 when a named tool file or skill folder is missing", function()
    local _, err, rc = serve("/tmp", q(VDXLUA) .. " mcp --tools /no/such/tools.lua")
    assert.equal(2, rc)
    assert.equal("vdxlua mcp: --tools /no/such/tools.lua: no such file\n", err)
    _, err, rc = serve("/tmp", q(VDXLUA) .. " mcp --skills /no/such/skills")
    assert.equal(2, rc)
    assert.equal("vdxlua mcp: --skills /no/such/skills: no such folder\n", err)
  end)

  it("warns when a tool file replaces a built-in tool", function()
    local f = ROOT .. "/spec/fixtures/mcp/tools_replace.lua"
    local by_id, err, rc = serve("/tmp", q(VDXLUA) .. " mcp --no-default-skills --tools " .. q(f))
    assert.equal(0, rc)
    assert.matches("[warn] " .. f .. " replaces the built-in tool browser_navigate\n", err, 1, true)
    local navigate
    for _, t in ipairs(by_id[2].result.tools) do
      if t.name == "browser_navigate" then navigate = t end
    end
    assert.is_table(navigate, "tools/list has no browser_navigate")
    assert.equal("A replacement navigate for the specs.", navigate.description)
  end)

  it("refuses --role-endpoint for a role that was not declared", function()
    local _, err, rc = serve("/tmp", q(VDXLUA) .. " mcp --role-endpoint ghost ws://127.0.0.1:9/x")
    assert.equal(2, rc)
    assert.matches("there is no role 'ghost'", err, 1, true)
    assert.matches("declare it with --role NAME AUTH_FILE first", err, 1, true)
  end)

  it("prints vdxlua mcp --help on stdout", function()
    local dir = tmpdir()
    local _, rc = h.run(q(VDXLUA) .. " mcp --help > " .. dir .. "/out 2> " .. dir .. "/err")
    local out, err = read(dir .. "/out"), read(dir .. "/err")
    os.execute("rm -rf " .. q(dir))
    assert.equal(0, rc)
    assert.matches("^usage: vdxlua mcp %[OPTIONS%]", out)
    assert.equal("", err)
  end)

  local installable = os.getenv("VDX_ASAN") == nil and (os.getenv("VDX_BUILD") or "build") == "build"
  ;(installable and it or pending)("works as examples/mcp.json says after make install into a prefix", function()
    local prefix, cwd = tmpdir(), tmpdir()
    local out, rc = h.run(("make -s --no-print-directory install INST_LIBDIR=%s/lib INST_LUADIR=%s/share "
      .. "INST_BINDIR=%s/bin"):format(prefix, prefix, prefix))
    assert.equal(0, rc, out)
    -- The client's view: the command and arguments of examples/mcp.json,
    -- with the install's bin folder on PATH, started in an unrelated folder.
    local server = cjson.decode(read(ROOT .. "/examples/mcp.json")).mcpServers.vdxlua
    local cmd = { "env", "PATH=" .. q(prefix .. "/bin:/usr/bin:/bin") }
    for k, v in pairs(server.env or {}) do cmd[#cmd + 1] = k .. "=" .. q(v) end
    cmd[#cmd + 1] = q(server.command)
    for _, a in ipairs(server.args) do cmd[#cmd + 1] = q(a) end
    local by_id, err, src = serve(cwd, table.concat(cmd, " "))
    assert.equal(0, src, err)
    assert.is_true(names(by_id[2], "tools", "name").read_file)
    assert.is_true(names(by_id[3], "resources", "uri")["skill://vdx-selector-authoring/SKILL.md"])
    -- Stock lua5.4 finds the same skills in the installed modules.
    local lout, lrc = h.run(("cd %s && LUA_PATH=%s LUA_CPATH=%s lua5.4 -e %s"):format(q(cwd),
      q(prefix .. "/share/?.lua"), q(prefix .. "/lib/?.so"),
      q("local l = require('vdx.skills').load_builtin() io.write(#l, ' ', l[1].name, ' ', l[2].name)")))
    os.execute("rm -rf " .. q(prefix) .. " " .. q(cwd))
    assert.equal(0, lrc, lout)
    assert.equal("2 vdx-selector-authoring workspace", lout)
  end)
end)
