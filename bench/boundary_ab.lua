--- bench/boundary_ab.lua: the per-call cost of the page boundary, for an
-- A/B of two builds (the same script runs on both).  On the 200-card shop
-- page, REPS times each: a budgeted snapshot, page:evaluate of a number
-- (the CDP wire's JSON both ways), page:describe of a ref and a raw
-- page:bridge call (the road into the bridge), and page:frames (a C call
-- that reaches no browser: the binding's own overhead).  Prints one JSON
-- line of medians and p95s in ms.
--
-- Usage: build/vdxlua bench/boundary_ab.lua [REPS]   (from the tree's root)
-- An A/B: run it alternately with two builds' vdxlua and compare the
-- medians of the same run (see bench/README.md).
package.path = "bench/?.lua;" .. package.path
local vdx = require "vdx"
local lib = require "lib"
local fx = require "fixtures"

local REPS = tonumber(arg[1] or "") or 31
local srv, base = fx.serve(vdx)
local browser = vdx.launch {}
local page = browser:new_page()
page:navigate(base["local"] .. "/shop.html")
local snap = page:snapshot { budget_tokens = 12000 }
local ref = snap.text:match('%[ref=(e%d+)%]')

local out = {}
local function run(name, fn)
  local st = lib.time(REPS, fn, 3)
  out[name] = { median = st.median, p95 = st.p95 }
end
run("snapshot", function() return page:snapshot { budget_tokens = 12000 } end)
run("evaluate", function() return page:evaluate("0.1 + 0.2") end)
run("describe", function() return page:describe(ref) end)
run("bridge", function() return page:bridge("pageInfo", {}) end)
run("frames", function() return page:frames() end)
browser:close()
srv:close()
print(require("cjson").encode(out))
