// facts.js -- what the structure queries (explore.js, selector.js,
// locator.js, readhtml.js) share: the composed tree (open shadow roots
// entered, hosts as parents), the attributes worth showing, bounded text,
// Playwright's element text, and refs given by the snapshot's rules.
//
// Everything this layer needs from the snapshot's modules is imported here
// and nowhere else in it, so a change there has one place to follow.

import * as N from './natives.js';
import * as X from './extra-natives.js';
import { TEST_ID_ATTRIBUTES, attr, flatParent, isElement, isHTML, normalize } from './dom.js';
import { NAME_PROHIBITED, getRole, headingLevel } from './roles.js';
import { accessibleName } from './name.js';
import { isRefWorthy } from './refworthy.js';
import {
  Ctx, F_HIDDEN, F_NONE, F_POINTER, isActionable, isClosedDetailsContent, isDisplayNone, isHiddenForAria,
  isHiddenFromAllUsers, isNeverRendered,
} from './visibility.js';
import { badArgument } from './errors.js';

export {
  Ctx, NAME_PROHIBITED, accessibleName, getRole, headingLevel, isClosedDetailsContent, isDisplayNone,
  isHiddenForAria, isHiddenFromAllUsers, normalize,
};

// The attributes shown for an element, in this order: what a locator
// anchors on, then the ARIA state and relations (a sorted column, the
// selected tab, an expanded toggle and what it controls).
export const SHOWN_ATTRIBUTES = ['id', 'class', 'role', 'aria-label', 'name', 'type', 'href',
  'data-testid', 'data-test', 'data-test-id', 'data-cy', 'data-qa',
  'aria-sort', 'aria-selected', 'aria-expanded', 'aria-pressed', 'aria-current', 'aria-checked', 'aria-controls'];

// How many of an element's own attributes are listed (see ownAttributes).
const OWN_ATTRIBUTES_MAX = 20;

export { TEST_ID_ATTRIBUTES };

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

// s cut to max characters, with a visible marker saying how much was cut.
export function truncate(s, max) {
  if (s.length <= max) return s;
  return s.slice(0, max) + '\u2026[+' + (s.length - max) + ' chars]';
}

// The shown attributes of el that are present, values truncated; all of
// a custom element's own (its attributes are its API: run FB's
// vdx-rating showed none of product-id, value and votes).
export function shownAttributes(el, max) {
  if (N.localName(el).includes('-')) return ownAttributes(el, max).attributes;
  const out = {};
  for (let i = 0; i < SHOWN_ATTRIBUTES.length; i++) {
    const v = attr(el, SHOWN_ATTRIBUTES[i]);
    if (v !== null) out[SHOWN_ATTRIBUTES[i]] = truncate(normalize(v), max);
  }
  return out;
}

// All of el's own attributes, in document order, at most
// OWN_ATTRIBUTES_MAX, values truncated; `more` counts those left out.
export function ownAttributes(el, max) {
  const out = {};
  const names = N.getAttributeNames(el);
  const n = Math.min(names.length, OWN_ATTRIBUTES_MAX);
  for (let i = 0; i < n; i++) out[names[i]] = truncate(normalize(attr(el, names[i]) || ''), max);
  return names.length > n ? { attributes: out, more: names.length - n } : { attributes: out };
}

// { parent, crossed }: el's parent element, or the host of the shadow root
// el is a child of (crossed = true); parent is null at the top.
export function parentOrHost(el) {
  const p = N.parentNode(el);
  if (p === null) return { parent: null, crossed: false };
  const type = N.nodeType(p);
  if (type === N.ELEMENT_NODE) return { parent: p, crossed: false };
  if (type === N.DOCUMENT_FRAGMENT_NODE) {
    const host = N.shadowHost(p);
    return { parent: host || null, crossed: !!host };
  }
  return { parent: null, crossed: false };
}

// True for the body and html elements of the document (not look-alikes in
// a shadow tree).
export function isTopElement(el) {
  const t = N.localName(el);
  return (t === 'body' || t === 'html') && N.getRootNode(el) === document;
}

// The ancestors of el below body, nearest first: [{ el, crossed }].
export function ancestorsOf(el) {
  const out = [];
  let cur = el;
  for (;;) {
    const { parent, crossed } = parentOrHost(cur);
    if (parent === null || isTopElement(parent)) break;
    out.push({ el: parent, crossed });
    cur = parent;
  }
  return out;
}

// True for elements that never show content (script, style, template, ...):
// they are left out of child lists, counts and text.
export function isSkipped(el) {
  return isNeverRendered(el);
}

// The element children of el in the composed tree: those of its open
// shadow root first, then its own; never-rendered elements left out.
// `shadowCount` of the result says how many came from the shadow root.
export function childElements(el) {
  const out = [];
  const root = N.shadowRoot(el);
  if (root) {
    for (let c = X.fragFirstElementChild(root); c !== null; c = X.nextElementSibling(c)) {
      if (!isSkipped(c)) out.push(c);
    }
  }
  const shadowCount = out.length;
  for (let c = X.firstElementChild(el); c !== null; c = X.nextElementSibling(c)) {
    if (!isSkipped(c)) out.push(c);
  }
  out.shadowCount = shadowCount;
  return out;
}

// The element children of a parent node (element, shadow root or
// document), never-rendered ones left out.
export function childrenOfNode(node) {
  if (N.nodeType(node) === N.ELEMENT_NODE) return childElements(node);
  const out = [];
  const first = N.nodeType(node) === N.DOCUMENT_NODE ? N.documentElement(node) : X.fragFirstElementChild(node);
  for (let c = first; c !== null; c = X.nextElementSibling(c)) {
    if (!isSkipped(c)) out.push(c);
  }
  return out;
}

