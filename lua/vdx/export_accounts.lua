--- vdx.export_accounts: the accounts the tests of a session's files sign
-- in as, and the Playwright config that runs files sharing one one at a
-- time (browser_export_test): parallel workers would change one account's
-- data (a cart, orders) at once.
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

--- Makes the folder of the spec rel run its files one at a time, for
-- tests that share an account: writes playwright.config.ts there when it
-- has no Playwright config.  Returns "wrote", "ours" (one an export wrote
-- before) or "theirs" (the folder's own config, left as it is).
function M.one_at_a_time(policy, rel)
  local folder = rel:match("^(.*)/[^/]*$")
  local at = function(name) return folder and (folder .. "/" .. name) or name end
  for _, ext in ipairs { "ts", "js", "mjs", "cjs", "mts", "cts" } do
    local text = policy:read_output(at("playwright.config." .. ext))
    if text then return text:sub(1, #CONFIG_MARK) == CONFIG_MARK and "ours" or "theirs" end
  end
  local ok = pcall(policy.write, policy, at("playwright.config.ts"), config_text("in this folder", "  testDir: '.',"),
    false)
  return ok and "wrote" or "theirs"
end

--- Writes the config of config_text in root, the Playwright project above
-- the output folder that has none (configless_root), when root is in the
-- workspace or the server confines to none: a run from there reads it
-- (runs EA and EC, like five of stop 64, wrote it there by hand, though
-- told of -c).  True when written; a file there is never replaced.
function M.root_config(policy, root)
  local ws = policy.workspace_root
  if ws and not (root == ws or root:sub(1, #ws + 1) == ws .. "/") then return false end
  local d = vdx.open_dir(root, { follow = false })
  if not d then return false end
  local ok = d:write("playwright.config.ts", config_text("below this folder"))
  d:close()
  return ok ~= nil
end

--- The folder above the output folder when it is a Playwright project
-- without a config of its own (it has @playwright/test in node_modules or
-- a package.json, and no playwright.config.*): a run from there reads no
-- config, so no workers: 1.  nil otherwise.
function M.configless_root(policy)
  local d = require("vdx.paths").realpath(policy.output)
  local up = type(d) == "string" and d:gsub("/+$", ""):match("^(.*)/[^/]+$")
  if not up or up == "" then return nil end
  local function has(rel)
    local f = io.open(up .. "/" .. rel, "r")
    if f then f:close() end
    return f ~= nil
  end
  if not (has("node_modules/@playwright/test/package.json") or has("package.json")) then return nil end
  for _, ext in ipairs { "ts", "js", "mjs", "cjs", "mts", "cts" } do
    if has("playwright.config." .. ext) then return nil end
  end
  return up
end

return M
