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

-- Words of s worth matching (three letters or more), lower case.
local function words(s)
  local out = {}
  for w in tostring(s):lower():gmatch("[%w\128-\255]+") do
    if #w >= 3 then out[#out + 1] = w end
  end
  return out
end

-- The index of the snapshot line a failure is about, and why: the
-- target's ref, its role and name, its name or text, the line that
-- shares the most words with that text (the closest match), or the
-- container it was looked for within; nil when none is on the page.
local function anchor(lines, look)
  local i
  for k, l in ipairs(lines) do
    if look.ref and l:find("[ref=" .. look.ref .. "]", 1, true) then return k, "the target" end
  end
  -- Texts are matched without the refs ("1" is not in "[ref=e1]").
  local bare = {}
  for k, l in ipairs(lines) do bare[k] = l:gsub(" ?%[ref=[^%]]*%]", "") end
  local function find(pred)
    for k, l in ipairs(bare) do if pred(l) then return k end end
  end
  local name = look.name or look.text
  if look.role and name then
    i = find(function(l) return l:find("- " .. look.role .. " \"" .. name, 1, true) end)
    if i then return i, "the target" end
  end
  if name then
    i = find(function(l) return l:find(name, 1, true) end)
      or find(function(l) return l:lower():find(name:lower(), 1, true) end)
    if i then return i, look.text and "the text" or "the name" end
    local want, best, best_n = words(name), nil, 0
    for k, l in ipairs(bare) do
      local have, n = {}, 0
      for _, w in ipairs(words(l)) do have[w] = true end
      for _, w in ipairs(want) do if have[w] then n = n + 1 end end
      if n > best_n then best, best_n = k, n end
    end
    if best then return best, "the closest match" end
  end
  if look.within then
    i = find(function(l) return l:find(look.within, 1, true) end)
    if i then return i, "the container" end
  end
end

--- The lines of the actor's page snapshot a failure shows: the part
-- around what the failed step aimed at (e.look_for: ref, role, name,
-- text, within; the line is marked "← why"), else the lines near the
-- target the error found (e.available), else the top of the page.
function failure.excerpt(actor, e)
  local ok, s = pcall(actor.page.snapshot, actor.page, { budget_tokens = 50000 })
  if not ok or type(s) ~= "table" then
    return type(e.available) == "table" and #e.available > 0 and e.available or nil
  end
  local lines = {}
  for line in s.text:gmatch("[^\n]+") do lines[#lines + 1] = line end
  local at, why = anchor(lines, type(e.look_for) == "table" and e.look_for or {})
  if not at and type(e.available) == "table" and #e.available > 0 then return e.available end
  local from, to = 1, math.min(#lines, 15)
  if at then from, to = math.max(1, at - 6), math.min(#lines, at + 8) end
  local out = {}
  if from > 1 then out[1] = "…" end
  for k = from, to do out[#out + 1] = lines[k] .. (k == at and ("   ← " .. why) or "") end
  if to < #lines then out[#out + 1] = "…" end
  return #out > 0 and out or nil
end

--- The text of a flow failure: the error with flow-author advice, the
-- step, the flow file:line, the screenshot, a snapshot excerpt and, for
-- unexpected errors, the traceback.  url is the page's URL at the failure.
function failure.text(err, url, shot, excerpt)
  local e = errors.normalize(err)
  local text = errors.format(e, { as_role = not e.no_page and e.flow_role or nil, url = e.url or url,
    entry = errors.entry(e, "flow") })
  local lines = {}
  for line in (text .. "\n"):gmatch("(.-)\n") do lines[#lines + 1] = line end
  local extra = {}
  if e.flow_step then extra[#extra + 1] = "Step: " .. e.flow_step end
  if e.flow_where then extra[#extra + 1] = "Flow: " .. e.flow_where end
  if e.target then extra[#extra + 1] = "Target: " .. e.target end
  if not e.no_page then extra[#extra + 1] = "Screenshot: " .. (shot or "(none: the page was not available)") end
  for i = #extra, 1, -1 do table.insert(lines, 2, extra[i]) end
  if excerpt then
    lines[#lines + 1] = ""
    lines[#lines + 1] = "Snapshot excerpt:"
    for _, l in ipairs(excerpt) do lines[#lines + 1] = "  " .. l end
  end
  -- A typed error names what went wrong; only an untyped one (a bug in
  -- the script or in vdxlua) needs the calls that led to it.
  if e.traceback and e.type == "Error" then lines[#lines + 1] = "\nTraceback:" .. e.traceback end
  return table.concat(lines, "\n")
end

return failure
