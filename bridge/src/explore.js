// explore.js -- the structure around a ref: resolveContainer (the chain of
// ancestors), inspectPattern (the siblings of one of them) and
// extractAnchors (a bounded view of one ancestor's subtree).
//
// Facts only: tags, attributes, counts, text and refs.  Every list is
// bounded and says how much it left out; long text ends in a marker
// ("…[+N chars]").  Levels count composed-tree ancestors from the target
// (1 = its parent) up to, not including, body; the host of an open shadow
// root counts as one level and is flagged `crossed_shadow`.

import * as N from './natives.js';
import { checkKeys, bridgeError, badArgument } from './errors.js';
import {
  Ctx, NAME_PROHIBITED, TEST_ID_ATTRIBUTES, TextCache, accessibleName, ancestorsOf, childElements, childrenOfNode,
  directText, getRole, headingLevel, intOption, isDisplayNone, isHiddenForAria, isSkipped, normalize, ownAttributes,
  parentOrHost, refFor, shownAttributes, truncate,
} from './facts.js';

const ATTRIBUTE_MAX = 80;
const SNIPPET_MAX = 40;
const UNNAMED_ROLES = new Set(['generic', 'none', 'presentation']);

// { target, ancestors, levels_total }; the target lists all its own
// attributes (bounded), the ancestors the shown ones (SHOWN_ATTRIBUTES).
export function resolveContainer(env, ref, options) {
  const opts = options || {};
  checkKeys(opts, ['max_refs', 'max_text'], 'resolveContainer');
  const maxRefs = intOption(opts, 'max_refs', 10, 0, 'resolveContainer');
  const maxText = intOption(opts, 'max_text', 80, 1, 'resolveContainer');
  const el = env.resolve(ref);
  const ctx = new Ctx();
  const texts = new TextCache();
  const role = getRole(el);
  const target = {
    ref,
    tag: N.localName(el),
    role,
    name: truncate(accessibleName(ctx, el, role, false), maxText),
    text: truncate(texts.get(el).normalized, maxText),
    child_elements: childElements(el).length,
  };
  const own = ownAttributes(el, ATTRIBUTE_MAX);
  target.attributes = own.attributes;
  if (own.more) target.attributes_not_shown = own.more;
  const chain = ancestorsOf(el);
  const counted = countRefs(ctx, env.refs, chain, maxRefs);
  const ancestors = chain.map((a, i) => {
    const out = {
      level: i + 1,
      tag: N.localName(a.el),
      attributes: shownAttributes(a.el, ATTRIBUTE_MAX),
      child_elements: childElements(a.el).length,
      contains_refs: counted[i],
    };
    if (a.crossed) out.crossed_shadow = true;
    return out;
  });
  return { target, ancestors, levels_total: chain.length };
}

// The refs inside each ancestor of a chain, in one walk of the outermost:
// [{ refs, total }] in chain order.
function countRefs(ctx, refs, chain, max) {
  const out = chain.map(() => ({ refs: [], total: 0 }));
  if (chain.length === 0) return out;
  const index = new Map();
  chain.forEach((a, i) => index.set(a.el, i));
  const open = [chain.length - 1];
  const visit = (node) => {
    const kids = childElements(node);
    for (let k = 0; k < kids.length; k++) {
      const el = kids[k];
      const r = refFor(ctx, refs, el, true);
      if (r !== null) {
        for (let j = 0; j < open.length; j++) {
          const c = out[open[j]];
          c.total++;
          if (c.refs.length < max) c.refs.push(r);
        }
      }
      const at = index.get(el);
      if (at !== undefined) open.push(at);
      visit(el);
      if (at !== undefined) open.pop();
    }
  };
  visit(chain[chain.length - 1].el);
  return out;
}

// The element at `level` above el (0 = el itself); a level past body is an
// InvalidArgument naming the largest valid one.
export function elementAtLevel(el, level, what) {
  if (typeof level !== 'number' || !Number.isInteger(level)) {
    throw badArgument(what + ': level must be an integer');
  }
  const chain = ancestorsOf(el);
  if (level < 0 || level > chain.length) {
    throw bridgeError('InvalidArgument',
      what + ': level ' + level + ' is ' + (level < 0 ? 'negative' : 'past body') +
      '; the largest valid level is ' + chain.length,
      { level, max_level: chain.length });
  }
  return level === 0 ? el : chain[level - 1].el;
}

