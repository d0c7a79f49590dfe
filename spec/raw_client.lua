--- spec/raw_client.lua: spec/serve_raw.lua, a client that writes one raw
-- request and records every byte of the answer, run in the background so
-- the specs' vdx.serve keeps answering (spec/serve_framing_spec.lua,
-- spec/serve_stream_spec.lua).
local helpers = require "helpers"
local client = require "mcp_client"

local raw = {}

local RAW = "spec/serve_raw.lua"

--- Starts the client on `request` to 127.0.0.1:port; returns a handle for
-- raw.finish.  opts: mode ("half"), rate (bytes a second), timeout (s),
-- pause (s, once 1 MB has been read).
function raw.start(port, request, opts)
  opts = opts or {}
  local base = os.tmpname()
  local f = assert(io.open(base .. ".req", "wb"))
  f:write(request)
  f:close()
  os.execute(string.format(
    "(unset LD_PRELOAD; lua5.4 %s %d %s.req %s.resp %s %d %d %d > %s.out 2>&1; " ..
    "echo $? > %s.done) &", RAW, port, base, base, opts.mode or "-",
    opts.rate or 0, opts.timeout or 10, opts.pause or 0, base, base))
  return base
end

--- Turns the loop until the client of handle h has ended (at most 120 s:
-- a bound for "did not hang", no more).  Returns what it read, what it
-- printed (how the read ended: "closed", "timeout", …) and its exit
-- status.
function raw.finish(h)
  local done = client.wait_until(function() return (helpers.read(h .. ".done") or ""):match("%d+") end, 120000)
  assert(done, "the raw client hung")
  local reply = helpers.read(h .. ".resp") or ""
  local ending = (helpers.read(h .. ".out") or ""):match("^(.-)%s*$")
  for _, ext in ipairs { "", ".req", ".resp", ".out", ".done" } do os.remove(h .. ext) end
  return reply, ending, tonumber(done)
end

return raw
