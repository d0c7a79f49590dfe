--- spec/install_spec.lua: `make install` as a user runs it.  The build is
-- installed into temporary prefixes, and what was installed is run the
-- way a user would: from another folder (the build tree out of reach,
-- LUA_PATH and LUA_CPATH unset) a flow with vdxlua, `vdxlua mcp` with
-- its built-in skill, and `require "vdx"` from a stock lua5.4 given the
-- paths docs/install.md tells a user to set.  Then staging under DESTDIR,
-- the INST_* folders luarocks passes, uninstall, the lua-cjson check and
-- `luarocks make` with the rockspec, which must print no false warning.
local helpers = require "helpers"
local client = require "mcp_client"

local q = helpers.quote
local B = os.getenv("VDX_BUILD") or "build"

local function trim(s) return (s:gsub("%s+$", "")) end

local REPO = trim((helpers.run("pwd")))
-- What a user's shell would not have: the test runner's module paths.
local CLEAN = "env -u LUA_PATH -u LUA_CPATH -u LUA_PATH_5_4 -u LUA_CPATH_5_4 -u VDX_BUILD "

local function tmpdir()
  return trim((helpers.run("mktemp -d /tmp/vdx-install-spec.XXXXXX")))
end

--- Runs make in the repository with the given variables; returns its
-- output and exit status.
local function make(vars)
  return helpers.run("env -u PREFIX -u DESTDIR -u INST_LIBDIR -u INST_LUADIR -u INST_BINDIR "
    .. "make --no-print-directory -C " .. q(REPO) .. " B=" .. q(B) .. " " .. vars)
end

