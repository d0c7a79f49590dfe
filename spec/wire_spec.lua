--- spec/wire_spec.lua: what `vdxlua mcp` writes on stdout is exact and
-- strict: request ids come back byte for byte, numbers keep every digit,
-- and every line is valid UTF-8 JSON whatever bytes came in.
local json = require "vdx.json"
local client = require "mcp_client"

-- The raw stdout line that answers the request whose id text is id.
local function line_with(raw, id)
  for line in raw:gmatch("([^\n]*)\n") do
    if line:find('"id":' .. id, 1, true) then return line end
  end
end

describe("the MCP wire format", function()
  it("echoes every id byte for byte", function()
    local ids = { "123456789012345", "9007199254740993", "12345678901234567890123", "-98765432109876543",
      "1.0", '"\\u0041b\\/c"', '"😀 id"' }
    local lines = {}
    for _, id in ipairs(ids) do lines[#lines + 1] = ('{"jsonrpc":"2.0","id":%s,"method":"ping"}'):format(id) end
    local msgs, raw, _, rc = client.batch(lines)
    assert.equal(0, rc)
    assert.equal(#ids, #msgs)
    for _, id in ipairs(ids) do
      local line = line_with(raw, id)
      assert.is_truthy(line, "no answer carries the id " .. id .. " exactly:\n" .. raw)
      assert.is_nil(line:find('"error"', 1, true))
    end
    -- A fractional id is not acceptable: one error with id null.
    msgs = client.batch { '{"jsonrpc":"2.0","id":1.5,"method":"ping"}' }
    assert.equal(json.null, msgs[1].id == nil and json.null or msgs[1].id)
    assert.equal(-32600, msgs[1].error.code)
  end)

  it("keeps every digit of the numbers browser_evaluate returns", function()
    local msgs, raw, _, rc = client.batch {
      client.initialize(1, "2025-06-18"),
      { jsonrpc = "2.0", id = 2, method = "tools/call", params = { name = "browser_evaluate", arguments = {
        ["function"] = "() => [Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 123456789012345, 0.1 + 0.2]" } } },
    }
    assert.equal(0, rc)
    local res = client.by_id(msgs, 2).result
    assert.is_nil(res.isError, res.content[1].text)
    assert.equal("Result: [9007199254740991,-9007199254740991,123456789012345,0.30000000000000004]",
      res.content[1].text)
    assert.truthy(raw:find('"structuredContent":{"result":[9007199254740991,-9007199254740991,' ..
      '123456789012345,0.30000000000000004]}', 1, true))
  end)

  it("writes strict UTF-8 whatever bytes came in", function()
    local bad = "\x80\xff\xc3\x28\xc0\xaf\xed\xa0\x80"
    local msgs, raw, _, rc = client.batch {
      '{"jsonrpc":"2.0","id":1,"method":"no/such/' .. bad .. '"}',
      '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"tool-' .. bad .. '"}}',
      '{"jsonrpc":"2.0","id":3,"method":"prompts/get","params":{"name":"' .. bad .. '"}}',
      'not json ' .. bad,
    }
    assert.equal(0, rc)
    assert.equal(4, #msgs)
    assert.is_truthy(utf8.len(raw), "stdout is not valid UTF-8")
    -- Bytes that are not UTF-8 are refused (they are not JSON text), each
    -- request under its own id, the bytes named, never echoed.
    assert.matches("Invalid Request: the message is not UTF-8 JSON: field method:",
      client.by_id(msgs, 1).error.message, 1, true)
    assert.matches("Invalid Request: the message is not UTF-8 JSON: field params.name:",
      client.by_id(msgs, 2).error.message, 1, true)
    assert.matches("field params.name:", client.by_id(msgs, 3).error.message, 1, true)
  end)
end)

describe("vdx.json #unit", function()
  it("writes integers up to 2^53 and beyond digit for digit, floats in their shortest exact form", function()
    assert.equal('[9007199254740991,-9007199254740992,123456789012345,9223372036854775807,' ..
      '0.30000000000000004,1.5,1e+300,12]',
      json.encode { 9007199254740991, -9007199254740992, 123456789012345, math.maxinteger,
        0.1 + 0.2, 1.5, 1e300, 12 })
    assert.equal('{"id":1.0}', json.encode { id = json.raw("1.0") })
  end)

  it("writes empty arrays and raw texts wherever they are, however many", function()
    assert.equal('[[],{"a":[]},1.0,[[],"x",123456789012345678],"\\u0001vdx-raw-"]',
      json.encode { json.array {}, { a = json.array {} }, json.raw("1.0"),
        { json.array {}, "x", json.raw("123456789012345678") }, "\1vdx-raw-" })
    assert.equal('{}', json.encode {})
    assert.equal('[]', json.encode(json.array {}))
  end)

  it("replaces invalid UTF-8 with U+FFFD and keeps valid text as it is", function()
    assert.equal("a\u{FFFD}b\u{FFFD}\u{FFFD}\u{FFFD}é😀", json.valid_utf8("a\xffb\xed\xa0\x80é😀"))
    assert.equal('"x\u{FFFD}"', json.encode("x\xc0"))
  end)
end)