// ------------------------------------------------------------------ refs

// The ref of el by the snapshot's rules: the one it has, else a new one
// when it is visible, actionable and something an agent can act on; null
// otherwise.  With `quick`, an element that qualifies only by its pointer
// cursor gets a ref only if it has one already (the snapshot gives those
// out), which saves a style read per element in walks over large subtrees.
export function refFor(ctx, refs, el, quick) {
  const known = refs.peek(el);
  if (known !== null) return known;
  const t = N.localName(el);
  const role = getRole(el);
  let pointer = false;
  if (!quick) {
    const parent = flatParent(el);
    const parentPointer = isElement(parent) && (ctx.flags(parent) & F_POINTER) !== 0;
    pointer = (ctx.flags(el) & F_POINTER) !== 0 && !parentPointer;
    if (pointer && t === 'label' && isHTML(el)) {
      const control = N.labelControl(el);
      if (control !== null && !isHiddenForAria(ctx, control)) pointer = false;
    }
  }
  if (!isRefWorthy(el, t, role, pointer)) return null;
  if (isHiddenForAria(ctx, el) || !isActionable(ctx, el)) return null;
  return refs.assign(el, role, accessibleName(ctx, el, role, false), t);
}

// { display, none, hidden } of el from the call's style cache: its
// computed display, whether that is none, whether visibility hides its own
// content.
export function styleOf(ctx, el) {
  const f = ctx.flags(el);
  return { display: ctx.display(el), none: (f & F_NONE) !== 0, hidden: (f & F_HIDDEN) !== 0 };
}

// ------------------------------------------------------------------ text

// Playwright's element text (injected/selectorUtils.ts, elementText): the
// text of all descendant text nodes, open shadow roots after the light
// children, script/style/noscript and the head skipped (an ElementText).
// Cached per call.
export class TextCache {
  constructor() {
    this.map = new Map();
    // The elements of the head, read once (the descendants of an element
    // read through get are never in it).
    this.head = null;
  }

  // The text of node (of any node, a shadow root included).
  get(node) {
    let v = this.map.get(node);
    if (v === undefined) {
      v = this.skips(node) ? EMPTY_TEXT : computeText(this, node);
      this.map.set(node, v);
    }
    return v;
  }

  // The text of element node, a child of a node whose text is read: only
  // its own tag can make it skipped.
  child(node) {
    let v = this.map.get(node);
    if (v === undefined) {
      v = skipsTag(node) ? EMPTY_TEXT : computeText(this, node);
      this.map.set(node, v);
    }
    return v;
  }

  // skipsText(el), with the head's elements read once.
  skips(el) {
    if (N.nodeType(el) !== N.ELEMENT_NODE) return false;
    if (skipsTag(el)) return true;
    if (this.head === null) {
      const head = X.docHead(document);
      this.head = new Set(head === null ? [] : N.querySelectorAll(head, '*'));
    }
    return this.head.has(el);
  }
}

// An element's text: `full` as read, `normalized` (white space collapsed
// and trimmed) and `lower` (that lower-cased) made on first use, as most
// texts read are only parts of an ancestor's.
export class ElementText {
  constructor(full) {
    this.full = full;
    this.norm = undefined;
    this.low = undefined;
  }

  get normalized() {
    if (this.norm === undefined) this.norm = this.full ? normalize(this.full) : '';
    return this.norm;
  }

  get lower() {
    if (this.low === undefined) this.low = this.normalized.toLowerCase();
    return this.low;
  }
}

const EMPTY_TEXT = new ElementText('');
EMPTY_TEXT.norm = '';
EMPTY_TEXT.low = '';
Object.freeze(EMPTY_TEXT);

// Whether element el's text is skipped for its tag: script, noscript,
// style, or the head itself.
function skipsTag(el) {
  const t = N.localName(el);
  return t === 'script' || t === 'noscript' || t === 'style' || (t === 'head' && el === X.docHead(document));
}

// Whether el's text is skipped: an element that skipsTag, or one inside the head.
export function skipsText(el) {
  if (N.nodeType(el) !== N.ELEMENT_NODE) return false;
  if (skipsTag(el)) return true;
  const head = X.docHead(document);
  return head !== null && N.contains(head, el);
}

function computeText(cache, node) {
  const isEl = N.nodeType(node) === N.ELEMENT_NODE;
  if (isEl && N.localName(node) === 'input' && isHTML(node)) {
    const type = N.inputType(node);
    if (type === 'submit' || type === 'button') {
      const v = X.inputValue(node);
      return new ElementText(v);
    }
  }
  let full = '';
  for (let c = N.firstChild(node); c !== null; c = N.nextSibling(c)) {
    const type = N.nodeType(c);
    if (type === N.TEXT_NODE) full += N.nodeData(c);
    else if (type === N.ELEMENT_NODE) full += cache.child(c).full;
  }
  const shadow = isEl ? N.shadowRoot(node) : null;
  if (shadow) full += cache.get(shadow).full;
  return new ElementText(full);
}

// The element's own text: its text-node children, normalized.
export function directText(el) {
  let s = '';
  for (let c = N.firstChild(el); c !== null; c = N.nextSibling(c)) {
    if (N.nodeType(c) === N.TEXT_NODE) s += N.nodeData(c) + ' ';
  }
  return normalize(s);
}

// ------------------------------------------------------------- arguments

// opts[key] as an integer >= min, or dflt when absent.
export function intOption(opts, key, dflt, min, what) {
  const v = opts[key];
  if (v == null) return dflt;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) {
    throw badArgument(what + ': ' + key + ' must be an integer >= ' + min);
  }
  return v;
}
