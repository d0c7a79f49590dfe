--- vdx.locators: page:generate_locator, the one generator of Playwright
-- locators for a ref.  The bridge writes and verifies the candidates in
-- one round trip in the ref's frame (bridge/src/locgen.js); this module
-- checks the arguments and hands back plain Lua values (no JSON nulls),
-- so the tools, the flows and the session log share one shape.
local vdx = require "vdx"

local locators = {}

local KNOWN = { alternatives = true, timeout_ms = true, batch = true }

-- A string, or nil for JSON null and anything else.
local function str(v)
  return type(v) == "string" and v or nil
end

-- The Playwright path from the page into frame (a child frame's name):
-- `<owner's locator>.contentFrame()` for each frame from the top down,
-- each owner located in its parent's document; nil when an owner has no
-- locator there (its frame was never snapshotted).
local function frame_path(page, frame, timeout_ms)
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

--- page:generate_locator(ref [, {alternatives = 4, batch=, timeout_ms=}]) ->
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
-- element the page no longer has.
function locators.generate_locator(page, ref, opts)
  local r, frame = vdx.check_ref(ref)
  opts = opts or {}
  if type(opts) ~= "table" then
    error(vdx.error("InvalidArgument", "generate_locator: options must be a table"), 2)
  end
  for k in pairs(opts) do
    if not KNOWN[k] then
      error(vdx.error("InvalidArgument", ("generate_locator: unexpected key '%s' (known: alternatives, batch, timeout_ms)")
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
  local res = page:bridge("locatorFor", { r, { alternatives = n, batch = opts.batch } },
    { frame = r, timeout_ms = opts.timeout_ms })
  local out = { locator = str(res.locator), positional = res.positional == true, note = str(res.note),
    alternatives = {} }
  local path
  if frame ~= "main" then
    out.frame = frame
    path = frame_path(page, frame, opts.timeout_ms)
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

--- Adds page:generate_locator to a table of page methods (vdx.Page;
-- lua/vdx.lua calls this when `vdx` loads).
function locators.install(methods)
  methods.generate_locator = locators.generate_locator
end

return locators
