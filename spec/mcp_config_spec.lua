--- examples/mcp.json is what a user pastes into an MCP client's config, so
-- it must work as it is: it parses, every auth file it names is one that
-- examples/save_auth.lua makes (the command docs/mcp.md gives), and the
-- server it starts signs each role in with that file against the demo app
-- on the URL it names (the port aside: the app runs here on a free one).
local vdx = require "vdx"
local cjson = require "cjson"
local h = require "helpers"

local q = h.quote
local CWD = os.getenv("PWD") or assert(h.run("pwd")):match("[^\n]+")
local VDXLUA = h.vdxlua:match("^/") and h.vdxlua or CWD .. "/" .. h.vdxlua

-- The roles examples/mcp.json declares: { {name, auth, url}… }, and its
-- server entry.
local function config()
  local text = assert(h.read("examples/mcp.json"), "examples/mcp.json is missing")
  local conf = cjson.decode(text)
  local server = conf.mcpServers.vdxlua
  local roles, args = {}, server.args
  for i, a in ipairs(args) do
    if a == "--role" then roles[#roles + 1] = { name = args[i + 1], auth = args[i + 2], url = args[i + 3] } end
  end
  return server, roles
end

-- Starts the demo app in a process of its own on a free port; returns its
-- pid and port.
local function start_app(dir)
  local out = dir .. "/serve.out"
  local pid = assert(h.run(("%s examples/marketplace/serve.lua 0 </dev/null >%s 2>&1 & echo $!")
    :format(q(VDXLUA), q(out))):match("%d+"))
  for _ = 1, 300 do
    local port = (h.read(out) or ""):match("shop:%s*http://shop%.test:(%d+)")
    if port then return pid, port end
    vdx.sleep(100)
  end
  error("the demo app did not start: " .. (h.read(out) or ""))
end

describe("examples/mcp.json", function()
  local dir, pid, made, made_rc

  -- The auth files, made as docs/mcp.md says, in a folder of their own
  -- (the MCP client's working folder, where the relative paths lead).
  setup(function()
    dir = h.run("mktemp -d"):match("[^\n]+")
    made, made_rc = h.run(("cd %s && %s %s/examples/save_auth.lua auth"):format(q(dir), q(VDXLUA), q(CWD)))
  end)

  teardown(function()
    if pid then h.run("kill " .. pid) end
    if dir then h.run("rm -rf " .. q(dir)) end
  end)

  it("starts vdxlua mcp (vdxlua on PATH) with roles that have auth files", function()
    local server, roles = config()
    assert.equal("vdxlua", server.command)
    assert.equal("mcp", server.args[1])
    assert.is_true(#roles >= 3)
    for _, r in ipairs(roles) do assert.matches("^auth/" .. r.name .. "%.json$", r.auth) end
  end)

  it("names auth files that the command docs/mcp.md gives makes", function()
    assert.matches("build/vdxlua examples/save_auth.lua auth", h.read("docs/mcp.md"), 1, true)
    assert.equal(0, made_rc, made)
    local _, roles = config()
    for _, r in ipairs(roles) do
      local state = require("vdx.roles").read_auth(dir .. "/" .. r.auth)
      assert.is_true(#state.cookies > 0, r.auth .. " holds no cookie")
    end
  end)

  it("signs every role in on the URL it names", function()
    local server, roles = config()
    local port
    pid, port = start_app(dir)
    local args = {}
    for i, a in ipairs(server.args) do args[i] = q((a:gsub(":8080/", ":" .. port .. "/"))) end
    local lines = { cjson.encode { jsonrpc = "2.0", id = 0, method = "initialize", params = {
      protocolVersion = "2025-06-18", capabilities = {}, clientInfo = { name = "spec", version = "1" } } } }
    for i, r in ipairs(roles) do
      lines[#lines + 1] = cjson.encode { jsonrpc = "2.0", id = 2 * i - 1, method = "tools/call",
        params = { name = "select_role", arguments = { role = r.name } } }
      lines[#lines + 1] = cjson.encode { jsonrpc = "2.0", id = 2 * i, method = "tools/call",
        params = { name = "browser_navigate", arguments = { url = (r.url:gsub(":8080/", ":" .. port .. "/")) } } }
    end
    local input = h.write(dir .. "/input", table.concat(lines, "\n") .. "\n")
    local out, rc = h.run(("(cd %s && %s %s < %s 2>/dev/null)"):format(q(dir), q(VDXLUA),
      table.concat(args, " "), q(input)))
    assert.equal(0, rc, out)
    local replies = {}
    for line in out:gmatch("[^\n]+") do
      local m = cjson.decode(line)
      if m.id then replies[m.id] = m end
    end
    for i, r in ipairs(roles) do
      local nav = replies[2 * i]
      assert.is_table(nav and nav.result, r.name .. ": " .. out)
      local text = nav.result.content[1].text
      assert.is_nil(nav.result.isError, text)
      -- Signed out, the app sends the role to its login page.
      assert.not_matches("sign in", text, 1, true)
      assert.matches("Navigated to " .. (r.url:gsub(":8080/", ":" .. port .. "/")), text, 1, true)
    end
  end)
end)
