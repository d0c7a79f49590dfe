--- vdx.url_guard: the check of the URL the browser commits, beside the
-- check of the URL an agent types (vdx.urls, Policy:check_url).  A typed
-- URL is only one way into a document: a redirect, a link, a script, a
-- popup, a frame, a role's default URL or a history entry can reach one
-- too.  So every browser the MCP server starts or connects to is watched
-- (Target.targetCreated and Target.targetInfoChanged, which the browser
-- sends for every tab, popup and out-of-process frame of every context
-- when a document commits), and a document whose URL opens a local file
-- (vdx.urls.local_file) is left at once: its frame or tab is sent to
-- about:blank, and a tab no role knows is closed.  The tool call during
-- which that happened is refused with the error the typed check gives
-- (Registry:call asks guard:refusal), after the leaving is done, so
-- neither its answer nor a later one shows the file.
--
-- Nothing polls: the watch is the browser's own events.  With
-- --allow-file-urls nothing is watched.
local vdx = require "vdx"
local urls = require "vdx.urls"

local guard = {}

local Guard = {}
Guard.__index = Guard

-- How long a refused call waits for the frames it left to be left.
local LEAVE_WAIT_MS = 5000
-- How many documents that open local files are remembered with their role.
local MAX_DOCS = 256

--- A guard.  opts: policy (vdx.paths policy: allow_file_urls), roles (the
-- vdx.roles manager whose pages it leaves), log(level, fmt, …).
function guard.new(opts)
  return setmetatable({ policy = opts.policy, roles = opts.roles, log = opts.log or function() end,
    seen = 0, leaving = {}, docs = {} }, Guard)
end

-- The role a document that opens a local file is in, or false when that
-- is not known (an out-of-process frame of a role's default context, a
-- tab of a context no role has): its tab, the tab that opened it, or the
-- role whose own context it is in.  Reads only what is at hand (no yield).
function Guard:owner(browser, info)
  for _, id in ipairs { info.targetId, info.openerId } do
    local _, role = self:page_of(id)
    if role then return role end
  end
  local cid = info.browserContextId
  for _, r in ipairs(self.roles and self.roles.list_ or {}) do
    if cid and r.ctx and r.browser == browser then
      local ok, id = pcall(r.ctx.id, r.ctx)
      if ok and id ~= "" and id == cid then return r end
    end
  end
  return false
end

--- Whether documents opening local files are refused (no --allow-file-urls).
function Guard:active()
  return not (self.policy and self.policy.allow_file_urls)
end

-- The open page of the server whose target is target_id and its role, or nil.
function Guard:page_of(target_id)
  for _, o in ipairs(self.roles and self.roles:open_pages() or {}) do
    if o.page:target_id() == target_id then return o.page, o.role end
  end
  return nil
end

--- Leaves the document info describes (a Target.TargetInfo): a tab a page
-- opened for it (a popup) or that no role knows is closed; any other tab
-- goes to about:blank; an out-of-process frame is sent to about:blank by
-- the page it is part of.  Returns what was done, as a sentence.
function Guard:leave(browser, info)
  if info.type == "page" then
    local page, role = self:page_of(info.targetId)
    if page and not info.openerId then
      page:send("Page.navigate", { url = "about:blank" })
      return "The page went to about:blank."
    end
    browser:send("Target.closeTarget", { targetId = info.targetId })
    if page then role:forget_page(page) end
    return "The tab was closed."
  end
  for _, o in ipairs(self.roles and self.roles:open_pages() or {}) do
    if pcall(o.page.send, o.page, "Page.navigate", { url = "about:blank", frameId = info.targetId }) then
      return "The frame went to about:blank."
    end
  end
  browser:send("Target.closeTarget", { targetId = info.targetId })
  return "The frame was closed."
end

-- The handler of a target event: counts a document that opens a local
-- file before anything yields (so a call ending in the same loop turn
-- sees it), then leaves it.
local function on_target(self, browser, params)
  local info = type(params) == "table" and params.targetInfo
  if type(info) ~= "table" or (info.type ~= "page" and info.type ~= "iframe") then return end
  if not urls.local_file(info.url) then return end
  self.seen = self.seen + 1
  self.last_url = info.url
  -- Whose it is: only calls of that role are refused (all calls while it
  -- is not known), so one role's file: document does not fail another
  -- role's call that runs beside it (vdx.mcp_lanes).
  local doc = { n = self.seen, url = info.url, role = false }
  self.docs[#self.docs + 1] = doc
  if #self.docs > MAX_DOCS then table.remove(self.docs, 1) end
  local me = vdx.current_task()
  if me then self.leaving[me] = true end
  local okw, owner = pcall(self.owner, self, browser, info)
  doc.role = okw and owner or false
  local ok, how = pcall(self.leave, self, browser, info)
  if me then self.leaving[me] = nil end
  self.log(ok and "warn" or "error", "left a document that opens a local file (%s): %s", tostring(info.url),
    ok and tostring(how) or tostring(type(how) == "table" and how.message or how))
end

--- Watches browser: every document that commits in it (any context, tab,
-- popup or out-of-process frame) is checked.  A no-op with
-- --allow-file-urls.
function Guard:watch(browser)
  if not self:active() then return end
  local function check(params) on_target(self, browser, params) end
  browser:on("Target.targetCreated", check)
  browser:on("Target.targetInfoChanged", check)
end

-- Waits until every document seen so far has been left.
function Guard:settle()
  for t in pairs(self.leaving) do pcall(vdx.wait, t, LEAVE_WAIT_MS) end
end

--- A mark to pass to guard:refusal at the end of a tool call; first waits
-- for a document still being left (one a role's default URL reached
-- before any call), so the call never reads it.
function Guard:mark()
  self:settle()
  return self.seen
end

--- nil when no document opening a local file committed since mark in
-- role (a vdx.roles role; nil: in any role) or where the role is not
-- known; else waits until the ones seen are left and returns the error
-- the call is refused with (the same as Policy:check_url gives a typed URL).
function Guard:refusal(mark, role)
  if not self:active() then return nil end
  -- An event read in the same turn as the call's last answer has its
  -- handler queued behind this task: let it run first.
  vdx.sleep(0)
  if self.seen == mark then return nil end
  self:settle()
  -- The newest such document of the call's role, or of no known role; all
  -- of them when the oldest since mark is no longer remembered.
  local first = self.docs[1]
  local url = first and first.n > mark + 1 and self.last_url or nil
  for i = #self.docs, 1, -1 do
    local d = self.docs[i]
    if d.n <= mark then break end
    if role == nil or d.role == false or d.role == role then url = d.url break end
  end
  if not url then return nil end
  return urls.local_file_error(url, ("The browser reached %s during this call; it was left at once "
    .. "(the tab went to about:blank, or was closed when a page had opened it)."):format(tostring(url)))
end

return guard
