// selector.js -- a unique CSS selector for an element, verified, else a
// Playwright locator, verified (locgen.js), else the centre of its box.
//
// CSS candidates, first unique one wins: `#id` (when the id looks stable),
// a test-id attribute, aria-label, `a[href]` for links, `[name]` for form
// fields (with the value for radios and checkboxes), placeholder, title,
// alt and stable classes; then a short container-scoped pair: an ancestor
// with one of those (or a class unique in its tree, or a landmark tag) and
// the element by one of those, its type or its tag; then a positional path
// under such a container, `:nth-of-type` only where siblings repeat
// (`[data-testid='todo-list'] li:nth-of-type(3) input[type='checkbox']`).
// No text-based CSS.
//
// A candidate is unique when it matches exactly that element in the
// document and every open shadow root together, as Playwright's CSS
// engine, which pierces open shadow roots, would count it: an id repeated
// in the shadow root of every row is not unique.  Where CSS cannot single
// the element out, a Playwright locator is tried (see locgen.js).

import * as N from './natives.js';
import * as X from './extra-natives.js';
import { TEST_ID_ATTRIBUTES, isStableId } from './facts.js';
import { LocatorGen } from './locgen.js';

export { isStableId };

const FIELD_TAGS = new Set(['input', 'select', 'textarea', 'button', 'output', 'fieldset', 'form',
  'iframe', 'object']);
const LANDMARK_TAGS = ['form', 'nav', 'header', 'footer', 'main', 'aside', 'dialog', 'table',
  'fieldset', 'menu'];
const MAX_VALUE = 120;
const MAX_ANCESTORS = 12;
const MAX_CONTAINERS = 3;

// A CSS string literal in single quotes.
export function cssString(v) {
  return "'" + v.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\a ') + "'";
}

function queryRoot(root, sel) {
  try {
    return N.nodeType(root) === N.DOCUMENT_NODE ? N.docQuerySelectorAll(root, sel)
      : N.fragQuerySelectorAll(root, sel);
  } catch (e) {
    return null;
  }
}

// The state of one search (one selectorFor call or one coverage run):
// the trees CSS is counted in, found once, and the locator search.
class Finder {
  constructor() {
    this.trees = null;
    this.locators = new LocatorGen();
  }

  // The document and every open shadow root in it, nested ones included.
  allTrees() {
    if (this.trees === null) {
      const trees = [document];
      for (let i = 0; i < trees.length; i++) {
        const all = queryRoot(trees[i], '*');
        for (let k = 0; k < all.length; k++) {
          const s = N.shadowRoot(all[k]);
          if (s) trees.push(s);
        }
      }
      this.trees = trees;
    }
    return this.trees;
  }

  // True when sel matches el and nothing else in any tree.  root (el's
  // own tree) is asked first: it answers most candidates at once.
  isUnique(root, sel, el) {
    const own = queryRoot(root, sel);
    if (own === null || own.length !== 1 || own[0] !== el) return false;
    const trees = this.allTrees();
    for (let i = 0; i < trees.length; i++) {
      if (trees[i] === root) continue;
      const list = queryRoot(trees[i], sel);
      if (list === null || list.length > 0) return false;
    }
    return true;
  }
}

// The stable classes of el (see isStableId), at most three.
function stableClasses(el) {
  const cls = N.getAttribute(el, 'class');
  if (!cls) return [];
  const out = [];
  for (const c of cls.trim().split(/\s+/)) {
    if (c && c.length <= 40 && /^[A-Za-z_][\w-]*$/.test(c) && isStableId(c)) out.push(c);
    if (out.length === 3) break;
  }
  return out;
}

