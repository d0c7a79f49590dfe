--- Misuse of the Lua layer is a typed InvalidArgument (errors.misuse), and
-- its message still starts with the file:line of the bad call, as a plain
-- error(message, level) would put it.
local vdx = require "vdx"
local errors = require "vdx.errors"
local helpers = require "helpers"

local HERE = debug.getinfo(1, "S").short_src

-- The error f raises, checked to be an InvalidArgument whose message is
-- "<this spec>:<line>: <text>"; returns it.
local function misuse_at(line, text, f, ...)
  local err = helpers.error_of(f, ...)
  assert.is_true(vdx.is_error(err, "InvalidArgument"), tostring(err))
  assert.equal(HERE .. ":" .. line .. ": " .. text, err.message)
  assert.equal("InvalidArgument: " .. err.message, tostring(err))
  return err
end

describe("misuse of the Lua layer #unit", function()
  it("flow.configure: an unknown option, at the caller's line", function()
    local flow = require "vdx.flow"
    local text = "flow.configure: unknown option 'bsae_url' (known: artifacts, base_url, browser_args, "
      .. "connect, device, emit_playwright, emulate, endpoint, executable, headed, launch, max_sessions, name, out, pool, pool_wait_ms, quiet, report, serve_only, slow_mo, timeout_ms, trace)"
    local line = debug.getinfo(1, "l").currentline
    local err = misuse_at(line + 1, text, function() flow.configure { bsae_url = "x" } end)
    assert.equal("bsae_url", err.field)
    assert.is_nil(flow.options.bsae_url)
  end)

  it("a tool definition without run, at the caller's line or the tool file's", function()
    local reg = require("vdx.tools").new()
    local line = debug.getinfo(1, "l").currentline
    misuse_at(line + 1, "tool x: run must be a function", function() reg:register { name = "x", description = "d" } end)
    misuse_at(line + 2, "a tool must be a table", function() reg:register("x") end)
    local added, msg = reg:load_source("local t = 1\nregister { name = 'x', description = 'd' }\n",
      "@tools/bad.lua", "tools/bad.lua")
    assert.is_nil(added)
    assert.equal("tools/bad.lua:2: tool x: run must be a function", msg)
    assert.equal(msg, reg.failures[1].message)
    assert.is_nil(reg:get("x"))
  end)

  it("a role with an unknown key or a bad name", function()
    local mgr = require("vdx.roles").new {}
    local line = debug.getinfo(1, "l").currentline
    local err = misuse_at(line + 1, "role: unknown key 'bogus'", function() mgr:add { name = "x", bogus = 1 } end)
    misuse_at(line + 2, "role: name must be letters, digits, '_', '-' or '.'", function() mgr:add { name = "a b" } end)
    assert.equal("bogus", err.field)
    -- Called straight from pcall, a C function, the error has no position.
    assert.equal("role: unknown key 'bogus'", helpers.error_of(mgr.add, mgr, { name = "x", bogus = 1 }).message)
  end)

  it("vdx.luv.install with something that is not luv", function()
    local text = "vdx.luv.install(uv): uv must be the luv module (require 'luv')"
    local line = debug.getinfo(1, "l").currentline
    misuse_at(line + 1, text, function() require("vdx.luv").install({}) end)
  end)

  it("a path or URL an agent gave is refused as an InvalidArgument without a position", function()
    local policy = require("vdx.paths").new {}
    local err = helpers.error_of(policy.read_path, policy, "")
    assert.is_true(vdx.is_error(err, "InvalidArgument"), tostring(err))
    assert.equal("a file path must be a non-empty string", err.message)
    assert.equal("paths", err.field)
    err = helpers.error_of(policy.check_url, policy, "file:///etc/passwd")
    assert.is_true(vdx.is_error(err, "InvalidArgument"), tostring(err))
    assert.matches("^file: URLs are refused: ", err.message)
    assert.equal("file:///etc/passwd", err.url)
  end)

  it("errors.misuse: level 0 adds no position; fields are copied", function()
    local err = helpers.error_of(errors.misuse, "m", 0, { field = "f", file = "a.txt" })
    assert.is_true(vdx.is_error(err, "InvalidArgument"))
    assert.equal("m", err.message)
    assert.equal("f", err.field)
    assert.equal("a.txt", err.file)
  end)
end)

describe("typed errors under a plain lua5.4", function()
  it("name the line of the user's script that made the failing call, caught or not", function()
    local base = os.tmpname()
    local path = helpers.write(base .. ".lua", [[
local vdx = require "vdx"
local errors = require "vdx.errors"
local b = vdx.launch()
local p = b:new_page()
local ok, e = pcall(p.click, p, "e99")
print(ok, e.type, e.where)
print((errors.format(e):match("\nAt: [^\n]*")))
b:close()
vdx.launch { executable = "/nonexistent/chromium" }
]])
    local out, status = helpers.run("lua5.4 " .. helpers.quote(path))
    os.remove(path)
    os.remove(base)
    local short = path:match("[^/]*$"):gsub("%p", "%%%0")
    assert.equal(1, status, out)
    -- page:click is a Lua action over C calls: the line is the script's, not vdx's.
    assert.matches("false\tUnknownRef\t[^\n]*" .. short .. ":5\n", out)
    assert.matches("\nAt: [^\n]*" .. short .. ":5\n", out)
    -- Uncaught, lua5.4 prints tostring(err) (and, for an error object, no traceback).
    assert.matches("lua5.4: BrowserNotFound: opts.executable '/nonexistent/chromium' is not an executable file "
      .. "%(at [^\n]*" .. short .. ":9%)", out)
  end)
end)
