--- vdx.builtin.explore: the snapshot and the structure queries around a
-- ref (resolve_container, inspect_pattern, extract_anchors), locator
-- checks and read_html.  Each answers compact text for the model and the
-- same facts as structuredContent for programs.
local vdx = require "vdx"
local changes = require "vdx.changes"
local clip = require "vdx.clip"
local errors = require "vdx.errors"
local find = require "vdx.find"
local json = require "vdx.json"
local snapshot = require "vdx.snapshot"
local util = require "vdx.builtin.util"

-- The starting points of the structure tools besides a ref.
local START_REF = util.REF
local LOCATOR = { type = "string", minLength = 1,
  description = "Or a Playwright locator of one element" }
local TEXT = { type = "string", minLength = 1,
  description = "Or a text one visible element holds" }

-- Calls page:method(…) on the current page.
local function call(ctx, method, ...)
  local page = ctx:page()
  return page[method](page, ...)
end

-- What browser_read_html says of one read (page:read_html's answer res,
-- in mode): a head line with the size of what it answers and the hidden
-- elements left out, then the markup.  (Not the element's own markup's
-- size beside it: with its refs marked and its shadow roots written out
-- the answer is often the larger, and runs EL, EN and EO read "343 -> 865
-- bytes" and "767 bytes, of 267 in the page" as a reduction gone wrong.)
local function html_text(res, mode)
  local hidden = math.tointeger(res.hidden_left_out) or 0
  -- The first few by name: `<div id="qty"> (2 controls)`.
  local named = ""
  if type(res.hidden_list) == "table" and #res.hidden_list > 0 then
    local list = {}
    for i, s in ipairs(res.hidden_list) do list[i] = clip(tostring(s), 80) end
    named = ": " .. table.concat(list, ", ") .. (hidden > #list and (", and %d more"):format(hidden - #list) or "")
  end
  return ("HTML (%s): %s bytes%s\n"):format(mode, tostring(res.size_after or "?"), hidden > 0 and
      ("; %d hidden element%s left out with all they hold (display: none, a closed <details>: a tab panel or "
        .. "menu not open), read once the page shows them%s"):format(hidden, hidden == 1 and "" or "s", named) or "")
    .. tostring(res.html or "")
end

-- How the truncation notice of browser_snapshot names a call of itself.
local function tool_call(option, value)
  return ("browser_snapshot(%s=%s)"):format(option, value)
end

-- How many matches browser_verify_locator lists.
local MATCHES_SHOWN = 10

-- One listed match: `1. button "Add to Cart" <button> [ref=e3]`, with its
-- text when the name does not say it, and "hidden" when Playwright would
-- not call it visible.  A match without a ref says so (an assertion
-- target or a container is still a match).
local function match_line(i, m)
  local function str(v) return type(v) == "string" and v or nil end
  local role, name, text = str(m.role), str(m.name) or "", str(m.text) or ""
  local parts = { ("%d. %s"):format(i, role or "(no role)") }
  if name ~= "" then parts[#parts + 1] = json.encode(name) end
  parts[#parts + 1] = "<" .. (str(m.tag) or "?") .. ">"
  if text ~= "" and text ~= name then parts[#parts + 1] = "text " .. json.encode(text) end
  if m.visible == false then parts[#parts + 1] = "hidden" end
  parts[#parts + 1] = str(m.ref) and ("[ref=" .. m.ref .. "]") or "(no ref)"
  return table.concat(parts, " ")
end

-- The list-valued fields of the structure tools' answers, marked as JSON
-- arrays (the bridge's empty lists arrive as empty tables).
local LISTS = { ancestors = true, refs = true, siblings = true, contains_text = true, outline = true,
  descendants = true }

local function mark_lists(t)
  for k, v in pairs(t) do
    if type(v) == "table" then
      mark_lists(v)
      if LISTS[k] then json.array(v) end
    end
  end
  return t
end

local function explored(title, res)
  mark_lists(res)
  return { text = title .. "\n" .. util.render(res), structured = res }
end

-- The ref a structure tool starts from (ref, locator or text) and how the
-- answer names it.
local function start(ctx, args)
  local ref = find.start(ctx:page(), args)
  if args.ref then return ref, ref end
  return ref, ("%s (%s %s)"):format(ref, args.locator and "locator" or "text", args.locator or json.encode(args.text))
end

-- How many candidate levels inspect_pattern tries without a level.
local AUTO_TRIES = 4

-- The level of ref's nearest ancestor that repeats among its siblings (a
-- card among cards, a row among rows: two or more of the siblings share
-- its tag), and inspect_pattern's answer there.  The candidates are the
-- ancestors whose parent has more than one child element
-- (resolve_container's counts); the first of them when none repeats.
local function repeated_level(ctx, ref, opts)
  local rc = call(ctx, "resolve_container", ref, { max_refs = 1, max_text = 10 })
  -- Level 0 is the element itself when it holds elements (a card given by
  -- its own text; not a cell among its row's cells).
  local t = rc.target or {}
  local chain = {}
  if (math.tointeger(t.child_elements) or 0) > 0 then chain[1] = { level = 0, tag = t.tag, attributes = t.attributes } end
  for _, a in ipairs(rc.ancestors or {}) do chain[#chain + 1] = a end
  -- Alike: the same tag, test id and role (a list beside a list is no pattern).
  local function kind(e)
    local at = e.attributes or {}
    return tostring(e.tag) .. "\0" .. tostring(at["data-testid"]) .. "\0" .. tostring(at.role)
  end
  local first
  local tries = 0
  for i, a in ipairs(chain) do
    local parent = chain[i + 1]
    if parent and (math.tointeger(parent.child_elements) or 0) > 1 and tries < AUTO_TRIES then
      tries = tries + 1
      local res = call(ctx, "inspect_pattern", ref, a.level, opts)
      first = first or { a.level, res }
      local alike = 0
      for _, sib in ipairs(res.siblings or {}) do
        if kind(sib) == kind(a) then alike = alike + 1 end
      end
      if alike >= 2 then return a.level, res end
    end
  end
  if first then return first[1], first[2] end
  return 1, call(ctx, "inspect_pattern", ref, 1, opts)
end

return {
  {
    name = "browser_snapshot",
    title = "Page snapshot",
    description = "Accessibility snapshot of the page, with a ref on each element you can act on or ask about.",
    input = { type = "object", properties = {
      budget_tokens = { type = "integer", minimum = 100, maximum = 200000,
        description = ("Size limit in tokens (default %d)"):format(snapshot.DEFAULT_BUDGET) },
      root = { type = "string", description = "Only one element's subtree: a ref, CSS selector or Playwright locator" },
      target = { type = "string", description = "Alias of root (Playwright MCP's name)" },
      depth = { type = "integer", minimum = 1, maximum = 100,
        description = "Levels below the top; a cut line ends in [+N]" },
      offset = { type = "integer", minimum = 0, description = "Go on from next_offset" },
      interactive = { type = "boolean", description = "Only what you can act on (same refs)" },
    } },
    annotations = { readOnlyHint = true },
    run = function(ctx, args)
      local page = ctx:page()
      local opts = util.pick(args, { budget_tokens = "budget_tokens", root = "root",
        depth = "depth", offset = "offset", interactive = "interactive" })
      if args.target ~= nil then
        if args.root ~= nil then
          error(vdx.error("InvalidArgument", "give one of root and target (the same thing: the snapshot's root)",
            { field = "target" }), 0)
        end
        opts.root = args.target
      end
      if opts.root then opts.max_options = snapshot.ROOT_OPTIONS end
      -- The truncation notice names this tool's arguments.
      local ok, snap = pcall(snapshot.take, page, opts, tool_call, changes.whole_tokens(opts), true)
      if not ok and vdx.is_error(snap, "ElementNotVisible") and snap.empty == true then
        -- A root with nothing in it (an empty list, a main the app fills
        -- later) is what the page shows, no element to open: run ER read
        -- the error's advice to open a menu.
        return { text = ("%s shows nothing now (%s: empty, or filled later; browser_wait_for waits for what it "
          .. "should show)"):format(tostring(opts.root), tostring(snap.reason)),
          structured = { empty = true, root = opts.root } }
      end
      if not ok then error(snap, 0) end
      local fatal, warnings = errors.decide(ctx.role.failures:drain())
      if fatal then error(fatal, 0) end
      for _, w in ipairs(snap.warnings or {}) do warnings[#warnings + 1] = w end
      ctx.role.last_snapshot = changes.stamp(page, snap, opts, ctx.role)
      -- The role is named only where there is another to tell it from.
      -- The URL and title unless this role's last answer told them (changes.page_head).
      local head = changes.page_head(ctx.role, page, snap.url, snap.title, (snap.text or "") == "")
      if type(ctx.roles) == "table" and ctx.roles:count() > 1 then head = head .. "Role: " .. ctx.role.name .. "\n" end
      return { text = head .. (snap.text or "") .. errors.warnings_text(warnings),
        structured = { url = snap.url, title = snap.title, ref_count = snap.ref_count,
          element_count = snap.element_count, truncated = snap.truncated and true or false,
          next_offset = snap.next_offset, warnings = warnings } }
    end,
  },
  {
    name = "browser_find",
    title = "Find in the page",
    description = "Find snapshot lines by text, regex or role and name: each with its ref and the containers above it.",
    input = { type = "object", properties = {
      text = { type = "string", minLength = 1, description = "Case-insensitive substring of a line" },
      regex = { type = "string", minLength = 1, description = "JavaScript regex (/source/flags) on a line's role, name, text or printed form" },
      role = { type = "string", minLength = 1, description = "ARIA role as the snapshot prints it" },
      name = { type = "string", minLength = 1, description = "With role: a substring of the name" },
      within = { type = "string", minLength = 1, description = "Only matches in the row or card that shows this text (alone: that row or card)" },
      max = { type = "integer", minimum = 1, maximum = 100, description = ("Matches shown (default %d)"):format(find.MAX) },
      context = { type = "integer", minimum = 0, maximum = 60,
        description = "Lines of its container shown after each match (default 0)" },
    } },
    annotations = { readOnlyHint = true },
    run = function(ctx, args)
      local page = ctx:page()
      args = find.asked(args)
      local res = find.run(page, args)
      -- The whole snapshot it read is the next change report's baseline.
      ctx.role.last_snapshot = require("vdx.changes").stamp(page, res.snapshot,
        { budget_tokens = require("vdx.changes").BUDGET_TOKENS }, ctx.role)
      local fatal = errors.decide(ctx.role.failures:drain())
      if fatal then error(fatal, 0) end
      return { text = find.text(res, args),
        structured = { url = res.url, title = res.title, total = res.total, shown = res.shown, matches = res.matches } }
    end,
  },
  {
    name = "resolve_container",
    title = "Resolve container",
    description = "Step 1 of container -> pattern -> anchors: an element's ancestors (tags, attributes, ARIA state, refs).",
    input = { type = "object", properties = {
      ref = START_REF, locator = LOCATOR, text = TEXT, element = util.ELEMENT,
      max_refs = { type = "integer", minimum = 1, maximum = 500, description = "Refs listed per ancestor" },
      max_text = { type = "integer", minimum = 10, maximum = 2000, description = "Characters of text kept" },
    } },
    annotations = { readOnlyHint = true },
    run = function(ctx, args)
      local ref, label = start(ctx, args)
      local res = call(ctx, "resolve_container", ref,
        util.pick(args, { max_refs = "max_refs", max_text = "max_text" }))
      return explored("Container of " .. label .. ":", res)
    end,
  },
  {
    name = "inspect_pattern",
    title = "Inspect pattern",
    description = "Step 2: an ancestor's siblings, outlined: does the container repeat (cards, rows)?",
    input = { type = "object", properties = {
      ref = START_REF, locator = LOCATOR, text = TEXT, element = util.ELEMENT,
      level = { type = "integer", minimum = 0, description = "Ancestor level as resolve_container lists it (default: the nearest repeated one)" },
      max_siblings = { type = "integer", minimum = 1, maximum = 200, description = "Siblings shown (default 20)" },
    } },
    annotations = { readOnlyHint = true },
    run = function(ctx, args)
      local ref, label = start(ctx, args)
      local opts = util.pick(args, { max_siblings = "max_siblings" })
      local level, res = args.level, nil
      if level then
        res = call(ctx, "inspect_pattern", ref, level, opts)
      else
        level, res = repeated_level(ctx, ref, opts)
      end
      mark_lists(res)
      return { text = require("vdx.pattern_text").render(label, level, res), structured = res }
    end,
  },
  {
    name = "extract_anchors",
    title = "Extract anchors",
    description = "Step 3: an ancestor's descendants (tags, attributes, roles, names, text, refs): the stable anchors.",
    input = { type = "object", properties = {
      ref = START_REF, locator = LOCATOR, text = TEXT, element = util.ELEMENT,
      level = { type = "integer", minimum = 0, description = "Ancestor level as resolve_container lists it (0: the element; default: nearest repeated)" },
      max_depth = { type = "integer", minimum = 1, maximum = 20, description = "Depth below the ancestor (default 4)" },
      max_children = { type = "integer", minimum = 1, maximum = 200, description = "Children per parent (default 15)" },
      max_total = { type = "integer", minimum = 1, maximum = 1000, description = "Descendants in total (default 100)" },
    } },
    annotations = { readOnlyHint = true },
    run = function(ctx, args)
      local ref, label = start(ctx, args)
      -- (Without level: the card or row inspect_pattern would pick; run AB
      -- was told only that level is required.)
      local level = args.level or repeated_level(ctx, ref, {})
      local res = call(ctx, "extract_anchors", ref, level,
        util.pick(args, { max_depth = "max_depth", max_children = "max_children", max_total = "max_total" }))
      return explored(("Anchors at level %d of %s%s:"):format(level, label,
        args.level and "" or " (the nearest repeated ancestor)"), res)
    end,
  },
  {
    name = "browser_verify_locator",
    title = "Verify locator",
    description = "Count and list the elements a Playwright locator matches: prove it unique before a test uses it.",
    input = { type = "object", required = { "locator" }, properties = {
      locator = { type = "string", minLength = 1, description = "Playwright locator (getByRole, getByTestId, filter, …)" },
    } },
    annotations = { readOnlyHint = true },
    run = function(ctx, args)
      local res = call(ctx, "locator_count", args.locator, { details = MATCHES_SHOWN })
      local n = res.count or 0
      local verdict = n == 1 and "✅ Unique: matches exactly 1 element"
        or n == 0 and "❌ Matches no element"
        or ("⚠️ Not unique: matches %d elements (a count for toHaveCount; to act on or assert on one, "
          .. "scope it to a container or filter it)"):format(n)
      local out = { verdict, "Locator: " .. args.locator }
      -- One that picks by place hides the others it picks from (run DH
      -- read "Unique" of a .first() over two).
      local base, pick
      for _, by_place in ipairs { "first%(%)", "last%(%)", "nth%(%s*%-?%d+%s*%)" } do
        base, pick = args.locator:match("^(.-)%.(" .. by_place .. ")%s*$")
        if base then break end
      end
      if n == 1 and base and base ~= "" then
        local okb, all = pcall(call, ctx, "locator_count", base, {})
        local m = okb and type(all) == "table" and all.count or 0
        if m > 1 then
          out[1] = ("⚠️ Unique only by place: .%s picks 1 of the %d elements %s matches, and picks another when "
            .. "their order changes: scope or filter it to the one you mean"):format(pick, m, base)
        end
      end
      -- A chain through frames that stopped on its way says where.
      if n == 0 and type(res.why) == "string" then out[#out + 1] = "Why: " .. res.why end
      if n == 0 and not res.why and ctx.session then
        -- (Runs BU, BZ and CA wanted "nothing was added" in the test.)
        out[#out + 1] = "A typo's locator matches nothing too: check what shows instead as well (a status, the "
          .. "rows left)."
      end
      for i, m in ipairs(res.matches or {}) do out[#out + 1] = match_line(i, m) end
      if n > MATCHES_SHOWN then out[#out + 1] = ("… and %d more"):format(n - MATCHES_SHOWN) end
      local result = { text = table.concat(out, "\n"), structured = { count = n, matches = json.array(res.matches or {}) } }
      -- None left is a check the export keeps by id (an empty cart's
      -- lines: runs EM and EP found no tool that records it).
      if n == 0 and not res.why and ctx.session then
        local step = { matcher = "toHaveCount", locator = args.locator, value = n }
        step.code = require("vdx.assertions").code(step)
        return changes.proposed(ctx, result, { step })
      end
      return result
    end,
  },
  {
    name = "browser_read_html",
    title = "Read HTML",
    description = "The page's markup, reduced to form (controls, labels), text (prose) or full (no scripts, styles).",
    input = { type = "object", properties = {
      mode = { type = "string", enum = { "form", "text", "full" }, description = "What to keep (default form)" },
      ref = { type = "string", description = "Only this ref's subtree (an iframe's: its document too)" },
    } },
    annotations = { readOnlyHint = true },
    run = function(ctx, args)
      local page = ctx:page()
      local mode = args.mode or "form"
      local res = page:read_html { mode = mode, root = args.ref }
      local out = { html_text(res, mode) }
      -- A frame's document is not in its <iframe>'s markup: the one the ref
      -- names is read with it (run AD read a payment <iframe>'s tag, then
      -- asked again by a ref inside it); others are named.
      local others = {}
      for _, f in ipairs(type(res.frames) == "table" and res.frames or {}) do
        if f.root then
          local ok, sub = pcall(page.read_html, page, { mode = mode, frame = f.frame })
          if ok then
            res.frame_document = sub
            out[#out + 1] = ("Frame %s's document (its refs start %se): %s"):format(f.frame, f.frame, html_text(sub, mode))
          else
            out[#out + 1] = ("Frame %s's document could not be read: %s"):format(f.frame,
              tostring(require("vdx.errors").normalize(sub).message))
          end
        else
          others[#others + 1] = f.ref and ("%s (<iframe> ref %s)"):format(f.frame, f.ref) or f.frame
        end
      end
      if #others > 0 then
        out[#out + 1] = ("Frames here whose documents this leaves out: %s; browser_read_html ref= an <iframe>'s ref "
          .. "reads its document"):format(table.concat(others, ", "))
      end
      return { text = table.concat(out, "\n"), structured = res }
    end,
  },
}
