--- vdx.builtin.tabs: the current role's tabs, viewport size and closing.
local vdx = require "vdx"
local json = require "vdx.json"

-- The role's pages: the context's list when the core offers it.
local function pages_of(role)
  local ctx = role:context()
  if type(ctx.pages) == "function" then
    local ok, list = pcall(ctx.pages, ctx)
    if ok and type(list) == "table" then
      for _, p in ipairs(list) do
        local known = false
        for _, q in ipairs(role.pages) do if q == p then known = true end end
        if not known then role.pages[#role.pages + 1] = p end
      end
    end
  end
  return role.pages
end

local function describe(role)
  local out = json.array {}
  for i, p in ipairs(pages_of(role)) do
    local ok, info = pcall(p.bridge, p, "pageInfo", {})
    out[#out + 1] = { index = i - 1, current = p == role.page_, url = ok and info.url or "?",
      title = ok and info.title or "" }
  end
  return out
end

local function tabs_text(list)
  local lines = {}
  for _, t in ipairs(list) do
    lines[#lines + 1] = ("- %d:%s [%s](%s)"):format(t.index, t.current and " (current)" or "", t.title, t.url)
  end
  return #lines > 0 and table.concat(lines, "\n") or "No open tabs."
end

local function tab_at(role, index)
  local p = pages_of(role)[index + 1]
  if not p then
    error(vdx.error("InvalidArgument", ("there is no tab %d (%d open)"):format(index, #role.pages),
      { field = "index", expected = ("0..%d"):format(math.max(#role.pages - 1, 0)) }), 0)
  end
  return p
end

return {
  {
    name = "browser_tabs",
    title = "Manage tabs",
    description = "List, open, close or select a tab of the role (its later calls use the selected one).",
    input = { type = "object", required = { "action" }, properties = {
      action = { type = "string", enum = { "list", "new", "close", "select" }, description = "Operation" },
      index = { type = "integer", minimum = 0, description = "Tab index for select or close (default: the current)" },
    } },
    annotations = { readOnlyHint = false },
    run = function(ctx, args)
      local role = ctx.role
      if args.action == "new" then
        role:new_page()
      elseif args.action == "select" then
        if args.index == nil then
          error(vdx.error("InvalidArgument", "select needs index", { field = "index", expected = "integer" }), 0)
        end
        local p = tab_at(role, args.index)
        role:set_page(p)
        if type(p.bring_to_front) == "function" then p:bring_to_front() end
      elseif args.action == "close" then
        local p = args.index and tab_at(role, args.index) or role.page_
        if p then
          pcall(p.close, p)
          role:forget_page(p)
        end
      else
        ctx:page()
      end
      local list = describe(role)
      return { text = tabs_text(list), structured = { tabs = list } }
    end,
  },
  {
    name = "browser_resize",
    title = "Resize browser window",
    description = "Resize the page's viewport (a step of the test); answers what changed.",
    input = { type = "object", required = { "width", "height" }, properties = {
      width = { type = "integer", minimum = 100, maximum = 10000, description = "CSS pixels" },
      height = { type = "integer", minimum = 100, maximum = 10000, description = "CSS pixels" },
    } },
    annotations = { readOnlyHint = false },
    run = function(ctx, args)
      local page = ctx:page()
      -- Through page:emulate, so a device's scale and mobile flag stay and
      -- browser_emulate reports the new size.
      local o = { viewport = { width = args.width, height = args.height } }
      page:emulate(o)
      local util = require "vdx.builtin.util"
      local st = util.record_emulation(ctx, "browser_resize", o)
      return util.relaid(ctx, page, ("Resized the viewport to %dx%d%s"):format(args.width, args.height,
        util.step_no(st)), nil, o.viewport)
    end,
  },
  {
    name = "browser_close",
    title = "Close the page",
    description = "Close the page (the next call opens a new one).",
    input = { type = "object", properties = {} },
    annotations = { readOnlyHint = false, destructiveHint = true },
    run = function(ctx)
      local role = ctx.role
      local p = role.page_
      if not p then return "No page was open." end
      pcall(p.close, p)
      role:forget_page(p)
      return "Closed the page."
    end,
  },
}
