--- bench/inproc.lua: vdxlua in process, driven line by line by
-- bench/peers.mjs, so its figures are taken in the same round-robin as the
-- MCP servers' (each rep, every server and this one do the same operation
-- in turn) and the "MCP / in process" ratio compares like with like.
--
-- Usage: build/vdxlua bench/inproc.lua   (requests on stdin, replies on stdout)
-- Each request is one JSON line {op=, ...}; each reply one JSON line
-- {ms = the call's time measured here, text = the snapshot text} or
-- {error = message}:
--   {op="navigate", url=}                 page:navigate(url)
--   {op="snapshot", interactive=}        page:snapshot{budget_tokens=12000, interactive=}
--                                         (browser_snapshot's default budget)
--   {op="click", ref=}                    page:click(ref)
--   {op="type", ref=, text=}              page:type(ref, text)
--   {op="resolve_container"|"inspect_pattern"|"extract_anchors", ref=, level=}
-- The browser starts before the first line is read; end of input closes it.
package.path = "bench/?.lua;" .. package.path
local vdx = require "vdx"
local json = require "cjson"
local fx = require "fixtures"
local lib = require "lib"

local TIMEOUT = 120000
local browser, close_browser = lib.launch { args = { fx.RESOLVER }, timeout_ms = TIMEOUT }
local page = browser:new_context():new_page()

local OPS = {
  navigate = function(r) page:navigate(r.url, { timeout_ms = TIMEOUT }) end,
  snapshot = function(r)
    return page:snapshot { budget_tokens = 12000, timeout_ms = TIMEOUT, interactive = r.interactive }.text
  end,
  click = function(r) page:click(r.ref) end,
  type = function(r) page:type(r.ref, r.text) end,
  resolve_container = function(r) page:resolve_container(r.ref) end,
  inspect_pattern = function(r) page:inspect_pattern(r.ref, r.level) end,
  extract_anchors = function(r) page:extract_anchors(r.ref, r.level) end,
}

local function reply(t)
  io.stdout:write(json.encode(t), "\n")
  io.stdout:flush()
end

-- One request at a time: the client waits for each reply.
local reader = vdx.read_lines(0, function(line)
  if not line then return end
  local ok, req = pcall(json.decode, line)
  local op = ok and type(req) == "table" and OPS[req.op]
  if not op then return reply { error = "bad request: " .. line:sub(1, 200) } end
  local t0 = lib.ms()
  local okr, text = pcall(op, req)
  local ms = lib.ms() - t0
  if not okr then
    return reply { error = type(text) == "table" and tostring(text.message) or tostring(text) }
  end
  reply { ms = ms, text = text }
end)
reader:wait()
close_browser()
