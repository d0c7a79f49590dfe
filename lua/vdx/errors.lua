--- vdx.errors: turns failures into the text an agent can act on.
-- Every tool failure becomes `❌ <Title>`, the facts (ref, role, name, tag,
-- URL, frame, …), `Possible causes:` bullets and `🔧 Action Required:`
-- numbered steps that name the exact tool to call.  Typed errors keep
-- their type from the bridge or the C core up to here; anything else is
-- an unexpected error, formatted the same way.  The module also holds the
-- per-role failure log whose non-critical entries become warnings.
local json = require "vdx.json"

local errors = {}

-- One candidate of a NotUnique refusal (the action's ladder): its ref,
-- role, name and the text around it.
local function candidates_text(list)
  local parts = {}
  for i, c in ipairs(type(list) == "table" and list or {}) do
    if type(c) == "table" then
      local s = tostring(c.ref) .. " " .. tostring(c.role)
      if type(c.name) == "string" and c.name ~= "" then s = s .. (" %q"):format(c.name) end
      if type(c.around) == "string" and c.around ~= "" then s = s .. (" in %q"):format(c.around) end
      parts[#parts + 1] = s
    end
    if i >= 12 then break end
  end
  return table.concat(parts, "; ")
end

-- Facts shown for every type, in this order, when the error carries them
-- (a third field: how a fact's value is written, when not as it is).
local FACTS = {
  { "tool", "Tool" }, { "as_role", "Acting as" }, { "ref", "Ref" }, { "element", "Element" },
  { "role", "ARIA role" }, { "name", "Name" }, { "tag", "Tag" }, { "description", "Description" },
  { "url", "URL" }, { "frame", "Frame" }, { "file", "File" }, { "field", "Field" },
  { "expected", "Expected" }, { "actual", "Page has" }, { "reason", "Reason" }, { "status", "Status" },
  { "method", "Method" }, { "code", "Code" }, { "timeout_ms", "Timeout (ms)" },
  { "line", "Line" }, { "column", "Column" }, { "covered_by", "Covered by" },
  { "available", "Available" }, { "roles", "Roles" }, { "counts", "Matches" },
  { "links", "Links on the page" }, { "candidates", "Candidates", candidates_text }, { "where", "At" },
}

--- The catalog, the one list of error kinds (vdx.error_catalog): for each
-- kind its title, causes, actions, `expected` note and `flow` overrides.
-- Exposed so user tools can add their own kinds.
local catalog = require "vdx.error_catalog"
errors.catalog = catalog.kinds
local LOOK = catalog.LOOK

local function pick(v, err)
  if type(v) == "function" then return v(err) end
  return v
end

-- A fact's value as one short line, cut at max characters (300 by
-- default: a page's text or a list may run long).
local function fact_text(v, max)
  if type(v) == "table" then
    local parts = {}
    if #v > 0 then
      for i, x in ipairs(v) do
        if i > 12 then parts[#parts + 1] = ("… (+%d)"):format(#v - 12) break end
        parts[#parts + 1] = fact_text(x)
      end
    else
      local keys = {}
      for k in pairs(v) do if type(k) == "string" then keys[#keys + 1] = k end end
      table.sort(keys)
      for _, k in ipairs(keys) do parts[#parts + 1] = k .. "=" .. fact_text(v[k]) end
    end
    return table.concat(parts, ", ")
  end
  local s = tostring(v):gsub("%s+", " ")
  max = max or 300
  if #s > max then s = s:sub(1, max) .. "…[truncated]" end
  return s
end

--- errors.misuse(message [, level [, fields]]): raises misuse of the Lua
-- layer as a typed error, vdx.error("InvalidArgument", where .. message,
-- fields), and never returns.  `where` is the "chunk:line: " that
-- error(message, level) would put in front: level 1 (the default) is the
-- function that calls errors.misuse, 2 its caller, and so on; level 0
-- adds no position.  So the author of a script or tool file still reads
-- the line of the bad call.  The caller must not tail-call it (`return
-- errors.misuse(…)` drops the caller's frame and shifts the level).  It
-- requires vdx.core (the C primitives, which need no Lua file) when it
-- runs, so any module of lua/vdx/ may require vdx.errors without a cycle.
function errors.misuse(message, level, fields)
  level = level or 1
  local where = ""
  if level > 0 then
    local info = debug.getinfo(level + 1, "Sl")
    if info and info.currentline > 0 then where = info.short_src .. ":" .. info.currentline .. ": " end
  end
  error(require("vdx.core").error("InvalidArgument", where .. message, fields), 0)
end

--- Normalizes anything raised into a typed error table {type=, message=, …}:
-- typed errors pass through, strings and other values become type "Error".
function errors.normalize(err)
  if type(err) == "table" and type(err.type) == "string" then return err end
  if type(err) == "table" and err.message then
    return { type = "Error", message = tostring(err.message) }
  end
  local msg = tostring(err)
  return { type = "Error", message = msg }
end

-- Lines of advice that only an MCP agent can follow (they name its tools,
-- restarting the server, or blame vdxlua).
local function for_agents(line)
  return line:find("browser_%w+") or line:find("vdxlua mcp", 1, true) or line:find("list_roles", 1, true)
    or line:find("select_role", 1, true) or line:find("tools/list", 1, true)
    or line:find("tool's input schema", 1, true) or line:lower():find("bug in vdxlua", 1, true)
end

local function without_agent_lines(list)
  local out = {}
  for _, l in ipairs(type(list) == "table" and list or {}) do
    if not for_agents(l) then out[#out + 1] = l end
  end
  return out
end

--- The catalog entry error e is shown with.  For audience "agent" (the
-- default) the catalog's own; for "flow", the author of a flow script,
-- the entry's `flow` fields over the agent's ones with the lines only an
-- agent can follow taken out (an unknown kind gets Error's flow advice).
function errors.entry(e, audience)
  local base = errors.catalog[e.type]
  if audience ~= "flow" then return base or errors.catalog.Error end
  local own = (base or errors.catalog.Error).flow or {}
  base = base or {}
  local function field(k)
    return pick(base[k], e)
  end
  local causes = own.causes or without_agent_lines(field("causes"))
  local actions = own.actions or without_agent_lines(field("actions"))
  if #actions == 0 then actions = { LOOK } end
  return { title = own.title or field("title") or "Flow failed", expected = field("expected"),
    causes = causes, actions = actions }
end

--- Formats err (typed or not) as the failure text; `extra` adds facts
-- (for example the role and the tool) without changing the error, and
-- extra.entry replaces the catalog entry (errors.entry(e, "flow") for a
-- flow).
function errors.format(err, extra)
  local e = errors.normalize(err)
  local entry = (extra and extra.entry) or errors.entry(e)
  local title = pick(entry.title, e)
  if not errors.catalog[e.type] and e.type ~= "Error" then
    title = title .. " (" .. e.type .. ")"
  end
  local out = { "❌ " .. title }
  if entry.expected then out[#out + 1] = "ℹ️ " .. pick(entry.expected, e) end
  local seen = {}
  for _, f in ipairs(FACTS) do
    local v = e[f[1]]
    if v == nil and extra then v = extra[f[1]] end
    -- The script's file:line (vdx.error sets it) is for its author: a flow
    -- names it as "Flow:", a misuse message starts with it, and an agent
    -- calling a tool (extra.tool) cannot edit the host's script.
    if f[1] == "where" and (e.flow_where or (extra and extra.tool) or
        tostring(e.message or ""):sub(1, #tostring(v)) == tostring(v)) then
      v = nil
    end
    -- An empty list says nothing ("Links on the page: " for a page whose
    -- links none of the reads reached).
    if v ~= nil and v ~= "" and not (type(v) == "table" and next(v) == nil) then
      -- (An unknown role's `role` is a role the server acts as, not ARIA's.)
      local label = f[1] == "role" and e.type == "RoleUnknown" and "Role" or f[2]
      out[#out + 1] = label .. ": " .. (f[3] and f[3](v) or fact_text(v))
      seen[f[1]] = true
    end
  end
  if e.message and e.message ~= "" then
    -- (The message is the error's own words, what to do in them: whole,
    -- unless a page put a runaway text in it.)
    out[#out + 1] = "Message: " .. fact_text(e.message, 1200)
  end
  out[#out + 1] = ""
  out[#out + 1] = "Possible causes:"
  for _, c in ipairs(pick(entry.causes, e) or {}) do out[#out + 1] = "• " .. c end
  out[#out + 1] = ""
  out[#out + 1] = "🔧 Action Required:"
  for i, a in ipairs(pick(entry.actions, e) or {}) do out[#out + 1] = ("%d. %s"):format(i, a) end
  return table.concat(out, "\n")
end

--- A failure log: record partial failures as they happen, then decide at
-- a decision point.  log:add{kind=, message=, frame=, critical=} records
-- one; log:drain() returns and clears them.
function errors.failure_log()
  local log = { entries = {} }
  function log:add(entry)
    self.entries[#self.entries + 1] = entry
    if #self.entries > 100 then table.remove(self.entries, 1) end
  end
  function log:drain()
    local e = self.entries
    self.entries = {}
    return e
  end
  return log
end

--- Decides a list of failures: the first critical one (a main-frame
-- failure) is returned as an error; the rest come back as warning lines.
function errors.decide(failures)
  local warnings, fatal = json.array {}, nil
  for _, f in ipairs(failures or {}) do
    if f.critical and not fatal then
      fatal = { type = f.type or "FrameDetached", message = f.message, frame = f.frame, url = f.url }
    else
      local where = f.frame and (" (frame " .. tostring(f.frame) .. ")") or ""
      warnings[#warnings + 1] = ("%s%s: %s"):format(f.kind or "warning", where, f.message or "")
    end
  end
  return fatal, warnings
end

--- The warnings section for a tool result ("" when there are none).
function errors.warnings_text(warnings)
  if not warnings or #warnings == 0 then return "" end
  local out = { "", "⚠️ Warnings (non-critical):" }
  for _, w in ipairs(warnings) do out[#out + 1] = "- " .. fact_text(w) end
  return table.concat(out, "\n")
end

return errors
