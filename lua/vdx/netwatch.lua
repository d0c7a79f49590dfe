--- vdx.netwatch: one watcher of the Network events of each page, shared by
-- the response hook (vdx.network) and the HAR recorder (vdx.har), and the
-- hooks that reach every page of a context, present and new.
--
-- The core enables the Network domain on each page's session (and keeps
-- its own bounded list for page:requests); this module subscribes to the
-- same events once per page (page:on cannot be undone, so one dispatcher
-- per page serves every subscriber) and builds a record per request:
--   { id, request = CDP Request, type, frame_id, ts, wall, response = CDP
--     Response?, done_ts?, encoded?, failed?, redirected? (the URL it was
--     redirected to), after_redirect (a hop of a redirect chain) }
-- A subscriber's finished(page, rec) runs inside the event's task when
-- the request is over (loading finished or failed, or redirected); it must
-- not yield (spawn a task for what waits, as vdx.network does).
-- Event-driven: nothing polls.  Requests are tracked only while a page has
-- at least one subscriber.
local vdx = require "vdx.core"

local netwatch = {}

local EVENTS = { "requestWillBeSent", "responseReceived", "loadingFinished", "loadingFailed" }

-- page -> { subs = { [sub] = true }, n = count, reqs = { [requestId] = rec } }
local pages = setmetatable({}, { __mode = "k" })

local function notify(st, page, rec)
  for sub in pairs(st.subs) do
    if sub.finished then sub.finished(page, rec) end
  end
end

local function on_event(page, st, name, p)
  if st.n == 0 then return end
  local id = p.requestId
  if name == "requestWillBeSent" then
    local old = st.reqs[id]
    if old and p.redirectResponse then
      old.response, old.done_ts, old.redirected = p.redirectResponse, p.timestamp, p.request.url
      st.reqs[id] = nil
      notify(st, page, old)
    end
    local rec = { id = id, request = p.request, type = p.type, frame_id = p.frameId,
      ts = p.timestamp, wall = p.wallTime, after_redirect = p.redirectResponse ~= nil }
    st.reqs[id] = rec
    for sub in pairs(st.subs) do
      if sub.started then sub.started(page, rec) end
    end
    return
  end
  local rec = st.reqs[id]
  if not rec then return end
  if name == "responseReceived" then
    rec.response, rec.type = p.response, p.type or rec.type
  elseif name == "loadingFinished" then
    rec.done_ts, rec.encoded = p.timestamp, p.encodedDataLength
    st.reqs[id] = nil
    notify(st, page, rec)
  else
    rec.done_ts, rec.failed = p.timestamp, p.canceled and "canceled" or p.errorText or "failed"
    st.reqs[id] = nil
    notify(st, page, rec)
  end
end

--- Subscribes sub ({ started = fn(page, rec)?, finished = fn(page, rec)?,
-- page_event = fn(page, name, params)? for Page.domContentEventFired and
-- Page.loadEventFired }) to page's requests; returns a function that unsubscribes it (a second
-- call does nothing).
function netwatch.subscribe(page, sub)
  local st = pages[page]
  if not st then
    st = { subs = {}, n = 0, reqs = {} }
    pages[page] = st
    for _, name in ipairs(EVENTS) do
      page:on("Network." .. name, function(p) on_event(page, st, name, p) end)
    end
    -- The document's own milestones, for a HAR page's timings.
    for _, name in ipairs { "domContentEventFired", "loadEventFired" } do
      page:on("Page." .. name, function(p)
        for sub in pairs(st.subs) do
          if sub.page_event then sub.page_event(page, name, p) end
        end
      end)
    end
  end
  st.subs[sub] = true
  st.n = st.n + 1
  return function()
    if not st.subs[sub] then return end
    st.subs[sub] = nil
    st.n = st.n - 1
    if st.n == 0 then st.reqs = {} end
  end
end

--- The records of page's requests still under way (none when nothing
-- subscribes to its requests).
function netwatch.open(page)
  local st = pages[page]
  return st and st.reqs or {}
end

--- The name of the frame of CDP id frame_id in page ("main", "f3"), or
-- nil when the page does not know it (any more).
function netwatch.frame_name(page, frame_id)
  if frame_id == nil or page:is_closed() then return nil end
  local ok, frames = pcall(page.frames, page, { cdp_ids = true })
  if not ok then return nil end
  for _, f in ipairs(frames) do
    if f.id == frame_id then return f.frame end
  end
  return nil
