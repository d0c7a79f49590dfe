--- vdx.flow_expect: the expectations of a flow's actors (expect_text,
-- expect_no_text, expect_visible, expect_hidden, expect_in_viewport,
-- expect_count, expect_value, expect_url) and remember, which reads a value the page
-- shows for later steps.  Each one retries until its timeout and is
-- recorded with the web-first Playwright assertion that matches it (a
-- remember, with the test's read of the value).
local vdx = require "vdx"
local locator = require "vdx.flow_locator"
local errors = require "vdx.errors"
local remembered = require "vdx.remembered"
local clip = require "vdx.clip"

local M = {}

local function now() return vdx.now() end

-- The JavaScript regular expression literal matching s literally.
local function js_regex(s)
  return "/" .. s:gsub("[%^%$%.%*%+%?%(%)%[%]{}|\\/]", "\\%0") .. "/"
end

--- Adds the expectation methods to the Actor class; h holds flow.lua's
-- parse (target arguments) and fail (raise a typed error).
function M.install(Actor, h)
  local parse, fail, check_options = h.parse, h.fail, h.check_options
  local TEXT_OPTS = { within = true, frame = true, timeout_ms = true }
  local TIMEOUT_OPTS = { timeout_ms = true }

  -- The text the page shows now (main frame, whitespace collapsed, cut to
  -- 300 characters): what a failed text expectation saw.
  local function page_text(page)
    local ok, t = pcall(page.bridge, page, "bodyText", {})
    if not ok or type(t) ~= "string" then return nil end
    t = t:gsub("%s+", " "):gsub("^ ", ""):gsub(" $", "")
    t = clip(t, 300)
    return ("%q"):format(t)
  end

  -- Polls check() until it returns true or the timeout passes; then raises
  -- ExpectationFailed with what the last check saw.  look: what the
  -- failure's snapshot excerpt shows the page around (locator.look_of).
  function Actor:poll(what, opts, check, export, look)
    return self:tagged(self.poll_, what, opts, check, export, look)
  end

  function Actor:poll_(what, opts, check, export, look)
    local t0 = now()
    local deadline = t0 + self:timeout(opts)
    local seen
    while true do
      local ok, res, detail = pcall(check)
      if ok and res then break end
      if ok then seen = detail else seen = tostring(res) end
      if now() >= deadline then
        fail("ExpectationFailed", what .. (seen and ("; last seen: " .. tostring(seen)) or ""),
          { expected = what, url = self:current_url(), timeout_ms = self:timeout(opts), look_for = look })
      end
      vdx.sleep(100)
    end
    self.flow:event { kind = "expect", role = self.name, expect = what, ms = now() - t0 }
    export.role = self.name
    export.kind = export.kind or "expect"
    self.flow:record(export)
    return true
  end

  local function count_of(page, expr, frame)
    return page:locator_count(expr, { frame = frame }).count
  end

  --- Expects text on the page (or within a container / frame) — retried
  -- until the timeout.
  function Actor:expect_text(text, opts)
    check_options(opts, TEXT_OPTS, "expect_text")
    opts = opts or {}
    local spec = self:scoped { within = opts.within, frame = opts.frame }
    if spec.within then
      local scope = locator.scope(spec.within)
      return self:poll(("%s contains %q"):format(scope, text), opts, function()
        local frame = self:frame_of(spec)
        local n = count_of(self.page, scope, frame)
        if n ~= 1 then return false, n .. " containers match " .. scope end
        if count_of(self.page, scope .. ".filter({ hasText: " .. locator.quote(text) .. " })", frame) == 1 then
          return true
        end
        return false, "the page shows " .. (page_text(self.page) or "(unreadable)")
      end, { frame = spec.frame, target = scope, matcher = "toContainText(" .. locator.quote(text) .. ")" },
        { text = text, within = locator.look_of(spec).within })
    elseif spec.frame then
      return self:poll(("frame %q shows %q"):format(spec.frame, text), opts, function()
        local frame, why = self:frame_of(spec)
        if not frame then return false, why end
        if count_of(self.page, "locator('body').filter({ hasText: " .. locator.quote(text) .. " })", frame) == 1 then
          return true
        end
        return false, "the frame does not show it"
      end, { frame = spec.frame, target = "locator('body')", matcher = "toContainText(" .. locator.quote(text) .. ")" },
        { text = text })
    end
    local t0 = now()
    local ok, err = pcall(self.page.wait_for, self.page, { text = text, timeout_ms = self:timeout(opts) })
    if not ok then
      local shown = page_text(self.page)
      fail("ExpectationFailed", ("the page does not show %q after %d ms"):format(text, self:timeout(opts))
        .. (shown and ("; the page shows " .. shown) or ("; " .. tostring(type(err) == "table" and err.message or err))),
        { expected = ("text %q on the page"):format(text), url = self:current_url(), timeout_ms = self:timeout(opts),
          look_for = { text = text } })
    end
    self.flow:event { kind = "expect", role = self.name, expect = "text " .. text, ms = now() - t0 }
    self.flow:record { kind = "expect", role = self.name, target = "locator('body')",
      matcher = "toContainText(" .. locator.quote(text) .. ")" }
    return true
  end

  --- Expects a text to be gone from the page.
  function Actor:expect_no_text(text, opts)
    check_options(opts, TIMEOUT_OPTS, "expect_no_text")
    local t0 = now()
    local ok, err = pcall(self.page.wait_for, self.page, { text_gone = text, timeout_ms = self:timeout(opts) })
    if not ok then
      fail("ExpectationFailed", ("the page no longer shows %q"):format(text) .. " (" .. tostring(err) .. ")",
        { expected = ("no text %q"):format(text), url = self:current_url(), look_for = { text = text } })
    end
    self.flow:event { kind = "expect", role = self.name, expect = "no text " .. text, ms = now() - t0 }
    self.flow:record { kind = "expect", role = self.name, target = "locator('body')",
      matcher = "not.toContainText(" .. locator.quote(text) .. ")" }
    return true
  end

  -- The expression and frame name of an expectation's target.
  function Actor:expect_target(args, nvalues, what)
    local spec, values, opts = parse(args, nvalues, what)
    spec = self:scoped(spec)
    if spec.ref then
      local r = self:resolve(spec, opts)
      return r.expr, values, opts, r.frame, r.ref, nil, { ref = r.ref }
    end
    return locator.of(spec), values, opts, spec.frame, nil, spec, locator.look_of(spec)
  end

  --- Expects the target to be visible (exactly one element, shown).
  function Actor:expect_visible(...)
    local expr, _, opts, frame_title, _, _, look = self:expect_target(table.pack(...), 0, "expect_visible")
    local spec = { frame = frame_title }
    return self:poll(expr .. " is visible", opts, function()
      local frame, why = self:frame_of(spec)
      if frame_title and not frame then return false, why end
      local n = count_of(self.page, expr, frame)
      if n ~= 1 then return false, n .. " elements match" end
      return count_of(self.page, expr .. ".filter({ visible: true })", frame) == 1, "hidden"
    end, { frame = frame_title, target = expr, matcher = "toBeVisible()" }, look)
  end

  --- Expects the target to be hidden or absent.
  function Actor:expect_hidden(...)
    local expr, _, opts, frame_title, _, _, look = self:expect_target(table.pack(...), 0, "expect_hidden")
    local spec = { frame = frame_title }
    return self:poll(expr .. " is hidden", opts, function()
      local frame = self:frame_of(spec)
      local n = count_of(self.page, expr .. ".filter({ visible: true })", frame)
      return n == 0, n .. " visible"
    end, { frame = frame_title, target = expr, matcher = "toBeHidden()" }, look)
  end

  --- Expects the target scrolled into view: part of its box in the
  -- viewport and in every scrolling box around it (toBeInViewport), not
  -- only visible (after a link to #section, a scroll).
  function Actor:expect_in_viewport(...)
    local expr, _, opts, frame_title, _, _, look = self:expect_target(table.pack(...), 0, "expect_in_viewport")
    local spec = { frame = frame_title }
    local assertions = require "vdx.assertions"
    return self:poll(expr .. " is in the viewport", opts, function()
      local frame, why = self:frame_of(spec)
      if frame_title and not frame then return false, why end
      local f = assertions.facts(self.page, expr, { frame = frame, limit = 1, viewport = true })
      if f.count ~= 1 then return false, f.count .. " elements match" end
      return f.matches[1].in_viewport, f.matches[1].visible and "visible, outside the viewport" or "hidden"
    end, { frame = frame_title, target = expr, matcher = "toBeInViewport()" }, look)
  end

  --- Expects the number of elements the target matches.
  function Actor:expect_count(...)
    local expr, v, opts, frame_title, _, _, look = self:expect_target(table.pack(...), 1, "expect_count")
    local n = math.tointeger(v[1]) or errors.misuse("expect_count: the count must be an integer", 2)
    local spec = { frame = frame_title }
    return self:poll(("%s matches %d elements"):format(expr, n), opts, function()
      local frame = self:frame_of(spec)
      local c = count_of(self.page, expr, frame)
      return c == n, c .. " elements"
    end, { frame = frame_title, target = expr, matcher = "toHaveCount(" .. n .. ")" }, look)
  end

  -- The value the snapshot shows for ref ("textbox "Email" [ref=e2]: value").
  local function snapshot_value(page, ref)
    local text = page:snapshot { budget_tokens = 50000 }.text
    for line in text:gmatch("[^\n]+") do
      if line:find("[ref=" .. ref .. "]", 1, true) then
        return line:match("%[ref=" .. ref:gsub("%p", "%%%0") .. "%]:%s*(.-)%s*$") or ""
      end
    end
    return nil
  end

  --- Expects a form field's current value.
  function Actor:expect_value(...)
    local args = table.pack(...)
    local _, v, opts = parse(args, 1, "expect_value")
    local value = tostring(v[1])
    local expr, _, _, frame_title, fixed_ref, spec, look = self:expect_target(args, 1, "expect_value")
    return self:poll(("%s has value %q"):format(expr, value), opts, function()
      local ref = fixed_ref
      if not ref then
        local r = self:resolve(spec, { timeout_ms = 1 })
        ref = r.ref
      end
      local got = snapshot_value(self.page, ref)
      got = got and got:gsub('^"(.*)"$', "%1")
      return got == value, got
    end, { frame = frame_title, target = expr, matcher = "toHaveValue(" .. locator.quote(value) .. ")" }, look)
  end

  --- Reads a value the page shows and keeps it for later steps, as a
  -- test keeps an order number in a variable: p:remember("order",
  -- { test_id = "confirmation" }, { pattern = "#\\d+" }) -> "#1002".  The
  -- value is the target's text (white space collapsed), or the first
  -- match of opts.pattern (a JavaScript regular expression's source, found
  -- by the page's engine) in it, retried until the timeout; 3 characters
  -- at least (vdx.remembered).  The exported test reads it at this point,
  -- once the element shows it (`order = /#\d+/.exec(await customer
  -- .getByTestId('confirmation').textContent() ?? '')?.[0] ?? '';` after a
  -- toContainText of the regex) and writes every later string that holds
  -- it as a template on it (`${order} paid`), so it holds when the app
  -- gives another value in each run.  f:remembered(name) gives it back.
  function Actor:remember(name, ...)
    local bad = remembered.bad_name(name)
    if bad then fail("InvalidArgument", "remember: " .. bad, { field = "name" }) end
    local args = table.pack(...)
    local last, pattern = args[args.n], nil
    if type(last) == "table" and not locator.is_spec(last) and last.pattern ~= nil then
      pattern = last.pattern
      if type(pattern) ~= "string" or pattern == "" then
        fail("InvalidArgument", "remember: pattern must be a non-empty string, the source of a JavaScript regular "
          .. "expression (\"#\\\\d+\")", { field = "pattern" })
      end
      local o = {}
      for k, v in pairs(last) do if k ~= "pattern" then o[k] = v end end
      args[args.n] = o
    end
    local expr, _, opts, frame_title, _, _, look = self:expect_target(args, 0, "remember")
    if pattern then
      -- A pattern that is no regular expression fails now, not at the timeout.
      local ok, err = pcall(self.page.bridge, self.page, "firstMatch", { "", pattern }, { frame = "main" })
      if not ok then
        fail("InvalidArgument", ("remember: pattern /%s/ is no JavaScript regular expression: %s")
          :format(pattern, tostring(type(err) == "table" and err.message or err)), { field = "pattern" })
      end
    end
    local node = { frame = frame_title, target = expr, kind = "remember", name = name, pattern = pattern }
    local spec = { frame = frame_title }
    self:poll(("%s shows %s"):format(expr, pattern and ("a match of /" .. pattern .. "/") or "a text"), opts,
      function()
        local frame, why = self:frame_of(spec)
        if frame_title and not frame then return false, why end
        local v, miss = remembered.read(self.page, expr, pattern, frame)
        if not v or v == "" then return false, miss or "an empty text" end
        node.value = v
        return true
      end, node, look)
    if #node.value < remembered.MIN_LENGTH then
      fail("InvalidArgument", ("remember: the value %q is shorter than %d characters: the test finds a value by "
        .. "its text, and one this short would stand for too much; remember a longer part (\"#1002\", not \"2\")")
        :format(node.value, remembered.MIN_LENGTH), { field = "pattern" })
    end
    self.flow.remembered_values[name] = node.value
    return node.value
  end

  --- Expects the page's URL to contain s.
  function Actor:expect_url(s, opts)
    check_options(opts, TIMEOUT_OPTS, "expect_url")
    return self:poll(("the URL contains %q"):format(s), opts, function()
      local u = self:current_url()
      return u and u:find(s, 1, true) ~= nil, u
    end, { page_matcher = "toHaveURL(" .. js_regex(s) .. ")" })
  end
end

return M
