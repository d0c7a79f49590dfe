--- vdx.error_catalog: the one list of error kinds, as data (see
-- vdx.errors, which renders them and exposes it as errors.catalog).  Kept apart from the rendering because
-- it is most of the text and grows with every new kind.
local SNAP = "Call browser_snapshot() to get fresh refs for the current page"
-- The first step of most advice to a flow author.
local LOOK = "Open the screenshot and the snapshot excerpt below; run again with --headed --slow-mo 500 to watch it."

--- The catalog, the one list of error kinds: for each kind its title,
-- causes, actions and, for situations that are often normal, an
-- `expected` note, all written for an MCP agent; `flow` overrides some of
-- them for the author of a flow script (see errors.entry).  Entries may be
-- functions of the error.  `Error` is the entry of anything untyped or of
-- an unknown kind.  Exposed so user tools can add their own kinds;
-- spec/error_kinds_spec.lua fails when the source raises a kind missing here.
local catalog = {
  UnknownRef = {
    title = "Unknown element reference",
    causes = { "The ref is from an earlier document: a navigation or reload replaced the page (a ref lives as long as its document)",
      "The ref belongs to another role or tab, or was typed by hand",
      "An element inside an iframe was given without its frame prefix (f1e7, not e7)" },
    -- (Run BX was sent to a whole snapshot of a long guide for one button.)
    actions = { "Call browser_find(role=…, name=…, within=<its row, card or section's text>) for its ref now, or "
      .. "browser_snapshot() for the whole page.", "Retry with the new ref." },
    flow = { actions = { "Take the ref from a snapshot of the current page (p:snapshot()), or act by locator." } },
  },
  StaleRef = {
    title = "Element is no longer on the page",
    causes = { "The page re-rendered the element (a framework update, a re-sorted list)",
      "A navigation happened since the snapshot", "The last action removed or replaced it" },
    actions = { SNAP .. ".", "Find the same element (by its role and name) and retry with its new ref.",
      "If it keeps disappearing, call browser_wait_for(text=…) for the state you expect first." },
  },
  RefMismatch = {
    title = "The ref names another element than the description given with it",
    causes = { "The ref was read before the page loaded again: refs are given anew per load, so an old ref can name another element",
      "The ref was copied from another line of the snapshot" },
    actions = { "Act again with the ref the error names (the element the description matches).",
      "Take a snapshot after a navigation or reload before you act by ref." },
  },
  FrameDetached = {
    title = "Frame detached",
    expected = "This is often normal: frames are detached and replaced while a page navigates or re-renders.",
    causes = { "The page navigated or re-rendered the iframe", "The iframe was removed by the page" },
    actions = { SNAP .. " and its frames.", "Retry with a ref from that snapshot." },
  },
  NavigationFailed = {
    title = "Navigation failed",
    causes = { "The server is not running, or the URL has the wrong host or port",
      "The host name does not resolve (DNS) or the connection was refused",
      "Another navigation (a redirect, a client-side router) replaced this one" },
    -- A refused connection at a URL that answered before is a server gone,
    -- not a wrong URL: a play-test's agent retried it as told.
    actions = function(e)
      if tostring(e.reason or e.message or ""):find("ERR_CONNECTION_REFUSED", 1, true) then
        return { "Check that the URL's host and port are right: nothing listens there now.",
          "If they are, the app's server is down: a retry fails until it is started again (by you or whoever runs "
            .. "it), so ask for that rather than calling again.",
          "Call browser_snapshot() to see where the page is now." }
      end
      return { "Check the URL and that the server answers it.",
        "Call browser_navigate(url=…) again with the corrected URL.",
        "Call browser_snapshot() to see where the page is now." }
    end,
    flow = { actions = { "Check the URL and that the server answers it (started before flow.run and not closed).",
      "For a path, check base_url." } },
  },
  AuthenticationFailed = {
    title = "Authentication state could not be loaded",
    causes = { "The auth file does not exist or is not readable",
      "The file is not Playwright storageState JSON ({cookies=[…], origins=[…]})",
      "The saved session has expired" },
    actions = { "Create the file with Playwright: npx playwright codegen --save-storage=FILE URL (or a setup test that calls storageState).",
      "Restart vdxlua mcp with --role NAME FILE URL pointing at it.",
      "Call list_roles() to see which roles are configured and which auth files they use." },
    flow = { actions = { "Create the file with Playwright: npx playwright codegen --save-storage=FILE URL.",
      "Point f:role(NAME, { auth = FILE }) at it, or leave auth out for a signed-out role." } },
  },
  Timeout = {
    title = "Timed out",
    -- A browser_wait_for whose condition did not come (err.wait) is an
    -- answer about the page, in short (run BC's "is there an error?"
    -- wait got four causes and four actions).
    causes = function(e)
      if e.wait then return { "The page did not get there in that time: the app did not do it, or shows it otherwise" } end
      return { "The page is still loading or the network is slow",
        "The awaited condition never happens (wrong text, element hidden)",
        "A dialog or overlay is blocking the page",
        "A script of the page never returns (an endless loop holds its main thread, so nothing in the page answers)" }
    end,
    actions = function(e)
      if e.wait then
        return { "Call browser_find(text=…) or browser_snapshot() to see what the page shows instead; wait again with a "
          .. "longer timeout if the app is just slow." }
      end
      return { "Call browser_snapshot() to see the current state of the page.",
        "Call browser_wait_for(text=…) with a condition that marks the state you need.",
        "Retry the call; raise its timeout if the page is just slow.",
        "If the page itself hangs (a snapshot times out too), call browser_close() to end it (the next call opens a " ..
          "fresh page), or browser_navigate(url=…) to another site, which gets a new renderer process." }
    end,
    flow = { actions = { LOOK, "Raise timeout_ms (flow.run option or per call) if the page is just slow." } },
  },
  ElementCovered = {
    title = "Another element would receive the click",
    causes = { "A cookie banner, modal, toast or sticky header is on top of the target",
      "An animation has not finished", "A loading overlay is still shown" },
    actions = { "Call browser_snapshot() and find the covering element (its close or accept button).",
      "Call browser_click(ref=…) on that button, or browser_press_key(key=\"Escape\").",
      "Retry the original click." },
  },
  ElementNotVisible = {
    title = "Element is not visible",
    causes = { "It is inside a collapsed menu, closed dialog or inactive tab",
      "It is hidden by CSS (display:none, visibility:hidden, zero size)",
      "It only appears after hovering or scrolling" },
    actions = { "Call browser_snapshot() and open its container (browser_click or browser_hover on the toggle).",
      "Call browser_wait_for(text=…) if it appears after loading.", "Retry with the element's ref." },
  },
  ElementNotEnabled = {
    title = "Element is disabled",
    causes = { "The form is incomplete or invalid", "The page is still loading or saving",
      "The action is not allowed for this role" },
    actions = { "Call browser_snapshot() to see which fields are required or invalid.",
      "Fill them with browser_fill_form(fields=[…]) or browser_type(ref=…, text=…).",
      "Retry once the element is enabled (browser_wait_for can wait for a text that says so)." },
  },
  NoMatch = {
    title = "No element matches the description",
    causes = { "The wording differs from the element's accessible name",
      "The element is not visible yet, or lives on another page",
      "Descriptions are a fallback; refs are the reliable path" },
    actions = { "Call browser_snapshot() and use the element's ref instead of a description.",
      "If the element is missing, navigate or wait for it (browser_navigate, browser_wait_for)." },
  },
  BrowserClosed = {
    title = "The browser is closed",
    causes = { "Chromium crashed or was killed", "A remote browser endpoint dropped the connection",
      "browser_close() was called" },
    actions = { "Call browser_navigate(url=…): the role starts a fresh browser context.",
      "For a remote endpoint, check that it is still reachable." },
    flow = { causes = { "Chromium crashed or was killed", "A remote browser endpoint dropped the connection" },
      actions = { "Run the flow again; if it recurs, run with --headed to see the browser." } },
  },
  LaunchFailed = {
    title = "The browser did not start",
    causes = { "A headed browser (--headed) needs a display: there is no X server or $DISPLAY",
      "A Chromium flag (--browser-arg) is invalid, or the executable is not Chromium",
      "Chromium is not installed, or a library it needs is missing" },
    actions = { "Read the browser's last output in the message: it names the reason.",
      "For --headed without a display, run under xvfb-run or drop --headed.",
      "Check the browser: chromium --headless --dump-dom about:blank (or set --executable)." },
  },
  ConnectFailed = {
    title = "Cannot reach the remote browser",
    causes = { "The browser at the endpoint is not running (connection refused)",
      "The endpoint URL is wrong: host, port, or a ws:// path from an earlier run",
      "A firewall or a missing port forward blocks it" },
    actions = { "Start the browser with --remote-debugging-port=PORT (it must answer http://HOST:PORT/json/version).",
      "Check the endpoint URL of the role (--role-endpoint NAME URL or endpoint = in the config).",
      "Then call the tool again: the role connects on its next use." },
  },
  PageClosed = {
    title = "The page is closed",
    causes = { "The tab was closed (browser_close, browser_tabs(action=\"close\"), or the page called window.close())",
      "The page object was collected or its tab went away" },
    actions = { "Call browser_tabs(action=\"list\") to see the open tabs and browser_tabs(action=\"select\", index=…) to pick one.",
      "Or call browser_navigate(url=…): the role opens a new tab for it." },
  },
  PageCrashed = {
    title = "The page crashed",
    causes = { "The page's renderer process crashed or was killed (out of memory, a browser bug, a kill signal)" },
    actions = { "Navigate or reload to recover: call browser_navigate(url=…) (the same tab is reused).",
      "Call browser_snapshot() afterwards: refs from before the crash are gone." },
  },
  InvalidArgument = {
    title = "Invalid argument",
    causes = { "An argument has the wrong type, a value outside its range, or an unknown name",
      "A required argument is missing" },
    actions = { "Check the tool's input schema (tools/list) and fix the named field.",
      "Call the tool again with the corrected arguments." },
    flow = { causes = { "A flow call got an argument of the wrong type, or an option it does not know" },
      actions = { "Fix the call at the line named in \"Flow:\"; docs/flows.md lists every method and its options." } },
  },
  NotSelect = {
    title = "Not a native select",
    causes = { "The element is a custom dropdown (a button or input that opens a listbox), not a <select>" },
    actions = { "Call browser_click(ref=…) on the dropdown to open it.",
      "Call browser_snapshot() and browser_click(ref=…) on the option you want." },
  },
  NoOption = {
    title = "No such option",
    causes = { "No option of the <select> has that value or label (the message lists the ones there are)",
      "The option is disabled, or the list is filled in later by the page" },
    actions = { "Call browser_select_option(ref=…, values=[…]) with one of the listed options.",
      "If the options load later, call browser_wait_for(text=…) first." },
  },
  NotEditable = {
    title = "Not a field you can type into",
    causes = { "The ref is of a link, a button, a checkbox or a custom widget, not of a text field",
      "A ref of another element was given (the Ref and what it is are above)" },
    actions = { "Call browser_find(role=textbox, name=…) for the field's own ref, and type or fill there.",
      "For a checkbox or radio call browser_click; for a <select> browser_select_option." },
  },
  NotCheckable = {
    title = "Not a checkbox, radio or switch",
    causes = { "The element cannot be checked (a radio button is unchecked by checking another one)" },
    actions = { "Call browser_snapshot() and use the ref of the checkbox, radio or switch itself.",
      "To clear a radio group, check another radio button." },
  },
  CheckFailed = {
    title = "The click did not change the state",
    causes = { "The page ignores or reverts the click (a controlled component, a confirmation first)",
      "The click landed on a label or wrapper that does not toggle the control" },
    actions = { "Call browser_snapshot() to see the control's state and what is around it.",
      "Click the visible toggle with browser_click(ref=…), then check the state again." },
  },
  InputNotRouted = {
    title = "The browser did not send the pointer into the frame",
    causes = { "The frame runs in a process of its own and the browser has not drawn it: a covered or "
      .. "background window of a headed browser, or a browser whose drawing is stalled",
      "The frame keeps being replaced (a page that reloads its iframe)" },
    actions = { "Bring the tab to the front (browser_tabs(action=\"select\", index=…)) and retry the action.",
      "If the frame keeps reloading, call browser_wait_for(text=…) for its content first." },
  },
  PageHidden = {
    title = "The page is hidden",
    causes = { "The browser window is minimized, or the tab is not the one shown: the page draws no frames, "
      .. "and the browser holds pointer moves (a hover, a drag) until it draws again" },
    actions = { "Restore the browser window, or select the tab (browser_tabs(action=\"select\", index=…)), then retry.",
      "A click, typing and keys still reach a hidden page; only moves wait for it to be shown." },
  },
  NotSlider = {
    title = "Not a slider",
    causes = { "The element is not an <input type=range>" },
    actions = { "For a custom slider, drag its handle with browser_drag or browser_click_at.",
      "Call browser_snapshot() and use the ref of the range input." },
  },
  NotFileInput = {
    title = "Not a file input",
    causes = { "The element is not an <input type=file> (nor a label of one)" },
    actions = { "Call browser_snapshot() and use the ref of the file input or its label.",
      "If the page opens a file chooser from a button, look for the hidden input near it." },
  },
  NotMultiple = {
    title = "The input takes one file",
    causes = { "The file input has no multiple attribute" },
    actions = { "Call browser_file_upload(ref=…, paths=[…]) with one path." },
  },
  IOError = {
    title = "File error",
    causes = { "The file does not exist or cannot be read or written", "The folder does not exist" },
    actions = { "Check the path (absolute, inside the workspace) and call the tool again." },
  },
  LocatorSyntax = {
    title = "Invalid locator",
    causes = { "The locator expression does not parse (the message points at the column)" },
    actions = { "Fix the expression, e.g. getByRole(\"button\", { name: \"Save\" }), and call the tool again." },
  },
  InvalidSelector = {
    title = "Invalid selector",
    causes = { "Only CSS and XPath selectors are supported in locator()" },
    actions = { "Use a CSS selector or an XPath (xpath=//…), or a getBy… locator." },
  },
  Unavailable = {
    title = "Part of vdxlua is missing",
    causes = { "A module of the Lua layer (lua/vdx/) is not on package.path" },
    actions = { "Run the vdxlua binary, or add vdxlua's lua/ folder to LUA_PATH." },
  },
  UnknownMethod = {
    title = "Unknown bridge method",
    causes = { "A tool called page:bridge with a method the page's bridge does not have (a misspelt name, or one from another vdxlua version)" },
    actions = { "Fix the method name in the tool: bridge/README.md lists the methods.",
      "If the name is right, rebuild vdxlua so that its embedded bridge has the method." },
  },
  RoleUnknown = {
    title = "Unknown role",
    causes = { "The role name is misspelt", "The role was not configured (--role or --config)" },
    actions = { "Call list_roles() to see the configured roles.",
      "Call select_role(role=…) with one of them, or name it in the tool's role argument." },
    flow = { causes = { "The role name is misspelt", "The role was not declared with f:role()" },
      actions = { "Use one of the roles listed (the message names the nearest one), or declare it first: " ..
        "f:role(NAME, { url = …, auth = … }), then f:as(NAME, …)." } },
  },
  JavaScriptError = {
    title = "JavaScript error",
    causes = { "The function threw an exception in the page", "It referred to something the page does not define" },
    actions = { "Fix the function and call browser_evaluate(function=…) again.",
      "Call browser_console_messages() to see what the page logged." },
  },
  EvaluateRefused = {
    title = "Evaluate refused an acting script",
    causes = { "The JavaScript engine could not prove the function free of side effects (it writes, clicks, "
      .. "submits, navigates, sends a request, starts a timer or a promise…); browser_evaluate is for reading",
      "Some pure reads are refused too (getElementById, closest, matches, new URL)" },
    actions = { "Read with browser_snapshot, browser_find, resolve_container or inspect_pattern, or rewrite the read "
      .. "(document.querySelector('#id') instead of getElementById).",
      "Act with browser_click, browser_type, browser_fill_form or browser_navigate (or browser_run_code_unsafe when "
      .. "the server runs with --allow-unsafe-code)." },
  },
  CDPError = {
    title = "The browser refused a command",
    causes = { "The target (page, frame, node) no longer exists", "The command's parameters are invalid for this page" },
    actions = { "Call browser_snapshot() to check the page's state.", "Retry the call." },
  },
  Cancelled = {
    title = "Cancelled",
    expected = "The client cancelled this call; nothing else is wrong.",
    causes = { "The request was cancelled by the client" },
    actions = { "Call the tool again if its result is still needed." },
  },
  BrowserNotFound = {
    title = "No browser to start",
    causes = { "The --executable path (or VDX_CHROMIUM) is not an executable file: a typo, or a folder",
      "Chromium is not installed, or not on PATH (vdxlua looks for chromium-headless-shell, chromium, " ..
        "chromium-browser and google-chrome)" },
    actions = { "Check the path in the message: it names the file vdxlua tried.",
      "Install Chromium (Debian: apt-get install chromium chromium-headless-shell, or make deps in a checkout).",
      "Or restart vdxlua mcp with --executable /path/to/chromium." },
  },
  BridgeError = {
    title = "The page script of vdxlua failed",
    causes = { "The page replaced or broke built-ins that vdxlua's in-page script relies on",
      "The frame's document is not a normal web page (a PDF viewer, a blocked or sandboxed frame)",
      "A bug in vdxlua's in-page script" },
    actions = { "Call browser_snapshot() to check the page's state, then retry the call.",
      "If it fails again on this page, report it with the message above." },
  },
  BridgeVersionMismatch = {
    title = "Another vdxlua version is in the page",
    causes = { "Two vdxlua versions drive the same browser, and the other one put its in-page script there first" },
    actions = { "Call browser_navigate(url=…) to reload the page: the fresh document gets this version's script.",
      "Let one vdxlua version drive the browser at a time." },
  },
  UnknownMethod = {
    title = "The page script of vdxlua has no such method",
    causes = { "A user tool or script called page:bridge(method, …) with a name the bridge does not have (a typo)",
      "The page holds a bridge of another vdxlua version" },
    actions = { "Check the method name against the bridge's instance API (bridge/README.md).",
      "Call browser_navigate(url=…) to reload the page, so that it gets this version's bridge." },
  },
  MessageTooLarge = {
    title = "The message to the browser is too large",
    causes = { "An argument is huge (a long text to type, a large script or file passed inline)" },
    actions = { "Split the data into smaller calls, or pass it by URL or file (browser_file_upload for files).",
      "Call the tool again with the smaller argument." },
  },
  OutOfMemory = {
    title = "Out of memory",
    causes = { "vdxlua could not allocate memory: the machine or its memory limit is exhausted" },
    actions = { "Close pages you no longer need (browser_tabs(action=\"close\")) and retry.",
      "If it persists, restart vdxlua and check the machine's free memory." },
  },
  NoHostAdapter = {
    title = "A vdx call cannot wait here",
    causes = { "A Lua program called a waiting vdx function in a plain coroutine that no vdx task or " ..
      "installed scheduler adapter runs" },
    actions = { "Run the code as a vdx task (vdx.spawn), or install the adapter of the scheduler first: " ..
      "require('vdx.copas').install(copas), require('vdx.cqueues').install(cq) or require('vdx.luv').install(uv)." },
  },
  TargetNotFound = {
    title = "No element matches the target",
    causes = { "The page is not in the state the step expects (an earlier step did not do what it should)",
      "The role or accessible name differs from what the page shows",
      "The element is inside an iframe or container the target does not name" },
    actions = { "Open the screenshot and the snapshot excerpt below.",
      "Correct the role and name, or scope the target with within = { test_id =, text = } / frame = TITLE." },
    flow = { actions = { LOOK,
      "Correct the role and name, or scope the target with within = { test_id =, text = } / frame = TITLE." } },
  },
  AmbiguousTarget = {
    title = "The target matches more than one element",
    causes = { "Several elements share the role and name (one button per product card)" },
    actions = { "Scope the target: within = { test_id = \"…\", text = \"…\" } names the container.",
      "Use nth = N only when nothing else tells the elements apart." },
  },
  NotUnique = {
    title = function(e)
      local n = math.tointeger(e.count)
      return n == 0 and "Nothing matches the locator or text"
        or ("The locator or text matches %s elements, not one"):format(n and tostring(n) or "several")
    end,
    causes = { "A structure tool, browser_find, or an action given an element description and no ref, needs exactly one element",
      "A text shared by several elements (a repeated button label, a word in many rows) names them all",
      "The wording, role or test id differs from what the page shows, or the element is not visible yet" },
    actions = { "Narrow it: scope the locator to a container (getByTestId('card').filter({ hasText: '…' }).getByRole(…)) or give a longer, distinctive text.",
      "Call browser_find(text=…) to see the matches with their refs, then pass the ref instead.",
      "Check a locator with browser_verify_locator(locator=…) first." },
  },
  ExpectationFailed = {
    title = "Expectation not met",
    causes = { "The page never reached the expected state within the timeout",
      "An earlier step failed silently (a form error, a rejected request)" },
    actions = { "Open the screenshot and compare it with the expectation.",
      "Check the page's console and network errors for a failed request." },
    flow = { actions = { LOOK, "Check the page's console and network errors for a failed request." } },
  },
  VerifyFailed = {
    title = "The page does not agree",
    causes = { "The page is not in that state (yet), or the expectation differs from what it shows" },
    actions = { "Correct the expectation from Page has, or act or wait first (browser_wait_for), then verify again." },
  },
  -- Wrong input, named where it enters (issue 26).
  InvalidURL = {
    title = "Not a URL the browser can open",
    causes = { "The scheme is missing: localhost:3000 reads as the scheme \"localhost\"; write http://localhost:3000",
      "A typo, or a text that is not a URL (the message repeats the URL it got)" },
    actions = { "Call browser_navigate(url=…) again with a full URL, such as the one the message suggests." },
    flow = { causes = { "base_url, p:navigate or a role's url has no scheme: localhost:3000 reads as the scheme " ..
        "\"localhost\"; write http://localhost:3000",
      "A typo, or a text that is not a URL (the message repeats the URL it got)" },
      actions = { "Write the full URL (such as the one the message suggests) at the line named in \"Flow:\", " ..
        "or where the script takes it from (its argument after --, an environment variable).",
        "A path (\"/shop\") is under base_url: give flow.run a base_url = \"http://HOST:PORT\"." } },
  },
  Error = {
    title = "Unexpected error",
    causes = { "A bug in vdxlua or in a user tool", "The page is in a state the tool did not expect" },
    actions = { "Call browser_snapshot() to check the page's state.",
      "Retry the call; if the same error comes back, report it with the message above." },
    flow = { title = "Error in the flow script",
      causes = { "The flow script (or a function it calls) raised an error" },
      actions = { "Fix the line named in \"Flow:\" (the traceback below shows the calls that led there)." } },
  },
  -- Install and embedding (issue 26).
  HostOwnsLoop = {
    title = "A program that owns its event loop was started with vdxlua",
    causes = { "The script installs vdx.luv, vdx.cqueues or vdx.copas and runs that library's loop "
      .. "(uv.run(), cq:loop(), copas.loop()), but vdxlua already runs it on vdx's loop, which the "
      .. "host's loop would block" },
    actions = { "Run the program with lua5.4, with vdx on LUA_PATH and LUA_CPATH: from a build, "
      .. "LUA_PATH='lua/?.lua;;' LUA_CPATH='build/?.so;;' lua5.4 FILE.lua; after make install "
      .. "PREFIX=/usr/local nothing needs to be set (docs/install.md).",
      "Or keep vdxlua and drop the adapter and the host's loop: vdxlua's scripts call vdx directly "
      .. "and run concurrent work with vdx.spawn." },
  },
  -- Remote browsers and farms (docs/farms.md).
  InvalidEndpoint = {
    title = "Not a browser endpoint",
    causes = { "The endpoint has no scheme (127.0.0.1:9222 instead of http://127.0.0.1:9222)",
      "The scheme is not one vdx speaks (ws://, wss://, http://, https://)" },
    actions = { "Write the endpoint with its scheme: http://HOST:PORT (resolved through /json/version) or the ws:// URL the browser or farm gives (wss:// and https:// for TLS).",
      "Then connect again (--endpoint URL, --role-endpoint NAME URL, vdx.connect(URL))." },
  },
  FarmBusy = {
    title = "The browser farm is full",
    causes = { "The farm answered HTTP 429: its concurrent sessions and its queue are all taken (browserless: CONCURRENT and QUEUED)",
      "Other runs or agents hold the farm's browsers, or left sessions open" },
    actions = { "Wait for other sessions to end and run again, or raise the farm's limits (CONCURRENT, QUEUED).",
      "Give vdx more tries: retries = N in vdx.connect's options (the flow's connect option, --retries N); the waits double from 250 ms." },
  },
  TLSFailed = {
    title = "The TLS connection to the endpoint failed",
    causes = { "The server's certificate is self-signed or from a CA this system does not trust",
      "The certificate does not name the host of the endpoint (its subjectAltName), or it expired",
      "The endpoint does not speak TLS: a plain ws:// or http:// port was given as wss:// or https://" },
    actions = { "Trust the certificate's CA: ca = \"ca.pem\" in vdx.connect's options (--cacert FILE on the command line).",
      "For a test farm only, accept any certificate: insecure = true (--insecure).",
      "If the port is plain, use ws:// or http://." },
  },
  ConnectionLost = {
    title = "The connection to the remote browser was lost",
    causes = { "The farm or remote browser ended, restarted or was killed",
      "The farm ended the session (its session timeout, a cap on session time) or the network dropped" },
    actions = { "Call the tool again: the role connects to its endpoint anew (its earlier pages and refs are gone).",
      "If it fails again, check that the endpoint answers (its /json/version) and that the farm is running." },
    flow = { actions = { "Check that the endpoint still answers (its /json/version), then run the flow again.",
      "If the farm ends sessions after a time limit, raise it (browserless: TIMEOUT) or split the flow." } },
  },
  -- issue 28 (files)
  UnsafePath = {
    title = "A file or folder on the way is not safe to use",
    causes = { "A symbolic link stands on the path (links are never followed: one could lead a read or a write outside the folder)",
      "The file has more than one hard link (it may be a file from outside the folder)",
      "The file is not a regular file: a FIFO, socket, device or folder",
      "The default output folder vdx-output is a symbolic link (a cloned repository can ship one)" },
    actions = { "Use the real file or folder instead of a link, or a copy (cp) instead of a hard link, and call the tool again.",
      "To write where a link points on purpose, restart vdxlua mcp with --output-dir naming that folder." },
  },
  DiskFull = {
    title = "The disk is full",
    causes = { "The disk (or quota) that holds the output folder has no space left; nothing partial was left behind" },
    actions = { "Free space on that disk (old screenshots and exports in the output folder), then call the tool again.",
      "Or restart vdxlua mcp with --output-dir on a disk with space." },
  },
  -- issue 28 (busy)
  PageBusy = {
    title = "The page's main thread is busy",
    expected = "Nothing is wrong with the network: the page's main thread did not answer, and vdx stopped its script.",
    causes = { "A script of the page runs an endless loop (a click handler, a timer, an evaluate), so its main " ..
        "thread answers nothing",
      "The page has more work than the call's timeout allows (a long computation, a thousand frames)" },
    actions = { "Call browser_snapshot() to see the page now: its script was stopped (Runtime.terminateExecution), " ..
        "so it answers again.",
      "If the page starts the loop again (the same click, a timer, an interval), the next call stops it again; " ..
        "avoid that action, or browser_navigate(url=…) away from the page.",
      "A page that is only slow: retry the call." },
    flow = { actions = { LOOK, "Fix the page's script: it never returns (an endless loop in a handler or timer)." } },
  },  -- issue 27 (network)
  HeadlessOnly = {
    title = "Only a headless browser can do this",
    causes = { "Chromium prints a page to PDF (Page.printToPDF) only when it runs headless, and this browser is headed" },
    actions = { "Restart vdxlua mcp without --headed (or launch with headless = true) to save a PDF.",
      "Or call browser_take_screenshot(fullPage=true) for an image of the page." },
  },
  -- issue 27 (clock)
  ClockNotInstalled = {
    title = "The page has no controlled clock",
    causes = { "The clock was moved (fast_forward, run_for, pause_at, resume) before it was installed on this page",
      "The clock was installed on another tab or role" },
    actions = { "Call browser_clock_install(time=…) first, then move the clock.",
      "Each tab has its own clock: install it on the tab you act on (browser_tabs select)." },
    flow = { actions = { "Call r:clock{ time = … } in the role before moving its clock." } },
  },
  -- issue 27 (routes)
  InvalidHar = {
    title = "The HAR file cannot be replayed",
    causes = { "The file given to route_from_har is not JSON, or has no log.entries list (HAR 1.2)",
      "An entry lacks request.method, request.url or response" },
    actions = { "Check the path: it must name a HAR 1.2 file (a recorder's output, or one written by hand).",
      "Fix or drop the entry the message names, then call route_from_har again." },
  },
  -- issue 27 (storage)
  StorageUnavailable = {
    title = "The page has no storage of its own",
    causes = { "The page is about:blank, a data: URL or another document with an opaque origin: localStorage and "
      .. "sessionStorage belong to a site's origin" },
    actions = { "Call browser_navigate(url=…) to a page of the site first, then call the storage tool again.",
      "Cookies need no page: browser_cookie_set(url=…) sets one for any site." },
    flow = { actions = { "Navigate the role to a page of the site (r:navigate(url)) before it reads or writes its storage." } },
  },
  -- issue 29 (pools)
  PoolExhausted = {
    title = "No endpoint of the pool has room for this role",
    causes = { "Every endpoint of the pool holds its max_sessions sessions (one per role started there), and none ended within the pool's wait (pool_wait_ms)",
      "Every endpoint of the pool failed to connect (refused, TLS, full), so each is left out for a while" },
    actions = { "Close a role you no longer need (close_role, f:close_role, lease:close()): its place goes to the role waiting.",
      "Raise the places: more endpoints (--endpoint URL again), or a higher --max-sessions if the farms allow it (browserless: CONCURRENT).",
      "Wait longer for a place: --pool-wait MS (pool_wait_ms). For an endpoint that is down, check that it answers (its /json/version)." },
    flow = { actions = { "Close a role the flow is done with (f:close_role(name)) before starting another, or raise the places: more --endpoint URLs, --max-sessions N.",
      "Wait longer for a place: --pool-wait MS. For an endpoint that is down, check that it answers (its /json/version)." } },
  },
}

return {
  --- The error kinds (vdx.errors.catalog).
  kinds = catalog,
  --- The first step of most advice to a flow author, and the only one
  -- when a kind's advice is all for agents.
  LOOK = LOOK,
}
