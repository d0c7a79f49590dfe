--- spec/confine_spec.lua: with --workspace, the files tools read and write
-- stay in the workspace and the output folder; file: URLs are refused
-- unless --allow-file-urls; a screenshot never replaces a file, and its
-- image goes back to the client as the browser sent it.
local vdx = require "vdx"
local client = require "mcp_client"
local helpers = require "helpers"

local q, read = client.q, client.read

local function write(path, s)
  local f = assert(io.open(path, "wb"))
  f:write(s)
  f:close()
end

local names = client.names

describe("confinement of the MCP tools", function()
  local srv, root, outside

  setup(function()
    srv = helpers.serve {}
    root = os.tmpname()
    os.remove(root)
    outside = root .. "-outside"
    os.execute(("mkdir -p %s/data %s"):format(q(root), q(outside)))
    write(outside .. "/secret.txt", "top-secret-outside\n")
    write(outside .. "/victim.txt", "victim-intact\n")
    write(root .. "/data/avatar.txt", "inside-file\n")
    os.execute(("ln -s %s %s/escape"):format(q(outside), q(root)))
  end)

  teardown(function()
    os.execute(("rm -rf %s %s"):format(q(root), q(outside)))
    srv:close()
  end)

  local function session(args, calls)
    local lines = { client.initialize(1, "2025-06-18") }
    for i, c in ipairs(calls) do lines[#lines + 1] = client.call(i + 1, c[1], c[2]) end
    local msgs, _, err, rc = client.batch(lines, args)
    assert.equal(0, rc, err)
    local out = {}
    for i = 1, #calls do out[i] = client.by_id(msgs, i + 1) end
    return out
  end

  it("refuses file: URLs unless --allow-file-urls", function()
    local url = "file://" .. outside .. "/secret.txt"
    local r = session("", { { "browser_navigate", { url = url } },
      { "browser_navigate", { url = "view-source:" .. url } },
      { "browser_snapshot", {} } })
    assert.is_true(r[1].result.isError)
    assert.matches("file: URLs are refused", client.text(r[1]), 1, true)
    assert.is_true(r[2].result.isError)
    assert.is_nil(client.text(r[3]):find("top-secret-outside", 1, true))
    r = session("--allow-file-urls", { { "browser_navigate", { url = url } }, { "browser_snapshot", {} } })
    assert.is_nil(r[1].result.isError)
    assert.matches("top-secret-outside", client.text(r[2]), 1, true)
  end)

  it("uploads only files inside the workspace", function()
    local r = session("--workspace " .. q(root), {
      { "browser_navigate", { url = srv.url .. "/actions/form.html" } },
      { "browser_file_upload", { element = "Avatar", paths = { outside .. "/secret.txt" } } },
      { "browser_file_upload", { element = "Avatar", paths = { root .. "/escape/secret.txt" } } },
      { "browser_file_upload", { element = "Avatar", paths = { "escape/secret.txt" } } },
      { "browser_file_upload", { element = "Avatar", paths = { "data/avatar.txt" } } },
      { "browser_evaluate", { ["function"] = "() => [...document.querySelector('#avatar').files].map(f => f.name)" } },
    })
    for i = 2, 4 do
      assert.is_true(r[i].result.isError, "call " .. i)
      assert.matches("outside the workspace", client.text(r[i]), 1, true)
    end
    assert.is_nil(r[5].result.isError, client.text(r[5]))
    assert.equal('Result: ["avatar.txt"]', client.text(r[6]))
  end)

  it("writes screenshots in the output folder only, never over a file", function()
    local r = session("--workspace " .. q(root), {
      { "browser_navigate", { url = srv.url .. "/actions/form.html" } },
      { "browser_take_screenshot", { filename = outside .. "/victim.txt" } },
      { "browser_take_screenshot", { filename = "../../" .. outside:match("[^/]+$") .. "/victim.txt" } },
      { "browser_take_screenshot", { filename = "shot.png" } },
      { "browser_take_screenshot", { filename = "shot.png" } },
      { "browser_take_screenshot", {} },
    })
    assert.matches("absolute paths are refused", client.text(r[2]), 1, true)
    assert.matches("leaves the output folder", client.text(r[3]), 1, true)
    assert.equal("victim-intact\n", read(outside .. "/victim.txt"))
    assert.is_nil(r[4].result.isError, client.text(r[4]))
    local image
    for _, c in ipairs(r[4].result.content) do if c.type == "image" then image = c end end
    assert.equal("image/png", image.mimeType)
    -- In screenshots/, away from the tests the folder holds (runs EB, ED,
    -- EJ and EP deleted theirs from tests/).
    assert.equal(read(root .. "/vdx-output/screenshots/shot.png"), vdx.base64_decode(image.data))
    assert.matches("exists already; files are never overwritten", client.text(r[5]), 1, true)
    assert.is_nil(r[6].result.isError, client.text(r[6]))
    assert.same({ "screenshots" }, names(root .. "/vdx-output"))
    local files = names(root .. "/vdx-output/screenshots")
    assert.equal(2, #files)
    assert.equal("page-", files[1]:sub(1, 5))
    assert.equal("shot.png", files[2])
    for _, f in ipairs(files) do
      assert.equal("\137PNG", read(root .. "/vdx-output/screenshots/" .. f):sub(1, 4))
    end
  end)

  it("writes screenshots under --output-dir when given", function()
    local out = root .. "/shots"
    local r = session("--output-dir " .. q(out), {
      { "browser_navigate", { url = srv.url .. "/actions/form.html" } },
      { "browser_take_screenshot", { filename = "a.png" } },
      { "browser_take_screenshot", { filename = "shots/b.png" } },
    })
    assert.is_nil(r[2].result.isError, client.text(r[2]))
    assert.same({ "a.png" }, names(out .. "/screenshots"))
    -- A name with a folder goes where it says.
    assert.same({ "b.png" }, names(out .. "/shots"))
  end)
end)
