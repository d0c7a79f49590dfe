--- vdx.builtin.actions: acting on the page like a user.  Every action
-- takes a ref from the latest snapshot (or, as a fallback, an element
-- description) and answers with what happened, not with a full snapshot,
-- and with the verified Playwright locator of its target (util.locator_of,
-- taken before the action).
local vdx = require "vdx"
local util = require "vdx.builtin.util"

local REF, ELEMENT = util.REF, util.ELEMENT

-- Runs page:method(…) on the current page.
local function act(ctx, method, ...)
  local page = ctx:page()
  return page[method](page, ...)
end

-- Where the frames of page other than the main one match expr (a
-- locator as a wait takes it): "it shows in frame f1: give frame \"f1\"
-- (…)", or nil.  A page-wide locator does not reach into a frame.
local function elsewhere_frames(page, expr)
  local ok, list = pcall(page.frames, page)
  if not ok or type(list) ~= "table" then return nil end
  local found = {}
  for _, f in ipairs(list) do
    if f.frame ~= "main" then
      local okf, r = pcall(require("vdx.assertions").facts, page, expr, { limit = 1, frame = f.frame })
      if okf and r.count > 0 then found[#found + 1] = f.frame end
      if #found == 3 then break end
    end
  end
  if #found == 0 then return nil end
  return ("it shows in frame %s, which a wait without frame does not look into: give frame %q (the test then "
    .. "reaches it through the frame's locator)"):format(table.concat(found, ", "), found[1])
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
    local where = elsewhere_frames(page, expr)
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

-- The session step of one browser_fill_form field (its locator added by
-- util.record): a text or slider value is filled, a checkbox checked or
-- unchecked, a radio checked, a combobox's option selected.
local function form_step(f, kind)
  local step = { kind = "action", tool = "browser_fill_form", action = "fill", value = f.value }
  if kind == "checkbox" then step.action = f.value == "true" and "check" or "uncheck"
  elseif kind == "radio" then step.action = "check"
  elseif kind == "combobox" then step.action, step.values = "select", { f.value } end
  return step
end

-- The ARIA roles of the fields browser_fill_form sets, by its field types.
local FIELD_TYPES = { checkbox = "checkbox", switch = "checkbox", menuitemcheckbox = "checkbox", radio = "radio",
  menuitemradio = "radio", combobox = "combobox", listbox = "combobox", slider = "slider", spinbutton = "textbox" }

-- The field type of a browser_fill_form field given without one: from
-- its element's role (textbox for anything else).  A ref of the page
-- before it loaded again is raised as it came, so the call is made again
-- with the ref that stands for it now (tools.lua's renewal): taken for a
-- textbox, a checkbox was recorded as .fill('true') (run AA).
local function field_type(ctx, ref)
  local page = ctx:page()
  local ok, d = pcall(page.describe, page, ref)
  if not ok and (vdx.is_error(d, "UnknownRef") or vdx.is_error(d, "StaleRef") or vdx.is_error(d, "Cancelled")) then
    error(d, 0)
  end
  return ok and type(d) == "table" and FIELD_TYPES[d.role] or "textbox"
end

-- The names come from the core, which accepts exactly these.
local MODIFIERS = { type = "array", items = { type = "string", enum = vdx.input.MODIFIERS },
  description = "Modifier keys held" }
local BUTTON = { type = "string", enum = vdx.input.BUTTONS, description = "Button (default left)" }

-- The tools whose answers say what they changed on the page (vdx.changes).
-- browser_navigate_back is a navigation: its answer names the URL and
-- title, which is what the report of a navigation says.
local ACTING = { browser_click = true, browser_type = true, browser_fill_form = true,
  browser_select_option = true, browser_hover = true, browser_drag = true, browser_press_key = true,
  browser_file_upload = true, browser_handle_dialog = true, browser_click_at = true }

return require("vdx.builtin.report").report_changes({
  {
    name = "browser_click",
    title = "Click",
    description = "Click an element with real mouse events.",
    input = { type = "object", properties = {
      element = ELEMENT, ref = REF,
      doubleClick = { type = "boolean", description = "Double click" },
      button = BUTTON,
      modifiers = MODIFIERS,
    } },
    annotations = { readOnlyHint = false, destructiveHint = true },
    run = function(ctx, args)
      local t, label = util.target(args)
      local res, loc = util.act_located(ctx, "click", t, { button = args.button,
        click_count = args.doubleClick and 2 or nil, modifiers = args.modifiers })
      local nav = type(res) == "table" and type(res.navigation) == "table" and res.navigation
      util.record(ctx, { kind = "action", tool = "browser_click", action = args.doubleClick and "dblclick" or "click",
        button = args.button, modifiers = args.modifiers, loads = nav and nav.same_document == false or nil }, loc)
      return util.action_result(("Clicked %s"):format(label), res, loc)
    end,
  },
  {
    name = "browser_type",
    title = "Type text",
    description = "Type text into an editable element.",
    input = { type = "object", required = { "text" }, properties = {
      element = ELEMENT, ref = REF,
      text = { type = "string", description = "Text; {run} in it is new in each test run: `Teak Lamp {run}` (the test writes ${run})" },
      submit = { type = "boolean", description = "Press Enter after" },
      slowly = { type = "boolean", description = "Key by key (default: inserted at once)" },
      clear = { type = "boolean", description = "Replace what the field holds (Playwright's fill)" },
    } },
    annotations = { readOnlyHint = false, destructiveHint = true },
    run = function(ctx, args)
      local t, label = util.target(args)
      local loc = util.locator_of(ctx, t)
      local res = act(ctx, "type", t, args.text, { submit = args.submit, slowly = args.slowly, clear = args.clear })
      -- Text put at once into an empty field is a fill; key by key, or
      -- added to what the field held, it is pressSequentially.
      local fill = args.clear or (not args.slowly and type(res) == "table" and res.had_text == false)
      util.record(ctx, { kind = "action", tool = "browser_type", action = fill and "fill" or "type",
        value = args.text, submit = args.submit }, loc)
      return util.action_result(("Typed into %s%s"):format(label, args.submit and ", then Enter" or ""),
        res, loc)
    end,
  },
  {
    name = "browser_fill_form",
    title = "Fill form",
    description = "Fill several fields at once.",
    input = { type = "object", required = { "fields" }, properties = {
      fields = { type = "array", minItems = 1, items = {
        type = "object", required = { "ref", "value" }, properties = {
          name = { type = "string", description = "Field name" },
          type = { type = "string", enum = { "textbox", "checkbox", "radio", "combobox", "slider" },
            description = "Default: from the element" },
          ref = REF,
          value = { type = "string", description = "Value; \"true\"/\"false\" for a checkbox, the option's label for a combobox; {run} as in browser_type" },
        } } },
    } },
    annotations = { readOnlyHint = false, destructiveHint = true },
    run = function(ctx, args)
      local fields, locs, kinds = {}, { n = #args.fields }, {}
      for i, f in ipairs(args.fields) do
        -- (The arguments stay as given: a call made again after a ref's
        -- renewal reads the type again.)
        local kind = f.type or field_type(ctx, f.ref)
        local v = f.value
        if kind == "checkbox" or kind == "radio" then v = v == "true"
        elseif kind == "slider" then v = tonumber(v) or v end
        local t = { ref = f.ref }
        locs[i] = util.locator_of(ctx, t)
        fields[i], kinds[i] = { target = t.ref, value = v }, kind
      end
      local res = act(ctx, "fill_form", fields)
      for i, f in ipairs(args.fields) do util.record(ctx, form_step(f, kinds[i]), locs[i]) end
      return util.action_result(("Filled %d fields"):format(#args.fields), res, locs)
    end,
  },
  {
    name = "browser_select_option",
    title = "Select option",
    description = "Select options in a dropdown.",
    input = { type = "object", required = { "values" }, properties = {
      element = ELEMENT, ref = REF,
      values = { type = "array", minItems = 1, items = { type = "string" },
        description = "Values or labels" },
    } },
    annotations = { readOnlyHint = false, destructiveHint = true },
    run = function(ctx, args)
      local t, label = util.target(args)
      local loc = util.locator_of(ctx, t)
      local res = act(ctx, "select_option", t, args.values)
      util.record(ctx, { kind = "action", tool = "browser_select_option", action = "select", values = args.values }, loc)
      return util.action_result(("Selected %s in %s"):format(table.concat(args.values, ", "), label), res, loc)
    end,
  },
  {
    name = "browser_hover",
    title = "Hover mouse",
    description = "Hover the mouse over an element.",
    input = { type = "object", properties = { element = ELEMENT, ref = REF } },
    annotations = { readOnlyHint = false },
    run = function(ctx, args)
      local t, label = util.target(args)
      local loc = util.locator_of(ctx, t)
      local res = act(ctx, "hover", t)
      util.record(ctx, { kind = "action", tool = "browser_hover", action = "hover" }, loc)
      return util.action_result("Hovered " .. label, res, loc)
    end,
  },
  {
    name = "browser_drag",
    title = "Drag mouse",
    description = "Drag and drop between two elements.",
    input = { type = "object", properties = {
      startElement = { type = "string", description = "Source in words" },
      startRef = { type = "string", description = "Source ref" },
      endElement = { type = "string", description = "Target in words" },
      endRef = { type = "string", description = "Target ref" },
    } },
    annotations = { readOnlyHint = false, destructiveHint = true },
    run = function(ctx, args)
      local from, from_label = util.target(args, "startRef", "startElement")
      local to, to_label = util.target(args, "endRef", "endElement")
      local locs = table.pack(util.locator_of(ctx, from), (util.locator_of(ctx, to)))
      local res = act(ctx, "drag", from, to)
      util.record(ctx, { kind = "action", tool = "browser_drag", action = "drag",
        to_locator = locs[2] and locs[2].locator }, locs[1])
      return util.action_result(("Dragged %s to %s"):format(from_label, to_label), res, locs)
    end,
  },
  {
    name = "browser_press_key",
    title = "Press a key",
    description = "Press a key or chord (`ArrowLeft`, `Control+A`) on an element or what has focus.",
    input = { type = "object", required = { "key" }, properties = {
      key = { type = "string", minLength = 1, description = "Key name or character" },
      element = ELEMENT, ref = REF,
    } },
    annotations = { readOnlyHint = false, destructiveHint = true },
    run = function(ctx, args)
      if (args.ref or "") == "" and (args.element or "") == "" then
        local res = act(ctx, "press_key", args.key)
        util.record(ctx, { kind = "action", tool = "browser_press_key", action = "press", key = args.key })
        return util.action_result("Pressed " .. args.key, res)
      end
      local t, label = util.target(args)
      local loc = util.locator_of(ctx, t)
      local res = act(ctx, "press_key", args.key, { target = t })
      util.record(ctx, { kind = "action", tool = "browser_press_key", action = "press", key = args.key }, loc)
      return util.action_result(("Pressed %s on %s"):format(args.key, label), res, loc)
    end,
  },
  {
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
        description = "Milliseconds at most (default: the page's timeout)" },
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
      local absent
      if expr and not args.frame then
        local okf, f = pcall(require("vdx.assertions").facts, page, expr, { limit = 1 })
        absent = okf and f.count == 0
      end
      -- A text the page's frames show and the main document does not (run
      -- AB's "Gateway timeout", inside the payment iframe) ends the wait.
      local shown = (args.text or args.locator) and not (args.textGone or args.ref_gone)
        and (args.text and ("getByText(" .. pw.quote(args.text) .. ")") or args.locator)
      local okw, res = wait_main(page, opts, shown or nil)
      if not okw then
        -- (A condition that did not come is told in short: error_catalog.)
        if vdx.is_error(res, "Timeout") and type(res) == "table" then res.wait = true end
        error(res, 0)
      end
      -- The test and the gate's replay find the element by its locator: a
      -- ref is this page's own.
      local step_opts = opts
      if loc then
        step_opts = {}
        for k, v in pairs(opts) do step_opts[k] = v end
        step_opts.ref, step_opts.ref_gone, step_opts.locator = nil, nil, loc.locator
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
      local lines = require("vdx.wait").code_lines(step_opts, nil, slow)
      local said = "Wait finished"
      if lines and ctx.session then
        step_opts.timeout_ms = nil
        local step = util.record(ctx, { kind = "code", tool = "browser_wait_for", lines = lines,
          -- (Read from the step as the run has it: a text with {run} is
          -- the run's own. Run AD's wait for its product to be absent saw
          -- the session's product, still in the live shop, in every replay.)
          wait = step_opts, replay = function(p, st) p:wait_for(st and st.wait or step_opts) end })
        said = "Wait finished. Recorded: "
          .. require("vdx.remembered").in_test(require("vdx.pw_spec").code_lines(lines, nil, true)[1], ctx.session)
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
          -- (Run BW's "unavailable" was in the payment frame.)
          local framed = elsewhere_frames(page, expr)
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
  },
  {
    name = "browser_file_upload",
    title = "Upload files",
    description = "Set the files of a file input.",
    input = { type = "object", required = { "paths" }, properties = {
      element = ELEMENT, ref = REF,
      paths = { type = "array", items = { type = "string" }, description = "File paths" },
    } },
    annotations = { readOnlyHint = false, destructiveHint = true },
    run = function(ctx, args)
      local t, label = util.target(args)
      -- The browser gets private copies of the files as they were checked.
      local policy, files, copies = util.paths(ctx), {}, {}
      for i, p in ipairs(args.paths) do copies[i], files[i] = policy:read_path(p) end
      local loc = util.locator_of(ctx, t)
      local res = act(ctx, "upload_file", t, copies)
      util.record(ctx, { kind = "action", tool = "browser_file_upload", action = "upload", files = files }, loc)
      return util.action_result(("Uploaded %d files to %s"):format(#files, label), res, loc)
    end,
  },
  {
    name = "browser_handle_dialog",
    title = "Handle a dialog",
    description = "Accept or dismiss the next JavaScript dialog (alert, confirm, prompt).",
    input = { type = "object", required = { "accept" }, properties = {
      accept = { type = "boolean", description = "Accept (else dismiss)" },
      promptText = { type = "string", description = "Text for a prompt" },
    } },
    annotations = { readOnlyHint = false },
    run = function(ctx, args)
      local res = act(ctx, "handle_dialog", { accept = args.accept, prompt_text = args.promptText })
      return util.action_result(args.accept and "Dialog will be accepted" or "Dialog will be dismissed", res)
    end,
  },
  {
    name = "browser_click_at",
    cap = "vision",
    title = "Click at a point",
    description = "Move the pointer to viewport coordinates in steps and click there, optionally holding before release (sliders, canvases, press-and-hold widgets).",
    input = { type = "object", required = { "x", "y" }, properties = {
      element = { type = "string", description = "Human-readable description of what is at the point" },
      x = { type = "number", minimum = 0, description = "X coordinate (CSS pixels)" },
      y = { type = "number", minimum = 0, description = "Y coordinate (CSS pixels)" },
      hold_ms = { type = "integer", minimum = 0, maximum = 30000, description = "Hold the button this long before release" },
      steps = { type = "integer", minimum = 1, maximum = 100, description = "Pointer moves on the way" },
    } },
    annotations = { readOnlyHint = false, destructiveHint = true },
    run = function(ctx, args)
      local res = act(ctx, "click_at", args.x, args.y, { hold_ms = args.hold_ms, steps = args.steps })
      util.record(ctx, { kind = "action", tool = "browser_click_at", action = "click_at", x = args.x, y = args.y })
      return util.action_result(("Clicked at (%s, %s)"):format(args.x, args.y), res)
    end,
  },
}, ACTING)