--- The files under dir, relative to it, sorted.
local function files(dir)
  local out = helpers.run("cd " .. q(dir) .. " && find . -type f | sed 's|^\\./||' | LC_ALL=C sort")
  local list = {}
  for l in out:gmatch("[^\n]+") do list[#list + 1] = l end
  return list
end

--- True (after marking the test pending, saying why) in the sanitizer run.
local function pending_under_asan(why)
  if not os.getenv("VDX_ASAN") then return false end
  pending(why)
  return true
end

local function exists(path)
  local f = io.open(path)
  if f then f:close() end
  return f ~= nil
end

--- What an install of this build must hold, relative to PREFIX: vdxlua,
-- the two C modules and every module of the Lua layer.
local function expected_files()
  local list = { "bin/vdxlua", "lib/lua/5.4/vdx.so", "lib/lua/5.4/vdx/serve.so",
    "share/lua/5.4/vdx/skill_files.lua" }
  for _, f in ipairs(files("lua")) do list[#list + 1] = "share/lua/5.4/" .. f end
  table.sort(list)
  return list
end

local FLOW = [[
local vdx = require "vdx"
local flow = require "vdx.flow"

local srv <close> = vdx.serve { port = 0, routes = {
  ["GET /"] = function()
    return [=[<title>Counter</title><h1>Counter</h1><p id="n">0</p>
      <button onclick="n.textContent = +n.textContent + 1">Add one</button>]=]
  end,
} }

return flow.run({ name = "installed", base_url = srv.url }, function(f)
  f:role("user", { url = "/" })
  f:as("user", function(u)
    u:step("add one", function()
      u:click("button", "Add one")
      u:expect_text("1")
    end)
  end)
end)
]]

-- A stock Lua 5.4 host: where each module came from, then a page.
local HOST = [[
local vdx = require "vdx"
print(package.searchpath("vdx", package.path))
print(package.searchpath("vdx", package.cpath))
print(package.searchpath("vdx.serve", package.cpath))
local srv <close> = vdx.serve { port = 0, routes = {
  ["GET /"] = function() return "<title>Plain host</title><h1>From lua5.4</h1>" end,
} }
local browser <close> = vdx.launch()
local page = browser:new_page()
print(page:navigate(srv.url .. "/").title)
io.write(page:snapshot().text)
]]

describe("make install PREFIX=…", function()
  local prefix, away

  lazy_setup(function()
    prefix, away = tmpdir(), tmpdir()
    local out, status = make("install PREFIX=" .. q(prefix))
    assert(status == 0, out)
  end)

  lazy_teardown(function()
    if prefix then os.execute("rm -rf " .. q(prefix) .. " " .. q(away)) end
  end)

  it("puts vdxlua, the C modules and the Lua layer under PREFIX", function()
    assert.same(expected_files(), files(prefix))
    local _, status = helpers.run("test -x " .. q(prefix .. "/bin/vdxlua"))
    assert.equal(0, status)
  end)

  it("runs a flow with the installed vdxlua from another folder", function()
    helpers.write(away .. "/flow.lua", FLOW)
    local out, status = helpers.run("cd " .. q(away) .. " && " .. CLEAN .. q(prefix .. "/bin/vdxlua") .. " flow.lua")
    assert.equal(0, status, out)
    assert.matches("✓ [user] add one (", out, 1, true)
    assert.matches("✔ installed: 1 steps in ", out, 1, true)
  end)

  it("serves MCP with the installed vdxlua from another folder, its built-in skill included", function()
    local srv = helpers.serve()
    local s = client.start("", CLEAN, { vdxlua = prefix .. "/bin/vdxlua", cwd = away, default_skills = true })
    local ok, err = pcall(function()
      local request, call = client.caller(s)
      local names = {}
      for _, t in ipairs(request("tools/list", {}).tools) do names[t.name] = true end
      -- find_test_ids is a tool of the workspace skill built into vdxlua.
      for _, want in ipairs { "browser_navigate", "browser_snapshot", "find_test_ids" } do
        assert.is_true(names[want], want .. " is not listed")
      end
      local nav = call("browser_navigate", { url = srv.url .. "/mcp/page.html" })
      assert.is_nil(nav.isError, client.text({ result = nav }))
      assert.matches("Title: MCP fixture", nav.content[1].text, 1, true)
      local snap = call("browser_snapshot", {})
      assert.is_nil(snap.isError, client.text({ result = snap }))
      assert.matches('heading "Shop" [level=1]', snap.content[1].text, 1, true)
      assert.matches('button "Add to Cart" [ref=e', snap.content[1].text, 1, true)
    end)
    local rc = s:close(20000)
    srv:close()
    assert(ok, err)
    assert.equal(0, rc)
  end)

  it("serves require \"vdx\" to a stock lua5.4 given the installed folders on LUA_PATH and LUA_CPATH", function()
    if pending_under_asan("stock lua5.4 cannot load the sanitizer build of vdx.so") then return end
    helpers.write(away .. "/host.lua", HOST)
    local env = ("LUA_PATH=%s LUA_CPATH=%s "):format(q(prefix .. "/share/lua/5.4/?.lua;;"),
      q(prefix .. "/lib/lua/5.4/?.so;;"))
    local out, status = helpers.run("cd " .. q(away) .. " && " .. CLEAN .. env .. "lua5.4 host.lua")
    assert.equal(0, status, out)
    assert.equal(table.concat({
      prefix .. "/share/lua/5.4/vdx.lua",
      prefix .. "/lib/lua/5.4/vdx.so",
      prefix .. "/lib/lua/5.4/vdx/serve.so",
      "Plain host",
      '- heading "From lua5.4" [level=1]',
    }, "\n") .. "\n", out)
  end)
end)

describe("make install DESTDIR=… and the INST_* folders", function()
  it("installs by default (PREFIX=/usr/local) where a stock lua5.4 looks with no LUA_PATH", function()
    local plan, status = make("-n install")
    assert.equal(0, status, plan)
    local lib = plan:match('install %-m 0755 %S+/vdx%.so "([^"]+)/vdx%.so"')
    local share = plan:match('install %-m 0644 %S+/skill_files%.lua "([^"]+)/vdx/skill_files%.lua"')
    assert.equal("/usr/local/lib/lua/5.4", lib, plan)
    assert.equal("/usr/local/share/lua/5.4", share, plan)
    assert.matches('install %-m 0755 %S+/vdxlua "/usr/local/bin/vdxlua"', plan)
    local paths = helpers.run(CLEAN .. "lua5.4 -e 'print(package.path) print(package.cpath)'")
    assert.matches(share .. "/?.lua;", paths, 1, true)
    assert.matches(lib .. "/?.so;", paths, 1, true)
  end)

  it("stages every file under DESTDIR/PREFIX, and uninstall removes them", function()
    local stage = tmpdir()
    local opt = "/opt/vdx-install-spec-" .. stage:match("[^.]+$")
    local out, status = make("install DESTDIR=" .. q(stage) .. " PREFIX=" .. opt)
    assert.equal(0, status, out)
    local want = {}
    for _, f in ipairs(expected_files()) do want[#want + 1] = opt:sub(2) .. "/" .. f end
    assert.same(want, files(stage))
    assert.is_false(exists(opt), opt .. " was written outside DESTDIR")
    out, status = make("uninstall DESTDIR=" .. q(stage) .. " PREFIX=" .. opt)
    assert.equal(0, status, out)
    assert.same({}, files(stage))
    os.execute("rm -rf " .. q(stage))
  end)

  it("takes INST_LIBDIR, INST_LUADIR and INST_BINDIR as luarocks passes them", function()
    local root = tmpdir()
    local out, status = make(("install INST_LIBDIR=%s INST_LUADIR=%s INST_BINDIR=%s PREFIX=/nonexistent")
      :format(q(root .. "/lib"), q(root .. "/share"), q(root .. "/bin")))
    assert.equal(0, status, out)
    local want = {}
    for _, f in ipairs(expected_files()) do
      want[#want + 1] = f:gsub("^lib/lua/5%.4/", "lib/"):gsub("^share/lua/5%.4/", "share/")
    end
    table.sort(want)
    assert.same(want, files(root))
    os.execute("rm -rf " .. q(root))
  end)
end)

describe("lua-cjson and luarocks", function()
  it("stops make install with what to install when lua5.4 cannot require cjson", function()
    local out, status = helpers.run("LUA_CPATH='/nonexistent/?.so' make --no-print-directory -C "
      .. q(REPO) .. " check-cjson")
    assert.are_not.equal(0, status)
    assert.matches('lua5.4 cannot require "cjson": install it (apt-get install lua-cjson lua-cjson-dev', out, 1, true)
    local _, ok = helpers.run("make --no-print-directory -C " .. q(REPO) .. " check-cjson")
    assert.equal(0, ok)
  end)

  it("installs with luarocks make into a tree, printing no missing dependency", function()
    if pending_under_asan("luarocks builds the default build, not the sanitizer one under test") then return end
    local _, has = helpers.run("command -v luarocks")
    if has ~= 0 then
      pending("luarocks is not installed (make deps installs it)")
      return
    end
    local tree = tmpdir()
    local out, status = helpers.run("cd " .. q(REPO) .. " && luarocks --lua-version 5.4 make --tree "
      .. q(tree) .. " vdx-scm-1.rockspec")
    assert.equal(0, status, out)
    assert.matches("vdx scm-1 is now installed in " .. tree, out, 1, true)
    for _, false_alarm in ipairs { "Missing dependencies", "not installed", "Warning", "lua-cjson" } do
      assert.is_nil(out:find(false_alarm, 1, true), false_alarm .. " in:\n" .. out)
    end
    local version, vs = helpers.run("cd / && " .. CLEAN .. q(tree .. "/bin/vdxlua") .. " --version")
    assert.equal(0, vs, version)
    assert.matches("^vdxlua %S+ %(Lua 5%.4%)", version)
    assert.is_true(exists(tree .. "/lib/lua/5.4/vdx.so"))
    assert.is_true(exists(tree .. "/share/lua/5.4/vdx/flow.lua"))
    os.execute("rm -rf " .. q(tree))
  end)
end)
