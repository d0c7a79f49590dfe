-- vdx.serve's streamed answers (req:stream, src/http/serve_stream.c),
-- probed with raw bytes from spec/serve_raw.lua (luasocket, run as its own
-- process: the server runs on this spec's loop).  A stream's chunks go out
-- framed (chunked coding) and the connection then serves its next
-- request; a client that goes away ends the stream and runs on_close
-- once; one that stops reading loses the connection at the bound.
local vdx = require "vdx"

local raw = require "raw_client"
local start, finish = raw.start, raw.finish

-- Turns the loop until pred() holds (at most 60 s: a bound for "did not
-- hang", no more); returns pred's last value.
local function until_(pred) return require("mcp_client").wait_until(pred, 60000) end

describe("vdx.serve streamed answers (req:stream)", function()
  local srv
  local closes, writes = {}, {}

  setup(function()
    srv = assert(vdx.serve { port = 0, routes = {
      ["GET /three"] = function(req)
        local s = req:stream { headers = { ["x-kind"] = "three" } }
        for _, w in ipairs { "one", "two", "three" } do
          assert(s:write(w))
          vdx.sleep(20)
        end
        s:close()
        writes.after_close = { s:write("late") }
      end,
      ["GET /plain"] = function() return "plain" end,
      ["GET /hold"] = function(req)
        -- The handler returns at once; the stream lives on, held by the loop.
        local s = req:stream { on_close = function(st)
          closes[#closes + 1] = { closed = st.closed, write = { st:write("after") } }
        end }
        s:write("data: hello\n\n")
      end,
      ["GET /flood"] = function(req)
        local s = req:stream { on_close = function() closes.flood = (closes.flood or 0) + 1 end }
        local chunk = ("x"):rep(64 * 1024)
        for i = 1, 400 do
          local ok, why = s:write(chunk)
          if not ok then writes.flood = { i = i, why = why } return end
        end
        writes.flood = { i = 401 }
      end,
      ["GET /bad"] = function(req)
        local ok, err = pcall(req.stream, req, { colour = "red" })
        local s = req:stream {}
        local ok2, err2 = pcall(req.stream, req, {})
        writes.bad = { ok, tostring(err), ok2, tostring(err2) }
        s:close()
      end,
    } })
  end)

  teardown(function() if srv then srv:close() end end)

  it("sends each write as a chunk, ends at close, then serves the next request on the connection", function()
    local reply, ending = finish(start(srv.port,
      "GET /three HTTP/1.1\r\nHost: x\r\n\r\nGET /plain HTTP/1.1\r\nHost: x\r\n\r\n", { timeout = 2 }))
    local head, rest = reply:match("^(.-\r\n\r\n)(.*)$")
    assert.truthy(head:find("HTTP/1.1 200", 1, true), reply)
    assert.truthy(head:find("transfer-encoding: chunked", 1, true), reply)
    assert.truthy(head:find("content-type: text/event-stream; charset=utf-8", 1, true), reply)
    assert.truthy(head:find("x-kind: three", 1, true), reply)
    local body = "3\r\none\r\n3\r\ntwo\r\n5\r\nthree\r\n0\r\n\r\n"
    assert.are.equal(body, rest:sub(1, #body))
    local second = rest:sub(#body + 1)
    assert.truthy(second:match("^HTTP/1.1 200"), reply)
    assert.truthy(second:find("\r\n\r\nplain$"), reply)
    assert.are.equal("timeout", ending)  -- the connection was kept open
    assert.are.same({ nil, "closed" }, writes.after_close)
  end)

  it("ends the stream when its client goes away, and runs on_close once", function()
    local reply, ending = finish(start(srv.port, "GET /hold HTTP/1.1\r\nHost: x\r\n\r\n", { timeout = 1 }))
    assert.are.equal("timeout", ending)
    assert.truthy(reply:find("d\r\ndata: hello\n\n\r\n", 1, true), reply)
    assert.truthy(until_(function() return #closes > 0 end), "on_close did not run")
    vdx.sleep(50)
    assert.are.equal(1, #closes)
    assert.is_true(closes[1].closed)
    assert.are.same({ nil, "closed" }, closes[1].write)
  end)

  it("drops a client that does not read once the queue passes its bound", function()
    local reply, ending = finish(start(srv.port, "GET /flood HTTP/1.1\r\nHost: x\r\n\r\n", { rate = 65536, timeout = 20 }))
    assert.truthy(writes.flood, "the handler did not end")
    assert.are.equal("backlog", writes.flood.why)
    assert.is_true(writes.flood.i > 1 and writes.flood.i <= 400)
    assert.truthy(until_(function() return closes.flood == 1 end), "on_close did not run")
    assert.are.equal("closed", ending)
    assert.is_true(#reply < 400 * 64 * 1024)
  end)

  it("refuses unknown options and a second stream for one request", function()
    local reply = finish(start(srv.port, "GET /bad HTTP/1.1\r\nHost: x\r\n\r\n", { timeout = 1 }))
    assert.truthy(reply:find("0\r\n\r\n", 1, true), reply)
    assert.is_false(writes.bad[1])
    assert.truthy(writes.bad[2]:find("colour", 1, true), writes.bad[2])
    assert.is_false(writes.bad[3])
    assert.truthy(writes.bad[4]:find("already answered", 1, true), writes.bad[4])
  end)
end)
