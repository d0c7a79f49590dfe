-- Tasks on the loop, without a browser: spawn, wait, sleep, errors.
local vdx = require "vdx"

describe("vdx tasks #unit", function()
  it("runs a task on the next loop turn and returns its results", function()
    local order = {}
    local t = vdx.spawn(function(a, b)
      order[#order + 1] = "task"
      return a + b, "done"
    end, 2, 3)
    order[#order + 1] = "spawner"
    assert.equal("vdx.Task (new)", tostring(t))
    local sum, word = vdx.wait(t)
    assert.same({ "spawner", "task" }, order)
    assert.equal(5, sum)
    assert.equal("done", word)
    assert.is_true(t:done())
    -- Waiting again gives the same results.
    assert.equal(5, (vdx.wait(t)))
  end)

  it("interleaves sleeping tasks by their deadlines", function()
    -- Each wake is logged with the deadline its sleep had.  The order is
    -- checked against those deadlines, not against a fixed list: on a
    -- busy machine a task wakes late and its next deadlines move with it
    -- (a clean run once woke a1 so late that a2 came after b1).
    local log = {}
    local function worker(name, ms)
      for i = 1, 3 do
        local due = vdx.now() + ms
        vdx.sleep(ms)
        log[#log + 1] = { name = name .. i, due = due, at = vdx.now() }
      end
    end
    local a = vdx.spawn(worker, "a", 10)
    local b = vdx.spawn(worker, "b", 25)
    vdx.wait(a)
    vdx.wait(b)
    local names, last_a, first_b = {}, 0, nil
    for i, e in ipairs(log) do
      names[i] = e.name
      -- (The timer counts from the loop's time, which may be a
      -- millisecond behind the clock read before it.)
      assert.is_true(e.at >= e.due - 2, e.name)
      if i > 1 then assert.is_true(log[i - 1].due <= e.due + 2, table.concat(names, " ")) end
      if e.name:sub(1, 1) == "a" then last_a = i elseif not first_b then first_b = i end
    end
    assert.equal(6, #log)
    -- b's first deadline (25 ms) comes before a's third (30 ms or later).
    assert.is_true(first_b < last_a, table.concat(names, " "))
  end)

  it("re-raises a task's error with its traceback, keeping typed errors", function()
    local t = vdx.spawn(function() error(vdx.error("Timeout", "too slow", { ms = 5 })) end)
    local ok, err = pcall(vdx.wait, t)
    assert.is_false(ok)
    assert.is_true(vdx.is_error(err, "Timeout"))
    assert.equal(5, err.ms)
    -- The error names the line that raised it (vdx.error sets where).
    assert.equal("Timeout: too slow (at spec/task_spec.lua:" .. (debug.getinfo(1, "l").currentline - 6) .. ")",
      tostring(err))
    assert.matches("traceback", err.traceback)
    local t2 = vdx.spawn(function() error("plain") end)
    local ok2, err2 = pcall(vdx.wait, t2)
    assert.is_false(ok2)
    assert.matches("plain", err2)
    assert.matches("stack traceback", err2)
    assert.equal("failed", t2:status())
  end)

  it("times out a wait on a task that takes too long", function()
    local t = vdx.spawn(function() vdx.sleep(300) return 1 end)
    local ok, err = pcall(vdx.wait, t, 20)
    assert.is_false(ok)
    assert.is_true(vdx.is_error(err, "Timeout"))
    assert.equal(1, vdx.wait(t))
  end)

  it("lets a task wait for another task", function()
    local inner = vdx.spawn(function() vdx.sleep(5) return "inner" end)
    local outer = vdx.spawn(function() return vdx.wait(inner) .. "+outer" end)
    assert.equal("inner+outer", vdx.wait(outer))
  end)

  it("treats a bare coroutine.yield inside a task as a pause", function()
    local t = vdx.spawn(function()
      coroutine.yield()
      return "resumed"
    end)
    assert.equal("resumed", vdx.wait(t))
  end)

  it("refuses to wait from a plain coroutine, with a clear message", function()
    local co = coroutine.wrap(function() return pcall(vdx.sleep, 1) end)
    local ok, err = co()
    assert.is_false(ok)
    if vdx.current_task() then
      -- Under the vdxlua runner the spec itself is a task, inside the loop.
      assert.matches("call it from a task", err)
    else
      -- Outside the loop it may be a host's coroutine: the error names the
      -- host adapters (see embed_spec).
      assert.equal("NoHostAdapter", err.type)
      assert.matches("run it as a vdx task (vdx.spawn)", err.message, 1, true)
    end
    -- Inside the loop (here: a coroutine made by a task) no host can run it.
    local t = vdx.spawn(function()
      return coroutine.wrap(function() return pcall(vdx.sleep, 1) end)()
    end)
    local ok2, err2 = vdx.wait(t)
    assert.is_false(ok2)
    assert.matches("call it from a task", err2)
  end)

  it("runs every spawned task with vdx.run", function()
    local n = 0
    for _ = 1, 10 do vdx.spawn(function() vdx.sleep(1) n = n + 1 end) end
    assert.equal(0, vdx.run())
    assert.equal(10, n)
  end)

  it("cancels a waiting task with a typed error it can catch", function()
    local t = vdx.spawn(function()
      local ok, err = pcall(vdx.sleep, 10000)
      return ok, err.type, err.message
    end)
    vdx.sleep(5)
    assert.is_true(t:cancel("the client gave up"))
    local ok, kind, msg = vdx.wait(t, 2000)
    assert.is_false(ok)
    assert.equal("Cancelled", kind)
    assert.equal("the client gave up", msg)
    assert.is_false(t:cancel())
  end)

  it("rejects bad arguments", function()
    assert.has_error(function() vdx.spawn(42) end)
    assert.has_error(function() vdx.sleep(-1) end)
    assert.has_error(function() vdx.wait({}) end)
  end)
end)
