-- Every code block in README.md and docs/*.md is either run here (by the
-- handler its `<!-- doc-test: NAME -->` marker names, with the fixtures it
-- needs) or marked `<!-- fragment: why -->`.  An unmarked block fails.
local h = require "helpers"
local cjson = require "cjson"

local q, read = h.quote, h.read
local B = os.getenv("VDX_BUILD") or "build"

-- The fenced blocks of the file at path: { line =, lang =, code =, mark = }.
local function blocks(path)
  local out, cur, prev = {}, nil, nil
  local n = 0
  for line in (read(path) .. "\n"):gmatch("([^\n]*)\n") do
    n = n + 1
    if cur then
      if line == "```" then
        out[#out + 1] = cur
        cur = nil
      else
        cur.code = cur.code .. line .. "\n"
      end
    elseif line:match("^```") then
      cur = { line = n, lang = line:match("^```(%S*)"), code = "", file = path,
        mark = prev and (prev:match("^<!%-%- doc%-test: ([%w%-]+)") or (prev:match("^<!%-%- fragment") and "fragment")) }
    end
    if line:match("%S") then prev = line end
  end
  return out
end

local function docs()
  local files = { "README.md" }
  for f in h.run("ls docs/*.md"):gmatch("%S+") do files[#files + 1] = f end
  local all = {}
  for _, f in ipairs(files) do
    for _, b in ipairs(blocks(f)) do all[#all + 1] = b end
  end
  return all
end

-- The shell commands of a block: continuation lines joined, comments cut.
local function commands(code)
  local out, acc = {}, ""
  for line in code:gmatch("[^\n]+") do
    line = line:gsub("%s+#%s.*$", "")
    if line:match("\\%s*$") then
      acc = acc .. line:gsub("\\%s*$", " ")
    else
      out[#out + 1] = acc .. line
      acc = ""
    end
  end
  return out
end

local function with_build(cmd)
  return (cmd:gsub("^build/vdxlua", q(h.vdxlua)):gsub("build/%?%.so", B .. "/?.so"))
end

local function tmpfile(text)
  local path = os.tmpname()
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
  return path
end

local INPUT = cjson.encode { jsonrpc = "2.0", id = 1, method = "initialize", params = {
  protocolVersion = "2025-06-18", capabilities = {}, clientInfo = { name = "spec", version = "1" } } } .. "\n"

-- Runs `vdxlua mcp …` with lines on stdin; returns the replies by id and
-- the exit status.
local function mcp(cmd, lines)
  local input = tmpfile(INPUT .. table.concat(lines, "\n") .. "\n")
  local out, rc = h.run(with_build(cmd) .. " < " .. input .. " 2>/dev/null")
  os.remove(input)
  local by_id = {}
  for line in out:gmatch("[^\n]+") do
    local ok, m = pcall(cjson.decode, line)
    if ok and type(m) == "table" and m.id then by_id[m.id] = m end
  end
  return by_id, rc, out
end

local function tool_names(reply)
  local names = {}
  for _, t in ipairs(reply.result.tools) do names[t.name] = true end
  return names
end

local LIST = '{"jsonrpc":"2.0","id":2,"method":"tools/list"}'

local HANDLERS = {}

function HANDLERS.shell(b)
  for _, cmd in ipairs(commands(b.code)) do
    if cmd:match("^LUA_CPATH") and os.getenv("VDX_ASAN") then break end
    local out, rc = h.run(with_build(cmd))
    assert.equal(0, rc, cmd .. "\n" .. out)
  end
end

-- The output a Lua block promises: the text after each `-->` comment.
local function promised(code)
  local out = {}
  for text in code:gmatch("%-%->%s*([^\n]-)%s*\n") do out[#out + 1] = text end
  return out
end

-- Runs a Lua block as a script (with runner, a shell command prefix) and
-- checks that it exits 0 and prints what its `-->` comments promise.
local function run_lua(b, runner)
  local expected = promised(b.code)
  assert.is_true(#expected > 0, "a Lua doc-test promises its output in `-->` comments")
  local path = tmpfile(b.code)
  local out, rc = h.run(runner .. " " .. path)
  os.remove(path)
  assert.equal(0, rc, out)
  for _, text in ipairs(expected) do assert.matches(text, out, 1, true) end
end

function HANDLERS.api(b) run_lua(b, q(h.vdxlua)) end

-- The same, under a stock lua5.4 with the build's module on the paths.
HANDLERS["stock-lua"] = function(b)
  if os.getenv("VDX_ASAN") then return end
  run_lua(b, ("LUA_CPATH=%s LUA_PATH='lua/?.lua;;' lua5.4"):format(q(B .. "/?.so;;")))
end

function HANDLERS.mcp(b)
  local cmds = commands(b.code)
  assert.equal(3, #cmds)
  for _, cmd in ipairs(cmds) do
    local by_id, rc, out = mcp(cmd, { LIST })
    assert.equal(0, rc, cmd .. "\n" .. out)
    assert.is_table(by_id[2] and by_id[2].result, cmd .. "\n" .. out)
  end
  local names = tool_names(mcp(cmds[3], { LIST })[2])
  assert.is_true(names.count_cards)
  assert.is_true(names.count_product_cards)
end

-- A client's MCP config: each server it names starts, with vdxlua (which
-- the config finds on PATH) being the build's, and lists its tools.
HANDLERS["client-config"] = function(b)
  local servers = cjson.decode(b.code).mcpServers
  local n = 0
  for name, s in pairs(servers) do
    n = n + 1
    assert.equal("vdxlua", s.command, name)
    local args = {}
    for i, a in ipairs(s.args) do args[i] = q(a) end
    local by_id, rc, out = mcp("build/vdxlua " .. table.concat(args, " "), { LIST })
    assert.equal(0, rc, out)
    assert.is_true(tool_names(by_id[2]).browser_navigate, out)
  end
  assert.is_true(n > 0)
end

function HANDLERS.config(b)
  assert.equal(read("examples/vdx.config.lua"), b.code)
  local mgr = require("vdx.roles").new {}
  assert.is_table(mgr:load_config("examples/vdx.config.lua"))
  assert.equal("customer", mgr:current().name)
end

HANDLERS["skill-tools"] = function(b)
  assert.equal(read("examples/skills/my-skill/tools.lua"), b.code)
  local by_id, rc = mcp("build/vdxlua mcp --no-default-skills --skills examples/skills", {
    cjson.encode { jsonrpc = "2.0", id = 2, method = "tools/call", params = { name = "count_product_cards",
      arguments = {} } } })
  assert.equal(0, rc)
  assert.equal("0", by_id[2].result.content[1].text)
end

function HANDLERS.flow(b)
  local path = tmpfile(b.code)
  local out, rc = h.run(q(h.vdxlua) .. " " .. path)
  os.remove(path)
  assert.equal(0, rc, out)
  assert.matches("\n✔ [^\n]*: %d+ steps in %d+ ms\n", out)
end

describe("the documentation's code blocks", function()
  local all = docs()

  it("are each run here or marked as a fragment", function()
    local unmarked = {}
    for _, b in ipairs(all) do
      if not b.mark or (b.mark ~= "fragment" and not HANDLERS[b.mark]) then
        unmarked[#unmarked + 1] = ("%s:%d (%s)"):format(b.file, b.line, tostring(b.mark))
      end
    end
    assert.same({}, unmarked)
  end)

  for _, b in ipairs(all) do
    if b.mark and b.mark ~= "fragment" and HANDLERS[b.mark] then
      it(("run: %s:%d (%s)"):format(b.file, b.line, b.mark), function() HANDLERS[b.mark](b) end)
    end
  end
end)

describe("the help texts", function()
  it("say page:navigate(), never page:goto()", function()
    local out = h.run(q(h.vdxlua) .. " --help")
    assert.matches("page:navigate()", out, 1, true)
    assert.not_matches("page:goto", out)
  end)
end)
