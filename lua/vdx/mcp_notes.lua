--- vdx.mcp_notes: what a tool call's answer says about the server around
-- it, added by vdx.mcp after the tool ran: the calls it did not wait for,
-- the role it acted as when that is not the current one, a ref that was
-- most likely another role's, and what `{run}` stands for.  The tool's own
-- answer is the tools'; these lines are the server's, each said where a
-- play-test's agent was misled without it.
local vdx = require "vdx"

local notes = {}

-- The errors of a ref the current role's page does not know.
local REF_ERRORS = { UnknownRef = true, StaleRef = true, RefMismatch = true }

-- The first content of res when it is text (the answer's lines), or nil.
local function text_of(res)
  local c = res.content and res.content[1]
  return c and c.type == "text" and c or nil
end

-- The calls still running that a reader (list_roles) did not wait for.
local function not_waited(rq, c)
  if not rq.behind or #rq.behind == 0 then return end
  local names = {}
  for i, b in ipairs(rq.behind) do
    names[i] = ("%s is still running (role %s, for %d s)"):format(b.name, b.role,
      math.floor((vdx.now() - b.since) / 1000))
  end
  local it = #names == 1 and "it" or "them"
  c.text = c.text .. ("\n\nNote: %s, so this answer did not wait for %s: the list is " ..
    "as it stands now, before any call queued behind %s. If a page's script is busy, cancel that call " ..
    "(notifications/cancelled): vdx then stops the script."):format(table.concat(names, "; "), it, it)
end

--- Adds the server's lines to res, the answer of the call of request rq
-- (lane t: its role and scope, vdx.mcp_lanes) on server: other, the
-- role it named when that is not the current one; tell_run, the call
-- holds the session's first `{run}`.  Keeps on server what it has said
-- (told_stays, told_current) and the role the last call named
-- (other_named).
function notes.add(server, rq, t, res, other, tell_run)
  local c = text_of(res)
  if c then not_waited(rq, c) end
  if other and c and not res.isError and not c.text:find("Role: " .. other .. "\n", 1, true) then
    -- Said once a session: acting as a role does not select it (runs BP, CM and CR thought it would).
    local stays = not server.told_stays and (" (the current role stays %s; select_role makes %s current)")
      :format(server.roles:current().name, other) or ""
    server.told_stays, c.text = true, ("As %s%s: %s"):format(other, stays, c.text)
  end
  if t.scope == "role" and not other and c and not res.isError and not server.told_current
      and server.roles:count() > 1 and not c.text:find("Role: ", 1, true) then
    -- The first page call of a session of several roles says whose it
    -- was (run DG's first navigate ran as provider, and it asked
    -- get_current_role to learn it).
    server.told_current, c.text = true, ("As %s (the current role; role= or select_role acts as another): %s")
      :format(t.role.name, c.text)
  end
  if t.scope == "role" then
    -- A ref refused in the current role right after a call that named
    -- another: most likely a ref of that role's page (run BE's fill_form
    -- with the provider page's refs acted as the customer).
    local named, role = server.other_named, t.role
    if not other and res.isError and named and named ~= role.name and type(res.error) == "table"
        and REF_ERRORS[res.error.type] and c then
      c.text = c.text .. ("\n\nThe call before acted as %s (role: %q); this one acted as %s, "
        .. "the current role. A ref of %s's page: call again with role: %q (or select_role it)."):format(named, named,
        role.name, named, named)
    end
    if not res.isError then server.other_named = other end
  end
  if tell_run and c then
    c.text = c.text .. "\n({run} stands for this test's token, new in each run: the page "
      .. "got the token, answers show {run}, the test writes ${run}.)"
  end
end

return notes
