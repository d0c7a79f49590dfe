--- vdx.builtin.verify_value: browser_verify_value's check of a field's
-- value, a checkbox's or toggle's state, an element that shows no text,
-- or a computed style, each recorded as its web-first assertion
-- (toHaveValue, toBeChecked, toHaveAttribute, toBeEmpty, toHaveCSS).
local vdx = require "vdx"
local assertions = require "vdx.assertions"
local common = require "vdx.builtin.verify_common"

local quote = assertions.quote
local fail, describe, the_one, agreed, target = common.fail, common.describe, common.the_one, common.agreed,
  common.target

-- Strict "true"/"false" of a checkbox value.
local function boolean_value(v)
  if v == "true" then return true elseif v == "false" then return false end
  error(vdx.error("InvalidArgument", 'value of a checkbox or radio must be "true" or "false"',
    { field = "value", expected = '"true" or "false"' }), 0)
end

-- The ARIA states that are an element's value when it has no other (a
-- toggle button's aria-pressed, the current link of a navigation's
-- aria-current), as browser_verify_value reads them.
local STATES = { "aria-pressed", "aria-checked", "aria-expanded", "aria-selected", "aria-current" }

-- A colour given as #rgb or #rrggbb, as a computed style writes it
-- ("rgb(17, 24, 39)"); any other value as it is.
local function computed_colour(v)
  local hex = v:match("^#(%x+)$")
  if hex and #hex == 3 then hex = hex:gsub(".", "%0%0") end
  if not hex or #hex ~= 6 then return v end
  return ("rgb(%d, %d, %d)"):format(tonumber(hex:sub(1, 2), 16), tonumber(hex:sub(3, 4), 16),
    tonumber(hex:sub(5, 6), 16))
end

-- browser_verify_value {css}: the element's computed CSS property
-- (toHaveCSS), a colour given in hex compared as the browser writes it.
local function verify_css(ctx, args, page, t)
  local name = args.css
  if not name:match("^%-?%-?[%a][%w%-]*$") then
    error(vdx.error("InvalidArgument", ("css must be a CSS property's name (background-color), not %s"):format(
      quote(name)), { field = "css" }), 0)
  end
  local f = assertions.facts(page, t.relative, { frame = t.frame, limit = 1, css = name })
  local m = f.matches[1]
  if m and (m.css or "") == "" then
    -- Every property the browser computes has a value: an empty one is a
    -- name it does not know (run Y gave aria-expanded), and toHaveCSS with
    -- it would pass whatever the page does.
    error(vdx.error("InvalidArgument", ("%s is no CSS property the browser computes (it reads empty for %s, so the "
      .. "check would pass whatever the page does); for an attribute or ARIA state (aria-expanded) give value and "
      .. "no css: browser_verify_value records toHaveAttribute"):format(quote(name), t.locator),
      { field = "css", expected = "a CSS property's name (background-color, display)" }), 0)
  end
  local want = args.value ~= nil and computed_colour(args.value) or (m and m.css)
  if (m and m.css) ~= want then
    fail(("%s has %s %s"):format(t.locator, name, quote(m and m.css or "")),
      { expected = ("%s %s"):format(name, quote(want)), actual = { describe(m) } })
  end
  local step = { locator = t.locator, positional = t.positional, matcher = "toHaveCSS", attribute = name, value = want }
  if args.value == nil and ctx.session and not t.elsewhere then
    -- Without value: a read of the computed value now, which an agent
    -- cannot know before (run U read it with browser_evaluate), its check
    -- proposed, not recorded (runs EW, FD and FN dropped the reads it had
    -- recorded).
    step.code = assertions.code(step)
    return require("vdx.changes").proposed(ctx, { text = ("%s has %s %s now. Nothing recorded: value= records "
      .. "it, or keep the check by id"):format(t.locator, name, quote(want)),
      structured = { verified = true, recorded = false, css = want } }, { step })
  end
  return agreed(ctx, "browser_verify_value", step, t.elsewhere)
end

-- What element m (of target t) holds now, as a value= would name it:
-- "it holds \"x\"", "it is checked (value \"true\")", "its aria-expanded
-- is \"false\"", "it is disabled now (value \"disabled\")", or nil.
local function value_now(page, t, m)
  if m.checked ~= nil then
    return ("it is %s now (value %s)"):format(m.checked == true and "checked" or m.checked == "mixed" and "mixed"
      or "not checked", quote(m.checked == true and "true" or "false"))
  end
  if m.value ~= nil then return ("it holds %s now"):format(quote(m.value)) end
  for _, name in ipairs(STATES) do
    local f = assertions.facts(page, t.relative, { frame = t.frame, limit = 1, attribute = name })
    local v = f.count == 1 and f.matches[1].attribute
    if v then
      return ("its %s is %s now (value %s records toHaveAttribute)"):format(name, quote(v), quote(v))
    end
  end
  -- A button, or anything disabled, is as enabled as it is (run EM's
  -- Checkout took three calls to find "disabled").
  if m.disabled == true or (m.disabled == false and m.role == "button") then
    local st = m.disabled and "disabled" or "enabled"
    return ("it is %s now (value %s)"):format(st, quote(st))
  end
