--- vdx.export_accounts: the accounts the tests of a session's files sign
-- in as, and the Playwright config that runs files sharing one one at a
-- time (browser_export_test): parallel workers would change one account's
-- data (a cart, orders) at once; and the folder the export's Run line
-- starts in.
local vdx = require "vdx"

local M = {}

-- What a recorded field's locator names when it asks who one is (an
-- email, a user name: a sign-in form's first field).
local WHO = { "mail", "user", "login", "account" }

-- The accounts role signs in as in steps, as a set of keys: the role's
-- own when it has an auth or state file (auth_of), and each text it
-- fills into a field asking who one is (run EA's tests signed in on the
-- page, each as ann@market.test, and were told of no conflict).  A text
-- with {run} or a remembered {name} in it is the run's own.
local function accounts_of(steps, role, auth_of)
  local keys = {}
  -- (A role's auth or test-start file, which each browser_start_test
  -- writes anew, is its account: the role's name stands for it.)
  if auth_of and auth_of(role) then keys["role " .. role] = true end
  for _, st in ipairs(steps) do
    if st.role == role and st.kind == "action" and (st.action == "fill" or st.action == "type")
        and type(st.value) == "string" and st.value ~= "" and not st.value:find("{[%w_]+}")
        and type(st.locator) == "string" then
      local l = st.locator:lower()
      for _, w in ipairs(WHO) do
        if l:find(w, 1, true) then keys["as " .. st.value] = true break end
      end
    end
  end
  return keys
end

-- Whether the test of steps signs in as an account of keys, as any role.
local function signs_in_as(steps, keys, auth_of)
  local seen = {}
  for _, st in ipairs(steps) do
    if st.role and not seen[st.role] then
      seen[st.role] = true
      for k in pairs(accounts_of(steps, st.role, auth_of)) do
        if keys[k] then return true end
      end
    end
  end
  return false
end

--- The roles of the test of steps that sign in as an account (an auth or
-- state file, or a sign-in form's who) that tests of the session's other
-- files sign in as too, and those files: { role, files = "a.spec.ts,
-- b.spec.ts" } in role order, or an empty list.
function M.shared(log, rel, steps, auth_of)
  local mine, names = {}, {}
  for _, st in ipairs(steps) do
    if st.role and not mine[st.role] then
      mine[st.role] = accounts_of(steps, st.role, auth_of)
      if next(mine[st.role]) then names[#names + 1] = st.role end
    end
  end
  table.sort(names)
  local out = {}
  for _, r in ipairs(names) do
    local files = {}
    for other, f in pairs(log.files or {}) do
      if other ~= rel then
        local uses = false
        for _, t in ipairs(f.tests or {}) do
          uses = uses or signs_in_as(t.steps or {}, mine[r], t.auth_of)
        end
        if uses then files[#files + 1] = other:match("[^/]*$") end
      end
    end
    table.sort(files)
    if #files > 0 then out[#out + 1] = { role = r, files = table.concat(files, ", ") } end
  end
  return out
end

-- The first line of the config an export writes beside tests that share
-- an account.
local CONFIG_MARK = "// Written by vdxlua: "

-- The text of a config that runs the files one at a time, for tests that
-- share an account (where: "in this folder"; dir: a testDir line, or nil).
local function config_text(where, dir)
  local lines = {
    CONFIG_MARK .. "the tests " .. where .. " sign in as the same accounts",
    "// (a role's auth or state file, a sign-in form's email), so Playwright runs them one file at a time:",
    "// parallel workers would change one account's data (a cart, orders) at once.",
    "import { defineConfig } from '@playwright/test';",
    "",
    "export default defineConfig({",
  }
  if dir then lines[#lines + 1] = dir end
  for _, l in ipairs { "  workers: 1,", "});", "" } do lines[#lines + 1] = l end
  return table.concat(lines, "\n")
end

local EXTS = { "ts", "js", "mjs", "cjs", "mts", "cts" }

-- The state of the Playwright config in a folder, reading its files with
-- read(name): "none", "ours" (one an export wrote) or "theirs".
local function config_state(read)
  for _, ext in ipairs(EXTS) do
    local text = read("playwright.config." .. ext)
    if text then return text:sub(1, #CONFIG_MARK) == CONFIG_MARK and "ours" or "theirs" end
  end
  return "none"
end

--- The folder above the output folder when it is a Playwright project (it
-- has @playwright/test in node_modules or a package.json) in the
-- workspace, and the state of its config ("none", "ours", "theirs"); nil
-- otherwise.  A server that confines to no workspace takes any folder.
function M.project_above(policy)
  local d = require("vdx.paths").realpath(policy.output)
  local up = type(d) == "string" and d:gsub("/+$", ""):match("^(.*)/[^/]+$")
  if not up or up == "" then return nil end
  local ws = policy.workspace_root
  if ws and not (up == ws or up:sub(1, #ws + 1) == ws .. "/") then return nil end
  local function read(rel)
    local f = io.open(up .. "/" .. rel, "r")
    if not f then return nil end
    local text = f:read(64) or ""
    f:close()
    return text
  end
  if not (read("node_modules/@playwright/test/package.json") or read("package.json")) then return nil end
  return up, config_state(read)
end

--- The folder the Run line of the spec rel starts in, when it is not the
-- spec's own: the project above the output folder (project_above) whose
-- config is none or one an export wrote, the spec's folder having no
-- config of its own.  A person runs a project's tests from its root, as
-- five of six play-tests of stop 67 did where the line said the output
-- folder.  nil: the spec's folder.  Returns the state of its config too.
function M.run_from(policy, rel)
  local folder = rel:match("^(.*)/[^/]*$")
  local here = config_state(function(name) return policy:read_output(folder and (folder .. "/" .. name) or name) end)
  if here ~= "none" then return nil end
  local up, state = M.project_above(policy)
  if up and state ~= "theirs" then return up, state end
  return nil
end

--- Makes the files of the spec rel run one at a time, for tests that share
-- an account: where the Run line starts (run_from) or else the spec's
-- folder, writes playwright.config.ts when that folder has no Playwright
-- config.  Returns what it found ("wrote", "ours": one an export wrote
-- before, or "theirs": the folder's own config, left as it is) and the
-- folder of the project the Run line starts in, if that is where.  One
-- config, where the run reads it: runs EV and EW found the two of stop
-- 66 (the output folder's and the project's) odd.
function M.one_at_a_time(policy, rel)
  local root, state = M.run_from(policy, rel)
  if root then
    if state == "ours" then return "ours", root end
    local d = vdx.open_dir(root, { follow = false })
    local ok = d and pcall(d.write, d, "playwright.config.ts", config_text("below this folder"))
    if d then d:close() end
    return ok and "wrote" or "theirs", root
  end
  local folder = rel:match("^(.*)/[^/]*$")
  local at = function(name) return folder and (folder .. "/" .. name) or name end
  local here = config_state(function(name) return policy:read_output(at(name)) end)
  if here ~= "none" then return here end
  local ok = pcall(policy.write, policy, at("playwright.config.ts"), config_text("in this folder", "  testDir: '.',"),
    false)
  return ok and "wrote" or "theirs"
end

return M
