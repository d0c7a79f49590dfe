--- vdx.flow_actions: what a flow role does -- navigate, click, hover,
-- fill, select, check, uncheck, press, steps, scopes (within, in_frame),
-- snapshot -- added to flow.lua's Actor class (save_auth is
-- vdx.flow_world_storage's).  Each action
-- resolves its target through Actor:act, which retries a re-rendered
-- element and records the event and the export node.
local vdx = require "vdx"
local locator = require "vdx.flow_locator"

local M = {}

--- Adds the action methods to the Actor class; h holds flow.lua's parse,
-- fail and check_options.
function M.install(Actor, h)
  local parse, fail, check_options = h.parse, h.fail, h.check_options
  local function now() return vdx.now() end
  local NAVIGATE_OPTS = { wait_until = true, timeout_ms = true }

  --- Opens url (absolute, or a path under base_url) and waits for its load.
  -- opts: wait_until ("load", "domcontentloaded", "commit", "networkidle"),
  -- timeout_ms.
  function Actor:navigate(url, opts)
    if type(url) ~= "string" then
      fail("InvalidArgument", "navigate: url must be a string, got " .. type(url), { field = "url" })
    end
    check_options(opts, NAVIGATE_OPTS, "navigate")
    local full = self.flow:url(url)
    local t0 = now()
    local nav = self.page:navigate(full, { wait_until = (opts and opts.wait_until) or "load",
      timeout_ms = self:timeout(opts) })
    self.flow:event { kind = "goto", role = self.name, url = full, ms = now() - t0 }
    self.flow:record { kind = "goto", role = self.name, url = full }
    return nav
  end

  --- Clicks the target: p:click("button", "Sign in"), p:click("e7"),
  -- p:click({ label = "Remember me" }), with { within=, frame=, exact=, nth= }.
  function Actor:click(...)
    local spec, _, opts = parse(table.pack(...), 0, "click")
    return self:act("click", spec, opts, function(ref)
      return self.page:click(ref, { timeout_ms = self:timeout(opts) })
    end, ".click()")
  end

  --- Hovers the target.
  function Actor:hover(...)
    local spec, _, opts = parse(table.pack(...), 0, "hover")
    return self:act("hover", spec, opts, function(ref)
      return self.page:hover(ref, { timeout_ms = self:timeout(opts) })
    end, ".hover()")
  end

  --- Replaces the value of a text field: p:fill("textbox", "Email", "a@b").
  function Actor:fill(...)
    local spec, v, opts = parse(table.pack(...), 1, "fill")
    local value = tostring(v[1])
    return self:act("fill", spec, opts, function(ref)
      return self.page:type(ref, value, { clear = true, timeout_ms = self:timeout(opts) })
    end, ".fill(" .. locator.quote(value) .. ")")
  end

  --- Chooses an option (by value or label) of a select.
  function Actor:select(...)
    local spec, v, opts = parse(table.pack(...), 1, "select")
    local value = tostring(v[1])
    return self:act("select", spec, opts, function(ref)
      return self.page:select_option(ref, { value }, { timeout_ms = self:timeout(opts) })
    end, ".selectOption(" .. locator.quote(value) .. ")")
  end

  --- Checks a checkbox or radio (p:uncheck for the reverse).
  function Actor:check(...)
    local spec, _, opts = parse(table.pack(...), 0, "check")
    return self:act("check", spec, opts, function(ref)
      return self.page:check(ref, { timeout_ms = self:timeout(opts) })
    end, ".check()")
  end

  function Actor:uncheck(...)
    local spec, _, opts = parse(table.pack(...), 0, "uncheck")
    return self:act("uncheck", spec, opts, function(ref)
      return self.page:uncheck(ref, { timeout_ms = self:timeout(opts) })
    end, ".uncheck()")
  end

  --- Presses a key (or chord, "Control+A") in the focused element, or in a
  -- target: p:press("Enter") / p:press("Enter", "textbox", "Search").
  function Actor:press(key, ...)
    if select("#", ...) == 0 then
      local r = self.page:press_key(key, { timeout_ms = self.flow.timeout_ms })
      self.flow:event { kind = "press", role = self.name, key = key }
      self.flow:record { kind = "keyboard", role = self.name, key = key }
      return r
    end
    local spec, _, opts = parse(table.pack(...), 0, "press")
    return self:act("press", spec, opts, function(ref)
      return self.page:press_key(key, { target = ref, timeout_ms = self:timeout(opts) })
    end, ".press(" .. locator.quote(key) .. ")")
  end

  --- A step of this role: p:step("add the product", function() … end).
  function Actor:step(name, fn)
    return self.flow:step(name, fn, self.name)
  end

  local SCOPE_KEYS = { test_id = true, css = true, role = true, name = true, text = true }

  --- Runs fn with every target scoped to a container: a test id string or
  -- { test_id=, css=, role=, name=, text= }.
  function Actor:within(scope, fn)
    if type(scope) == "table" then check_options(scope, SCOPE_KEYS, "within") end
    local st = self.flow:task_state()
    st.scope[#st.scope + 1] = { actor = self, within = scope }
    local ok, err = pcall(fn)
    table.remove(st.scope)
    if not ok then error(err, 0) end
  end

  --- Runs fn with every target inside the iframe titled title.
  function Actor:in_frame(title, fn)
    local st = self.flow:task_state()
    st.scope[#st.scope + 1] = { actor = self, frame = title }
    local ok, err = pcall(fn)
    table.remove(st.scope)
    if not ok then error(err, 0) end
  end

  --- The snapshot text of the role's page (what an agent would read).
  function Actor:snapshot(opts)
    return self.page:snapshot(opts).text
  end
end

return M
