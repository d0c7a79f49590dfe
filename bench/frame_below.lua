--- bench/frame_below.lua: actions in a cross-origin frame below the fold,
-- as a payment or consent frame often sits: each round navigates afresh
-- (the frame out of view, so the browser neither draws it nor runs its
-- timers more than about once a second), then checks its checkbox and
-- clicks its button; and on another fresh navigate selects an option.  Run with the frame in its own process (as the full
-- browser runs it) and in the page's (the headless shell's default), for
-- comparing two builds one after the other.
--
-- Usage: BUILD/vdxlua bench/frame_below.lua [ROUNDS]   (ROUNDS 15)
-- Prints median / p95 of the check (the first action, which scrolls the
-- frame into view), of the click after it and of the select (a first
-- action too), and how many presses the browser first sent to the parent
-- page (input_retries).
package.path = "bench/?.lua;" .. package.path
local vdx = require "vdx"
local lib = require "lib"
local fx = require "fixtures"

local ROUNDS = tonumber(arg[1] or "") or 15

local srv = vdx.serve { root = "spec/fixtures", port = 0 }
local url = "http://a.test:" .. srv.url:match(":(%d+)$") .. "/actions/below.html"

local function ref_of(text, pattern)
  local ref = text:match(pattern .. " %[ref=([%w_]+)%]")
  return (assert(ref, pattern))
end

local m = lib.machine()
print(("frame below the fold, %d rounds, load %s, %s"):format(ROUNDS, m.load1, os.date("!%Y-%m-%dT%H:%MZ")))
io.stdout:flush()
for _, mode in ipairs { { "own process", "--site-per-process" }, { "page's process" } } do
  local browser, close = lib.launch { args = { fx.RESOLVER, mode[2] } }
  local page = browser:new_context():new_page()
  local check, click, select, retries, failed = {}, {}, {}, 0, 0
  for _ = 1, ROUNDS do
    page:navigate(url)
    local text = page:snapshot().text
    local t0 = lib.ms()
    local ok, r = pcall(page.check, page, ref_of(text, 'checkbox "I agree"'))
    local t1 = lib.ms()
    local ok2, r2 = pcall(page.click, page, ref_of(text, 'button "Send"'))
    local t2 = lib.ms()
    check[#check + 1], click[#click + 1] = t1 - t0, t2 - t1
    page:navigate(url)
    text = page:snapshot().text
    local t3 = lib.ms()
    local ok3 = pcall(page.select_option, page, ref_of(text, 'combobox "Plan"'), "Pro")
    select[#select + 1] = lib.ms() - t3
    -- A build without the arrival check loses presses (CheckFailed).
    failed = failed + (ok and 0 or 1) + (ok2 and 0 or 1) + (ok3 and 0 or 1)
    retries = retries + (ok and r.input_retries or 0) + (ok2 and r2.input_retries or 0)
  end
  local a, b, c = lib.stats(check), lib.stats(click), lib.stats(select)
  print(("  %-14s check %7s / %7s ms   click after it %7s / %7s ms   select %7s / %7s ms   "
    .. "presses sent again %d, failed %d"):format(mode[1], lib.fmt(a.median), lib.fmt(a.p95), lib.fmt(b.median),
    lib.fmt(b.p95), lib.fmt(c.median), lib.fmt(c.p95), retries, failed))
  close()
end
srv:close()
