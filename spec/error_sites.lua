--- spec/error_sites.lua: finds every place the source raises a typed error
-- and the kind it raises, by reading the C core (src/), the Lua layer
-- (lua/vdx/) and the bridge (bridge/src/).  Used by error_kinds_spec.
--
-- C: a call of vdx__misuse / vdx__misuse_push (InvalidArgument), of
-- vdx__error_push / vdx__error_raise, or of a function that
-- hands its own `const char *type` parameter on to one of them (bc_fail,
-- vdx__nav_fail, …: found from their bodies, so a new wrapper is found
-- too); every string literal shaped like a kind among its arguments
-- counts (both sides of `closed ? "BrowserClosed" : "PageClosed"`).
-- Lua: vdx.error("Kind", …), a table constructor's `type = "Kind"` (or
-- `type = x or "Kind"`), the flow helper fail("Kind", …) and a call of
-- errors.misuse(…) (InvalidArgument, as vdx__misuse in C).
-- JavaScript: bridgeError('Kind', …) (with the values of an UPPER_CASE
-- table its first argument indexes), badArgument(…) and checkKeys(…) (both
-- InvalidArgument) and the `error: 'Kind'` answers of describe().
local sites = {}

local function read(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("a")
  f:close()
  return s
end

local function files(dir, ext)
  local out = {}
  local p = assert(io.popen("find " .. dir .. " -name '*." .. ext .. "' | LC_ALL=C sort"))
  for line in p:lines() do out[#out + 1] = line end
  p:close()
  return out
end

-- Comments out of the way, with newlines kept so lines still count.
local function strip_c_comments(s)
  s = s:gsub("/%*.-%*/", function(c) return (c:gsub("[^\n]", " ")) end)
  return (s:gsub("//[^\n]*", ""))
end

local function line_of(s, pos)
  local _, n = s:sub(1, pos):gsub("\n", "")
  return n + 1
end

-- The text of the balanced parentheses that open at s[open].
local function call_args(s, open)
  local depth, i, quote = 0, open, nil
  while i <= #s do
    local c = s:sub(i, i)
    if quote then
      if c == "\\" then i = i + 1 elseif c == quote then quote = nil end
    elseif c == '"' or c == "'" then quote = c
    elseif c == "(" then depth = depth + 1
    elseif c == ")" then
      depth = depth - 1
      if depth == 0 then return s:sub(open + 1, i - 1) end
    end
    i = i + 1
  end
  return s:sub(open + 1)
end

local KIND = "^%u%w*%l%w*$"   -- one word, capitalised: "Timeout", "IOError", "BrowserNotFound"

local function kinds_in(args, q)
  local out = {}
  for lit in args:gmatch(q .. "([^" .. q .. "\n]*)" .. q) do
    if lit:match(KIND) then out[#out + 1] = lit end
  end
  return out
end

local function add(list, kind, file, s, pos, layer)
  list[#list + 1] = { kind = kind, file = file, line = line_of(s, pos), layer = layer }
end

-- The arguments of a call (the text call_args returns), split at the
-- commas outside parentheses and quotes, each trimmed.
local function split_args(args)
  local out, depth, quote, from = {}, 0, nil, 1
  for i = 1, #args do
    local c = args:sub(i, i)
    if quote then
      if c == quote and args:sub(i - 1, i - 1) ~= "\\" then quote = nil end
    elseif c == '"' or c == "'" then quote = c
    elseif c == "(" or c == "{" or c == "[" then depth = depth + 1
    elseif c == ")" or c == "}" or c == "]" then depth = depth - 1
    elseif c == "," and depth == 0 then
      out[#out + 1] = args:sub(from, i - 1):match("^%s*(.-)%s*$")
      from = i + 1
    end
  end
  out[#out + 1] = args:sub(from):match("^%s*(.-)%s*$")
  return out
end

-- Calls of a raiser in s: fn(name, pos, args) for each.
local function each_call(s, raisers, fn)
  for pos, name, open in s:gmatch("()([%w_]+)%s*()%(") do
    if raisers[name] and (pos == 1 or s:sub(pos - 1, pos - 1):match("[^%w_]")) then
      fn(name, pos, split_args(call_args(s, open)))
    end
  end
end

-- The C functions that raise a kind given as a parameter, each with the
-- position of that parameter: vdx__error_push/raise, and any function
-- with a `const char *NAME` parameter that it passes on as the kind of a
-- raiser (bc_fail, vdx__nav_fail, …), repeated until none turns up.
local function c_raisers(texts)
  local raisers = { vdx__error_push = 2, vdx__error_raise = 2 }
  local defs = {}
  for _, s in pairs(texts) do
    local braces = s:gsub("[{}]", { ["{"] = "(", ["}"] = ")" })
    for name, params, body_at in s:gmatch("\n[%w_][%w_ %*]-[ %*]([%w_]+)%(([^%)]*)%)%s*()%{") do
      defs[#defs + 1] = { name = name, params = split_args(params), body = call_args(braces, body_at) }
    end
  end
  local grew = true
  while grew do
    grew = false
    for _, d in ipairs(defs) do
      if not raisers[d.name] then
        for j, param in ipairs(d.params) do
          local p = param:match("^const char %*%s*([%w_]+)$")
          if p then
            each_call(d.body, raisers, function(name, _, args)
              if args[raisers[name]] == p and not raisers[d.name] then raisers[d.name], grew = j, true end
            end)
          end
        end
      end
    end
  end
  return raisers
end

--- The raise sites of the C core: a list of {kind, file, line, layer="C"},
-- and the raisers it looked for (function name -> position of the kind).
function sites.c(root)
  local texts, list = {}, {}
  local paths = files((root or ".") .. "/src", "c")
  for _, path in ipairs(paths) do
    texts[path] = strip_c_comments(read(path))
  end
  local raisers = c_raisers(texts)
  local misuse = { vdx__misuse = true, vdx__misuse_push = true }
  for _, path in ipairs(paths) do
    local s = texts[path]
    each_call(s, raisers, function(name, pos, args)
      for _, k in ipairs(kinds_in(args[raisers[name]] or "", '"')) do add(list, k, path, s, pos, "C") end
    end)
    each_call(s, misuse, function(_, pos, args)
      if not args[1]:find("const char", 1, true) then add(list, "InvalidArgument", path, s, pos, "C") end
    end)
  end
  return list, raisers
end

local function strip_lua_comments(s)
  s = s:gsub("%-%-%[(=*)%[.-%]%1%]", function(c) return (c:gsub("[^\n]", " ")) end)
  return (s:gsub("%-%-[^\n]*", ""))
end

--- The raise sites of the Lua layer, as sites.c.
function sites.lua(root)
  local list = {}
  for _, path in ipairs(files((root or ".") .. "/lua/vdx", "lua")) do
    local s = strip_lua_comments(read(path))
    for pos, k in s:gmatch("()vdx%.error%(%s*[\"']([%w_]+)[\"']") do add(list, k, path, s, pos, "Lua") end
    for pos, k in s:gmatch("()%f[%w_]fail%(%s*[\"']([%w_]+)[\"']") do add(list, k, path, s, pos, "Lua") end
    for pos in s:gmatch("()%f[%w_]misuse%s*%(") do
      if not s:sub(pos - 24, pos - 1):find("function%s+[%w_.:]*$") then add(list, "InvalidArgument", path, s, pos, "Lua") end
    end
    for pos, k in s:gmatch("()%f[%w_]type%s*=%s*[\"']([%w_]+)[\"']") do
      if k:match(KIND) then add(list, k, path, s, pos, "Lua") end
    end
    for pos, k in s:gmatch("()%f[%w_]type%s*=%s*[%w_.]+%s+or%s+[\"']([%w_]+)[\"']") do
      if k:match(KIND) then add(list, k, path, s, pos, "Lua") end
    end
  end
  return list
end

--- The raise sites of the bridge, as sites.c.
function sites.js(root)
  local list = {}
  for _, path in ipairs(files((root or ".") .. "/bridge/src", "js")) do
    local s = strip_c_comments(read(path))
    for pos, open in s:gmatch("()%f[%w_]bridgeError%s*()%(") do
      local args = call_args(s, open)
      if not s:sub(pos - 16, pos - 1):find("function%s+$") then
        local first = args:match("^(.-),") or args
        for _, k in ipairs(kinds_in(first, "'")) do add(list, k, path, s, pos, "JavaScript") end
        for tbl in first:gmatch("([%u_][%u%d_]+)%[") do
          local body = s:match("const%s+" .. tbl .. "%s*=%s*(%b{})")
          for k in (body or ""):gmatch(":%s*'([%w_]+)'") do add(list, k, path, s, pos, "JavaScript") end
        end
      end
    end
    for pos in s:gmatch("()%f[%w_]badArgument%s*%(") do
      if not s:sub(pos - 16, pos - 1):find("function%s+$") then add(list, "InvalidArgument", path, s, pos, "JavaScript") end
    end
    for pos, k in s:gmatch("()%f[%w_]error:%s*'([%w_]+)'") do add(list, k, path, s, pos, "JavaScript") end
  end
  return list
end

return sites
