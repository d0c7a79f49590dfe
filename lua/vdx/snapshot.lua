--- vdx.snapshot: page:snapshot, the policy half of the snapshot.  The core
-- (page:snapshot_frames, src/page/snapshot.c) hands back each frame's
-- bridge answer; this module splices the frames' texts into one, cuts it
-- at the budget, and words every note and warning the reader sees.  The
-- budget's default and the truncation notice live here once, for Lua
-- scripts and the MCP tool browser_snapshot alike; only the way the notice
-- names the next call differs (`how` below).
local vdx = require "vdx"
local json = require "vdx.json"
local fold = require "vdx.snapshot_fold"

local snapshot = {}

--- The budget, in tokens, of a snapshot that names none (page:snapshot
-- and browser_snapshot).  A tool reply is read once, whole: a typical busy
-- page (the 200-card shop is about 8,300 tokens) fits in one call, and
-- 12,000 stays well under MCP clients' usual cap of 25,000 per result.
snapshot.DEFAULT_BUDGET = 12000

--- The default budget of a snapshot cut at a depth, in tokens: a look
-- over the page's parts, not all of it (run DB's depth 3 of a long guide
-- still held its 150 contents links, 48,000 characters).
snapshot.DEPTH_BUDGET = 3000

--- How many options a list shows before it folds them into `[options=N]`
-- (a country picker's 200 would drown the page), and how many in
-- browser_snapshot of one element (root): the agent zoomed in to read them.
snapshot.FOLD_OPTIONS = 10
snapshot.ROOT_OPTIONS = 200

--- Characters per token: how a budget in tokens becomes characters, and
-- characters left out become "about N tokens".
snapshot.CHARS_PER_TOKEN = 4

-- Where a child frame's text goes in its parent's, as the bridge writes it.
local PLACEHOLDER = "\1frame:"
local PLACEHOLDER_LINE = "^( *)" .. PLACEHOLDER .. "(.+)$"

-- Frames nested deeper than this are not spliced (a loop guard).
local MAX_NESTING = 32

local KNOWN = { "budget_tokens", "root", "frame", "depth", "offset", "max_options", "timeout_ms", "mode",
  "interactive" }

local function invalid(message, fields)
  error(vdx.error("InvalidArgument", message, fields), 3)
end

-- Checks page:snapshot's options strictly; returns a copy with the numbers
-- as integers (a JSON 100 may arrive as 100.0).
local function check_opts(opts)
  if opts == nil then return {} end
  if type(opts) ~= "table" then invalid("snapshot: options must be a table") end
  local out = {}
  for k, v in pairs(opts) do
    local known = false
    for _, n in ipairs(KNOWN) do known = known or k == n end
    if not known then
      invalid(("unexpected key '%s' (known: %s)"):format(tostring(k), table.concat(KNOWN, ", ")),
        { field = tostring(k) })
    end
    out[k] = v
  end
  for _, k in ipairs { "budget_tokens", "depth", "offset", "max_options", "timeout_ms" } do
    if out[k] ~= nil then
      out[k] = math.tointeger(out[k]) or invalid(("option '%s' must be an integer"):format(k), { field = k })
    end
  end
  if out.root ~= nil and (type(out.root) ~= "string" or out.root == "") then
    invalid("root must be a ref, a Playwright locator or a CSS selector", { field = "root" })
  end
  if out.frame ~= nil and (type(out.frame) ~= "string" or not out.frame:match("^f%d+$") and out.frame ~= "main") then
    invalid("frame must be a frame's name (\"main\" or \"f<K>\", see page:frames())", { field = "frame" })
  end
  if out.frame ~= nil and out.root == nil then invalid("frame names where root is looked for: give root too", { field = "frame" }) end
  if out.mode ~= nil and out.mode ~= "ai" and out.mode ~= "aria" then
    invalid(("mode must be \"ai\" (the default: refs, names the lines below repeat left off) or \"aria\" " ..
      "(Playwright's toMatchAriaSnapshot dialect: no refs, every name), not %s"):format(json.encode(out.mode)),
      { field = "mode" })
  end
  if out.interactive ~= nil and type(out.interactive) ~= "boolean" then
    invalid("interactive must be true or false", { field = "interactive" })
  end
  if out.interactive and out.mode == "aria" then
    invalid("interactive and mode = \"aria\" do not go together: the aria dialect is Playwright's whole tree; " ..
      "leave one out", { field = "interactive" })
  end
  if out.budget_tokens and out.budget_tokens <= 0 then invalid("budget_tokens must be > 0") end
  if out.offset and out.offset < 0 then invalid("offset must be >= 0") end
  return out
end

-- A note line: `- note: "…"`, a YAML double-quoted scalar (JSON's escapes
-- are YAML's).
local function note(indent, text)
  return indent .. "- note: " .. json.encode(text)
end

-- ------------------------------------------------------------ stitching

-- The splice of the frames' answers (frames[name] = {ok=, value=}, by the
-- frames' names, "main" and "f<K>"):
-- lines (without "\n"), warnings and the counts summed over the frames.
local Stitch = {}
Stitch.__index = Stitch

-- Warnings shown at most: a page of 1,000 frames must not add 1,000 lines.
local MAX_WARNINGS = 20

-- Adds a warning once; a repeat only counts (see Stitch:warning_list).
function Stitch:warn(text)
  local n = self.seen[text]
  if n then self.seen[text] = n + 1 return end
  self.seen[text] = 1
  self.warnings[#self.warnings + 1] = text
end

-- The warnings, each once with how often it came ("(×1000)"), at most
-- MAX_WARNINGS of them and then a line that says how many more.
function Stitch:warning_list()
  local out = {}
  for i, w in ipairs(self.warnings) do
    if i > MAX_WARNINGS then
      out[#out + 1] = ("%d more kinds of warning left out"):format(#self.warnings - MAX_WARNINGS)
      break
    end
    local n = self.seen[w]
    out[#out + 1] = n > 1 and ("%s (×%d)"):format(w, n) or w
  end
  return out
end

-- Appends text, indenting every line and splicing frame placeholders.
function Stitch:text(text, indent)
  local lines = self.lines
  if not text:find(PLACEHOLDER, 1, true) then -- no frame in it: lines as they are
    if indent == "" then
      for line in text:gmatch("[^\n]+") do lines[#lines + 1] = line end
    else
      for line in text:gmatch("[^\n]+") do lines[#lines + 1] = indent .. line end
    end
    return
  end
  for line in text:gmatch("[^\n]+") do
    local lead, key = line:match(PLACEHOLDER_LINE)
    if not lead then
      self.lines[#self.lines + 1] = indent .. line
    elseif key:match("^f%d+$") then
      self:frame(key, indent .. lead)
    else
      self.lines[#self.lines + 1] = note(indent .. lead,
        "this frame appeared during the snapshot; snapshot again to see it")
      self:warn("a frame appeared during the snapshot and is not shown")
    end
  end
end

-- Appends the text of the frame named `name`, or a note saying why it is
-- missing.
function Stitch:frame(name, indent)
  if self.depth >= MAX_NESTING then return end
  local r = self.frames[name]
  if r == nil then
    self.lines[#self.lines + 1] = note(indent,
      ("frame %s could not be read (it appeared during the snapshot)"):format(name))
    self:warn(("frame %s appeared during the snapshot"):format(name))
    return
  end
  if not r.ok then
    local why = ("frame %s could not be read: %s"):format(name, tostring(r.value))
    if vdx.is_error(r.value, "FrameDetached") then why = why .. "; snapshot again to see the page's frames now" end
    self.lines[#self.lines + 1] = note(indent, why)
    self:warn(why)
    return
  end
  local v = r.value
  self.element_count = self.element_count + (math.tointeger(v.element_count) or 0)
  self.ref_count = self.ref_count + (math.tointeger(v.ref_count) or 0)
  self.unmeasurable = self.unmeasurable + (math.tointeger(v.unmeasurable) or 0)
  if math.tointeger(v.more_lines) then -- the bridge stopped walking at the budget
    self.cut = true
    self.more_lines = self.more_lines + math.tointeger(v.more_lines)
    self.more_chars = self.more_chars + (math.tointeger(v.more_chars) or 0)
  end
  self.depth = self.depth + 1
  local before = #self.lines
  if type(v.text) == "string" then self:text(v.text, indent) end
  self.depth = self.depth - 1
  -- A frame that shows nothing (it never loaded, or holds nothing) leaves
  -- its owner a leaf: `- iframe [ref=e1]`, not a key with nothing under it.
  if #self.lines == before and before > 0 and indent ~= "" then
    self.lines[before] = self.lines[before]:gsub(":$", "")
  end
end

local function stitch(frames, root_frame)
  local s = setmetatable({ frames = frames, lines = {}, warnings = {}, seen = {}, element_count = 0, ref_count = 0,
    unmeasurable = 0, cut = false, more_lines = 0, more_chars = 0, depth = 0 }, Stitch)
  s:frame(root_frame, "")
  return s
end

-- ---------------------------------------------------------------- depth

-- The nesting level of a line (two spaces a level) and what follows "- ".
local level_of = fold.level_of

-- line, which stands k times in a row, with the count: before its text
-- value (`- listitem ×150: Item text`), else at its end.
local function counted(line, k)
  local key, value = line:match('^( *%- [%w/]+ "[^"]*"[^:"]*)(: .+)$')
  if not key then key, value = line:match('^( *%- [^:"]+)(: .+)$') end
  if key then return key .. " ×" .. k .. value end
  return line .. " ×" .. k
end

-- A key line with the count of its hidden child lines: ` [+N]` inside
-- the key (in its quotes when it is quoted), with a colon when property
-- lines still follow.
local function marked(line, hidden, more)
  local lead, key = line:match("^( *%- )(.-):?$")
  if hidden > 0 then
    if key:match("^'.*'$") then key = key:sub(1, -2) .. (" [+%d]'"):format(hidden)
    else key = key .. (" [+%d]"):format(hidden) end
  end
  return lead .. key .. (more and ":" or "")
end

-- Cuts lines (the stitched text of every frame, so a frame's content
-- counts from its iframe's level) below `depth` levels, in place: a node
-- at the last level keeps its property lines (`/url`, `/placeholder`,
-- `/value`), as Playwright's does, and says how many child lines it hid
-- (` [+N]`); a run of the same line (alike items, each cut to `- listitem
-- [+1]`, which have no ref) is told once with its count (`- listitem [+1]
-- ×150`, `- listitem ×150: Item text`); a long run of alike siblings with
-- refs (sections, cards) is folded into one line after its first two
-- (vdx.snapshot_fold).  Returns the number of refs on the lines kept.
local function cut_depth(lines, depth)
  local out, i, n = {}, 1, #lines
  local run = 1   -- how many times out's last line stands
  while i <= n do
    local line = lines[i]
    local lev = level_of(line) or 0
    i = i + 1
    if lev <= depth then
      local props, hidden = {}, 0
      if lev == depth then
        while i <= n and (level_of(lines[i]) or lev + 1) > lev do
          local l, rest = level_of(lines[i])
          if l == lev + 1 and rest and rest:match("^/%a+:") then props[#props + 1] = lines[i]
          elseif l == lev + 1 then hidden = hidden + 1 end
          i = i + 1
        end
        if hidden > 0 or #props > 0 then line = marked(line, hidden, #props > 0) end
      end
      if #props == 0 and line == out[#out] and not line:find(" %[ref=", 1, true) then
        run = run + 1
      else
        if run > 1 then out[#out] = counted(out[#out], run) end
        run = 1
        out[#out + 1] = line
        for _, p in ipairs(props) do out[#out + 1] = p end
        -- (A line with property lines after it is no longer the last.)
        if #props > 0 then run = 1 end
      end
    end
  end
  if run > 1 then out[#out] = counted(out[#out], run) end
  local folded, refs = fold.runs(out), 0
  for _, l in ipairs(folded) do
    for _ in l:gmatch(" %[ref=[%w_]+%]") do refs = refs + 1 end
  end
  for k = 1, n do lines[k] = folded[k] end
  return refs
end

-- --------------------------------------------------------------- budget

--- How the Lua API names a call in the truncation notice.
function snapshot.lua_call(option, value)
  return ("page:snapshot{%s=%s}"):format(option, value)
end

-- The truncation notice: what was shown, what was left out, and the three
-- ways on, each named by how(option, value).  about: the totals are an
-- estimate (a bridge stopped walking at the budget).
local function notice(c, how)
  local about = c.estimate and "about " or ""
  return note("", ("snapshot truncated: lines %d to %d of %s%d shown; %s%d more lines (about %d tokens) "
    .. "left out. Call %s for the rest, %s for one part, or %s for less depth")
    :format(c.first, c.last, about, c.total, about, c.total - c.last, c.chars // snapshot.CHARS_PER_TOKEN,
      how("offset", c.last), how("root", "REF"), c.fewer or how("depth", "N")))
end

-- The calls of smaller depths than depth, with about how many lines each
-- shows, for the truncation notice ("depth=2 (about 40 lines)"), from
-- the lines before the cut; nil when depth is 1.
local function fewer_levels(lines, depth, how)
  local at = {}
  for _, l in ipairs(lines) do
    local lev = level_of(l) or 0
    at[lev] = (at[lev] or 0) + 1
  end
  local out, n = {}, at[0] or 0
  for d = 1, depth - 1 do
    n = n + (at[d] or 0)
    table.insert(out, 1, ("%s (about %d lines)"):format(how("depth", d), n))
  end
  return #out > 0 and table.concat(out, ", ") or nil
end

-- Cuts the lines at budget_chars by whole lines from line `offset` on and
-- sets text, truncated, line_count (or lines_estimate) and next_offset on
-- res, and with keep res.lines to s.lines when the text is all of them, as
-- they are (s.lines is not changed: one walk may be cut twice).  When a
-- bridge stopped walking at the budget (s.cut), its text ends a line past
-- the cut, and the totals are estimates.
local function cut(res, s, budget_chars, offset, how, keep)
  local lines, used, kept_end, rest = s.lines, 0, nil, 0
  -- The first line shown is kept whole however long; the bridge cuts long
  -- text runs, so only a line it could not cut (a key) is cut here.
  local first, head = lines[offset + 1], nil
  if first and #first > budget_chars then
    local keep = budget_chars
    while keep > 0 and (first:byte(keep + 1) or 0) & 0xC0 == 0x80 do keep = keep - 1 end
    head = first:sub(1, keep) .. ("…(%d more bytes)"):format(#first - keep)
  end
  for i = offset + 1, #lines do
    local n = (i == offset + 1 and head and #head or #lines[i]) + 1
    if kept_end then
      rest = rest + n
    elseif used + n > budget_chars and used > 0 then
      kept_end, rest = i - 1, n
    else
      used = used + n
    end
  end
  local total = #lines + s.more_lines
  if s.cut and not kept_end then kept_end = #lines end
  local last = kept_end or #lines
  local shown
  if head then
    shown = last > offset + 1 and head .. "\n" .. table.concat(lines, "\n", offset + 2, last) or head
  else
    shown = table.concat(lines, "\n", offset + 1, last)
  end
  if shown ~= "" then shown = shown .. "\n" end
  if kept_end then
    shown = shown .. notice({ first = offset + 1, last = kept_end, total = total, estimate = s.cut,
      chars = rest + s.more_chars, fewer = s.fewer }, how) .. "\n"
    res.next_offset = kept_end
  elseif keep and offset == 0 and not head then
    res.lines = lines
  end
  res.text = shown
  res.truncated = kept_end ~= nil
  res[s.cut and "lines_estimate" or "line_count"] = total
end

-- ------------------------------------------------------------- snapshot

-- Refs as the bridges hand them out: e<N>, or f<K>e<N> inside a frame.
local function is_ref(s)
  return s:match("^e%d+$") ~= nil or s:match("^f%d+e%d+$") ~= nil
end

-- Whether s reads as a Playwright locator expression rather than a CSS
-- selector: it starts with a locator method (or `page.`) and a call.
local LOCATOR_START = { "getBy%a+%(", "locator%(", "page%.", "frameLocator%(" }
local function is_locator(s)
  for _, p in ipairs(LOCATOR_START) do
    if s:match("^%s*" .. p) then return true end
  end
  return false
end

-- The ref of a snapshot root given as a ref, a Playwright locator or a
-- CSS selector (as Playwright MCP's browser_snapshot takes its target):
-- a locator or selector must match exactly one element of the frame
-- named `frame` (default the main frame; NotUnique, with the count, when
-- none or several do).  A bare word that no element is as CSS is tried as
-- a role (`banner`: getByRole('banner')).
local function root_ref(page, root, frame)
  if is_ref(root) then return root end
  local kind = is_locator(root) and "locator" or "CSS selector"
  local ok, r = pcall(page.bridge, page, "targetRef",
    { { locator = kind == "locator" and root or ("locator(%s)"):format(json.encode(root)) } }, { frame = frame })
  if ok then return r.ref end
  if vdx.is_error(r, "NotUnique") and kind == "CSS selector" and (math.tointeger(r.count) or 0) == 0
      and root:match("^%l+$") then
    -- A role's name as the root ("banner", "main", "dialog"), which as CSS
    -- is a tag no page has: the element of that role, when there is one.
    local okr, byrole = pcall(page.bridge, page, "targetRef", { { locator = ("getByRole(%s)"):format(
      json.encode(root):gsub('^"(.*)"$', "'%1'")) } }, { frame = frame })
    if okr then return byrole.ref end
  end
  if vdx.is_error(r, "NotUnique") then
    error(vdx.error("NotUnique", ("snapshot root %s (a %s) matches %d elements in the %s frame; give one that "
      .. "matches exactly one element, or its ref from a snapshot"):format(json.encode(root), kind,
      math.tointeger(r.count) or 0, frame or "main"), { root = root, count = r.count, matches = r.matches }), 0)
  end
  error(r, 0)
end

--- snapshot.take(page, opts [, how [, whole_tokens [, keep_lines]]]) -> the result of
-- page:snapshot(opts); how(option, value) names a call in the truncation
-- notice (default snapshot.lua_call; the MCP tool names its own
-- arguments).  whole_tokens, larger than the budget (and with no offset
-- or depth): the bridges walk that far, and the result also carries
-- whole_text, the text cut at whole_tokens, from the same walk (the
-- change report's baseline, vdx.changes.stamp); a view cut at its budget
-- then counts the refs of its lines.  keep_lines: the result also
-- carries the walk's lines of a text that is whole from its first line
-- (lines, and whole_lines beside whole_text), which spare a reader such
-- as the change report's comparison splitting the text again, for twice
-- the text's memory while the result lives; read them only.
function snapshot.take(page, opts, how, whole_tokens, keep_lines)
  opts = check_opts(opts)
  local depth = (opts.depth or 0) > 0 and opts.depth or nil
  local budget = opts.budget_tokens or depth and snapshot.DEPTH_BUDGET or snapshot.DEFAULT_BUDGET
  if whole_tokens and (whole_tokens <= budget or opts.offset or opts.depth) then whole_tokens = nil end
  local offset = opts.offset or 0
  local root = opts.root and root_ref(page, opts.root, opts.frame)
  -- Each bridge stops walking once its text passes the budget.  The depth
  -- counts across frames, so it is applied to the stitched text, and a
  -- bridge then walks whole (its lines past the depth are not text), and
  -- keeps the names it would leave to the lines below (keepNames): the cut
  -- may hide those lines.
  local got = page:snapshot_frames({ root = root,
    maxOptions = opts.max_options or snapshot.FOLD_OPTIONS,
    maxChars = not depth and (whole_tokens or budget) * snapshot.CHARS_PER_TOKEN or nil,
    fromLine = offset, keepNames = depth and true or nil, mode = opts.mode, interactive = opts.interactive or nil },
    { timeout_ms = opts.timeout_ms })
  local main = got.frames[got.root_frame]
  -- The root frame failing is an error: raised afresh, so that it names
  -- the caller's line (err.where), which a returned error did not get.
  if main and not main.ok then
    local e = main.value
    error(vdx.is_error(e) and vdx.error(e.type, tostring(e.message), e) or e, 0)
  end
  local s = stitch(got.frames, got.root_frame)
  if depth then
    s.fewer = fewer_levels(s.lines, depth, how or snapshot.lua_call)
    s.ref_count = cut_depth(s.lines, depth)
  end
  local res = { warnings = s:warning_list(), element_count = s.element_count, ref_count = s.ref_count,
    unmeasurable = s.unmeasurable }
  if main then res.url, res.title = main.value.url, main.value.title end
  if whole_tokens then
    -- One walk, cut twice: the whole text, then the view.
    local whole = {}
    cut(whole, s, whole_tokens * snapshot.CHARS_PER_TOKEN, 0, how or snapshot.lua_call, keep_lines)
    res.whole_text, res.whole_lines = whole.text, whole.lines
  end
  cut(res, s, budget * snapshot.CHARS_PER_TOKEN, offset, how or snapshot.lua_call, keep_lines)
  if whole_tokens and res.truncated then
    -- The refs of the lines shown, as a walk stopped at the budget counts.
    res.ref_count = select(2, res.text:gsub("%[ref=[%w_]+%]", ""))
  end
  return res
end

--- page:snapshot{ budget_tokens = snapshot.DEFAULT_BUDGET, root = nil,
-- frame = nil, depth = nil, offset = nil, max_options = 10, timeout_ms = nil,
-- mode = "ai" } ->
-- { text=, url=, title=, ref_count=, element_count=, unmeasurable=,
-- warnings = {…}, truncated=, line_count= | lines_estimate=,
-- next_offset= }.  Every frame (same-origin and cross-origin) is read by
-- its own bridge, all at once; refs inside frames are f<N>_eM.  A bridge
-- stops walking once its text passes the budget, so a cut snapshot costs
-- about what its text shows; it then gives lines_estimate instead of
-- line_count, and ref_count counts the refs up to the cut.  mode = "aria"
-- prints Playwright's aria-snapshot dialect, the YAML toMatchAriaSnapshot
-- takes: no refs, every name whole (one past 900 characters left off, as
-- Playwright does), and nothing under a visibility:hidden element.
function snapshot.page_snapshot(page, opts)
  return snapshot.take(page, opts)
end

--- Adds page:snapshot to a table of page methods (vdx.Page's __index).
function snapshot.install(methods)
  methods.snapshot = snapshot.page_snapshot
end

return snapshot
