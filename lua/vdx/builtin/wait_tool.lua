--- vdx.builtin.wait_tool: browser_wait_for, a wait for a text to show or
-- go, an element's state, a URL, a predicate or a time; one that a test
-- can check is recorded as its web-first assertion (vdx.wait.code_lines).
local vdx = require "vdx"
local util = require "vdx.builtin.util"

-- The frames of page other than the main one where expr (a locator as a
-- wait takes it) matches, at most 3.  A page-wide locator does not reach
-- into a frame.
local function frames_showing(page, expr)
  local ok, list = pcall(page.frames, page)
  local found = {}
  if not ok or type(list) ~= "table" then return found end
  for _, f in ipairs(list) do
    if f.frame ~= "main" then
      local okf, r = pcall(require("vdx.assertions").facts, page, expr, { limit = 1, frame = f.frame })
      if okf and r.count > 0 then found[#found + 1] = f.frame end
      if #found == 3 then break end
    end
  end
  return found
end

-- Where the frames found (frames_showing's) match: "it shows in frame
-- f1: give frame \"f1\" (…)", or nil when none does.
local function where_of(found)
  if #found == 0 then return nil end
  return ("it shows in frame %s, which a wait without frame does not look into: give frame %q (the test then "
    .. "reaches it through the frame's locator)"):format(table.concat(found, ", "), found[1])
end

-- The wait o as a replay in page p takes it: a child frame's found again
-- by path, its chain of owners from the main document (frame names are a
-- page's own).
local function in_frame_of(p, o, path)
  if not path then return o end
  local frame, why = require("vdx.locators").descend(p, path .. ".locator(':root')")
  if not frame then error(vdx.error("Timeout", "the wait's frame is not there: " .. tostring(why)), 0) end
  local w = {}
  for k, v in pairs(o) do w[k] = v end
  w.frame = frame
  return w
end

-- How often a wait in the main document looks into the page's frames.
local FRAME_LOOK_MS = 2000

-- pcall(page.wait_for, page, opts) for a wait in the main document of
-- what expr (a locator) finds, on a page with frames: in slices of
-- FRAME_LOOK_MS, after each of which it looks into the frames, and one
-- that shows it ends the wait at once with a Timeout that names it (run
-- AH waited its whole 30 s for "Gateway timeout", which the payment
-- frame had shown from the start).  A wait that ends counts its whole
-- time in waited_ms.
local function wait_main(page, opts, expr)
  local okf, frames = pcall(page.frames, page)
  if not expr or opts.frame or not okf or type(frames) ~= "table" or #frames < 2 then
    return pcall(page.wait_for, page, opts)
  end
  local total = opts.timeout_ms or page:default_timeout()
  local start = vdx.now()
  local slice = {}
  for k, v in pairs(opts) do slice[k] = v end
  while true do
    local left = start + total - vdx.now()
    slice.timeout_ms = math.max(0, math.floor(math.min(FRAME_LOOK_MS, left)))
    local ok, res = pcall(page.wait_for, page, slice)
    if ok then
      res.waited_ms = vdx.now() - start
      return true, res
    end
    if not vdx.is_error(res, "Timeout") then return false, res end
    local where = where_of(frames_showing(page, expr))
    if where and left > FRAME_LOOK_MS then
      return false, vdx.error("Timeout", ("%s did not show in the main document within %d ms, and the wait stopped "
        .. "there: %s"):format(expr, vdx.now() - start, where), { timeout_ms = total })
    end
    if left <= FRAME_LOOK_MS then
      -- (The last slice's own timeout is no news: run AP read "Timeout
      -- (ms): 1775" over "within 70000 ms".)
      res.message = res.message:gsub("within %d+ ms", ("within %d ms"):format(total), 1)
      res.timeout_ms = total
      if where then res.message = res.message .. "; " .. where end
      return false, res
    end
  end
end

-- The field whose value holds text, as `textbox "Product name"`, or nil:
-- a text there is no text getByText finds.
local function in_field(page, text)
  local ok, f = pcall(require("vdx.assertions").facts, page, "locator('input, textarea')", { limit = 50 })
  for _, m in ipairs(ok and f.matches or {}) do
    if type(m.value) == "string" and m.value:find(text, 1, true) then
      return (m.name ~= "" and ("%s %q"):format(m.role or "textbox", m.name)) or (m.role or "a field")
    end
  end
  return nil
end

return {
  name = "browser_wait_for",
  title = "Wait for",
  description = "Wait for a text to show or go, an element's state, a URL, a predicate or a time.",
  input = { type = "object", properties = {
    time = { type = "number", minimum = 0, maximum = 60, description = "Seconds" },
    text = { type = "string", description = "Text to show" },
    textGone = { type = "string", description = "Text to go" },
    ref_gone = { type = "string", description = "Ref whose element should go" },
    ref = { type = "string", description = "Ref to reach state" },
    locator = { type = "string", description = "Playwright locator of one element to reach state" },
    selector = { type = "string", description = "CSS selector of one element to reach state" },
    state = { type = "string", enum = { "visible", "hidden", "attached", "detached" },
      description = "Default visible" },
    url = { type = "string", description = "URL glob (`**/done`) or exact" },
    ["function"] = { type = "string", description = "Read-only predicate () => … to be truthy" },
    frame = { type = "string", description = "Frame (f1, …) of text or locator (default main)" },
    timeout = { type = "integer", minimum = 0, maximum = 120000,
      description = "Milliseconds (default: the page's)" },
  } },
  annotations = { readOnlyHint = true },
  run = function(ctx, args)
    local conds = { "text", "textGone", "ref_gone", "ref", "locator", "selector", "url", "function" }
    local any = args.time ~= nil
    for _, k in ipairs(conds) do any = any or args[k] ~= nil end
    if not any then
      error(vdx.error("InvalidArgument", "give time, text, textGone, ref_gone, ref, locator, selector, url or function",
        { field = "text", expected = "one of time, text, textGone, ref_gone, ref, locator, selector, url, function" }), 0)
    end
    local page = ctx:page()
    if args.time and not (args.text or args.textGone or args.ref_gone) then
      -- One wait: a cancellation wakes it with a Cancelled error.
      local ms = math.floor(args.time * 1000)
      vdx.sleep(ms)
      if not ctx.session then return ("Waited %g s"):format(args.time) end
      -- A step of the test as the agent took it (run S's wait, left
      -- out, let a check run before the page reacted).
      local line = ("await {page}.waitForTimeout(%d);"):format(ms)
      local step = util.record(ctx, { kind = "code", tool = "browser_wait_for", lines = { line },
        replay = function() vdx.sleep(ms) end })
      local no = type(step) == "table" and step.no
      return ("Waited %g s. Recorded: %s\nA fixed wait is slow and may still be too short: a wait for what it "
        .. "waits for (browser_wait_for text, textGone, locator or url) is steadier%s"):format(args.time,
        require("vdx.pw_spec").code_lines({ line }, nil, true)[1],
        no and ("; browser_export_test drop=[%d] takes this one out"):format(no) or "")
    end
    local opts = { text = args.text, text_gone = args.textGone, ref_gone = args.ref_gone,
      ref = args.ref, locator = args.locator, selector = args.selector, state = args.state, url = args.url,
      fn = args["function"], frame = args.frame, timeout_ms = args.timeout }
    -- An element, URL or predicate wait, or a text that goes, is a step
    -- of the exported test (a ref's locator taken now: the element may
    -- leave); a text to show is not.  The answer says which.
    local loc = args.ref and util.locator_of(ctx, { ref = args.ref })
    if args.ref_gone and not loc then
      -- An element that goes is checked hidden (toBeHidden: gone or not shown).
      -- (Its page error says the role and name of one gone already.)
      local okl, l, stale = pcall(util.locator_of, ctx, { ref = args.ref_gone })
      loc = okl and l and not l.positional and l or nil
      local e = not loc and okl and stale ~= nil and require("vdx.errors").normalize(stale)
      if e and e.type == "StaleRef" and type(e.role) == "string" and e.role ~= "" and type(e.name) == "string"
          and e.name ~= "" then
        -- Gone already (a dialog an action closed): by the role and name
        -- it had, as the test checks it (run BA's wait recorded nothing).
        loc = { locator = require("vdx.assertions").by_role(e.role, e.name) }
      end
    end
    -- A locator to be hidden, or a text to go, that no element shows
    -- already: its check would pass for a wrong one too (a typo, a
    -- renamed element, a message the app never shows).
    local pw, expr = require "vdx.pw_spec", nil
    if (args.state == "hidden" or args.state == "detached") and (args.locator or args.selector) then
      expr = args.locator or ("locator(" .. pw.quote(args.selector) .. ")")
    elseif args.textGone and not (args.text or args.ref or args.ref_gone or args.locator or args.selector
        or args.url or args["function"]) then
      -- (Hidden or shown: a text the page holds at all is no typo.)
      expr = "getByText(" .. pw.quote(args.textGone) .. ")"
    end
    local absent, moved, found
    if expr and not args.frame then
      local okf, f = pcall(require("vdx.assertions").facts, page, expr, { limit = 1 })
      absent = okf and f.count == 0
      -- Shown in no element of the main document and in one frame's: the
      -- wait is that frame's (run CF's "Service unavailable", in the
      -- payment frame, was recorded as a check in the page that passed
      -- at once).
      found = absent and frames_showing(page, expr) or {}
      if #found == 1 then opts.frame, moved, absent = found[1], found[1], false end
    end
    -- A wait in a child frame is checked in the test through the frame's
    -- owner (getByTitle('Payment').contentFrame().getByText(…)).
    local framed_path
    if opts.frame and opts.frame ~= "main" then
      local okp, path = pcall(require("vdx.locators").frame_path, page, opts.frame)
      framed_path = okp and path or nil
    end
    -- A text the page's frames show and the main document does not (run
    -- AB's "Gateway timeout", inside the payment iframe) ends the wait.
    local shown = (args.text or args.locator) and not (args.textGone or args.ref_gone)
      and (args.text and ("getByText(" .. pw.quote(args.text) .. ")") or args.locator)
    local okw, res = wait_main(page, opts, shown or nil)
    if not okw then
      -- (A condition that did not come is told in short: error_catalog.)
      if vdx.is_error(res, "Timeout") and type(res) == "table" then
        res.wait = true
        if moved then
          res.message = tostring(res.message):gsub("( within %d+ ms)", ("%%1 in frame %s (the main document never "
            .. "showed it)"):format(moved), 1)
        end
      end
      error(res, 0)
    end
    -- The test and the gate's replay find the element by its locator: a
    -- ref is this page's own.
    local step_opts = opts
    if loc then
      step_opts = {}
      for k, v in pairs(opts) do step_opts[k] = v end
      step_opts.ref, step_opts.ref_gone, step_opts.locator = nil, nil, loc.locator
      -- (A ref's locator leads into its frame from the page already.)
      step_opts.frame, framed_path = nil, nil
      if args.ref_gone then step_opts.state = "hidden" end
    end
    -- A role locator of an element hidden all along matched nothing
    -- (getByRole skips hidden elements): the same with includeHidden
    -- finds it, and its check then says something.
    local hidden_alt
    if absent and args.locator and not loc then
      local alt = pw.include_hidden(expr)
      local okf, f = pcall(require("vdx.assertions").facts, page, alt or "", { limit = 1 })
      if alt and okf and f.count == 1 then
        hidden_alt = alt
        step_opts = {}
        for k, v in pairs(opts) do step_opts[k] = v end
        step_opts.locator = alt
      end
    end
    local slow = util.waited(ctx, type(res) == "table" and tonumber(res.waited_ms) or 0)
    local lines = require("vdx.wait").code_lines(step_opts, nil, slow, framed_path)
    local said = moved and ("Waited in frame %s: the main document never showed it, that frame does"):format(moved)
      or "Wait finished"
    if lines and ctx.session then
      step_opts.timeout_ms = nil
      local step = util.record(ctx, { kind = "code", tool = "browser_wait_for", lines = lines,
        -- (Read from the step as the run has it: a text with {run} is
        -- the run's own. Run AD's wait for its product to be absent saw
        -- the session's product, still in the live shop, in every replay.)
        wait = step_opts,
        replay = function(p, st) p:wait_for(in_frame_of(p, st and st.wait or step_opts, framed_path)) end })
      -- (Its step number, as the verify tools say theirs: run DA could
      -- not drop a wait it recorded.)
      said = said .. ". Recorded: "
        .. require("vdx.remembered").in_test(require("vdx.pw_spec").code_lines(lines, nil, true)[1], ctx.session)
        .. (type(step) == "table" and step.no and (" (step %d)"):format(step.no) or "")
      if hidden_alt then
        -- (One statement: run AT read "matched nothing" and "finds the
        -- one" as a contradiction, AV "cannot fail" as overstated, and
        -- BF a paragraph for a one-line check.)
        -- (Run CE read "would hold for a locator that names nothing" as
        -- said of the other form only, and "count: 0" as the element gone.)
        said = said .. "\n(includeHidden: getByRole skips hidden elements; with it the locator finds the one the "
          .. "page holds hidden now, so the test names a real element. The check fails when it shows.)"
        if type(res) == "table" then res.count = 1 end
      elseif absent and (expr:find("{run}", 1, true) or (ctx.session:run_token() and
          expr:find(ctx.session:run_token(), 1, true))) then
        -- (A text with {run} is absent until the test makes it: run AD's
        -- "not in the shop yet" was told it proved nothing.)
        said = said .. "\nIt matched nothing before the wait either: a text with {run} is new in each run, so it "
          .. "is absent until the test makes it; a check after that it shows makes this one count"
        -- (Run BU's name was in a field the submit refused, which
        -- getByText never reads: the check could not fail.)
        local typed = args.textGone and in_field(page, args.textGone)
        if typed then
          said = said .. (".\n⚠️ The page holds it in the value of %s, which getByText does not read: this check "
            .. "cannot fail. To check nothing was added, check where it would show (a row, the list's count)")
            :format(typed)
        end
        local no = type(step) == "table" and step.no
        if no then said = said .. ("; browser_export_test drop=[%d] takes this one out"):format(no) end
      elseif absent then
        local no = type(step) == "table" and step.no
        -- (Run BW's "unavailable" was in the payment frame: several do.)
        local framed = where_of(found)
        said = said .. ("\n⚠️ %s matched nothing before the wait either%s: the check passes for a wrong %s "
          .. "too, and at once. %s%s"):format(expr,
            expr:find("^getByRole%(") and " (getByRole skips hidden elements: one hidden all along matches nothing)" or "",
            args.textGone and "text" or "locator",
            framed and ("But " .. framed) or "Also check what the page shows instead (a status text, the list's "
              .. "count: browser_verify_*)",
            no and ("; browser_export_test drop=[%d] takes this one out"):format(no) or "")
      end
    elseif ctx.session then
      said = "Wait finished (no step of the test: check what showed with a browser_verify_* tool)"
    end
    if slow and ctx.session then
      said = said .. ("\nIt took %.1f s: the checks recorded before the next action wait up to %d s in the test "
        .. "(Playwright's own is 5 s)"):format(res.waited_ms / 1000, slow // 1000)
    end
    return util.action_result(said, res)
  end,
}
