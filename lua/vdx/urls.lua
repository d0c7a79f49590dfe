--- vdx.urls: the one check of a URL a person typed (a flow's base_url or
-- navigate, browser_navigate, a role's default URL) before the browser
-- sees it.  Chromium reads "localhost:3000" as the scheme "localhost" and
-- answers ERR_ABORTED, and "not a url" as an invalid URL, and neither
-- answer repeats the URL or says what to type instead; this check does.
local vdx = require "vdx.core"

local urls = {}

-- Hosts that are served over plain http in development.
local function local_host(host)
  return host == "localhost" or host:match("^127%.") or host:match("^0%.0%.0%.0$") or host:match("%.test$")
    or host:match("%.local$") or host:match("%.localhost$")
end

--- What is wrong with url as a URL the browser can open: nil when it
-- has a scheme, else a sentence and the URL it most likely means (or nil
-- when nothing fits).  `localhost:3000/x` (host:port, no scheme) means
-- http://localhost:3000/x; `example.com/x` means https://example.com/x.
function urls.problem(url)
  if type(url) ~= "string" or url == "" then return "it is empty, or not a string" end
  if url:match("^%s") or url:match("%s$") then
    return "it starts or ends with a space", url:match("^%s*(.-)%s*$")
  end
  local host = url:match("^([%w.-]+):%d+") or url:match("^([%w-]+%.[%w.-]+)[/?#]") or url:match("^([%w-]+%.[%w.-]+)$")
    or url:match("^(localhost)[/?#]") or (url == "localhost" and url)
  if host and not url:find("%s") then
    local scheme = (local_host(host) or url:match("^[%w.-]+:%d+")) and "http" or "https"
    return "the scheme is missing", scheme .. "://" .. url
  end
  if url:match("^%a[%w+.-]*:") then
    if url:match("^https?:") and not url:match("^https?://[^/%s]") then
      return "it has no host after the scheme"
    end
    if url:match("^https?://") and url:find("%s") then return "it contains a space" end
    return nil
  end
  if url:sub(1, 1) == "/" then return "it is a path, with no scheme and no host (a flow puts it under base_url)" end
  if url:find("%s") then return "it is not a URL (it has no scheme and contains spaces)" end
  return "it has no scheme (http:// or https://)"
end

--- Raises InvalidURL when url is not one the browser can open (see
-- urls.problem), naming what it came from (what: "base_url",
-- "browser_navigate") and the URL it most likely means; else returns url.
function urls.check(url, what)
  local why, suggestion = urls.problem(url)
  if not why then return url end
  local msg = ("%s: %q is not a URL the browser can open: %s"):format(what, tostring(url), why)
  if suggestion then msg = msg .. ("; did you mean %q?"):format(suggestion) end
  error(vdx.error("InvalidURL", msg, { url = tostring(url), suggestion = suggestion }), 0)
end

return urls