// The parts that name el by its own attributes, most stable first.  With
// `loose`, also its type and bare tag (only used under a container).
function ownParts(el, loose) {
  const tag = N.localName(el);
  const parts = [];
  const id = N.getAttribute(el, 'id');
  if (id && isStableId(id)) parts.push('#' + X.cssEscape(id));
  for (const a of TEST_ID_ATTRIBUTES) {
    const v = N.getAttribute(el, a);
    if (v && v.length <= MAX_VALUE) parts.push('[' + a + '=' + cssString(v) + ']');
  }
  const label = N.getAttribute(el, 'aria-label');
  if (label && label.trim() && label.length <= MAX_VALUE) {
    parts.push('[aria-label=' + cssString(label) + ']');
    parts.push(X.cssEscape(tag) + '[aria-label=' + cssString(label) + ']');
  }
  const href = N.getAttribute(el, 'href');
  if (tag === 'a' && href !== null && href.length <= 2 * MAX_VALUE) parts.push('a[href=' + cssString(href) + ']');
  const name = N.getAttribute(el, 'name');
  if (name && FIELD_TAGS.has(tag) && name.length <= MAX_VALUE) {
    const byName = tag + '[name=' + cssString(name) + ']';
    parts.push(byName);
    const value = N.getAttribute(el, 'value');
    const type = (N.getAttribute(el, 'type') || '').toLowerCase();
    if (value !== null && (type === 'radio' || type === 'checkbox') && value.length <= MAX_VALUE) {
      parts.push(byName + '[value=' + cssString(value) + ']');
    }
  }
  for (const a of ['placeholder', 'title', 'alt']) {
    const v = N.getAttribute(el, a);
    if (v && v.trim() && v.length <= MAX_VALUE) parts.push(X.cssEscape(tag) + '[' + a + '=' + cssString(v) + ']');
  }
  for (const c of stableClasses(el)) parts.push(X.cssEscape(tag) + '.' + X.cssEscape(c));
  if (loose) {
    const type = N.getAttribute(el, 'type');
    if (type && /^[a-z-]+$/i.test(type)) parts.push(X.cssEscape(tag) + '[type=' + cssString(type) + ']');
    parts.push(X.cssEscape(tag));
  }
  return parts;
}

// The parts that name a container: its stable id, test ids, aria-label,
// or (second choice) its landmark tag.
function containerParts(el) {
  const tag = N.localName(el);
  const strong = [];
  const id = N.getAttribute(el, 'id');
  if (id && isStableId(id)) strong.push('#' + X.cssEscape(id));
  for (const a of TEST_ID_ATTRIBUTES) {
    const v = N.getAttribute(el, a);
    if (v && v.length <= MAX_VALUE) strong.push('[' + a + '=' + cssString(v) + ']');
  }
  const label = N.getAttribute(el, 'aria-label');
  if (label && label.trim() && label.length <= MAX_VALUE) {
    strong.push(X.cssEscape(tag) + '[aria-label=' + cssString(label) + ']');
  }
  const name = N.getAttribute(el, 'name');
  if (name && FIELD_TAGS.has(tag) && name.length <= MAX_VALUE) strong.push(tag + '[name=' + cssString(name) + ']');
  // A class only this element has in its tree names it as well as an id.
  const root = N.getRootNode(el);
  for (const c of stableClasses(el)) {
    const sel = X.cssEscape(tag) + '.' + X.cssEscape(c);
    const list = queryRoot(root, sel);
    if (list !== null && list.length === 1) strong.push(sel);
  }
  const weak = LANDMARK_TAGS.includes(tag) ? [tag] : [];
  return { strong, weak };
}

// { selector } for a unique verified CSS selector of el, else { locator }
// for a unique verified Playwright locator, else { at: {x, y} }, the
// centre of its box in viewport coordinates.  `in_shadow` is set when el
// lives in a shadow root.
export function selectorFor(el) {
  return describeTarget(new Finder(), el);
}

function describeTarget(finder, el) {
  const root = N.getRootNode(el);
  const shadow = N.nodeType(root) !== N.DOCUMENT_NODE;
  const out = {};
  const css = findSelector(finder, root, el);
  if (css !== null) {
    out.selector = css;
  } else {
    const loc = finder.locators.best(el);
    if (loc !== null) {
      out.locator = loc;
    } else {
      try {
        const r = N.getBoundingClientRect(el);
        out.at = { x: Math.round(r.left + r.width / 2), y: Math.round(r.top + r.height / 2) };
      } catch (e) {
        out.at = null;
      }
    }
  }
  if (shadow) out.in_shadow = true;
  return out;
}

