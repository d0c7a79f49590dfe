--- vdx.session_log: what an agent's MCP session did, in order, so that
-- browser_export_test can write it as a Playwright test and replay it.
-- The server keeps one log (ctx.session in every tool call); tools add
-- steps as they succeed.  A step is a plain table:
--
--   { kind = "navigate", role = "admin", url = "http://…" }
--   { kind = "action", role = …, loads = true when it led to another
--     document, action = "click" | "dblclick" | "fill" |
--     "type" | "press" | "check" | "uncheck" | "select" | "hover" | "drag" |
--     "upload" | "back" | "reload" | "click_at", locator = "getByRole('button', { name:
--     'Add' })", positional = bool, value = …, values = {…} (select), key = …,
--     submit = bool, button = …, modifiers = {…}, to_locator = … (drag),
--     files = {…} (upload), x = …, y = … (click_at), tool = name }
--     (press, back, reload and click_at have no locator)
--   { kind = "code", role = …, lines = { "await {page}.route(…);", … },
--     replay = function(page, step) end | nil, tool = name, world = bool }
--     (a change to the page's world: a route, a cookie, an emulation, a
--     clock; each line is one statement, "{page}" and "{context}" stand for
--     the role's page and browser context; replay, when given, redoes the
--     change on a fresh page before the later steps are replayed, given the
--     step as the run has it (its {run} the run's own); world:
--     a setting of the role's world a new test keeps, Log:restart; route
--     = pattern, unroute = pattern | true (all), emulation = true: what
--     it changes, for what the next test keeps)
--   { kind = "remember", role = …, name = "order", locator = …, pattern =
--     "#\\d+" | nil, value = "#1002", tool = name } (a value the test reads
--     from the page and uses later as `{order}`: vdx.remembered)
--   { kind = "assert", role = …, matcher = "toBeVisible" | "toHaveText" |
--     "toContainText" | "toHaveValue" | "toBeChecked" | "not.toBeChecked" |
--     "toHaveCount" | "toBeInViewport" | "toBeEmpty" | "toHaveAttribute" |
--     "toHaveCSS", locator = …, value = …, attribute = name (toHaveAttribute's
--     attribute, toHaveCSS's property), timeout = ms (a check of what
--     took long to show: vdx.slow_checks), positional = bool,
--     tool = name }
--     (a proposal may also carry before = a matcher, or count = n: see
--     Log:keep)
--
-- Each step of the current test has a number, `no`, from 1, given as it
-- joins the test (an assertion kept from a proposal gets the next one
-- where it goes in): the number the flake gate lists it by and `drop`
-- takes, the same for the whole test, so a drop leaves the other steps'
-- numbers as they were (a gap where the dropped ones stood).
--
-- The verify tools (lua/vdx/builtin/verify.lua) record assertions checked
-- on the live page, each locator matching exactly the checked element:
--   toBeVisible      getByRole('button', { name: 'Save' }), no value
--   toBeInViewport   the same, when the check asked for the viewport
--   toHaveValue      getByLabel('Email'), value = "a@b.c" (a select's
--                    option value, as Playwright's toHaveValue reads it)
--   toBeChecked, not.toBeChecked   a checkbox or radio, no value
--   toBeEmpty        an element that shows no text (a status), no value
--   toHaveText, toContainText      "<list>.getByRole('listitem')" (or the
--                    list's own item role; `.locator(':scope > *')` when it
--                    has none), value = { "item", … } (Playwright's array
--                    form: all items in order, or a subset in order)
--   toHaveCount      "<list>.getByRole('listitem')", value = integer
-- The exporter writes each as `await expect(page.<locator>).<matcher>(<value>)`.
--
-- Locators are Playwright locator expressions relative to the role's page
-- (`getByRole(…)`, `getByTestId(…).filter(…)`), as browser_verify_locator
-- takes them.
local errors = require "vdx.errors"

local session_log = {}

local Log = {}
Log.__index = Log

local KINDS = { navigate = true, action = true, assert = true, code = true, remember = true }

--- A new, empty log.
function session_log.new()
  return setmetatable({ steps = {}, proposed = {}, kept = {}, proposals = 0, test_no = 1, files = {} }, Log)
end

--- Proposes step (an assert step the page was checked to satisfy, not yet
-- part of the test) at the current end of the log; returns its id ("a1",
-- "a2", …), by which Log:keep makes it part of the test where it was
-- proposed.
function Log:propose(step)
  if type(step) ~= "table" or step.kind ~= "assert" then
    errors.misuse("session_log:propose: step.kind must be assert", 2, { field = "kind" })
  end
  step.role = step.role or "default"
  self.proposals = self.proposals + 1
  local id = "a" .. self.proposals
  self.proposed[id] = { step = step, at = #self.steps, n = self.proposals }
  return id
end

--- The id of the first proposal still not kept that was made right after
-- the step at index pos of the log, for role, or nil.
function Log:proposed_after(pos, role)
  local best
  for id, p in pairs(self.proposed) do
    if p.at == pos and p.step.role == role and (not best or p.n < best.n) then best = { id = id, n = p.n } end
  end
  return best and best.id
end

--- Whether step loads a page: a navigation, or an action that led to
-- another document (a link clicked: its step's loads).
function session_log.loads(step)
  return step.kind == "navigate" or (step.kind == "action" and step.loads == true)
end

--- The actions that need no locator (a key pressed on the page, not on
-- an element; a page gone back or reloaded; a click at a point).
session_log.NO_LOCATOR = { press = true, back = true, reload = true, click_at = true }

--- Whether step is a check of the test: an assertion, or a code step
-- written as a web-first one (a wait: `await expect(page).toHaveURL(…)`,
-- an element's state).
function session_log.is_check(step)
  if step.kind == "assert" then return true end
  if step.kind ~= "code" then return false end
  for _, l in ipairs(step.lines or {}) do
    if l:match("^await expect%(") then return true end
  end
  return false
end

-- Gives each step of the log that has no number the next one, in the
-- log's order.
local function number(self)
  for _, st in ipairs(self.steps) do
    if st.no == nil then
      self.last_no = (self.last_no or 0) + 1
      st.no = self.last_no
    end
  end
end

-- Whether step is in the log.
local function logged(self, step)
  for _, s in ipairs(self.steps) do if s == step then return true end end
  return false
end

--- What Log:keep(ids) would do, with nothing changed: the proposals it
-- would add (a list), or nil and the ids never proposed (or kept and
-- dropped since).  An id kept already, its step still in the log, adds
-- nothing: an export sent again with the same ids keeps them once.
function Log:keeping(ids)
  local picked, unknown, seen = {}, {}, {}
  for _, id in ipairs(ids) do
    local p = self.proposed[id]
    if p then
      if not seen[p] then picked[#picked + 1], seen[p] = p, true end
    elseif not (self.kept[id] and logged(self, self.kept[id])) then
      unknown[#unknown + 1] = id
    end
  end
  if #unknown > 0 then return nil, unknown end
  return picked
end

--- For each page load of the current test (a navigate step, any role's,
-- or an action that led to another document) with no check since the
-- last action before it, that action, with the first of the proposals
-- made right after it that is still not kept, one whose locator and value
-- hold no count or amount a later run may read otherwise (vdx.volatile:
-- `Cart (3)`, in a cart that keeps its items) before any: { { action =,
-- load =, id = (nil when it had none), volatile = bool } }, in order.
-- Such a load may come before the app finished what the action started;
-- the proposal is a check that waits.  Only the last action counts, and
-- only one that may start work it does not wait for (a click, a key, a
-- field submitted): an earlier one is followed by actions that wait for
-- their own elements, and a warning of it would hide the one that races
-- the load.
function Log:unchecked_loads()
  local out, steps = {}, self.steps
  local first = {}
  local volatile = require "vdx.volatile"
  for id, p in pairs(self.proposed) do
    local st = p.step or {}
    local v = volatile.holds(st.locator) or volatile.holds(type(st.value) == "string" and st.value or nil)
    local f = first[p.at]
    if not f or (f.volatile and not v) or (f.volatile == v and p.n < f.n) then
      first[p.at] = { id = id, n = p.n, volatile = v }
    end
  end
  for _, u in ipairs(require("vdx.session_races").racing(steps)) do
    local f = first[u.at]
    out[#out + 1] = { action = u.action, load = u.load, id = f and f.id, volatile = f and f.volatile or false }
  end
  return out
end

--- The steps of the current test that load a page which fetched data
-- after its load (step.late: what the MCP answer waited for), directly
-- followed by an action, a read of a value (a remember step) or a check
-- that something is absent, with no other check between: { { load =,
-- action =, late = { "GET /api/cart", … }, absent = bool } }, in order.
-- Playwright acts as soon as the action's element is there, which on such
-- a page may be before the data came (run X's Checkout, clicked before
-- the cart had loaded, did nothing), a read takes what a placeholder
-- shows then (`Cart (0)` for `Cart (3)`), and an absence holds then.
function Log:unready_actions()
  return require("vdx.session_races").unready(self.steps)
end

-- True when a and b (values of steps) are the same, tables item by item.
local function same_value(a, b)
  if type(a) ~= "table" or type(b) ~= "table" then return a == b end
  if #a ~= #b then return false end
  for i = 1, #a do if a[i] ~= b[i] then return false end end
  return true
end

-- True when the assert steps a and b check the same thing: their role,
-- matcher, locator, attribute and value.
local function same_check(a, b)
  return a.role == b.role and a.matcher == b.matcher and a.locator == b.locator
    and a.attribute == b.attribute and same_value(a.value, b.value)
end

-- The actions that change a field and nothing else a check before them
-- could be about (a hover may hide a tooltip).
local FIELD_ONLY = { fill = true, type = true, select = true, check = true, uncheck = true }

-- True when check (an assert step) is made already by one of the steps
-- before index at with only checks and field changes (not submitted) of
-- its role between (run AF's dialog checked open, its form filled, then
-- the same check again ahead of the Send that closed it).
local function still_checked(steps, at, check)
  for i = at - 1, 1, -1 do
    local s = steps[i]
    if s.role ~= check.role then return false end
    if s.kind == "assert" then
      if same_check(s, check) then return true end
    elseif not (s.kind == "action" and FIELD_ONLY[s.action] and not s.submit) then
      return false
    end
  end
  return false
end

-- The check among the checks of check's role right after index at (no
-- other step between) that makes check already, or nil (run AG kept a
-- proposed count its list check had recorded beside the list).
local function made_after(steps, at, check)
  for i = at + 1, #steps do
    local s = steps[i]
    if s.kind ~= "assert" or s.role ~= check.role then return nil end
    if same_check(s, check) then return s end
  end
  return nil
end

-- Puts the proposal p ({ step, at, n }) in the log after index p.at,
-- with the checks it brings (Log:keep), and moves the places of the
-- proposals still open after it.
local function insert_kept(self, p)
  local st = p.step
  table.insert(self.steps, p.at + 1, st)
  local count = st.count and { kind = "assert", role = st.role, matcher = "toHaveCount", locator = st.locator,
    value = st.count, tool = st.tool }
  if count and made_after(self.steps, p.at + 1, count) then count = nil end
  if count then table.insert(self.steps, p.at + 2, count) end
  -- A check that something went (toBeHidden) also says it was there:
  -- its matcher `before` is checked ahead of the action it followed.
  local acted = self.steps[p.at]
  local pre = st.before and acted and acted.kind == "action" and acted.role == st.role and { kind = "assert",
    role = st.role, matcher = st.before, locator = st.locator, tool = st.tool }
  if pre and still_checked(self.steps, p.at, pre) then pre = nil end
  if pre then
    -- (Log:keep looks at it again once every proposal of the call is in.)
    pre.pre = true
    table.insert(self.steps, p.at, pre)
  end
  local extra = (pre and 1 or 0) + (count and 1 or 0)
  for _, q in pairs(self.proposed) do
    if q.at > p.at then q.at = q.at + 1 + extra
    elseif pre and q.at == p.at and q ~= p then q.at = q.at + 1 end
  end
end

--- Makes the proposed steps of ids part of the log, each where it was
-- proposed (after the step that was last then), in the order proposed;
-- a step with `before` (a matcher: toBeHidden's toBeVisible) also puts
-- that check of its locator ahead of the action it followed, unless the
-- test makes it there already; a step with `count` (the array form of
-- toContainText that names every match) is followed by a toHaveCount of
-- its locator, so no other match may come in between or after.  A check
-- the test makes already right there is not written twice: the id keeps
-- that one.  Returns true, or nil and the ids that were never proposed
-- (Log:keeping).
function Log:keep(ids)
  local picked, unknown = self:keeping(ids)
  if not picked then return nil, unknown end
  -- From the last position back, so each insertion leaves the positions
  -- still to come where they were.
  table.sort(picked, function(a, b) return a.at > b.at or (a.at == b.at and a.n > b.n) end)
  for _, p in ipairs(picked) do
    local made = made_after(self.steps, p.at, p.step)
    if not made then insert_kept(self, p) end
    for id, q in pairs(self.proposed) do
      if q == p then self.proposed[id], self.kept[id] = nil, made or p.step end
    end
  end
  -- A check before its action that a proposal kept in this same call
  -- makes already, with only fields changed since (run AR kept the
  -- dialog's open check and its close, and the file checked it open twice).
  for i = #self.steps, 1, -1 do
    local s = self.steps[i]
    if s.pre then
      s.pre = nil
      if still_checked(self.steps, i, s) then
        table.remove(self.steps, i)
        for _, q in pairs(self.proposed) do if q.at >= i then q.at = q.at - 1 end end
      end
    end
  end
  number(self)
  if self.listener and #picked > 0 then self.listener(self, picked[#picked].step) end
  return true
end

--- What Log:drop(ns) would take out, with nothing changed: a table of
-- step -> its number, or nil and the numbers that name no step.
function Log:dropping(ns)
  local byno, bad, gone = {}, {}, {}
  for _, st in ipairs(self:test_steps()) do byno[st.no] = st end
  for _, x in ipairs(ns) do
    local n = math.tointeger(x)
    if not n or not byno[n] then bad[#bad + 1] = n or x else gone[byno[n]] = n end
  end
  if #bad > 0 then return nil, bad end
  return gone
end

--- What the log is now, for Log:restore: an export that drops and keeps
-- steps and then writes nothing (its replay failed) leaves the session as
-- it found it.
function Log:state()
  local proposed = {}
  for id, p in pairs(self.proposed) do proposed[id] = { step = p.step, at = p.at, n = p.n } end
  local kept = {}
  for id, st in pairs(self.kept) do kept[id] = st end
  return { steps = table.move(self.steps, 1, #self.steps, 1, {}), proposed = proposed, kept = kept,
    exported = self.exported, last_no = self.last_no }
end

--- Puts back what Log:state saw; proposals kept since lose their number.
function Log:restore(st)
  self.steps, self.proposed, self.kept = st.steps, st.proposed, st.kept
  self.exported, self.last_no = st.exported, st.last_no
  for _, p in pairs(self.proposed) do p.step.no = nil end
end

--- The numbers of the current test's steps, in order, as ranges: "1-4,
-- 6, 8-12" (what a drop may name).
function Log:numbers()
  local out, nos = {}, {}
  for _, st in ipairs(self:test_steps()) do
    if math.type(st.no) == "integer" then nos[#nos + 1] = st.no end
  end
  local i = 1
  while i <= #nos do
    local j = i
    while j < #nos and nos[j + 1] == nos[j] + 1 do j = j + 1 end
    out[#out + 1] = j == i and tostring(nos[i]) or ("%d-%d"):format(nos[i], nos[j])
    i = j + 1
  end
  return table.concat(out, ", ")
end

--- Takes the steps numbered ns (their numbers `no`, as the flake gate
-- lists them) out of the log for good.  Returns the steps taken out, in
-- order, and their numbers, or nil and the numbers that name no step.
function Log:drop(ns)
  local gone, bad = self:dropping(ns)
  if not gone then return nil, bad end
  local kept, out, numbers = {}, {}, {}
  for i, s in ipairs(self.steps) do
    if gone[s] then
      out[#out + 1], numbers[#out + 1] = s, gone[s]
      -- A proposal made after a dropped step stays after the step before it.
      for _, p in pairs(self.proposed) do if p.at >= i - #out + 1 then p.at = p.at - 1 end end
      if self.exported and self.exported >= i - #out + 1 then self.exported = self.exported - 1 end
    else
      kept[#kept + 1] = s
    end
  end
  self.steps = kept
  return out, numbers
end

-- The assertion among the last steps, back to the last step that is not
-- one, that checks what step checks (its role, matcher, locator,
-- attribute and value), or nil.
local function checked_already(steps, step)
  for i = #steps, 1, -1 do
    local s = steps[i]
    if s.kind ~= "assert" then return nil end
    if same_check(s, step) then return s end
  end
  return nil
end

-- The assertion among the last steps, back to the last step that is not
-- one, on the same element as step whose text check one of the two makes
-- whole (toHaveText of a text that holds the other's toContainText): that
-- step and its index, or nil.
local function text_check_of(steps, step)
  if step.matcher ~= "toHaveText" and step.matcher ~= "toContainText" or type(step.value) ~= "string" then return nil end
  for i = #steps, 1, -1 do
    local s = steps[i]
    if s.kind ~= "assert" then return nil end
    if s.role == step.role and s.locator == step.locator and s.attribute == nil and step.attribute == nil
        and s.matcher ~= step.matcher and (s.matcher == "toHaveText" or s.matcher == "toContainText")
        and type(s.value) == "string" then
      return s, i
    end
  end
  return nil
end

--- Appends step (see the module comment) and returns it.  role is the
-- name of the role the step ran in; it defaults to "default".  An
-- assertion that one of the checks right before it (with no other step
-- between) makes already is not added again: that one is returned (run
-- AA's list check and its count, then the same count again); one that
-- checks an element's whole text takes the place of a toContainText of
-- part of it right before (step.replaced: its number, which it keeps).
function Log:add(step)
  if type(step) ~= "table" or not KINDS[step.kind] then
    errors.misuse("session_log:add: step.kind must be navigate, action, code or assert", 2, { field = "kind" })
  end
  step.role = step.role or "default"
  if step.kind == "assert" then
    local same = checked_already(self.steps, step)
    if same then return same end
    -- One element's text checked twice in a row (an expect='s
    -- toContainText, then its whole text): the whole text's check alone
    -- (run BV's file had both).
    local other, at = text_check_of(self.steps, step)
    local whole = other and (other.matcher == "toHaveText" and other or step)
    local part = other and (whole == other and step or other)
    if other and whole.value:find(part.value, 1, true) then
      if whole == other then return other end
      step.no, step.replaced = other.no, other.no
      self.steps[at] = step
      if self.listener then self.listener(self, step) end
      return step
    end
  end
  self.steps[#self.steps + 1] = step
  number(self)
  if self.listener then self.listener(self, step) end
  return step
end

--- Calls fn(log, step) after each step is added (one listener; nil
-- removes it): `vdxlua mcp --save-test` keeps its file current with it.
function Log:on_add(fn)
  self.listener = fn
end

--- The steps so far, oldest first (the log's own list: do not change it).
function Log:list()
  return self.steps
end

--- The last step when it is an action of the role named role recorded
-- after the first n steps (n: 0 when nil), else nil: the step an answer
-- keeps what the test needs on (the requests it waited for, step.late and
-- step.fetched; the paths of the frames it brought, step.frames).
function Log:last_action(role, n)
  local steps = self.steps
  local st = #steps > (n or 0) and steps[#steps] or nil
  if st and st.kind == "action" and st.role == role then return st end
  return nil
end

--- The names of the roles the steps ran in, in order of first use.
function Log:roles()
  local seen, out = {}, {}
  for _, s in ipairs(self:test_steps()) do
    if not seen[s.role] then seen[s.role] = true; out[#out + 1] = s.role end
  end
  return out
end

--- Forgets every step and proposal.
function Log:clear()
  self.steps, self.proposed, self.starts, self.exported, self.keep_told, self.cut_told = {}, {}, nil, nil, nil, nil
  self.test_no, self.files, self.token, self.absent_told = 1, {}, nil, nil
end

--- The token `{run}` stands for in the current test (vdx.run_token),
-- made when create is true and the test has none yet; else nil.  Each
-- test (Log:restart) gets its own.
function Log:run_token(create)
  if not self.token and create then self.token = require("vdx.run_token").new() end
  return self.token
end

-- The kept steps of out without those gone(k) says go.
local function without(out, gone)
  local left = {}
  for _, k in ipairs(out) do
    if not gone(k) then left[#left + 1] = k end
  end
  return left
end

-- The world steps of steps that are still in effect: a route a later
-- unroute of its pattern (or of all) removed goes, and the unroute with
-- it (it removes nothing of what is kept), as does a route a later one
-- that answers on its pattern hides (step.answers); a setting
-- (step.setting: offline, cpu) a later one of the same replaced goes, and
-- one back to the browser's own (step.default) leaves none; so do a HAR
-- recording that was stopped (its step's world was cleared) and the
-- emulation steps of a role cleared(role) says is back to the browser's
-- own.
local function in_effect(steps, cleared)
  local out = {}
  for _, s in ipairs(steps) do
    if s.kind == "code" and s.world and not (s.emulation and cleared and cleared(s.role)) then
      if s.unroute ~= nil then
        out = without(out, function(k) return k.route and k.role == s.role and (s.unroute == true or k.route == s.unroute) end)
      elseif s.setting then
        out = without(out, function(k) return k.setting == s.setting and k.role == s.role end)
        if not s.default then out[#out + 1] = s end
      else
        if s.route and s.answers then
          out = without(out, function(k) return k.route == s.route and k.role == s.role end)
        end
        out[#out + 1] = s
      end
    end
  end
  return out
end

--- Starts the next test (browser_start_test): forgets every step and
-- proposal but the settings of a role's world that are still in effect
-- (code steps marked world: routes, emulation, network conditions, a
-- clock; see in_effect), which are kept, marked carried, ahead of what
-- follows.  starts maps a role's name to the storageState file the next
-- test opens it with (its state at the cut); a role left out starts from
-- its auth file.  cleared(role), when given, says whether a role's
-- emulation is back to the browser's own; cleared true: the whole world
-- was (browser_start_test {keep_world: false}), none of it is kept.
-- Returns the number of steps dropped and of those kept.
function Log:restart(starts, cleared)
  local kept = cleared == true and {} or in_effect(self.steps, cleared)
  local dropped = #self.steps - #kept
  for _, s in ipairs(kept) do s.carried = true end
  self.steps, self.proposed, self.starts, self.exported = kept, {}, starts or {}, nil
  self.test_no, self.token = (self.test_no or 1) + 1, nil
  -- The new test numbers its steps from 1, the world it keeps first.
  self.last_no = 0
  for _, st in ipairs(kept) do st.no = nil end
  number(self)
  return dropped, #kept
end

--- The values the current test remembered (vdx.remembered): a table of
-- name -> { value = …, step = the remember step }, from its steps (a
-- value dropped with its step is gone; a name remembered again is its
-- latest value).
function Log:remembered()
  local out = {}
  for _, s in ipairs(self:test_steps()) do
    if s.kind == "remember" then out[s.name] = { value = s.value, step = s } end
  end
  return out
end

--- The storageState file the test opens role with when it started after
-- a cut (Log:restart), else nil.
function Log:start_auth(role)
  return self.starts and self.starts[role] or nil
end

--- The steps of the test: the list without the carried steps of roles
-- that have done nothing since the cut (a new list).
function Log:test_steps()
  local active = {}
  for _, s in ipairs(self.steps) do
    if not s.carried then active[s.role] = true end
  end
  local out = {}
  for _, s in ipairs(self.steps) do
    if active[s.role] then out[#out + 1] = s end
  end
  return out
end

-- What the exports wrote, and the steps since (vdx.session_log_files).
require("vdx.session_log_files").install(Log)

return session_log
