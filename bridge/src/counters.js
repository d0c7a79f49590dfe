// counters.js -- the values of CSS counters at a ::before or ::after
// pseudo-element, for the counter() and counters() a pseudo-element's
// content (or its alternative text) renders (CSS Lists 3, "Automatic
// Numbering"; Chromium's tree names a button whose ::before says
// `content: "" / counter(n)` with the number).
//
// Counters depend on every element before the one asked about, so the
// tree (document or shadow root) is walked once per Ctx, the first time a
// pseudo-element that uses a counter is read, and the values at each such
// pseudo-element are kept.  The walk follows the spec's order on each
// element: counter-reset, then counter-increment, then counter-set; a
// reset scopes its counter to the element, its following siblings and
// their descendants.  Lists number their items with the implicit
// list-item counter, which the computed style does not show: an ol, ul or
// menu resets it and an element displayed as a list item increments it
// (by its value attribute's offset when it has one).

import * as N from './natives.js';
import { tagOf } from './dom.js';

// Parses a computed counter-reset/-increment/-set value ("none" or
// "name int name int ...") into [[name, int], ...].
function parseCounterList(value) {
  if (!value || value === 'none') return [];
  const out = [];
  const re = /([-\w]+)(?:\s+(-?\d+))?/g;
  let m;
  while ((m = re.exec(value)) !== null) out.push([m[1], m[2] === undefined ? null : parseInt(m[2], 10)]);
  return out;
}

// The counter state of one walk: name -> stack of { value, scope } where
// scope is the node whose children (from the resetting one on) the
// instance covers.
class State {
  constructor() {
    this.stacks = new Map();
  }

  top(name) {
    const s = this.stacks.get(name);
    return s !== undefined && s.length > 0 ? s[s.length - 1] : null;
  }

  reset(name, value, scope) {
    let s = this.stacks.get(name);
    if (s === undefined) this.stacks.set(name, (s = []));
    const top = s.length > 0 ? s[s.length - 1] : null;
    // A sibling's reset replaces its predecessor's instead of nesting.
    if (top !== null && top.scope === scope) top.value = value;
    else s.push({ value, scope });
  }

  increment(name, by, scope) {
    const top = this.top(name);
    if (top === null) this.reset(name, by, scope);
    else top.value += by;
  }

  set(name, value, scope) {
    const top = this.top(name);
    if (top === null) this.reset(name, value, scope);
    else top.value = value;
  }

  // Ends the instances scoped to node's children.
  leave(node) {
    for (const s of this.stacks.values()) {
      while (s.length > 0 && s[s.length - 1].scope === node) s.pop();
    }
  }

  // A copy of every counter's values, outermost first.
  copy() {
    const out = new Map();
    for (const [name, s] of this.stacks) {
      if (s.length > 0) out.set(name, s.map((i) => i.value));
    }
    return out;
  }
}

// Applies the counter properties of one computed style, on a box whose
// resets are scoped to scope's children.  listItem: the box is an
// element displayed as a list item (valueAttr its value attribute, or
// null); listOwner: it is an ol/ul/menu (start its first number).
function apply(state, cs, scope, listItem, valueAttr, listOwner, start) {
  const resets = parseCounterList(cs.counterReset);
  for (const [name, v] of resets) state.reset(name, v === null ? 0 : v, scope);
  if (listOwner && !resets.some((r) => r[0] === 'list-item')) state.reset('list-item', start - 1, scope);
  const incs = parseCounterList(cs.counterIncrement);
  for (const [name, v] of incs) state.increment(name, v === null ? 1 : v, scope);
  if (listItem && !incs.some((r) => r[0] === 'list-item')) {
    if (valueAttr !== null) state.set('list-item', valueAttr, scope);
    else state.increment('list-item', 1, scope);
  }
  for (const [name, v] of parseCounterList(cs.counterSet)) state.set(name, v === null ? 0 : v, scope);
}

function styleOf(ctx, el, which) {
  try {
    return N.computedStyle(el, which);
  } catch (e) {
    ctx.fail(el);
    return null;
  }
}

