--- vdx.builtin.storage: cookies, localStorage, sessionStorage and the
-- storageState of the current role's context, with Playwright MCP's tool
-- names and arguments.  Each acts on the current role only (its own
-- browser context: another role's cookies and storage are never read or
-- changed).  A tool that changes them records a "code" step, so
-- browser_export_test writes the same change (context.addCookies,
-- page.evaluate(() => localStorage.setItem(…)), …) and the flake gate
-- replays it.
local vdx = require "vdx"
local json = require "vdx.json"
local util = require "vdx.builtin.util"
local cookies = require "vdx.cookies"
local storage = require "vdx.storage"
local quote = require("vdx.flow_locator").quote

-- One cookie as a line of text.
local function cookie_line(c, full)
  local extra = ""
  if full then
    extra = (", httpOnly: %s, secure: %s, sameSite: %s, expires: %s"):format(tostring(c.httpOnly),
      tostring(c.secure), tostring(c.sameSite), c.expires == -1 and "session" or ("%d"):format(c.expires))
  end
  return ("%s=%s (domain: %s, path: %s%s)"):format(c.name, c.value, c.domain, c.path, extra)
end

-- The URL of the role's current page (about:blank when it has none yet).
local function page_url(ctx)
  return require("vdx.urls").of(ctx:page()) or "about:blank"
end

-- Records a change to the role's world: lines of Playwright code and the
-- replay the flake gate runs on its fresh page.
local function record(ctx, tool, lines, replay)
  util.record(ctx, { kind = "code", tool = tool, lines = lines, replay = replay })
end

local STRING = { type = "string" }

