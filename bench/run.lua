--- bench/run.lua: the in-process benchmark (`make bench`).
--
-- Serves the generated fixture pages (bench/fixtures.lua) from this very
-- process, launches Chromium and measures, as median and p95 over repeated
-- runs: snapshot time (default budget, and unbounded), each exploration
-- primitive, click and type round trips, navigation of a local page, cold
-- start (a fresh vdxlua process up to its first snapshot), host and browser
-- memory, and snapshot size.  The floor is measured in the same run: a bare
-- Runtime.evaluate round trip and a bare in-page walk of every element with
-- a computed-style read; figures are printed as ratios to it.
--
-- Writes bench/results.json (keeping a "peers" section that
-- bench/peers.mjs wrote earlier) and, through bench/plot.lua, bench/plot.png.
--
-- Environment: BENCH_REPS (default 11), BENCH_COLD (cold starts, default 5),
-- BENCH_SIZES (e.g. "2000,20000" to skip the largest page), BENCH_OUT
-- (results path, default bench/results.json).
package.path = "bench/?.lua;" .. package.path
local vdx = require "vdx"
local json = require "cjson"
local fx = require "fixtures"
local lib = require "lib"

local REPS = tonumber(os.getenv("BENCH_REPS") or "") or 11
local COLD = tonumber(os.getenv("BENCH_COLD") or "") or 5
local OUT = os.getenv("BENCH_OUT") or "bench/results.json"
local SIZES = fx.SIZES
if os.getenv("BENCH_SIZES") then
  SIZES = {}
  for n in os.getenv("BENCH_SIZES"):gmatch("%d+") do SIZES[#SIZES + 1] = tonumber(n) end
end
local VDXLUA = arg and arg[-1] or "build/vdxlua"
if not VDXLUA:match("vdxlua$") then VDXLUA = "build/vdxlua" end

local FULL = 10000000  -- a budget no page reaches: the whole snapshot

local WALK = [[(() => { let n = 0, shown = 0;
  for (const e of document.querySelectorAll('*')) {
    n++; if (getComputedStyle(e).display !== 'none') shown++;
  }
  return n; })()]]

local function eval_rt(page)
  return page:send("Runtime.evaluate", { expression = "1", returnByValue = true })
end

local function walk(page)
  return page:send("Runtime.evaluate", { expression = WALK, returnByValue = true }).result.value
end

local function first_ref(text, pattern)
  return text:match(pattern)
end

--- Per-page figures: navigate, floor, snapshots.
local function bench_page(page, name, url, reps)
  local r = { name = name, url = url }
  local nav = lib.time(math.max(3, reps // 2), function()
    return page:navigate(url, { wait_until = "load", timeout_ms = 120000 })
  end, 0)
  r.navigate = nav
  -- The first snapshot of each fresh document (what an agent waits for
  -- after navigating), timed apart from the navigation itself.
  local firsts = {}
  for i = 1, math.max(3, reps // 2) do
    page:navigate(url, { wait_until = "load", timeout_ms = 120000 })
    local t0 = lib.ms()
    page:snapshot { timeout_ms = 120000 }
    firsts[i] = lib.ms() - t0
  end
  r.snapshot_first = lib.stats(firsts)
  -- The same after half a second, as when an agent thinks between calls
  -- (the bridge's idle-time warm-up has run by then).
  firsts = {}
  for i = 1, math.max(3, reps // 2) do
    page:navigate(url, { wait_until = "load", timeout_ms = 120000 })
    vdx.sleep(500)
    local t0 = lib.ms()
    page:snapshot { timeout_ms = 120000 }
    firsts[i] = lib.ms() - t0
  end
  r.snapshot_first_idle = lib.stats(firsts)
  -- Cross-origin frames attach after load: a first snapshot settles them.
  local settle = page:snapshot { budget_tokens = FULL, timeout_ms = 120000 }
  if #(settle.warnings or {}) > 0 then
    vdx.sleep(500)
    settle = page:snapshot { budget_tokens = FULL, timeout_ms = 120000 }
  end
  r.floor_rt = lib.time(reps, function() return eval_rt(page) end, 2)
  local st, n = lib.time(reps, function() return walk(page) end, 1)
  r.floor_walk, r.elements = st, n
  local snap
  r.snapshot, snap = lib.time(reps, function() return page:snapshot { timeout_ms = 120000 } end, 1)
  r.chars = #snap.text
  r.tokens = math.ceil(#snap.text / 4)
  r.truncated = snap.truncated and true or false
  r.ref_count, r.element_count = snap.ref_count, snap.element_count
  r.warnings = #(snap.warnings or {})
  local full
  r.snapshot_full, full = lib.time(reps, function()
    return page:snapshot { budget_tokens = FULL, timeout_ms = 120000 }
  end, 0)
  r.chars_full = #full.text
  r.tokens_full = math.ceil(#full.text / 4)
  r.warnings_full = full.warnings
  r.text_full = full.text
  return r
end

--- The exploration primitives, click and type on the shop page.
local function bench_primitives(page, url, reps)
  page:navigate(url)
  local snap = page:snapshot { budget_tokens = FULL }
  local button = first_ref(snap.text, 'button "Add to Cart" %[ref=(e%d+)%]')
  local input = first_ref(snap.text, 'textbox "Full name"[^\n]-%[ref=(e%d+)%]')
  local p = {}
  local function try(name, fn)
    local ok, st = pcall(lib.time, reps, fn, 1)
    if ok then p[name] = st
    else p[name] = { error = tostring(st) }; io.stderr:write("bench: ", name, ": ", tostring(st), "\n") end
  end
  try("describe", function() return page:describe(button) end)
  try("resolve_container", function() return page:resolve_container(button) end)
  try("inspect_pattern", function() return page:inspect_pattern(button, 1) end)
  try("extract_anchors", function() return page:extract_anchors(button, 1) end)
  try("locator_count", function()
    return page:locator_count('getByTestId("product-card").filter({ hasText: "Product 7" }).getByRole("button", { name: "Add to Cart" })')
  end)
  try("read_html_form", function() return page:read_html { mode = "form" } end)
  if type(page.click) == "function" then
    try("click", function() return page:click(button) end)
  else
    p.click = { error = "n/a: page:click is not there yet" }
  end
  if type(page.type) == "function" then
    try("type", function() return page:type(input, "Ada Lovelace", { clear = true }) end)
  else
    p.type = { error = "n/a: page:type is not there yet" }
  end
  return p, button
end

--- Cold start: a fresh vdxlua process, start to first snapshot of the shop.
local function bench_cold(n)
  local xs, inner = {}, {}
  for i = 1, n do
    local t0 = lib.ms()
    local p = io.popen(VDXLUA .. " bench/cold.lua 2>&1")
    local out = p:read("a")
    p:close()
    xs[i] = lib.ms() - t0
    local ok, v = pcall(json.decode, out:match("{.*}") or "")
    if ok and type(v) == "table" then inner[#inner + 1] = v
    else io.stderr:write("bench: cold start ", i, ": ", out, "\n") end
  end
  local launch, first = {}, {}
  for i, v in ipairs(inner) do launch[i], first[i] = v.launch_ms, v.first_snapshot_ms end
  return { process = lib.stats(xs), launch = lib.stats(launch), first_snapshot = lib.stats(first) }
end

local function strip(st)
  if type(st) ~= "table" then return st end
  local c = {}
  for k, v in pairs(st) do if k ~= "samples" then c[k] = v end end
  return c
end

local function ratio(a, b)
  if not a or not b or b == 0 then return nil end
  return a / b
end

local function main()
  local machine = lib.machine()
  io.stderr:write(("bench: load %s %s %s on %d cores; %d reps\n"):format(
    machine.load1, machine.load5, machine.load15, machine.cpus, REPS))
  local srv, base = fx.serve(vdx)
  local mem0 = lib.mem()
  local browser, close_browser = lib.launch { args = { fx.RESOLVER }, timeout_ms = 120000 }
  local page = browser:new_context():new_page()
  page:navigate(base["local"] .. "/blank.html")

  local pages = {}
  local mem_shop
  local list = { { "shop", base["local"] .. "/shop.html", REPS } }
  for _, n in ipairs(SIZES) do
    list[#list + 1] = { "elements-" .. n, ("%s/elements-%d.html"):format(base["local"], n),
                        n >= 100000 and math.max(3, REPS // 3) or n >= 20000 and math.max(3, REPS // 2) or REPS }
  end
  list[#list + 1] = { "frames", base.a .. "/frames.html", REPS }
  list[#list + 1] = { "shadow", base["local"] .. "/shadow.html", REPS }
  for _, item in ipairs(list) do
    io.stderr:write("bench: ", item[1], "\n")
    local ok, r = pcall(bench_page, page, item[1], item[2], item[3])
    if item[1] == "shop" then collectgarbage(); collectgarbage(); mem_shop = lib.mem() end
    if ok then pages[#pages + 1] = r
    else io.stderr:write("bench: ", item[1], " failed: ", tostring(r), "\n")
         pages[#pages + 1] = { name = item[1], error = tostring(r) } end
  end
  io.stderr:write("bench: primitives\n")
  local prims = bench_primitives(page, base["local"] .. "/shop.html", REPS)
  collectgarbage(); collectgarbage()
  local mem_host = lib.mem()
  local mem_browser = lib.group_mem(browser:pid())
  close_browser()
  io.stderr:write("bench: cold start x", COLD, "\n")
  local cold = bench_cold(COLD)
  srv:close()

  -- The table.
  local shop = pages[1]
  local rt, walkf = shop.floor_rt and shop.floor_rt.median, shop.floor_walk and shop.floor_walk.median
  local rows = {}
  local function row(what, st, floor, extra)
    rows[#rows + 1] = { what, st and st.median, st and st.p95, ratio(st and st.median, floor), extra or "" }
  end
  print(("vdxlua bench, %s, %s (%s), %d cores, load %s/%s/%s, %s"):format(
    machine.date, machine.cpu_model or "?", machine.chromium, machine.cpus,
    machine.load1, machine.load5, machine.load15, VDXLUA))
  print()
  print(lib.pad("page", 16) .. lib.pad("elems", 8, true) .. lib.pad("snap ms", 10, true) ..
        lib.pad("p95", 8, true) .. lib.pad("full ms", 10, true) .. lib.pad("p95", 8, true) ..
        lib.pad("walk ms", 9, true) .. lib.pad("x walk", 8, true) .. lib.pad("rt ms", 8, true) ..
        lib.pad("chars", 9, true) .. lib.pad("tokens", 8, true) .. lib.pad("full ch", 9, true) ..
        lib.pad("refs", 7, true) .. lib.pad("nav ms", 8, true))
  for _, r in ipairs(pages) do
    if r.error then
      print(lib.pad(r.name, 16) .. "  error: " .. r.error)
    else
      print(lib.pad(r.name, 16) .. lib.pad(r.elements, 8, true) ..
        lib.pad(lib.fmt(r.snapshot.median), 10, true) .. lib.pad(lib.fmt(r.snapshot.p95), 8, true) ..
        lib.pad(lib.fmt(r.snapshot_full.median), 10, true) .. lib.pad(lib.fmt(r.snapshot_full.p95), 8, true) ..
        lib.pad(lib.fmt(r.floor_walk.median), 9, true) ..
        lib.pad(lib.fmt(ratio(r.snapshot_full.median, r.floor_walk.median)), 8, true) ..
        lib.pad(lib.fmt(r.floor_rt.median), 8, true) ..
        lib.pad(r.chars, 9, true) .. lib.pad(r.tokens, 8, true) .. lib.pad(r.chars_full, 9, true) ..
        lib.pad(r.ref_count, 7, true) .. lib.pad(lib.fmt(r.navigate.median), 8, true) ..
        (r.warnings_full and #r.warnings_full > 0 and ("  warnings: " .. #r.warnings_full) or ""))
    end
  end
  print()
  print(lib.pad("on the shop page", 22) .. lib.pad("median ms", 11, true) .. lib.pad("p95 ms", 9, true) ..
        lib.pad("x floor", 9, true) .. "  floor")
  local function prow(name, st, floor, fname)
    if st and st.error then
      print(lib.pad(name, 22) .. "  " .. st.error:gsub("\n.*", ""))
    else
      print(lib.pad(name, 22) .. lib.pad(lib.fmt(st and st.median), 11, true) ..
            lib.pad(lib.fmt(st and st.p95), 9, true) ..
            lib.pad(lib.fmt(ratio(st and st.median, floor)), 9, true) .. "  " .. fname)
    end
  end
  prow("bare Runtime.evaluate", shop.floor_rt, rt, "round trip")
  prow("bare walk + style", shop.floor_walk, walkf, "walk")
  prow("snapshot (budget)", shop.snapshot, walkf, "walk")
  prow("1st snap after goto", shop.snapshot_first, walkf, "walk")
  prow("1st snap, goto+0.5 s", shop.snapshot_first_idle, walkf, "walk")
  prow("snapshot (full)", shop.snapshot_full, walkf, "walk")
  for _, k in ipairs { "describe", "resolve_container", "inspect_pattern", "extract_anchors",
                       "locator_count", "read_html_form", "click", "type" } do
    prow(k, prims[k], rt, "round trip")
  end
  prow("navigate (local)", shop.navigate, rt, "round trip")
  prow("cold start: process", cold.process, nil, "")
  prow("cold start: launch", cold.launch, nil, "")
  prow("cold start: 1st snap", cold.first_snapshot, nil, "")
  print()
  print(("memory: host RSS %.1f MiB, PSS %.1f MiB after the shop page; %.1f / %.1f after every page (100k elements included); at start %.1f / %.1f")
    :format(mem_shop.rss_kib / 1024, mem_shop.pss_kib / 1024, mem_host.rss_kib / 1024, mem_host.pss_kib / 1024,
            mem0.rss_kib / 1024, mem0.pss_kib / 1024))
  print(("memory: browser tree %d processes, RSS %.0f MiB, PSS %.0f MiB"):format(
            mem_browser.processes, mem_browser.rss_kib / 1024, mem_browser.pss_kib / 1024))

  -- results.json: keep what the peers run wrote.
  local results = {}
  local f = io.open(OUT)
  if f then
    local ok, v = pcall(json.decode, f:read("a"))
    f:close()
    if ok and type(v) == "table" then results = v end
  end
  local out_pages = {}
  for _, r in ipairs(pages) do
    local c = {}
    for k, v in pairs(r) do
      if k ~= "text_full" then c[k] = type(v) == "table" and strip(v) or v end
    end
    out_pages[#out_pages + 1] = c
  end
  local out_prims = {}
  for k, v in pairs(prims) do out_prims[k] = strip(v) end
  results.machine = machine
  results.vdxlua = {
    reps = REPS, pages = out_pages, primitives = out_prims, cold_start = cold,
    memory = { host_start = mem0, host_after_shop = mem_shop, host = mem_host, browser_tree = mem_browser },
  }
  local w = assert(io.open(OUT, "w"))
  w:write(json.encode(results), "\n")
  w:close()
  -- Keep the shop snapshot for the comparison with the peers' text.
  local s = (os.execute("mkdir -p bench/out") and io.open("bench/out/shop-vdxlua.txt", "w"))
  if s and shop.text_full then s:write(shop.text_full); s:close() end
  print("wrote " .. OUT)
end

main()
