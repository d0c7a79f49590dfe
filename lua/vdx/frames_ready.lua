--- vdx.frames_ready: the wait of an action's report for a frame the
-- action added (a payment form's iframe), whose document starts blank and
-- comes later, so the report shows what the frame holds.
local vdx = require "vdx"

local frames_ready = {}

--- How long (ms) a report waits, once a frame, for the document of a
-- frame that has none yet (vdx.changes.report).
frames_ready.WAIT_MS = 1500

--- Waits, at most frames_ready.WAIT_MS, for each child frame of page
-- whose document shows nothing yet (a payment form's iframe the action
-- added: the blank document a frame starts with, its page still on the
-- way), once a frame per role and page (a frame of a later document
-- again), those whose refs the agent's last
-- look (seen, its text) showed aside: the report then shows what the
-- frame holds, where it would show an empty iframe whose refs the agent
-- cannot have.  The wait is page:wait_for's, which follows the frame's
-- document when it is replaced (out of process too).  Returns the names
-- of the frames waited for that came with content (f1, …).
function frames_ready.wait(page, role, seen)
  -- (By CDP frame id: a frame's name, f1, is given again to the frame of
  -- a later document of the page, run AB's payment form after a reload.)
  local ok, list = pcall(page.frames, page, { cdp_ids = true })
  if not ok or type(list) ~= "table" then return end
  role.frames_waited = role.frames_waited or setmetatable({}, { __mode = "k" })
  local waited = role.frames_waited[page] or {}
  role.frames_waited[page] = waited
  local tasks, names = {}, {}
  for _, f in ipairs(list) do
    -- (A frame the agent's last look showed content of has its document.)
    local key = f.id or f.frame
    if f.frame ~= "main" and not waited[key] and not (seen or ""):find("[ref=" .. f.frame .. "e", 1, true) then
      waited[key] = true
      names[#tasks + 1] = f.frame
      -- All at once: the wait is the slowest frame's, not their sum.
      tasks[#tasks + 1] = vdx.spawn(function()
        return pcall(page.wait_for, page, { selector = "body > :first-child", state = "attached",
          frame = f.frame, timeout_ms = frames_ready.WAIT_MS })
      end)
    end
  end
  local shown = {}
  for i, t in ipairs(tasks) do
    -- (The task's own answer: pcall's of the wait.)
    local ok, res, came = pcall(vdx.wait, t)
    if not ok and vdx.is_error(res, "Cancelled") then
      for j = i + 1, #tasks do tasks[j]:cancel() end
      error(res, 0)
    end
    if ok and res == true and came then shown[#shown + 1] = names[i] end
  end
  return shown
end

return frames_ready
