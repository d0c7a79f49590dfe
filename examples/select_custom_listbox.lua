--- examples/select_custom_listbox.lua: a new action written in Lua on the
-- core's primitives, without recompiling anything.  It opens a custom
-- listbox (a button with aria-haspopup="listbox", not a <select>) and picks
-- an option by its accessible name, with real mouse events.
--
-- As an MCP tool:
--   vdxlua mcp --tools examples/select_custom_listbox.lua
-- From a flow or a script:
--   local listbox = dofile "examples/select_custom_listbox.lua"
--   listbox.select(page, "e7", "Banana")          -- or c:act(…) in a flow
local vdx = require "vdx"
local actions = require "vdx.actions"

local listbox = {}

-- A JavaScript string literal for a locator expression.
local function js_string(s)
  return "'" .. tostring(s):gsub("[\\']", "\\%0") .. "'"
end

--- Opens the listbox of target (a ref, { ref = }, or { description = })
-- and clicks its option named `option` (exact name).  Returns the action's
-- result with selected = option.  NoMatch names the options there are
-- when none has that name.
function listbox.select(page, target, option, opts)
  local a = actions.begin(page, opts)
  local ref = a:resolve(target)
  local x, y = a:point(ref)
  a:mouse(actions.press_events(x, y, "left", 1), x, y)
  -- The options render after the click: wait (on DOM changes) until the
  -- option's text shows, then find it by role and name in the same frame.
  page:wait_for { text = option, timeout_ms = a:left() }
  local found = page:locator_count(("getByRole('option', { name: %s, exact: true })"):format(js_string(option)),
    { frame = ref, timeout_ms = a:left() })
  if found.count ~= 1 then
    local all = page:locator_count("getByRole('option')", { frame = ref })
    error(vdx.error("NoMatch", ("%d options of the listbox of %s are named %q (it has %d options)")
      :format(found.count, ref, option, all.count), { ref = ref, description = option }), 0)
  end
  local ox, oy = a:point(found.refs[1])
  a:mouse(actions.press_events(ox, oy, "left", 1), ox, oy)
  a.extra.selected = option
  return a:finish(ref)
end

--- The same action as an MCP tool.
listbox.tool = {
  name = "select_custom_listbox",
  title = "Pick an option of a custom listbox",
  description = "Open a custom listbox (a button that pops up role=listbox, not a <select>) and click the option "
    .. "with this exact name. For a native <select>, use browser_select_option.",
  input = { type = "object", required = { "option" }, properties = {
    ref = { type = "string", description = "Exact ref of the listbox's button from the page snapshot" },
    element = { type = "string", description = "Human-readable description of the listbox's button" },
    option = { type = "string", minLength = 1, description = "The accessible name of the option to pick" },
  } },
  annotations = { readOnlyHint = false, destructiveHint = true },
  run = function(ctx, args)
    local util = require "vdx.builtin.util"
    local target, label = util.target(args)
    local res = listbox.select(ctx:page(), target, args.option)
    return util.action_result(("Picked %q in %s"):format(args.option, label), res)
  end,
}

-- Loaded by `vdxlua mcp --tools`, the file registers its tool.
if register then register(listbox.tool) end

return listbox
