--- vdx.session_log_files: what a session's exports wrote, and which of
-- the log's steps came since (vdx.session_log).  install(Log) adds these
-- methods to the log's: Log:exported_file, Log:wrote, Log:loaded_states,
-- Log:mark_exported, Log:since_export and Log:unexported.
local F = {}

--- The files this session's exports wrote: { [rel] = { text = what was
-- written, tests = { { no, name, steps, auth_of }, … } } }, and the
-- number of the current test (1, then one more at each Log:restart): an
-- export to a file of the session adds the current test to it, or
-- replaces the one it wrote there before.
function F:exported_file(rel)
  return self.files and self.files[rel] or nil
end

--- Records that rel now holds text, with its tests; edited: the file was
-- edited by hand and each later test goes into it as it is (its earlier
-- tests are not written again).
function F:wrote(rel, text, tests, edited)
  self.files = self.files or {}
  local was = self.files[rel]
  self.files[rel] = { text = text, tests = tests, edited = edited or (was and was.edited) or nil }
end

--- Forgets the files the session wrote that gone(rel) says are gone
-- (deleted by hand): an export to one writes it anew, and its tests share
-- no account with later ones.
function F:forget_gone(gone)
  for rel in pairs(self.files or {}) do
    if gone(rel) then self.files[rel] = nil end
  end
end

--- The set of storageState files the tests written so far load (a path
-- -> true): each test's auth_of for the roles of its steps.
function F:loaded_states()
  local set = {}
  for _, f in pairs(self.files or {}) do
    for _, t in ipairs(f.tests or {}) do
      for _, st in ipairs(t.steps or {}) do
        local a = t.auth_of and t.auth_of(st.role)
        if a then set[a] = true end
      end
    end
  end
  return set
end

--- Notes that the steps so far are written in a test (browser_export_test):
-- Log:unexported counts those added since.
function F:mark_exported()
  self.exported = #self.steps
  for _, s in ipairs(self.steps) do s.exported = true end
end

--- The steps (a list, in order) recorded since the last export of the
-- current test, carried ones aside; nil when it was not exported yet.
function F:since_export()
  if not self.exported then return nil end
  local out = {}
  for _, s in ipairs(self.steps) do
    if not s.exported and not s.carried then out[#out + 1] = s end
  end
  return out
end

--- The number of steps (carried ones and navigations aside: a look at a
-- page is no work lost) added since the last export, or since the log
-- began.
function F:unexported()
  local n = 0
  for i = (self.exported or 0) + 1, #self.steps do
    local s = self.steps[i]
    if not s.carried and s.kind ~= "navigate" then n = n + 1 end
  end
  return n
end

--- Adds the methods above to Log, vdx.session_log's metatable.
function F.install(Log)
  for k, f in pairs(F) do
    if k ~= "install" then Log[k] = f end
  end
end

return F
