--- spec/workspace_spec.lua: the workspace skill's tools, loaded through
-- the registry as `vdxlua mcp` loads them, over a scratch project; every
-- way out of the root is refused.
local tools = require "vdx.tools"

describe("skills/workspace tools #unit", function()
  local root, outside, reg

  local function call(name, args)
    return reg:call(name, args or {}, {})
  end

  local function text(res) return res.content[1].text end

  lazy_setup(function()
    root = os.tmpname()
    os.remove(root)
    outside = root .. "-outside"
    os.execute(("mkdir -p %s/src/components %s/node_modules/lib %s"):format(root, root, outside))
    local function write(path, s)
      local f = assert(io.open(path, "w"))
      f:write(s)
      f:close()
    end
    write(root .. "/src/components/Card.jsx",
      '<article data-testid="product-card">\n  <button data-testid="add-to-cart">Add</button>\n</article>\n')
    write(root .. "/src/page.html", '<div data-qa="banner"></div>\n<p>plain</p>\n')
    write(root .. "/src/card.spec.ts", "await page.getByTestId('product-card').click();\n")
    write(root .. "/node_modules/lib/x.js", '<b data-testid="vendored"></b>\n')
    write(root .. "/README.md", "line 1\nline 2\nline 3\n")
    write(outside .. "/secret.txt", "secret\n")
    write(root .. "/long.txt", ("é"):rep(40000) .. "\nshort\n")
    os.execute(("mkfifo %s/pipe"):format(root))
    os.execute(("ln -s %s %s/escape && ln -s %s/secret.txt %s/src/secret-link"):format(outside, root, outside, root))
    reg = tools.new()
    assert(reg:load_file("skills/workspace/tools.lua", { workspace = root }))
  end)

  lazy_teardown(function()
    os.execute(("rm -rf %s %s"):format(root, outside))
  end)

  it("registers the three tools", function()
    local names = {}
    for _, t in ipairs(reg:list()) do names[#names + 1] = t.name end
    assert.same({ "list_directory", "read_file", "find_test_ids" }, names)
  end)

  it("lists folders and reads files with line numbers and paging", function()
    local res = call("list_directory", {})
    assert.is_nil(res.isError)
    assert.equal(".", res.structuredContent.path)
    local names = {}
    for _, e in ipairs(res.structuredContent.entries) do names[#names + 1] = e.name end
    assert.same({ "README.md", "escape", "long.txt", "node_modules", "pipe", "src" }, names)
    res = call("read_file", { path = "README.md", offset = 2, limit = 1 })
    assert.equal("    2  line 2\n… more lines follow; call read_file with offset=3", text(res))
    assert.equal(3, res.structuredContent.next_offset)
  end)

  it("finds test ids with file and line, skipping node_modules", function()
    local res = call("find_test_ids", {})
    local s = res.structuredContent
    assert.equal(4, s.total)
    assert.same({ value = "product-card", attribute = "getByTestId", file = "src/card.spec.ts", line = 1 },
      s.matches[1])
    assert.same({ value = "product-card", attribute = "data-testid", file = "src/components/Card.jsx", line = 1 },
      s.matches[2])
    assert.same({ value = "add-to-cart", attribute = "data-testid", file = "src/components/Card.jsx", line = 2 },
      s.matches[3])
    assert.same({ attribute = "data-testid", count = 2 }, s.conventions[1])
    assert.matches('src/page.html:1  data%-qa="banner"', text(res))
    assert.matches("src/card.spec.ts:1  getByTestId=\"product%-card\"", text(res))
    assert.is_nil(text(res):find("vendored", 1, true))
    assert.equal(1, call("find_test_ids", { value = "cart" }).structuredContent.total)
    assert.is_nil(text(res):find("No app source here", 1, true))
    -- Only tests under the folder asked (those a session wrote, say): the
    -- app's source is elsewhere, and the answer says how to point at it.
    local tests = call("find_test_ids", { value = "product-card", path = "src/card.spec.ts" })
    assert.matches("\nNo app source here %(only test files%): start the server with %-%-workspace", text(tests))
  end)

  it("refuses every path outside the root", function()
    for _, case in ipairs {
      { "read_file", { path = "/etc/passwd" }, "absolute paths are refused" },
      { "read_file", { path = "../" .. outside:match("[^/]+$") .. "/secret.txt" }, "leaves the workspace root" },
      { "read_file", { path = "src/../../x" }, "leaves the workspace root" },
      { "list_directory", { path = ".." }, "leaves the workspace root" },
      { "list_directory", { path = "escape" }, "outside the workspace root" },
      { "read_file", { path = "src/secret-link" }, "outside the workspace root" },
      { "find_test_ids", { path = "escape" }, "outside the workspace root" },
      { "read_file", { path = "~/x" }, "absolute paths are refused" },
    } do
      local res = call(case[1], case[2])
      assert.is_true(res.isError, case[1] .. " " .. case[2].path)
      assert.matches(case[3], text(res), 1, true)
      assert.is_nil(text(res):find("secret\n", 1, true))
    end
    assert.equal("src/components", call("list_directory", { path = "src/./components/../components" })
      .structuredContent.path)
  end)

  it("refuses a FIFO at once, without waiting for a writer", function()
    -- A writer that shows up later: a blocking open would return its text.
    os.execute(("timeout 5 sh -c 'sleep 2; echo from-the-writer > %s/pipe' >/dev/null 2>&1 &"):format(root))
    local res = call("read_file", { path = "pipe" })
    assert.is_true(res.isError)
    assert.matches("pipe is not a regular file (a FIFO, socket or device cannot be read); " ..
      "only regular files are read", text(res), 1, true)
    assert.is_nil(text(res):find("from-the-writer", 1, true))
  end)

  it("cuts a line longer than the limit and pages on past it", function()
    local res = call("read_file", { path = "long.txt", limit = 1 })
    assert.is_nil(res.isError)
    local s = res.structuredContent
    assert.same({ 1, true, 2 }, { s.lines, s.more, s.next_offset })
    local shown = text(res):match("^    1  (.-) … %[line cut: 80000 bytes in all%]\n")
    assert.equal(("é"):rep(2048), shown)
    res = call("read_file", { path = "long.txt", offset = s.next_offset })
    assert.equal("    2  short", text(res))
    assert.is_false(res.structuredContent.more)
  end)
end)

describe("vdxlua mcp with a FIFO in the workspace", function()
  local client = require "mcp_client"

  it("answers read_file on it at once, keeps answering, and ends when stdin closes", function()
    local root = client.tmpdir()
    os.execute("mkfifo " .. client.q(root .. "/pipe"))
    local msgs, _, err, rc = client.batch({
      client.initialize(1, "2025-06-18"),
      client.call(2, "read_file", { path = "pipe" }),
      { jsonrpc = "2.0", id = 3, method = "ping" },
    }, "--skills skills --workspace " .. client.q(root), 30000)
    os.execute("rm -rf " .. client.q(root))
    assert.equal(0, rc, err)
    local read = client.by_id(msgs, 2)
    assert.is_true(read.result.isError)
    assert.matches("pipe is not a regular file", client.text(read), 1, true)
    assert.same({}, client.by_id(msgs, 3).result)
  end)
end)
