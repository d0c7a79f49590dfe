--- vdx.flow_report: what a flow leaves behind for people.  `trace` writes
-- every step and event (role, target, ref, URL, timing) as JSON; `html`
-- writes DIR/index.html with the steps, their timings and screenshots and,
-- when the flow failed, the formatted error and its screenshot.
local json = require "vdx.json"
local secrets = require "vdx.secrets"

local report = {}

local function arr(t) return json.array(t or {}) end

--- The trace of a finished flow as a Lua table.
function report.data(flow)
  local steps = arr()
  for i, s in ipairs(flow.steps) do
    steps[i] = { name = s.name, role = s.role, depth = s.depth, started_ms = s.started,
      ms = s.ms, ok = s.ok, screenshot = s.screenshot }
  end
  return {
    name = flow.name, ok = flow.failure == nil, ms = flow.ms, base_url = flow.base_url,
    roles = arr(flow.role_order), steps = steps, events = arr(flow.events),
    failure = flow.failure and { text = flow.failure.text, screenshot = flow.failure.screenshot,
      role = flow.failure.role, type = flow.failure.error.type } or nil,
  }
end

--- Writes the JSON trace to path.
function report.trace(flow, path)
  -- No secret's value in it (vdx.secrets): the strings, then the JSON.
  local text = secrets.redact(assert(json.encode(secrets.redact_all(report.data(flow)))))
  local f = assert(io.open(path, "w"))
  f:write(text, "\n")
  f:close()
  return path
end

local function esc(s)
  return (tostring(s or ""):gsub("[&<>\"]", { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;" }))
end

-- The path of file relative to dir when it lies inside it.
local function rel(dir, file)
  if not file then return nil end
  local prefix = dir:gsub("/$", "") .. "/"
  if file:sub(1, #prefix) == prefix then return file:sub(#prefix + 1) end
  return "file://" .. file
end

local STYLE = [[
body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem; color: #1d2330; }
table { border-collapse: collapse; width: 100%; }
td, th { border-bottom: 1px solid #e2e5ea; padding: .4rem .6rem; text-align: left; vertical-align: top; }
.ok { color: #1b7a3a; } .fail { color: #b3261e; font-weight: 600; }
img { max-width: 360px; border: 1px solid #ccd; }
pre { background: #fff4f2; border: 1px solid #f0c4bd; padding: 1rem; white-space: pre-wrap; }
.role { font-family: monospace; background: #eef2fb; padding: 0 .3rem; border-radius: 3px; }
]]

--- Writes dir/index.html (dir is created; screenshots already live in
-- dir/shots when the flow ran with a report folder).
function report.html(flow, dir)
  os.execute("mkdir -p '" .. dir:gsub("'", "'\\''") .. "'")
  local out = {
    "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">",
    "<title>" .. esc(flow.name) .. " · vdxlua flow report</title><style>" .. STYLE .. "</style></head><body>",
    ("<h1>%s <span class=\"%s\">%s</span></h1>"):format(esc(flow.name),
      flow.failure and "fail" or "ok", flow.failure and "failed" or "passed"),
    ("<p>%d steps in %d ms%s.</p>"):format(#flow.steps, flow.ms or 0,
      flow.base_url and (" against " .. esc(flow.base_url)) or ""),
  }
  if flow.failure then
    out[#out + 1] = "<h2>Failure</h2><pre>" .. esc(flow.failure.text) .. "</pre>"
    local shot = rel(dir, flow.failure.screenshot)
    if shot then out[#out + 1] = "<p><img alt=\"failure screenshot\" src=\"" .. esc(shot) .. "\"></p>" end
  end
  out[#out + 1] = "<h2>Steps</h2><table><tr><th>#</th><th>Role</th><th>Step</th><th>Start</th><th>Time</th><th>Result</th><th>Screenshot</th></tr>"
  for i, s in ipairs(flow.steps) do
    local shot = rel(dir, s.screenshot)
    out[#out + 1] = ("<tr><td>%d</td><td><span class=\"role\">%s</span></td><td>%s%s</td><td>%d ms</td><td>%d ms</td><td class=\"%s\">%s</td><td>%s</td></tr>")
      :format(i, esc(s.role or "—"), ("&nbsp;&nbsp;"):rep(s.depth or 0), esc(s.name), s.started or 0, s.ms or 0,
        s.ok and "ok" or "fail", s.ok and "✓" or "✗",
        shot and ("<a href=\"" .. esc(shot) .. "\"><img alt=\"after " .. esc(s.name) .. "\" src=\"" .. esc(shot) .. "\"></a>") or "")
  end
  out[#out + 1] = "</table>"
  out[#out + 1] = "<h2>Actions and expectations</h2><table><tr><th>t</th><th>Role</th><th>Step</th><th>What</th><th>Target</th><th>Time</th></tr>"
  for _, e in ipairs(flow.events) do
    out[#out + 1] = ("<tr><td>%d ms</td><td>%s</td><td>%s</td><td>%s</td><td><code>%s</code></td><td>%d ms</td></tr>")
      :format(e.t or 0, esc(e.role), esc(e.step), esc(e.kind), esc(e.target or e.expect or e.url or e.key), e.ms or 0)
  end
  out[#out + 1] = "</table></body></html>"
  local f = assert(io.open(dir .. "/index.html", "w"))
  f:write(secrets.redact(table.concat(out, "\n")), "\n")
  f:close()
  return dir .. "/index.html"
end

return report
