--- vdx.session_races: where a recorded test may race its app.  Playwright
-- acts as soon as an element is there and a page load goes on as soon as
-- it is asked; the MCP answers waited for the app (for its requests, for
-- the data a page fetched after its load), and a test written from them
-- waits for nothing unless told.  These queries find the steps where the
-- two differ, for session_log's warnings, the exporter (which waits for
-- the responses: vdx.session_export) and the flake gate's replay.  Steps
-- are session_log's (see its module comment).
local log = require "vdx.session_log"

local races = {}

-- The actions whose effect is done when they return (a field's value, a
-- box checked): one of them last before a load races nothing, and it
-- waited for its element, which what came before it made.
local STILL = { fill = true, type = true, select = true, check = true, uncheck = true, hover = true }

--- The pairs of Log:unchecked_loads in a list of steps (a test's, as the
-- export and its replay have them), without proposals: { { action =,
-- load =, at = the action's index } }, in order.
function races.racing(steps)
  local out = {}
  for j, t in ipairs(steps) do
    if log.loads(t) then
      for k = j - 1, 1, -1 do
        local st = steps[k]
        if log.is_check(st) or st.kind == "navigate" then break end
        if st.kind == "action" and not st.carried then
          if not STILL[st.action] or st.submit then out[#out + 1] = { action = st, load = t, at = k } end
          break
        end
      end
    end
  end
  return out
end

-- Whether step is a check that something is absent (hidden, gone, none
-- of it): one that passes on a page whose data has not come yet.
local function absence(step)
  if step.kind == "assert" then
    return step.matcher == "toBeHidden" or (step.matcher == "toHaveCount" and step.value == 0)
  end
  if step.kind ~= "code" then return false end
  for _, l in ipairs(step.lines or {}) do
    if l:find("%.not%.toBeAttached%(") or l:find("%.not%.toBeVisible%(") or l:find("%.toBeHidden%(")
        or l:find("%.toHaveCount%(0[,)]") then
      return true
    end
  end
  return false
end

--- session_log's Log:unready_actions of a list of steps (a test's, as the
-- export and its replay have them): a load whose page fetched data after
-- its load, followed at once by an action, a read of a value (a remember
-- step) or a check that something is absent (run AN reloaded its
-- products and checked at once that no bad one was there: a check that
-- passes before the list came), with absent = true for the last.
function races.unready(steps)
  local out = {}
  for i, s in ipairs(steps) do
    local t = steps[i + 1]
    if log.loads(s) and s.late and #s.late > 0 and s.wait_until ~= "networkidle" and not s.carried
        and t and (t.kind == "action" or t.kind == "remember" or absence(t))
        and t.role == s.role and not t.carried then
      out[#out + 1] = { load = s, action = t, late = s.late, absent = t.kind ~= "action" and t.kind ~= "remember" }
    end
  end
  return out
end

--- The actions of a list of steps (a test's) whose next step is a check
-- that holds before the action's requests are answered: the action made
-- requests (its answer waited for them), and the check is of something
-- absent, or the action changed nothing on the page (run AU's Add to
-- cart, its POST answered 500 by a route, then a check that the cart
-- link still said what it said: true at once, whatever the response).
-- { { action =, check = } }, in order.
function races.unsettled(steps)
  local out = {}
  for i, s in ipairs(steps) do
    local t = steps[i + 1]
    if s.kind == "action" and s.fetched and #s.fetched > 0 and not s.carried and t and t.role == s.role
        and not t.carried and log.is_check(t) and (s.unchanged or absence(t)) then
      out[#out + 1] = { action = s, check = t }
    end
  end
  return out
end

-- The methods of requests that change nothing on the server.
local READS = { GET = true, HEAD = true, OPTIONS = true }

--- The method and path of a request line ("POST /api/cart", as a step's
-- fetched lists them) when it changes data on the server (any method but
-- GET, HEAD and OPTIONS), else nil.
function races.write_of(line)
  local method, path = tostring(line):match("^(%u+) (.*)$")
  if method and not READS[method] then return method, path end
  return nil
end

--- The actions of a list of steps (a test's) that sent requests that
-- write (not GET: an Add to cart's POST) whose next step is another
-- role's: that role reads the app's server, which the writes may not
-- have reached yet (run EV's customer added to the cart, then the
-- provider changed the price, with no wait between).  { { action =,
-- writes = { "POST /api/cart", … }, next = the other role's step } }, in
-- order.
function races.handoffs(steps)
  local out = {}
  for i, s in ipairs(steps) do
    local t = steps[i + 1]
    if s.kind == "action" and s.fetched and not s.carried and t and t.role ~= s.role and not t.carried then
      local writes = {}
      for _, l in ipairs(s.fetched) do
        if races.write_of(l) then writes[#writes + 1] = l end
      end
      if #writes > 0 then out[#out + 1] = { action = s, writes = writes, next = t } end
    end
  end
  return out
end

--- The steps of a test whose next step waits for their responses, as a
-- table from each such step to its requests ({ "GET /api/cart", … }): a load whose page fetched data after its
-- load event, an action right after it (races.unready: what that
-- load's answer waited for), and an action whose answer waited for the
-- requests it made, a page load right after it with no check between
-- (races.racing: an Add to cart's POST, then the cart's page) or a
-- check that would hold before they are answered (races.unsettled) or
-- another role's step (its writes only, races.handoffs), and an action
-- before such an action that sent one of the requests it waits for.
function races.response_steps(steps)
  local waits = {}
  local function add(s, list)
    local w = waits[s] or {}
    for _, l in ipairs(list) do
      local dup = false
      for _, x in ipairs(w) do dup = dup or x == l end
      if not dup then w[#w + 1] = l end
    end
    waits[s] = w
  end
  for _, u in ipairs(races.unready(steps)) do add(u.load, u.late) end
  for _, u in ipairs(races.racing(steps)) do
    if u.action.fetched then add(u.action, u.action.fetched) end
  end
  for _, u in ipairs(races.unsettled(steps)) do add(u.action, u.action.fetched) end
  for _, u in ipairs(races.handoffs(steps)) do add(u.action, u.writes) end
  -- An action that sent a request the next one waits for (Add to cart
  -- twice, then the cart): its own response would end that wait, so it
  -- waits for it too (run DI's second click's wait took the first's
  -- response, and its cart showed one).  From the last, so a run of them
  -- each wait.
  for i = #steps - 1, 1, -1 do
    local s, t = steps[i], steps[i + 1]
    if s.kind == "action" and s.fetched and not s.carried and waits[t] and t.kind == "action" and t.role == s.role then
      local shared = {}
      for _, l in ipairs(s.fetched) do
        for _, w in ipairs(waits[t]) do if w == l then shared[#shared + 1] = l end end
      end
      if #shared > 0 then add(s, shared) end
    end
  end
  return waits
end


return races
