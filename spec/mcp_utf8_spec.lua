--- spec/mcp_utf8_spec.lua: bytes that are not UTF-8 inside a tool's
-- arguments (JSON text is UTF-8, but the decoder passes other bytes
-- through, and the browser drops a command that carries them) are an
-- InvalidArgument at the MCP boundary naming the argument and the byte,
-- answered at once with no browser started; elsewhere in a message they
-- are a JSON-RPC parse error, and the server keeps serving.
local cjson = require "cjson"
local vdx = require "vdx"
local client = require "mcp_client"

-- A tools/call line with raw bytes: args_json is the arguments' JSON text.
local function raw_call(id, name, args_json)
  return ('{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"%s","arguments":%s}}')
    :format(id, name, args_json)
end

describe("vdxlua mcp given bytes that are not UTF-8", function()
  local CASES = {
    { 2, "browser_navigate", '{"url":"http://127.0.0.1:9/\xFF"}', "field url:", 19, 0xFF },
    { 3, "browser_type", '{"ref":"e1","element":"Name","text":"caf\xC3("}', "field text:", 3, 0xC3 },
    { 4, "browser_evaluate", '{"function":"() => \'\xFE\'"}', "field function:", 7, 0xFE },
    { 5, "browser_find", '{"text":"\xED\xA0\x80"}', "field text:", 0, 0xED },
    { 6, "browser_select_option", '{"ref":"e1","element":"Size","values":["S","\xC0\xAF"]}',
      "field values[1]:", 0, 0xC0 },
    { 7, "browser_fill_form", '{"fields":[{"name":"a","type":"textbox","ref":"e1","value":"ok"},' ..
      '{"name":"b","type":"textbox","ref":"e2","value":"x\x80"}]}', "field fields[1].value:", 1, 0x80 },
    { 8, "browser_find", '{"t\xFFext":"a"}', 'field "t\\xFFext": the key is not valid UTF-8', 1, 0xFF },
  }

  it("refuses each tool's argument with InvalidArgument naming it, before any browser call", function()
    local lines = { cjson.encode(client.initialize(1, "2025-06-18")) }
    for _, c in ipairs(CASES) do lines[#lines + 1] = raw_call(c[1], c[2], c[3]) end
    local t0 = vdx.now()
    -- Generous: the old server waited 30 s per call for a browser that
    -- dropped the command.
    local msgs, out, err, rc = client.batch(lines, "", 45000)
    assert.equal(0, rc, err)
    assert.is_true(vdx.now() - t0 < 45000)
    assert.is_truthy(utf8.len(out), "the answers are UTF-8")
    for _, c in ipairs(CASES) do
      local m = client.by_id(msgs, c[1])
      assert.is_table(m and m.result, c[2] .. " did not answer: " .. out)
      local text = client.text(m)
      assert.is_true(m.result.isError, text)
      assert.equal("❌ Invalid argument", text:match("^[^\n]*"), c[2])
      assert.matches(c[4], text, 1, true)
      assert.matches(("byte %d (counting from 0), 0x%02X, begins no valid UTF-8 sequence"):format(c[5], c[6]),
        text, 1, true)
      assert.matches("Tool: " .. c[2], text, 1, true)
    end
  end)

  it("answers a request that is not UTF-8 elsewhere with an error under its own id and keeps serving", function()
    local msgs, out, err, rc = client.batch({
      cjson.encode(client.initialize(1, "2025-06-18")),
      '{"jsonrpc":"2.0","id":2,"method":"pi\xFFng"}',
      '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_\xC3roles","arguments":{}}}',
      '{"jsonrpc":"2.0","method":"notifications/x\xFF"}',
      '{"jsonrpc":"2.0","id":"\xFF","method":"ping"}',
      '{"jsonrpc":"2.0","id":4,"method":"ping"}',
    }, "", 45000)
    assert.equal(0, rc, err)
    assert.is_truthy(utf8.len(out), "the answers are UTF-8")
    -- Each request gets its answer under its own id (its client waits for
    -- nothing), the notification none, the id that is not UTF-8 null.
    assert.equal(-32600, client.by_id(msgs, 2).error.code)
    assert.matches("Invalid Request: the message is not UTF-8 JSON: field method: the string is not valid UTF-8: " ..
      "byte 2 (counting from 0), 0xFF", client.by_id(msgs, 2).error.message, 1, true)
    assert.matches("field params.name:", client.by_id(msgs, 3).error.message, 1, true)
    local null_ids = 0
    for _, m in ipairs(msgs) do
      if m.id == cjson.null then
        null_ids = null_ids + 1
        assert.matches("field id:", m.error.message, 1, true)
      end
    end
    assert.equal(1, null_ids, out)
    assert.equal(5, #msgs, out)
    assert.same({}, client.by_id(msgs, 4).result)
  end)
end)
