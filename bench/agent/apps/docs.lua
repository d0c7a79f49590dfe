--- bench/agent/apps/docs.lua: the long documentation-style page of the
-- agent benchmark (bench/agent.mjs), built here rather than kept as 150
-- hand-written sections: a sidebar of links, 150 sections of headings,
-- prose and code, and a dozen live examples (a counter, a small form, a
-- toggle) whose names repeat from section to section, so an agent must
-- scope to the right section.  Returns a function that builds the HTML.
local AREAS = { "Installation", "Configuration", "Routing", "Caching", "Logging", "Templates",
  "Sessions", "Uploads", "Queues", "Testing", "Deployment", "Security", "Migrations", "Plugins", "Metrics" }
local ASPECTS = { "basics", "options", "advanced use", "troubleshooting", "recipes",
  "internals", "limits", "examples", "migration notes", "reference" }

local SECTIONS = 150

--- The title of section i (1-based): unique across the page.
local function title(i)
  local a = AREAS[(i - 1) // #ASPECTS + 1]
  local b = ASPECTS[(i - 1) % #ASPECTS + 1]
  return ("%d. %s %s"):format(i, a, b)
end

--- Whether section i carries a live example (12 of the 150).
local function live(i) return i % 12 == 6 end

local function esc(s) return (s:gsub("&", "&amp;"):gsub("<", "&lt;"):gsub(">", "&gt;")) end

local function prose(i)
  local a = AREAS[(i - 1) // #ASPECTS + 1]:lower()
  return ("<p>This section covers %s in depth. Every option shown here can be set in the configuration file " ..
    "or passed on the command line; the command line wins when both are given. Section %d builds on the " ..
    "previous one, so read them in order the first time.</p>\n<p>When %s misbehaves, turn on debug logging " ..
    "and compare the effective settings with the defaults listed below. Most reports we receive come from a " ..
    "stale cache or a typo in a key name, both of which the validator catches.</p>\n"):format(a, i, a)
end

local function code(i)
  return ("<pre><code>app.configure({\n  section: %d,\n  %s: { enabled: true, level: %d },\n})\n</code></pre>\n")
    :format(i, AREAS[(i - 1) // #ASPECTS + 1]:lower(), i % 5)
end

local function example(i)
  return ([[<div class="example" data-testid="live-example">
<h3 id="ex-%d">Live example</h3>
<div class="counter"><button type="button" class="inc">Increment</button> <button type="button" class="reset">Reset</button>
<p>Count: <output class="count">0</output></p></div>
<form class="subscribe"><label>Your name <input name="who" autocomplete="off"></label>
<label><input type="checkbox" name="weekly"> Weekly digest</label>
<button type="submit">Subscribe</button>
<p class="result" role="status"></p></form>
<button type="button" class="toggle" aria-pressed="false">Dark mode</button>
</div>
]]):format(i)
end

local SCRIPT = [[
<script>
document.querySelectorAll('.example').forEach(function (ex) {
  var out = ex.querySelector('.count');
  ex.querySelector('.inc').addEventListener('click', function () { out.textContent = String(Number(out.textContent) + 1); });
  ex.querySelector('.reset').addEventListener('click', function () { out.textContent = '0'; });
  var form = ex.querySelector('form');
  form.addEventListener('submit', function (e) {
    e.preventDefault();
    var who = form.elements.who.value.trim() || 'nobody';
    form.querySelector('.result').textContent = 'Subscribed: ' + who + (form.elements.weekly.checked ? ' (weekly)' : '');
  });
  var t = ex.querySelector('.toggle');
  t.addEventListener('click', function () {
    var on = t.getAttribute('aria-pressed') !== 'true';
    t.setAttribute('aria-pressed', String(on));
    ex.classList.toggle('dark', on);
  });
});
</script>
]]

--- The page's HTML.
return function()
  local nav, body = {}, {}
  for i = 1, SECTIONS do
    nav[#nav + 1] = ('<li><a href="#s%d">%s</a></li>'):format(i, esc(title(i)))
    body[#body + 1] = ('<section id="s%d" aria-labelledby="h%d">\n<h2 id="h%d">%s</h2>\n%s%s%s</section>\n')
      :format(i, i, i, esc(title(i)), prose(i), code(i), live(i) and example(i) or "")
  end
  return table.concat {
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Framework guide</title>\n',
    '<style>body{font:15px/1.5 sans-serif;margin:0;display:flex}nav{width:260px;height:100vh;overflow:auto;',
    'position:sticky;top:0;font-size:13px}main{flex:1;padding:0 24px;max-width:820px}pre{background:#f4f4f4;',
    'padding:8px}.example{border:2px dashed #7a7;padding:8px 12px;margin:8px 0}.example.dark{background:#222;color:#eee}',
    '</style></head><body>\n',
    '<nav aria-label="Guide contents"><ul>\n', table.concat(nav, "\n"), '\n</ul></nav>\n',
    '<main><h1>Framework guide</h1>\n', table.concat(body), '</main>\n', SCRIPT, '</body></html>\n',
  }
end