local tools = {
  {
    name = "browser_cookie_list",
    title = "List cookies",
    description = "List the cookies of the current role's browser context (optionally only those sent to some URLs, or filtered by domain or path). httpOnly cookies are listed too.",
    input = { type = "object", properties = {
      domain = { type = "string", description = "Only cookies whose domain contains this text" },
      path = { type = "string", description = "Only cookies whose path starts with this text" },
      urls = { type = "array", items = STRING, description = "Only the cookies the browser sends to one of these URLs (domain, path and secure match, as Playwright's context.cookies(urls))" },
    } },
    annotations = { readOnlyHint = true },
    run = function(ctx, args)
      local list = storage.cookies(ctx.role:context(), args.urls)
      local out = json.array()
      for _, c in ipairs(list) do
        if (not args.domain or c.domain:find(args.domain, 1, true))
          and (not args.path or c.path:sub(1, #args.path) == args.path) then
          out[#out + 1] = c
        end
      end
      local lines = {}
      for i, c in ipairs(out) do lines[i] = cookie_line(c) end
      return { text = #lines > 0 and table.concat(lines, "\n") or "No cookies found",
        structured = { cookies = out } }
    end,
  },
  {
    name = "browser_cookie_get",
    title = "Get cookie",
    description = "Get a cookie of the current role's browser context by name, with its flags.",
    input = { type = "object", required = { "name" }, properties = {
      name = { type = "string", minLength = 1, description = "Cookie name to get" },
    } },
    annotations = { readOnlyHint = true },
    run = function(ctx, args)
      for _, c in ipairs(storage.cookies(ctx.role:context())) do
        if c.name == args.name then return { text = cookie_line(c, true), structured = { cookie = c } } end
      end
      return { text = ("Cookie '%s' not found"):format(args.name), structured = { cookie = json.null } }
    end,
  },
  {
    name = "browser_cookie_set",
    title = "Set cookie",
    description = "Set a cookie in the current role's browser context. Give url, or domain (and path); with neither, the domain is the current page's host and the path \"/\".",
    input = { type = "object", required = { "name", "value" }, properties = {
      name = { type = "string", minLength = 1, description = "Cookie name" },
      value = { type = "string", description = "Cookie value" },
      url = { type = "string", description = "The URL the cookie is for (sets domain, path and secure), instead of domain and path" },
      domain = { type = "string", description = "Cookie domain (\".example.com\" for its subdomains too)" },
      path = { type = "string", description = "Cookie path, default \"/\"" },
      expires = { type = "number", description = "Cookie expiration as Unix timestamp (seconds); -1 or none: a session cookie" },
      httpOnly = { type = "boolean", description = "Whether the cookie is HTTP only (hidden from document.cookie)" },
      secure = { type = "boolean", description = "Whether the cookie is secure" },
      sameSite = { type = "string", enum = { "Strict", "Lax", "None" }, description = "Cookie SameSite attribute" },
    } },
    annotations = { readOnlyHint = false, idempotentHint = true },
    run = function(ctx, args)
      local c = {}
      for _, k in ipairs { "name", "value", "url", "domain", "path", "expires", "httpOnly", "secure", "sameSite" } do
        c[k] = args[k]
      end
      if c.url == nil and c.domain == nil then
        local u = cookies.parse_url(page_url(ctx))
        if not u then
          error(vdx.error("InvalidArgument", "the page has no site yet (about:blank): give url (\"http://host/\") "
            .. "or domain, or call browser_navigate first", { field = "url" }), 0)
        end
        c.domain = u.host
      end
      local context = ctx.role:context()
      local set = storage.add_cookies(context, { c })[1]
      set.url = nil
      -- The cookie as the browser keeps it (Chromium drops one it refuses).
      local kept
      for _, k in ipairs(storage.cookies(context)) do
        if k.name == set.name and k.domain == set.domain and k.path == set.path then kept = k end
      end
      if not kept then
        error(vdx.error("InvalidArgument", ("the browser did not keep cookie %s for %s (a secure cookie needs an "
          .. "https site, or a local one)"):format(set.name, set.domain), { field = "name" }), 0)
      end
      record(ctx, "browser_cookie_set", { "await {context}.addCookies([" .. cookies.js_literal(set) .. "]);" },
        function(page) page:context():add_cookies { set } end)
      return { text = ("Set cookie %s in role %s: %s"):format(set.name, ctx.role.name, cookie_line(kept, true)),
        structured = { cookie = kept } }
    end,
  },
  {
    name = "browser_cookie_delete",
    title = "Delete cookie",
    description = "Delete the cookies with this name from the current role's browser context.",
    input = { type = "object", required = { "name" }, properties = {
      name = { type = "string", minLength = 1, description = "Cookie name to delete" },
    } },
    annotations = { readOnlyHint = false, destructiveHint = true, idempotentHint = true },
    run = function(ctx, args)
      local n = storage.clear_cookies(ctx.role:context(), { name = args.name })
      record(ctx, "browser_cookie_delete", { ("await {context}.clearCookies({ name: %s });"):format(quote(args.name)) },
        function(page) page:context():clear_cookies { name = args.name } end)
      return { text = ("Deleted %d cookie%s named %s"):format(n, n == 1 and "" or "s", args.name),
        structured = { deleted = n } }
    end,
  },
  {
    name = "browser_cookie_clear",
    title = "Clear cookies",
    description = "Clear every cookie of the current role's browser context.",
    input = { type = "object", properties = {} },
    annotations = { readOnlyHint = false, destructiveHint = true, idempotentHint = true },
    run = function(ctx)
      local n = storage.clear_cookies(ctx.role:context())
      record(ctx, "browser_cookie_clear", { "await {context}.clearCookies();" },
        function(page) page:context():clear_cookies() end)
      return { text = ("Cleared %d cookie%s"):format(n, n == 1 and "" or "s"), structured = { deleted = n } }
    end,
  },
}

-- The five tools of one web storage: kind "localstorage" or
-- "sessionstorage", js its JavaScript name, method the page method prefix.
local function web_storage_tools(kind, js, method)
  local t = {}
  t[#t + 1] = {
    name = "browser_" .. kind .. "_list",
    title = "List " .. js,
    description = "List every " .. js .. " key-value pair of the current page (its top document's origin).",
    input = { type = "object", properties = {} },
    annotations = { readOnlyHint = true },
    run = function(ctx)
      local items = ctx:page()[method](ctx:page())
      local keys, lines = {}, {}
      for k in pairs(items) do keys[#keys + 1] = k end
      table.sort(keys)
      local list = json.array()
      for i, k in ipairs(keys) do
        lines[i] = k .. "=" .. items[k]
        list[i] = { key = k, value = items[k] }
      end
      return { text = #lines > 0 and table.concat(lines, "\n") or ("No " .. js .. " items found"),
        structured = { items = list } }
    end,
  }
  t[#t + 1] = {
    name = "browser_" .. kind .. "_get",
    title = "Get " .. js .. " item",
    description = "Get a " .. js .. " item of the current page by key.",
    input = { type = "object", required = { "key" }, properties = { key = { type = "string", description = "Key to get" } } },
    annotations = { readOnlyHint = true },
    run = function(ctx, args)
      local page = ctx:page()
      local v = page[method .. "_get"](page, args.key)
      if v == nil then
        return { text = ("%s key '%s' not found"):format(js, args.key), structured = { key = args.key, value = json.null } }
      end
      return { text = args.key .. "=" .. v, structured = { key = args.key, value = v } }
    end,
  }
  t[#t + 1] = {
    name = "browser_" .. kind .. "_set",
    title = "Set " .. js .. " item",
    description = "Set a " .. js .. " item of the current page.",
    input = { type = "object", required = { "key", "value" }, properties = {
      key = { type = "string", description = "Key to set" },
      value = { type = "string", description = "Value to set" },
    } },
    annotations = { readOnlyHint = false, idempotentHint = true },
    run = function(ctx, args)
      local page = ctx:page()
      page[method .. "_set"](page, args.key, args.value)
      record(ctx, "browser_" .. kind .. "_set", { ("await {page}.evaluate(([k, v]) => %s.setItem(k, v), [%s, %s]);")
        :format(js, quote(args.key), quote(args.value)) },
        function(p) p[method .. "_set"](p, args.key, args.value) end)
      return { text = ("Set %s %s=%s"):format(js, args.key, args.value), structured = { key = args.key, value = args.value } }
    end,
  }
  t[#t + 1] = {
    name = "browser_" .. kind .. "_delete",
    title = "Delete " .. js .. " item",
    description = "Delete a " .. js .. " item of the current page.",
    input = { type = "object", required = { "key" }, properties = { key = { type = "string", description = "Key to delete" } } },
    annotations = { readOnlyHint = false, destructiveHint = true, idempotentHint = true },
    run = function(ctx, args)
      local page = ctx:page()
      page[method .. "_remove"](page, args.key)
      record(ctx, "browser_" .. kind .. "_delete", { ("await {page}.evaluate((k) => %s.removeItem(k), %s);")
        :format(js, quote(args.key)) }, function(p) p[method .. "_remove"](p, args.key) end)
      return { text = ("Deleted %s key %s"):format(js, args.key), structured = { key = args.key } }
    end,
  }
  t[#t + 1] = {
    name = "browser_" .. kind .. "_clear",
    title = "Clear " .. js,
    description = "Clear every " .. js .. " item of the current page.",
    input = { type = "object", properties = {} },
    annotations = { readOnlyHint = false, destructiveHint = true, idempotentHint = true },
    run = function(ctx)
      local page = ctx:page()
      page[method .. "_clear"](page)
      record(ctx, "browser_" .. kind .. "_clear", { ("await {page}.evaluate(() => %s.clear());"):format(js) },
        function(p) p[method .. "_clear"](p) end)
      return { text = "Cleared " .. js, structured = {} }
    end,
  }
  return t
end

for _, def in ipairs(web_storage_tools("localstorage", "localStorage", "local_storage")) do tools[#tools + 1] = def end
for _, def in ipairs(web_storage_tools("sessionstorage", "sessionStorage", "session_storage")) do tools[#tools + 1] = def end

tools[#tools + 1] = {
  name = "browser_storage_state",
  title = "Save storage state",
  description = "Save the storage state of the current role's browser context (cookies, and the localStorage of every origin open in its pages) to a JSON file in the output folder, in Playwright's storageState format: a role or a test can start signed in from it.",
  input = { type = "object", properties = {
    filename = { type = "string", description = "File name, relative to the output folder (default vdx-output/; --output-dir); an existing file is never replaced. Default: storage-state-<time>-<n>.json" },
  } },
  annotations = { readOnlyHint = true },
  run = function(ctx, args)
    local policy = util.paths(ctx)
    -- The name is checked first, so a bad one is refused before the read.
    local rel = args.filename and policy:output_name(args.filename, "storage-state", "json")
    local state = storage.storage_state(ctx.role:context())
    local path = policy:write_file(rel, "storage-state", "json", storage.encode_state(state))
    return { text = ("Storage state of role %s saved to %s: %d cookies, %d origins with localStorage"):format(
      ctx.role.name, path, #state.cookies, #state.origins),
      structured = { path = path, cookies = #state.cookies, origins = #state.origins } }
  end,
}

tools[#tools + 1] = {
  name = "browser_set_storage_state",
  title = "Restore storage state",
  description = "Restore the storage state of the current role's browser context from a Playwright storageState JSON file (inside the workspace when there is one): its cookies are cleared first, and the localStorage of each origin open in its pages or named in the file.",
  input = { type = "object", required = { "filename" }, properties = {
    filename = { type = "string", minLength = 1, description = "Path to the storage state file to restore from" },
  } },
  annotations = { readOnlyHint = false, destructiveHint = true, idempotentHint = true },
  run = function(ctx, args)
    local text = util.paths(ctx):read(args.filename, "filename", 64 * 1024 * 1024)
    local state, why = storage.decode_state(text)
    if not state then
      error(vdx.error("InvalidArgument", ("%s: %s"):format(args.filename, why), { field = "filename",
        file = args.filename }), 0)
    end
    storage.set_storage_state(ctx.role:context(), state, { lenient = true, log = ctx.log })
    record(ctx, "browser_set_storage_state", { "await {context}.setStorageState(" .. storage.encode_state(state) .. ");" },
      function(page) storage.set_storage_state(page:context(), state, { lenient = true }) end)
    return { text = ("Storage state of role %s restored from %s: %d cookies, %d origins"):format(ctx.role.name,
      args.filename, #(state.cookies or {}), #(state.origins or {})),
      structured = { cookies = #(state.cookies or {}), origins = #(state.origins or {}) } }
  end,
}

return tools
