--- spec/mcp_caps_spec.lua: `vdxlua mcp --caps`: the world's tool groups
-- (network, pdf, storage, emulation, clock) are served only when named, so
-- a tools/list without them stays the size of the core; a call to a tool of
-- a group not served says that enable_tools (or --caps) serves it, and
-- enable_tools does so in a running server; a wrong name is refused at
-- start with the known ones.
local client = require "mcp_client"
local builtin = require "vdx.builtin"

-- tools/list of a server started with args: names (a set) and the raw size.
local function list(args)
  local msgs, _, err, rc = client.batch({ client.initialize(1, "2025-06-18"),
    { jsonrpc = "2.0", method = "notifications/initialized" },
    { jsonrpc = "2.0", id = 2, method = "tools/list" } }, args)
  assert.equal(0, rc, err)
  local names, size = {}, 0
  for _, t in ipairs(client.by_id(msgs, 2).result.tools) do
    names[t.name] = true
    size = size + #require("cjson").encode(t)
  end
  return names, size
end

describe("vdxlua mcp --caps", function()
  it("serves the core alone by default and each group when named", function()
    local core, core_size = list("")
    for _, n in ipairs { "browser_navigate", "browser_snapshot", "browser_click", "browser_wait_for" } do
      assert.is_true(core[n], n)
    end
    for _, n in ipairs { "browser_route", "browser_cookie_list", "browser_emulate", "browser_clock_install",
      "browser_pdf_save", "browser_start_har" } do
      assert.is_nil(core[n], n)
    end
    local net = list("--caps network")
    assert.is_true(net.browser_route and net.browser_network_state_set and net.browser_start_har)
    assert.is_nil(net.browser_pdf_save)
    assert.is_nil(net.browser_cookie_list)
    local two = list("--caps storage,clock")
    assert.is_true(two.browser_cookie_list and two.browser_storage_state and two.browser_clock_install)
    assert.is_nil(two.browser_route)
    local all, all_size = list("--caps all --role a - --role b -")
    local every = builtin.register_all(require("vdx.tools").new())
    for _, t in ipairs(every:list()) do assert.is_true(all[t.name], t.name) end
    assert.is_true(core_size < all_size)
  end)

  it("keeps the default list within the size of Playwright MCP's, hints only where they say more", function()
    local msgs, _, err, rc = client.batch({ client.initialize(1, "2025-06-18"),
      { jsonrpc = "2.0", method = "notifications/initialized" },
      { jsonrpc = "2.0", id = 2, method = "tools/list" },
      client.call(3, "get_current_role", {}) }, "")
    assert.equal(0, rc, err)
    local by = {}
    for _, t in ipairs(client.by_id(msgs, 2).result.tools) do by[t.name] = t end
    -- Playwright MCP 0.0.83 with --caps testing listed 30 tools in 23,545
    -- characters (2026-12-05); this list is paid once by every session.
    local _, size = list("")
    assert.is_true(size <= 23545, ("tools/list grew to %d characters"):format(size))
    -- With one role, the tools that choose among roles are not listed, and
    -- still answer.
    for _, n in ipairs { "select_role", "list_roles", "get_current_role", "close_role" } do assert.is_nil(by[n], n) end
    assert.matches("Current role: default", client.by_id(msgs, 3).result.content[1].text, 1, true)
    -- A hint is listed only when it differs from the spec's default
    -- (readOnlyHint false, destructiveHint true, openWorldHint true).
    assert.is_nil(by.browser_click.annotations)
    assert.same({ readOnlyHint = true }, by.browser_snapshot.annotations)
    assert.same({ destructiveHint = false }, by.browser_navigate_back.annotations)
    -- The coordinate click is the vision group's.
    assert.is_nil(by.browser_click_at)
    local roles = list("--role a - --role b -")
    assert.is_true(roles.select_role and roles.list_roles and roles.get_current_role and roles.close_role)
    assert.is_true(list("--caps vision").browser_click_at)
  end)

  it("names the --caps that serves a tool called without it", function()
    local msgs = client.batch({ client.initialize(1, "2025-06-18"),
      { jsonrpc = "2.0", method = "notifications/initialized" },
      client.call(2, "browser_cookie_list", {}),
      client.call(3, "browser_no_such_tool", {}) }, "")
    local e = client.by_id(msgs, 2).error
    assert.truthy(e, "an error")
    assert.matches('enable_tools {"caps": ["storage"]} serves it (or start vdxlua mcp with --caps storage)', e.message, 1, true)
    assert.equal("storage", e.data.cap)
    assert.matches("Unknown tool: browser_no_such_tool", client.by_id(msgs, 3).error.message, 1, true)
  end)

  it("serves a held-back group on enable_tools, with one list_changed, and the tools then answer", function()
    local msgs, _, err, rc = client.batch({ client.initialize(1, "2025-06-18"),
      { jsonrpc = "2.0", method = "notifications/initialized" },
      client.call(2, "enable_tools", { caps = { "clock", "emulation" } }),
      { jsonrpc = "2.0", id = 3, method = "tools/list" },
      client.call(4, "enable_tools", { caps = { "clock" } }),
      client.call(5, "browser_emulate_media", { colorScheme = "dark" }),
      client.call(6, "enable_tools", { caps = { "clocks" } }) }, "")
    assert.equal(0, rc, err)
    local text = client.by_id(msgs, 2).result.content[1].text
    -- Each in a line with its arguments: no tools/list needed to call one.
    assert.matches("^Now serving 8 more tools %(the client's next tools/list has their schemas%):\n"
      .. "%- browser_clock_install%(paused%?:bool, time%?:string|int%): Install a controlled clock", text)
    -- Its whole description: run BW listed every tool again to read a cut one.
    assert.matches("Install before browser_navigate so the page's own scripts see it from the start.\n", text, 1, true)
    assert.matches("\n%- browser_emulate_media%(colorScheme%?=dark|light|no%-preference, forcedColors%?=active|none, "
      .. "media%?=screen|print, reducedMotion%?=reduce|no%-preference, reset%?:array%): ", text)
    local changed = 0
    for _, m in ipairs(msgs) do
      if m.method == "notifications/tools/list_changed" then changed = changed + 1 end
    end
    assert.equal(1, changed)
    local names = {}
    for _, t in ipairs(client.by_id(msgs, 3).result.tools) do names[t.name] = true end
    assert.is_true(names.browser_clock_run_for and names.browser_emulate and names.enable_tools)
    assert.is_nil(names.browser_route)
    assert.matches("^Served already: browser_clock_install", client.by_id(msgs, 4).result.content[1].text)
    local media = client.by_id(msgs, 5).result
    assert.is_nil(media.isError, media.content[1].text)
    assert.matches("color_scheme=dark", media.content[1].text, 1, true)
    local bad = client.by_id(msgs, 6)
    assert.truthy(bad.error or bad.result.isError)
  end)

  it("refuses an unknown capability at start, naming the known ones", function()
    local _, _, err, rc = client.batch({ client.initialize(1, "2025-06-18") }, "--caps storge")
    assert.equal(2, rc)
    assert.matches("unknown capability 'storge' (did you mean storage?)", err, 1, true)
    assert.matches("clock, emulation, network, pdf, storage, vision and all", err, 1, true)
  end)
end)
