--- vdx.flow_world_storage: a flow role's cookies, localStorage,
-- sessionStorage and storageState (r:cookies, r:add_cookies,
-- r:clear_cookies, r:local_storage…, r:session_storage…, r:storage_state,
-- r:set_storage_state, and r:save_auth over r:storage_state), added to
-- the Actor class of vdx.flow_actor.  Each acts on the role's own browser
-- context and page (vdx.storage); a change is recorded as a "code" node,
-- so --emit-playwright writes the same change (context.addCookies, …).
local vdx = require "vdx"
local cookies = require "vdx.cookies"
local storage = require "vdx.storage"
local quote = require("vdx.flow_locator").quote

local M = {}

--- Adds the storage methods to the Actor class; h holds flow_actor's
-- check_options.
function M.install(Actor, h)
  local check_options = h.check_options

  -- Records lines of Playwright code for this role (a change to its world).
  local function code(self, lines)
    self.flow:record { kind = "code", role = self.name, lines = lines }
  end

  --- The role's cookies (Playwright's shape), only those sent to urls (a
  -- URL or a list) when given.
  function Actor:cookies(urls)
    return self:tagged(function() return storage.cookies(self.page:context(), urls) end)
  end

  --- Adds cookies to the role's context: a list of { name, value, url |
  -- domain [, path], expires, httpOnly, secure, sameSite } (one cookie
  -- table alone is taken as a list of one).  Returns them as set.
  function Actor:add_cookies(list)
    return self:tagged(function()
      if type(list) == "table" and list.name ~= nil then list = { list } end
      local set = storage.add_cookies(self.page:context(), list)
      local lits = {}
      for i, c in ipairs(set) do lits[i] = cookies.js_literal(c) end
      code(self, { "await {context}.addCookies([" .. table.concat(lits, ", ") .. "]);" })
      self.flow:event { kind = "add_cookies", role = self.name, count = #set }
      return set
    end)
  end

  --- Removes the role's cookies that match filter { name =, domain =,
  -- path = } (all of them when nil); returns how many went.
  function Actor:clear_cookies(filter)
    return self:tagged(function()
      local n = storage.clear_cookies(self.page:context(), filter)
      local parts = {}
      for _, k in ipairs { "name", "domain", "path" } do
        if filter and filter[k] then parts[#parts + 1] = k .. ": " .. quote(filter[k]) end
      end
      code(self, { #parts > 0 and ("await {context}.clearCookies({ " .. table.concat(parts, ", ") .. " });")
        or "await {context}.clearCookies();" })
      return n
    end)
  end

  -- r:NAME(), r:NAME_get(k), r:NAME_set(k, v), r:NAME_remove(k),
  -- r:NAME_clear() over the page methods of the same names; js is the
  -- storage's JavaScript name.
  local function web_storage(name, js)
    Actor[name] = function(self)
      return self:tagged(function() return self.page[name](self.page) end)
    end
    Actor[name .. "_get"] = function(self, key)
      return self:tagged(function() return self.page[name .. "_get"](self.page, key) end)
    end
    Actor[name .. "_set"] = function(self, key, value)
      return self:tagged(function()
        self.page[name .. "_set"](self.page, key, value)
        code(self, { ("await {page}.evaluate(([k, v]) => %s.setItem(k, v), [%s, %s]);"):format(js, quote(key),
          quote(value)) })
        return true
      end)
    end
    Actor[name .. "_remove"] = function(self, key)
      return self:tagged(function()
        self.page[name .. "_remove"](self.page, key)
        code(self, { ("await {page}.evaluate((k) => %s.removeItem(k), %s);"):format(js, quote(key)) })
        return true
      end)
    end
    Actor[name .. "_clear"] = function(self)
      return self:tagged(function()
        self.page[name .. "_clear"](self.page)
        code(self, { ("await {page}.evaluate(() => %s.clear());"):format(js) })
        return true
      end)
    end
  end
  web_storage("local_storage", "localStorage")
  web_storage("session_storage", "sessionStorage")

  local STATE_OPTS = { path = true }

  --- The role's storageState (cookies and the localStorage of the origins
  -- its pages have open); opts.path also writes it there, and a role
  -- declared with auth = that path then starts from it (in the exported
  -- test too: it saves the same state at the same point).
  function Actor:storage_state(opts)
    check_options(opts, STATE_OPTS, "storage_state")
    return self:tagged(function()
      local state = storage.storage_state(self.page:context(), opts)
      if opts and opts.path then
        self.flow:record { kind = "save_auth", role = self.name, path = opts.path }
      end
      return state
    end)
  end

  --- Writes the role's storageState to path (r:storage_state{ path = path });
  -- returns path.
  function Actor:save_auth(path)
    if type(path) ~= "string" then
      h.fail("InvalidArgument", "save_auth: path must be a string, got " .. type(path), { field = "path" })
    end
    self:storage_state { path = path }
    return path
  end

  --- Replaces the role's cookies and localStorage with a storageState (a
  -- table, or the path of its file): as Playwright's
  -- context.setStorageState.
  function Actor:set_storage_state(state)
    return self:tagged(function()
      local st = state
      if type(state) == "string" then
        local why
        st, why = storage.read_state(state)
        if not st then
          h.fail("InvalidArgument", ("set_storage_state: %s: %s"):format(state, why), { field = "path", file = state })
        end
      end
      storage.set_storage_state(self.page:context(), st, { lenient = type(state) == "string" })
      code(self, { "await {context}.setStorageState(" .. storage.encode_state(st) .. ");" })
      return st
    end)
  end
end

-- vdx is required so the page methods (vdx.storage.install) are in place.
assert(vdx.Page.local_storage, "vdx.storage is not installed")

return M
