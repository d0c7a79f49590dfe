-- The committed bridge bundle must be what bridge/src builds to (when Node
-- and the bridge's dev dependencies are available); calls into it carry
-- numbers exactly.
local h = require "helpers"

describe("the bridge bundle", function()
  it("is not stale relative to bridge/src", function()
    local _, node = h.run("command -v node")
    if node ~= 0 then
      pending("node is not installed: cannot rebuild the bundle here")
      return
    end
    local _, have = h.run("test -d bridge/node_modules/esbuild")
    if have ~= 0 then
      local out, st = h.run("cd bridge && npm ci --no-audit --no-fund --silent")
      if st ~= 0 then
        pending("npm ci failed (no registry?): " .. out:sub(1, 200))
        return
      end
    end
    local fresh = os.tmpname()
    local out, st = h.run("node bridge/build.mjs --out " .. fresh)
    assert.equal(0, st, out)
    local a = assert(io.open(fresh, "rb")):read("a")
    local b = assert(io.open("bridge/dist/vdx-bridge.js", "rb")):read("a")
    os.remove(fresh)
    assert.is_true(a == b, "bridge/dist/vdx-bridge.js is stale: run `make bridge` and commit it")
  end)

  it("embeds the main-world scripts of bridge/page beside it, byte for byte", function()
    local vdx = require "vdx"
    for _, name in ipairs { "evaluate-serialize", "evaluate-awaited", "clock", "clock-command" } do
      local f = assert(io.open("bridge/page/" .. name .. ".js", "rb"))
      local want = f:read("a")
      f:close()
      assert.equal(want, vdx.page_script(name))
      -- bare: the same text from its first line that is no comment.
      local bare = want
      while bare:sub(1, 2) == "//" do bare = bare:sub(bare:find("\n", 1, true) + 1) end
      assert.is_true(#bare < #want, name .. ".js starts with a comment line")
      assert.equal(bare, vdx.page_script(name, true))
      assert.is_not.matches("^//", bare)
    end
    local ok, err = pcall(vdx.page_script, "../dist/vdx-bridge")
    assert.is_false(ok)
    assert.is_true(vdx.is_error(err, "InvalidArgument"), tostring(err))
  end)

  it("carries a version banner that the host checks", function()
    local first = assert(io.open("bridge/dist/vdx-bridge.js")):read("l")
    assert.matches("^/%* vdx%-bridge %d+%.%d+%.%d+ %*/$", first)
  end)

end)

-- Page code lives in bridge/ only: the C core and the Lua layer reach the
-- page through the bridge's methods (page:bridge, vdx__bridge_call) and the
-- embedded scripts of bridge/page (vdx.page_script).  The check reads the
-- string literals of src/**/*.c and lua/**/*.lua (comments left out) and
-- fails on one that reads as JavaScript.
describe("the page boundary #unit", function()
  -- What reads as code, not as prose naming a call ("document.write()"):
  -- an arrow function, a function expression, the bridge's global, a
  -- property chain or a call with arguments on a page object.
  local JS = { "[%w_%)]%s*=>%s*[%w_{(%[\"']", "function%s*[%w_]*%s*%([%w_,%s]*%)%s*{", "globalThis",
    "__vdxBridge", "document%.[%w_]+[%.%[]", "document%.title", "location%.href", "window%[",
    "localStorage%.[%w_]+%(%s*[%w_]" }
  -- Strings that are JavaScript on purpose, with why.
  local ALLOWED = {
    -- A Playwright test file written for the user, not code run in a page.
    ["lua/vdx/flow_export.lua"] = true,
    ["lua/vdx/pw_spec.lua"] = true,
    ["lua/vdx/session_export.lua"] = true,
    ["lua/vdx/route_export.lua"] = true,
  }
  local ALLOWED_TEXT = {
    -- The input schema of browser_evaluate shows the agent what to write.
    ["() => { /* code */ } or (element) => { /* code */ } when ref is given"] = true,
  }

  -- The text of the string quoted at i (its quote, ' or ", closes it;
  -- backslashes escape) and the index just past it.
  local function quoted(src, i)
    local q, j = src:sub(i, i), i + 1
    while src:sub(j, j) ~= q and j <= #src do j = j + (src:sub(j, j) == "\\" and 2 or 1) end
    return src:sub(i + 1, j - 1), j + 1
  end

  -- The string literals of a C file.
  local function c_strings(src)
    local out, i = {}, 1
    while i <= #src do
      local c2 = src:sub(i, i + 1)
      if c2 == "/*" then i = (src:find("*/", i + 2, true) or #src) + 2
      elseif c2 == "//" then i = (src:find("\n", i, true) or #src) + 1
      elseif src:sub(i, i) == "'" then i = src:find("'", src:sub(i + 1, i + 1) == "\\" and i + 3 or i + 2, true) + 1
      elseif src:sub(i, i) == '"' then
        out[#out + 1], i = quoted(src, i)
      else i = i + 1 end
    end
    return out
  end

  -- The string literals of a Lua file (quoted and long strings).
  local function lua_strings(src)
    local out, i = {}, 1
    while i <= #src do
      local long = src:match("^%[(=*)%[", i)
      if src:sub(i, i + 1) == "--" then
        local eq = src:match("^%-%-%[(=*)%[", i)
        i = eq and (select(2, src:find("]" .. eq .. "]", i, true)) or #src) + 1
          or (src:find("\n", i, true) or #src) + 1
      elseif long then
        local close = "]" .. long .. "]"
        local j = src:find(close, i, true) or #src
        out[#out + 1] = src:sub(i + #long + 2, j - 1)
        i = j + #close
      elseif src:sub(i, i) == '"' or src:sub(i, i) == "'" then
        out[#out + 1], i = quoted(src, i)
      else i = i + 1 end
    end
    return out
  end

  local function files(cmd)
    local list = {}
    local p = assert(io.popen(cmd))
    for l in p:lines() do list[#list + 1] = l end
    p:close()
    return list
  end

  it("finds JavaScript in a C or Lua string literal", function()
    local c = c_strings('/* "document.x" */ static const char F[] = "function (a) { return globalThis.x; }";')
    assert.same({ "function (a) { return globalThis.x; }" }, c)
    local l = lua_strings("-- 'window.x'\nlocal a, b = \"location.href\", [[ (x) => x ]] --[[ '=>' ]]")
    assert.same({ "location.href", " (x) => x " }, l)
  end)

  it("holds no JavaScript in src/**/*.c or lua/**/*.lua", function()
    local found = {}
    local list = files("find src -name '*.c'; find lua -name '*.lua'")
    assert.is_true(#list > 40, "too few files: run the spec from the top of the tree")
    for _, path in ipairs(list) do
      if not ALLOWED[path] then
        local src = assert(io.open(path, "rb")):read("a")
        for _, s in ipairs((path:match("%.c$") and c_strings or lua_strings)(src)) do
          for _, pat in ipairs(JS) do
            if s:find(pat) and not ALLOWED_TEXT[s] then
              found[#found + 1] = ("%s: %q"):format(path, s:sub(1, 80))
              break
            end
          end
        end
      end
    end
    assert.equal("", table.concat(found, "\n"))
  end)
end)

describe("a bridge call", function()
  local srv, browser, page

  setup(function()
    srv, browser, page = h.open()
  end)

  teardown(function() h.shut(browser, srv) end)

  -- Arguments and results cross the CDP wire through vdx.json: the page
  -- gets the doubles Lua had, Lua the doubles the page had.
  it("carries numbers to the page and back exactly", function()
    page:navigate("data:text/html,<button>Go</button>")
    local ref = page:snapshot().text:match("%[ref=(e%d+)%]")
    assert.is_string(ref)
    local got = page:bridge("evaluateOn", { ref, "(el, a, b) => [a, b, String(a), String(b)]",
      { 0.1 + 0.2, 1000000000000001 } }, { frame = ref })
    assert.same({ 0.1 + 0.2, 1000000000000001, "0.30000000000000004", "1000000000000001" }, got)
    assert.equal("integer", math.type(got[2]))
  end)
end)
