--- vdx.ref_renew: a ref read before its page loaded again.  A ref lives
-- as long as its document, and a new document has none until a snapshot
-- gives them; but an agent often acts on the page it has just opened
-- again (browser_start_test opens the test's page anew, a reload, a way
-- back) with the refs of its last look, and the call failed with
-- UnknownRef.  When the page is at the URL of the role's last snapshot,
-- ref_renew takes a new one and looks there for the element the ref
-- named: the one line of the same role and name, which was the only one
-- in the last snapshot too.  The tool's call then runs again with that
-- element's ref: nothing was done by the call that failed, since a ref is
-- resolved before any input.  Any other case keeps the error.
local vdx = require "vdx"
local errors = require "vdx.errors"

local ref_renew = {}

local in_container

-- The snapshot line that holds [ref=ref] in text, or nil.
local function line_of(text, ref)
  local at = text and text:find("[ref=" .. ref .. "]", 1, true)
  if not at then return nil end
  local from = (text:sub(1, at):match(".*\n()")) or 1
  return text:sub(from, (text:find("\n", at, true) or #text + 1) - 1)
end

-- The role and name a snapshot line says: `button "Save"`.
local function identity(line)
  local p = line and require("vdx.find").parse_line(line)
  return p and p.role ~= "text" and p.name ~= "" and (p.role .. " " .. p.name) or nil
end

-- The refs of the lines of text whose role and name are id.
local function refs_of(text, id)
  local out = {}
  for line in (text or ""):gmatch("[^\n]+") do
    local ref = line:match("%[ref=(e%d+)%]")
    if ref and identity(line) == id then out[#out + 1] = ref end
  end
  return out
end

-- The lines of text, each parsed (vdx.find.parse_line, false where it
-- reads none), and the index of ref's line, or nil when it has none.
local function lines_at(text, ref)
  local find = require "vdx.find"
  local lines, parsed, at = {}, {}, nil
  for line in (text or ""):gmatch("[^\n]+") do
    lines[#lines + 1], parsed[#parsed + 1] = line, find.parse_line(line) or false
    if not at and line:find("[ref=" .. ref .. "]", 1, true) then at = #lines end
  end
  if not at or not parsed[at] then return nil end
  return lines, parsed, at
end

-- The role and name of the nearest ancestor of ref's line in text that
-- has both (a region, a form, a dialog), as { role, name }, or nil.
local function named_ancestor(text, ref)
  local _, parsed, at = lines_at(text, ref)
  if not at then return nil end
  local path = require("vdx.find").path_of(parsed, at)
  for k = #path, 1, -1 do
    local p = parsed[path[k]]
    if p.role ~= "text" and p.name ~= "" then return { role = p.role, name = p.name } end
  end
end

-- The line of ref in text and the lines of its ancestors, as one text
-- (outermost first), or nil.
local function place_of(text, ref)
  local lines, parsed, at = lines_at(text, ref)
  if not at then return nil end
  local out = {}
  for _, k in ipairs(require("vdx.find").path_of(parsed, at)) do out[#out + 1] = lines[k] end
  out[#out + 1] = lines[at]
  return table.concat(out, "\n")
end

-- The page's URL without its fragment, or nil.
local function url_of(page)
  local url = require("vdx.urls").of(page)
  return url and (url:gsub("#.*$", ""))
end

--- The ref that stands now for the ref of a StaleRef error err: the one
-- live element with the same role, name and tag that took the place of a
-- re-rendered one (the bridge's successor, as the acting tools take it),
-- or nil.  Returns the old ref too.
local function successor(ctx, ref)
  local page = ctx:page()
  local ok, s = pcall(page.bridge, page, "successor", { ref }, { frame = ref })
  if not ok and vdx.is_error(s, "Cancelled") then error(s, 0) end
  if ok and type(s) == "table" and s.from and type(s.ref) == "string" then return s.ref, ref end
  return nil
end

--- The note a call renewed from old to now gives with its answer; how:
-- "stale" (a successor), "place" (an element of no name) or nil (its
-- role and name), as ref_renew.renewed says.
function ref_renew.note(old, now, how)
  if how == "stale" then
    return ("Note: %s was re-rendered; used its successor %s (same role and name)"):format(old, now)
  end
  if old == now then
    -- (The page loaded again as it was: its refs are the agent's again.)
    return ("Note: %s was a ref of the page before it loaded again; the page now gives its element (same %s) the "
      .. "same ref"):format(old, how == "place" and "place, same line" or "role and name")
  end
  return ("Note: %s was a ref of the page before it loaded again; used %s (same role and name)"):format(old, now)
end

-- The ref now of the element of ref's line in text that is the only one
-- of its role and name inside its nearest named container, found on the
-- page by the locator of both (exact names), or nil; and ref.
in_container = function(page, text, ref, line)
  local own = require("vdx.find").parse_line(line or "")
  local outer = named_ancestor(text, ref)
  if not (own and outer and own.name ~= "") then return nil end
  local A = require "vdx.assertions"
  local locator = A.by_role(outer.role, outer.name, true) .. "." .. A.by_role(own.role, own.name, true)
  local ok, r = pcall(page.bridge, page, "targetRef", { { locator = locator } }, { frame = "main" })
  if not ok and vdx.is_error(r, "Cancelled") then error(r, 0) end
  if ok and type(r) == "table" and type(r.ref) == "string" then return r.ref, ref end
  return nil
end

--- The ref that stands now for the ref of err (a tool's error), or nil:
-- err is a StaleRef whose element has a successor (see above), or an
-- UnknownRef of a main-frame ref that named, in the role's last
-- snapshot (ctx.role.last_snapshot, replaced by a new one; a part's: the
-- whole page of that look, ctx.role.change_base), the only
-- element of its role and name, the page is at that snapshot's URL, and
-- the new snapshot has one element of that role and name; or one of
-- several alike that is the only one of its role and name in its nearest
-- named container (a region, a form), which the page's locator engine
-- finds again; or an element of no name that the new snapshot gives the
-- same ref at the same place.  Returns the old ref too, and how it was
-- found: "stale" (a successor), "place" (of no name) or nil.
function ref_renew.renewed(ctx, err)
  local e = errors.normalize(err)
  if e.type == "StaleRef" and type(e.ref) == "string" and type(ctx.role) == "table" then
    local now, old = successor(ctx, e.ref)
    if now then return now, old, "stale" end
    return nil
  end
  local ref = e.type == "UnknownRef" and e.ref
  if type(ref) ~= "string" or not ref:match("^e%d+$") or type(ctx.role) ~= "table" then return nil end
  local last = ctx.role.last_snapshot
  local text = last and (last.whole_text or last.text)
  local line = line_of(text, ref)
  local base = ctx.role.change_base
  if not line and type(base) == "table" and base.whole_text then
    -- A ref of an earlier look at a part (browser_snapshot root=…, run
    -- BX's e166 of one section, then another's): the whole page of that
    -- look, which change reports compare with, has its line.
    local l = line_of(base.whole_text, ref)
    if l then last, text, line = base, base.whole_text, l end
  end
  if not line then return nil end
  local id = identity(line)
  local page = ctx:page()
  local url = url_of(page)
  if not url or url ~= (tostring(last.url or ""):gsub("#.*$", "")) then return nil end
  -- A look at the page now first: it gives refs in the page's order, as
  -- the agent's were (the same page, the same refs), where a ref given
  -- first to the one element looked up numbers the rest anew (run AA's
  -- e201, "Increment" after a fill's renewal).
  local changes = require "vdx.changes"
  local ok, snap = pcall(require("vdx.snapshot").take, page, { budget_tokens = changes.BUDGET_TOKENS }, nil, nil, true)
  if not ok then
    if vdx.is_error(snap, "Cancelled") then error(snap, 0) end
    return nil
  end
  ctx.role.last_snapshot = changes.stamp(page, snap, { budget_tokens = changes.BUDGET_TOKENS }, ctx.role)
  if not id then
    -- An element of no name (a panel, a card): the new look gives the
    -- same ref at the same place, its line and its ancestors' read alike
    -- (run EU's e179, a guide's example panel, after browser_start_test
    -- opened the guide again, was known only after a browser_find).
    local was = place_of(text, ref)
    if was and was == place_of(snap.whole_text or snap.text, ref) then return ref, ref, "place" end
    return nil
  end
  if #refs_of(text, id) ~= 1 then
    -- One of alike elements (a form in each of a guide's sections): the
    -- one of its role and name inside the same named container.
    return in_container(page, text, ref, line_of(text, ref))
  end
  local now = refs_of(snap.whole_text or snap.text, id)
  if #now ~= 1 then return nil end
  return now[1], ref
end

return ref_renew
