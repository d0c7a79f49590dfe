--- vdx.mcp_limits: what a message may hold at the MCP boundary, both
-- ways.  In: text that is not UTF-8 (JSON text is UTF-8, but the decoder
-- passes other bytes through, and the browser drops a command that
-- carries them).  Out: the size of a tool's answer, cut with a line that
-- says what was cut and how to page on, so no reply line runs to hundreds
-- of megabytes whatever a page or a tool returns.
local json = require "vdx.json"
local schema = require "vdx.schema"

local limits = {}

--- The most bytes of one text content of a tool's answer, and of its
-- structured content encoded as JSON.  A snapshot's budget (about 48 KB)
-- and browser_evaluate's own bound stay well below it: this is the last
-- guard, for any tool.
limits.MAX_TEXT = 256 * 1024

-- How to get the rest, by tool (anything else: ask for less).
local PAGING = {
  browser_snapshot = "call browser_snapshot(offset=N) with a larger offset, root=REF for one part or depth=N",
  browser_evaluate = "return less from the function (slice the value, or return only the part you need)",
  browser_console_messages = "read the messages in smaller steps",
  browser_network_requests = "filter the requests",
}

--- The message about the first string of msg (a message or a batch) that
-- is not UTF-8, leaving out a tools/call's arguments (which the call
-- itself refuses, naming the argument); nil when there is none.
function limits.not_utf8_outside_arguments(msg)
  local list = type(msg) == "table" and json.looks_like_array(msg) and msg or { msg }
  for _, m in ipairs(list) do
    local copy = m
    if type(m) == "table" and m.method == "tools/call" and type(m.params) == "table" then
      copy = {}
      for k, v in pairs(m) do copy[k] = v end
      copy.params = {}
      for k, v in pairs(m.params) do if k ~= "arguments" then copy.params[k] = v end end
    end
    local bad = schema.invalid_utf8(copy)
    if bad then return bad end
  end
end

-- text cut to at most max bytes at a UTF-8 character boundary.
local function head(text, max)
  local keep = max
  while keep > 0 and (text:byte(keep + 1) or 0) & 0xC0 == 0x80 do keep = keep - 1 end
  return text:sub(1, keep)
end

-- A lower bound of the bytes of v encoded as JSON (its strings' and
-- keys' bytes), counted only until it passes max, so a value of 100 MB is
-- not encoded just to be measured.
local function size_over(v, max, acc)
  acc = acc or 0
  if type(v) == "string" then return acc + #v + 2 end
  if type(v) ~= "table" then return acc + 8 end
  for k, x in pairs(v) do
    if acc > max then return acc end
    acc = size_over(x, max, acc + (type(k) == "string" and #k + 3 or 1))
  end
  return acc
end

--- Bounds the answer res of tool name in place: each text content over
-- limits.MAX_TEXT bytes is cut there and ends with a line saying how many
-- bytes were cut and how to get them; structured content whose JSON is
-- over the bound is left out (its text says so).  Returns res and the
-- number of bytes cut (0 when it was within bounds).
function limits.bound(res, name)
  local max, cut = limits.MAX_TEXT, 0
  local how = PAGING[name] or "ask the tool for less"
  for _, c in ipairs(res.content or {}) do
    if c.type == "text" and type(c.text) == "string" and #c.text > max then
      local kept = head(c.text, max)
      cut = cut + #c.text - #kept
      c.text = kept .. ("\n…(answer cut: %d more bytes of %d left out, over the %d-byte bound of one answer; " ..
        "to see the rest, %s)"):format(#c.text - #kept, #c.text, max, how)
    end
  end
  if type(res.structuredContent) == "table" then
    local size = size_over(res.structuredContent, max)
    if size > max then
      res.structuredContent = nil
      cut = cut + size
      local first = res.content and res.content[1]
      if first and first.type == "text" then
        first.text = first.text .. ("\n…(the structured result, over %d bytes of JSON, was left out: over the " ..
          "%d-byte bound of one answer)"):format(size, max)
      end
    end
  end
  return res, cut
end

return limits
