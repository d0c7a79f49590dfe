--- Every error kind the source raises, in C, Lua or the bridge, has an
-- entry in the one catalog (lua/vdx/error_catalog.lua, errors.catalog), so no agent is shown
-- "Unexpected error (Kind)" for a failure vdxlua knows about.
local sites = require "error_sites"
local errors = require "vdx.errors"

describe("error kinds #unit", function()
  local layers = {
    { name = "C", list = (sites.c()), min = 60, known = { "BrowserNotFound", "MessageTooLarge", "PageCrashed" } },
    { name = "Lua", list = sites.lua(), min = 70, known = { "EvaluateRefused", "TargetNotFound", "RoleUnknown" } },
    { name = "JavaScript", list = sites.js(), min = 35, known = { "NotSlider", "LocatorSyntax", "InvalidArgument" } },
  }

  for _, layer in ipairs(layers) do
    it("finds the raise sites of " .. layer.name, function()
      -- A scanner that stops finding sites would pass the check below for
      -- nothing: it must find at least min of them, and some kinds raised
      -- at known places of this layer.
      assert.is_true(#layer.list >= layer.min,
        ("%d raise sites found in %s, expected at least %d"):format(#layer.list, layer.name, layer.min))
      local found = {}
      for _, s in ipairs(layer.list) do found[s.kind] = true end
      for _, k in ipairs(layer.known) do
        assert.is_true(found[k] ~= nil, layer.name .. " raises " .. k .. " but the scanner did not find it")
      end
    end)

    it("has a catalog entry for every kind raised in " .. layer.name, function()
      local missing = {}
      for _, s in ipairs(layer.list) do
        if not errors.catalog[s.kind] then
          missing[#missing + 1] = ("%s (%s:%d)"):format(s.kind, s.file, s.line)
        end
      end
      assert.are.same({}, missing)
    end)
  end

  it("finds the C functions that raise a kind they are given", function()
    local _, raisers = sites.c()
    assert.equal(2, raisers.vdx__error_raise)
    assert.equal(3, raisers.bc_fail)
    assert.equal(3, raisers.vdx__nav_fail)
    assert.equal(4, raisers.vdx__conn_fail_session)
  end)

  it("counts a call of errors.misuse as an InvalidArgument, not its definition", function()
    local def, n = nil, 0
    for l in io.lines("lua/vdx/errors.lua") do
      n = n + 1
      if l:find("^function errors%.misuse%(") then def = n end
    end
    local at = {}
    for _, s in ipairs(sites.lua()) do
      local key = s.file:gsub("^%./", "") .. ":" .. s.kind
      at[key] = (at[key] or 0) + 1
      assert.is_false(s.file:find("errors.lua", 1, true) ~= nil and s.line == def, "the definition counted")
    end
    assert.is_number(def)
    assert.equal(1, at["lua/vdx/luv.lua:InvalidArgument"])
    assert.equal(2, at["lua/vdx/copas.lua:InvalidArgument"])
  end)

  it("knows each kind by one name", function()
    for _, layer in ipairs(layers) do
      for _, s in ipairs(layer.list) do
        assert.is_nil(({ BadArgument = true, ArgumentError = true })[s.kind], s.file .. ":" .. s.line)
      end
    end
    assert.is_nil(errors.catalog.BadArgument)
    assert.is_nil(errors.catalog.ArgumentError)
  end)

  it("gives every catalog entry a title, causes and actions", function()
    for kind, entry in pairs(errors.catalog) do
      local e = { type = kind, message = "m" }
      for _, k in ipairs { "title", "causes", "actions" } do
        local v = entry[k]
        if type(v) == "function" then v = v(e) end
        assert.is_true(v ~= nil and v ~= "" and (type(v) ~= "table" or #v > 0), kind .. " has no " .. k)
      end
    end
  end)
end)

describe("misuse of the C module #unit", function()
  local vdx = require "vdx"

  local function misuse(f, ...)
    local ok, err = pcall(f, ...)
    assert.is_false(ok)
    assert.is_true(vdx.is_error(err, "InvalidArgument"), tostring(err))
    return err.message
  end

  it("is a typed InvalidArgument that names the function, not lauxlib's 'bad argument #1 to '?''", function()
    assert.equal("vdx.sleep: ms must be >= 0", misuse(vdx.sleep, -1))
    assert.equal("vdx.sleep: argument #1: number expected, got string", misuse(vdx.sleep, "soon"))
    assert.equal("vdx.spawn: argument #1: function expected, got number", misuse(vdx.spawn, 42))
    assert.equal("vdx.read_file: max_bytes out of range", misuse(vdx.read_file, "README.md", { max_bytes = -1 }))
    assert.equal("vdx.read_file: option 'timeout' must be an integer",
      misuse(vdx.read_file, "README.md", { timeout = 1.5 }))
  end)

  it("names the unknown option key, and keeps a name the message already has", function()
    local ok, err = pcall(vdx.read_file, "README.md", { max = 1 })
    assert.is_false(ok)
    assert.equal("vdx.read_file: unexpected key 'max' (known: max_bytes, timeout)", err.message)
    assert.equal("max", err.field)
    assert.matches("^vdx%.page_script: no embedded script nope;", misuse(vdx.page_script, "nope"))
    assert.matches("^vdx%.serve: host '0%.0%.0%.0' is not a loopback address", misuse(vdx.serve, { host = "0.0.0.0" }))
  end)

  it("leaves an error raised by Lua code alone on its way through the C module", function()
    local t = vdx.spawn(function() error(vdx.error("InvalidArgument", "raised in Lua")) end)
    local ok, err = pcall(vdx.wait, t)
    assert.is_false(ok)
    assert.equal("raised in Lua", err.message)
    assert.equal("done", vdx.wait(vdx.spawn(function() vdx.sleep(1) return "done" end)))
  end)
end)
