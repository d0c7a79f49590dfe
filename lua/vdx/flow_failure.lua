--- vdx.flow_failure: what a failed flow shows its author.  The error with
-- advice for a flow author (never the MCP agent's steps), the flow file:line
-- of the failing call, the screenshot and a snapshot excerpt.
local errors = require "vdx.errors"

local failure = {}

-- Advice for flow authors, by error type: replaces the catalog's
-- agent-facing steps (which name MCP tools) when a flow fails.
local LOOK = "Open the screenshot and the snapshot excerpt below; run again with --headed --slow-mo 500 to watch it."
local FLOW_ADVICE = {
  Error = { title = "Error in the flow script",
    causes = { "The flow script (or a function it calls) raised an error" },
    actions = { "Fix the line named in \"Flow:\" (the traceback below shows the calls that led there)." } },
  InvalidArgument = { causes = { "A flow call got an argument of the wrong type, or an option it does not know" },
    actions = { "Fix the call at the line named in \"Flow:\"; docs/flows.md lists every method and its options." } },
  RoleUnknown = { causes = { "The role name is misspelt", "The role was not declared with f:role()" },
    actions = { "Declare it first: f:role(NAME, { url = …, auth = … }), then f:as(NAME, …)." } },
  NavigationFailed = { actions = { "Check the URL and that the server answers it (started before flow.run and not closed).",
    "For a path, check base_url." } },
  AuthenticationFailed = { actions = {
    "Create the file with Playwright: npx playwright codegen --save-storage=FILE URL.",
    "Point f:role(NAME, { auth = FILE }) at it, or leave auth out for a signed-out role." } },
  Timeout = { actions = { LOOK, "Raise timeout_ms (flow.run option or per call) if the page is just slow." } },
  ExpectationFailed = { actions = { LOOK, "Check the page's console and network errors for a failed request." } },
  TargetNotFound = { actions = { LOOK,
    "Correct the role and name, or scope the target with within = { test_id =, text = } / frame = TITLE." } },
  BrowserClosed = { causes = { "Chromium crashed or was killed", "A remote browser endpoint dropped the connection" },
    actions = { "Run the flow again; if it recurs, run with --headed to see the browser." } },
}

-- Agent-facing lines (MCP tools, restarting the server, blaming vdxlua).
local function for_agents(line)
  return line:find("browser_%w+") or line:find("vdxlua mcp", 1, true) or line:find("list_roles", 1, true)
    or line:find("select_role", 1, true) or line:find("tools/list", 1, true)
    or line:find("tool's input schema", 1, true) or line:lower():find("bug in vdxlua", 1, true)
end

local function without_agent_lines(list)
  local out = {}
  for _, l in ipairs(type(list) == "table" and list or {}) do
    if not for_agents(l) then out[#out + 1] = l end
  end
  return out
end

--- The catalog entry a flow failure of error e is shown with: the flow's
-- own advice, else the catalog's without the agent-facing lines.
function failure.advice(e)
  local base = errors.catalog[e.type] or {}
  local own = FLOW_ADVICE[e.type] or (not errors.catalog[e.type] and FLOW_ADVICE.Error) or {}
  local function field(k)
    local v = base[k]
    if type(v) == "function" then v = v(e) end
    return v
  end
  local causes = own.causes or without_agent_lines(field("causes"))
  local actions = own.actions or without_agent_lines(field("actions"))
  if #actions == 0 then actions = { LOOK } end
  return { title = own.title or field("title") or "Flow failed", expected = field("expected"),
    causes = causes, actions = actions }
end

local MODULES = debug.getinfo(1, "S").source:match("^(.*/)") or "@lua/vdx/"

--- The file:line in the flow script nearest to the error being raised
-- (call from a message handler; level as for debug.getinfo), or nil.
function failure.where(level)
  for l = level or 2, 60 do
    local info = debug.getinfo(l, "Sl")
    if not info then return nil end
    local src = info.source or ""
    if info.what ~= "C" and info.currentline and info.currentline > 0 and src:sub(1, 1) == "@"
        and src:sub(1, #MODULES) ~= MODULES then
      return info.short_src .. ":" .. info.currentline
    end
  end
end

--- The lines of the actor's page snapshot a failure shows: the ones near
-- the target when the error found some, else the top of the page.
function failure.excerpt(actor, e)
  if type(e.available) == "table" and #e.available > 0 then return e.available end
  local ok, s = pcall(actor.page.snapshot, actor.page, { budget_tokens = 2000 })
  if not ok or type(s) ~= "table" then return nil end
  local out = {}
  for line in s.text:gmatch("[^\n]+") do
    out[#out + 1] = line
    if #out >= 15 then out[#out + 1] = "…" break end
  end
  return #out > 0 and out or nil
end

--- The text of a flow failure: the error with flow-author advice, the
-- step, the flow file:line, the screenshot, a snapshot excerpt and, for
-- unexpected errors, the traceback.  url is the page's URL at the failure.
function failure.text(err, url, shot, excerpt)
  local e = errors.normalize(err)
  local text = errors.format(e, { as_role = e.flow_role, url = e.url or url, entry = failure.advice(e) })
  local lines = {}
  for line in (text .. "\n"):gmatch("(.-)\n") do lines[#lines + 1] = line end
  local extra = {}
  if e.flow_step then extra[#extra + 1] = "Step: " .. e.flow_step end
  if e.flow_where then extra[#extra + 1] = "Flow: " .. e.flow_where end
  if e.target then extra[#extra + 1] = "Target: " .. e.target end
  extra[#extra + 1] = "Screenshot: " .. (shot or "(none: the page was not available)")
  for i = #extra, 1, -1 do table.insert(lines, 2, extra[i]) end
  if excerpt then
    lines[#lines + 1] = ""
    lines[#lines + 1] = "Snapshot excerpt:"
    for _, l in ipairs(excerpt) do lines[#lines + 1] = "  " .. l end
  end
  if e.traceback then lines[#lines + 1] = "\nTraceback:" .. e.traceback end
  return table.concat(lines, "\n")
end

return failure
