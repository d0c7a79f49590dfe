--- spec/fidelity.lua: reads the expectations a page states on its elements
--- (the attributes the public conformance tests use: data-expectedlabel,
--- data-expectedrole, data-expecteddescription) and what vdxlua and
--- Chromium's own accessibility tree say about the same elements.
---
--- Used by spec/fidelity_names_spec.lua (vdxlua must match every case) and
--- by build-aux/fidelity.lua (the figures of docs/fidelity.md).
local fidelity = {}

local ATTRS = { name = "data-expectedlabel", role = "data-expectedrole",
                description = "data-expecteddescription" }
fidelity.SELECTOR = "[data-expectedlabel],[data-expectedrole],[data-expecteddescription]," ..
  "[data-expectedname],.ex-generic"

--- The cases of the page, in document order: { {what=, expected=,
--- index=, label=, generic=}… } where index is the element's position
--- among the elements matching fidelity.SELECTOR, label names the case and
--- generic marks a role case of class ex-generic.
function fidelity.cases(page)
  -- The public tests also spell a name data-expectedname, expect generic
  -- of class ex-generic, and mark cases they do not run (ex-crash,
  -- ex-invalid-test): those are counted as no case.
  -- A page that marks the cases it runs (class ex, ex-generic or
  -- labelled) is read for those alone.
  local list = page:evaluate(([[ [...document.querySelectorAll(%q)].map((e, i) => {
      const scoped = document.querySelector('.ex,.ex-generic,.labelled') !== null;
      const marked = e.matches('.ex,.ex-generic,.labelled');
      const skip = (scoped && !marked) || e.classList.contains('ex-crash') ||
        e.classList.contains('ex-invalid-test');
      return skip ? {} : {
        label: e.dataset.testname || e.outerHTML.slice(0, 120),
        name: e.getAttribute(%q) ?? e.getAttribute('data-expectedname'),
        role: e.getAttribute(%q) ?? (e.classList.contains('ex-generic') ? 'generic' : null),
        generic: e.getAttribute(%q) === null && e.classList.contains('ex-generic'),
        description: e.getAttribute(%q) }; }) ]])
    :format(fidelity.SELECTOR, ATTRS.name, ATTRS.role, ATTRS.role, ATTRS.description))
  local out = {}
  for i, e in ipairs(list) do
    for _, what in ipairs { "role", "name", "description" } do
      if type(e[what]) == "string" then
        out[#out + 1] = { what = what, expected = e[what], index = i, label = e.label,
                          generic = what == "role" and e.generic or nil }
      end
    end
  end
  return out, #list
end

--- What vdxlua reports for the elements: a list of {role=, name=,
--- description=} in the same order as fidelity.cases' indexes.
function fidelity.vdx(page, count)
  local got = page:accessible(fidelity.SELECTOR, count + 1)
  assert(got.total == count, "the page changed while it was read")
  return got.items
end

--- What Chromium's accessibility tree (CDP Accessibility domain) reports
--- for the same elements, in the same shape as fidelity.vdx.
function fidelity.chromium(page)
  page:send("DOM.enable", {})
  page:send("Accessibility.enable", {})
  local doc = page:send("DOM.getDocument", { depth = 0 })
  local ids = page:send("DOM.querySelectorAll",
    { nodeId = doc.root.nodeId, selector = fidelity.SELECTOR }).nodeIds
  local out = {}
  for i, id in ipairs(ids) do
    local backend = page:send("DOM.describeNode", { nodeId = id }).node.backendNodeId
    local tree = page:send("Accessibility.getPartialAXTree",
      { backendNodeId = backend, fetchRelatives = false })
    local item = { role = "", name = "", description = "" }
    for _, n in ipairs(tree.nodes) do
      if n.backendDOMNodeId == backend then
        item.role = n.role and n.role.value or ""
        -- An ignored node is reported as "none" whatever its role: the
        -- public tests accept ignored for generic, so it counts as either.
        if n.ignored and item.role == "none" then item.role = { none = true, generic = true } end
        item.name = n.name and n.name.value or ""
        item.description = n.description and n.description.value or ""
        break
      end
    end
    out[i] = item
  end
  return out
end

--- The cases items gets wrong: a list of "label: role expected X, got Y"
--- lines, and the number of cases of each kind { role=, name=,
--- description= } with how many were right { role=, … }.
local GENERIC = { generic = true, none = true, [""] = true }
function fidelity.compare(cases, items)
  local wrong, total, right = {}, { role = 0, name = 0, description = 0 },
    { role = 0, name = 0, description = 0 }
  for _, c in ipairs(cases) do
    local got = items[c.index] and items[c.index][c.what]
    total[c.what] = total[c.what] + 1
    -- The public tests (wai-aria/scripts/aria-utils.js) collapse each run
    -- of ASCII white space in the computed text to one space and trim it
    -- (vdxlua's names already are; Chromium's tree may not be).
    if type(got) == "string" then got = got:gsub("[ \t\n\f\r]+", " "):gsub("^ ", ""):gsub(" $", "") end
    -- A generic expectation (class ex-generic) takes any of the answers
    -- aria-utils.js's verifyGenericRolesBySelector takes: generic, none
    -- (Chromium) or no role (WebKit).
    local ok = got == c.expected or (type(got) == "table" and got[c.expected]) or
      (c.generic and (GENERIC[got] or (type(got) == "table" and got.generic)))
    if ok then
      right[c.what] = right[c.what] + 1
    else
      if type(got) == "table" then got = "none (ignored)" end
      wrong[#wrong + 1] = ("%s: %s expected %q, got %q"):format(c.label, c.what, c.expected, tostring(got))
    end
  end
  return wrong, total, right
end

return fidelity
