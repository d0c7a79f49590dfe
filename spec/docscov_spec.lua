--- docs/api.md names every public function and field of the live `vdx`
-- module and of the objects it hands out (as luv's docscov fails its build
-- on an undocumented function): a name added to the module without a line
-- in the reference fails here, listing each such name as the reference
-- should spell it (`page:set_slider`, `snap.text`).  The objects are real
-- ones, from a launched browser, so a method installed from Lua
-- (lua/vdx.lua) counts as much as one registered in C.
local vdx = require "vdx"
local h = require "helpers"

-- True when text names `qualified` (`page:click`, `vdx.now`) as a whole
-- name: not a suffix of a longer one (`xpage:click`, `vdx.nowhere`).
local function names(text, qualified)
  local from = 1
  while true do
    local s, e = text:find(qualified, from, true)
    if not s then return false end
    if not text:sub(s - 1, s - 1):match("[%w_]") and not text:sub(e + 1, e + 1):match("[%w_]") then
      return true
    end
    from = e + 1
  end
end

-- The public keys of t (strings not starting with `_`), sorted.
local function public(t)
  local out = {}
  for k in pairs(t) do
    if type(k) == "string" and not k:match("^_") then out[#out + 1] = k end
  end
  table.sort(out)
  return out
end

-- How docs/api.md calls an object of each class vdx registers (its
-- metatable's __name): the methods of every such class with a methods
-- table are walked, so a class added later fails here until it is named.
local CLASSES = {
  ["vdx.Browser"] = "browser:", ["vdx.Context"] = "ctx:", ["vdx.Page"] = "page:",
  ["vdx.Task"] = "task:", ["vdx.Watcher"] = "watcher:", ["vdx.LineReader"] = "reader:",
  ["vdx.Dir"] = "dir:",
}

-- The surfaces of the classes in the registry: { prefix, methods table },
-- and the names of classes that have methods but no prefix above.
local function classes()
  local out, unnamed = {}, {}
  for name, mt in pairs(debug.getregistry()) do
    if type(name) == "string" and name:match("^vdx%.") and type(mt) == "table" and type(mt.__index) == "table" then
      if CLASSES[name] then out[#out + 1] = { CLASSES[name], mt.__index, class = name }
      else unnamed[#unnamed + 1] = name end
    end
  end
  return out, unnamed
end

describe("docs/api.md against the live module", function()
  local doc = assert(h.read("docs/api.md"))
  local srv, browser, surfaces, unnamed
  local reached = {}

  setup(function()
    srv = h.serve {
      ["GET /many"] = function()
        return "<title>many</title>" .. ("<button>b</button>"):rep(3000)
      end,
    }
    browser = vdx.launch {}
    local ctx = browser:new_context()
    assert.equal("vdx.Context", getmetatable(ctx).__name)
    local page = ctx:new_page()
    page:navigate("data:text/html,<title>t</title><button>Go</button>")
    local snap = page:snapshot()
    local nav = page:navigate(srv.url .. "/many")
    -- A snapshot cut by its budget carries the fields that say where to go on.
    local cut = page:snapshot { budget_tokens = 100 }
    local cut_rest = page:snapshot { budget_tokens = 100, offset = cut.next_offset }
    local watcher = assert(vdx.watch("spec", function() end))
    local task = vdx.spawn(function() end)
    -- A line reader registers its class when the first one is made.
    local ok, reader = pcall(vdx.read_lines, 0, function() end)
    if ok then reader:close() end
    -- The server's fields come from its __index function, so they are
    -- listed here and each checked to answer.
    local server_fields = {}
    for _, k in ipairs { "url", "port", "root", "closed", "close" } do
      assert.is_not_nil(srv[k], "srv." .. k)
      server_fields[k] = true
    end
    surfaces = {
      { "vdx.", vdx },
      { "vdx.input.", vdx.input },
      { "vdx.secrets.", vdx.secrets },
      { "nav.", nav },
      { "snap.", snap },
      { "snap.", cut },
      { "snap.", cut_rest },
      { "err.", vdx.error("Timeout", "a message", {}) },
      { "srv.", server_fields, method = { close = "srv:" } },
    }
    local found
    found, unnamed = classes()
    for _, c in ipairs(found) do
      surfaces[#surfaces + 1] = c
      reached[c.class] = true
    end
    vdx.wait(task)
    watcher:close()
  end)

  teardown(function() h.shut(browser, srv) end)

  it("walks a surface large enough to mean something", function()
    -- A walk that stopped reaching the objects would pass the check below
    -- for nothing.
    local n = 0
    for _, s in ipairs(surfaces) do n = n + #public(s[2]) end
    assert.is_true(n >= 120, n .. " public names found")
    for _, class in ipairs { "vdx.Browser", "vdx.Context", "vdx.Page", "vdx.Task", "vdx.Watcher" } do
      assert.is_true(reached[class], class .. " was not found in the registry")
    end
    assert.is_function(vdx.Page.click)
  end)

  it("knows what the reference calls an object of each class", function()
    assert.same({}, unnamed)
  end)

  it("documents every public name", function()
    local missing, seen = {}, {}
    for _, s in ipairs(surfaces) do
      local prefix, t = s[1], s[2]
      for _, k in ipairs(public(t)) do
        local q = ((s.method or {})[k] or prefix) .. k
        if not seen[q] and not names(doc, q) then missing[#missing + 1] = q end
        seen[q] = true
      end
    end
    assert.same({}, missing)
  end)

  it("names no method the objects lack", function()
    -- The other way round: a method the reference shows (`page:goto`,
    -- `task:join`) that no live object has is a guess a reader would copy.
    local known, stale = {}, {}
    for _, s in ipairs(surfaces) do
      for _, k in ipairs(public(s[2])) do known[((s.method or {})[k] or s[1]) .. k] = true end
    end
    for _, prefix in pairs(CLASSES) do
      for name in doc:gmatch("%f[%w_]" .. prefix:gsub(":", "%%:") .. "([%a_][%w_]*)") do
        if not known[prefix .. name] then stale[prefix .. name] = true end
      end
    end
    local list = {}
    for k in pairs(stale) do list[#list + 1] = k end
    table.sort(list)
    assert.same({}, list)
  end)
end)
