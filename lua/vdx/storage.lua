--- vdx.storage: a browser context's cookies and storageState, a page's
-- localStorage and sessionStorage, from Lua, over CDP: Storage.getCookies,
-- setCookies and clearCookies on the browser with the context's id, and
-- DOMStorage on the page's session (no page code).  install() adds them
-- to vdx.Context and vdx.Page as ctx:cookies, ctx:add_cookies,
-- ctx:clear_cookies, ctx:storage_state, ctx:set_storage_state and
-- page:local_storage…, page:session_storage…; the policy of a cookie
-- (its check, URL matching) is vdx.cookies'.
local vdx = require "vdx.core"
local json = require "vdx.json"
local cookies = require "vdx.cookies"

local storage = {}

-- The params of a Storage.* call on the browser, for context ctx (the
-- default context has no id: Chromium then uses its own).
local function on_context(ctx, params)
  local id = ctx:id()
  if id ~= "" then params.browserContextId = id end
  return params
end

--- The cookies of context ctx in Playwright's shape ({ name, value,
-- domain, path, expires, httpOnly, secure, sameSite }), only those sent to
-- one of urls (a URL or a list; all cookies when nil), as Playwright's
-- context.cookies(urls).
function storage.cookies(ctx, urls)
  local parsed = cookies.parse_urls(urls)
  local r = ctx:browser():send("Storage.getCookies", on_context(ctx, {}))
  local list = {}
  for i, c in ipairs(r.cookies or {}) do list[i] = cookies.from_cdp(c) end
  return cookies.filter(list, parsed)
end

