--- vdx.mcp_sse: the server-sent event streams of an MCP session over HTTP
-- (vdx.mcp_http): each stream numbers its events ("STREAM-N"), keeps the
-- last of them for a client that resumes with Last-Event-ID, and writes
-- them on the HTTP answer (a vdx.Stream) that carries it while its client
-- is connected.
local sse = {}

--- Events kept per stream for a client that resumes (Last-Event-ID).
sse.MAX_EVENTS = 256
--- Finished streams a session keeps for resumption.
sse.MAX_STREAMS = 32

--- A new stream n of sess (0: the session's own, GET stream): its events
-- (kept for resumption) and the HTTP answer that carries them while its
-- client is connected.  The oldest finished streams past MAX_STREAMS go.
function sse.new_stream(sess, n)
  local st = { n = n, seq = 0, events = {}, http = nil, done = false }
  sess.streams[n] = st
  if n == 0 then return st end  -- the session's own stream stays
  sess.order[#sess.order + 1] = n
  while #sess.order > sse.MAX_STREAMS do
    local old = sess.streams[sess.order[1]]
    if old and not old.done then break end  -- a call still runs on it
    sess.streams[table.remove(sess.order, 1)] = nil
  end
  return st
end

--- The text of event ev on the wire.
function sse.frame(ev) return "id: " .. ev.id .. "\ndata: " .. ev.text .. "\n\n" end

--- Sends text on st (and keeps it for a client that resumes).
function sse.emit(st, text)
  st.seq = st.seq + 1
  local ev = { id = st.n .. "-" .. st.seq, seq = st.seq, text = text }
  st.events[#st.events + 1] = ev
  if #st.events > sse.MAX_EVENTS then table.remove(st.events, 1) end
  if st.http and not st.http:write(sse.frame(ev)) then st.http = nil end
end

--- Connects the HTTP answer of req to st (req:stream); returns it.
function sse.attach(req, sess, st)
  local h
  h = req:stream { headers = { ["cache-control"] = "no-cache", ["mcp-session-id"] = sess.id },
    on_close = function() if st.http == h then st.http = nil end end }
  st.http = h
  return h
end

--- The stream's last event is out: its HTTP answer ends.
function sse.finish(st)
  st.done = true
  if st.http then st.http:close() end
  st.http = nil
end

return sse
