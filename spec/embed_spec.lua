-- Embedding vdx in hosts that own their event loop: the pollable contract
-- (vdx.pollfd, vdx.events, vdx.timeout, vdx.step), the luv, cqueues and
-- copas adapters, and the error of a plain coroutine with no adapter.
--
-- The host examples run as their own lua5.4 processes (each host owns its
-- process's loop), against the real browser and the demo app.  Their host
-- timer ticks every 25 ms in these runs, and at least 90% of its ticks
-- must have happened while vdx launched, navigated and snapshotted: vdx
-- never holds the host's loop.  (At 50 ms a quiet machine did the work
-- in four ticks, under the five a measure needs.)
local vdx = require "vdx"
local helpers = require "helpers"
local socket = require "socket"

local ENV = "LUA_CPATH='" .. (os.getenv("VDX_BUILD") or "build") .. "/?.so;;' "
  .. "LUA_PATH='lua/?.lua;;' EMBED_TICK_MS=25 "

local PAGES = {
  "/provider/login: Provider sign in · Marketplace | Provider sign in",
  "/admin/login: Admin sign in · Marketplace | Admin sign in",
}

--- True (after marking the test pending) when this run cannot host the
-- test: stock lua5.4 cannot load the sanitizer build of vdx.so, and under
-- the vdxlua runner (the ASan run) the specs run inside vdx's own loop,
-- where there is no host to poll it.
local function cannot_host(subprocess)
  if subprocess and os.getenv("VDX_ASAN") then
    pending("stock lua5.4 cannot load the sanitizer build of vdx.so")
    return true
  end
  if not subprocess and vdx.current_task() then
    pending("under the vdxlua runner vdx owns the loop")
    return true
  end
  return false
end