// { container_at, target_sibling_index, siblings_total, shown, siblings }.
export function inspectPattern(env, ref, level, options) {
  const opts = options || {};
  checkKeys(opts, ['max_siblings', 'max_refs', 'max_snippets', 'max_outline'], 'inspectPattern');
  const lim = {
    siblings: intOption(opts, 'max_siblings', 20, 1, 'inspectPattern'),
    refs: intOption(opts, 'max_refs', 5, 0, 'inspectPattern'),
    snippets: intOption(opts, 'max_snippets', 3, 0, 'inspectPattern'),
    outline: intOption(opts, 'max_outline', 6, 0, 'inspectPattern'),
  };
  const el = env.resolve(ref);
  const container = elementAtLevel(el, level, 'inspectPattern');
  const parent = N.parentNode(container);
  const siblings = childrenOfNode(parentOrHost(container).crossed ? N.shadowHost(parent) : parent);
  const at = siblings.indexOf(container);
  const total = siblings.length;
  const start = Math.max(0, Math.min(at - (lim.siblings >> 1), total - lim.siblings));
  const end = Math.min(total, start + lim.siblings);
  const ctx = new Ctx();
  const list = [];
  for (let i = start; i < end; i++) {
    const s = siblings[i];
    const sum = summarize(ctx, env.refs, s, lim);
    list.push({
      index: i,
      tag: N.localName(s),
      attributes: shownAttributes(s, ATTRIBUTE_MAX),
      contains_refs: { refs: sum.refs, total: sum.total },
      contains_text: sum.texts,
      outline: sum.outline,
    });
  }
  return {
    container_at: { level, tag: N.localName(container), attributes: shownAttributes(container, ATTRIBUTE_MAX) },
    target_sibling_index: at,
    siblings_total: total,
    shown: list.length,
    siblings: list,
  };
}

// One walk of a sibling's subtree: its refs, its first distinct text
// snippets and its outline (headings, named elements with refs, test ids).
function summarize(ctx, refs, root, lim) {
  const sum = { refs: [], total: 0, texts: [], outline: [] };
  const seen = new Set();
  const visitNodes = (first) => {
    for (let c = first; c !== null; c = N.nextSibling(c)) {
      const type = N.nodeType(c);
      if (type === N.TEXT_NODE) {
        if (sum.texts.length < lim.snippets) {
          const t = normalize(N.nodeData(c));
          if (t && !seen.has(t)) {
            seen.add(t);
            sum.texts.push(truncate(t, SNIPPET_MAX));
          }
        }
      } else if (type === N.ELEMENT_NODE && !isSkipped(c) && !notRendered(ctx, c)) {
        visitElement(c);
      }
    }
  };
  const visitElement = (el) => {
    const r = refFor(ctx, refs, el, true);
    if (r !== null) {
      sum.total++;
      if (sum.refs.length < lim.refs) sum.refs.push(r);
    }
    if (sum.outline.length < lim.outline) outlineItem(ctx, el, r, sum.outline);
    visitChildren(el);
  };
  const visitChildren = (el) => {
    const shadow = N.shadowRoot(el);
    if (shadow) visitNodes(N.firstChild(shadow));
    visitNodes(N.firstChild(el));
  };
  visitChildren(root);
  return sum;
}

// True when el and its subtree are not rendered (display: none); the
// native box check saves the style read for the common case.
function notRendered(ctx, el) {
  let rendered;
  try {
    rendered = N.checkVisibility(el);
  } catch (e) {
    rendered = false;
  }
  return !rendered && isDisplayNone(ctx, el);
}

