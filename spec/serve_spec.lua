-- vdx.serve, the fixture HTTP server, tested with real HTTP requests.
--
-- The requests come from curl run in the background: the server answers
-- from the loop, so the test runs the loop (vdx.sleep) until curl is done.
local vdx = require "vdx"

local FIXTURES = "spec/fixtures/serve"

--- Removes the files and directories under path (and path itself).
local function rm_rf(path)
  os.execute("rm -rf '" .. path .. "'")
end

--- Runs a shell command in the background; runs the loop until it ends.
-- Returns its stdout and its exit status.  The sanitizers preloaded by an
-- ASan run are not passed on (curl hangs under them).
local function sh(cmd)
  local base = os.tmpname()
  os.execute(string.format(
    "(unset LD_PRELOAD; (%s) > %s.out 2>/dev/null; echo $? > %s.done) &",
                           cmd, base, base))
  local status
  for _ = 1, 6000 do
    vdx.sleep(10)
    local f = io.open(base .. ".done")
    local s = f and f:read("a")
    if f then f:close() end
    if s and s:match("%d") then status = tonumber(s:match("%d+")); break end
  end
  local f = io.open(base .. ".out", "rb")
  local out = f and f:read("a") or ""
  if f then f:close() end
  os.remove(base); os.remove(base .. ".out"); os.remove(base .. ".done")
  assert(status, "command timed out: " .. cmd)
  return out, status
end

