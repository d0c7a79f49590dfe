-- The navigation tracker under load: 8 tasks navigate their own pages in
-- parallel, and no navigation is reported as "replaced" (nothing else
-- navigates those pages) nor fails otherwise.  VDX_NAV_STRESS sets the
-- total count (default 160, the short run of `make check`); `make
-- nav-stress` runs 2,000.
local vdx = require "vdx"
local h = require "helpers"

local TOTAL = tonumber(os.getenv("VDX_NAV_STRESS")) or 160
local TASKS = 8

describe("navigation tracker under load", function()
  local srv, browser

  setup(function()
    srv = h.serve {
      -- A page whose subresources and timers keep lifecycle events (and
      -- network) busy after the load event of its document.
      ["GET /busy"] = function(req)
        return ([[<!doctype html><title>busy %s</title>
          <img src="/core/index.html?img=%s"><iframe src="/core/second.html"></iframe>
          <script>setTimeout(() => fetch('/core/index.html?late'), 5)</script>
          <p>page %s</p>]]):format(req.params.n or "", req.params.n or "", req.params.n or "")
      end,
    }
    browser = vdx.launch { timeout_ms = 30000 }
  end)
  teardown(function()
    if browser then browser:close() end
    if srv then srv:close() end
  end)

  it(("navigates %d times in %d parallel tasks with no replaced navigation"):format(TOTAL, TASKS), function()
    local per = math.ceil(TOTAL / TASKS)
    local waits = { "load", "domcontentloaded", "load", "commit" }
    local tasks = {}
    for t = 1, TASKS do
      tasks[t] = vdx.spawn(function()
        local page = browser:new_page()
        local done, failures = 0, {}
        for i = 1, per do
          local url = i % 3 == 0 and (srv.url .. "/core/second.html?n=" .. i)
            or (srv.url .. "/busy?n=" .. t .. "-" .. i)
          local ok, res = pcall(page.navigate, page, url, { wait_until = waits[i % #waits + 1] })
          if ok and res.url == url then
            done = done + 1
          else
            failures[#failures + 1] = ok and ("landed on " .. tostring(res.url)) or tostring(res)
          end
        end
        page:close()
        return done, failures
      end)
    end
    local done, failures, replaced = 0, {}, 0
    for t = 1, TASKS do
      local d, f = vdx.wait(tasks[t])
      done = done + d
      for _, msg in ipairs(f) do
        failures[#failures + 1] = msg
        if msg:find("replaced", 1, true) then replaced = replaced + 1 end
      end
    end
    assert.equal(0, replaced, table.concat(failures, "\n"))
    assert.same({}, failures)
    assert.equal(per * TASKS, done)
  end)
end)