end

--- browser_verify_value's run: (ctx, args) -> its answer.
local function verify_value(ctx, args)
  local page = ctx:page()
  local t = target(page, args)
  local m = the_one(page, t)
  if args.css then return verify_css(ctx, args, page, t) end
  if args.value == nil then
    local now = value_now(page, t, m)
    error(vdx.error("InvalidArgument", "give value: the field's value, \"true\" or \"false\" for a checkbox or an "
      .. "ARIA state (aria-expanded), \"disabled\" or \"enabled\" for a control's state, \"\" for no text (without "
      .. "value only css reads the value now)"
      .. (now and ("; %s: %s"):format(t.locator, now) or ""), { field = "value" }), 0)
  end
  local kind = args.type
  if not kind then
    kind = (m.checked ~= nil and (args.value == "true" or args.value == "false")) and "checkbox" or "textbox"
  end
  local step = { locator = t.locator, positional = t.positional }
  if (args.value == "disabled" or args.value == "enabled") and m.value ~= args.value and m.checked == nil then
    -- A control's state (run DE's Checkout, [disabled] while the cart is
    -- empty): toBeDisabled or toBeEnabled, as Playwright reads it.
    if (m.disabled == true) ~= (args.value == "disabled") then
      fail(("%s is %s"):format(t.locator, m.disabled and "disabled" or "enabled"),
        { expected = args.value, actual = { describe(m) } })
    end
    step.matcher = args.value == "disabled" and "toBeDisabled" or "toBeEnabled"
    return agreed(ctx, "browser_verify_value", step, t.elsewhere)
  end
  if kind == "checkbox" or kind == "radio" then
    local want = boolean_value(args.value)
    if m.checked == nil then
      fail(t.locator .. " is not a checkbox or radio", { expected = "a checkbox or radio", actual = { describe(m) } })
    end
    if m.checked ~= want then
      fail(("%s is %s"):format(t.locator, m.checked == true and "checked" or m.checked == "mixed" and "mixed" or "not checked"),
        { expected = want and "checked" or "not checked", actual = { describe(m) } })
    end
    step.matcher = want and "toBeChecked" or "not.toBeChecked"
    return agreed(ctx, "browser_verify_value", step, t.elsewhere)
  end
  if m.value == nil and args.value == "" then
    -- An element that shows nothing (a status no message went to): toBeEmpty.
    if m.text ~= "" then
      fail(("%s shows %s"):format(t.locator, quote(m.text)), { expected = "no text", actual = { describe(m) } })
    end
    step.matcher = "toBeEmpty"
    return agreed(ctx, "browser_verify_value", step, t.elsewhere)
  end
  if m.value == nil then
    -- A toggle, a disclosure, a tab: its ARIA state is its value.
    for _, name in ipairs(STATES) do
      local f = assertions.facts(page, t.relative, { frame = t.frame, limit = 1, attribute = name })
      local v = f.count == 1 and f.matches[1].attribute
      if v then
        if v ~= args.value then
          fail(("%s has %s=%s"):format(t.locator, name, quote(v)), { expected = ("%s=%s"):format(name, quote(args.value)),
            actual = { describe(m) } })
        end
        step.matcher, step.attribute, step.value = "toHaveAttribute", name, v
        return agreed(ctx, "browser_verify_value", step, t.elsewhere)
      end
    end
    fail(("%s has no value (it is not an input, textarea or select, nor has an ARIA state): check its text with "
      .. "browser_verify_text_visible, value \"\" that it shows none, or value \"disabled\" or \"enabled\" its "
      .. "state"):format(t.locator),
      { expected = "value " .. quote(args.value), actual = { describe(m) } })
  end
  local extra
  if m.value == args.value then
    step.matcher, step.value = "toHaveValue", args.value
  elseif m.label and m.label == args.value then
    -- toHaveValue reads the option's value, not its label.
    step.matcher, step.value = "toHaveValue", m.value
    extra = ("(the selected option %s has the value %s)"):format(quote(m.label), quote(m.value))
  else
    fail(("%s has the value %s"):format(t.locator, quote(m.value)),
      { expected = "value " .. quote(args.value), actual = { describe(m) } })
  end
  return agreed(ctx, "browser_verify_value", step, t.elsewhere, extra)
end

return verify_value
