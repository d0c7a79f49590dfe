--- vdx.builtin.report: the answer of an acting tool around its action:
-- what the action changed on the page (vdx.changes), the page's errors
-- since it began, the requests it started let finish (vdx.quiet) and
-- kept on its step, and its `expect` texts (vdx.builtin.expect).
local util = require "vdx.builtin.util"
local clip = require "vdx.clip"
local json = require "vdx.json"

local report = {}

-- How many of the page's errors an action's answer quotes.
local ERRORS_SHOWN = 3

-- The error a fetch or XHR cut off gives its page ("TypeError: Failed to
-- fetch"), as the browsers word it.
local CUT_OFF = { "Failed to fetch", "NetworkError when attempting to fetch", "Load failed" }

-- list (page:console's errors since mark) without the errors of fetches
-- the action's leaving its page cut off (a list the page polls): those
-- came after the request of the next document and before any it made,
-- when a fetch or XHR was cancelled before it.  They are no error of the
-- app (run DC read one after a link's click as a bug to look into).
local function without_cut_off(page, list, mark)
  local ok, reqs = pcall(page.requests, page, { since = math.max(0, (mark.requests or 0) - 100) })
  if not ok or type(reqs) ~= "table" then return list end
  local doc, after, cut = nil, nil, 0
  for _, r in ipairs(reqs) do
    if not doc and r.seq > (mark.requests or 0) and r.type == "Document" then doc = r.seq
    elseif doc and not after and r.type ~= "Document" then after = r.seq end
    if not doc and (r.type == "Fetch" or r.type == "XHR") and r.failure == "canceled" then cut = cut + 1 end
  end
  if not doc or cut == 0 then return list end
  local out = {}
  for _, m in ipairs(list) do
    local text, at, was_cut = tostring(m.text or ""), tonumber(m.request_seq) or -1, false
    for _, w in ipairs(CUT_OFF) do was_cut = was_cut or text:find(w, 1, true) ~= nil end
    if not (was_cut and at >= doc and (not after or at < after)) then out[#out + 1] = m end
  end
  return out
end

-- result (an action's answer) with the page's errors since mark (an
-- uncaught exception, a console.error: a handler that threw on the
-- response the action brought), in the main frame or a child, quoted:
-- a report of "No change" says why there was none.
local function with_page_errors(ctx, result, mark)
  if not mark or type(result) ~= "table" or type(result.text) ~= "string" then return result end
  local okp, page = pcall(ctx.page, ctx)
  if not okp or page:is_closed() then return result end
  local ok, list = pcall(page.console, page, { level = "error", since = mark.console })
  if not ok or type(list) ~= "table" or #list == 0 then return result end
  list = without_cut_off(page, list, mark)
  -- (The count the action's own facts gave is in the line below now, or
  -- counted fetches cut off.)
  result.text = result.text:gsub("\nconsole_errors: %d+", "")
  if #list == 0 then return result end
  local out = { ("Page errors since the action (%d; browser_console_messages lists every message):"):format(#list) }
  for i = 1, math.min(#list, ERRORS_SHOWN) do
    local m = list[i]
    local text = tostring(m.text or ""):match("^[^\n]*")
    text = clip(text, 200)
    out[#out + 1] = "- " .. text .. util.message_at(m)
  end
  if #list > ERRORS_SHOWN then out[#out + 1] = ("… and %d more"):format(#list - ERRORS_SHOWN) end
  result.text = result.text .. "\n" .. table.concat(out, "\n")
  result.structured = result.structured or {}
  result.structured.page_errors = #list
  return result
end

--- Wraps the run of each tool of defs named in `acting` so that its
-- answer ends with what the action changed on the page (vdx.changes:
-- text, and structured.changes); returns defs.  A page that cannot be
-- read after the action is said in one line, never an error of the
-- action that succeeded.
-- The page's errors since the action began are quoted after the report.
-- Each also takes `expect` (vdx.builtin.expect): texts the action should
-- show, waited for before the report and recorded as assertions; the
-- report then proposes no candidates of its own (the agent said what it
-- asserts).
function report.report_changes(defs, acting)
  local expect = require "vdx.builtin.expect"
  for _, def in ipairs(defs) do
    if acting[def.name] then
      local run = def.run
      def.input.properties.expect = expect.SCHEMA
      -- A key press says where focus went (see changes.report).
      local focus = def.name == "browser_press_key" or nil
      def.run = function(ctx, args)
        -- The page as the agent last saw it: an expected text already on
        -- it proves nothing of the action.
        local before = args.expect and expect.before(ctx)
        local log = ctx.session
        local steps0, n0 = log and log.last_no, log and #log:list()
        local okm, mark = pcall(function() return ctx:page():mark() end)
        mark = okm and mark or nil
        local result = util.from_start(ctx, report.quietly, ctx, run, args)
        if not args.expect then
          result = report.with_changes(ctx, result, focus and { focus = true, key = args.key, ref = args.ref })
          -- An action that changed nothing: a check right after it holds
          -- before its requests are answered (session_races.unsettled).
          local c = type(result) == "table" and type(result.structured) == "table" and result.structured.changes
          local st = log and log:last_action(ctx.role.name, n0)
          if st and type(c) == "table" and c.added == 0 and c.removed == 0 and c.changed == 0 and (c.moved or 0) == 0
              and not c.navigated then
            st.unchanged = true
          end
          result = report.silent_failure(report.said_step(result, log, steps0))
          return with_page_errors(ctx, result, mark)
        end
        expect.wait(ctx, args.expect)
        -- A text of the page before proves nothing of the action, unless
        -- the action led to another document, which shows it anew (run Z's
        -- cart row, a product's name on the shop page before).
        local nav = type(result) == "table" and type(result.structured) == "table" and result.structured.navigation
        if type(nav) == "table" and nav.same_document == false then before = nil end
        -- The agent said what it expects: the change in one line.
        result = report.silent_failure(report.said_step(report.with_changes(ctx, result,
          { candidates = false, brief = true }), log, steps0))
        local lines, ok, facts = expect.check(ctx, args.expect, before,
          type(result) == "table" and result.structured and result.structured.locator)
        if type(result) ~= "table" then result = { text = tostring(result or "") } end
        -- What a status said that no expected text checked: one candidate.
        local recorded = {}
        for _, f in ipairs(facts) do recorded[#recorded + 1] = f.assertion end
        local said = ok and type(result.said) == "function"
          and result.said(function(e) return expect.covers(facts, e) end, recorded)
        if said then
          lines[#lines + 1] = said.text
          local c = type(result.structured.changes) == "table" and result.structured.changes
          if c then
            -- (After the checks of what went, when the report had any.)
            local list = c.candidates or json.array {}
            for _, x in ipairs(said.structured.candidates) do list[#list + 1] = x end
            c.candidates = list
          end
        end
        result.said = nil
        result.text = (result.text or "") .. "\n" .. table.concat(lines, "\n")
        result.structured = result.structured or {}
        result.structured.expected = facts
        result.isError = not ok or nil
        return with_page_errors(ctx, result, mark)
      end
    end
  end
  return defs
end

--- result (an action's answer) naming the step of the test the action
-- became (its `no`, when the log numbered one since last_no): a report
-- that says the page did not change says it is a step all the same (an
-- action the agent only tried, a hover to see what shows, is in the test
-- unless dropped); else the answer's first line ends with its step
-- (`Clicked e4 (step 4)`), as a check's answer does: drop= takes steps by
-- number (run CE exported twice to count them).
function report.said_step(result, log, last_no)
  local no = log and log.last_no
  if type(result) ~= "table" or type(result.text) ~= "string" or not no or no == last_no then return result end
  -- (Run CH read "Still step 4" as the click not recorded.)
  local said
  result.text, said = result.text:gsub("\nNo change on the page%.", ("\nNo change on the page. Recorded as step %d of "
    .. "the test all the same: browser_export_test drop=[%d] if it was only a try."):format(no, no), 1)
  -- (A form's fill records a step a field: their range, run CL.  On the
  -- first line, not the locator's, which an agent copies.)
  local first = (last_no or 0) + 1
  if said == 0 then
    local tag = no == first and ("step " .. no) or ("steps %d-%d"):format(first, no)
    -- A goto the role's page needed first is one of them: say which (run
    -- DF read "Filled 2 fields (steps 25-27)" as one step too many).
    local steps = no > first and log:list() or {}
    for i = #steps, 1, -1 do
      local st = steps[i]
      if type(st.no) == "number" and st.no < first then break end
      if st.kind == "navigate" and st.no then tag = ("%s, %d its goto"):format(tag, st.no) break end
    end
    result.text = result.text:gsub("^[^\n]*", "%0 (" .. tag .. ")", 1)
  end
  return result
end

--- run(ctx, args) with the requests it started let finish (vdx.quiet):
-- the role's page is watched from before the call, and after it the
-- answer waits for them, at most quiet.BUDGET_MS; those still under way
-- then get a line in the answer (and structured.loading), and those it
-- waited for are kept on the action step the run recorded (step.late).
function report.quietly(ctx, run, args)
  local quiet = require "vdx.quiet"
  local okp, page = pcall(ctx.page, ctx)
  local log = ctx.session
  local n0 = log and #log:list()
  local res, pending, held, late, fetched, failed = quiet.around(okp and page or nil, nil, run, ctx, args)
  -- The step the run recorded keeps what its answer waited for and a
  -- test's next step would not (session_races.unready), and the
  -- requests it made (a load right after waits for them: session_races.racing).
  local st = log and log:last_action(ctx.role.name, n0)
  if st then st.late, st.fetched, st.failed = late, fetched, failed end
  if failed and type(res) == "table" then
    res.structured = type(res.structured) == "table" and res.structured or {}
    res.structured.failed_requests = failed
  end
  return quiet.tell(res, pending, held)
end

-- The status texts Chromium gives a fulfilled response of these codes
-- (a route names no phrase of its own), which an app may show in place
-- of the body (run ET's cart showed "Internal Server Error" of a JSON
-- body and "Service Unavailable" of a text one).
local REASONS = { [400] = "Bad Request", [401] = "Unauthorized", [403] = "Forbidden", [404] = "Not Found",
  [409] = "Conflict", [422] = "Unprocessable Entity", [429] = "Too Many Requests",
  [500] = "Internal Server Error", [502] = "Bad Gateway", [503] = "Service Unavailable",
  [504] = "Gateway Timeout" }

-- The texts a route of the role answers with: its status text, then its
-- body's string values when it is JSON, else the body itself (each of
-- those at least 8 characters); as { text, pattern, status = code of a
-- status text, body = true when the body says it too }.
local function routed_texts(ctx)
  local okr, list = pcall(function() return ctx.role:context():routes() end)
  list = okr and type(list) == "table" and list or {}
  local out = {}
  -- The latest route first: it answers before those added earlier.
  for i = #list, 1, -1 do
    local r = list[i]
    local f = type(r.fulfil) == "table" and r.fulfil
    local reason = f and REASONS[f.status]
    local said = reason and { text = reason, pattern = r.pattern, status = f.status }
    out[#out + 1] = said
    local body = f and f.body
    if type(body) == "string" and #body >= 8 then
      local okj, v = pcall(require("vdx.json").decode, body)
      if okj and type(v) == "table" then
        for _, x in pairs(v) do
          -- A body that says the status text too: the page may show either
          -- (run FK needed a second route of its own words to tell).
          if said and x == reason then said.body = true
          elseif type(x) == "string" and #x >= 8 then out[#out + 1] = { text = x, pattern = r.pattern } end
        end
      elseif #body <= 200 then
        out[#out + 1] = { text = body, pattern = r.pattern }
      end
    end
  end
  return out
end

-- The line that says a text of the change report is a route's answer,
-- or nil: the page shows what the route said, not what the app's server
-- would (runs BC and BH checked their mock's message as the app's).  A
-- status text is said as one, whatever the body holds.
local function route_echo(ctx, text)
  -- What the page says now, not what a line says it was (run FE's note
  -- named the 500 of the route before, from `(was "Internal Server
  -- Error")`).
  text = text:gsub(' %(was "[^\n]-"%)', "")
  for _, t in ipairs(routed_texts(ctx)) do
    if text:find(t.text, 1, true) then
      if t.body then
        return ("ⓘ %q is both the status text of your route %s's %d and its body's: the page shows what the route "
          .. "answered, not what the app's server says, and a body of other words tells which of the two it reads")
          :format(t.text, t.pattern, t.status)
      elseif t.status then
        return ("ⓘ %q is the status text of your route %s's %d: the page shows the response's status, what the "
          .. "route answered, not what the app's server says"):format(t.text, t.pattern, t.status)
      end
      return ("ⓘ %q is the body of your route %s: the page shows what the route answered, not what the app's "
        .. "server says"):format(t.text, t.pattern)
    end
  end
end

--- result (an action's answer, its change report added) with a line
-- for the requests the action sent that failed
-- (result.structured.failed_requests) when the page changed nothing:
-- the app shows nothing of the failure, which is what a test can know of
-- it (run BM made six calls to be sure the app shows no message).
function report.silent_failure(result)
  local s = type(result) == "table" and type(result.text) == "string" and type(result.structured) == "table"
    and result.structured
  local failed, c = s and s.failed_requests, s and s.changes
  if type(failed) ~= "table" or type(c) ~= "table" or c.navigated or c.baseline == false
      or (c.added or 0) + (c.removed or 0) + (c.changed or 0) + (c.moved or 0) > 0 then
    return result
  end
  -- What the page says still, from before (run BO's status held the
  -- message of its try before, and it nearly read it as this one's).
  local still = type(c.still_said) == "string" and (" (it still says, from before: %s)"):format(c.still_said) or ""
  -- (Not "shows nothing of it": run FK's form showed the same message
  -- from its try before, and read the line as false.)
  result.text = result.text .. ("\n%s %s failed, and nothing on the page changed: no text, status or alert%s. "
    .. "A message of this failure, if any, was there before: a test can wait for that response "
    .. "(page.waitForResponse), not for a message"):format(#failed == 1
    and "Request" or "Requests", table.concat(failed, ", "), still)
  return result
end

--- result (a tool's answer, { text =, structured = }) with the change
-- report of the action whose facts are result.structured added (opts as
-- vdx.changes.report takes them).
-- A text of it that a route of the role answered with is said to be.
function report.with_changes(ctx, result, opts)
  if type(result) ~= "table" or type(result.text) ~= "string" then return result end
  local ok, r = pcall(require("vdx.changes").report, ctx, result.structured, opts)
  if not ok then
    local e = require("vdx.errors").normalize(r)
    r = { text = "(The change could not be read: " .. tostring(e.message):match("^[^\n]*") .. ")",
      structured = { error = e.type } }
  end
  if r then
    local echo = r.text ~= "" and route_echo(ctx, r.text)
    if echo then r.text = r.text .. "\n" .. echo end
    if r.text ~= "" then result.text = result.text .. "\n" .. r.text end
    result.structured = result.structured or {}
    result.structured.changes = r.structured
    result.said = r.said
  end
  return result
end

return report