function findSelector(finder, root, el) {
  const own = ownParts(el, false);
  for (const p of own) {
    if (finder.isUnique(root, p, el)) return p;
  }
  const loose = ownParts(el, true);
  const strong = [];
  const weak = [];
  let n = 0;
  for (let a = N.parentNode(el); a !== null && N.nodeType(a) === N.ELEMENT_NODE && n < MAX_ANCESTORS;
    a = N.parentNode(a), n++) {
    const t = N.localName(a);
    if (t === 'body' || t === 'html') break;
    const c = containerParts(a);
    for (const p of c.strong) strong.push({ el: a, part: p });
    for (const p of c.weak) weak.push({ el: a, part: p });
  }
  for (const list of [strong, weak]) {
    for (const c of list) {
      for (const d of loose) {
        // Unique under the container first (a small query), then in
        // every tree, which also proves the container part itself.
        let inner;
        try {
          inner = N.querySelectorAll(c.el, d);
        } catch (e) {
          continue;
        }
        if (inner.length !== 1 || inner[0] !== el) continue;
        const sel = c.part + ' ' + d;
        if (finder.isUnique(root, sel, el)) return sel;
      }
    }
  }
  return positional(finder, root, el, loose, strong.concat(weak));
}

// The position of el among its parent's children of the same tag, as
// ':nth-of-type(k)', or '' when it has no such sibling.
function nthOfType(el) {
  const p = N.parentNode(el);
  if (p === null) return '';
  const tag = N.localName(el);
  let k = 0;
  let index = 0;
  let c = N.nodeType(p) === N.ELEMENT_NODE ? X.firstElementChild(p) : X.fragFirstElementChild(p);
  for (; c !== null; c = X.nextElementSibling(c)) {
    if (N.localName(c) !== tag) continue;
    k++;
    if (c === el) index = k;
  }
  return k > 1 ? ':nth-of-type(' + index + ')' : '';
}

// A path from a container (or from el's tree when none serves) down to
// el, positional where siblings repeat: first the short form that names
// only the repeated steps, then the full child chain.  Containers are
// tried nearest first; a row with a test id of its own is a container
// that repeats, so farther ones are tried too.
function positional(finder, root, el, loose, containers) {
  const stops = [];
  for (const c of containers) {
    if (!stops.includes(c.el)) stops.push(c.el);
    if (stops.length === MAX_CONTAINERS) break;
  }
  stops.push(null);
  const nth = nthOfType(el);
  for (const stop of stops) {
    const steps = [];
    let n = 0;
    for (let a = N.parentNode(el); a !== null && a !== stop && N.nodeType(a) === N.ELEMENT_NODE &&
      n < MAX_ANCESTORS; a = N.parentNode(a), n++) {
      const t = N.localName(a);
      if (t === 'body' || t === 'html') break;
      steps.unshift({ tag: X.cssEscape(t), nth: nthOfType(a) });
    }
    const prefixes = stop !== null ? containers.filter((c) => c.el === stop).map((c) => c.part + ' ') : [''];
    const short = steps.filter((s) => s.nth !== '').map((s) => s.tag + s.nth + ' ').join('');
    const full = steps.map((s) => s.tag + s.nth + ' > ').join('');
    for (const prefix of prefixes) {
      for (const d of loose) {
        const end = d + nth;
        if (finder.isUnique(root, prefix + short + end, el)) return prefix + short + end;
        const chain = prefix + (prefix !== '' ? '> ' : '') + full + end;
        if (finder.isUnique(root, chain, el)) return chain;
      }
    }
  }
  return null;
}

// { refs, with_selector, with_css, with_locator, ratio, without } over
// all live refs of the document: with_selector counts the refs with a
// verified CSS selector (with_css) or, failing that, a verified role
// locator (with_locator); `without` lists up to 20 refs that have neither.
export function selectorCoverage(env) {
  const finder = new Finder();
  let total = 0;
  let css = 0;
  let loc = 0;
  const without = [];
  for (const ref of env.refs.byRef.keys()) {
    const hit = env.refs.lookup(ref);
    if (!hit || hit.stale) continue;
    total++;
    const d = describeTarget(finder, hit.element);
    if (d.selector !== undefined) css++;
    else if (d.locator !== undefined) loc++;
    else if (without.length < 20) without.push(ref);
  }
  const good = css + loc;
  return {
    refs: total,
    with_selector: good,
    with_css: css,
    with_locator: loc,
    ratio: total ? Math.round((good / total) * 1000) / 1000 : 1,
    without,
  };
}
