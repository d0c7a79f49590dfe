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

--- The URL of page's document (fragment included): as the page's own
-- navigation events told it (page:url(), no call), else, before any such
-- event (a tab found open when vdx attached, a popup that loaded before
-- it), read from the page; nil when it cannot be read (a closed page).
function urls.of(page)
  local url = page:url()
  if url then return url end
  local ok, info = pcall(page.bridge, page, "pageInfo", {})
  return ok and type(info) == "table" and type(info.url) == "string" and info.url or nil
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

--- The scheme of url as the browser reads it, by the URL standard's basic
-- URL parser: leading and trailing C0 controls and spaces are stripped,
-- every ASCII tab and newline is removed, then the scheme is an ASCII
-- letter followed by letters, digits, "+", "-" or "." up to ":",
-- lower-cased.  Returns the scheme and the rest after the colon (cleaned
-- the same way), or nil for a URL without one (a relative URL, such as
-- "%66ile:x", or one starting with a character the standard keeps, such
-- as a no-break space).  "fi\tle:///x" is "file" here, as in Chromium.
function urls.scheme(url)
  if type(url) ~= "string" then return nil end
  local clean = url:gsub("^[\0-\32]+", ""):gsub("[\0-\32]+$", ""):gsub("[\t\n\r]", "")
  local scheme, rest = clean:match("^(%a[%w+.-]*):(.*)$")
  if not scheme then return nil end
  return scheme:lower(), rest
end

-- Schemes whose URL wraps another URL the browser also loads or whose
-- origin it takes: read through to the inner one.
local WRAPPERS = { ["view-source"] = true, blob = true, filesystem = true }

-- Schemes that show a local file.
local LOCAL = { file = true, filesystem = true }

--- The schemes of url from the outside in, wrappers read through
-- ("view-source:fi\tle:///x" -> {"view-source", "file"}); an empty list
-- for a URL without a scheme.
function urls.schemes(url)
  local out, rest = {}, url
  for _ = 1, 8 do
    local scheme, after = urls.scheme(rest)
    if not scheme then break end
    out[#out + 1] = scheme
    if not WRAPPERS[scheme] then break end
    rest = after
  end
  return out
end

--- The scheme that makes url open a local file ("file" or
-- "filesystem"), itself or inside a view-source:, blob: or filesystem:
-- wrapper, or nil when it opens none.
function urls.local_file(url)
  for _, s in ipairs(urls.schemes(url)) do
    if LOCAL[s] then return s end
  end
  return nil
end

--- The InvalidArgument error for a URL that would open a local file, as
-- both the check of a typed URL and the check of a committed one give it:
-- url is the URL, how (optional) says how the browser got there.
function urls.local_file_error(url, how)
  local msg = "file: URLs are refused: they would show local files to the page and the agent.  Serve the "
    .. "files over http (for example vdx.serve), or restart vdxlua mcp with --allow-file-urls if local files "
    .. "are meant to be opened"
  if how then msg = msg .. ".  " .. how end
  return vdx.error("InvalidArgument", msg, { field = "url", url = url })
end

return urls
