--- vdx.remote: vdx.connect's policy over the core's one attempt (src/browser/connect.c):
-- an endpoint without a scheme is named as such before anything is tried,
-- and a farm that answers HTTP 429 (full: every concurrent session and
-- queue place taken) is asked again after a doubling wait, a bounded
-- number of times, because a farm frees a place whenever any session
-- ends.  The core does the transport (ws/wss, the handshake headers, TLS
-- trust); how long to wait and what to say is decided here.
local errors = require "vdx.errors"

local M = {}

local SCHEMES = { ws = true, wss = true, http = true, https = true }
local OPTION_LIST = "timeout_ms, headers, ca, insecure, retries, backoff_ms"
local OPTIONS = {}
for k in OPTION_LIST:gmatch("[%w_]+") do OPTIONS[k] = true end

--- How many times a full farm is asked again by default, and the first
-- wait in ms (then doubled: 250 + 500 + 1000 + 2000 = 3.75 s in all).
M.RETRIES, M.BACKOFF_MS = 4, 250

--- endpoint with the value of a token in its query hidden, for messages.
function M.redact(endpoint)
  return (tostring(endpoint):gsub("([?&][Tt]oken=)[^&%s:#]+", "%1…"))
end

-- The InvalidEndpoint error of an endpoint vdx cannot speak to, or nil.
local function check_endpoint(vdx, endpoint)
  local scheme = endpoint:match("^(%a[%w+.-]*)://")
  if scheme and SCHEMES[scheme:lower()] then return nil end
  local msg
  if scheme then
    msg = ("'%s': vdx speaks ws://, wss://, http:// and https://, not %s://"):format(M.redact(endpoint), scheme)
  else
    local rest = endpoint:gsub("^/*", "")
    msg = ("'%s' has no scheme: write http://%s (resolved through /json/version) or ws://%s")
      :format(M.redact(endpoint), M.redact(rest), M.redact(rest))
  end
  return vdx.error("InvalidEndpoint", msg, { url = M.redact(endpoint) })
end

--- Checks that endpoint is a string with a scheme vdx speaks: raises
-- InvalidEndpoint otherwise (for options read from a command line).
function M.check(vdx, endpoint)
  local e = check_endpoint(vdx, endpoint)
  if e then error(e, 0) end
end

--- The connection options of a command line (`--header 'Name: value'`,
-- repeatable, `--cacert FILE`, `--insecure`, `--retries N`), from flags =
-- { header = {…}, ca =, insecure =, retries = (a string) }: vdx.connect's
-- options, nil when none was given, or nil and a message.
function M.from_flags(flags)
  local c = {}
  for _, h in ipairs(flags.header or {}) do
    local name, value = h:match("^%s*([^:%s]+)%s*:%s*(.-)%s*$")
    if not name then return nil, ("--header '%s': write it as 'Name: value'"):format(h) end
    c.headers = c.headers or {}
    c.headers[name] = value
  end
  c.ca, c.insecure = flags.ca, flags.insecure
  if flags.retries ~= nil then
    c.retries = math.tointeger(tonumber(flags.retries))
    if not c.retries or c.retries < 0 then return nil, "--retries needs a whole number >= 0" end
  end
  return next(c) and c or nil
end

-- vdx.connect's options: the core's, the number of retries and the first
-- wait; misuse (an unknown key, an unreadable CA file) raises at the
-- caller of vdx.connect.
local function split_options(opts)
  local core_opts, retries, wait = {}, M.RETRIES, M.BACKOFF_MS
  for k, v in pairs(opts or {}) do
    if not OPTIONS[k] then
      errors.misuse(("vdx.connect: unknown option '%s' (known: %s)"):format(tostring(k), OPTION_LIST), 3,
        { field = tostring(k) })
    elseif k == "ca" and type(v) == "string" then
      local f, why = io.open(v, "rb")
      if not f then errors.misuse("vdx.connect: option 'ca': cannot read the CA file: " .. tostring(why), 3,
        { field = "ca", file = v }) end
      f:close()
    end
    if k == "retries" or k == "backoff_ms" then
      if math.type(v) ~= "integer" or v < 0 then
        errors.misuse(("vdx.connect: option '%s' must be an integer >= 0"):format(k), 3, { field = k })
      end
      if k == "retries" then retries = v else wait = v end
    else
      core_opts[k] = v
    end
  end
  return core_opts, retries, wait
end

--- Replaces vdx.connect (the core's) with the checked, retrying one.
function M.install(vdx)
  local core_connect = vdx.connect

  --- vdx.connect(endpoint [, opts]) -> vdx.Browser.  opts: timeout_ms,
  -- headers ({ Authorization = "Bearer …" }), ca (a PEM file to trust for
  -- wss:// and https://), insecure (accept any certificate), retries
  -- (times a full farm is asked again, default 4), backoff_ms (the first
  -- wait, doubled each time, default 250).
  function vdx.connect(endpoint, opts)
    if type(endpoint) ~= "string" then
      errors.misuse("vdx.connect: endpoint must be a string (ws://…, wss://…, http://host:port), got "
        .. type(endpoint), 2)
    end
    if opts ~= nil and type(opts) ~= "table" then
      errors.misuse("vdx.connect: options must be a table, got " .. type(opts), 2)
    end
    local e = check_endpoint(vdx, endpoint)
    if e then error(e, 0) end
    local core_opts, retries, wait = split_options(opts)
    local tries, waited = 0, 0
    while true do
      tries = tries + 1
      local ok, res = pcall(core_connect, endpoint, core_opts)
      if ok then return res end
      if type(res) == "table" and type(res.message) == "string" then res.message = M.redact(res.message) end
      if not vdx.is_error(res, "FarmBusy") or tries > retries then
        if vdx.is_error(res, "FarmBusy") then
          res.message = ("%s: %s, %d tries over %d ms (retries = %d)"):format(M.redact(endpoint), res.message,
            tries, waited, retries)
          res.tries = tries
        end
        error(res, 0)
      end
      vdx.sleep(wait)
      waited = waited + wait
      wait = wait * 2
    end
  end
end

return M
