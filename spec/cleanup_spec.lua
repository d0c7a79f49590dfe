--- spec/cleanup_spec.lua: a browser's temporary folders (the vdx-chromium-*
-- profile and Chromium's org.chromium.Chromium.* folder) are removed on
-- every exit path: browser:close() here, the signals that end vdxlua in
-- spec/signals_spec.lua.
-- Only the full browser makes the second folder (chromium-headless-shell,
-- vdx's default headless browser when installed, has no ProcessSingleton),
-- so these run on the full one and check the shell beside it.
local vdx = require "vdx"
local client = require "mcp_client"
local helpers = require "helpers"

local q = client.q

local mktemp = client.tmpdir

local names = client.names

local full = helpers.full_chromium()

--- Skips a spec when the full browser is not installed.
local function needs_full()
  if full then return false end
  pending("needs the full chromium (its ProcessSingleton folder)")
  return true
end

describe("temporary folders", function()
  it("are all gone after browser:close()", function()
    if needs_full() then return end
    -- The profile goes under this process's TMPDIR, Chromium's own folder
    -- under the TMPDIR it is given: one for the full browser, none for
    -- the headless shell (when it is the default).
    local run_tmp = os.getenv("TMPDIR") or "/tmp"
    local function profiles()
      local out = {}
      for _, n in ipairs(names(run_tmp)) do if n:match("^vdx%-chromium%-") then out[#out + 1] = n end end
      return out
    end
    for _, exe in ipairs { full, false } do
      local tmp = mktemp()
      local before = profiles()
      local b = vdx.launch { env = { TMPDIR = tmp }, executable = exe or nil }
      local page = b:new_page()
      page:navigate("about:blank")
      local shell = b:version().product:match("^HeadlessChrome/") ~= nil
      assert.equal(#before + 1, #profiles())
      assert.equal(shell and 0 or 1, #names(tmp), exe or "the default browser")
      b:close()
      local left = names(tmp)
      os.execute("rm -rf " .. q(tmp))
      assert.same({}, left)
      assert.same(before, profiles())
    end
  end)

  it("go to /dev/shm when TMPDIR is unset and it is a large memory file system, and are gone after close", function()
    -- A child vdxlua without TMPDIR prints its profile and the
    -- ProcessSingleton folder the profile links to, then closes.
    if needs_full() then return end
    local code = [[
      local vdx = require "vdx"
      local b = vdx.launch { executable = "]] .. full .. [[" }
      b:new_page():navigate("about:blank")
      local f = io.open("/proc/" .. b:pid() .. "/cmdline")
      local dir = f:read("a"):match("%-%-user%-data%-dir=([^%z]+)")
      f:close()
      local link = io.popen("readlink " .. dir .. "/SingletonSocket"):read("l")
      local pid = b:pid()
      b:close()
      print(dir, link:match("^(.*)/[^/]*$"), pid)
    ]]
    local out = helpers.run("env -u TMPDIR " .. helpers.vdxlua .. " -e " .. q(code))
    local dir, singleton, pid = out:match("(%S+)\t(%S+)\t(%d+)")
    assert.truthy(dir, out)
    local p = io.popen("stat -f -c %T /dev/shm 2>/dev/null; df -k --output=avail /dev/shm 2>/dev/null | tail -1")
    local fstype, avail = p:read("l"), tonumber(p:read("l"))
    p:close()
    local expected = (fstype == "tmpfs" and (avail or 0) >= 1024 * 1024) and "/dev/shm" or "/tmp"
    assert.equal(expected, dir:match("^(.*)/vdx%-chromium%-[^/]+$"))
    local function exists(path) return os.execute("test -e " .. q(path)) == true end
    assert.is_false(exists(dir))
    assert.is_false(exists(singleton))
    assert.is_false(helpers.alive(pid))
  end)

  it("are the only ones ended by a kill: a kept profile's browser closes gracefully and keeps its cookies", function()
    -- A temporary profile goes at once; a profile the caller keeps must
    -- get Chromium's own shutdown, which writes persistent cookies out:
    -- the next browser on it reads the cookie back.
    local srv = helpers.serve { ["GET /set"] = function()
      return { headers = { ["Set-Cookie"] = "kept=yes; Max-Age=3600; Path=/" }, body = "<p>set</p>" }
    end, ["GET /read"] = function() return { body = "<p>read</p>" } end }
    local dir = mktemp()
    local b = vdx.launch { user_data_dir = dir }
    b:new_page():navigate(srv.url .. "/set")
    b:close()
    local b2 = vdx.launch { user_data_dir = dir }
    local p2 = b2:new_page()
    p2:navigate(srv.url .. "/read")
    local cookie = p2:evaluate("document.cookie")
    b2:close()
    srv:close()
    os.execute("rm -rf " .. q(dir))
    assert.equal("kept=yes", cookie)
  end)
end)
