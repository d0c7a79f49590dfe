-- The snapshot's shape against Playwright's aria-snapshot grammar: each
-- page of spec/shape_cases.lua is served, snapshotted, and its text with
-- the refs dropped must be exactly the YAML Playwright prints for it.
local vdx = require "vdx"
local h = require "helpers"
local cases = require "shape_cases"

local function without_refs(text)
  return (text:gsub(" %[ref=[%w_]+%]", ""):gsub("\n$", ""))
end

describe("the snapshot's shape", function()
  local browser, srv, page

  setup(function()
    local routes = {}
    for i, c in ipairs(cases) do
      routes["GET /shape/" .. i] = function()
        return { body = "<!doctype html><meta charset=utf-8><body>" .. c[2] .. "</body>",
                 headers = { ["content-type"] = "text/html; charset=utf-8" } }
      end
    end
    srv = h.serve(routes)
    browser = vdx.launch {}
    page = browser:new_page()
  end)

  teardown(function()
    if browser then browser:close() end
    if srv then srv:close() end
  end)

  for i, c in ipairs(cases) do
    it("prints as Playwright does: " .. c[1], function()
      page:navigate(srv.url .. "/shape/" .. i)
      assert.equal(c[3], without_refs(page:snapshot().text))
    end)
  end
end)
