-- Two Lua states in one process, each with vdx.  luv's uv.new_thread runs a
-- fresh Lua state on a thread of its own, which loads the same vdx.so: so
-- nothing of vdx may live in a process-wide variable (the JSON codec, the
-- count of live tasks, the libwebsockets context are each state's).
local vdx = require "vdx"
local has_luv, uv = pcall(require, "luv")

-- Serves JSON and reads it back through vdx.connect, whose /json/version
-- request decodes it: both halves of the C codec.  Self-contained, since
-- the thread's copy of it has no upvalues.
local function codec_roundtrip(v)
  local srv = v.serve { port = 0, routes = { ["GET /json/version"] = function()
    return { json = { Browser = "none" } }
  end } }
  local _, err = pcall(v.connect, srv.url)
  srv:close()
  -- Where the call was made (" (at FILE:LINE)") is no part of the codec.
  return (tostring(err):gsub("%d+/json", "PORT/json"):gsub(" %(at [^)]*%)$", ""))
end

-- The second state: shifts its registry refs away from the first state's,
-- then loads vdx and reports on its codec and its task count.
local function second_state(path, cpath, out, roundtrip)
  local reg = debug.getregistry()
  for i = 1, 40 do reg[#reg + 1] = i end
  package.path, package.cpath = path, cpath
  local v = require "vdx"
  local f = io.open(out, "w")
  f:write(load(roundtrip)(v), "\n")
  v.spawn(function() v.sleep(20) end)
  f:write("left ", v.run(), "\n")
  f:write(require("vdx.json").encode { 0.1 + 0.2, 1000000000000001 }, "\n")
  f:close()
end

describe("two Lua states #unit", function()
  it("each have their own vdx", function()
    if not has_luv then return pending("lua-luv is not installed") end
    if os.getenv("VDX_ASAN") then
      return pending("the sanitizer run's host already links vdx into the binary")
    end
    local want = "ConnectFailed: http://127.0.0.1:PORT/json/version has no webSocketDebuggerUrl"
    assert.equal(want, (codec_roundtrip(vdx)))
    local out = os.tmpname()
    local t = uv.new_thread(second_state, package.path, package.cpath, out,
                            string.dump(codec_roundtrip))
    t:join()
    local f = assert(io.open(out))
    local got = f:read("a")
    f:close()
    os.remove(out)
    assert.equal(want .. "\nleft 0\n[0.30000000000000004,1000000000000001]\n", got)
    -- The first state is untouched by the second one's start and end.
    assert.equal(want, (codec_roundtrip(vdx)))
  end)
end)
