-- Security checks: a launched browser opens no TCP debugging port; nothing
-- the host starts listens beyond the loopback address; the bridge leaves
-- no trace in the page's own world; two contexts (roles) keep their
-- storage and cookies apart.
local vdx = require "vdx"
local h = require "helpers"

--- Listening TCP sockets as { {addr=, port=, pid=}, … } (from ss -ltnp).
local function listeners()
  local out = {}
  local p = io.popen("ss -H -ltnp 2>/dev/null")
  for line in p:lines() do
    local localaddr = line:match("^%S+%s+%d+%s+%d+%s+(%S+)")
    local pids = {}
    for pid in line:gmatch("pid=(%d+)") do pids[#pids + 1] = tonumber(pid) end
    if localaddr then
      local addr, port = localaddr:match("^(.*):(%d+)$")
      for _, pid in ipairs(pids) do out[#out + 1] = { addr = addr, port = tonumber(port), pid = pid } end
      if #pids == 0 then out[#out + 1] = { addr = addr, port = tonumber(port) } end
    end
  end
  p:close()
  return out
end

--- The process ids of process group pgid.
local function group(pgid)
  local set = {}
  local p = io.popen("ps -o pid= -g " .. pgid .. " 2>/dev/null")
  for pid in p:read("a"):gmatch("%d+") do set[tonumber(pid)] = true end
  p:close()
  return set
end

local function self_pid()
  local f = assert(io.open("/proc/self/stat"))
  local pid = tonumber(f:read("a"):match("^(%d+)"))
  f:close()
  return pid
end

local function loopback(addr)
  return addr == "127.0.0.1" or addr:match("^127%.") or addr == "[::1]" or addr == "::1"
end

describe("security", function()
  local srv, browser

  setup(function()
    srv = h.serve {}
    browser = vdx.launch {}
  end)

  teardown(function()
    if browser then browser:close() end
    if srv then srv:close() end
  end)

  it("launches the browser with no listening TCP port (the pipe only)", function()
    local page = browser:new_page()
    page:navigate(srv.url .. "/core/index.html")
    local g = group(browser:pid())
    assert.is_true(next(g) ~= nil)
    local open = {}
    for _, l in ipairs(listeners()) do
      if l.pid and g[l.pid] then open[#open + 1] = ("%s:%d (pid %d)"):format(l.addr, l.port, l.pid) end
    end
    assert.same({}, open)
    page:close()
  end)

  it("listens on loopback addresses only (fixture server, debugging port)", function()
    local debug_browser = vdx.launch { port = 0 }
    local me = self_pid()
    local g = group(debug_browser:pid())
    local mine, wide = 0, {}
    for _, l in ipairs(listeners()) do
      if l.pid == me or (l.pid and g[l.pid]) then
        mine = mine + 1
        if not loopback(l.addr) then wide[#wide + 1] = ("%s:%d"):format(l.addr, l.port) end
      end
    end
    debug_browser:close()
    assert.is_true(mine >= 2)   -- the fixture server and the DevTools port
    assert.same({}, wide)
    -- And the server refuses to bind anything else.
    assert.has_error(function() vdx.serve { host = "0.0.0.0", port = 0 } end)
  end)

  it("leaves no trace of the bridge in the page's own world", function()
    local page = browser:new_page()
    page:navigate(srv.url .. "/core/index.html")
    page:snapshot {}
    assert.equal("undefined", page:evaluate("typeof __vdxBridge"))
    local names = page:evaluate([[Object.getOwnPropertyNames(window)
      .filter(n => /vdx|bridge/i.test(n))]])
    assert.same({}, names)
    assert.equal(0, page:evaluate("document.querySelectorAll('[data-vdx-ref], [data-vdx]').length"))
    page:close()
  end)

  it("keeps two contexts' localStorage and cookies apart", function()
    local a = browser:new_context():new_page()
    local b = browser:new_context():new_page()
    a:navigate(srv.url .. "/core/index.html")
    b:navigate(srv.url .. "/core/index.html")
    a:evaluate("localStorage.setItem('role', 'admin'); document.cookie = 'session=admin-secret; path=/'; true")
    assert.equal("admin", a:evaluate("localStorage.getItem('role')"))
    assert.matches("session=admin%-secret", a:evaluate("document.cookie"))
    assert.is_nil(b:evaluate("localStorage.getItem('role')"))
    assert.equal("", b:evaluate("document.cookie"))
    -- The same holds after a reload of the second context's page.
    b:navigate(srv.url .. "/core/index.html")
    assert.equal("", b:evaluate("document.cookie"))
    a:close()
    b:close()
  end)
end)
