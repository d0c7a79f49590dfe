--- The tool registry: registration, schema validation, tool files, rendering.
local tools = require "vdx.tools"
local schema = require "vdx.schema"
local json = require "vdx.json"

local function echo_tool(input)
  return { name = "echo", description = "Echo the arguments.\nSecond line.", input = input,
    run = function(_, args) return { text = "ok", structured = args } end }
end

local function tmpfile(text)
  local path = os.tmpname() .. ".lua"
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
  return path
end

describe("vdx.tools #unit", function()
  local reg, input
  before_each(function()
    reg = tools.new()
    input = { type = "object", required = { "ref" }, properties = {
      ref = { type = "string" },
      count = { type = "integer", minimum = 1, maximum = 10 },
      ratio = { type = "number", exclusiveMaximum = 1 },
      mode = { type = "string", enum = { "form", "text" } },
      tags = { type = "array", items = { type = "string" }, maxItems = 2 },
      fields = { type = "array", items = { type = "object", required = { "name" },
        properties = { name = { type = "string" } } } },
    } }
    reg:register(echo_tool(input))
  end)

  it("registers, lists and gets tools in order", function()
    reg:register { name = "second", description = "x", run = function() end }
    assert.same({ "echo", "second" }, { reg:list()[1].name, reg:list()[2].name })
    assert.equal("echo", reg:get("echo").name)
    assert.is_nil(reg:get("nope"))
    assert.is_false(reg:get("second").input.additionalProperties)
  end)

  it("raises on malformed tools", function()
    assert.has_error(function() reg:register { name = "bad name", description = "", run = print } end)
    assert.has_error(function() reg:register { name = "x", description = "d" } end)
    assert.has_error(function() reg:register { name = "x", description = "d", run = print, input = { type = "array" } } end)
    assert.has_error(function() reg:register { name = "x", description = "d", run = print, annotations = { nope = true } } end)
  end)

  it("tells listeners about changes", function()
    local events = {}
    reg:on_change(function(ev, name) events[#events + 1] = ev .. ":" .. name end)
    reg:register { name = "n", description = "d", run = print }
    reg:unregister("n")
    assert.same({ "register:n", "unregister:n" }, events)
  end)

  local cases = {
    { {}, "field ref: required, expected string" },
    { { ref = 3 }, "field ref: expected string, got integer" },
    { { ref = "e1", count = 0 }, "field count: expected a number >= 1, got 0" },
    { { ref = "e1", count = 11 }, "field count: expected a number <= 10, got 11" },
    { { ref = "e1", count = 1.5 }, "field count: expected integer, got number" },
    { { ref = "e1", ratio = 1 }, "field ratio: expected a number < 1, got 1" },
    { { ref = "e1", mode = "full" }, 'field mode: expected one of "form", "text", got "full"' },
    { { ref = "e1", tags = { "a", 2 } }, "field tags[1]: expected string, got integer" },
    { { ref = "e1", tags = { "a", "b", "c" } }, "field tags: expected at most 2 items, got 3" },
    { { ref = "e1", fields = { {} } }, "field fields[0].name: required, expected string" },
    { { ref = "e1", bogus = true }, "field bogus: unknown field, expected one of: count, fields, mode, ratio, ref, role, tags" },
    { { ref = "e1", mode = json.null }, "field mode: expected string, got null" },
  }
  for _, c in ipairs(cases) do
    it("rejects " .. c[2], function()
      local ok, msg = reg:validate("echo", c[1])
      assert.is_nil(ok)
      assert.equal(c[2], msg)
    end)
  end

  it("accepts valid arguments, integral floats as integers and {} as an empty array", function()
    assert.is_true(reg:validate("echo", { ref = "e1", count = 3.0, ratio = 0.5, mode = "form",
      tags = {}, fields = { { name = "x" } } }))
    assert.is_true(schema.validate({ type = { "string", "null" } }, json.null))
  end)

  it("gives run an integral float of an integer argument as a Lua integer, in arrays too", function()
    local seen
    reg:register { name = "ints", description = "d", input = { type = "object", properties = {
      n = { type = "integer" }, x = { type = "number" },
      list = { type = "array", items = { type = "integer" } } } },
      run = function(_, args) seen = args return "ok" end }
    reg:call("ints", { n = 6.0, x = 2.0, list = { 1.0, 2.0 } }, {})
    assert.equal("integer", math.type(seen.n))
    assert.equal("float", math.type(seen.x))
    assert.equal("integer", math.type(seen.list[2]))
  end)

  it("answers a bad call with isError and the formatted InvalidArgument", function()
    local res = reg:call("echo", { ref = 1 }, {})
    assert.is_true(res.isError)
    assert.equal("InvalidArgument", res.error.type)
    assert.matches("^❌ Invalid argument\nTool: echo\nField: ref\n", res.content[1].text)
    assert.matches("field ref: expected string, got integer", res.content[1].text, 1, true)
  end)

  it("turns run's return values into results", function()
    local res = reg:call("echo", { ref = "e1" }, {})
    assert.same({ ref = "e1" }, res.structuredContent)
    assert.equal("ok", res.content[1].text)
    reg:register { name = "s", description = "d", run = function() return "plain" end }
    assert.equal("plain", reg:call("s", {}, {}).content[1].text)
    reg:register { name = "n", description = "d", run = function() end }
    assert.equal("Done.", reg:call("n", {}, {}).content[1].text)
  end)

  it("formats typed errors and unexpected Lua errors from run, never raising", function()
    local vdx = require "vdx"
    reg:register { name = "typed", description = "d", run = function()
      error(vdx.error("StaleRef", "e5 was removed", { ref = "e5", role = "button", name = "Buy" }), 0) end }
    reg:register { name = "boom", description = "d", run = function() local t = nil; return t.x end }
    local typed = reg:call("typed", {}, {})
    assert.is_true(typed.isError)
    assert.matches("^❌ Element is no longer on the page\nTool: typed\nRef: e5\nARIA role: button\nName: Buy\n", typed.content[1].text)
    local boom = reg:call("boom", {}, { log = function() end })
    assert.is_true(boom.isError)
    assert.matches("^❌ Unexpected error\nTool: boom\nMessage: .*attempt to index", boom.content[1].text)
  end)

  it("loads tool files: register{} calls and returned tables", function()
    local path = tmpfile([[
      register { name = "from_register", description = "A", run = function() return "a" end }
      return { { name = "from_return", description = "B", run = function() return "b" end } }
    ]])
    local added = assert(reg:load_file(path))
    os.remove(path)
    assert.same({ "from_register", "from_return" }, added)
    assert.equal("b", reg:call("from_return", {}, {}).content[1].text)
  end)

  it("reports a tool file with a syntax error or a runtime error, keeping the rest", function()
    local bad = tmpfile("register { name = 'x', description = 'x', run = function() end \n")
    local ok, err = reg:load_file(bad)
    assert.is_nil(ok)
    assert.matches("expected", err)
    local boom = tmpfile("error('cannot start')\n")
    ok, err = reg:load_file(boom)
    assert.is_nil(ok)
    assert.matches("cannot start", err)
    assert.matches("stack traceback", err)
    os.remove(bad) os.remove(boom)
    assert.equal(2, #reg.failures)
    assert.is_not_nil(reg:get("echo"))
  end)

  it("renders the list and the Markdown reference", function()
    assert.equal("echo  Echo the arguments.", tools.render_list(reg))
    local md = tools.render_markdown(reg)
    assert.matches("| [`echo`](#echo) | Echo the arguments. |", md, 1, true)
    assert.matches("| `ref` | string | yes |", md, 1, true)
    assert.matches("| `mode` | string (`form`, `text`) | no |", md, 1, true)
  end)

  it("registers every built-in tool through the same registry", function()
    local r = require("vdx.builtin").register_all(tools.new())
    local names = {}
    for _, t in ipairs(r:list()) do names[t.name] = true end
    for _, n in ipairs { "browser_navigate", "browser_navigate_back", "browser_snapshot", "browser_click",
      "browser_type", "browser_fill_form", "browser_select_option", "browser_hover", "browser_drag",
      "browser_press_key", "browser_wait_for", "browser_file_upload", "browser_handle_dialog",
      "browser_console_messages", "browser_network_requests", "browser_take_screenshot", "browser_evaluate",
      "browser_tabs", "browser_resize", "browser_close", "browser_click_at", "browser_read_html",
      "resolve_container", "inspect_pattern", "extract_anchors", "browser_verify_locator", "browser_generate_locator",
      "select_role", "list_roles", "get_current_role" } do
      assert.is_true(names[n], n)
    end
  end)

  it("gives browser_snapshot the one default budget, passes a given one on and names the role only among several", function()
    -- Policy only: a stand-in page records what its frames are asked for.
    local r = require("vdx.builtin").register_all(tools.new())
    local seen
    local page = { snapshot_frames = function(_, options)
      seen = options
      return { root_frame = "main", frames = { main = { ok = true, value = { text = "- button \"Go\" [ref=e1]\n- button \"Stop\" [ref=e2]",
        url = "http://127.0.0.1/", title = "t", ref_count = 2, element_count = 2, unmeasurable = 0 } } } }
    end }
    local role = { name = "default", failures = { drain = function() return {} end } }
    local ctx = { role = role, page = function() return page end }
    local res = r:call("browser_snapshot", {}, ctx)
    assert.is_nil(res.isError, res.content and res.content[1].text)
    -- One walk serves the answer and the change report's whole baseline:
    -- the bridges read as far as the baseline needs, and the answer is cut
    -- at the budget (below).
    local whole = require("vdx.changes").BUDGET_TOKENS * 4
    assert.equal(whole, seen.maxChars)
    assert.equal("Page URL: http://127.0.0.1/\nPage Title: t\n"
      .. "- button \"Go\" [ref=e1]\n- button \"Stop\" [ref=e2]\n", res.content[1].text)
    -- The role is named where the server has another to tell it from.
    -- The URL and title the answer just before told are left out; told
    -- again after another answer (here a failed click) came between.
    local two = { role = role, page = ctx.page, roles = { count = function() return 2 end } }
    assert.matches("^Role: default\n%- button", r:call("browser_snapshot", {}, two).content[1].text)
    assert.is_true(r:call("browser_click", { element = "Go", ref = "e1" }, two).isError)
    assert.matches("^Page URL: http://127.0.0.1/\nPage Title: t\nRole: default\n%- button",
      r:call("browser_snapshot", {}, two).content[1].text)
    -- A given budget cuts the answer; the other options reach the bridges.
    r:call("browser_snapshot", { budget_tokens = 100 }, ctx)
    assert.equal(whole, seen.maxChars)
    local long = { snapshot_frames = function(_, options)
      seen = options
      local line = "- button \"" .. ("x"):rep(300) .. "\" [ref=e1]\n"
      return { root_frame = "main", frames = { main = { ok = true, value = { text = line:rep(200),
        url = "u", title = "t", ref_count = 200, element_count = 200, unmeasurable = 0 } } } }
    end }
    -- 200 lines of 321 characters (the newline counted): the default
    -- budget of 48,000 characters shows 149 of them, and counts their refs.
    local cut = r:call("browser_snapshot", {}, { role = role, page = function() return long end })
    assert.is_true(cut.structuredContent.truncated)
    assert.equal(12000 * 4 // 321, cut.structuredContent.next_offset)
    assert.equal(12000 * 4 // 321, cut.structuredContent.ref_count)
    r:call("browser_snapshot", { budget_tokens = 200000 }, ctx)
    assert.equal(200000 * 4, seen.maxChars)
    -- The depth counts across frames: it is applied to the stitched text,
    -- so the bridges walk whole and get no depth.
    r:call("browser_snapshot", { budget_tokens = 100, depth = 3 }, ctx)
    assert.is_nil(seen.maxChars)
    assert.is_nil(seen.depth)
    r:call("browser_snapshot", { budget_tokens = 100, offset = 1 }, ctx)
    assert.equal(1, seen.fromLine)
  end)

  it("words browser_snapshot's truncation notice with the tool's arguments", function()
    local r = require("vdx.builtin").register_all(tools.new())
    local line = "- button \"" .. ("x"):rep(300) .. "\" [ref=e1]\n"
    local page = { snapshot_frames = function()
      return { root_frame = "main", frames = { main = { ok = true, value = { text = line:rep(3), url = "u", title = "t",
        ref_count = 3, element_count = 3, unmeasurable = 0 } } } }
    end }
    local role = { name = "default", failures = { drain = function() return {} end } }
    local res = r:call("browser_snapshot", { budget_tokens = 100 }, { role = role, page = function() return page end })
    assert.equal("Page URL: u\nPage Title: t\n" .. line
      .. '- note: "snapshot truncated: lines 1 to 1 of 3 shown; 2 more lines (about 160 tokens) left out. '
      .. 'Call browser_snapshot(offset=1) for the rest, browser_snapshot(root=REF) for one part, '
      .. 'or browser_snapshot(depth=N) for less depth"\n', res.content[1].text)
    assert.equal(1, res.structuredContent.next_offset)
    assert.is_true(res.structuredContent.truncated)
  end)
end)

describe("vdx.json #unit", function()
  it("writes marked empty arrays as [] and never raises", function()
    assert.equal('{"a":[],"b":{}}', json.encode { a = json.array {}, b = {} }:gsub('"b":{},"a":%[%]', '"a":[],"b":{}'))
    local text, err = json.encode { f = print }
    assert.is_nil(text)
    assert.is_string(err)
  end)

  -- The one codec of both wires (MCP, and CDP through src/cdp/json.c).
  it("writes every number exactly and leaves its argument alone", function()
    local v = { { 0.1 + 0.2, 1000000000000001 }, { n = 2 ^ 53 }, { 1, 0.5, -0.0 }, { math.maxinteger } }
    assert.equal('[[0.30000000000000004,1000000000000001],{"n":9007199254740992},[1,0.5,-0],'
      .. '[9223372036854775807]]', json.encode(v))
    assert.equal(0.1 + 0.2, v[1][1])
    assert.equal("null", json.encode(0 / 0))
    assert.equal("[null]", json.encode { math.huge })
    local back = json.decode("[0.30000000000000004,1000000000000001,9007199254740991]")
    assert.same({ 0.1 + 0.2, 1000000000000001, 9007199254740991 }, back)
    local deep = 1
    for _ = 1, 300 do deep = { deep } end
    assert.is_table(json.decode(assert(json.encode(deep))))
  end)
end)
