--- bench/inproc.lua: vdxlua in process, driven line by line by
-- bench/peers.mjs, so its figures are taken in the same round-robin as the
-- MCP servers' (each rep, every server and this one do the same operation
-- in turn) and the "MCP / in process" ratio compares like with like.
--
-- Usage: build/vdxlua bench/inproc.lua [floor]   (requests on stdin, replies on stdout)
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
--
-- With "floor", the same requests measure what the browser itself costs
-- over vdx's transport, on a page without the bridge (lib.floor_page):
-- navigate is a raw Page.navigate until its load event, snapshot (either
-- mode) the bare walk of bridge/page/floor-walk.js, click finds the first
-- button whose text is ref ("Add to Cart") in one Runtime.evaluate
-- (floor-point.js) and sends the move, press and release at its centre,
-- type focuses the field that the label ref names in one Runtime.evaluate
-- (floor-focus.js) and inserts the text
-- at once (Input.insertText, as page:type does by default).  The walk
-- reads the main document only, not the documents of its frames.  The
-- structure queries have no floor.
package.path = "bench/?.lua;" .. package.path
local vdx = require "vdx"
local json = require "cjson"
local fx = require "fixtures"
local lib = require "lib"

local TIMEOUT = 120000
local browser, close_browser = lib.launch { args = { fx.RESOLVER }, timeout_ms = TIMEOUT }
local page = browser:new_context():new_page()

local OPS
if arg[1] == "floor" then
  local fp = lib.floor_page(page)
  OPS = {
    navigate = function(r) fp.navigate(r.url, TIMEOUT) end,
    snapshot = function() return fp.walk() end,
    click = function(r)
      local p = fp.eval(lib.page_call("floor-point", r.ref))
      local x, y = p[1], p[2]
      page:input { vdx.input.mouse("mouseMoved", x, y),
        vdx.input.mouse("mousePressed", x, y, { button = "left", click_count = 1 }),
        vdx.input.mouse("mouseReleased", x, y, { button = "left", click_count = 1 }) }
    end,
    type = function(r)
      fp.eval(lib.page_call("floor-focus", r.ref))
      page:input { { "Input.insertText", { text = r.text } } }
    end,
  }
else
  OPS = {
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
end

local function reply(t)
  io.stdout:write(json.encode(t), "\n")
  io.stdout:flush()
end

-- One request at a time, in order: lines that come in while one runs
-- wait in a queue (a client that writes them all at once, as a shell
-- pipe does, gets every reply before the browser closes).
local function answer(line)
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
end

local queue, worker = {}, nil
local function work()
  while #queue > 0 do answer(table.remove(queue, 1)) end
  worker = nil
end
local reader = vdx.read_lines(0, function(line)
  if not line then return end
  queue[#queue + 1] = line
  if not worker then worker = vdx.spawn(work) end
end)
reader:wait()
while worker do vdx.wait(worker) end
close_browser()
