--- vdx.guard: page:evaluate_checked and the policy behind it (and behind
-- the MCP tool browser_evaluate's first check), a list of source patterns
-- that obviously act on the page instead of reading it.
--
-- This is a check on the obvious road, not a sandbox: a script that acts
-- without matching an entry gets through, and each such script is a bug to
-- report.  The list is plain data: a team can add an entry at run time,
--   table.insert(require("vdx.guard").RULES, { what = "…", "lua pattern", … })
-- and page:evaluate_checked uses it from the next call on.
local vdx = require "vdx"
local json = require "vdx.json"

local guard = {}

-- The page-side wrapper of page:evaluate_checked
-- (bridge/page/evaluate-call.js), from its first line of code on.
local CALL = vdx.page_script("evaluate-call"):match("\n(%(%(.*)$")

-- The characters of a JavaScript identifier (Lua pattern set contents).
local ID = "%w_$"

-- prefix .. name .. suffix for each name, as a list.
local function each(names, prefix, suffix)
  local out = {}
  for i, n in ipairs(names) do out[i] = prefix .. n .. suffix end
  return out
end

-- A pattern that matches word in any letter case ("POST" -> "[Pp][Oo]…").
local function anycase(word)
  return (word:gsub("%a", function(c) return "[" .. c:upper() .. c:lower() .. "]" end))
end

-- An assignment (=, += or -=, not == or ===) after `%s*`.
local ASSIGN = "%s*[-+]?=%f[^=]"

--- The rules, checked in order: each has `what` (how the refusal names
-- it) and one or more Lua patterns, any of which matching refuses.
guard.RULES = {
  { what = "click()", "%.click%s*%(" },
  { what = "requestSubmit()", "requestSubmit%s*%(" },
  { what = "submit()", "%.submit%s*%(" },
  { what = "dispatchEvent()", "dispatchEvent%s*%(" },
  { what = "constructing an event", "%f[" .. ID .. "]new%s+%a*Event%s*%(" },
  { what = "a form reset()", "%.reset%s*%(" },
  { what = "a form value assignment", table.unpack(each({ "value", "checked", "selected", "selectedIndex",
    "valueAsNumber", "valueAsDate", "files", "indeterminate" }, "%.", ASSIGN)) },
  { what = "navigation (location)", "%f[" .. ID .. "]location" .. ASSIGN,
    "%f[" .. ID .. "]location%.%a+" .. ASSIGN,
    table.unpack(each({ "assign", "replace", "reload" }, "%f[" .. ID .. "]location%.", "%s*%(")) },
  { what = "navigation (history)", "%f[" .. ID .. "]history%.%a+%s*%(" },
  { what = "window.open()", "window%.open%s*%(", "%f[" .. ID .. ".]open%s*%(" },
  { what = "moving focus or selection", table.unpack(each({ "focus", "blur", "select", "setSelectionRange",
    "setRangeText", "showPicker", "showModal", "requestFullscreen" }, "%.", "%s*%(")) },
  { what = "execCommand()", "execCommand%s*%(" },
  { what = "rewriting the DOM", table.unpack(each({ "innerHTML", "outerHTML", "textContent", "innerText",
    "outerText" }, "%.", ASSIGN)) },
  { what = "changing the DOM", table.unpack(each({ "insertAdjacentHTML", "insertAdjacentElement",
    "insertAdjacentText", "appendChild", "removeChild", "replaceChild", "insertBefore", "replaceWith",
    "replaceChildren", "setAttribute", "setAttributeNS", "removeAttribute", "toggleAttribute",
    "%.append", "%.prepend" }, "", "%s*%(")) },
  { what = "removing an element", "%.remove%s*%(%s*%)" },
  { what = "document.write()", "document%.write%s*%(", "document%.writeln%s*%(", "document%.open%s*%(" },
  { what = "writing cookies", "document%.cookie" .. ASSIGN },
  { what = "writing storage", table.unpack(each({ "localStorage%.setItem", "localStorage%.removeItem",
    "localStorage%.clear", "sessionStorage%.setItem", "sessionStorage%.removeItem", "sessionStorage%.clear" },
    "", "%s*%(")) },
  { what = "a request that writes (POST/PUT/PATCH/DELETE)", table.unpack(each({ anycase "POST",
    anycase "PUT", anycase "PATCH", anycase "DELETE" }, "method%s*:%s*['\"`]", "")) },
  { what = "sendBeacon()", "sendBeacon%s*%(" },
}

--- The first rule src matches: returns its `what` and the matched text
-- (at most 60 characters), or nil when none matches.
function guard.check(src)
  for _, rule in ipairs(guard.RULES) do
    for _, pat in ipairs(rule) do
      local s, e = src:find(pat)
      if s then return rule.what, src:sub(s, math.min(e, s + 59)) end
    end
  end
  return nil
end

--- The EvaluateRefused error for src (a vdx.Error with `pattern` and
-- `match`), or nil when src matches no rule.
function guard.refusal(src)
  local what, snippet = guard.check(src)
  if not what then return nil end
  return vdx.error("EvaluateRefused", ("evaluate_checked refused the script: it contains %s (`%s`).  "
    .. "It is for reading the page; act with page:click, page:type, page:select_option, "
    .. "page:press_key instead.  This is a pattern check on the source text, not a sandbox: "
    .. "a script that acts on the page without matching a pattern gets through, and that "
    .. "is a bug to report"):format(what, snippet), { pattern = what, match = snippet })
end

--- page:evaluate_checked(fn_source, ...) -> value.  The agent-facing
-- evaluate: fn_source is an expression, or a function called with the
-- (JSON-able) arguments that follow.  It refuses sources that match one of
-- the obviously acting patterns above (click(), submit(),
-- dispatchEvent(), assigning a form value, navigation, focus, DOM and
-- storage writes…) with guard.refusal's EvaluateRefused naming the pattern.
--
-- This is a pattern check on the obvious road, not a sandbox: a script
-- that acts on the page without matching one of the patterns gets
-- through, and each such script is a bug to report.  page:evaluate (for
-- Lua scripts) stays unrestricted.
function guard.evaluate_checked(page, src, ...)
  if type(src) ~= "string" then
    error(vdx.error("InvalidArgument", ("evaluate_checked: the source must be a string, got %s"):format(type(src))), 2)
  end
  local refused = guard.refusal(src)
  if refused then error(refused, 0) end
  local args = json.array {}
  for i = 1, select("#", ...) do
    local v = select(i, ...)
    if v == nil then v = json.null end
    args[i] = v
  end
  local encoded, why = json.encode(args)
  if not encoded then
    error(vdx.error("InvalidArgument", "evaluate_checked: the arguments are not JSON-able: " .. tostring(why)), 2)
  end
  local at = CALL:find("__VDX_SOURCE__", 1, true)
  local tail = CALL:sub(at + #"__VDX_SOURCE__"):gsub("__VDX_ARGS__", function() return encoded end)
  return page:evaluate(CALL:sub(1, at - 1) .. src .. tail)
end

--- Adds page:evaluate_checked to a table of page methods (vdx.Page's __index).
function guard.install(methods)
  methods.evaluate_checked = guard.evaluate_checked
end

return guard
