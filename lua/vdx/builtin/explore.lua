--- vdx.builtin.explore: the snapshot and the structure queries around a
-- ref (resolve_container, inspect_pattern, extract_anchors), locator
-- checks and read_html.  Each answers compact text for the model and the
-- same facts as structuredContent for programs.
local changes = require "vdx.changes"
local errors = require "vdx.errors"
local json = require "vdx.json"
local snapshot = require "vdx.snapshot"
local util = require "vdx.builtin.util"

local REF = util.REF
local LEVEL = { type = "integer", minimum = 1, description = "Ancestor level (1 = parent), as listed by resolve_container" }

-- Calls page:method(…) on the current page.
local function call(ctx, method, ...)
  local page = ctx:page()
  return page[method](page, ...)
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

local function explored(title, res)
  return { text = title .. "\n" .. util.render(res), structured = res }
end

return {
  {
    name = "browser_snapshot",
    title = "Page snapshot",
    description = "Capture an accessibility snapshot of the current page, with a ref for every element you can act on or ask about.\nBetter than a screenshot for acting: refs feed browser_click, resolve_container and the rest.",
    input = { type = "object", properties = {
      budget_tokens = { type = "integer", minimum = 100, maximum = 200000,
        description = ("Size limit of the snapshot in tokens (default %d)"):format(snapshot.DEFAULT_BUDGET) },
      root = { type = "string", description = "Snapshot only the subtree of this ref" },
      depth = { type = "integer", minimum = 1, maximum = 100, description = "Maximum tree depth" },
      offset = { type = "integer", minimum = 0, description = "Continue a truncated snapshot from next_offset" },
    } },
    output = { type = "object", properties = {
      url = { type = "string" }, title = { type = "string" }, ref_count = { type = "integer" },
      element_count = { type = "integer" }, truncated = { type = "boolean" },
      next_offset = { type = "integer" }, warnings = { type = "array" } } },
    annotations = { readOnlyHint = true },
    run = function(ctx, args)
      local page = ctx:page()
      local opts = util.pick(args, { budget_tokens = "budget_tokens", root = "root",
        depth = "depth", offset = "offset" })
      -- The truncation notice names this tool's arguments.
      local snap = snapshot.take(page, opts, tool_call)
      local fatal, warnings = errors.decide(ctx.role.failures:drain())
      if fatal then error(fatal, 0) end
      for _, w in ipairs(snap.warnings or {}) do warnings[#warnings + 1] = w end
      ctx.role.last_snapshot = changes.stamp(page, snap, opts, ctx.role)
      local head = ("Page URL: %s\nPage Title: %s\nRole: %s\n"):format(tostring(snap.url),
        tostring(snap.title or ""), ctx.role.name)
      return { text = head .. (snap.text or "") .. errors.warnings_text(warnings),
        structured = { url = snap.url, title = snap.title, ref_count = snap.ref_count,
          element_count = snap.element_count, truncated = snap.truncated and true or false,
          next_offset = snap.next_offset, warnings = warnings } }
    end,
  },
  {
    name = "resolve_container",
    title = "Resolve container",
    description = "The target element of a ref and its ancestors up to body: tag, test-id style attributes, child counts and the refs each contains.\nStep 1 of container -> pattern -> anchors.",
    input = { type = "object", required = { "ref" }, properties = {
      ref = REF, element = util.ELEMENT,
      max_refs = { type = "integer", minimum = 1, maximum = 500, description = "Refs listed per ancestor" },
      max_text = { type = "integer", minimum = 10, maximum = 2000, description = "Characters of text kept" },
    } },
    annotations = { readOnlyHint = true },
    run = function(ctx, args)
      local res = call(ctx, "resolve_container", args.ref,
        util.pick(args, { max_refs = "max_refs", max_text = "max_text" }))
      return explored("Container of " .. args.ref .. ":", res)
    end,
  },
  {
    name = "inspect_pattern",
    title = "Inspect pattern",
    description = "The siblings of the ancestor at a level: how many, which one holds the target, and a short outline of each.\nStep 2: shows whether the container repeats (cards, rows).",
    input = { type = "object", required = { "ref", "level" }, properties = {
      ref = REF, level = LEVEL, element = util.ELEMENT,
      max_siblings = { type = "integer", minimum = 1, maximum = 200, description = "Siblings shown (default 20)" },
    } },
    annotations = { readOnlyHint = true },
    run = function(ctx, args)
      local res = call(ctx, "inspect_pattern", args.ref, args.level,
        util.pick(args, { max_siblings = "max_siblings" }))
      return explored(("Pattern at level %d of %s:"):format(args.level, args.ref), res)
    end,
  },
  {
    name = "extract_anchors",
    title = "Extract anchors",
    description = "The descendants of the ancestor at a level (bounded): tags, attributes, refs, roles, names and text.\nStep 3: pick the stable anchors a locator can use.",
    input = { type = "object", required = { "ref", "level" }, properties = {
      ref = REF, level = LEVEL, element = util.ELEMENT,
      max_depth = { type = "integer", minimum = 1, maximum = 20, description = "Depth below the ancestor (default 4)" },
      max_children = { type = "integer", minimum = 1, maximum = 200, description = "Children per parent (default 15)" },
      max_total = { type = "integer", minimum = 1, maximum = 1000, description = "Descendants in total (default 100)" },
    } },
    annotations = { readOnlyHint = true },
    run = function(ctx, args)
      local res = call(ctx, "extract_anchors", args.ref, args.level,
        util.pick(args, { max_depth = "max_depth", max_children = "max_children", max_total = "max_total" }))
      return explored(("Anchors at level %d of %s:"):format(args.level, args.ref), res)
    end,
  },
  {
    name = "browser_verify_locator",
    title = "Verify locator",
    description = "Count the elements a Playwright locator expression matches on the live page, e.g. getByTestId(\"card\").filter({ hasText: \"X\" }).getByRole(\"button\", { name: \"Add\" }).\nUse it to prove a locator is unique before writing it into a test. Lists the first 10 matches (ARIA role, name, tag, text, whether visible, and the ref or none: assertion targets and containers match without one).",
    input = { type = "object", required = { "locator" }, properties = {
      locator = { type = "string", minLength = 1, description = "A Playwright locator expression (getByRole, getByTestId, getByText, getByLabel, locator, filter, first, last, nth)" },
    } },
    annotations = { readOnlyHint = true },
    run = function(ctx, args)
      local res = call(ctx, "locator_count", args.locator, { details = MATCHES_SHOWN })
      local n = res.count or 0
      local verdict = n == 1 and "✅ Unique: matches exactly 1 element"
        or n == 0 and "❌ Matches no element"
        or ("⚠️ Ambiguous: matches %d elements; scope it to a container or filter it"):format(n)
      local out = { verdict, "Locator: " .. args.locator }
      for i, m in ipairs(res.matches or {}) do out[#out + 1] = match_line(i, m) end
      if n > MATCHES_SHOWN then out[#out + 1] = ("… and %d more"):format(n - MATCHES_SHOWN) end
      return { text = table.concat(out, "\n"), structured = { count = n, matches = json.array(res.matches or {}) } }
    end,
  },
  {
    name = "browser_read_html",
    title = "Read HTML",
    description = "Markup reduced to what is worth reading: form (interactive surface and its labels), text (the prose) or full (structure without scripts, styles and noise).\nComputed on a clone; every interactive element keeps its ref.",
    input = { type = "object", properties = {
      mode = { type = "string", enum = { "form", "text", "full" }, description = "What to keep (default form)" },
      ref = { type = "string", description = "Read only the subtree of this ref" },
    } },
    annotations = { readOnlyHint = true },
    run = function(ctx, args)
      local res = call(ctx, "read_html", { mode = args.mode, root = args.ref })
      local head = ("HTML (%s): %s -> %s bytes\n"):format(args.mode or "form",
        tostring(res.size_before or "?"), tostring(res.size_after or "?"))
      return { text = head .. tostring(res.html or ""), structured = res }
    end,
  },
}
