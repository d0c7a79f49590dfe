--- vdx.pool: several remote CDP endpoints (browser farms) that roles are
-- spread over.  A session is one role's connection to an endpoint (one
-- WebSocket; on browserless one browser, which is what its CONCURRENT
-- counts), with that role's context and all its pages; each endpoint takes
-- at most max_sessions of them.  A new session goes to the endpoint with
-- the fewest sessions (the first listed on a tie, so the spread is
-- stable); when every endpoint is full the caller queues, first come first
-- served, and is woken when a session ends (no polling), or fails with
-- PoolExhausted after wait_ms.  An endpoint that cannot be reached is
-- marked down for down_ms and its sessions go to the others.
local errors = require "vdx.errors"

local pool = {}

--- Defaults: sessions per endpoint (browserless's own CONCURRENT), the
-- longest wait for a session in ms, and how long an endpoint that failed
-- to connect is left out, in ms.
pool.MAX_SESSIONS, pool.WAIT_MS, pool.DOWN_MS = 10, 30000, 30000

local Pool = {}
Pool.__index = Pool
local Lease = {}
Lease.__index = Lease

local ENTRY_KEYS = { url = true, max_sessions = true, headers = true, ca = true, insecure = true,
  timeout_ms = true, retries = true, backoff_ms = true }
local POOL_KEYS = { endpoints = true, wait_ms = true, down_ms = true, max_sessions = true, connect = true,
  log = true }
-- What the world does to a connection that sends its role elsewhere.
local UNREACHABLE = { ConnectFailed = true, TLSFailed = true, FarmBusy = true, Timeout = true,
  BrowserClosed = true }

local function key_list(set)
  local out = {}
  for k in pairs(set) do out[#out + 1] = k end
  table.sort(out)
  return table.concat(out, ", ")
end

local function count(v, what, level)
  if math.type(v) ~= "integer" or v < 0 then
    errors.misuse(("vdx.pool: %s must be an integer >= 0, got %s"):format(what, tostring(v)), level,
      { field = what })
  end
  return v
end

-- One endpoint of the spec: { url, max_sessions, connect (vdx.connect's
-- options: the pool's with the entry's over them) }.
local function endpoint(vdx, e, i, defaults, connect)
  if type(e) == "string" then e = { url = e } end
  if type(e) ~= "table" then
    errors.misuse(("vdx.pool: endpoint %d must be a URL or { url = …, max_sessions = … }"):format(i), 4,
      { field = "endpoints" })
  end
  for k in pairs(e) do
    if not ENTRY_KEYS[k] then
      errors.misuse(("vdx.pool: endpoint %d: unknown key '%s' (known: %s)"):format(i, tostring(k),
        key_list(ENTRY_KEYS)), 4, { field = tostring(k) })
    end
  end
  if type(e.url) ~= "string" then
    errors.misuse(("vdx.pool: endpoint %d needs url = \"ws://…\" (or http://host:port)"):format(i), 4,
      { field = "url" })
  end
  require("vdx.remote").check(vdx, e.url)
  local max = e.max_sessions or defaults
  if count(max, "max_sessions", 5) < 1 then
    errors.misuse("vdx.pool: max_sessions must be at least 1", 4, { field = "max_sessions" })
  end
  local c = {}
  for k, v in pairs(connect or {}) do c[k] = v end
  for k, v in pairs(e) do
    if k ~= "url" and k ~= "max_sessions" then c[k] = v end
  end
  return { url = e.url, max = max, connect = next(c) and c or nil, leases = {}, used = 0, index = i }
end

--- vdx.pool(spec) -> a pool.  spec: the endpoints as its list part (or in
-- spec.endpoints), each a URL or { url =, max_sessions =, headers =, and
-- any other vdx.connect option }; wait_ms (how long a session is waited
-- for, default 30000), down_ms (how long an unreachable endpoint is left
-- out, 30000), max_sessions (the default of every endpoint, 10), connect
-- (vdx.connect's options for every endpoint), log(level, fmt, …).
-- Misuse raises InvalidArgument; an endpoint without a scheme raises
-- InvalidEndpoint.
function pool.new(vdx, spec)
  if type(spec) ~= "table" then errors.misuse("vdx.pool: give a table of endpoints", 3) end
  for k in pairs(spec) do
    if math.type(k) ~= "integer" and not POOL_KEYS[k] then
      errors.misuse(("vdx.pool: unknown option '%s' (known: %s)"):format(tostring(k), key_list(POOL_KEYS)), 3,
        { field = tostring(k) })
    end
  end
  local list = spec.endpoints or spec
  local self = setmetatable({
    vdx = vdx, list = {}, queue = {},
    wait_ms = count(spec.wait_ms or pool.WAIT_MS, "wait_ms", 4),
    down_ms = count(spec.down_ms or pool.DOWN_MS, "down_ms", 4),
    log = spec.log or function() end,
  }, Pool)
  local defaults = count(spec.max_sessions or pool.MAX_SESSIONS, "max_sessions", 4)
  for i, e in ipairs(list) do self.list[i] = endpoint(vdx, e, i, defaults, spec.connect) end
  if #self.list == 0 then errors.misuse("vdx.pool: give at least one endpoint", 3, { field = "endpoints" }) end
  return self
end

local function redact(url) return require("vdx.remote").redact(url) end

-- Frees the sessions whose connection is gone (the farm ended it or died).
function Pool:reap()
  -- Collected first: a release hands places out, which adds leases.
  local gone = {}
  for _, e in ipairs(self.list) do
    for lease in pairs(e.leases) do
      if lease.browser and lease.browser:is_closed() then gone[#gone + 1] = lease end
    end
  end
  for _, lease in ipairs(gone) do self:release(lease) end
end

-- Whether endpoint e is left out now.
function Pool:is_down(e)
  if e.down_until and self.vdx.now() >= e.down_until then
    e.down_until, e.why = nil, nil
    self.log("info", "pool: %s is tried again", redact(e.url))
  end
  return e.down_until ~= nil
end

-- The endpoint a new session goes to: up, with room, fewest sessions, the
-- first listed on a tie; or nil.
function Pool:pick()
  local best
  for _, e in ipairs(self.list) do
    if not self:is_down(e) and e.used < e.max and (not best or e.used < best.used) then best = e end
  end
  return best
end

-- Takes a session of e for who.
function Pool:take(e, who)
  e.used = e.used + 1
  local lease = setmetatable({ pool = self, endpoint_ = e, who = who }, Lease)
  e.leases[lease] = true
  return lease
end

-- Hands free sessions to the callers queued for one, in order of arrival.
function Pool:dispatch()
  while self.queue[1] do
    local e = self:pick()
    if not e then return end
    local w = table.remove(self.queue, 1)
    -- A waiter whose wait already ended (its time ran out) looks again by
    -- itself; the others get the session and are woken.
    if not w.gate:done() then
      w.lease = self:take(e, w.who)
      w.gate:cancel("pool: a session is free")
    end
  end
end

-- The state of every endpoint, for a message: "URL (2/2 sessions)", "URL (down: why)".
function Pool:describe()
  local parts = {}
  for _, e in ipairs(self.list) do
    parts[#parts + 1] = e.down_until and ("%s (down: %s)"):format(redact(e.url), e.why)
      or ("%s (%d/%d sessions)"):format(redact(e.url), e.used, e.max)
  end
  return table.concat(parts, ", ")
end

-- The PoolExhausted error for who after waited ms.
function Pool:exhausted(who, waited, all_down)
  local eps = {}
  for i, e in ipairs(self.list) do
    eps[i] = { url = redact(e.url), max_sessions = e.max, sessions = e.used, down = e.why }
  end
  local msg = all_down and ("%sno endpoint of the pool can be reached: %s"):format(who and (who .. ": ") or "",
      self:describe())
    or ("%severy endpoint of the pool is full after waiting %d ms (pool_wait_ms = %d): %s")
      :format(who and (who .. ": ") or "", waited, self.wait_ms, self:describe())
  return self.vdx.error("PoolExhausted", msg, { endpoints = eps, waited_ms = waited, wait_ms = self.wait_ms,
    role = who })
end

-- Whether every endpoint is down.
function Pool:all_down()
  for _, e in ipairs(self.list) do
    if not self:is_down(e) then return false end
  end
  return true
end

-- The earliest time a down endpoint is tried again, or nil.
function Pool:next_up()
  local t
  for _, e in ipairs(self.list) do
    if e.down_until and (not t or e.down_until < t) then t = e.down_until end
  end
  return t
end

--- pool:acquire([who [, deadline]]) -> lease: a session on an endpoint
-- with room, waiting (queued, woken when one frees) until deadline (a
-- vdx.now() time; default now + wait_ms); raises PoolExhausted then, or
-- at once when every endpoint is down.  Nothing is connected yet.
function Pool:acquire(who, deadline)
  local vdx = self.vdx
  local started = vdx.now()
  deadline = deadline or started + self.wait_ms
  self:reap()
  while true do
    if self:all_down() then error(self:exhausted(who, vdx.now() - started, true), 0) end
    -- Nobody passes the queue: a free session goes to the first caller waiting.
    local e = not self.queue[1] and self:pick()
    if e then return self:take(e, who) end
    local now = vdx.now()
    if now >= deadline then error(self:exhausted(who, now - started), 0) end
    local until_ = deadline
    local up = self:next_up()
    if up and up < until_ then until_ = up end
    local w = { who = who }
    -- The wait is a task of its own, so a free session wakes it by
    -- cancelling it and a cancellation of the caller stays the caller's.
    w.gate = vdx.spawn(function()
      if not w.lease then pcall(vdx.sleep, math.max(0, until_ - vdx.now())) end
    end)
    self.queue[#self.queue + 1] = w
    self.log("info", "pool: %s waits for a session (%s)", who or "a caller", self:describe())
    local ok, err = pcall(vdx.wait, w.gate)
    for i, x in ipairs(self.queue) do
      if x == w then table.remove(self.queue, i) break end
    end
    if not ok then
      w.gate:cancel()
      if w.lease then self:release(w.lease) end
      error(err, 0)
    end
    if w.lease then return w.lease end
    -- The time ran out, or a down endpoint may be up again: look again.
    if vdx.now() >= deadline and not self:pick() then error(self:exhausted(who, vdx.now() - started), 0) end
    -- The head of the queue after a timeout: give the others their turn first.
    self:dispatch()
  end
end

--- pool:release(lease): frees its session (a second call does nothing).
function Pool:release(lease)
  if lease.released then return end
  lease.released = true
  local e = lease.endpoint_
  e.leases[lease] = nil
  e.used = e.used - 1
  self:dispatch()
end

-- Marks e down for down_ms because of err, saying so in the log.
function Pool:mark_down(e, err)
  local why = tostring(type(err) == "table" and err.message or err)
  why = why:gsub("^.-: ", "", 1)
  e.down_until, e.why = self.vdx.now() + self.down_ms, why
  self.log("warn", "pool: %s is down (%s); new sessions go to the other endpoints for %d s",
    redact(e.url), why, self.down_ms // 1000)
end

--- pool:connect([who]) -> browser, lease: a session on the least loaded
-- endpoint with room, connected (vdx.connect with the endpoint's options).
-- An endpoint that cannot be reached is marked down and the next is
-- tried; raises PoolExhausted when none is left or the wait runs out.
-- lease:close() (or closing the browser) frees the session.
function Pool:connect(who)
  local vdx = self.vdx
  local deadline = vdx.now() + self.wait_ms
  while true do
    local lease = self:acquire(who, deadline)
    local e = lease.endpoint_
    local ok, b = pcall(vdx.connect, e.url, e.connect)
    if ok then
      lease.browser = b
      -- A session the farm ends (or a farm that dies) frees its place at
      -- once: the connection's loss is an event, and a waiter is woken.
      b:on("disconnected", function() self:reap() end)
      self.log("info", "pool: %s on %s (%d/%d sessions)", who or "a session", redact(e.url), e.used, e.max)
      return b, lease
    end
    if not (type(b) == "table" and UNREACHABLE[b.type]) then
      self:release(lease)
      error(b, 0)
    end
    self:mark_down(e, b)
    self:release(lease)
  end
end

--- pool:endpoints() -> { { url =, max_sessions =, sessions =, down = why or nil }, … }
-- in the order given (urls with a query's token hidden).
function Pool:endpoints()
  self:reap()
  local out = {}
  for i, e in ipairs(self.list) do
    self:is_down(e)
    out[i] = { url = redact(e.url), max_sessions = e.max, sessions = e.used, down = e.why }
  end
  return out
end

--- pool:waiting() -> how many callers wait for a session.
function Pool:waiting() return #self.queue end

--- lease:endpoint() -> the URL of the endpoint the session is on.
function Lease:endpoint() return self.endpoint_.url end

--- lease:close(): disconnects the session's browser (when connected) and
-- frees its place (a second call does nothing).
function Lease:close()
  local b = self.browser
  self.browser = nil
  if b then pcall(b.close, b) end
  self.pool:release(self)
end

--- Sets vdx.pool.
function pool.install(vdx)
  function vdx.pool(spec) return pool.new(vdx, spec) end
end

return pool
