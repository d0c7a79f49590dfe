--- spec/bounded_answers_spec.lua: every answer of vdxlua mcp stays within
-- its bound, and a cut says so and how to get on.  One long paragraph is
-- cut in its line (the bridge's MAX_RUN); a page of 1,000 frames is cut at
-- the snapshot's budget with its frames' text counted, and the same
-- warning from every frame is said once; any tool's text over 256 KB is
-- cut by the server's last guard.  Refs in a cut snapshot still act.
local vdx = require "vdx"
local helpers = require "helpers"
local client = require "mcp_client"

-- The snapshot budget is 12,000 tokens, about 48 KB; a reply adds its
-- header, warnings and JSON framing.
local SNAPSHOT_LINE = 64 * 1024
-- The server's bound of one text content, plus the cut line and framing.
local ANY_LINE = 256 * 1024 + 2048

local LONG = string.rep("lorem ipsum ", 875000)   -- 10.5 MB of text in one node (see /long)

local PAGES = {
  -- The text is made in the page: one text node, and no 10 MB response.
  ["GET /long"] = function()
    return "<title>long</title><p id=long></p>" ..
      "<button onclick='document.title = \"after clicked\"'>After</button>" ..
      "<script>document.getElementById('long').textContent = 'lorem ipsum '.repeat(875000)</script>"
  end,
  -- count frames, each with a paragraph of words words and a button.
  ["GET /frames"] = function(req)
    local count, words = req.query:match("count=(%d+)&words=(%d+)")
    local t = { "<title>frames</title>" }
    for i = 1, tonumber(count) do
      t[#t + 1] = ('<iframe srcdoc="<p>frame %d %s</p><button ' ..
        'onclick=&quot;document.body.append(\'pressed\')&quot;>Go %d</button>" width=30 height=30></iframe>')
        :format(i, string.rep("word ", tonumber(words)), i)
    end
    return table.concat(t)
  end,
  ["GET /stuck"] = function()
    local t = { "<title>stuck</title><p>frames that never load</p>" }
    for i = 1, 1000 do t[#t + 1] = ('<iframe src="/never?%d" width=10 height=10></iframe>'):format(i) end
    return table.concat(t)
  end,
  ["GET /never"] = function()
    vdx.sleep(60000)
    return "late"
  end,
  ["GET /p"] = function() return "<title>p</title><p>small</p>" end,
}

-- The length of the longest line of text.
local function longest(text)
  local n = 0
  for l in text:gmatch("[^\n]*") do n = math.max(n, #l) end
  return n
end

describe("answers of vdxlua mcp", function()
  local srv, s, call, seen

  setup(function()
    srv = helpers.serve(PAGES)
    s = client.start("")
    local _
    _, call = client.caller(s)
    seen = 0
  end)

  teardown(function()
    if s then s:close() end
    srv:close()
  end)

  -- The reply lines written since the last look.
  local function new_output()
    local all = client.read(s.dir .. "/out") or ""
    local fresh = all:sub(seen + 1)
    seen = #all
    return fresh
  end

  it("cuts one long paragraph in its line, and a ref after it still acts", function()
    call("browser_navigate", { url = srv.url .. "/long" })
    new_output()
    local res = call("browser_snapshot", {})
    local text = client.text { result = res }
    assert.is_true(longest(new_output()) < SNAPSHOT_LINE)
    assert.is_nil(res.isError, text)
    -- The run shows its first 4,000 characters; the mark counts the rest
    -- (the text's last space is trimmed).
    local shown, more = ("\n" .. text):match("\n%- paragraph: (lorem ipsum [^\n]-)…%((%d+) more characters%)\n")
    assert.is_string(shown, text:sub(1, 300))
    assert.equal(4000, #shown)
    assert.equal(#LONG - 1 - 4000, tonumber(more))
    local ref = text:match('button "After" %[ref=(e%d+)%]')
    assert.is_string(ref, text)
    res = call("browser_click", { element = "After", ref = ref })
    assert.is_nil(res.isError, client.text { result = res })
    assert.matches("Page Title: after clicked", client.text { result = call("browser_snapshot", { depth = 1 }) },
      1, true)
  end)

  it("keeps a page of 1,000 frames within the snapshot's bound", function()
    call("browser_navigate", { url = srv.url .. "/frames?count=1000&words=5" })
    new_output()
    -- On a loaded machine 1,000 frames may not all answer in time: the
    -- answer, whatever it is, stays within the bound.
    call("browser_snapshot", {})
    assert.is_true(longest(new_output()) < SNAPSHOT_LINE)
  end)

  it("counts frames' text in the snapshot's budget and says where it cut", function()
    call("browser_navigate", { url = srv.url .. "/frames?count=120&words=100" })
    new_output()
    local res = call("browser_snapshot", {})
    local text = client.text { result = res }
    assert.is_true(longest(new_output()) < SNAPSHOT_LINE)
    assert.is_nil(res.isError, text)
    assert.matches('- note: "snapshot truncated: lines 1 to %d+ of [a-z ]-%d+ shown; [a-z ]-%d+ more lines', text)
    assert.matches("browser_snapshot(offset=", text, 1, true)
    local ref, name = text:match('button "(Go %d+)" %[ref=(f%d+e%d+)%]')
    ref, name = name, ref
    assert.is_string(ref, text)
    res = call("browser_click", { element = name, ref = ref })
    assert.is_nil(res.isError, client.text { result = res })
  end)

  it("says a warning that 1,000 frames share once, and bounds the rest", function()
    call("browser_navigate", { url = srv.url .. "/stuck", wait_until = "commit" })
    new_output()
    local res = call("browser_snapshot", {})
    local text = client.text { result = res }
    assert.is_true(longest(new_output()) < SNAPSHOT_LINE)
    assert.is_nil(res.isError, text)
    local warnings = text:match("Warnings %(non%-critical%):\n(.*)$") or ""
    local n = 0
    for _ in warnings:gmatch("\n%- ") do n = n + 1 end
    assert.is_true(n <= 21, warnings)
    call("browser_navigate", { url = srv.url .. "/p", wait_until = "commit" })
  end)

end)

describe("the last guard of vdxlua mcp", function()
  local dir, s, call

  setup(function()
    dir = client.tmpdir()
    -- A tool that answers 3 MB of text and 3 MB of structured content.
    helpers.write(dir .. "/big.lua", [[register { name = "big", description = "Answers a lot.",
      input = { type = "object", properties = {} },
      run = function() return { text = ("é"):rep(1536 * 1024), structured = { blob = ("y"):rep(3 * 1024 * 1024) } } end }
    ]])
    s = client.start("--tools " .. client.q(dir .. "/big.lua"))
    local _
    _, call = client.caller(s)
  end)

  teardown(function()
    if s then s:close() end
    os.execute("rm -rf " .. client.q(dir))
  end)

  it("cuts any tool's text over 256 KB with a line that says so, at a character's edge", function()
    local res = call("big", {})
    local out = client.read(s.dir .. "/out")
    assert.is_true(longest(out) < ANY_LINE)
    local text = client.text { result = res }
    assert.is_truthy(utf8.len(text))
    assert.matches("\n…%(answer cut: %d+ more bytes of 3145728 left out, over the 262144%-byte bound of one " ..
      "answer; to see the rest, ask the tool for less%)\n…%(the structured result, over %d+ bytes of JSON, was left " ..
      "out: over the 262144%-byte bound of one answer%)$", text)
    assert.equal(262144, #text:match("^(.-)\n…%(answer cut"))
    assert.is_nil(res.structuredContent)
  end)
end)
