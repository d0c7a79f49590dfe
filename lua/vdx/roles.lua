--- vdx.roles: the people a conversation acts as.  Each role has its own
-- browser context (created on first use, with its Playwright storageState
-- loaded: every cookie and the localStorage of every origin listed), its
-- own pages, refs and logs, an optional default URL opened on first use,
-- and optionally its own browser endpoint (a remote browser).  Nothing is
-- shared between roles' contexts.
local vdx = require "vdx"
local json = require "vdx.json"
local errors = require "vdx.errors"
local once = require "vdx.once"
local urls = require "vdx.urls"
local storage = require "vdx.storage"

local roles = {}

local Manager = {}
Manager.__index = Manager
local Role = {}
Role.__index = Role

local ROLE_KEYS = { name = true, auth = true, url = true, auth_required = true, endpoint = true }

--- A new manager.  A manager's open_default, when set, is how a role's
-- page opens its default URL: function(page, url), page:navigate's
-- shape (the MCP server lets the page's first requests finish there, as
-- browser_navigate does).  opts: launch (options for vdx.launch), connect
-- (options for vdx.connect of every remote endpoint: headers, ca,
-- insecure, retries), pool (a vdx.pool: every role without an endpoint
-- of its own takes a session there instead of the launched browser),
-- log(level, fmt, …).
function roles.new(opts)
  opts = opts or {}
  return setmetatable({
    launch_opts = opts.launch or { headless = true },
    connect_opts = opts.connect,
    pool = opts.pool,
    log = opts.log or function() end,
    list_ = {}, byname = {}, browsers = {}, current_ = nil,
    -- The launched browsers whose default context a role has taken.
    default_taken = setmetatable({}, { __mode = "k" }),
  }, Manager)
end

