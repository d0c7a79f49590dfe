--- vdx.fetch: the one owner of CDP's Fetch domain on a page.
--
-- Fetch has one state per session: two pieces of code that each call
-- Fetch.enable and answer Fetch.requestPaused would replace each other's
-- patterns and answer the same request twice.  So every user of Fetch
-- (routes, HAR replay, the roles' scratch page) registers a client here:
--
--   local owner = fetch.owner(page)
--   owner:add(key, { patterns = { { urlPattern = "*" } },
--                    on_paused = function(ev, sid, page) … return true end })
--   owner:remove(key)
--
-- The owner enables Fetch with the union of its clients' patterns on the
-- page's session, on each of its child sessions (out-of-process frames,
-- workers; page:sessions()), and through page:session_setup on every child
-- that attaches later, before it runs.  A paused request goes to the
-- clients, the last added first; the first whose on_paused returns true
-- owns the answer.  A client gets the page as an argument and should not
-- hold it: the registry keeps the handler, and would keep the page.  One that no client takes continues unchanged, so a
-- request is never left paused.  Fetch is disabled when the last client
-- goes.  Authentication challenges are not intercepted (no
-- handleAuthRequests), so the browser answers them as it would without
-- Fetch, and routes compose with them.
local fetch = {}

local SETUP_KEY = "vdx.fetch"

-- page -> owner; weak, so a collected page takes its owner along.
local owners = setmetatable({}, { __mode = "k" })

local Owner = {}
Owner.__index = Owner

-- The union of the clients' patterns (a client with none adds nothing).
local function patterns(self)
  local out, seen = {}, {}
  for _, c in ipairs(self.clients) do
    for _, p in ipairs(c.patterns or {}) do
      local k = tostring(p.urlPattern) .. "\0" .. tostring(p.resourceType) .. "\0" .. tostring(p.requestStage)
      if not seen[k] then
        seen[k] = true
        out[#out + 1] = p
      end
    end
  end
  return out
end

-- Sends Fetch.enable (or disable) on every session of the page and sets
-- what new child sessions get.
local function apply(self)
  local page = self.page_ref[1]
  if not page or page:is_closed() then return end
  local pats = patterns(self)
  local method, params = "Fetch.enable", { patterns = pats }
  if #pats == 0 then method, params = "Fetch.disable", nil end
  page:session_setup(SETUP_KEY, #pats > 0 and { { method, params } } or nil)
  page:send(method, params)
  for _, s in ipairs(page:sessions()) do
    -- A child that detached meanwhile has nothing left to set up.
    pcall(page.send, page, method, params, { session = s.session_id })
  end
  self.enabled = #pats > 0
end

-- Answers one paused request: the clients, the last added first.
local function dispatch(self, ev, sid)
  local page = self.page_ref[1]
  if not page then return end
  for i = #self.clients, 1, -1 do
    local c = self.clients[i]
    local ok, took = pcall(c.on_paused, ev, sid, page)
    if not ok then
      fetch.log("error", "Fetch client %s failed on %s: %s", c.key, tostring(ev.request and ev.request.url),
        tostring(type(took) == "table" and took.message or took))
      took = false
    end
    if took then return end
  end
  if ev.responseStatusCode or ev.responseErrorReason then
    pcall(page.send, page, "Fetch.continueResponse", { requestId = ev.requestId }, { session = sid })
  else
    pcall(page.send, page, "Fetch.continueRequest", { requestId = ev.requestId }, { session = sid })
  end
end

--- Where the owner reports a client that raised: fetch.log(level, fmt, …)
-- writes to stderr by default; a host may replace it.
function fetch.log(level, fmt, ...)
  io.stderr:write(("vdx: %s: " .. fmt .. "\n"):format(level, ...))
end

--- The Fetch owner of page, made on first use.
function fetch.owner(page)
  local o = owners[page]
  if o then return o end
  -- The event handler holds the page weakly: the registry keeps the
  -- handler, and a strong reference there would keep the page forever.
  o = setmetatable({ page_ref = setmetatable({ page }, { __mode = "v" }), clients = {} }, Owner)
  owners[page] = o
  page:on("Fetch.requestPaused", function(ev, sid) dispatch(o, ev, sid) end, { sessions = "all" })
  return o
end

--- Adds (or replaces) the client named key and brings Fetch's patterns
-- up to date; returns once the page's own session has them.
function Owner:add(key, client)
  client.key = key
  for i, c in ipairs(self.clients) do
    if c.key == key then
      self.clients[i] = client
      apply(self)
      return self
    end
  end
  self.clients[#self.clients + 1] = client
  apply(self)
  return self
end

--- Removes the client named key (nothing when there is none).
function Owner:remove(key)
  for i, c in ipairs(self.clients) do
    if c.key == key then
      table.remove(self.clients, i)
      apply(self)
      return true
    end
  end
  return false
end

--- True when a client named key is registered.
function Owner:has(key)
  for _, c in ipairs(self.clients) do if c.key == key then return true end end
  return false
end

return fetch
