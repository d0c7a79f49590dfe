--- vdx.find: the policy of browser_find and of the structure tools'
-- starting points.  On a long page an agent asks a question of the whole
-- snapshot (which lines say "Lamp", where is the "Save" button) and reads
-- only the answer: the matching lines, each with the container lines
-- above it, bounded.  The snapshot is taken whole here and never sent;
-- only the answer is.  Regular expressions are evaluated by the page's
-- JavaScript engine (the bridge's matchTexts), so a pattern means what it
-- means in a Playwright test.
local vdx = require "vdx"
local json = require "vdx.json"
local diff = require "vdx.snapshot_diff"
local snapshot = require "vdx.snapshot"
local clip = require "vdx.clip"
local scope = require "vdx.find_within"

local find = {}

--- Matches answered by default.
find.MAX = 10

--- About how many characters of lines an answer holds (at least one
-- match is always shown).
find.MAX_CHARS = 2000

--- How many characters of each context line an answer keeps.
find.CONTEXT_LINE = 80

--- The context lines of `within` given alone: a row's or card's controls.
find.WITHIN_CONTEXT = 12

-- The budget of the whole snapshot a find reads, in tokens (4 MB of text).
local WHOLE = 1000000

local function invalid(message, field)
  error(vdx.error("InvalidArgument", message, { field = field }), 0)
end

--- Parses one snapshot line: { indent, role, name, text, ref } or nil for
-- a line that is not an element or text (a /url property, a note).  The
-- line's key and value are read by vdx.snapshot_diff, the one reader of
-- snapshot lines.
function find.parse_line(line)
  local lead, body = line:match("^( *)%- (.*)$")
  if not lead then return nil end
  local p = diff.parse(body)
  if p.role == "text" then return { indent = #lead, role = "text", name = "", text = p.value or "" } end
  if not p.role:match("^%w+$") or p.role == "note" then return nil end
  return { indent = #lead, role = p.role, name = p.name or "", text = p.value or "", ref = p.ref }
end

-- The pattern of args.regex: "/source/flags" or a plain source.
local function regex_of(r)
  local source, flags = r:match("^/(.*)/([a-z]*)$")
  if source then return source, flags end
  return r, ""
end

-- Roles whose name is their content, which the snapshot leaves off
-- their line (a row's is its cells'): a role and name search reads it
-- from the lines under it.
local NAMED_BY_CONTENT = { row = true }

-- The names and texts of the lines under items[i] (at most 60), joined
-- by spaces, as the accessible name of content joins them.
local function content_of(items, i)
  local out, indent = {}, items[i].indent
  for j = i + 1, math.min(#items, i + 60) do
    if items[j].indent <= indent then break end
    for _, t in ipairs { items[j].name, items[j].text } do if t ~= "" then out[#out + 1] = t end end
  end
  return table.concat(out, " ")
end

-- The indexes (into items) of the parsed lines args asks for.
local function matching(page, items, args)
  local out = {}
  if args.regex then
    if #items == 0 then return out end
    local source, flags = regex_of(args.regex)
    -- Each line's role, name and text, tested apart: /^Save$/ finds a
    -- button named Save, /textbox|checkbox/ the fields; then the line as
    -- printed, its role and quoted name (run BL's /^heading.*30/).
    local texts = {}
    for i, it in ipairs(items) do
      local role = it.role ~= "text" and it.role or ""
      texts[4 * i - 3], texts[4 * i - 2], texts[4 * i - 1] = role, it.name, it.text
      texts[4 * i] = role ~= "" and (role .. (it.name ~= "" and (' "' .. it.name .. '"') or "")
        .. (it.text ~= "" and (": " .. it.text) or "")) or ""
    end
    for _, k in ipairs(page:bridge("matchTexts", { source, flags, texts })) do
      local i = math.tointeger(k) // 4 + 1
      if out[#out] ~= i then out[#out + 1] = i end
    end
    return out
  end
  local needle = (args.text or args.name or ""):lower()
  for i, it in ipairs(items) do
    local hit
    if args.role then
      local name = it.name
      if it.role == args.role and args.name and name == "" and NAMED_BY_CONTENT[it.role] then name = content_of(items, i) end
      hit = it.role == args.role and (args.name == nil or name:lower():find(needle, 1, true) ~= nil)
    else
      -- (Its role is part of a line: run CH's text "status" found none.)
      hit = it.name:lower():find(needle, 1, true) ~= nil or it.text:lower():find(needle, 1, true) ~= nil
        or it.role == needle
    end
    if hit then out[#out + 1] = i end
  end
  return out
end

--- The ancestor lines of line i of parsed (a snapshot's lines, each
-- find.parse_line's or nil), as indexes into it, outermost first.
function find.path_of(parsed, i)
  local path, indent = {}, parsed[i].indent
  for j = i - 1, 1, -1 do
    local p = parsed[j]
    if p and p.indent < indent then
      table.insert(path, 1, j)
      indent = p.indent
      if indent == 0 then break end
    end
  end
  return path
end

-- The unnamed containers that are items of a list or grid: a match inside
-- one whose role and name repeat is told apart by the item's title.
-- (A generic one, a card's div, only while it is small: a page's wrapper
-- is no item.)
local ITEMISH = { article = true, listitem = true, row = true, group = true, region = true, generic = true }
local ITEM_LINES = 12

-- The line (index into parsed) that titles the nearest unnamed item of
-- path (a card's heading, else its first line with a name or text, not
-- line i itself), or nil.
local function title_of(parsed, path, i)
  for k = #path, 1, -1 do
    local a = parsed[path[k]]
    if a and ITEMISH[a.role] and (a.name or "") == "" then
      local first, heading, n = nil, nil, 0
      for j = path[k] + 1, #parsed do
        local p = parsed[j]
        if not p or p.indent <= a.indent then break end
        n = n + 1
        if j ~= i and p.role then
          if p.role == "heading" and not heading then heading = j end
          if not first and ((p.name or "") ~= "" or (p.text or "") ~= "") then first = j end
        end
      end
      if a.role ~= "generic" or n <= ITEM_LINES then
        if heading or first then return heading or first end
      else
        return nil
      end
    end
  end
  return nil
end

-- Lines of a container counted past a cut context, at most.
local MORE_COUNTED = 500

-- The indexes of up to n lines after line i that it introduces: its own
-- subtree when it has one (a region, a form), else the siblings after it
-- with theirs (a heading's section: the prose, the example and its
-- controls); no more than find.MAX_CHARS characters of them.  Also how
-- many lines of that container the cut left out (0 when none; counted up
-- to MORE_COUNTED).
-- The roles of a table's cells.
local CELLS = { cell = true, gridcell = true, rowheader = true, columnheader = true }

local function following(parsed, lines, i, n)
  local out, indent, chars = {}, parsed[i].indent, 0
  local own = parsed[i + 1] and parsed[i + 1].indent > indent
  local function inside(j) return not (parsed[j].indent < indent or (own and parsed[j].indent == indent)) end
  local j = i + 1
  while j <= #parsed and #out < n and inside(j) do
    chars = chars + math.min(#lines[j], find.CONTEXT_LINE) + 1
    if chars > find.MAX_CHARS then break end
    out[#out + 1] = j
    j = j + 1
  end
  local more = 0
  -- A cell found alone (context 0) is counted too: its row's other cells
  -- are what an agent reads next (an order's status beside its number).
  if n > 0 or CELLS[parsed[i].role] then
    while j <= #parsed and more < MORE_COUNTED and inside(j) do more, j = more + 1, j + 1 end
  end
  return out, more
end

-- How many lists that fold their options ([options=N]) a find opens,
-- and how many options of each it reads.
local UNFOLDED_LISTS = 5
local UNFOLDED_OPTIONS = 500

-- src with the lines of the first UNFOLDED_LISTS lists that fold their
-- options replaced by a snapshot of each with its options (indented where
-- the list was): an option is found like any other line.
local function unfold(page, src)
  local out, opened = nil, 0
  for i, line in ipairs(src) do
    local ref = opened < UNFOLDED_LISTS and line:find(" [options=", 1, true) and line:match("%[ref=([%w_]+)%]")
    local sub
    if ref then
      local ok, snap = pcall(snapshot.take, page, { root = ref, max_options = UNFOLDED_OPTIONS,
        budget_tokens = WHOLE }, nil, nil, true)
      if not ok and vdx.is_error(snap, "Cancelled") then error(snap, 0) end
      if ok and snap.lines and #snap.lines > 1 then sub = snap.lines end
    end
    if sub then
      opened = opened + 1
      if not out then out = table.move(src, 1, i - 1, 1, {}) end
      local indent = line:match("^ *")
      for _, l in ipairs(sub) do out[#out + 1] = indent .. l end
    elseif out then
      out[#out + 1] = line
    end
  end
  return out or src
end

--- The arguments a find answers for args: args itself, or for `within`
-- alone (the row or card that shows it) text = within with
-- find.WITHIN_CONTEXT lines of context unless args gives context, and
-- items_only (vdx.find_within's alone).
function find.asked(args)
  if args.within == nil or args.text or args.regex or args.role or args.name then return args end
  return { text = args.within, context = args.context or find.WITHIN_CONTEXT, max = args.max, items_only = true }
end

-- How many matches without a ref a find asks the page a ref for
-- (ref_for): each is a round trip, and a name others share gets none.
local REFS_GIVEN = 5

-- The ref the page gives the element of line i of parsed (a named line
-- without one, in the main frame) when its role and exact name single it
-- out, or nil.
local function ref_for(page, parsed, i)
  local p = parsed[i]
  if not p or p.role == "text" or p.name == "" then return nil end
  for _, j in ipairs(find.path_of(parsed, i)) do
    if parsed[j] and parsed[j].role == "iframe" then return nil end
  end
  local A = require "vdx.assertions"
  local ok, r = pcall(find.target_ref, page, { locator = A.by_role(p.role, p.name, true) })
  if not ok and vdx.is_error(r, "Cancelled") then error(r, 0) end
  return ok and type(r) == "string" and r or nil
end

-- What the matches not shown are (hits past the first shown): { kinds =
-- the role and name of each kind the shown ones are not, in order, when
-- at most REST_KINDS (run EZ's 65 buttons and fields of 13 alike
-- examples hid whether the guide had a search box) } or { again = true }
-- when each is a kind shown; nil when all were shown, or when they are
-- more kinds than that.
local REST_KINDS = 4
local function rest_of(items, hits, shown)
  if shown >= #hits then return nil end
  local function kind(h)
    local it = items[h]
    return (it.name or "") ~= "" and ("%s %s"):format(it.role, json.encode(clip(it.name, 40))) or it.role
  end
  local seen, kinds = {}, {}
  for k = 1, shown do seen[kind(hits[k])] = true end
  for k = shown + 1, #hits do
    local id = kind(hits[k])
    if not seen[id] then
      seen[id] = true
      kinds[#kinds + 1] = id
      if #kinds > REST_KINDS then return nil end
    end
  end
  return #kinds == 0 and { again = true } or { kinds = kinds }
end

--- find.run(page, args) -> { url, title, total, shown, matches = [{ ref,
-- line, path = [lines] }], lines = [the answer's lines] }: the snapshot
-- lines that match args (text: a case-insensitive substring of a line's
-- name or text; regex: "/source/flags" or a source, a JavaScript regular
-- expression tested against role, name and text; role, with name: the role
-- exactly and the name as a case-insensitive substring; a row's name is
-- its cells'; args.within: only matches in the nearest container that
-- shows that text and holds no other match, and of those the ones whose
-- container shows it whole when some do: `partly` lists the others'
-- texts), at most args.max
-- (default find.MAX) and about find.MAX_CHARS characters; args.context
-- lines after each match that stay in its container come with it (what a
-- heading introduces, the controls beside a label), within that bound, and
-- a match whose container they did not hold whole has `more`, the lines
-- left out, told in the answer under its last line shown.  `lines` is the
-- answer as one pruned snapshot: every match and each of its ancestor
-- lines once, in page order, indented as in the snapshot; `snapshot` the
-- whole snapshot it read.  The options of lists that fold them
-- ([options=N]) are read too, each list's up to UNFOLDED_OPTIONS.
-- args.within alone is text = within with context (default
-- find.WITHIN_CONTEXT): the row or card that shows it (find.asked).
function find.run(page, args)
  args = find.asked(args)
  local given = (args.text and 1 or 0) + (args.regex and 1 or 0) + (args.role and 1 or 0)
  if given == 0 then invalid("give one of text, regex or role (with name)", "text") end
  if given > 1 then
    -- (Named as given: run AX's role with a regex was told of text.)
    local which = {}
    for _, k in ipairs { "text", "regex", "role" } do if args[k] then which[#which + 1] = k end end
    invalid(("give one of text, regex or role, not %s together%s"):format(table.concat(which, " and "),
      args.role and args.regex and ": a role's name takes no regex, so find by regex alone and read the role on "
        .. "its lines" or ""), which[2])
  end
  if args.name and not args.role then invalid("name goes with role", "name") end
  for _, k in ipairs { "text", "regex", "role", "name", "within" } do
    if args[k] ~= nil and (type(args[k]) ~= "string" or args[k] == "") then
      invalid(k .. " must be a non-empty string", k)
    end
  end
  local max = math.tointeger(args.max or find.MAX)
  if not max or max < 1 then invalid("max must be an integer >= 1", "max") end
  local context = math.tointeger(args.context or 0)
  if not context or context < 0 then invalid("context must be an integer >= 0", "context") end
  local snap = snapshot.take(page, { budget_tokens = WHOLE }, nil, nil, true)
  local lines, parsed, items, index = {}, {}, {}, {}
  -- The walk's own lines when its text is whole, else the text split.
  local src = snap.lines
  if not src then
    src = {}
    for line in (snap.text or ""):gmatch("[^\n]+") do src[#src + 1] = line end
  end
  src = unfold(page, src)
  for _, line in ipairs(src) do
    lines[#lines + 1] = line
    local p = find.parse_line(line)
    parsed[#lines] = p or { indent = #(line:match("^ *")) }
    if p then items[#items + 1] = p; index[#items] = #lines end
  end
  local hits = matching(page, items, args)
  if args.items_only then hits = scope.alone(parsed, index, items, hits, args.text, find.path_of) end
  local anchors, partly
  if args.within then hits, anchors, partly = scope.within(items, hits, args.within) end
  for _, h in ipairs(hits) do
    local it = items[h]
    if it.name == "" and NAMED_BY_CONTENT[it.role] then
      -- The name the search read from its cells, on its line.
      local name = content_of(items, h)
      name = clip(name, 100)
      if name ~= "" then
        local i = index[h]
        local quoted = ('"' .. name:gsub('[\\"]', "\\%0") .. '"'):gsub("%%", "%%%%")
        lines[i] = lines[i]:gsub("^(%s*%- " .. it.role .. ")", "%1 " .. quoted, 1)
      end
    end
  end
  local res = { url = snap.url, title = snap.title, total = #hits, matches = json.array(), partly = partly }
  local seen_id, repeated = {}, {}
  for _, h in ipairs(hits) do
    local id = items[h].role .. "\0" .. (items[h].name or "")
    if seen_id[id] and (items[h].name or "") ~= "" then repeated[id] = true end
    seen_id[id] = true
  end
  -- A larger max asked for is a larger answer allowed: about 100
  -- characters a match.
  local bound = math.max(find.MAX_CHARS, max * 100)
  local keep, chars, notes, given = {}, 0, {}, 0
  for _, h in ipairs(hits) do
    if #res.matches >= max then break end
    local i = index[h]
    -- A named match the snapshot gives no ref (a heading) gets one, so
    -- it can be checked or remembered by ref (run BW wrote its order's
    -- heading's locator by hand to remember the number in it).
    if not items[h].ref and given < REFS_GIVEN and parsed[i] and parsed[i].role ~= "text" and parsed[i].name ~= "" then
      local r = ref_for(page, parsed, i)
      given = given + 1
      if r then
        items[h].ref = r
        lines[i] = lines[i]:gsub(":$", "") .. " [ref=" .. r .. "]" .. (lines[i]:find(":$") and ":" or "")
      end
    end
    local after, more = following(parsed, lines, i, context)
    local path, cost = find.path_of(parsed, i), 0
    -- The line that showed `within`'s text (the card's title), with the
    -- lines above it the path lacks.
    local anchor = anchors and anchors[h] and index[anchors[h]]
    -- A match whose role and name others share (a card's "Add to cart"):
    -- its card's title, as within's text would show it.
    if not anchor and repeated[items[h].role .. "\0" .. (items[h].name or "")] then
      local t = title_of(parsed, path, i)
      if t and t ~= i then anchor = t end
    end
    if anchor then
      local seen_path = {}
      for _, j in ipairs(path) do seen_path[j] = true end
      for _, j in ipairs(find.path_of(parsed, anchor)) do
        if not seen_path[j] then path[#path + 1] = j end
      end
      path[#path + 1] = anchor
      table.sort(path)
    end
    for _, j in ipairs(path) do if not keep[j] then cost = cost + #lines[j] + 1 end end
    for _, j in ipairs(after) do if not keep[j] then cost = cost + math.min(#lines[j], find.CONTEXT_LINE + 3) + 1 end end
    cost = cost + #lines[i] + 1
    if #res.matches > 0 and chars + cost > bound then
      res.cut = true
      break
    end
    chars = chars + cost
    keep[i] = true
    local plines = json.array()
    for _, j in ipairs(path) do keep[j] = true; plines[#plines + 1] = lines[j] end
    local clines = json.array()
    for _, j in ipairs(after) do
      -- (Prose under a heading is read for its gist; controls' lines are short.)
      lines[j] = clip(lines[j], find.CONTEXT_LINE)
      keep[j] = true; clines[#clines + 1] = lines[j]
    end
    -- A container the context cut short says so under its last line shown.
    local last = after[#after] or i
    if more > 0 then
      -- Cut by the count asked, a larger context shows the rest; cut by
      -- the answer's size, only a snapshot of the container does.
      local how = #after < context and "browser_snapshot(root=…) of the container reads them"
        or ("context=%d shows them"):format(context + math.min(more, MORE_COUNTED))
      notes[last] = ("%s… %s more line%s here: %s"):format(lines[last]:match("^ *"),
        more >= MORE_COUNTED and ("%d or more"):format(MORE_COUNTED) or tostring(more), more == 1 and "" or "s", how)
    end
    res.matches[#res.matches + 1] = { ref = items[h].ref, line = lines[i], path = plines, context = clines,
      more = more > 0 and more or nil }
  end
  res.shown = #res.matches
  res.rest = rest_of(items, hits, res.shown)
  res.snapshot = snap
  res.lines = {}
  local kept = {}
  for i = 1, #lines do if keep[i] then kept[#kept + 1] = i end end
  for k, i in ipairs(kept) do
    local line, nxt = lines[i], kept[k + 1]
    -- A line whose children are not shown ends without the colon that
    -- would introduce them.
    if line:sub(-1) == ":" and not (nxt and parsed[nxt].indent > parsed[i].indent) and not notes[i] then
      line = line:sub(1, -2)
    end
    res.lines[#res.lines + 1] = line
    if notes[i] then res.lines[#res.lines + 1] = notes[i] end
  end
  return res
end

--- The text answer of find.run's result res for args, for the model.
function find.text(res, args)
  local what = args.regex and ("regex " .. args.regex) or args.text and ("text " .. json.encode(args.text))
    or ("role " .. args.role .. (args.name and (" name " .. json.encode(args.name)) or ""))
  if args.within then what = what .. " within a container that shows " .. json.encode(args.within) end
  local out = { "Page URL: " .. tostring(res.url) }
  if res.total == 0 then
    out[#out + 1] = ("No line of the snapshot matches %s."):format(what)
    out[#out + 1] = "Try a shorter text, a regex, or browser_snapshot() to read the page."
    return table.concat(out, "\n")
  end
  -- The query is the caller's own; the count is news, and so are the
  -- trees it shows when fewer than the matches (runs AJ and AK read "2
  -- matches:" over one tree holding a tab and its panel, and wondered).
  local trees = 0
  for _, l in ipairs(res.lines) do if l:match("^%- ") then trees = trees + 1 end end
  out[#out + 1] = ("%d match%s%s%s:"):format(res.total, res.total == 1 and "" or "es",
    res.shown < res.total and (" (showing %d)"):format(res.shown) or "",
    trees > 0 and trees < res.shown and (" in %d tree%s"):format(trees, trees == 1 and "" or "s") or "")
  for _, l in ipairs(res.lines) do out[#out + 1] = l end
  if res.partly then
    local names = {}
    for i = 1, math.min(#res.partly, 3) do names[i] = json.encode(clip(res.partly[i], 40)) end
    out[#out + 1] = ("(Left out: %d in containers that show %s only inside a longer text: %s%s.)"):format(#res.partly,
      json.encode(args.within), table.concat(names, ", "), #res.partly > 3 and ", …" or "")
  end
  if res.shown < res.total then
    local rest = res.rest and (res.rest.again and ", each a role and name shown above again"
      or (", among them %s (not shown above)"):format(table.concat(res.rest.kinds, ", "))) or ""
    out[#out + 1] = ("… %d more matched%s%s. Narrow it: add role=… (with name=…), within=…, a longer text or a "
      .. "regex%s, or browser_snapshot(root=<container ref>) for one container."):format(res.total - res.shown,
      res.cut and " (the answer's size bound)" or "", rest, res.cut and "" or ", raise max")
  end
  return table.concat(out, "\n")
end

--- find.target_ref(page, { locator = expr } | { text = s }) -> ref: the
-- one element a Playwright locator expression or a text (the smallest
-- visible element whose text holds it, case-insensitively) names in the
-- main frame, given a ref if it had none.  Raises NotUnique with the
-- count when none or several match, NoMatch's cousin for a start point.
function find.target_ref(page, spec)
  local r = page:bridge("targetRef", { { locator = spec.locator, text = spec.text } })
  return r.ref, r
end

--- The ref a structure tool starts from: args.ref, else the element
-- args.locator or args.text names (see find.target_ref).
function find.start(page, args)
  local n = (args.ref and 1 or 0) + (args.locator and 1 or 0) + (args.text and 1 or 0)
  if n ~= 1 then invalid("give one of ref, locator or text (to start from the element it names)", "ref") end
  if args.ref then return args.ref end
  return (find.target_ref(page, { locator = args.locator, text = args.text }))
end

--- Adds page:target_ref to a table of page methods (vdx.Page's __index).
function find.install(methods)
  methods.target_ref = find.target_ref
end

return find
