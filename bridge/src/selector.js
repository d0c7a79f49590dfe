// selector.js -- a unique CSS selector for an element, verified, or the
// centre of its box when there is none.
//
// Candidates, first unique one wins: `#id` (when the id looks stable), a
// test-id attribute, aria-label, `a[href]` for links, `[name]` for form
// fields (with the value for radios and checkboxes), placeholder, title and
// alt; then a short container-scoped pair: an ancestor with one of those
// (or a landmark tag) and the element by one of those, its type or its tag.
// Every candidate is checked with querySelectorAll in the element's own
// root (document or shadow root) to match exactly that element.  No
// positional (:nth-child) chains, no text-based CSS.

import * as N from './natives.js';
import * as X from './extra-natives.js';
import { TEST_ID_ATTRIBUTES } from './facts.js';

const FIELD_TAGS = new Set(['input', 'select', 'textarea', 'button', 'output', 'fieldset', 'form',
  'iframe', 'object']);
const LANDMARK_TAGS = ['form', 'nav', 'header', 'footer', 'main', 'aside', 'dialog', 'table',
  'fieldset', 'menu'];
const MAX_VALUE = 120;
const MAX_ANCESTORS = 12;

// True for ids that look written by a person rather than generated: no
// React useId (":r1:", "«r1»"), no runs of 4+ digits, no hex hashes or
// UUIDs, no framework counters ("ember123", "mui-7", "radix-:r2:").
export function isStableId(id) {
  if (!id || id.length > 64 || /\s/.test(id)) return false;
  if (/[:«»]/.test(id)) return false;
  if (/\d{4,}/.test(id)) return false;
  if (/[0-9a-f]{8}-[0-9a-f]{4}-/i.test(id)) return false;
  if (/(?:^|[-_])(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{6,}(?:$|[-_])/i.test(id)) return false;
  if (/^(?:ember|mui|radix|headlessui|downshift|react-aria|react-select|rc|yui|ext-gen|gwt|j_id|jsx|css|sc|uid|id)[-_]?\d/i
    .test(id)) return false;
  const digits = id.replace(/\D/g, '').length;
  return !(id.length > 6 && digits * 3 > id.length);
}

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

function isUniqueIn(root, sel, el) {
  const list = queryRoot(root, sel);
  return list !== null && list.length === 1 && list[0] === el;
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
  const weak = LANDMARK_TAGS.includes(tag) ? [tag] : [];
  return { strong, weak };
}

// { selector } for a unique verified selector of el, else { at: {x, y} },
// the centre of its box in viewport coordinates.  `in_shadow` is set when
// the selector holds in a shadow root rather than the document.
export function selectorFor(el) {
  const root = N.getRootNode(el);
  const shadow = N.nodeType(root) !== N.DOCUMENT_NODE;
  const found = findSelector(root, el);
  if (found !== null) return shadow ? { selector: found, in_shadow: true } : { selector: found };
  let at = null;
  try {
    const r = N.getBoundingClientRect(el);
    at = { x: Math.round(r.left + r.width / 2), y: Math.round(r.top + r.height / 2) };
  } catch (e) {
    at = null;
  }
  return shadow ? { at, in_shadow: true } : { at };
}

function findSelector(root, el) {
  const own = ownParts(el, false);
  for (const p of own) {
    if (isUniqueIn(root, p, el)) return p;
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
        // Unique under the container first (a small query), then in the
        // whole root, which also proves the container part itself.
        let inner;
        try {
          inner = N.querySelectorAll(c.el, d);
        } catch (e) {
          continue;
        }
        if (inner.length !== 1 || inner[0] !== el) continue;
        const sel = c.part + ' ' + d;
        if (isUniqueIn(root, sel, el)) return sel;
      }
    }
  }
  return null;
}

// { refs, with_selector, ratio, without } over all live refs of the
// document; `without` lists up to 20 refs that have no selector.
export function selectorCoverage(env) {
  let total = 0;
  let good = 0;
  const without = [];
  for (const ref of env.refs.byRef.keys()) {
    const hit = env.refs.lookup(ref);
    if (!hit || hit.stale) continue;
    total++;
    if (findSelector(N.getRootNode(hit.element), hit.element) !== null) good++;
    else if (without.length < 20) without.push(ref);
  }
  return { refs: total, with_selector: good, ratio: total ? Math.round((good / total) * 1000) / 1000 : 1, without };
}