--- A manager with the same roles as this one, each with a context of
-- its own (never a browser's default context), on the browsers, pool and
-- file: watch this one has (one per MCP session over HTTP).
function Manager:sibling()
  local mgr = roles.new { log = self.log, connect = self.connect_opts, launch = self.launch_opts, pool = self.pool }
  for _, r in ipairs(self.list_) do
    mgr:add { name = r.name, auth = r.auth, url = r.url, auth_required = r.auth_required, endpoint = r.endpoint }
  end
  self.starting = self.starting or {}
  mgr.browsers, mgr.starting, mgr.url_guard = self.browsers, self.starting, self.url_guard
  mgr.open_default = self.open_default
  mgr.default_taken = setmetatable({}, { __index = function() return true end })
  return mgr
end

--- Adds a role {name, auth, url, auth_required, endpoint}; the first role
-- added becomes the current one.  Raises on misuse (unknown keys, bad name).
function Manager:add(spec)
  for k in pairs(spec) do
    if not ROLE_KEYS[k] then errors.misuse("role: unknown key '" .. tostring(k) .. "'", 2, { field = tostring(k) }) end
  end
  if type(spec.name) ~= "string" or not spec.name:match("^[%w_%-%.]+$") then
    errors.misuse("role: name must be letters, digits, '_', '-' or '.'", 2, { field = "name" })
  end
  if spec.url ~= nil then urls.check(spec.url, "role " .. spec.name .. ": url") end
  local r = self.byname[spec.name]
  if not r then
    r = setmetatable({ manager = self, pages = {}, failures = errors.failure_log() }, Role)
    self.list_[#self.list_ + 1] = r
    self.byname[spec.name] = r
  end
  for k, v in pairs(spec) do r[k] = v end
  if spec.auth == "-" or spec.auth == "" then r.auth = nil end
  self.current_ = self.current_ or r
  return r
end

--- Loads a config file: a Lua chunk returning { roles = { NAME = {auth=,
-- url=, auth_required=, endpoint=} | {{name=…}, …}, default_role = NAME, … }.
-- Returns the table (so the caller can read other options), or nil and why.
function Manager:load_config(path)
  -- Read without blocking: a FIFO named here fails at once.
  local text, rerr = vdx.read_file(path, { max_bytes = 4 * 1024 * 1024 })
  if not text then return nil, path .. ": " .. tostring(rerr) end
  local chunk, err = load(text, "@" .. path, "t", setmetatable({}, { __index = _G }))
  if not chunk then return nil, err end
  local ok, cfg = pcall(chunk)
  if not ok then return nil, tostring(cfg) end
  if type(cfg) ~= "table" then return nil, path .. ": must return a table" end
  local list = {}
  for k, v in pairs(cfg.roles or {}) do
    if type(k) == "string" then v.name = v.name or k end
    list[#list + 1] = v
  end
  table.sort(list, function(a, b) return tostring(a.name) < tostring(b.name) end)
  ok, err = pcall(function() for _, spec in ipairs(list) do self:add(spec) end end)
  if not ok then return nil, tostring(err) end
  if cfg.default_role then
    local r = self.byname[cfg.default_role]
    if not r then return nil, "default_role '" .. tostring(cfg.default_role) .. "' is not a role" end
    self.current_ = r
  end
  return cfg
end

--- Sets the browser endpoint of role name (a ws:// or http:// URL); the
-- role must have been declared (RoleUnknown otherwise).
function Manager:set_endpoint(name, url)
  local r = self:role(name)
  r.endpoint = url
end

-- The role called name, or a RoleUnknown error.
function Manager:role(name)
  local r = self.byname[name]
  if not r then
    local names = {}
    for i, x in ipairs(self.list_) do names[i] = x.name end
    local near = require("vdx.spelling").nearest(tostring(name), names)
    -- (A server of one role lists no role tools: its roles come from
    -- whoever starts it.)
    local only = #names <= 1 and ("; this server has one role%s, and roles come from its command line "
      .. "(vdxlua mcp --role NAME AUTH_FILE URL) or config: leave role out")
        :format(names[1] and (", " .. names[1]) or "")
    error(vdx.error("RoleUnknown", "there is no role '" .. tostring(name) .. "'" ..
      (near and (" (did you mean '" .. near .. "'?)") or "") .. (only or ""),
      { role = name, roles = #names > 0 and names or { "(none)" } }), 0)
  end
  return r
end

--- The current role (a "default" role with no auth when none is configured).
function Manager:current()
  if not self.current_ then self:add { name = "default" } end
  return self.current_
end

--- Makes name the current role; returns it.  Raises RoleUnknown.
function Manager:select(name)
  local r = self:role(name)
  self.current_ = r
  return r
end

--- The number of roles declared.
function Manager:count()
  return #self.list_
end

--- Every role: {name, auth, url, endpoint, auth_required, active, current, pages}.
function Manager:list()
  local out = json.array {}
  local cur = self.current_
  for _, r in ipairs(self.list_) do
    out[#out + 1] = { name = r.name, auth = r.auth, url = r.url, endpoint = r.endpoint or r:pooled_endpoint(),
      auth_required = r.auth_required and true or false, active = r.ctx ~= nil,
      current = r == cur, pages = #r.pages }
  end
  return out
end

--- Every open page of every role, with its role: a list of
-- { page = page, role = role } (the role object, as Manager:role gives).  A role's context is asked for its pages
-- (so tabs the page opened count); a role not started has none.
function Manager:open_pages()
  local out = {}
  for _, r in ipairs(self.list_) do
    local list = r.pages
    if r.ctx then
      local ok, pages = pcall(r.ctx.pages, r.ctx)
      if ok and type(pages) == "table" then list = pages end
    end
    for _, p in ipairs(list) do
      if not p:is_closed() then out[#out + 1] = { page = p, role = r } end
    end
  end
  return out
end

-- The browser for an endpoint (nil: the locally launched one), started once.
function Manager:browser(endpoint)
  local key = endpoint or "local"
  if self.closed then
    error(vdx.error("BrowserClosed", "the server is shutting down", { reason = "shutting down" }), 0)
  end
  local b = self.browsers[key]
  if b and not b:is_closed() then return b end
  self.starting = self.starting or {}
  return once.run(self.starting, key, function()
    local res
    if endpoint then
      self.log("info", "connecting to %s", endpoint)
      res = vdx.connect(endpoint, self.connect_opts)
    else
      self.log("info", "launching the browser")
      res = vdx.launch(self.launch_opts)
    end
    self.browsers[key] = res
    -- Every browser of the server, and so every page of every role, is
    -- watched for documents that open local files (vdx.url_guard).
    if self.url_guard then self.url_guard:watch(res) end
    return res
  end)
end

--- Raises BrowserNotFound, with the next step, when there is no browser
-- to launch: what names the executable option as its user set it
-- ("--executable").  Call it at start, before any role needs the browser.
function Manager:check_browser(what)
  local lo = self.launch_opts
  local ok, e = pcall(vdx.find_browser, { executable = lo.executable, headless = lo.headless ~= false })
  if ok or type(e) ~= "table" then return end
  if lo.executable then
    e.message = ("%s %s: not an executable file; give the path of Chromium (such as /usr/bin/chromium), or leave " ..
      "it out to use $VDX_CHROMIUM or Chromium on PATH"):format(what, lo.executable)
  elseif tostring(e.message):match("^VDX_CHROMIUM=") then
    e.message = e.message .. "; set VDX_CHROMIUM to the path of Chromium (such as /usr/bin/chromium), or unset it " ..
      "to use Chromium on PATH"
  end
  error(e, 0)
end

--- Closes every browser this manager started or connected to.
function Manager:close()
  self.closed = true
  for _, r in ipairs(self.list_) do
    if r.lease then r.lease:close() end
    r.ctx, r.pages, r.page_, r.lease = nil, {}, nil, nil
  end
  for k, b in pairs(self.browsers) do
    pcall(b.close, b)
    self.browsers[k] = nil
  end
end

--- Reads a Playwright storageState file: the table, or nil and the reason
-- (vdx.storage.read_state).
roles.read_auth = storage.read_state

-- Sets localStorage for every origin: a scratch page of the context whose
-- requests are all answered locally, navigated to each origin in turn.
local function set_local_storage(ctx, origins, log)
  local page = ctx:new_page()
  local ok, err = pcall(function()
    -- Through the page's one Fetch owner (vdx.fetch), beside any route.
    require("vdx.fetch").owner(page):add("roles.scratch", { patterns = { { urlPattern = "*" } },
      on_paused = function(ev, sid, p)
        pcall(p.send, p, "Fetch.fulfillRequest", { requestId = ev.requestId, responseCode = 200,
          responseHeaders = { { name = "Content-Type", value = "text/html" } }, body = "" }, { session = sid })
        return true
      end })
    for _, o in ipairs(origins) do
      if type(o.origin) == "string" and type(o.localStorage) == "table" and #o.localStorage > 0 then
        page:navigate(o.origin .. "/", { wait_until = "load", timeout_ms = 10000 })
        local items = {}
        for _, it in ipairs(o.localStorage) do items[#items + 1] = { it.name, it.value } end
        storage.replace_local_storage(page, items)
        log("info", "localStorage: %d items for %s", #items, o.origin)
      end
    end
  end)
  pcall(page.close, page)
  if not ok then error(err, 0) end
end
--- set_local_storage(ctx, origins, log): the one write of a storageState's
-- localStorage (vdx.storage.set_storage_state uses it too).
roles.set_local_storage = set_local_storage

-- Loads the role's auth (or the storageState file given) into ctx;
-- problems are errors when auth_required, warnings otherwise.
function Role:load_auth(ctx, browser, file)
  file = file or self.auth
  if not file then return end
  local function fail(reason)
    if self.auth_required then
      error(vdx.error("AuthenticationFailed", "cannot load the auth file of role " .. self.name,
        { role = self.name, file = file, reason = reason }), 0)
    end
    self.failures:add { kind = "auth", message = file .. ": " .. reason }
    self.manager.log("warn", "role %s: auth %s: %s", self.name, file, reason)
  end
  local state, why = roles.read_auth(file)
  if not state then return fail(why) end
  local ok, err = pcall(function()
    storage.add_cookies(ctx, state.cookies or {}, { lenient = true })
    set_local_storage(ctx, state.origins or {}, self.manager.log)
  end)
  if not ok then return fail(tostring(err)) end
end

--- The role's browser context, created (and its auth loaded) on first use.
function Role:context()
  if self.ctx then
    local ok, closed = pcall(function() return self.browser:is_closed() end)
    if ok and not closed then return self.ctx end
    self.ctx, self.pages, self.page_ = nil, {}, nil
  end
  -- One start however many callers ask at once (the MCP warm-up and the
  -- first tool call).
  self.starting = self.starting or {}
  return once.run(self.starting, "context", function()
    local ok, browser
    if not self.endpoint and self.manager.pool then
      ok, browser = pcall(self.pool_browser, self)
    else
      ok, browser = pcall(self.manager.browser, self.manager, self.endpoint)
    end
    if not ok then
      -- Name the role and its endpoint: the error reaches someone who
      -- configured several roles and must know which one to fix.
      if vdx.is_error(browser, "ConnectFailed") then
        local why = tostring(browser.message or "")
        local reason = why:find("closed before established", 1, true)
          and "connection refused (nothing answers at that address)" or why
        error(vdx.error("ConnectFailed", ("role %s: cannot reach the browser at %s: %s"):format(self.name,
          tostring(self.endpoint), reason), { role = self.name, url = self.endpoint, reason = reason }), 0)
      end
      if type(browser) == "table" and browser.type == "LaunchFailed" then browser.role = browser.role or self.name end
      if vdx.is_error(browser, "FarmBusy") or vdx.is_error(browser, "TLSFailed")
        or vdx.is_error(browser, "InvalidEndpoint") then
        browser.message = ("role %s: %s"):format(self.name, tostring(browser.message))
        browser.endpoint = self.endpoint
      end
      error(browser, 0)
    end
    -- The first role without an auth file on the launched browser takes
    -- the browser's default context, and with it the tab Chromium opened
    -- at start, whose renderer started with the browser; a new context's
    -- first tab starts its renderer only then, which was half of a cold
    -- start through MCP.  The other roles get contexts of their own, so
    -- no two roles share one.
    local ctx
    if not self.auth and not self.endpoint and not self.lease and not self.manager.default_taken[browser] then
      self.manager.default_taken[browser] = true
      ctx = browser:default_context()
    else
      ctx = browser:new_context()
    end
    self.browser = browser
    local ok2, err = pcall(self.load_auth, self, ctx, browser)
    if not ok2 then
      pcall(ctx.close, ctx)
      error(err, 0)
    end
    self.ctx = ctx
    return ctx
  end)
end

-- The role's own browser, a session of the manager's pool (a connection of
-- its own, on the least loaded endpoint with room; vdx.pool), taken anew
-- when the last one's connection is gone.
function Role:pool_browser()
  if self.lease then self.lease:close() end
  self.lease = nil
  local b, lease = self.manager.pool:connect("role " .. self.name)
  if self.manager.closed then
    lease:close()
    error(vdx.error("BrowserClosed", "the server is shutting down", { reason = "shutting down" }), 0)
  end
  self.lease = lease
  if self.manager.url_guard then self.manager.url_guard:watch(b) end
  return b
end

--- The endpoint of the role's pool session, or nil.
function Role:pooled_endpoint()
  return self.lease and not self.lease.released and self.lease:endpoint() or nil
end

--- Closes the role's context and pages, and its pool session (freeing
-- its place for another role); its next use starts it anew.
function Role:close()
  local ctx, lease = self.ctx, self.lease
  self.ctx, self.pages, self.page_, self.lease, self.browser = nil, {}, nil, nil, nil
  if ctx then pcall(ctx.close, ctx) end
  if lease then lease:close() end
end

--- err as this role should report it: a BrowserClosed of a remote role
-- whose connection dropped (the farm ended or was killed) becomes a
-- ConnectionLost naming the role and the endpoint; anything else is err.
function Role:explain(err)
  local endpoint = self.endpoint or (self.lease and self.lease:endpoint())
  if not (endpoint and self.browser and vdx.is_error(err, "BrowserClosed")) then return err end
  local ok, closed = pcall(self.browser.is_closed, self.browser)
  if not ok or not closed or self.manager.closed then return err end
  local where = require("vdx.remote").redact(endpoint)
  return vdx.error("ConnectionLost", ("role %s: the connection to %s was lost (%s)"):format(self.name, where,
    tostring(err.message)), { endpoint = where, reason = err.reason, flow_role = self.name,
    flow_step = err.flow_step, flow_where = err.flow_where })
end

--- The role's current page, created on first use (opening the default URL);
-- callers that ask while it is being created share that one start.
function Role:page()
  if self.page_ and self.ctx and not self.browser:is_closed() then return self.page_ end
  self.starting = self.starting or {}
  return once.run(self.starting, "page", function() return self:open_page() end)
end

-- Creates the context and the current page when they are missing.
function Role:open_page()
  local ctx = self:context()
  if self.page_ then return self.page_ end
  local page = ctx:new_page()
  self.pages[#self.pages + 1] = page
  self.page_ = page
  if self.url then
    local ok, err = pcall(self.manager.open_default or page.navigate, page, self.url)
    if not ok then
      self.failures:add { kind = "navigation", message = "default URL " .. self.url .. ": " .. tostring(err) }
    end
  end
  return page
end

--- Makes page (one of the role's pages) the current one.
function Role:set_page(page)
  local known = false
  for _, p in ipairs(self.pages) do if p == page then known = true end end
  if not known then self.pages[#self.pages + 1] = page end
  self.page_ = page
end

--- Opens a new page in the role's context and makes it current.
function Role:new_page()
  local page = self:context():new_page()
  self:set_page(page)
  return page
end

--- A page in a new context of its own with the role's auth loaded (or
-- the storageState file auth), as a test's browser.newContext({
-- storageState }) would make it (the flake gate replays there); returns
-- the page and a function that closes that context.  The role's own
-- context and pages are not touched.
function Role:fresh_page(auth)
  self:context()
  local browser = self.browser
  local ctx = browser:new_context()
  local ok, err = pcall(self.load_auth, self, ctx, browser, auth)
  if not ok then
    pcall(ctx.close, ctx)
    error(err, 0)
  end
  return ctx:new_page(), function() ctx:close() end
end

--- Forgets a closed page; the next page() picks another (or makes one).
function Role:forget_page(page)
  for i, p in ipairs(self.pages) do
    if p == page then table.remove(self.pages, i) break end
  end
  if self.page_ == page then self.page_ = self.pages[#self.pages] end
end

return roles
