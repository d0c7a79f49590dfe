-- spec/serve_raw.lua: the raw HTTP client of spec/serve_framing_spec.lua,
-- run as its own process (the server under test runs on the spec's loop).
--
--   lua5.4 spec/serve_raw.lua PORT REQUEST_FILE OUT_FILE [MODE] [RATE] [TIMEOUT] [PAUSE]
--
-- Sends the bytes of REQUEST_FILE as they are to 127.0.0.1:PORT; with MODE
-- "half", then shuts its sending side (shutdown(SHUT_WR)).  Reads until the
-- server closes, at most RATE bytes a second when RATE is over 0, stopping
-- for PAUSE seconds once it has read 1 MB when PAUSE is over 0, and
-- writes what it read to OUT_FILE.  Prints "closed" when the server closed
-- the connection, "timeout" when nothing came for TIMEOUT seconds, else
-- the error that ended the read ("connection reset by peer").
local socket = require "socket"

local port, request_file, out_file = tonumber(arg[1]), arg[2], arg[3]
local half = arg[4] == "half"
local rate = tonumber(arg[5] or "0") or 0
local timeout = tonumber(arg[6] or "10") or 10
local pause = tonumber(arg[7] or "0") or 0

local f = assert(io.open(request_file, "rb"))
local request = f:read("a")
f:close()

local c = assert(socket.tcp())
assert(c:connect("127.0.0.1", port))
c:settimeout(timeout)
-- The server may answer and close before it has read everything (a
-- rejected head): what it sent is read all the same.
c:send(request)
if half then c:shutdown("send") end

local parts, total, started = {}, 0, socket.gettime()
local ending
while true do
  local data, err, partial = c:receive(65536)
  data = data or partial
  if data and #data > 0 then
    parts[#parts + 1] = data
    total = total + #data
  end
  if err then ending = err; break end
  if pause > 0 and total >= 1000000 then
    socket.sleep(pause)
    pause = 0
  end
  if rate > 0 then
    local ahead = total / rate - (socket.gettime() - started)
    if ahead > 0 then socket.sleep(ahead) end
  end
end
c:close()

local out = assert(io.open(out_file, "wb"))
out:write(table.concat(parts))
out:close()
io.write(ending, "\n")
