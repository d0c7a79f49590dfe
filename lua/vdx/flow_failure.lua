--- vdx.flow_failure: what a failed flow shows its author.  The error with
-- advice for a flow author (never the MCP agent's steps), the flow file:line
-- of the failing call, the screenshot and a snapshot excerpt.
local errors = require "vdx.errors"

local failure = {}

local MODULES = debug.getinfo(1, "S").source:match("^(.*/)") or "@lua/vdx/"

--- The file:line in the flow script nearest to the error being raised
-- (call from a message handler; level as for debug.getinfo), or nil.
function failure.where(level)
  for l = level or 2, 60 do
    local info = debug.getinfo(l, "Sl")
    if not info then return nil end
    local src = info.source or ""
    if info.what ~= "C" and info.currentline and info.currentline > 0 and src:sub(1, 1) == "@"
        and src:sub(1, #MODULES) ~= MODULES then
      return info.short_src .. ":" .. info.currentline
    end
  end
end

--- The lines of the actor's page snapshot a failure shows: the ones near
-- the target when the error found some, else the top of the page.
function failure.excerpt(actor, e)
  if type(e.available) == "table" and #e.available > 0 then return e.available end
  local ok, s = pcall(actor.page.snapshot, actor.page, { budget_tokens = 2000 })
  if not ok or type(s) ~= "table" then return nil end
  local out = {}
  for line in s.text:gmatch("[^\n]+") do
    out[#out + 1] = line
    if #out >= 15 then out[#out + 1] = "…" break end
  end
  return #out > 0 and out or nil
end

--- The text of a flow failure: the error with flow-author advice, the
-- step, the flow file:line, the screenshot, a snapshot excerpt and, for
-- unexpected errors, the traceback.  url is the page's URL at the failure.
function failure.text(err, url, shot, excerpt)
  local e = errors.normalize(err)
  local text = errors.format(e, { as_role = e.flow_role, url = e.url or url, entry = errors.entry(e, "flow") })
  local lines = {}
  for line in (text .. "\n"):gmatch("(.-)\n") do lines[#lines + 1] = line end
  local extra = {}
  if e.flow_step then extra[#extra + 1] = "Step: " .. e.flow_step end
  if e.flow_where then extra[#extra + 1] = "Flow: " .. e.flow_where end
  if e.target then extra[#extra + 1] = "Target: " .. e.target end
  extra[#extra + 1] = "Screenshot: " .. (shot or "(none: the page was not available)")
  for i = #extra, 1, -1 do table.insert(lines, 2, extra[i]) end
  if excerpt then
    lines[#lines + 1] = ""
    lines[#lines + 1] = "Snapshot excerpt:"
    for _, l in ipairs(excerpt) do lines[#lines + 1] = "  " .. l end
  end
  if e.traceback then lines[#lines + 1] = "\nTraceback:" .. e.traceback end
  return table.concat(lines, "\n")
end

return failure
