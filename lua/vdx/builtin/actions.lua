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
      fields = { type = "array", minItems = 1, description = "The fields to set", items = {
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
      local n = #args.fields
      return util.action_result(("Filled %d field%s"):format(n, n == 1 and "" or "s"), res, locs)
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
  require "vdx.builtin.wait_tool",
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
