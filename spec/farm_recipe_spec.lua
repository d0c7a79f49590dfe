--- docs/farms.md's browserless recipe runs as written: its lines, in
-- order, each exiting 0, the demo flow passing on the farm (whose browser
-- has none of the launch flags that map the demo's host names), and the
-- farm gone after the last line.  Two changes only: a free port instead
-- of 3000, which anything on this machine may hold, and the npm install
-- line is not run again: it is what `make deps` ran (the spec checks that
-- both name the same version), and without it the spec is pending.  (It
-- was run once as written, into a new folder: npm warns EBADENGINE and
-- exits 0, and this spec passed on that install.)  Also: farm.mjs
-- started with `&` from a script serves while the script runs and stops
-- when it ends, whatever its standard input.
local helpers = require "helpers"
local farms = require "farms"

local q, read = helpers.quote, helpers.read

-- The lines of the block that the fragment marker naming this spec
-- precedes.
local function recipe()
  local lines, marked, inside = {}, false, false
  for line in io.lines("docs/farms.md") do
    if inside then
      if line == "```" then break end
      lines[#lines + 1] = line
    elseif marked and line:match("^```") then
      inside = true
    elseif line:find("spec/farm_recipe_spec.lua", 1, true) and line:match("^<!%-%- fragment") then
      marked = true
    end
  end
  return lines
end

describe("docs/farms.md's browserless recipe", function()
  it("names the browserless version make deps installs", function()
    local lines = recipe()
    assert.equal(4, #lines)
    local version = lines[1]:match("@browserless%.io/browserless@([%d.]+)")
    assert.truthy(version, lines[1])
    assert.equal(version, read("build-aux/deps.sh"):match("\nBROWSERLESS=([%d.]+)"))
  end)

  it("runs as written: the farm starts, the demo flow passes on it, the farm stops", function()
    local why = farms.missing()
    if why then pending(why) return end
    local port = farms.free_port()
    local lines = recipe()
    local pidfile
    local ok, err = pcall(function()
      for i = 2, #lines do
        local cmd = lines[i]:gsub("3000", port):gsub("build/farm ", farms.DIR .. " ")
          :gsub("^build/vdxlua", q(helpers.vdxlua))
        pidfile = pidfile or cmd:match("%-%-pidfile (%S+)")
        local out, rc = helpers.run(cmd)
        assert.equal(0, rc, cmd .. "\n" .. out)
        if cmd:find("examples/flow.lua", 1, true) then
          assert.matches("\n✔ marketplace[^\n]*: 11 steps in %d+ ms\n", out)
        end
      end
    end)
    local pid = pidfile and tonumber(read(pidfile) or "")
    assert.truthy(pid, "the recipe names no --pidfile")
    local stopped = farms.wait_until(function() return not helpers.alive(pid) end, 20000)
    if not stopped then os.execute("kill -KILL " .. pid) end
    os.remove(pidfile)
    os.remove(pidfile .. ".log")
    assert(ok, err)
    assert.is_true(stopped, "the farm outlived `kill $(cat " .. pidfile .. ")`")
  end)

  it("serves for as long as the script that started it with & runs, then stops", function()
    local why = farms.missing()
    if why then pending(why) return end
    local port, dir = farms.free_port(), farms.tmpdir()
    local script = helpers.write(dir .. "/run.sh", ([[
node build-aux/farm.mjs %s %s %s > %s 2>&1 &
echo $! > %s
i=0
until curl -sf "http://127.0.0.1:%s/json/version?token=%s" > /dev/null; do
  i=$((i + 1)); [ $i -gt 600 ] && exit 1; sleep 0.2
done
%s -e 'local vdx = require "vdx"
local b = vdx.connect("http://127.0.0.1:%s?token=%s")
print("answer " .. b:new_page():evaluate("6 * 7"))
b:close()'
]]):format(q(farms.DIR), port, farms.TOKEN, q(dir .. "/log"), q(dir .. "/pid"), port, farms.TOKEN, q(helpers.vdxlua), port,
      farms.TOKEN))
    local out, rc = helpers.run("sh " .. q(script) .. " < /dev/null")
    local pid = tonumber(read(dir .. "/pid") or "")
    out = out .. "\nthe farm's log: " .. (read(dir .. "/log") or ""):sub(-600)
    local stopped = pid and farms.wait_until(function() return not helpers.alive(pid) end, 20000)
    if pid and not stopped then os.execute("kill -KILL " .. pid) end
    os.execute("rm -rf " .. q(dir))
    assert.equal(0, rc, out)
    assert.matches("answer 42", out, 1, true)
    assert.is_true(stopped, "the farm outlived the script that started it")
  end)
end)
