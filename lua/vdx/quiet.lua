--- vdx.quiet: lets the requests an MCP action started finish before its
-- answer reads the page.  A click that posts a form by fetch, or a page
-- whose list arrives by XHR after its load event, changes the page only
-- when the response is in: a report read before that says "No change"
-- and an outline shows an empty list.  The acting tools and
-- browser_navigate watch the role's page from before the action
-- (quiet.watch) and, once the action has settled, wait for the fetch and
-- XHR requests it started, at most a budget (quiet.wait).
-- Event-driven (vdx.netwatch's events wake the wait); nothing polls.
-- Flows and the Lua API do not wait: their checks auto-wait instead.
local vdx = require "vdx"
local netwatch = require "vdx.netwatch"
local clip = require "vdx.clip"

local quiet = {}

--- How long (ms) an action's answer waits for the requests it started.
quiet.BUDGET_MS = 3000

--- After the last request is over, how long (ms) the page may take to
-- show its response (the handler's JSON parse and render) or chain
-- another request, which is then waited for too.
quiet.AFTER_MS = 50

-- The requests waited for: the page's own calls to its APIs, whose
-- responses it renders.  Documents are the settle's (a navigation's load);
-- a cross-origin frame's document starts on the page's session and ends
-- on the frame's, so it would never be seen to end.
local COUNTED = { Fetch = true, XHR = true }

local Watch = {}
Watch.__index = Watch

-- By page (weak): the requests a route holds on purpose (quiet.hold),
-- network id -> { method, url, ms }, and the watches under way.
local held = setmetatable({}, { __mode = "k" })
local watching = setmetatable({}, { __mode = "k" })
-- By page (weak): the seq of its last request (page:mark's requests) when
-- its last watch ended; what it requested after that and before the next
-- watch began, it requested with no action under way.
local ended = setmetatable({}, { __mode = "k" })

--- A request a page made this many times with no action under way, just
-- before an action, is the page's own (a poll), not the action's.
quiet.IDLE_REPEATS = 2

-- The seq of page's last request, or nil.
local function request_seq(page)
  local ok, m = pcall(page.mark, page)
  return ok and type(m) == "table" and m.requests or nil
end

-- A request as the answers say it: "GET /api/cart" (path, no query).
local function line_of(method, url)
  url = url or "?"
  return (method or "GET") .. " " .. (url:match("^%a+://[^/]+([^?#]*)") or url)
end

-- Stops counting request id in w: a route holds it (quiet.hold).
local function excuse(w, id, h)
  if not w.held_ids[id] then w.held_ids[id], w.held[#w.held + 1] = true, h end
  if not w.open[id] then return end
  w.open[id], w.n = nil, w.n - 1
  if w.n == 0 and w.waiter then
    w.woken = true
    w.waiter:cancel("requests over")
  end
end

--- Says that a route holds page's request id (its Network request id)
-- for ms on purpose (browser_route's delay: a slow server whose waiting
-- the test shows): an action's answer does not wait for it, and says so
-- (quiet.tell).  request: { method, url }.
function quiet.hold(page, id, request, ms)
  if not page or not id then return end
  held[page] = held[page] or {}
  local h = held[page][id]
  -- (Two routes that hold one request, each in turn: its wait is the sum.)
  if h then h.ms = (h.ms or 0) + (ms or 0) return end
  h = { method = request.method or "GET", url = request.url or "?", ms = ms }
  -- (Kept for the watches of this page's actions, not for ever: a page
  -- that holds many requests keeps the last ones.)
  local n = (held[page].n or 0) + 1
  if n > 200 then held[page], n = {}, 1 end
  held[page].n, held[page][id] = n, h
  for w in pairs(watching[page] or {}) do excuse(w, id, h) end
end

--- Starts watching page's requests: the fetch and XHR requests that
-- start from now on are waited for by w:wait.  Returns the watch
-- (w:stop() ends it; a closed page gives one that waits for nothing).
function quiet.watch(page)
  local w = setmetatable({ open = {}, n = 0, seen = false, held = {}, held_ids = {}, all = {} }, Watch)
  if not page or page:is_closed() then return w end
  w.page = page
  w.idle_from, w.idle_to = ended[page], request_seq(page)
  watching[page] = watching[page] or setmetatable({}, { __mode = "k" })
  watching[page][w] = true
  local off = netwatch.subscribe(page, {
    started = function(_, rec)
      if not COUNTED[rec.type] then return end
      local h = held[page] and held[page][rec.id]
      if h then return excuse(w, rec.id, h) end
      w.open[rec.id], w.n, w.seen = rec, w.n + 1, true
      w.all[#w.all + 1] = rec
      if w.late then w.late[#w.late + 1] = rec end
    end,
    finished = function(_, rec)
      if not w.open[rec.id] then return end
      w.open[rec.id], w.n, w.done_at = nil, w.n - 1, vdx.now()
      if w.n == 0 and w.waiter then
        -- The waiting task sleeps until the budget ends: wake it now.
        w.woken = true
        w.waiter:cancel("requests over")
      end
    end,
  })
  w.off = function()
    off()
    if watching[page] then watching[page][w] = nil end
  end
  return w
end

-- Sleeps up to ms, or until a request's end wakes it; a cancellation of
-- the call itself is raised as it came.
function Watch:sleep(ms)
  self.waiter, self.woken = vdx.current_task(), false
  local ok, err = pcall(vdx.sleep, ms)
  self.waiter = nil
  if not ok and not (self.woken and vdx.is_error(err, "Cancelled")) then error(err, 0) end
end

--- Waits until every counted request started since quiet.watch is over
-- and the page had quiet.AFTER_MS since the last one ended to show it, at
-- most budget_ms (default quiet.BUDGET_MS).  opts.open_only: the requests
-- over already do not count (a navigation that waited for its load
-- event: what loaded before it has run).  Returns nil when it is quiet,
-- else the requests still under way: a list of { method, url } (oldest
-- first).
function Watch:wait(budget_ms, opts)
  if not self.off then return nil end
  if opts and opts.open_only then self.seen, self.done_at = self.n > 0, nil end
  -- What the answer waits for and a test's next step would not: the
  -- requests still open now and those that start while it waits.
  self.late = {}
  for _, rec in pairs(self.open) do self.late[#self.late + 1] = rec end
  local deadline = vdx.now() + (budget_ms or quiet.BUDGET_MS)
  if self.n == 0 and not self.seen and not self.page:is_closed() then
    -- One round trip to the page before deciding nothing started: the
    -- events of a request a handler began (a load event's fetch, whose
    -- start may be announced after the load event itself) are in before
    -- its answer.  A call the renderer runs ahead of the page's own tasks,
    -- so it waits for no frame.
    local ok, err = pcall(self.page.bridge, self.page, "isHidden", {},
      { frame = "main", timeout_ms = math.max(1, deadline - vdx.now()) })
    if not ok and vdx.is_error(err, "Cancelled") then error(err, 0) end
  end
  local waited = false
  while true do
    if self.n == 0 then
      -- The page had AFTER_MS since the last request ended: it is quiet.
      local since = self.done_at and vdx.now() - self.done_at
      if not self.seen or waited or not since or since >= quiet.AFTER_MS then return nil end
      waited = true
      self:sleep(math.min(quiet.AFTER_MS - since, math.max(1, deadline - vdx.now())))
      if self.n == 0 then return nil end
    end
    local left = deadline - vdx.now()
    if left <= 0 then return self:pending() end
    waited = false
    self:sleep(left)
  end
end

--- The requests still under way: { { method =, url = }, … }, oldest first.
function Watch:pending()
  local list = {}
  for _, rec in pairs(self.open) do list[#list + 1] = rec end
  table.sort(list, function(a, b) return (a.ts or 0) < (b.ts or 0) end)
  local out = {}
  for i, rec in ipairs(list) do
    out[i] = { method = rec.request and rec.request.method or "GET", url = rec.request and rec.request.url or "?" }
  end
  return out
end

--- The requests (as "GET /api/products") the page made at least
-- quiet.IDLE_REPEATS times between the end of its watch before this one
-- and the start of this one, no action under way: its own, on a timer
-- (the shop's list every second), whatever the action does.  A set.
function Watch:idle_repeats()
  if self.idle then return self.idle end
  self.idle = {}
  local from, to = self.idle_from, self.idle_to
  if not from or not to or to - from < quiet.IDLE_REPEATS or self.page:is_closed() then return self.idle end
  local ok, list = pcall(self.page.requests, self.page, { since = from })
  local n = {}
  for _, r in ipairs(ok and list or {}) do
    if (r.seq or 0) <= to and COUNTED[r.type] then
      local line = line_of(r.method, r.url)
      n[line] = (n[line] or 0) + 1
      if n[line] >= quiet.IDLE_REPEATS then self.idle[line] = true end
    end
  end
  return self.idle
end

-- The requests of recs the page got a response to, as "GET /api/cart"
-- (path, no query), each once and in the order they started, but those
-- the page repeats on its own (Watch:idle_repeats); nil when none.  (A
-- test waits for these responses: one that failed, was redirected or is
-- still open would keep it waiting, and a poll's makes it wait for the
-- next tick: run CH's GET /api/products.)
function Watch:answered(recs)
  if not recs or #recs == 0 then return nil end
  table.sort(recs, function(a, b) return (a.ts or 0) < (b.ts or 0) end)
  local out, seen = {}, {}
  for _, rec in ipairs(recs) do
    if rec.response and not rec.failed and not rec.redirected and rec.done_ts then
      local line = line_of(rec.request and rec.request.method, rec.request and rec.request.url)
      if not seen[line] and not self:idle_repeats()[line] then seen[line], out[#out + 1] = true, line end
    end
  end
  return #out > 0 and out or nil
end

--- The requests w:wait waited for (open when it began, or started
-- while it waited) that the page got a response to (see Watch:answered).
function Watch:waited()
  return self:answered(self.late)
end

--- Every request counted since quiet.watch (the action's own, whether
-- the wait saw it open or not) that the page got a response to, as
-- Watch:waited says them; nil when none.
function Watch:fetched()
  return self:answered(self.all)
end

--- Every request counted since quiet.watch that failed: its response's
-- status 400 or more, or no response (a network error, not one the page
-- cancelled), as "POST /api/cart (500)", each once in the order they
-- started; nil when none.
function Watch:failed()
  local out, seen = {}, {}
  for _, rec in ipairs(self.all) do
    local status = rec.response and tonumber(rec.response.status)
    local why = status and status >= 400 and tostring(math.tointeger(status) or status)
      or (not rec.response and rec.failed and rec.failed ~= "canceled" and rec.failed)
    if why then
      local line = ("%s (%s)"):format(line_of(rec.request and rec.request.method, rec.request and rec.request.url), why)
      if not seen[line] then seen[line], out[#out + 1] = true, line end
    end
  end
  return #out > 0 and out or nil
end

--- Ends the watch (a second call does nothing).
function Watch:stop()
  if self.off then
    self.off()
    if not self.page:is_closed() then ended[self.page] = request_seq(self.page) end
  end
  self.off = nil
end

-- A URL as an answer's line gives it: its first 100 characters.
local function short(url)
  return clip(url, 100)
end

--- Runs fn(...) on page watched (quiet.watch; nil or a closed page: no
-- watch), then waits for the requests it started (Watch:wait with opts);
-- returns fn's result, the requests still under way (nil when none),
-- those a route held on purpose (quiet.hold; nil when none), those the
-- wait waited for (Watch:waited; nil when none) and every one fn and the
-- wait saw answered (Watch:fetched; nil when none), and those that failed
-- (Watch:failed; nil when none).  The watch ends whichever way fn or the
-- wait ends; their errors are raised as they came.
function quiet.around(page, opts, fn, ...)
  local w = quiet.watch(page)
  local ok, res = pcall(fn, ...)
  local okw, pending = true, nil
  if ok then okw, pending = pcall(w.wait, w, nil, opts) end
  w:stop()
  if not ok then error(res, 0) end
  if not okw then error(pending, 0) end
  return res, pending, #w.held > 0 and w.held or nil, w:waited(), w:fetched(), w:failed()
end

--- result (a tool's answer, { text =, structured = }) with the lines and
-- structured.loading / structured.held of the requests still under way
-- and of those a route holds (quiet.around's pending and held), when
-- there are any.
function quiet.tell(result, pending, held_list)
  if type(result) ~= "table" or type(result.text) ~= "string" then return result end
  local line = quiet.line(pending)
  if line then
    result.text = result.text .. "\n" .. line
    result.structured = result.structured or {}
    result.structured.loading = pending
  end
  if held_list then
    local h = held_list[1]
    local url = short(h.url)
    result.text = result.text .. ("\nHeld by a route (delay %d ms): %s %s%s; this answer shows the page while it "
      .. "waits (browser_wait_for reads what it shows after)"):format(h.ms or 0, h.method, url,
      #held_list > 1 and (" and %d more"):format(#held_list - 1) or "")
    result.structured = result.structured or {}
    result.structured.held = held_list
  end
  return result
end

--- The answer's line for requests still under way (Watch:wait's list),
-- or nil: they may change the page after the answer.
function quiet.line(pending, budget_ms)
  if not pending or #pending == 0 then return nil end
  local first = pending[1]
  local url = short(first.url)
  return ("Still loading after %.1f s: %s %s%s; the page may change again (browser_wait_for or browser_snapshot "
    .. "reads it later)"):format((budget_ms or quiet.BUDGET_MS) / 1000, first.method, url,
    #pending > 1 and (" and %d more"):format(#pending - 1) or "")
end

return quiet