--- Adds the cookies of list to ctx (vdx.cookies.check for each: opts.lenient
-- ignores unknown keys, for storageState files); returns the cookies as set
-- (Playwright's shape).  Raises InvalidArgument before anything is set.
function storage.add_cookies(ctx, list, opts)
  local checked = cookies.check_list(list, opts)
  if #checked == 0 then return json.array(checked) end
  local params = {}
  for i, c in ipairs(checked) do params[i] = cookies.to_cdp(c) end
  ctx:browser():send("Storage.setCookies", on_context(ctx, { cookies = params }))
  return json.array(checked)
end

--- Removes the cookies of ctx that match filter { name =, domain =, path
-- = } (exact strings; every cookie when nil); returns how many went.
function storage.clear_cookies(ctx, filter)
  local f = cookies.check_filter(filter)
  if not f then
    local n = #storage.cookies(ctx)
    ctx:browser():send("Storage.clearCookies", on_context(ctx, {}))
    return n
  end
  -- As Playwright does: each matching cookie is set again, expired.
  local gone = {}
  for _, c in ipairs(storage.cookies(ctx)) do
    if cookies.matches_filter(c, f) then
      local p = cookies.to_cdp(c)
      p.expires = 1
      gone[#gone + 1] = p
    end
  end
  if #gone > 0 then ctx:browser():send("Storage.setCookies", on_context(ctx, { cookies = gone })) end
  return #gone
end

-- An origin that has storage of its own (not about:blank's or a data:
-- URL's opaque one).
local function real_origin(o)
  return type(o) == "string" and o:match("^[%a][%w+.-]*://.") ~= nil
end

-- The StorageId of page's top document (local or session storage);
-- raises StorageUnavailable when that document has no origin of its own.
local function storage_id(page, is_local)
  local tree = page:send("Page.getFrameTree", {})
  local frame = tree.frameTree.frame
  if not real_origin(frame.securityOrigin) then
    error(vdx.error("StorageUnavailable", ("the page at %s has no %s of its own (its origin is opaque); " ..
      "navigate to the site first"):format(tostring(frame.url), is_local and "localStorage" or "sessionStorage"),
      { url = frame.url }), 0)
  end
  return { securityOrigin = frame.securityOrigin, isLocalStorage = is_local }
end

local function check_string(v, field, what)
  if type(v) ~= "string" then
    error(vdx.error("InvalidArgument", ("%s: %s must be a string, got %s (write tostring(v) for a number)")
      :format(what, field, type(v)), { field = field }), 0)
  end
end

-- The items of a StorageId on page's session (frame: a frame's name, for
-- an out-of-process frame's own session) as a list of { key, value }.
local function items(page, id, frame)
  local r = page:send("DOMStorage.getDOMStorageItems", { storageId = id }, frame and { frame = frame } or nil)
  return r.entries or {}
end

-- Adds page:NAME(), NAME_get, NAME_set, NAME_remove and NAME_clear to
-- methods for one kind of web storage (is_local: localStorage).
local function web_storage(methods, name, is_local)
  local what = "page:" .. name
  --- page:local_storage() / page:session_storage(): { key = value } of the
  -- page's top document.
  methods[name] = function(page)
    local out = {}
    for _, e in ipairs(items(page, storage_id(page, is_local))) do out[e[1]] = e[2] end
    return out
  end
  methods[name .. "_get"] = function(page, key)
    check_string(key, "key", what .. "_get")
    for _, e in ipairs(items(page, storage_id(page, is_local))) do
      if e[1] == key then return e[2] end
    end
    return nil
  end
  methods[name .. "_set"] = function(page, key, value)
    check_string(key, "key", what .. "_set")
    check_string(value, "value", what .. "_set")
    page:send("DOMStorage.setDOMStorageItem", { storageId = storage_id(page, is_local), key = key, value = value })
    return true
  end
  methods[name .. "_remove"] = function(page, key)
    check_string(key, "key", what .. "_remove")
    page:send("DOMStorage.removeDOMStorageItem", { storageId = storage_id(page, is_local), key = key })
    return true
  end
  methods[name .. "_clear"] = function(page)
    page:send("DOMStorage.clear", { storageId = storage_id(page, is_local) })
    return true
  end
end

--- Replaces the localStorage of page's origin with items (a list of
-- { key, value }): the write under a storageState's origins.
function storage.replace_local_storage(page, list)
  local id = storage_id(page, true)
  page:send("DOMStorage.clear", { storageId = id })
  for _, it in ipairs(list) do
    page:send("DOMStorage.setDOMStorageItem", { storageId = id, key = it[1], value = it[2] })
  end
  return true
end

-- Calls fn(page, frame, origin) for each origin with storage that a
-- document of ctx's open pages has (frame: nil for a page's own session,
-- else the name of the out-of-process frame whose session shows it),
-- until fn returns true for that origin (it could reach its storage).
local function each_origin(ctx, fn)
  local seen = {}
  local function walk(page, frame, node)
    local o = node.frame and node.frame.securityOrigin
    if real_origin(o) and not seen[o] then
      seen[o] = fn(page, frame, o) == true
    end
    for _, child in ipairs(node.childFrames or {}) do walk(page, frame, child) end
  end
  for _, page in ipairs(ctx:pages()) do
    if not page:is_closed() then
      local ok, frames = pcall(page.frames, page)
      for _, f in ipairs(ok and frames or { { frame = "main" } }) do
        if f.frame == "main" or f.out_of_process then
          local sub = f.frame ~= "main" and f.frame or nil
          local got, tree = pcall(page.send, page, "Page.getFrameTree", {}, sub and { frame = sub } or nil)
          if got then walk(page, sub, tree.frameTree) end
        end
      end
    end
  end
end

local STATE_OPTS = { path = true }

--- The storageState of ctx, in Playwright's shape: { cookies = { … },
-- origins = { { origin =, localStorage = { { name =, value = } } } } },
-- the localStorage of every origin a document of its open pages has
-- (frames included; an origin with none is left out).  opts.path also
-- writes it there as JSON (through lua-cjson).
function storage.storage_state(ctx, opts)
  if opts ~= nil and type(opts) ~= "table" then
    error(vdx.error("InvalidArgument", "storage_state: options must be a table { path = }", { field = "opts" }), 0)
  end
  for k in pairs(opts or {}) do
    if not STATE_OPTS[k] then
      error(vdx.error("InvalidArgument", ("storage_state: unknown option '%s' (known: path)"):format(tostring(k)),
        { field = tostring(k) }), 0)
    end
  end
  local origins = {}
  each_origin(ctx, function(page, frame, origin)
    local ok, entries = pcall(items, page, { securityOrigin = origin, isLocalStorage = true }, frame)
    if ok and #entries > 0 then
      local ls = json.array()
      for i, e in ipairs(entries) do ls[i] = { name = e[1], value = e[2] } end
      origins[#origins + 1] = { origin = origin, localStorage = ls }
    end
    return ok
  end)
  table.sort(origins, function(a, b) return a.origin < b.origin end)
  local state = { cookies = storage.cookies(ctx), origins = json.array(origins) }
  if opts and opts.path then storage.write_state(opts.path, state) end
  return state
end

--- The JSON text of a storageState.
function storage.encode_state(state)
  return assert(json.encode(state))
end

-- A storageState as one set of "kind\0key\0value" strings: each cookie
-- by its name, domain and path with its value (not its expiry or flags,
-- which a server's refresh of a session changes), each localStorage item
-- by its origin and name.
local function state_set(state)
  local set, n = {}, 0
  for _, c in ipairs(type(state.cookies) == "table" and state.cookies or {}) do
    if type(c) == "table" then
      local key = table.concat({ "c", tostring(c.name), tostring(c.domain), tostring(c.path or "/"),
        tostring(c.value) }, "\0")
      if not set[key] then set[key], n = true, n + 1 end
    end
  end
  for _, o in ipairs(type(state.origins) == "table" and state.origins or {}) do
    for _, e in ipairs(type(o) == "table" and type(o.localStorage) == "table" and o.localStorage or {}) do
      local key = table.concat({ "l", tostring(o.origin), tostring(e.name), tostring(e.value) }, "\0")
      if not set[key] then set[key], n = true, n + 1 end
    end
  end
  return set, n
end

--- Whether two storageStates hold the same cookies (name, domain, path
-- and value; expiry and flags aside) and the same localStorage items:
-- a role's state that is still its auth file's.
function storage.same_state(a, b)
  local sa, na = state_set(a)
  local sb, nb = state_set(b)
  if na ~= nb then return false end
  for k in pairs(sa) do
    if not sb[k] then return false end
  end
  return true
end

--- Writes state as JSON at path (through a temporary file renamed over
-- it); raises IOError.
function storage.write_state(path, state)
  if type(path) ~= "string" or path == "" then
    error(vdx.error("InvalidArgument", "storage_state: path must be a non-empty string", { field = "path" }), 0)
  end
  local tmp = path .. ".tmp"
  local f, err = io.open(tmp, "wb")
  local ok = f and f:write(storage.encode_state(state)) and f:close()
  if ok then ok, err = os.rename(tmp, path) end
  if not ok then
    os.remove(tmp)
    error(vdx.error("IOError", ("storage_state: cannot write %s: %s"):format(path, tostring(err)),
      { file = path }), 0)
  end
  return path
end

--- Reads a Playwright storageState file: the table, or nil and the reason.
function storage.read_state(path)
  -- Read without blocking: a FIFO named here fails at once.
  local text, err = vdx.read_file(path, { max_bytes = 64 * 1024 * 1024 })
  if not text then return nil, "cannot open: " .. tostring(err) end
  return storage.decode_state(text)
end

--- A storageState from its JSON text: the table, or nil and the reason.
function storage.decode_state(text)
  local state, jerr = json.decode(text)
  if state == nil then return nil, "not valid JSON: " .. tostring(jerr) end
  if type(state) ~= "table" then return nil, "not a storageState object" end
  if state.cookies ~= nil and type(state.cookies) ~= "table" then return nil, "cookies must be a list" end
  if state.origins ~= nil and type(state.origins) ~= "table" then return nil, "origins must be a list" end
  if state.cookies == nil and state.origins == nil then
    return nil, "not a storageState object (no cookies, no origins)"
  end
  return state
end

-- Raises InvalidArgument unless the origins of a storageState are a list
-- of { origin = "http(s)://host", localStorage = { { name =, value = } } }.
local function check_origins(origins)
  for i, o in ipairs(origins) do
    local where = ("origins[%d]"):format(i)
    if type(o) ~= "table" or not cookies.origin(o.origin) then
      error(vdx.error("InvalidArgument", where .. ": origin must be an http or https origin such as "
        .. "\"http://127.0.0.1:8080\"", { field = where .. ".origin" }), 0)
    end
    for j, it in ipairs(o.localStorage or {}) do
      if type(it) ~= "table" or type(it.name) ~= "string" or type(it.value) ~= "string" then
        error(vdx.error("InvalidArgument", ("%s.localStorage[%d] must be { name = string, value = string }")
          :format(where, j), { field = ("%s.localStorage[%d]"):format(where, j) }), 0)
      end
    end
  end
end

--- Replaces the storage of ctx with a storageState (a table, or the path
-- of a file): its cookies are cleared and the state's set; the
-- localStorage of every origin open in its pages and of every origin in
-- the state is cleared and the state's items set (each state origin
-- through a scratch page of ctx, vdx.roles).  opts (optional): log(level,
-- fmt, …); lenient, to ignore cookie keys vdx does not know (a state read
-- from a file).  Returns the state.
function storage.set_storage_state(ctx, state, opts)
  opts = opts or {}
  local lenient, log = opts.lenient == true, opts.log
  if type(state) == "string" then
    local path = state
    local why
    state, why = storage.read_state(path)
    if not state then
      error(vdx.error("InvalidArgument", ("set_storage_state: %s: %s"):format(path, why),
        { field = "path", file = path }), 0)
    end
    lenient = true
  elseif type(state) ~= "table" then
    error(vdx.error("InvalidArgument", "set_storage_state: give a storageState table { cookies =, origins = } "
      .. "or the path of its file, got " .. type(state), { field = "state" }), 0)
  end
  local list = cookies.check_list(state.cookies or {}, { lenient = lenient })
  local origins = state.origins or {}
  check_origins(origins)
  ctx:browser():send("Storage.clearCookies", on_context(ctx, {}))
  each_origin(ctx, function(page, frame, origin)
    return (pcall(page.send, page, "DOMStorage.clear", { storageId = { securityOrigin = origin,
      isLocalStorage = true } }, frame and { frame = frame } or nil))
  end)
  storage.add_cookies(ctx, list)
  -- The one write of a state's localStorage: a scratch page per origin,
  -- whose requests are answered locally (vdx.roles, which loads auth files
  -- the same way).
  local any = false
  for _, o in ipairs(origins) do any = any or #(o.localStorage or {}) > 0 end
  if any then require("vdx.roles").set_local_storage(ctx, origins, log or function() end) end
  return state
end

--- Adds the storage methods to the methods tables of vdx.Context and
-- vdx.Page (the `vdx` module's Context and Page).
function storage.install(mod)
  local C, P = mod.Context, mod.Page
  function C.cookies(ctx, urls) return storage.cookies(ctx, urls) end
  function C.add_cookies(ctx, list) return storage.add_cookies(ctx, list) end
  function C.clear_cookies(ctx, filter) return storage.clear_cookies(ctx, filter) end
  function C.storage_state(ctx, opts) return storage.storage_state(ctx, opts) end
  function C.set_storage_state(ctx, state) return storage.set_storage_state(ctx, state) end
  web_storage(P, "local_storage", true)
  web_storage(P, "session_storage", false)
end

return storage
