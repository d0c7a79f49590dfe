--- vdx.builtin.start_test: browser_start_test, which starts the next
-- test of the session where the roles are, each from its auth file (or
-- signed out), or with keep_state signed in as it is (from its auth file
-- while its state is still that file's, else from a file the start
-- saves), and the removal of the state files no written test loads any
-- more.
local vdx = require "vdx"
local json = require "vdx.json"
local world = require "vdx.session_world"
local util = require "vdx.builtin.util"
local storage = require "vdx.storage"

-- Removes the state files earlier browser_start_test calls wrote that
-- neither the current test starts from nor a written test loads; returns
-- how many went.
local function forget_starts(log)
  local keep, removed = log:loaded_states(), 0
  for _, p in pairs(log.starts or {}) do keep[p] = true end
  for path in pairs(log.start_files or {}) do
    if not keep[path] then
      log.start_files[path] = nil
      if os.remove(path) then removed = removed + 1 end
    end
  end
  return removed
end

-- Whether role's storage state is still the one its auth file gave it.
local function same_as_auth(role, state)
  if not role.auth then return false end
  local auth = storage.read_state(role.auth)
  return auth ~= nil and storage.same_state(auth, state)
end

local defs = {
  {
    name = "browser_start_test",
    title = "Start the next test",
    description = "Start the next test here (export the last first): each role on its page, reset to its auth file. Waits for earlier calls.",
    scope = "server",
    input = { type = "object", properties = {
      keep_state = { type = "boolean", description = "true: each role signed in as now" },
      keep_world = { type = "boolean", description = "Default true; false clears routes, emulation, clock" },
      url = { type = "string", description = "Open this URL as the first step" },
      role = { type = "string", minLength = 1, description = "Current role from the start (it opens url)" },
    } },
    annotations = { readOnlyHint = false, destructiveHint = true },
    run = function(ctx, args)
      local log = ctx.session
      if not log then
        error(vdx.error("InvalidArgument", "this server records no session, so there is no test to start: "
          .. "browser_export_test is not served either", { field = "keep_state" }), 0)
      end
      -- Each role from its auth file (or signed out) unless asked: a test
      -- that starts from the session a role has now needs that session
      -- alive on the app's server (runs EH, EI, EJ and EL started again
      -- with keep_state: false, for tests that sign in themselves).
      local keep = args.keep_state == true
      -- The role that opens url and acts first: named, else the current
      -- one (run EM named the role alone, to start the test as it).
      local opener = ctx.role and ctx.role.name
      if args.role ~= nil then opener = ctx.roles:role(args.role).name end
      local unexported = log:unexported()
      local world_cleared = args.keep_world == false and world.clear(ctx.roles) or nil
      local starts, lines, policy = {}, {}, util.paths(ctx)
      for _, info in ipairs(ctx.roles:list()) do
        -- (The role that opens url is one, active yet or not: run ET's
        -- customer, which had no page, was left out of the list.)
        if info.active or (args.url ~= nil and info.name == opener) then
          local role = ctx.roles:role(info.name)
          -- (A new test's lists render anew: its reports say so again, once.)
          role.anew_told = nil
          local page = role.page_
          local url = page and require("vdx.urls").of(page) or "no page"
          -- The current role opens url as the test's first step.
          if args.url ~= nil and info.name == opener then url = args.url end
          local line = ("- %s on %s, "):format(info.name, url)
          local bad = role.error_page
          if bad and bad.url == url and not (args.url ~= nil and info.name == opener) then
            -- The page the agent tried and found missing: no start for a test.
            line = ("- %s on %s ⚠️ (it answered %d: browser_navigate the role elsewhere, or give url), ")
              :format(info.name, url, bad.status)
          end
          local state = keep and storage.storage_state(role:context())
          if keep and #state.cookies == 0 and #state.origins == 0 and not role.auth then
            -- Nothing to carry over: the test starts signed out, on
            -- Playwright's own page.
            line = line .. "signed out (no cookies, no localStorage)"
          elseif keep and same_as_auth(role, state) then
            -- Still the auth file's state: the test signs in from that file,
            -- as a first test does (four play-test agents expected it and
            -- one edited its test to say so).
            line = line .. ("as it is, still its auth file's (%d cookies, %d origins with localStorage: %s)")
              :format(#state.cookies, #state.origins, role.auth)
          elseif keep then
            local name = "test-start-" .. info.name:gsub("[^%w_-]", "_")
            local text = storage.encode_state(state)
            log.start_files = log.start_files or {}
            -- The role's state as an earlier start saved it: that file again
            -- (a run of tests on one signed-in role wrote one file a test).
            local path
            for p, f in pairs(log.start_files) do
              if f.role == info.name and f.text == text then path = p break end
            end
            path = path or policy:write_file(nil, name, "json", text)
            starts[info.name] = path
            log.start_files[path] = { role = info.name, text = text }
            line = line .. ("as it is (%d cookies, %d origins with localStorage: %s)"):format(#state.cookies,
              #state.origins, path:match("[^/]*$"))
          else
            -- The live role starts where its test will: its storage set to
            -- the auth file's (or cleared), its page loaded again with it.
            local okr, why = pcall(function()
              storage.set_storage_state(role:context(), role.auth or { cookies = {}, origins = {} }, { lenient = true })
              if page and tostring(url):match("^https?:") and not (args.url and info.name == opener) then
                page:navigate(url)
              end
            end)
            line = line .. (role.auth and ("from its auth file " .. role.auth) or "signed out")
              .. (okr and ", its storage reset to it" or (": its storage could not be reset (" .. tostring(why) .. ")"))
            -- Where the load went, signed out (run FG's customer, said to be
            -- on /shop/cart, was on /customer/login).
            local now = okr and page and not (args.url and info.name == opener) and require("vdx.urls").of(page)
            if now and now ~= url then line = line .. (", and the app sent it on to %s"):format(now) end
          end
          lines[#lines + 1] = line
        end
      end
      -- A role whose emulation is back to the browser's own keeps none of it.
      local function cleared(name)
        local okr, role = pcall(ctx.roles.role, ctx.roles, name)
        local p = okr and role and role.page_
        if not p or p:is_closed() then return false end
        local oke, now = pcall(p.emulation, p)
        return oke and type(now) == "table" and next(now) == nil
      end
      local dropped, carried = log:restart(starts, world_cleared and true or cleared)
      -- The state files of earlier starts that no written test loads go:
      -- they hold the roles' cookies.
      local removed = forget_starts(log)
      local out = { "New test started: browser_export_test writes the steps from here." }
      if unexported > 0 then
        out[#out + 1] = unexported == 1 and "⚠️ 1 step was never exported and is dropped."
          or ("⚠️ %d steps were never exported and are dropped."):format(unexported)
      end
      if #lines > 0 then
        out[#out + 1] = "Each role starts"
        for _, l in ipairs(lines) do out[#out + 1] = l end
        if next(starts) ~= nil and not log.saved_told then
          -- Said once a session (runs DF and DK found their later tests
          -- signed in from those files only in the Run line's AUTH_*).
          log.saved_told = true
          out[#out + 1] = "(A test-start file is the session the role has now, cookies and storage: the exported "
            .. "test signs in from it, so its run needs that session alive on the app's server. Without keep_state "
            .. "each role starts from its auth file or signed out, for a test that signs in itself.)"
        end
      else
        out[#out + 1] = "No role has a page yet: each starts where its test opens it, signed in from its auth file "
          .. "if it has one."
      end
      if world_cleared then out[#out + 1] = world_cleared end
      if carried > 0 then
        out[#out + 1] = ("Kept: %d %s of the roles' world still in effect, which the test starts with "
          .. "(browser_unroute, an emulation's reset or browser_stop_har before a start drops one):"):format(carried,
          carried == 1 and "setting" or "settings")
        for _, l in ipairs(world.lines(log)) do out[#out + 1] = l end
      end
      if removed > 0 then
        out[#out + 1] = ("Removed %d state %s of the last start that no written test loads."):format(removed,
          removed == 1 and "file" or "files")
      end
      local files = json.array {}
      for r, path in pairs(starts) do files[#files + 1] = { role = r, file = path } end
      table.sort(files, function(a, b) return a.role < b.role end)
      local structured = { dropped = dropped, unexported = unexported, carried = carried, states = files }
      if args.url ~= nil then
        -- The new test's first step, told as browser_navigate tells it,
        -- but for what changed against the role's last look: a new test
        -- starts anew by design (run FD read a start's -10 as noise).
        local okr, r = pcall(ctx.roles.role, ctx.roles, opener)
        if okr and r then r.test_starting = true end
        local res = ctx.tools:call("browser_navigate", { url = args.url, role = opener }, ctx)
        if okr and r then r.test_starting = nil end
        local told = res.content and res.content[1] and res.content[1].text or ""
        -- A sign-in page the app sent the role to goes first: at the end
        -- of the outline run AE read past it (the admin opened the shop).
        local signin = told:match("\n(⚠️ The app sent role [^\n]*)")
        if signin then
          told = told:gsub("\n⚠️ The app sent role [^\n]*", "", 1)
          table.insert(out, 2, signin)
        end
        out[#out + 1] = ""
        out[#out + 1] = told
        if res.isError then error(vdx.error("NavigationFailed", table.concat(out, "\n"), { url = args.url }), 0) end
        -- A page too long to outline gives no refs: the answer says which
        -- of those read before this start still act (runs AT and AZ used
        -- one).  Not "gone": vdx.ref_renew finds a ref's element again by
        -- its role and name when they are its alone (run BF read "gone"
        -- and spent a find on refs that still acted).
        if not told:find("\nOutline:", 1, true) then
          out[#out + 1] = "The page loaded anew: a ref read before this start still acts on an element its role and "
            .. "name single out; for the others browser_find gives new refs."
        end
        structured.navigate = res.structuredContent
      end
      -- The role named starts the test: the calls after act in it (run
      -- AX's next call, with the provider page's refs, acted as the
      -- customer it had left current).
      if args.role ~= nil and ctx.roles:current().name ~= opener then
        ctx.roles:select(opener)
        out[#out + 1] = ("Current role now: %s"):format(opener)
        structured.current_role = opener
      end
      return { text = table.concat(out, "\n"), structured = structured }
    end,
  },
}

--- forget_starts(log) -> how many state files it removed (see above).
defs.forget_starts = forget_starts

return defs