--- One HTTP request with curl.  args are extra curl arguments (already
-- quoted).  Returns { status =, headers = { name = value or {values} },
-- body =, rc = curl's exit status }.
local function http(url, args)
  local base = os.tmpname()
  local out, rc = sh(string.format(
    "curl -s -m 30 -H 'Expect:' -D %s.h -o %s.b -w '%%{http_code}' %s '%s'",
    base, base, args or "", url))
  local res = { status = tonumber(out), headers = {}, rc = rc }
  local f = io.open(base .. ".h", "rb")
  for line in (f and f:read("a") or ""):gmatch("[^\r\n]+") do
    local k, v = line:match("^([^:]+):%s*(.*)$")
    if k then
      k = k:lower()
      local old = res.headers[k]
      if old == nil then res.headers[k] = v
      elseif type(old) == "table" then old[#old + 1] = v
      else res.headers[k] = { old, v } end
    end
  end
  if f then f:close() end
  f = io.open(base .. ".b", "rb")
  res.body = f and f:read("a") or ""
  if f then f:close() end
  os.remove(base); os.remove(base .. ".h"); os.remove(base .. ".b")
  return res
end

describe("vdx.serve #unit", function()
  local srv

  after_each(function()
    if srv then srv:close() end
    srv = nil
  end)

  -- The server is a module of its own, so vdx.so is the browser host:
  -- vdx.serve loads it on first use and is its serve.
  it("is the module vdx.serve, apart from vdx.so", function()
    local mod = require "vdx.serve"
    assert.is_function(mod.serve)
    srv = assert(mod.serve { port = 0 })
    assert.equal("vdx.Server (" .. srv.url .. ")", tostring(srv))
    local so = (os.getenv("VDX_BUILD") or "build") .. "/vdx.so"
    local p = io.popen("nm -D --defined-only " .. so .. " 2>&1")
    local symbols = p:read("a")
    p:close()
    assert.truthy(symbols:find("luaopen_vdx", 1, true), symbols)
    assert.is_nil(symbols:find("luaopen_vdx_serve", 1, true))
    assert.is_nil(symbols:find("vdx__serve", 1, true))
  end)

  describe("the server object", function()
    it("listens on 127.0.0.1 with a port picked by the system", function()
      srv = assert(vdx.serve { root = FIXTURES, port = 0 })
      assert.is_true(math.type(srv.port) == "integer" and srv.port > 0)
      assert.equal("http://127.0.0.1:" .. srv.port, srv.url)
      assert.equal("vdx.Server (" .. srv.url .. ")", tostring(srv))
      assert.equal(200, http(srv.url .. "/").status)
    end)

    it("closes idempotently and stops listening", function()
      srv = assert(vdx.serve { root = FIXTURES })
      local url = srv.url
      assert.is_true(srv:close())
      assert.is_true(srv:close())
      assert.equal("vdx.Server (closed)", tostring(srv))
      assert.is_true(srv.closed)
      assert.equal(url, srv.url)
      vdx.sleep(20) -- the listening socket closes as the loop turns
      local res = http(url .. "/")
      assert.equal(7, res.rc) -- curl: could not connect
    end)

    it("closes at the end of a to-be-closed scope", function()
      local url
      do
        local s <close> = assert(vdx.serve { root = FIXTURES })
        url = s.url
        assert.equal(200, http(url .. "/").status)
      end
      vdx.sleep(20)
      assert.equal(7, http(url .. "/").rc)
    end)

    it("keeps serving when the script drops it, until close()", function()
      local url = assert(vdx.serve { root = FIXTURES }).url
      collectgarbage()
      collectgarbage()
      vdx.sleep(20)
      assert.equal(200, http(url .. "/").status)
      -- The registry holds it: find it through the debug registry to close it.
      local closed = 0
      for _, v in pairs(debug.getregistry()) do
        if type(v) == "userdata" and tostring(v) == "vdx.Server (" .. url .. ")" then
          v:close()
          closed = closed + 1
        end
      end
      assert.equal(1, closed)
      vdx.sleep(20)
      assert.equal(7, http(url .. "/").rc)
    end)

    it("returns nil and a message when the port is taken", function()
      srv = assert(vdx.serve {})
      local s, err = vdx.serve { port = srv.port }
      assert.is_nil(s)
      assert.matches("cannot listen", err)
    end)

    it("accepts other loopback hosts", function()
      local a = assert(vdx.serve { host = "127.0.0.2" })
      assert.equal("http://127.0.0.2:" .. a.port, a.url)
      assert.equal(404, http(a.url .. "/x").status)
      a:close()
      local b = assert(vdx.serve { host = "localhost" })
      assert.matches("^http://127%.0%.0%.1:%d+$", b.url)
      b:close()
    end)

    it("refuses hosts that are not loopback, unknown options, bad routes", function()
      local ok, err = pcall(vdx.serve, { host = "0.0.0.0" })
      assert.is_false(ok)
      assert.matches("not a loopback address", err)
      ok, err = pcall(vdx.serve, { host = "192.168.1.1" })
      assert.is_false(ok)
      ok, err = pcall(vdx.serve, { root = FIXTURES, bogus = 1 })
      assert.is_false(ok)
      assert.matches("bogus", tostring(err))
      ok, err = pcall(vdx.serve, { routes = { ["GET api"] = print } })
      assert.is_false(ok)
      assert.matches("bad route 'GET api'", err)
      ok, err = pcall(vdx.serve, { routes = { ["FETCH /api"] = print } })
      assert.is_false(ok)
      ok, err = pcall(vdx.serve, { routes = { ["GET /api"] = "nope" } })
      assert.is_false(ok)
      assert.matches("must be a function", err)
      ok, err = pcall(vdx.serve, { root = FIXTURES .. "/nope" })
      assert.is_false(ok)
      assert.matches("root", err)
    end)
  end)

  describe("static files", function()
    before_each(function()
      srv = assert(vdx.serve { root = FIXTURES })
    end)

    it("serves files with the content type of their extension", function()
      local types = {
        html = "text/html; charset=utf-8", js = "text/javascript; charset=utf-8",
        mjs = "text/javascript; charset=utf-8", css = "text/css; charset=utf-8",
        json = "application/json", png = "image/png", jpg = "image/jpeg",
        svg = "image/svg+xml", txt = "text/plain; charset=utf-8",
        wasm = "application/wasm", ico = "image/x-icon", woff2 = "font/woff2",
      }
      for ext, ctype in pairs(types) do
        local res = http(srv.url .. "/types/a." .. ext)
        assert.equal(200, res.status)
        assert.equal(ctype, res.headers["content-type"])
        assert.equal("x\n", res.body)
        assert.equal("2", res.headers["content-length"])
      end
    end)

    it("serves index.html for directories and redirects to the slash", function()
      local res = http(srv.url .. "/")
      assert.equal(200, res.status)
      assert.matches("<h1>index</h1>", res.body)
      res = http(srv.url .. "/sub/")
      assert.matches("sub index", res.body)
      res = http(srv.url .. "/sub")
      assert.equal(301, res.status)
      assert.equal("/sub/", res.headers.location)
    end)

    it("answers 404 for missing files and other methods", function()
      assert.equal(404, http(srv.url .. "/missing.html").status)
      assert.equal(404, http(srv.url .. "/types/a.html", "-X POST -d x").status)
    end)

    it("answers HEAD with the headers only", function()
      local res = http(srv.url .. "/types/a.css", "-I")
      assert.equal(200, res.status)
      assert.equal("2", res.headers["content-length"])
      -- With -I, curl writes the headers where the body would go.
      assert.matches("\r\n\r\n$", res.body)
    end)

    it("never serves a path outside the root", function()
      local tmp = os.tmpname()
      os.remove(tmp)
      os.execute("mkdir -p " .. tmp .. "/root/d && echo secret > " .. tmp ..
                 "/secret.txt && echo ok > " .. tmp .. "/root/d/in.txt && " ..
                 "ln -s ../secret.txt " .. tmp .. "/root/out.txt && " ..
                 "ln -s " .. tmp .. "/secret.txt " .. tmp .. "/root/abs.txt && " ..
                 "ln -s d/in.txt " .. tmp .. "/root/in.txt")
      local s = assert(vdx.serve { root = tmp .. "/root" })
      for _, path in ipairs {
        "/../secret.txt", "/d/../../secret.txt", "/%2e%2e/secret.txt",
        "/%2E%2E/secret.txt", "/d/%2e%2e/%2e%2e/secret.txt",
        "/..%2fsecret.txt", "/%2e%2e%2fsecret.txt", "//" .. tmp .. "/secret.txt",
        "/out.txt", "/abs.txt",
      } do
        local res = http(s.url .. path, "--path-as-is")
        assert.is_true(res.status == 403 or res.status == 404, path)
        assert.not_matches("secret", res.body, nil, true)
      end
      assert.equal(403, http(s.url .. "/out.txt").status)
      -- A symlink that stays inside the root is fine.
      assert.equal("ok\n", http(s.url .. "/in.txt").body)
      s:close()
      rm_rf(tmp)
    end)

    it("streams a 50 MiB file", function()
      local tmp = os.tmpname()
      os.remove(tmp)
      os.execute("mkdir -p " .. tmp .. " && head -c 52428800 /dev/urandom > " ..
                 tmp .. "/big.bin")
      local s = assert(vdx.serve { root = tmp })
      local out = sh("curl -s -m 60 -o " .. tmp .. "/got.bin -w '%{http_code} %{size_download}' " ..
                     s.url .. "/big.bin && cmp " .. tmp .. "/big.bin " .. tmp ..
                     "/got.bin && echo same")
      assert.equal("200 52428800same\n", out)
      s:close()
      rm_rf(tmp)
    end)

    it("keeps connections alive and serves many at once", function()
      local out = sh("curl -s -o /dev/null -o /dev/null -o /dev/null " ..
                     "-w '%{http_code} %{num_connects}\\n' " .. srv.url .. "/ " ..
                     srv.url .. "/types/a.js " .. srv.url .. "/sub/")
      assert.equal("200 1\n200 0\n200 0\n", out)
      out = sh("seq 1 60 | xargs -P 30 -I{} curl -s -o /dev/null " ..
               "-w '%{http_code}\\n' " .. srv.url .. "/types/a.txt?n={}")
      local n = 0
      for code in out:gmatch("%d+") do
        assert.equal("200", code)
        n = n + 1
      end
      assert.equal(60, n)
    end)
  end)

  describe("routes", function()
    local seen

    before_each(function()
      seen = {}
      srv = assert(vdx.serve {
        root = FIXTURES,
        routes = {
          ["GET /api/echo"] = function(req)
            seen[#seen + 1] = req
            return { json = { method = req.method, path = req.path, query = req.query,
                              params = req.params, cookies = req.cookies,
                              agent = req.headers["user-agent"],
                              custom = req.headers["x-custom-thing"] } }
          end,
          ["POST /api/login"] = function(req)
            if not req.json or req.json.user ~= "ann" then
              return { status = 401, json = { error = "who?" } }
            end
            return {
              status = 201,
              headers = { ["set-cookie"] = { "sid=abc; Path=/; HttpOnly", "theme=dark" },
                          ["X-Extra"] = "yes" },
              json = { ok = true, n = req.json.n, len = #req.body },
            }
          end,
          ["POST /api/raw"] = function(req)
            return { headers = { ["content-type"] = "text/plain" },
                     body = #req.body .. " " .. tostring(req.json_error ~= nil) }
          end,
          ["GET /api/html"] = function() return "<p>hi</p>" end,
          ["GET /api/none"] = function() end,
          ["GET /api/fail"] = function() error("handler exploded") end,
          ["GET /api/bad"] = function() return { status = 200, colour = "red" } end,
          ["GET /api/wait"] = function() vdx.sleep(10); return "slept" end,
          ["GET /api/wait-header"] = function(req)
            vdx.sleep(20)
            return req.headers["x-custom-thing"] .. " " .. req.path
          end,
          ["GET /api/slow"] = function() vdx.sleep(1500); return "too late" end,
          ["GET /api/products/*"] = function(req) return "product " .. req.path end,
          ["GET /api/products/special/*"] = function() return "special" end,
          ["GET /api/products/1"] = function() return "exact" end,
          ["GET /types/a.txt"] = function() return "route wins" end,
        },
      })
    end)

    it("passes method, path, query, params, headers and cookies", function()
      local res = http(srv.url .. "/api/echo?q=red%20shoes&page=2&flag",
                       "-H 'Cookie: sid=abc; theme=dark' -H 'X-Custom-Thing: 42' " ..
                       "-A vdx-test")
      assert.equal(200, res.status)
      assert.equal("application/json", res.headers["content-type"])
      local body = require("cjson").decode(res.body)
      assert.equal("GET", body.method)
      assert.equal("/api/echo", body.path)
      assert.equal("q=red%20shoes&page=2&flag", body.query)
      assert.same({ q = "red shoes", page = "2", flag = "" }, body.params)
      assert.same({ sid = "abc", theme = "dark" }, body.cookies)
      assert.equal("vdx-test", body.agent)
      assert.equal("42", body.custom)
      assert.equal("", seen[1].body)
      -- Headers lws does not know are looked up while the handler runs.
      assert.is_nil(seen[1].headers["x-custom-thing"])
      assert.equal("vdx-test", seen[1].headers["user-agent"])
      assert.matches("^127%.0%.0%.1:%d+$", seen[1].headers.host)
    end)

    it("decodes JSON bodies and sends JSON and cookies back", function()
      local res = http(srv.url .. "/api/login",
                       "-H 'Content-Type: application/json' -d '{\"user\":\"ann\",\"n\":3}'")
      assert.equal(201, res.status)
      assert.equal("application/json", res.headers["content-type"])
      assert.same({ ok = true, n = 3, len = 20 }, require("cjson").decode(res.body))
      assert.same({ "sid=abc; Path=/; HttpOnly", "theme=dark" }, res.headers["set-cookie"])
      assert.equal("yes", res.headers["x-extra"])
      res = http(srv.url .. "/api/login",
                 "-H 'Content-Type: application/json' -d '{\"user\":\"bob\"}'")
      assert.equal(401, res.status)
      assert.equal('{"error":"who?"}', res.body)
    end)

    it("hands over raw bodies and reports bad JSON", function()
      local res = http(srv.url .. "/api/raw", "--data-binary 'a&b=c'")
      assert.equal("5 false", res.body)
      assert.equal("text/plain", res.headers["content-type"])
      res = http(srv.url .. "/api/raw", "-H 'Content-Type: application/json' -d '{bad'")
      assert.equal("4 true", res.body)
    end)

    it("answers a string with 200 text/html and nil with 204", function()
      local res = http(srv.url .. "/api/html")
      assert.equal(200, res.status)
      assert.equal("text/html; charset=utf-8", res.headers["content-type"])
      assert.equal("<p>hi</p>", res.body)
      res = http(srv.url .. "/api/none")
      assert.equal(204, res.status)
      assert.equal("", res.body)
    end)

    it("answers 500 on a handler error and keeps serving", function()
      local res = http(srv.url .. "/api/fail")
      assert.equal(500, res.status)
      assert.matches("handler exploded", res.body)
      assert.not_matches("traceback", res.body)
      res = http(srv.url .. "/api/bad")
      assert.equal(500, res.status)
      assert.matches("colour", res.body)
      assert.equal("<p>hi</p>", http(srv.url .. "/api/html").body)
    end)

    it("runs a handler as a task that may wait before it answers", function()
      local res = http(srv.url .. "/api/wait")
      assert.equal(200, res.status)
      assert.equal("slept", res.body)
      -- The request's headers are still there after the wait.
      res = http(srv.url .. "/api/wait-header", "-H 'X-Custom-Thing: 42'")
      assert.equal("42 /api/wait-header", res.body)
    end)

    it("answers waiting handlers independently, and drops the answer of a "
       .. "client that left", function()
      local a = vdx.spawn(http, srv.url .. "/api/wait")
      local b = vdx.spawn(http, srv.url .. "/api/wait-header", "-H 'X-Custom-Thing: 7'")
      assert.equal("slept", vdx.wait(a).body)
      assert.equal("7 /api/wait-header", vdx.wait(b).body)
      -- curl gives up after 0.3 s (exit 28) while the handler sleeps on.
      assert.equal(28, http(srv.url .. "/api/slow", "-m 0.3").rc)
      vdx.sleep(1500)
      assert.equal("<p>hi</p>", http(srv.url .. "/api/html").body)
    end)

    it("matches exact routes first, then the longest prefix", function()
      assert.equal("exact", http(srv.url .. "/api/products/1").body)
      assert.equal("product /api/products/42", http(srv.url .. "/api/products/42").body)
      assert.equal("special", http(srv.url .. "/api/products/special/x").body)
      assert.equal("route wins", http(srv.url .. "/types/a.txt").body)
      assert.equal(404, http(srv.url .. "/api/other").status)
      assert.equal(404, http(srv.url .. "/api/products/1", "-X DELETE").status)
    end)

    it("takes bodies up to 16 MiB and answers 413 beyond", function()
      local tmp = os.tmpname()
      os.execute("head -c 16777216 /dev/zero > " .. tmp .. " && head -c 16777217 /dev/zero > " ..
                 tmp .. ".big")
      local res = http(srv.url .. "/api/raw", "--data-binary @" .. tmp)
      assert.equal(200, res.status)
      assert.equal("16777216 false", res.body)
      res = http(srv.url .. "/api/raw", "--data-binary @" .. tmp .. ".big")
      assert.equal(413, res.status)
      os.remove(tmp)
      os.remove(tmp .. ".big")
      assert.equal("<p>hi</p>", http(srv.url .. "/api/html").body)
    end)

    describe("request heads over 16 KiB", function()
      local TOO_LARGE = "request header fields too large (the limit is 16 KiB)\n"

      --- A header line "name: value" of n bytes of value, for curl -H.
      local function header(name, n) return "-H '" .. name .. ": " .. ("h"):rep(n) .. "'" end

      --- Writes the bytes of reqs (joined) on one connection and returns all
      -- the server sent back until it closed (or bash's read timed out).
      local function raw(reqs)
        local file = os.tmpname()
        local f = assert(io.open(file, "wb"))
        f:write(table.concat(reqs))
        f:close()
        local out = sh(string.format(
          "bash -c 'exec 3<>/dev/tcp/127.0.0.1/%d; cat %s >&3; timeout 20 cat <&3'",
          srv.port, file))
        os.remove(file)
        return out
      end

      --- The status codes of the responses in a raw reply, in order.
      local function statuses(out)
        local list = {}
        for code in out:gmatch("HTTP/1%.1 (%d%d%d)") do list[#list + 1] = tonumber(code) end
        return list
      end

      local function get(path, extra)
        return "GET " .. path .. " HTTP/1.1\r\nHost: 127.0.0.1\r\n" .. (extra or "") .. "\r\n"
      end

      --- Asserts that a GET with these curl args gets the whole 431 answer.
      local function assert_431(args)
        local res = http(srv.url .. "/api/html", args)
        assert.equal(0, res.rc)
        assert.equal(431, res.status)
        assert.equal(TOO_LARGE, res.body)
        assert.equal("close", res.headers.connection)
      end

      it("answers 431 to one known header over 16 KiB", function()
        assert_431(header("Cookie", 20000))
        assert_431(header("Referer", 20000))
      end)

      it("answers 431 to a custom header of 20 KB", function()
        assert_431(header("X-Foo", 20000))
      end)

      it("answers 431 to a header of 100 KB, not a closed connection", function()
        assert_431(header("X-Foo", 100000))
      end)

      it("answers 431 to many small headers adding up to over 16 KiB", function()
        local args = {}
        for i = 1, 200 do args[i] = header("X-H" .. i, 90) end -- about 19 KB
        assert_431(table.concat(args, " "))
        -- 150 of them (about 15 KB) pass, and the handler sees them.
        local res2 = http(srv.url .. "/api/echo", table.concat(args, " ", 1, 150) ..
                          " " .. header("X-Custom-Thing", 3))
        assert.equal(200, res2.status)
        assert.matches('"custom":"hhh"', res2.body, 1, true)
      end)

      it("serves heads just under the limit", function()
        local res = http(srv.url .. "/api/html", header("Cookie", 15360))
        assert.equal(200, res.status)
        assert.equal("<p>hi</p>", res.body)
        res = http(srv.url .. "/api/echo", header("X-Custom-Thing", 15360))
        assert.equal(200, res.status)
        assert.equal(("h"):rep(15360), res.body:match('"custom":"(h*)"'))
        assert.equal("<p>hi</p>", http(srv.url .. "/api/html").body)
      end)

      it("keeps connections alive around requests, and answers 431 on them too", function()
        -- curl reuses one connection across --next: num_connects is 1, then 0.
        local out = sh(string.format(
          "curl -s -o /dev/null -w '%%{http_code} %%{num_connects}\\n' '%s/api/html' " ..
          "--next -s -o /dev/null -w '%%{http_code} %%{num_connects}\\n' '%s/' " ..
          "--next -s -o /dev/null -w '%%{http_code} %%{num_connects}\\n' %s '%s/api/html'",
          srv.url, srv.url, header("X-Foo", 20000), srv.url))
        assert.equal("200 1\n200 0\n431 0\n", out)
      end)

      it("answers pipelined requests in order, 431 last, then closes", function()
        -- (lws 4.1 loses a pipelined body that follows another request,
        -- so the request with a body comes first.)
        local out = raw {
          "POST /api/raw HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello",
          get("/api/html"),
          get("/api/html", "X-Foo: " .. ("f"):rep(20000) .. "\r\n"),
          get("/api/html"),
        }
        assert.same({ 200, 200, 431 }, statuses(out))
        assert.truthy(out:find("<p>hi</p>", 1, true))
        assert.truthy(out:find("5 false", 1, true))
        assert.equal(TOO_LARGE, out:sub(-#TOO_LARGE))
      end)

      it("frames bodies that look like heads as bodies", function()
        local body = get("/api/html", "X-Foo: " .. ("f"):rep(20000) .. "\r\n")
        local out = raw {
          "POST /api/raw HTTP/1.1\r\nHost: x\r\nContent-Length: " .. #body .. "\r\n\r\n" .. body,
          get("/api/html", "Connection: close\r\n"),
        }
        assert.same({ 200, 200 }, statuses(out))
        assert.truthy(out:find(#body .. " false", 1, true))
      end)

      it("passes on lws's own early close whole: an absurd body length gets 413", function()
        local out = raw {
          "POST /api/raw HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000000\r\n\r\n",
          ("x"):rep(200000),
        }
        assert.same({ 413 }, statuses(out))
        assert.equal("request body too large\n", out:sub(-23))
      end)

      it("does not take the stand-in's marker from a client", function()
        local res = http(srv.url .. "/api/html", "-H 'x-vdx-reject: 00 431 too large'")
        assert.equal(200, res.status)
        res = http(srv.url .. "/api/html", "-H 'x-vdx-reject: " .. ("0"):rep(32) .. " 400 no'")
        assert.equal(200, res.status)
      end)
    end)

    it("can close its own server from a handler", function()
      local s
      s = assert(vdx.serve { routes = { ["GET /stop"] = function() s:close() end } })
      http(s.url .. "/stop")
      assert.is_true(s.closed)
      vdx.sleep(20)
      assert.equal(7, http(s.url .. "/stop").rc)
    end)
  end)
end)

describe("vdx.serve with the browser", function()
  local browser, srv, calls

  lazy_setup(function()
    calls = 0
    srv = assert(vdx.serve {
      root = FIXTURES,
      routes = {
        ["GET /api/n"] = function(req)
          calls = calls + 1
          return { json = { n = tonumber(req.params.i) } }
        end,
        ["POST /api/login"] = function(req)
          return { headers = { ["set-cookie"] = { "sid=abc; Path=/", "theme=dark; Path=/" } },
                   json = { user = req.json.user } }
        end,
        ["GET /api/me"] = function(req) return { json = req.cookies } end,
        -- A handler that drives a page of the browser before it answers.
        ["GET /api/title-of"] = function(req)
          local p = browser:new_page()
          local title = p:navigate(srv.url .. req.params.path).title
          p:close()
          return { json = { title = title } }
        end,
      },
    })
    browser = vdx.launch { timeout_ms = 20000 }
  end)

  lazy_teardown(function()
    if browser then browser:close() end
    if srv then srv:close() end
  end)

  it("serves a page and many concurrent fetches from it", function()
    local page = browser:new_page()
    local nav = page:navigate(srv.url .. "/")
    assert.same({ url = srv.url .. "/", title = "serve index", status = 200 }, nav)
    local sum = page:evaluate([[
      Promise.all(Array.from({ length: 60 }, (_, i) =>
        fetch('/api/n?i=' + i).then(r => r.json()).then(j => j.n)))
        .then(a => a.reduce((x, y) => x + y, 0))]])
    assert.equal(1770, sum)
    assert.equal(60, calls)
    page:close()
  end)

  it("lets a route handler drive another page before it answers", function()
    local page = browser:new_page()
    page:navigate(srv.url .. "/")
    assert.equal("serve index", page:evaluate(
      "fetch('/api/title-of?path=/').then(r => r.json()).then(j => j.title)"))
    page:close()
  end)

  it("sets cookies that the browser sends back", function()
    local page = browser:new_page()
    page:navigate(srv.url .. "/")
    assert.equal("ann sid=abc; theme=dark", page:evaluate([[
      fetch('/api/login', { method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ user: 'ann' }) })
        .then(r => r.json()).then(j => j.user + ' ' + document.cookie)]]))
    assert.same({ sid = "abc", theme = "dark" }, page:evaluate(
      "fetch('/api/me').then(r => r.json())"))
    page:close()
  end)
end)