// Adds the outline lines of el, snapshot style: `heading "Title"
// [level=3]`, `button "Add to Cart" [ref=e5]`, `[data-testid="price"]`.
function outlineItem(ctx, el, ref, out) {
  const role = getRole(el);
  if (role === 'heading') {
    const name = truncate(accessibleName(ctx, el, role, false), SNIPPET_MAX);
    out.push('heading ' + JSON.stringify(name) + ' [level=' + headingLevel(el, role) + ']');
  } else if (ref !== null) {
    const name = truncate(accessibleName(ctx, el, role, false), SNIPPET_MAX);
    if (name) out.push(role + ' ' + JSON.stringify(name) + ' [ref=' + ref + ']');
  }
  for (let i = 0; i < TEST_ID_ATTRIBUTES.length && out.length < 6; i++) {
    const v = N.getAttribute(el, TEST_ID_ATTRIBUTES[i]);
    if (v !== null) out.push('[' + TEST_ID_ATTRIBUTES[i] + '=' + JSON.stringify(truncate(v, SNIPPET_MAX)) + ']');
  }
}

// { ancestor_at, descendants, total_descendants, shown, limits }.
export function extractAnchors(env, ref, level, options) {
  const opts = options || {};
  checkKeys(opts, ['max_depth', 'max_children', 'max_total', 'max_text'], 'extractAnchors');
  const lim = {
    max_depth: intOption(opts, 'max_depth', 4, 1, 'extractAnchors'),
    max_children: intOption(opts, 'max_children', 15, 1, 'extractAnchors'),
    max_total: intOption(opts, 'max_total', 100, 1, 'extractAnchors'),
  };
  const maxText = intOption(opts, 'max_text', 80, 1, 'extractAnchors');
  const el = env.resolve(ref);
  const anc = elementAtLevel(el, level, 'extractAnchors');
  const ctx = new Ctx();
  const texts = new TextCache();
  const list = [];
  let total = 0;
  // Walks the children of node at `depth`; only children of a shown node
  // are shown, but all are counted.  Returns how many of node's own
  // children went unshown.
  const visit = (node, depth, shownParent) => {
    const kids = childElements(node);
    let unshown = 0;
    for (let i = 0; i < kids.length; i++) {
      const k = kids[i];
      total++;
      let entry = null;
      if (shownParent && i < lim.max_children && list.length < lim.max_total) {
        entry = anchorEntry(ctx, texts, env.refs, k, depth, i, maxText);
        if (i < kids.shadowCount) entry.in_shadow = true;
        list.push(entry);
      } else {
        unshown++;
      }
      if (depth < lim.max_depth) {
        const below = visit(k, depth + 1, entry !== null);
        if (entry !== null && below > 0) entry.children_not_shown = below;
      } else if (entry !== null) {
        const n = childElements(k).length;
        if (n > 0) entry.children_not_shown = n;
      }
    }
    return unshown;
  };
  const topUnshown = visit(anc, 1, true);
  const ancestorAt = { level, tag: N.localName(anc), attributes: shownAttributes(anc, ATTRIBUTE_MAX) };
  if (topUnshown > 0) ancestorAt.children_not_shown = topUnshown;
  // Inside a shadow root: a script reaches it through its host's
  // shadowRoot, not document.querySelector (run EE's evaluate found none).
  const root = N.getRootNode(anc);
  if (N.nodeType(root) === 11) ancestorAt.in_shadow_root_of = N.localName(N.shadowHost(root));
  return {
    ancestor_at: ancestorAt,
    descendants: list,
    total_descendants: total,
    shown: list.length,
    limits: lim,
  };
}

function anchorEntry(ctx, texts, refs, el, depth, index, maxText) {
  const e = { depth, index, tag: N.localName(el), attributes: shownAttributes(el, ATTRIBUTE_MAX) };
  const ref = refFor(ctx, refs, el);
  if (ref !== null) e.ref = ref;
  const role = getRole(el);
  if (!UNNAMED_ROLES.has(role)) {
    e.role = role;
    if (!NAME_PROHIBITED.has(role)) {
      const name = accessibleName(ctx, el, role, false);
      if (name) e.name = truncate(name, maxText);
    }
  }
  if (isHiddenForAria(ctx, el)) e.hidden = true;
  e.direct_text = truncate(directText(el), maxText);
  e.full_text = truncate(texts.get(el).normalized, maxText);
  return e;
}
