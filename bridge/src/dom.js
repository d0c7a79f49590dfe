// dom.js -- tree helpers on top of the captured natives: the flat tree
// (shadow roots and slots), id references resolved in the right tree, and
// attribute shortcuts.

import * as N from './natives.js';

// The local name of an element, read directly.  A <form> exposes its
// controls as properties named after their name and id, over the built-in
// ones and in every world (isolated ones too), so a form's own properties
// are read through the captured natives: callers use direct access on an
// element only once this returned something other than 'form'.
// Test-id style attributes, the most common first (the snapshot gives an
// element with one a ref; the structure queries and selectors read them).
export const TEST_ID_ATTRIBUTES = ['data-testid', 'data-test-id', 'data-test', 'data-cy', 'data-qa'];

export function elementTag(el) {
  const t = el.localName;
  return typeof t === 'string' ? t : N.localName(el);
}

// The local name of an element, or '' for anything else.
export function tagOf(node) {
  return N.nodeType(node) === N.ELEMENT_NODE ? N.localName(node) : '';
}

export function isElement(node) {
  return node != null && typeof node === 'object' && N.nodeType(node) === N.ELEMENT_NODE;
}

export function isHTML(el) {
  return N.namespaceURI(el) === N.HTML_NS;
}

export function attr(el, name) {
  return N.getAttribute(el, name);
}

export function hasAttr(el, name) {
  return N.hasAttribute(el, name);
}

// The value of an aria-* attribute, lower-cased and trimmed ('' when absent).
export function ariaToken(el, name) {
  const v = N.getAttribute(el, name);
  return v == null ? '' : v.trim().toLowerCase();
}

// The parent of a node in the flat tree: a slotted node's slot, a shadow
// root's host, otherwise the DOM parent.  Returns null at the top.
export function flatParent(node) {
  const type = N.nodeType(node);
  const slot = type === N.ELEMENT_NODE ? N.assignedSlot(node)
    : type === N.TEXT_NODE ? N.textAssignedSlot(node) : null;
  if (slot) return slot;
  const parent = N.parentNode(node);
  if (parent && N.nodeType(parent) === N.DOCUMENT_FRAGMENT_NODE) {
    return N.shadowHost(parent);
  }
  return parent;
}

// Resolves an id in the tree el lives in (its document or shadow root).
export function byId(el, id) {
  if (!id) return null;
  const root = N.getRootNode(el);
  const type = N.nodeType(root);
  if (type === N.DOCUMENT_NODE) return N.docGetElementById(root, id);
  if (type === N.DOCUMENT_FRAGMENT_NODE) return N.fragGetElementById(root, id);
  return null;
}

// The elements named by an id-list attribute, in order, skipping ids that
// resolve to nothing.
export function idRefs(el, name) {
  const value = N.getAttribute(el, name);
  if (!value) return [];
  const out = [];
  for (const id of value.split(/\s+/)) {
    const target = byId(el, id);
    if (target) out.push(target);
  }
  return out;
}

// The deepest focused element, looking through open shadow roots.
export function deepActiveElement(doc) {
  let active = N.docActiveElement(doc);
  while (active) {
    const root = N.shadowRoot(active);
    const inner = root ? N.shadowActiveElement(root) : null;
    if (!inner) break;
    active = inner;
  }
  return active;
}

// True for the characters \s matches in a regular expression.
export function isSpace(c) {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f ||
    c === 0x205f || c === 0x3000 || c === 0xfeff;
}

const SPACES = /\s+/g;
// What collapse() changes: white space but a plain space (or a control
// character, which the walk never shows as is), or two spaces in a row.
// A fresh document's world runs this code cold, in V8's interpreter, where
// a regular expression's native scan costs a fraction of a loop over the
// characters in JavaScript.
const NOT_COLLAPSED = /[\0-\x1f\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]| {2}/;
// What normalize() changes: that, or white space at either end.
const NOT_NORMAL = /^\s|\s$|[\0-\x1f\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]| {2}/;

// Collapses runs of white space to one space.
export function collapse(s) {
  return NOT_COLLAPSED.test(s) ? s.replace(SPACES, ' ') : s;
}

// Collapses white space and trims.
export function normalize(s) {
  return s.length === 0 || !NOT_NORMAL.test(s) ? s : s.replace(SPACES, ' ').trim();
}
