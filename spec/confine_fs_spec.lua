--- spec/confine_fs_spec.lua: files `vdxlua mcp` writes and reads for a
-- tool stay beneath their folder, whatever the folder holds or an attacker
-- changes meanwhile: a default output folder that is a symbolic link is
-- refused, a link planted at a screenshot's name while it is captured is
-- neither followed nor replaced, a name flipped between a file and a link
-- never shows the link's target, hard links and a skill reference linked
-- to /etc/passwd are refused, a nested name is saved at its path, and a
-- full disk leaves nothing under the name.  The reads run with openat2 and
-- with its fallback (VDX_NO_OPENAT2=1).  (Issue 28, items 6 and 9.)
local vdx = require "vdx"
local client = require "mcp_client"
local helpers = require "helpers"

local q, read, names = client.q, client.read, client.names

local function write(path, s)
  local f = assert(io.open(path, "wb"))
  f:write(s)
  f:close()
end

local function tmpdir()
  return (helpers.run("mktemp -d /tmp/vdx-confine-fs.XXXXXX"):match("^(.-)%s*$"))
end

local function is_link(path)
  return os.execute("test -L " .. q(path)) == true
end

-- Runs one server with args (and env) over the lines; returns the
-- messages by id.
local function session(args, lines, env)
  local s = client.start(args, env)
  s:send(client.initialize(1, "2025-06-18"))
  for i, l in ipairs(lines) do
    s:send(l[1] == "ping" and { jsonrpc = "2.0", id = i + 1, method = "ping" } or
      l[1] == "read" and { jsonrpc = "2.0", id = i + 1, method = "resources/read", params = { uri = l[2] } } or
      client.call(i + 1, l[1], l[2]))
  end
  assert.is_table(s:wait_for(#lines + 1, 120000), "the last call did not answer")
  local rc, msgs = s:close(30000)
  assert.equal(0, rc)
  local out = {}
  for i = 1, #lines do out[i] = client.by_id(msgs, i + 1) end
  return out
end

local busy_now = false

describe("files beneath their folder", function()
  local srv, dir, root, outside

  setup(function()
    srv = helpers.serve {
      -- The page asks /go every 50 ms; once told, its main thread is busy
      -- for 3 s, so a call into the page (an element's rectangle) waits.
      ["GET /busy.html"] = function()
        return [[<!doctype html><title>Busy</title><h1>Busy page</h1><button>Hold</button><script>
setInterval(async () => {
  const r = await fetch('/go');
  if ((await r.text()) === '1') { const t = Date.now(); while (Date.now() - t < 3000) {} }
}, 50);
</script>]]
      end,
      ["GET /go"] = function()
        if busy_now then busy_now = "served" return "1" end
        return "0"
      end,
    }
  end)

  teardown(function() srv:close() end)

  before_each(function()
    dir = tmpdir()
    root, outside = dir .. "/ws", dir .. "/outside"
    os.execute(("mkdir -p %s %s"):format(q(root), q(outside)))
    write(outside .. "/secret.txt", "top-secret-outside\n")
    write(outside .. "/victim.txt", "victim-intact\n")
  end)

  after_each(function() os.execute("rm -rf " .. q(dir)) end)

  it("refuses a default output folder that is a symbolic link, and uses one named with --output-dir", function()
    os.execute(("mkdir -p %s/shots && ln -s %s/shots %s/vdx-output"):format(q(outside), q(outside), q(root)))
    local r = session("--workspace " .. q(root), {
      { "browser_navigate", { url = srv.url .. "/actions/form.html" } },
      { "browser_take_screenshot", { filename = "a.png" } },
    })
    assert.is_true(r[2].result.isError)
    assert.matches("the output folder " .. root .. "/vdx-output is a symbolic link", client.text(r[2]), 1, true)
    assert.matches("restart with --output-dir", client.text(r[2]), 1, true)
    assert.same({}, names(outside .. "/shots"))
    r = session("--output-dir " .. q(root .. "/vdx-output"), {
      { "browser_navigate", { url = srv.url .. "/actions/form.html" } },
      { "browser_take_screenshot", { filename = "a.png" } },
    })
    assert.is_nil(r[2].result.isError, client.text(r[2]))
    assert.same({ "a.png" }, names(outside .. "/shots/screenshots"))
  end)

  it("never follows nor replaces a link planted at the screenshot's name during the capture", function()
    os.execute("mkdir -p " .. q(root .. "/vdx-output/screenshots"))
    local s = client.start("--workspace " .. q(root))
    s:send(client.initialize(1, "2025-06-18"))
    s:send(client.call(2, "browser_navigate", { url = srv.url .. "/busy.html" }))
    assert.is_table(s:wait_for(2, 60000))
    s:send(client.call(4, "browser_snapshot", {}))
    local snap = s:wait_for(4, 60000)
    local ref = client.text(snap):match('button "Hold"[^\n]-%[ref=(e%d+)%]')
    assert.is_string(ref, client.text(snap))
    busy_now = true
    assert.is_truthy(client.wait_until(function() return busy_now == "served" end, 10000))
    vdx.sleep(100)
    -- The name is free now; the capture waits for the busy page.
    s:send(client.call(3, "browser_take_screenshot", { ref = ref, filename = "shot.png" }))
    vdx.sleep(600)
    assert.is_nil(s:wait_for(3, 1), "the screenshot answered before the page was free: no race to test")
    os.execute(("ln -s %s %s"):format(q(outside .. "/victim.txt"), q(root .. "/vdx-output/screenshots/shot.png")))
    local r = s:wait_for(3, 30000)
    busy_now = false
    assert.equal(0, s:close(30000))
    assert.is_true(r.result.isError, client.text(r))
    assert.matches("shot.png exists already; files are never overwritten", client.text(r), 1, true)
    assert.equal("victim-intact\n", read(outside .. "/victim.txt"))
    assert.is_true(is_link(root .. "/vdx-output/screenshots/shot.png"))
    assert.same({ "shot.png" }, names(root .. "/vdx-output/screenshots"))
  end)

  it("saves a nested name at its path, folders made, and refuses a link on the way", function()
    os.execute(("mkdir -p %s/vdx-output && ln -s %s %s/vdx-output/away"):format(q(root), q(outside), q(root)))
    local r = session("--workspace " .. q(root), {
      { "browser_navigate", { url = srv.url .. "/actions/form.html" } },
      { "browser_take_screenshot", { filename = "nested/deeper/x.png" } },
      { "browser_take_screenshot", { filename = "away/x.png" } },
      { "browser_take_screenshot", { filename = "nested/deeper/x.png" } },
    })
    assert.is_nil(r[2].result.isError, client.text(r[2]))
    assert.equal(root .. "/vdx-output/nested/deeper/x.png", r[2].result.structuredContent.path)
    assert.equal("\137PNG", read(root .. "/vdx-output/nested/deeper/x.png"):sub(1, 4))
    assert.same({ "away", "nested" }, names(root .. "/vdx-output"))
    assert.is_true(r[3].result.isError)
    assert.matches("a symbolic link is in the way", client.text(r[3]), 1, true)
    assert.same({ "secret.txt", "victim.txt" }, names(outside))
    assert.matches("exists already; files are never overwritten", client.text(r[4]), 1, true)
  end)

  it("replaces a regular file only when asked, and never a link or a folder at the name", function()
    local dir = tmpdir()
    local d = assert(vdx.open_dir(dir))
    assert.equal(dir .. "/a.spec.ts", d:write("a.spec.ts", "one"))
    local ok, _, code = d:write("a.spec.ts", "two")
    assert.is_nil(ok)
    assert.equal("Exists", code)
    assert.equal(dir .. "/a.spec.ts", d:write("a.spec.ts", "two", { replace = true }))
    assert.equal("two", read(dir .. "/a.spec.ts"))
    write(dir .. "/outside", "keep")
    assert(os.execute("ln -s " .. q(dir .. "/outside") .. " " .. q(dir .. "/link.spec.ts")))
    ok, _, code = d:write("link.spec.ts", "over", { replace = true })
    assert.is_nil(ok)
    assert.equal("Symlink", code)
    assert.equal("keep", read(dir .. "/outside"))
    assert.is_true(is_link(dir .. "/link.spec.ts"))
    assert(os.execute("mkdir " .. q(dir .. "/sub.spec.ts")))
    ok = d:write("sub.spec.ts", "over", { replace = true })
    assert.is_nil(ok)
    -- No temporary file is left behind by the refusals.
    assert.same({ "a.spec.ts", "link.spec.ts", "outside", "sub.spec.ts" }, names(dir))
    d:close()
    helpers.run("rm -rf " .. q(dir))
  end)

  it("leaves nothing under the name on a full disk, with a hint that says so, and the name stays free", function()
    local full = dir .. "/full"
    os.execute("mkdir -p " .. q(full))
    if not os.execute("mount -t tmpfs -o size=64k tmpfs " .. q(full) .. " 2>/dev/null") then
      pending("cannot mount a tmpfs here (not root?)")
      return
    end
    finally(function() os.execute("umount " .. q(full)) end)
    os.execute("dd if=/dev/zero of=" .. q(full .. "/filler") .. " bs=1k count=60 2>/dev/null")
    local args = "--output-dir " .. q(full)
    local r = session(args, {
      { "browser_navigate", { url = srv.url .. "/actions/form.html" } },
      { "browser_take_screenshot", { filename = "shot.png", fullPage = true } },
      { "ping" },
    })
    assert.is_true(r[2].result.isError, client.text(r[2]))
    assert.matches("^❌ The disk is full\n", client.text(r[2]))
    assert.matches("the disk is full; nothing was left behind. Free space", client.text(r[2]), 1, true)
    -- (Its folder, screenshots/, may stay, empty.)
    assert.equal("filler", names(full)[1])
    assert.same({}, names(full .. "/screenshots"))
    assert.same({}, r[3].result)
    os.remove(full .. "/filler")
    r = session(args, {
      { "browser_navigate", { url = srv.url .. "/actions/form.html" } },
      { "browser_take_screenshot", { filename = "shot.png", fullPage = true } },
    })
    assert.is_nil(r[2].result.isError, client.text(r[2]))
    assert.same({ "shot.png" }, names(full .. "/screenshots"))
  end)

  for _, env in ipairs { "", "VDX_NO_OPENAT2=1" } do
    local how = env == "" and " (openat2)" or " (the O_NOFOLLOW walk)"

    it("never shows the target of a name flipped between a file and a link, over 300 reads" .. how, function()
      write(root .. "/flip.txt", "inside\n")
      -- The flipper swaps flip.txt between a regular file and a link to
      -- the secret, each by an atomic rename, as fast as it can.
      local pid = helpers.run(("sh -c 'cd %s && while :; do ln -sf %s l.tmp && mv -T l.tmp flip.txt; "
        .. "printf \"inside\\n\" > f.tmp && mv -T f.tmp flip.txt; done' >/dev/null 2>&1 & echo $!")
        :format(q(root), q(outside .. "/secret.txt"))):match("%d+")
      finally(function() os.execute("kill " .. pid) end)
      local calls = {}
      for i = 1, 300 do calls[i] = { "read_file", { path = "flip.txt" } } end
      local r = session("--skills skills --workspace " .. q(root), calls, env)
      local leaked, inside, refused = 0, 0, 0
      for _, m in ipairs(r) do
        local t = client.text(m)
        if t:find("top-secret", 1, true) then leaked = leaked + 1
        elseif m.result.isError then refused = refused + 1
        elseif t == "    1  inside" then inside = inside + 1 end
      end
      assert.equal(0, leaked)
      assert.equal(300, inside + refused)
      -- Both states were met, so the reads did race the flips.
      assert.is_true(inside > 0 and refused > 0, ("inside %d, refused %d"):format(inside, refused))
    end)

    it("refuses a hard link to an outside file and a skill reference linked to /etc/passwd" .. how, function()
      os.execute(("ln %s %s"):format(q(outside .. "/secret.txt"), q(root .. "/hard.txt")))
      local sk = dir .. "/skills/linky"
      os.execute("mkdir -p " .. q(sk .. "/references"))
      write(sk .. "/SKILL.md", "---\nname: linky\ndescription: A skill with a linked reference.\n---\nBody.\n")
      write(sk .. "/references/plain.md", "plain reference\n")
      os.execute("ln -s /etc/passwd " .. q(sk .. "/references/passwd.md"))
      local r = session("--skills skills --skills " .. q(dir .. "/skills") .. " --workspace " .. q(root), {
        { "read_file", { path = "hard.txt" } },
        { "read", "skill://linky/references/passwd.md" },
        { "read", "skill://linky/references/plain.md" },
        { "ping" },
      }, env)
      assert.is_true(r[1].result.isError)
      assert.matches("hard.txt: the file has more than one hard link", client.text(r[1]), 1, true)
      assert.is_nil(client.text(r[1]):find("top-secret", 1, true))
      assert.is_table(r[2].error, "the linked reference was served")
      assert.matches("a symbolic link is in the way", r[2].error.message, 1, true)
      assert.equal("plain reference\n", r[3].result.contents[1].text)
      assert.same({}, r[4].result)
    end)
  end
end)
