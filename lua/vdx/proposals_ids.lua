--- vdx.proposals_ids: the texts a proposal (vdx.proposals) must not hold
-- as they are: the ids an app numbers ("#1001", the next run's order is
-- #1002) unless the test remembered them, and what a clock says ("starts
-- in 9:55"), which changes by itself.
local M = {}

-- The regex source of text with each "#1001" (an id the app gives, new
-- in every run) as `#\d+`, the rest literal.
local function id_regex(text)
  return (require("vdx.volatile").escape(text):gsub("#%d+", "#\\d+"))
end

-- The matchers whose value is a text an id may be in.
local TEXT_MATCHERS = { toHaveText = true, toContainText = true }

--- step with the ids the app numbers ("#1001": an order, an invoice) left
-- free: a role's name or a getByText text that holds one becomes a
-- regex (`{ name: /Payment for order #\d+/ }`), and a toHaveText or
-- toContainText value toContainText of its longest part without one; step
-- itself when it holds none, or only ids of the set kept (those the test
-- remembered, which the export writes as the value read in each run).
-- The next run's order is #1002.
function M.without_ids(step, kept)
  local loc, value = step.locator, step.value
  local has = function(x)
    if type(x) ~= "string" then return false end
    -- An id the test remembered (browser_remember) is no literal: the
    -- export writes it as the value read in each run.
    for id in x:gmatch("#%d+") do
      if not (kept and kept[id]) then return true end
    end
    return false
  end
  local text_value = TEXT_MATCHERS[step.matcher] and has(value)
  if not has(loc) and not text_value then return step end
  local out = {}
  for k, v in pairs(step) do out[k] = v end
  if has(loc) then
    local parts = {}
    for i, p in ipairs(require("vdx.pw_spec").pieces(loc)) do
      local text = p.text
      if p.quote == "'" and text:find("#%d") then
        local before = parts[i - 1] or ""
        if before:sub(-6) == "name: " or before:sub(-1) == "(" then
          text = "/" .. id_regex(text:sub(2, -2):gsub("\\(.)", "%1")) .. "/"
        end
      end
      parts[i] = text
    end
    -- (exact is for a string: a regex is matched as it is, so an exact
    -- text's is anchored at both ends.)
    out.locator = table.concat(parts):gsub("(name: /[^\n]-/), exact: true", "%1")
      :gsub("getByText%(/([^\n]-)/, { exact: true }%)", "getByText(/^%1$/)")
  end
  if text_value then
    local best = ""
    for piece in (value .. "#0"):gmatch("(.-)#%d+") do
      piece = piece:match("^%s*(.-)%s*$")
      if #piece > #best then best = piece end
    end
    if #best < 4 then return step end
    out.matcher, out.value = "toContainText", best
  end
  return out
end


-- The units of a time a page counts in ("3 minutes ago", "in 12 seconds").
local UNITS = { second = true, seconds = true, sec = true, secs = true, minute = true, minutes = true,
  min = true, mins = true, hour = true, hours = true }

--- True when text s reads off a clock: a time of day or a count down
-- ("9:55", "10:42:07"), a time ago or to come in seconds, minutes or
-- hours, "just now".  Such a text changes by itself: a check of it fails a
-- moment later, unless the test controls the clock.
function M.clock_text(s)
  if type(s) ~= "string" then return false end
  if s:find("%d:%d%d") then return true end
  for _, unit in s:gmatch("(%d+)%s+(%a+)") do
    if UNITS[unit:lower()] then return true end
  end
  return s:lower():find("just now", 1, true) ~= nil
end


--- The set of the app-numbered ids ("#1011") in the values the test of
-- session log remembered (browser_remember), or nil: proposals keep them
-- (without_ids), since the export reads them in each run.
function M.remembered_ids(log)
  local kept
  for _, r in pairs(log and log:remembered() or {}) do
    local v = tostring(r.value)
    -- ("1021" remembered without its mark stands for "#1021" too.)
    for id in (v:match("^%d+$") and ("#" .. v) or v):gmatch("#%d+") do
      kept = kept or {}
      kept[id] = true
    end
  end
  return kept
end

return M