--- Runs examples/embed_<host>.lua once: checks its pages, returns the
-- host timer's kept and expected ticks.
local function run_example(host)
  local out, status = helpers.run(ENV .. "lua5.4 examples/embed_" .. host .. ".lua")
  assert.equal(0, status, out)
  local kept, expected = out:match("host timer: (%d+) of (%d+) ticks")
  assert.is_not_nil(kept, out)
  local lines = {}
  for line in out:gmatch("[^\n]+") do
    if line:match("^/") then lines[#lines + 1] = line end
  end
  assert.same(PAGES, lines)
  -- At least five ticks of work were measured.
  assert.is_true(tonumber(expected) >= 5, out)
  return tonumber(kept), tonumber(expected)
end

--- Checks that the host kept at least 90% of its ticks.  The machine the
-- suite runs on is shared, and a process that waits for a core misses
-- ticks whatever vdx does; so up to three runs are made and one must keep
-- 90%.  vdx holding the host's loop fails every run.
local function check_example(host)
  if cannot_host(true) then return end
  local seen = {}
  for _ = 1, 3 do
    local kept, expected = run_example(host)
    seen[#seen + 1] = kept .. "/" .. expected
    if kept >= 0.9 * expected then return end
  end
  error(("the %s host kept under 90%% of its ticks in every run: %s")
        :format(host, table.concat(seen, ", ")))
end

describe("vdx in a host's loop", function()
  it("runs two pages beside a luv program's timer (examples/embed_luv.lua)", function()
    check_example("luv")
  end)

  it("runs two pages beside a cqueues program's timer (examples/embed_cqueues.lua)", function()
    check_example("cqueues")
  end)

  it("runs two pages beside a copas program's timer (examples/embed_copas.lua)", function()
    check_example("copas")
  end)

  for _, host in ipairs { "luv", "cqueues", "copas" } do
    it("turns vdx under " .. host .. " only when vdx has something due, with no polling timer", function()
      if cannot_host(true) then return end
      local out, status = helpers.run(ENV .. "lua5.4 spec/fixtures/embed/idle.lua " .. host)
      assert.equal(0, status, out)
      local turns, slept = out:match("^turns (%d+) slept (%a+)")
      assert.equal("true", slept, out)
      -- One turn to start the task, one when its sleep ends, at most two
      -- more when a timer's millisecond rounds early; a 10 ms polling
      -- timer would make about thirty.  The copas host loop steps with no
      -- timeout: vdx's fd alone woke it.
      assert.is_true(tonumber(turns) >= 2 and tonumber(turns) <= 4, out)
    end)
  end
end)

describe("the pollable contract", function()
  local srv

  lazy_setup(function()
    srv = helpers.serve {
      ["GET /embed"] = function()
        return "<title>polled</title><h1>Driven by select</h1>"
      end,
    }
  end)

  lazy_teardown(function()
    if srv then srv:close() end
  end)

  -- A plain select loop: vdx's fd (as luasocket's select wants it), its
  -- timeout, then one step.  Nothing else turns vdx's loop.
  local fdobj = { getfd = function() return vdx.pollfd() end,
                  dirty = function() return false end }
  local function select_until(task, use_timeout)
    local turns = 0
    while not task:done() do
      socket.select({ fdobj }, nil, use_timeout and vdx.timeout() or nil)
      vdx.step(0)
      turns = turns + 1
      assert(turns < 100000, "the select loop never finished")
    end
    return turns
  end

  it("drives a browser from a plain select loop with pollfd, timeout and step", function()
    if cannot_host(false) then return end
    assert.equal("r", vdx.events())
    assert.equal(math.type(vdx.pollfd()), "integer")
    local task = vdx.spawn(function()
      local browser = vdx.launch { timeout_ms = 20000 }
      local page = browser:new_page()
      local nav = page:navigate(srv.url .. "/embed")
      local text = page:snapshot().text
      browser:close()
      return nav.title .. " | " .. text
    end)
    select_until(task, true)
    assert.equal('polled | - heading "Driven by select" [level=1]\n', vdx.wait(task))
  end)

  it("wakes a select that watches the fd alone when a vdx timer is due", function()
    if cannot_host(false) then return end
    local task = vdx.spawn(function() vdx.sleep(30); vdx.sleep(30); return "woke" end)
    local turns = select_until(task, false)
    assert.equal("woke", vdx.wait(task))
    assert.is_true(turns <= 8, "turns: " .. turns)
  end)

  it("steps with a bounded wait, and refuses to step from inside a task", function()
    if cannot_host(false) then return end
    assert.is_true(vdx.step(0))
    assert.is_true(vdx.step(0.01))
    -- Called as a method, as cqueues does: vdx:step(0).
    assert.is_true(vdx:step(0))
    local task = vdx.spawn(function() return pcall(vdx.step, 0) end)
    select_until(task, true)
    local ok, err = vdx.wait(task)
    assert.is_false(ok)
    assert.matches("already turning (a script vdxlua runs is a task: run a program with a loop of its own with lua5.4", err, 1, true)
  end)
end)

describe("host adapters #unit", function()
  it("names the adapters when a plain coroutine waits with none installed", function()
    if cannot_host(false) then return end
    assert.is_nil(vdx.host())
    local co = coroutine.wrap(function() return pcall(vdx.sleep, 1) end)
    local ok, err = co()
    assert.is_false(ok)
    assert.equal("NoHostAdapter", err.type)
    assert.matches("vdx.spawn", err.message, 1, true)
    assert.matches("require('vdx.copas').install(copas)", err.message, 1, true)
    assert.matches("require('vdx.cqueues').install(cq)", err.message, 1, true)
    assert.matches("require('vdx.luv').install(uv)", err.message, 1, true)
  end)

  it("waits through an installed adapter and resumes the call with its value", function()
    if cannot_host(false) then return end
    -- A minimal host: its wait yields to the test, which resumes the
    -- coroutine until the call is done.
    local waits = 0
    vdx.set_host { name = "test", wait = function() waits = waits + 1; coroutine.yield("parked") end }
    assert.equal("test", vdx.host())
    local co = coroutine.create(function() vdx.sleep(20); return "slept" end)
    local ok, res = coroutine.resume(co)
    while res == "parked" do
      vdx.step()
      ok, res = coroutine.resume(co)
    end
    vdx.set_host(nil)
    assert.is_true(ok)
    assert.equal("slept", res)
    assert.is_true(waits >= 1)
    assert.is_nil(vdx.host())
  end)

  it("checks set_host's options and allows one adapter at a time", function()
    assert.matches("unexpected key 'wiat'", helpers.error_of(vdx.set_host,
      { name = "x", wiat = print }))
    assert.matches("'wait' must be a function", helpers.error_of(vdx.set_host,
      { name = "x" }))
    vdx.set_host { name = "first", wait = function() end }
    local err = helpers.error_of(function()
      require("vdx.cqueues").install()
    end)
    vdx.set_host(nil)
    assert.is_true(vdx.is_error(err, "InvalidArgument"), tostring(err))
    assert.matches("the first adapter is already installed", err.message)
    assert.matches("uv must be the luv module", helpers.error_of(
      require("vdx.luv").install, {}).message)
  end)
  it("loads the C half alone as vdx.core, and says what is missing when require 'vdx' finds only vdx.so", function()
    if cannot_host(true) then return end
    local cpath = "LUA_CPATH='" .. (os.getenv("VDX_BUILD") or "build") .. "/?.so;;' "
    local out, status = helpers.run(cpath .. "LUA_PATH='/nonexistent/?.lua;/usr/share/lua/5.4/?.lua' lua5.4 -e "
      .. helpers.quote("local c = require 'vdx.core'; print(type(c.launch), type(c.Page.snapshot_frames), type(c.Page.snapshot))"))
    assert.equal(0, status, out)
    assert.equal("function\tfunction\tnil\n", out)
    -- The core works with no Lua file: its JSON codec is the copy vdx.so
    -- embeds (exact, as vdx.json is).
    out, status = helpers.run(cpath .. "LUA_PATH='/nonexistent/?.lua;/usr/share/lua/5.4/?.lua' lua5.4 -e "
      .. helpers.quote("local c = require 'vdx.core'; local b = c.launch{}; local p = b:new_page(); "
        .. "print(('%.17g'):format(p:evaluate('0.1 + 0.2')), package.loaded['vdx.json'] ~= nil); b:close()"))
    assert.equal(0, status, out)
    assert.equal("0.30000000000000004\ttrue\n", out)
    out, status = helpers.run(cpath .. "LUA_PATH='/nonexistent/?.lua;/usr/share/lua/5.4/?.lua' lua5.4 -e " .. helpers.quote("require 'vdx'"))
    assert.equal(1, status)
    assert.matches('found vdx.so but not its Lua layer', out, 1, true)
    assert.matches('LUA_PATH="lua/?.lua;;"', out, 1, true)
    out, status = helpers.run(cpath .. "LUA_PATH='lua/?.lua' lua5.4 -e "
      .. helpers.quote("local vdx = require 'vdx'; print(type(vdx.Page.click), require('vdx.core') == vdx)"))
    assert.equal(0, status, out)
    assert.equal("function\ttrue\n", out)
  end)
end)

describe("a host's loop under vdxlua", function()
  -- vdxlua runs a script as a vdx task, on vdx's loop: a program that
  -- runs luv's, cqueues' or copas' loop itself cannot run there.  It is
  -- told so where it installs the adapter, with the command that runs it.
  for _, host in ipairs { "luv", "cqueues", "copas" } do
    it("says the " .. host .. " program owns the loop and to run it with lua5.4 (examples/embed_" .. host .. ".lua)", function()
      local file = "examples/embed_" .. host .. ".lua"
      local out, status = helpers.run(helpers.vdxlua .. " " .. file)
      assert.equal(1, status, out)
      assert.matches("vdxlua: HostOwnsLoop: vdx." .. host .. ".install: the program runs " .. host
        .. "'s event loop itself, so it cannot run inside a vdx task", out, 1, true)
      assert.matches("run it with lua5.4 " .. file .. ", vdx on LUA_PATH and LUA_CPATH (see docs/install.md)", out, 1, true)
      assert.is_nil(out:find("LaunchFailed", 1, true), out)
    end)
  end

  it("refuses an adapter installed inside a vdx task under lua5.4 too, and installs none", function()
    local task = vdx.spawn(function() return pcall(require("vdx.luv").install, require "luv") end)
    local ok, err = vdx.wait(task)
    assert.is_false(ok)
    assert.is_true(vdx.is_error(err, "HostOwnsLoop"), tostring(err))
    assert.is_nil(vdx.host())
    assert.is_table(require("vdx.errors").catalog.HostOwnsLoop)
  end)

  it("raises a launch made where it cannot wait as that mistake, not as LaunchFailed", function()
    local out, status = helpers.run(helpers.vdxlua .. " -e " .. helpers.quote(
      "local ok, e = pcall(coroutine.wrap(function() return require('vdx').launch() end)); print(ok, e.type, e.message)"))
    assert.equal(0, status, out)
    assert.equal("false\tInvalidArgument\tvdx: cannot wait for Browser.getVersion here: call it from a task "
      .. "(vdx.spawn) or from the main chunk, not from a plain coroutine or a callback\n", out)
  end)
end)
