--- spec/mcp_idle_spec.lua: the MCP server gives memory back while its
-- client thinks (vdx.mcp_idle): one trim DELAY_MS after the last call,
-- none while a request is in flight; vdx.trim_memory returns freed pages.
local vdx = require "vdx"
local cjson = require "cjson"
local idle = require "vdx.mcp_idle"

describe("the idle trim of vdxlua mcp", function()
  it("#unit trims once after the last call, and never while a request is in flight", function()
    local busy, trims, collects = false, 0, 0
    local t = idle.new(function() return busy end, { delay_ms = 30, rss = function() return nil end,
      trim = function() trims = trims + 1 end,
      collect = function(what) assert.equal("collect", what) collects = collects + 1 end })
    vdx.sleep(60)
    assert.equal(0, trims) -- no call yet: nothing to give back
    t:call_ended()
    t:call_ended()
    vdx.sleep(10)
    assert.equal(0, trims) -- not before the delay
    vdx.sleep(60)
    assert.equal(1, trims) -- two calls, one trim
    assert.equal(1, collects)
    vdx.sleep(60)
    assert.equal(1, trims) -- nothing new: no second trim
    busy = true
    t:call_ended()
    vdx.sleep(60)
    assert.equal(1, trims) -- a request in flight when the time came
    busy = false
    t:call_ended()
    vdx.sleep(60)
    assert.equal(2, trims)
  end)

  it("#unit trims again only when the RSS grew by growth_kib since the last trim", function()
    local rss, trims = 10000, 0
    local t = idle.new(function() return false end, { delay_ms = 20, growth_kib = 2048,
      rss = function() return rss end, collect = function() end,
      trim = function() trims = trims + 1 rss = rss - 3000 end })
    t:call_ended()
    vdx.sleep(50)
    assert.equal(1, trims) -- the first look trims: nothing to compare with
    rss = rss + 1500       -- 7000 + 1500: grown by less than 2048
    t:call_ended()
    vdx.sleep(50)
    assert.equal(1, trims)
    rss = rss + 600        -- 7000 + 2100
    t:call_ended()
    vdx.sleep(50)
    assert.equal(2, trims)
    assert.is_number(idle.rss_kib()) -- Linux says
  end)

  it("vdx.trim_memory gives freed heap pages back to the system", function()
    -- Blocks of 8 KiB, every other one kept: the freed ones are pages in
    -- the middle of the heap, which free() alone never gives back.
    local all = {}
    for i = 1, 2000 do all[i] = ("x"):rep(8192) .. i end
    local kept = {}
    for i = 2, #all, 2 do kept[#kept + 1] = all[i] end
    all = nil
    collectgarbage()
    collectgarbage()
    -- true on glibc (Debian's); nil where the C library has no malloc_trim.
    assert.is_true(vdx.trim_memory())
    assert.equal(1000, #kept)
  end)

  it("runs after a tools/call ends, once, and not when idle_trim is false", function()
    local function server(opts)
      local reg = require("vdx.tools").new()
      reg:register { name = "echo", description = "Answers its text", scope = "none",
        input = { type = "object", properties = { text = { type = "string" } } },
        run = function(_, args) return { text = args.text } end }
      local roles = require("vdx.roles").new { launch = { headless = true } }
      local got = {}
      opts.registry, opts.roles = reg, roles
      opts.write = function(line) local m = cjson.decode(line) got[#got + 1] = m end
      local s = require("vdx.mcp").new(opts)
      s:handle_line(cjson.encode { jsonrpc = "2.0", id = 1, method = "initialize", params = {
        protocolVersion = "2025-06-18", capabilities = {}, clientInfo = { name = "spec", version = "1" } } })
      return s, got
    end
    local s, got = server {}
    s:handle_line(cjson.encode { jsonrpc = "2.0", id = 2, method = "tools/list" })
    vdx.sleep(idle.DELAY_MS + 100)
    assert.equal(0, s.idle.trims) -- no tool ran
    s:handle_line(cjson.encode { jsonrpc = "2.0", id = 3, method = "tools/call",
      params = { name = "echo", arguments = { text = "hi" } } })
    assert.equal("hi", got[#got].result.content[1].text)
    assert.equal(0, s.idle.trims)
    vdx.sleep(idle.DELAY_MS + 100)
    assert.equal(1, s.idle.trims)
    local off = server { idle_trim = false }
    assert.is_nil(off.idle)
  end)
end)
