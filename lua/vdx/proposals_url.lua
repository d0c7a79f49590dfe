--- vdx.proposals_url: the checks a change report proposes for a
-- navigation within the document (a link to #s42, a router's push): the
-- new URL, and the part of the page a fragment scrolled to.  Each
-- candidate as vdx.proposals gives them.
local assertions = require "vdx.assertions"

local M = {}

-- The roles of a part of the page a heading names.
local SECTIONS = { region = true, article = true, group = true, complementary = true }

-- Decodes the %XX escapes of a URL fragment.
local function unescape(s)
  return (s:gsub("%%(%x%x)", function(h) return string.char(tonumber(h, 16)) end))
end

--- The checks a navigation within the document proposes when its URL
-- changed (a link to `#s42`, a router's pushState): the URL, as a glob of
-- its path and fragment that the export writes as the regular expression
-- a person writes (`toHaveURL(/\/docs\.html#s42$/)`, whatever BASE_URL
-- serves it), and for a fragment the element it names scrolled into
-- view (`toBeInViewport`), when a locator not by position singles it
-- out.  Each candidate as vdx.proposals gives them, the URL's with
-- `short`, its text in a report.
function M.moved(page, old_url, url)
  local out = {}
  if type(url) ~= "string" or url == old_url or url:find("[*{}\\]") then return out end
  local rest = url:match("^%a[%w+.-]*://[^/]*(/.*)$")
  if not rest then return out end
  local glob = "**" .. rest
  local ok, re = pcall(require("vdx.route_match").js_regex, glob)
  if not ok then return out end
  out[1] = { matcher = "toHaveURL", value = glob, code = ("await expect(page).toHaveURL(%s);"):format(re),
    short = ("page toHaveURL(%s)"):format(re) }
  local frag = url:match("#(.+)$")
  if not frag or (old_url and old_url:match("#(.+)$") == frag) then return out end
  local id = unescape(frag)
  local okf, f = pcall(assertions.facts, page, ("locator(%s)"):format(assertions.quote(
    "[id=\"" .. id:gsub("[\\\"]", "\\%0") .. "\"], a[name=\"" .. id:gsub("[\\\"]", "\\%0") .. "\"]")),
    { limit = 1 })
  local ref = okf and f.count >= 1 and f.matches[1].ref
  if not ref then return out end
  -- A section named by its heading: the heading (a tall section is in
  -- view while any of it shows, its end too).
  local m = f.matches[1]
  if SECTIONS[m.role or ""] and (m.name or "") ~= "" then
    for _, exact in ipairs { false, true } do
      local step = { matcher = "toBeInViewport", locator = assertions.by_role("heading", m.name, exact) }
      if assertions.holds(page, step) then
        step.code = assertions.code(step)
        out[#out + 1] = step
        return out
      end
    end
  end
  local okl, l = pcall(assertions.locator_of, page, ref)
  if not okl or not l or l.positional or not l.from_page then return out end
  local step = { matcher = "toBeInViewport", locator = l.locator }
  if assertions.holds(page, step) then
    step.code = assertions.code(step)
    out[#out + 1] = step
  end
  return out
end

--- The checks an action that loaded another document proposes (a link
-- followed, a form that signs in or out): what its alert or status says,
-- the new URL as M.moved gives it, and the page's first top-level heading
-- shown (not when the page is the one the action left), each left out
-- when it holds a number (an order's, which the next run's differs
-- from).  Run EA's Sign out, which landed on the home page, proposed
-- nothing.
function M.arrived(page, old_url, url, text)
  local out = {}
  -- What the page says of the action first, an alert or a status (run
  -- EE's wrong password came back to the sign-in page with one).
  local said = {}
  for role, line in (text or ""):gmatch("\n%s*%- (%a+)[^:\n]*: ([^\n]+)") do
    if (role == "alert" or role == "status") and not said[role] then
      said[role] = true
      local value = line:gsub('^"(.*)"$', "%1")
      if not value:find("%d") then
        local step = { matcher = "toHaveText", locator = assertions.by_role(role), value = value }
        if assertions.holds(page, step) then
          step.code = assertions.code(step)
          out[#out + 1] = step
        end
      end
    end
  end
  local path = type(url) == "string" and url:match("^%a[%w+.-]*://[^/]*([^#]*)") or ""
  if not path:find("%d") then
    for _, c in ipairs(M.moved(page, old_url, url)) do out[#out + 1] = c end
  end
  -- The heading of the page it came from again says nothing of the action.
  local function path_of(u) return type(u) == "string" and u:match("^%a[%w+.-]*://[^/?#]*([^?#]*)") or nil end
  local same = path_of(old_url) ~= nil and path_of(old_url) == path_of(url)
  local name = (text or ""):match('heading "([^"\n]+)" %[level=1%]')
  if name and not name:find("%d") and not same then
    local step = { matcher = "toBeVisible", locator = assertions.by_role("heading", name) }
    if assertions.holds(page, step) then
      step.code = assertions.code(step)
      out[#out + 1] = step
    end
  end
  return out
end

return M
