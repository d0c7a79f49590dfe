--- vdx.builtin.navigation: browser_navigate and browser_navigate_back.
local errors = require "vdx.errors"
local changes = require "vdx.changes"
local util = require "vdx.builtin.util"
local urls = require "vdx.urls"
local page_outline = require "vdx.builtin.page_outline"

-- Drains the role's failure log: raises the critical one, returns the
-- warnings text for the rest (plus any the caller passes).
local function decide(ctx, extra)
  local fatal, warnings = errors.decide(ctx.role.failures:drain())
  if fatal then error(fatal, 0) end
  for _, w in ipairs(extra or {}) do warnings[#warnings + 1] = w end
  return warnings
end

-- The dialogs a page opened while it was navigated (page:since of a
-- mark), told in one line and a table, or nil: each was answered at once
-- (alert and beforeunload accepted, confirm and prompt dismissed, unless
-- browser_handle_dialog said otherwise), a storm by its count and one of
-- them.
local function dialogs_told(since)
  local list = since and since.dialogs
  if type(list) ~= "table" or #list == 0 then return nil end
  local n, first = since.dialog_count or #list, list[1]
  local text = ("Dialogs: %d opened and answered at once (%s %q %s%s)"):format(n, tostring(first.type),
    tostring(first.message or ""):sub(1, 80), first.accepted and "accepted" or "dismissed", n > 1 and ", …" or "")
  if since.dialog_storms_stopped then
    text = text .. ". The page opens them in a loop: its script was stopped so the navigation could go on"
  end
  return text, { count = n, first = first, script_stopped = since.dialog_storms_stopped }
end

-- A URL as the browser shows it: a bare origin gets its path "/".
local function shown(url)
  return type(url) == "string" and (url:match("^%a[%w+.-]*://[^/?#]+$") and url .. "/" or url) or nil
end

-- Whether browser_navigate to url reloads page: it shows url already, in
-- the test too (the role has steps in it, the page shows no error page
-- the test never went to).  Run EB navigated to its cart's own URL to
-- test a reload, and the test had a goto.
local function reloads(ctx, page, url)
  if not util.started(ctx) or ctx.role.error_page then return false end
  local now = shown(require("vdx.urls").of(page))
  return now ~= nil and now == shown(url)
end

local function nav_result(res, warnings, snap, since, role, page)
  local text = ("Navigated to %s"):format(tostring(res and res.url or "?"))
  if res and res.status then text = text .. (" (status %s)"):format(tostring(res.status)) end
  if res and res.title and res.title ~= "" then text = text .. ("\nTitle: %s"):format(res.title) end
  local dialogs_line, dialogs = dialogs_told(since)
  if dialogs_line then text = text .. "\n" .. dialogs_line end
  text = text .. page_outline.told(role, res and res.url, snap)
  text = text .. errors.warnings_text(warnings)
  if res and res.url then changes.told_page(role, page, res.url, res.title or "") end
  return { text = text, structured = { url = res and res.url, status = res and res.status,
    title = res and res.title, warnings = warnings, ref_count = snap and snap.ref_count or nil,
    dialogs = dialogs } }
end

-- The path of final when asked led there and final is a sign-in page
-- asked was not (`/provider` → `/provider/login`), else nil.
local SIGN_IN = { "login", "log%-in", "signin", "sign%-in", "sign_in", "auth" }
local function signed_out(asked, final)
  if type(asked) ~= "string" or type(final) ~= "string" or asked == final then return nil end
  local path = final:match("^%a[%w+.-]*://[^/]*(/[^?#]*)") or ""
  local was = (asked:match("^%a[%w+.-]*://[^/]*(/[^?#]*)") or asked):lower()
  for _, w in ipairs(SIGN_IN) do
    if path:lower():find(w) and not was:find(w) then return path end
  end
end

return {
  {
    name = "browser_navigate",
    title = "Navigate to a URL",
    description = "Open a URL (the page's own: a reload); answers the final URL, status, title and a small page's outline.",
    input = { type = "object", required = { "url" }, properties = {
      url = { type = "string", minLength = 1, description = "URL" },
      wait_until = { type = "string", enum = { "commit", "domcontentloaded", "load", "networkidle" },
        description = "When it is done (default load)" },
    } },
    annotations = { readOnlyHint = false, destructiveHint = false, openWorldHint = true },
    run = function(ctx, args)
      -- A local file first: "fi\tle:///x" is a file: URL to the browser,
      -- and the answer should say so rather than that it has no scheme.
      util.paths(ctx):check_url(args.url)
      urls.check(args.url, "browser_navigate")
      local page = ctx:page()
      local mark = page:mark()
      -- A page's late requests (its list fetched after load) are let
      -- finish before its outline is read, unless the agent asked for an
      -- earlier point than load (vdx.quiet).
      local early = args.wait_until == "commit" or args.wait_until == "domcontentloaded"
      local quiet = require "vdx.quiet"
      local reload = reloads(ctx, page, args.url)
      local opts = { wait_until = args.wait_until }
      local res, pending, held, late = quiet.around(not early and page or nil, { open_only = true }, function()
        if reload then return page:reload(opts) end
        return page:navigate(args.url, opts)
      end)
      local warnings = decide(ctx)
      local result = quiet.tell(nav_result(res, warnings, page_outline.small_snapshot(ctx, page), page:since(mark),
        ctx.role, page), pending, held)
      local signin = signed_out(args.url, type(res) == "table" and res.url)
      if signin then
        -- The role whose own page this is (its URL on the command line, or a page under it).
        local owner
        for _, r in ipairs(type(ctx.roles) == "table" and ctx.roles:list() or {}) do
          local u = type(r.url) == "string" and r.url:gsub("/$", "")
          if u and r.name ~= ctx.role.name and (args.url == u or args.url:sub(1, #u + 1) == u .. "/") then
            owner = r.name
            break
          end
        end
        result.text = result.text .. ("\n⚠️ The app sent role %s to a sign-in page (%s): it is not signed in there. "
          .. "%s"):format(ctx.role.name, signin, owner
            and ("This is role %s's page: act as it (select_role %s)."):format(owner, owner)
            or (ctx.roles and ctx.roles:count() > 1) and "Another role may be (role: NAME), or sign this one in."
            or "Sign in on this page as the test will (browser_start_test {keep_state: true} starts the next "
              .. "test signed in as the roles are then).")
      end
      local status = type(res) == "table" and math.tointeger(res.status)
      -- browser_start_test warns of a role left on an error page.
      ctx.role.error_page = status and status >= 400 and { url = res.url, status = status } or nil
      if status and status >= 400 then
        -- A wrong turn (a 404 the agent tried) is no step of the test.
        result.text = result.text .. ("\nNot in the test: the page answered %d."):format(status)
      else
        -- (late: what the page fetched after its load, which the answer
        -- waited for and a test's next step does not.)
        -- A load point the agent chose (networkidle: the page's late data)
        -- is the test's too (run Z's goto had left it out).
        local wait_until = args.wait_until ~= "load" and args.wait_until or nil
        local log = ctx.session
        local before_at = log and #log:list()
        local before = log and log:list()[before_at]
        -- A reload right after the role's goto of this URL adds nothing to
        -- the test, which that goto opens as it is now (run EO opened the
        -- sign-in page by browser_start_test {url} and by a navigate again,
        -- and could not tell whether a step was made).
        local again = reload and type(before) == "table" and before.kind == "navigate"
          and before.role == ctx.role.name and shown(before.url) == shown(args.url) and before.no
        local st = not again and util.record(ctx, reload and { kind = "action", tool = "browser_navigate",
          action = "reload", loads = true, late = late, wait_until = wait_until }
          or { kind = "navigate", tool = "browser_navigate", url = args.url, late = late, wait_until = wait_until })
        if again then
          result.text = result.text:gsub("^Navigated to ([^\n]*)", ("Reloaded %%1: not in the test, whose goto "
            .. "right before (step %d) opens this page already"):format(again), 1)
        elseif reload then
          -- (With its step, which drop takes: run EJ counted the gaps.)
          result.text = result.text:gsub("^Navigated to ([^\n]*)", ("Reloaded %%1: the test's page was at this URL "
            .. "already, so it writes page.reload()%s"):format(type(st) == "table" and st.no
              and (" (step %d)"):format(st.no) or ""), 1)
        elseif type(st) == "table" and st.no then
          -- Its step's number, as an action's first line says it (run FP
          -- counted the steps a start dropped one off, its gotos unnumbered).
          local n = st.no
          result.text = result.text:gsub("^Navigated to [^\n]*", function(l)
            if l:find("%(status [^)]*%)$") then return (l:gsub("%)$", (", step %d)"):format(n))) end
            return ("%s (step %d)"):format(l, n)
          end, 1)
        end
        -- A goto of the role right before, with nothing after it, was
        -- most likely a look (run EE's test opened / and then the sign-in
        -- page); it may have set a cookie the next page needs, so it is
        -- only named, beside this goto's own number (run EN read "right
        -- before" as this one).
        -- One whose page was proposed a check (the sign-in page the app
        -- sent the role to) was a check itself (run FI's goto of /provider,
        -- told it had no step after it).
        if type(st) == "table" and st.kind == "navigate" and before and before ~= st and before.kind == "navigate"
            and before.role == st.role and before.no then
          local checked = log:proposed_after(before_at, ctx.role.name)
          result.text = result.text .. (checked and ("\nStep %d, the goto before this one (step %d), has no step "
            .. "after it but the check proposed on its page, %s: browser_export_test assertions=[\"%s\"] keeps it.")
              :format(before.no, st.no or 0, checked, checked)
            or ("\nStep %d, the goto before this one (step %d), has no step after it: "
            .. "browser_export_test drop=[%d] takes it out if it was only a look."):format(before.no, st.no or 0,
              before.no))
        end
        -- The sign-in page the app sent the role to is a check of its own
        -- (a test that the page needs signing in: run EM found toHaveURL
        -- only by trying browser_wait_for).
        if signin and type(st) == "table" then
          result = changes.proposed(ctx, result, require("vdx.proposals_url").moved(page, args.url, res.url))
        end
      end
      return result
    end,
  },
  {
    name = "browser_navigate_back",
    title = "Go back",
    description = "Go back in the current role's history; answers as browser_navigate does.",
    input = { type = "object", properties = {} },
    annotations = { readOnlyHint = false, destructiveHint = false },
    run = function(ctx)
      local page = ctx:page()
      return util.from_start(ctx, function()
        local mark = page:mark()
        local from = require("vdx.urls").of(page)
        -- The page gone back to is outlined as a navigation's is, once
        -- the data it fetched after its load came (run AI's shop, read
        -- before it had: "Cart (0)" of a cart of 2, and no products), and
        -- the test's next step waits for that data as the answer did.
        local quiet = require "vdx.quiet"
        local res, pending, held, late = quiet.around(page, { open_only = true }, page.back, page)
        local since = page:since(mark)
        local nav = type(since) == "table" and since.navigation
        local snap = page_outline.small_snapshot(ctx, page)
        -- (A step back within the document loaded nothing: no status, which
        -- run ER read as a load.)
        if nav and nav.same_document and type(res) == "table" then res.status = nil end
        local result = quiet.tell(nav_result(res or {}, decide(ctx), snap, since, ctx.role, page), pending, held)
        util.record(ctx, { kind = "action", tool = "browser_navigate_back", action = "back",
          loads = nav and nav.same_document == false or nil, late = late })
        -- Where it went back to, proposed as a link's click proposes it
        -- (run EG's Back to #s42 proposed nothing, and its test had no
        -- check of the URL).
        local to = type(res) == "table" and res.url or nil
        local urlp = require "vdx.proposals_url"
        local cands = nav and nav.same_document and urlp.moved(page, from, to)
          or urlp.arrived(page, from, to, snap and snap.text)
        return changes.proposed(ctx, result, cands)
      end)
    end,
  },
}