end

-- ---------------------------------------------------------- contexts

-- browser -> { [context id] = { hooks = { [hook] = true }, seen = weak { [page] = { [hook] = true } } } }
local contexts = setmetatable({}, { __mode = "k" })

local function state_of(ctx, create)
  local b = ctx:browser()
  local per = contexts[b]
  if not per then
    if not create then return nil end
    per = {}
    contexts[b] = per
    -- A page the context opens later (a popup, a tab) gets the hooks
    -- when the core has adopted it: ctx:pages() waits for the adoption.
    b:on("Target.targetCreated", function(p)
      local info = p.targetInfo or {}
      if info.type ~= "page" then return end
      for id, st in pairs(per) do
        if next(st.hooks) and (id == "" or id == info.browserContextId) and st.ctx and not b:is_closed() then
          local ok, list = pcall(st.ctx.pages, st.ctx)
          if ok then for _, page in ipairs(list) do netwatch.apply(st, page) end end
        end
      end
    end)
  end
  local st = per[ctx:id()]
  if not st and create then
    st = { hooks = {}, seen = setmetatable({}, { __mode = "k" }), ctx = ctx }
    per[ctx:id()] = st
  end
  return st
end

--- Runs every hook of the context state st on page once.
function netwatch.apply(st, page)
  local done = st.seen[page]
  if not done then done = {} st.seen[page] = done end
  for hook in pairs(st.hooks) do
    if not done[hook] and not page:is_closed() then
      done[hook] = true
      hook(page)
    end
  end
end

--- Runs hook(page) on every page of ctx now and on each page it opens
-- later (ctx:new_page(), popups and tabs), once per page; returns a
-- function that stops it for later pages.
function netwatch.on_pages(ctx, hook)
  local st = state_of(ctx, true)
  st.hooks[hook] = true
  for _, page in ipairs(ctx:pages()) do netwatch.apply(st, page) end
  return function() st.hooks[hook] = nil end
end

--- The hooks of ctx run on page, a page it just opened (ctx:new_page
-- calls it before returning, so the page's first request is seen).
function netwatch.adopted(ctx, page)
  local st = state_of(ctx, false)
  if st then netwatch.apply(st, page) end
  return page
end

--- Registers fn(ctx) to run when ctx:close() starts (a recorder writes
-- its file then); returns a function that unregisters it.
local closers = setmetatable({}, { __mode = "k" })
function netwatch.on_close(ctx, fn)
  local st = state_of(ctx, true)
  closers[st] = closers[st] or {}
  closers[st][fn] = true
  return function() closers[st][fn] = nil end
end

-- Runs a closer; its failure (a HAR file that cannot be written) does not
-- stop the close, and is told on stderr.
local function run_closer(fn, ctx)
  local ok, err = pcall(fn, ctx)
  if not ok then io.stderr:write("vdx: at the close of a context: ", tostring(err), "\n") end
end

--- Wraps the context and browser methods that open pages and close a
-- context or a browser, so hooks reach new pages and recorders finish at
-- ctx:close() and browser:close().
function netwatch.install(Context, Browser)
  if Context.__netwatch then return end
  Context.__netwatch = true
  local new_page, close = Context.new_page, Context.close
  function Context.new_page(ctx, ...)
    return netwatch.adopted(ctx, new_page(ctx, ...))
  end
  function Context.close(ctx, ...)
    local st = state_of(ctx, false)
    if st and closers[st] then
      for fn in pairs(closers[st]) do
        closers[st][fn] = nil
        run_closer(fn, ctx)
      end
    end
    return close(ctx, ...)
  end
  local browser_close = Browser.close
  function Browser.close(b, ...)
    for _, st in pairs(contexts[b] or {}) do
      for fn in pairs(closers[st] or {}) do
        closers[st][fn] = nil
        run_closer(fn, st.ctx)
      end
    end
    return browser_close(b, ...)
  end
  local browser_new_page = Browser.new_page
  function Browser.new_page(b, ...)
    local page = browser_new_page(b, ...)
    return netwatch.adopted(b:default_context(), page)
  end
end

netwatch.now = vdx.now

return netwatch
