--- vdx.proposals_brief: the proposals of a brief report (vdx.changes,
-- `expect=`), a few checks beside the texts the agent expected: which
-- items went or which dialog closed (gone), that a field is invalid
-- (invalid), what a live region says now (said).
-- install(proposals, one_more) adds them to vdx.proposals, whose
-- one_more(page, acted) makes a checker of one candidate.
local ITEM_OF = require("vdx.proposals_items").ITEM_OF

local M = {}

--- The most items a brief report proposes checks of their going.
M.MAX_GONE = 3

--- Adds gone, invalid and said to proposals (the vdx.proposals module),
-- each starting from one_more(page, acted).
function M.install(proposals, one_more)
  --- The verified checks that the items diff d removed are gone (a row a
  -- Delete took, by the text it showed) and that a named dialog it closed
  -- is hidden, and nothing else: what a brief report proposes beside the
  -- texts the agent expected, since no expected text says which item went
  -- or that the dialog closed (runs AZ, BA and BG wrote the dialog's
  -- toBeHidden by hand).  acted as proposals.propose takes it.
  function proposals.gone(page, d, acted)
    local p = one_more(page, acted)
    local dialogs, items = {}, 0
    for _, e in ipairs(d.removed or {}) do
      local root = not (e.parent and e.parent.removed)
      if root and (e.role == "dialog" or e.role == "alertdialog") and (e.name or "") ~= "" then
        dialogs[#dialogs + 1] = e
      end
      if root and ITEM_OF[e.role] then items = items + 1 end
    end
    -- Each item that went, up to three (run EZ's Clear completed took two
    -- rows, and the answer named one), and a dialog one more.
    p.max = math.max(1, math.min(items, M.MAX_GONE)) + (#dialogs > 0 and 1 or 0)
    for _, e in ipairs(d.removed or {}) do
      if p:full() then break end
      if ITEM_OF[e.role] and not (e.parent and e.parent.removed) then p:gone(e) end
    end
    for _, e in ipairs(dialogs) do
      if p:full() then break end
      p:closed(e)
    end
    return p.out
  end

  --- The check that the field of role, name and ref is invalid (a submit
  -- the form's validation stopped there), as proposals.propose gives its
  -- candidates: a list of none or one.
  function proposals.invalid(page, role, name, ref)
    local p = one_more(page, nil)
    p:invalid(role, name, ref)
    return p.out
  end

  --- The verified check of what a live region says now (a status, an
  -- alert: diff entries of list, changed or added), at most one: what a
  -- brief report proposes when none of the texts the agent expected was
  -- checked on that region (run CI expected its new row, and its status
  -- "Added “Teak Lamp …” at $25.00." went unproposed).  acted as
  -- proposals.propose takes it; recorded: the checks the agent's texts
  -- became (steps), which are not proposed again.
  function proposals.said(page, list, acted, recorded)
    local p = one_more(page, acted)
    for _, step in ipairs(recorded or {}) do p.seen[step.matcher .. "\n" .. step.locator] = true end
    for _, e in ipairs(list) do
      if p:full() then break end
      -- (An added region is a change from nothing.)
      p:changed(e.was and e or setmetatable({ was = {} }, { __index = e }))
    end
    return p.out
  end
end

return M