const USES_COUNTER = /\bcounters?\(/i;

// Walks el's subtree: applies each box's counters and keeps, in `found`,
// the state at each pseudo-element whose content uses a counter.
function walk(ctx, state, el, found) {
  const cs = styleOf(ctx, el, undefined);
  if (cs === null || cs.display === 'none') return;
  const tag = tagOf(el);
  const list = tag === 'ol' || tag === 'ul' || tag === 'menu';
  const valueAttr = tag === 'li' ? parseInt(N.getAttribute(el, 'value') || '', 10) : NaN;
  const startAttr = tag === 'ol' ? parseInt(N.getAttribute(el, 'start') || '', 10) : NaN;
  apply(state, cs, N.parentNode(el), cs.display.includes('list-item'), Number.isNaN(valueAttr) ? null : valueAttr,
    list, Number.isNaN(startAttr) ? 1 : startAttr);
  pseudo(ctx, state, el, '::before', found);
  for (let c = N.firstChild(el); c !== null; c = N.nextSibling(c)) {
    if (N.nodeType(c) === N.ELEMENT_NODE) walk(ctx, state, c, found);
  }
  pseudo(ctx, state, el, '::after', found);
  state.leave(el);
}

function pseudo(ctx, state, el, which, found) {
  const cs = styleOf(ctx, el, which);
  if (cs === null) return;
  const content = cs.content;
  if (!content || content === 'none' || content === 'normal') return;
  apply(state, cs, el, false, null, false, 1);
  if (USES_COUNTER.test(content)) {
    let entry = found.get(el);
    if (entry === undefined) found.set(el, (entry = {}));
    entry[which] = state.copy();
  }
}

// The counters at el's pseudo-element which ('::before' or '::after'): a
// Map name -> values, outermost first.
export function countersAt(ctx, el, which) {
  const root = N.getRootNode(el);
  if (ctx.counters === undefined) ctx.counters = new Map();
  let found = ctx.counters.get(root);
  if (found === undefined) {
    found = new Map();
    const state = new State();
    const top = N.nodeType(root) === N.DOCUMENT_NODE ? N.documentElement(root) : null;
    if (top !== null) {
      walk(ctx, state, top, found);
    } else {
      for (let c = N.firstChild(root); c !== null; c = N.nextSibling(c)) {
        if (N.nodeType(c) === N.ELEMENT_NODE) walk(ctx, state, c, found);
      }
    }
    ctx.counters.set(root, found);
  }
  const entry = found.get(el);
  return (entry && entry[which]) || new Map();
}

const ROMAN = [[1000, 'm'], [900, 'cm'], [500, 'd'], [400, 'cd'], [100, 'c'], [90, 'xc'], [50, 'l'],
  [40, 'xl'], [10, 'x'], [9, 'ix'], [5, 'v'], [4, 'iv'], [1, 'i']];

function roman(n) {
  if (n < 1 || n > 3999) return String(n);
  let out = '';
  for (const [v, s] of ROMAN) {
    while (n >= v) { out += s; n -= v; }
  }
  return out;
}

function alpha(n) {
  if (n < 1) return String(n);
  let out = '';
  while (n > 0) {
    n--;
    out = String.fromCharCode(97 + (n % 26)) + out;
    n = Math.floor(n / 26);
  }
  return out;
}

// A counter value in one of the predefined counter styles (decimal for
// any other).
export function formatCounter(n, style) {
  switch ((style || 'decimal').toLowerCase()) {
    case 'none': return '';
    case 'disc': return '\u2022';
    case 'circle': return '\u25e6';
    case 'square': return '\u25aa';
    case 'decimal-leading-zero': return n >= 0 && n < 10 ? '0' + n : String(n);
    case 'lower-roman': return roman(n);
    case 'upper-roman': return roman(n).toUpperCase();
    case 'lower-alpha': case 'lower-latin': return alpha(n);
    case 'upper-alpha': case 'upper-latin': return alpha(n).toUpperCase();
    default: return String(n);
  }
}
