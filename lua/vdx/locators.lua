--- vdx.locators: page:generate_locator, the one generator of Playwright
-- locators for a ref.  The bridge writes and verifies the candidates in
-- one round trip in the ref's frame (bridge/src/locgen.js); this module
-- checks the arguments and hands back plain Lua values (no JSON nulls),
-- so the tools, the flows and the session log share one shape.
local vdx = require "vdx"
local json = require "vdx.json"

local locators = {}

local KNOWN = { alternatives = true, timeout_ms = true, batch = true, described = true, anchor = true,
  avoid = true }

-- The tokens each page's locators are anchored on, by page
-- (locators.anchor): a list, the first preferred; weak, so a closed page
-- is forgotten.
local anchors = setmetatable({}, { __mode = "k" })

--- Anchors page's locators on token (the test's run token, vdx.run_token,
-- or a value it remembered, vdx.remembered; nil: none), else on each of
-- the further ones given (`…`) where a locator must not hold the first
-- (generate_locator's avoid): a card or row that shows it is the scope of
-- the locators of elements inside it and of itself (filtered by the text
-- that holds it), as that item is the one data of the test's own run.
function locators.anchor(page, token, ...)
  local list, all = {}, table.pack(token, ...)
  for i = 1, all.n do
    local t = all[i]
    if type(t) == "string" and t ~= "" then list[#list + 1] = t end
  end
  anchors[page] = list[1] and list or nil
end

--- The token page's locators are anchored on first (locators.anchor), or nil.
function locators.anchor_of(page)
  return anchors[page] and anchors[page][1]
end

-- The first of page's anchors that avoid (a text, or nil) does not hold,
-- else the first: an item of the test's own run is found through it
-- though the check's text holds it (run AO's new row, checked for its own
-- name, was recorded as the row's test id alone, unique only while the
-- app had one such row; the next run's check matched two).
local function anchor_avoiding(page, avoid)
  local list = anchors[page] or {}
  for _, a in ipairs(list) do
    if not (avoid and avoid:find(a, 1, true)) then return a end
  end
  return list[1]
end

-- A string, or nil for JSON null and anything else.
local function str(v)
  return type(v) == "string" and v or nil
end

--- The Playwright path from the page into frame (a child frame's name):
-- `<owner's locator>.contentFrame()` for each frame from the top down,
-- each owner located in its parent's document; nil when an owner has no
-- locator there (its frame was never snapshotted).
function locators.frame_path(page, frame, timeout_ms)
  local parents = {}
  for _, f in ipairs(page:frames()) do parents[f.frame] = f.parent end
  local parts = {}
  while frame ~= "main" do
    local parent = parents[frame]
    if not parent then return nil end
    local owner = page:bridge("frameOwnerLocator", { frame }, { frame = parent, timeout_ms = timeout_ms })
    if type(owner) ~= "table" or type(owner.locator) ~= "string" then return nil end
    table.insert(parts, 1, owner.locator .. ".contentFrame()")
    frame = parent
  end
  return table.concat(parts, ".")
end

--- page:generate_locator(ref [, {alternatives = 4, anchor=, avoid=, batch=, described=, timeout_ms=}]) ->
-- { locator, positional, note, frame, frame_locator, frame_relative,
-- alternatives = { {locator, kind, count}, … } }: a Playwright locator
-- expression (codegen style, relative to the page) verified on the live
-- page to match the element of ref and nothing else.  positional is true
-- (and note says why) when only `.nth()` tells it apart.  For a ref in a
-- child frame, frame names it, frame_locator is the path into it
-- (`locator('#pay').contentFrame()`), frame_relative the part verified in
-- the frame's document, and locator (and each alternative) the whole
-- chain; without a path, locator stays relative to the frame and note
-- says so.  batch (a string) lets calls that name the same batch share
-- the bridge's locator engine (roles, names, texts of the document) while
-- the page does not change: for a run of reads on a still page.  Raises
-- InvalidArgument for a bad ref or option, UnknownRef / StaleRef for an
-- element the page no longer has.  described (a string): the words the
-- caller gave with ref ("Export data button"); when none of them is in the
-- element's name or text and they name another element alone, the answer
-- is { described = { role, name, other = { ref, role, name } } } and no
-- locator (a ref read before a reload names another element now).
-- anchor (default: locators.anchor's for page): the test's run token; an
-- element in (or being) a card or row that shows it is located through
-- that item filtered by the text that holds it.  avoid (a string): a
-- text the locator is not to find the element by, as a check of that
-- text would then hold by construction (`getByRole('row', { name: 'Mug
-- $21.60' })` for a check that the row shows $21.60): candidates that
-- hold it come last, and the default anchor is the first of the page's
-- anchors it does not hold (the first when it holds them all).
function locators.generate_locator(page, ref, opts)
  local r, frame = vdx.check_ref(ref)
  opts = opts or {}
  if type(opts) ~= "table" then
    error(vdx.error("InvalidArgument", "generate_locator: options must be a table"), 2)
  end
  for k in pairs(opts) do
    if not KNOWN[k] then
      error(vdx.error("InvalidArgument", ("generate_locator: unexpected key '%s' (known: alternatives, anchor, avoid, batch, described, timeout_ms)")
        :format(tostring(k)), { field = tostring(k) }), 2)
    end
  end
  local n = opts.alternatives or 4
  if math.type(n) ~= "integer" or n < 0 then
    error(vdx.error("InvalidArgument", "generate_locator: alternatives must be an integer >= 0",
      { field = "alternatives" }), 2)
  end
  if opts.batch ~= nil and (type(opts.batch) ~= "string" or opts.batch == "") then
    error(vdx.error("InvalidArgument", "generate_locator: batch must be a non-empty string",
      { field = "batch" }), 2)
  end
  if opts.described ~= nil and type(opts.described) ~= "string" then
    error(vdx.error("InvalidArgument", "generate_locator: described must be a string", { field = "described" }), 2)
  end
  if opts.avoid ~= nil and type(opts.avoid) ~= "string" then
    error(vdx.error("InvalidArgument", "generate_locator: avoid must be a string", { field = "avoid" }), 2)
  end
  local anchor = opts.anchor or anchor_avoiding(page, opts.avoid)
  if anchor ~= nil and (type(anchor) ~= "string" or #anchor < 4) then
    error(vdx.error("InvalidArgument", "generate_locator: anchor must be a string of 4 characters or more",
      { field = "anchor" }), 2)
  end
  local res = page:bridge("locatorFor", { r, { alternatives = n, batch = opts.batch, described = opts.described,
    anchor = anchor, avoid = opts.avoid ~= "" and opts.avoid or nil } },
    { frame = r, timeout_ms = opts.timeout_ms })
  local out = { locator = str(res.locator), positional = res.positional == true, note = str(res.note),
    alternatives = {} }
  local d = res.described
  if type(d) == "table" and type(d.other) == "table" then
    local o = d.other
    out.described = { role = str(d.role), name = str(d.name) or "",
      other = { ref = str(o.ref), role = str(o.role), name = str(o.name) or "" } }
    return out
  end
  local path
  if frame ~= "main" then
    out.frame = frame
    path = locators.frame_path(page, frame, opts.timeout_ms)
    if path and out.locator then
      out.frame_locator, out.frame_relative = path, out.locator
      out.locator = path .. "." .. out.locator
    else
      out.note = (out.note and out.note .. "; " or "") .. "the locator is relative to frame " .. frame
    end
  end
  for i, a in ipairs(type(res.alternatives) == "table" and res.alternatives or {}) do
    out.alternatives[i] = { locator = path and (path .. "." .. a.locator) or str(a.locator), kind = str(a.kind),
      count = math.tointeger(a.count) }
  end
  return out
end

-- ------------------------------------------------------ frame chains

-- True when expr may step into a frame (contentFrame(), frameLocator()).
local function has_frame_step(expr)
  return type(expr) == "string" and (expr:find("contentFrame()", 1, true) or expr:find("frameLocator(", 1, true))
    and true or false
end

--- Splits a Playwright locator chain at its steps into frames: the list
-- of owner locators (each evaluated in the frame the one before opened:
-- `getByTitle('Payment')` of `getByTitle('Payment').contentFrame().
-- getByRole('button')`; `frameLocator(s)` reads as `locator(s)
-- .contentFrame()`) and the rest, the element's locator in the last
-- frame.  Returns nil when expr has no frame step or is not a plain chain
-- of calls (the engine then reads it, and says what is wrong).
function locators.split_frames(expr)
  if not has_frame_step(expr) then return nil end
  local segs = require("vdx.assertions").segments(expr)
  if not segs then return nil end
  local owners, cur = {}, {}
  for _, seg in ipairs(segs) do
    if seg == "contentFrame()" then
      if #cur == 0 then
        error(vdx.error("LocatorSyntax", ("%s: contentFrame() must follow the locator of an iframe"):format(expr),
          { locator = expr }), 0)
      end
      owners[#owners + 1], cur = table.concat(cur, "."), {}
    elseif seg:match("^frameLocator%(") then
      cur[#cur + 1] = "locator" .. seg:sub(#"frameLocator" + 1)
      owners[#owners + 1], cur = table.concat(cur, "."), {}
    else
      cur[#cur + 1] = seg
    end
  end
  if #cur == 0 then
    error(vdx.error("LocatorSyntax", ("%s ends at a frame: add the locator of an element inside it "
      .. "(….contentFrame().getByRole('button', { name: … }))"):format(expr), { locator = expr }), 0)
  end
  return owners, table.concat(cur, ".")
end

--- Follows the frame steps of expr from frame (nil: the main frame) down
-- to the frame its element's locator is read in: returns that frame's
-- name ("f3") and the locator, or false and why when an owner matches
-- nothing or holds no frame (yet).  An owner that matches several
-- elements raises NotUnique, as Playwright's strict contentFrame() does.
-- An expr without frame steps comes back as it is.
function locators.descend(page, expr, frame, timeout_ms)
  local owners, inner = locators.split_frames(expr)
  if not owners then return frame, expr end
  for _, owner in ipairs(owners) do
    local r = page:locator_count(owner, { frame = frame, timeout_ms = timeout_ms })
    if r.count == 0 then return false, ("%s, the owner of a frame in the chain, matches nothing"):format(owner) end
    if r.count > 1 then
      error(vdx.error("NotUnique", ("%s, the owner of a frame in %s, matches %d elements: contentFrame() needs "
        .. "exactly one"):format(owner, expr, r.count), { locator = owner, counts = r.count }), 0)
    end
    local ref = r.refs and r.refs[1]
    local key = type(ref) == "string" and page:bridge("frameKeyOf", { ref }, { frame = ref, timeout_ms = timeout_ms })
    if type(key) ~= "string" then
      return false, ("%s, the owner of a frame in the chain, is not an iframe with a loaded document"):format(owner)
    end
    frame = key
  end
  return frame, inner
end

--- Adds page:generate_locator to a table of page methods (vdx.Page;
-- lua/vdx.lua calls this when `vdx` loads), and lets page:locator_count
-- read a chain through frames (`getByTitle('Payment').contentFrame()
-- .getByRole('button')`, `frameLocator('#pay').getByText('Paid')`), as the
-- locators it generates for refs in frames are written: the count is the
-- element locator's in the frame the chain reaches (0, with `why`, when an
-- owner on the way matches nothing).
function locators.install(methods)
  methods.generate_locator = locators.generate_locator
  local count = methods.locator_count
  if not count then return end
  methods.locator_count = function(page, expr, opts)
    if not has_frame_step(expr) then return count(page, expr, opts) end
    local frame, inner = locators.descend(page, expr, opts and opts.frame, opts and opts.timeout_ms)
    if frame == false then return { count = 0, refs = json.array {}, matches = json.array {}, why = inner } end
    local o = {}
    for k, v in pairs(opts or {}) do o[k] = v end
    o.frame = frame ~= "main" and frame or nil
    return count(page, inner, o)
  end
end

return locators
