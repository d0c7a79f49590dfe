// rolepath.js -- the containers that can scope an element's locator when
// its own role and name, label or text match elsewhere too (locgen.js
// writes the locators and verifies them):
//
//   getByTestId('product-card')                          an ancestor with a stable test id
//   getByTestId('product-card').filter({ hasText: 'Modern Lamp 1' })    ... that repeats
//   getByRole('listitem').filter({ hasText: 'Buy milk' })               a row-like ancestor
//   getByRole('article').filter({ has: page.getByRole('heading', { name: 'Lamp', exact: true }) })
//                                                        ... whose heading another one's holds
//   getByRole('dialog', { name: 'Edit' })                a named landmark, dialog or group
//
// Ancestors are taken nearest first, in the composed tree (open shadow
// roots entered, hosts as parents).  A filter text is one a reader sees:
// the container's heading, then its first visible text, then its other
// short texts; never hidden text, never the target's own text (which
// every sibling repeats, and which an action may change), and never a
// live region's (a status, an alert: what the page says of its state now,
// "Count: 3", "Subscribed: Ada k3x9"; run EU's panel was filtered by it).

import * as N from './natives.js';
import {
  accessibleName, getRole, isHiddenFromAllUsers, isStableId, isTopElement, normalize, parentOrHost, skipsText,
} from './facts.js';
import { jsString, parseLocator } from './locparse.js';
import { LIVE_ROLES } from './refworthy.js';

const ROW_ROLES = new Set(['listitem', 'row', 'treeitem', 'article']);
// Containers named by their role and name; the second set also serves
// unnamed, as there is usually one of each.
const NAMED_ROLES = new Set(['dialog', 'alertdialog', 'region', 'tabpanel', 'form', 'group', 'navigation',
  'complementary', 'search', 'main', 'banner', 'contentinfo', 'radiogroup', 'toolbar', 'menu', 'menubar',
  'tablist', 'listbox', 'grid', 'treegrid', 'table', 'tree', 'list']);
const ALONE_ROLES = new Set(['dialog', 'alertdialog', 'main', 'banner', 'contentinfo']);
const MAX_ANCESTORS = 15;
const MAX_TEXT = 80;
const MAX_TEXTS = 5;
const MAX_NODES = 400;
// A text of digits and the marks around them only: "#1001", "$49.00",
// "2024-05-01", "3 / 5".
const NUMBERISH = /^[#$€£¥%+\-\s]*[\d][\d.,:\/\-\s%€$£]*$/;
export const MAX_NAME = 200;

// getByRole(role [, { name [, exact] }]) as codegen writes it: the name
// with its white space normalized (a no-break space at its edges goes),
// as Playwright's role engine reads it.
export function roleExpr(role, name, exact) {
  if (!name) return 'getByRole(' + jsString(role) + ')';
  return 'getByRole(' + jsString(role) + ', { name: ' + jsString(normalize(name)) + (exact ? ', exact: true' : '') + ' })';
}

// A name that starts with its number ("6. Installation internals",
// "3) Pay"): getByRole's substring match would find "16. Installation
// internals" too once the page has that many (runs BL and BR asked for
// exact there).
const NUMBERED = /^\d+[.)]\s/;

// The role locators of role and name to try, in order: the plain one,
// then the exact one; a numbered name (NUMBERED) exact only.
export function roleExprs(role, name) {
  if (NUMBERED.test(normalize(name))) return [roleExpr(role, name, true)];
  return [roleExpr(role, name, false), roleExpr(role, name, true)];
}

function filtered(expr, text) {
  return expr + '.filter({ hasText: ' + jsString(text) + ' })';
}

// The containers of el, nearest first: [{ el, exprs }], where exprs()
// yields the container's locators, the plain one before the filtered
// ones (their texts are only read when asked for).  ev is the locator
// engine (locator.js Evaluator) whose caches the search shares.
export function containersOf(ev, el) {
  const out = [];
  let n = 0;
  for (let a = parentOrHost(el).parent; a !== null && !isTopElement(a) && n < MAX_ANCESTORS;
    a = parentOrHost(a).parent, n++) {
    const c = container(ev, a, el);
    if (c !== null) out.push(c);
  }
  return out;
}

// The containers a person names a part of the page by: landmarks,
// regions, dialogs, forms and groups.
const SCOPE_ROLES = new Set(['navigation', 'region', 'form', 'complementary', 'search', 'dialog', 'alertdialog',
  'tabpanel', 'group', 'main', 'banner', 'contentinfo', 'toolbar']);

// Whether el lies in a container of SCOPE_ROLES that has a name (within
// MAX_ANCESTORS): an element known by its bare role (`getByRole('list')`)
// is unique today only while the page holds no other, where through that
// container it reads as the part of the page it is (stop 66's run EQ).
export function inNamedScope(ev, el) {
  let n = 0;
  for (let a = parentOrHost(el).parent; a !== null && !isTopElement(a) && n < MAX_ANCESTORS;
    a = parentOrHost(a).parent, n++) {
    const role = getRole(a);
    if (SCOPE_ROLES.has(role) && accessibleName(ev.ctx, a, role, false)) return true;
  }
  return false;
}

// Roles of the items a list or a table repeats; and the test ids that name
// such an item's kind rather than one item ("order-row", "product-card").
const ITEM_ROLES = new Set(['listitem', 'row', 'treeitem']);
const ITEM_TEST_ID = /(^|[-_])(row|item|card|entry|tile|result)s?$/i;

// Whether a is an item of a list, a table or a grid of cards: a row-like
// role (listitem, row, treeitem, article) or a test id naming an item's
// kind ("order-row", "product-card").
export function isItemLike(a) {
  if (ROW_ROLES.has(getRole(a))) return true;
  const tid = N.getAttribute(a, 'data-testid');
  return !!tid && isStableId(tid) && ITEM_TEST_ID.test(tid);
}

// The nearest item-like element (isItemLike) from el up, el itself when
// self is true, that shows anchor (anchoredText, outside el, or anywhere
// in it when inside is true), within max ancestors; null when none does.
// An item known by its role alone (an article) gives way to an item with
// a test id (a "product-card") at most this many levels around it: the id
// is the team's contract, the role the markup's.
const TESTID_ITEM_REACH = 2;

export function anchoredItem(ev, el, anchor, self, max, inside) {
  let n = 0;
  for (let a = self ? el : parentOrHost(el).parent; a !== null && !isTopElement(a) && n < max;
    a = parentOrHost(a).parent, n++) {
    if (isItemLike(a) && anchoredText(ev, a, a === el || inside ? null : el, anchor) !== null) {
      if (N.getAttribute(a, 'data-testid')) return a;
      let b = parentOrHost(a).parent;
      for (let k = 0; k < TESTID_ITEM_REACH && b !== null && !isTopElement(b); k++, b = parentOrHost(b).parent) {
        if (isItemLike(b) && N.getAttribute(b, 'data-testid')) return b;
      }
      return a;
    }
  }
  return null;
}

// The item of a list or a table that el is or lies in (the nearest
// ancestor-or-self with an item role, or a test id naming an item kind),
// when it is the only item of its kind among its siblings, else null.
// Today el's own locator is unique; once the app shows a second such item
// (a second order, a second product), it is not: a locator that goes
// through the item filtered by its text still is.  A header row is no
// item, and a row beside a header row is still alone.
export function soleItem(el) {
  let n = 0;
  for (let a = el; a !== null && !isTopElement(a) && n < MAX_ANCESTORS; a = parentOrHost(a).parent, n++) {
    const role = getRole(a);
    const tid = N.getAttribute(a, 'data-testid');
    const kindId = tid && isStableId(tid) && ITEM_TEST_ID.test(tid) ? tid : null;
    if (!ITEM_ROLES.has(role) && kindId === null) continue;
    if (role === 'row' && isHeaderRow(a)) return null;
    const parent = N.parentNode(a);
    if (parent === null) return null;
    for (let s = N.firstChild(parent); s !== null; s = N.nextSibling(s)) {
      if (s === a || N.nodeType(s) !== N.ELEMENT_NODE) continue;
      if (kindId !== null ? N.getAttribute(s, 'data-testid') === kindId
        : getRole(s) === role && !(role === 'row' && isHeaderRow(s))) return null;
    }
    return a;
  }
  return null;
}

// Whether row holds column headers (a table's header row).
function isHeaderRow(row) {
  for (let c = N.firstChild(row); c !== null; c = N.nextSibling(c)) {
    if (N.nodeType(c) === N.ELEMENT_NODE && getRole(c) === 'columnheader') return true;
  }
  return false;
}

// { el, exprs } of a when it is a container (see containersOf), else
// null.  With target null, a is located itself: a card or a row that is
// an assertion target, picked out by its own texts.  anchor: the text
// of a's that is filtered by first (anchoredText), or null.
export function container(ev, a, target, anchor) {
  const tid = N.getAttribute(a, 'data-testid');
  const testId = tid && isStableId(tid) ? tid : null;
  const role = getRole(a);
  const row = ROW_ROLES.has(role);
  const named = NAMED_ROLES.has(role);
  if (testId === null && !row && !named) return null;
  return { el: a, exprs: () => containerExprs(ev, a, target, testId, role, row, named, anchor || null) };
}

// The first visible text under a (outside target) that holds anchor (the
// token of the test's run, in the data the test made: "Walnut Tray
// k3x9q2ab"), cut to the words around it when long; null when a shows
// none.  A container with such a text is the test's own: filtered by it,
// it matches in every run, and only the item this run made.
export function anchoredText(ev, a, target, anchor) {
  let found = null;
  const budget = { left: MAX_NODES * 4 };
  const walk = (node) => {
    for (const c of composedChildren(node)) {
      if (found !== null || budget.left-- <= 0) return;
      const type = N.nodeType(c);
      if (type === N.TEXT_NODE) {
        const t = normalize(N.nodeData(c));
        if (t.includes(anchor) && !isHiddenFromAllUsers(ev.ctx, node)) found = t;
      } else if (type === N.ELEMENT_NODE && c !== target && !skipsText(c) && !isLive(c)
        && !isHiddenFromAllUsers(ev.ctx, c)) {
        walk(c);
      }
    }
  };
  walk(a);
  if (found === null || found.length <= MAX_TEXT) return found;
  const at = found.indexOf(anchor);
  const from = Math.max(0, found.lastIndexOf(' ', Math.max(0, at - 30)));
  return found.slice(from, at + anchor.length).trim();
}

function* containerExprs(ev, a, target, testId, role, row, named, anchor) {
  let texts = null;
  let heading = '';
  const textsOf = () => {
    if (texts === null) {
      heading = firstHeading(ev, a, target);
      texts = filterTexts(ev, a, target, heading);
      const own = anchor === null ? null : anchoredText(ev, a, target, anchor);
      if (own !== null) texts = [own, ...texts.filter((t) => t !== own)];
    }
    return texts;
  };
  // Each filter text; after the heading's, the heading by its exact name,
  // for a heading whose text another item's holds ("Modern Lamp" and
  // "Modern Lamp 2": hasText matches a substring).
  function* filters(c) {
    for (const t of textsOf()) {
      const f = filtered(c, t);
      yield f;
      if (t === heading && ev.chain(parseLocator(f), document).length > 1) {
        yield c + '.filter({ has: page.' + roleExpr('heading', heading, true) + ' })';
      }
    }
  }
  if (testId !== null) {
    const c = 'getByTestId(' + jsString(testId) + ')';
    yield c;
    yield* filters(c);
  }
  if (named) {
    const name = accessibleName(ev.ctx, a, role, false);
    if (name && name.length <= MAX_NAME) {
      yield* roleExprs(role, name);
    } else if (!name && ALONE_ROLES.has(role)) {
      yield roleExpr(role);
    }
  }
  if (row) yield* filters(roleExpr(role));
}

// The texts that may tell container a apart from its siblings, best
// first: its first visible heading, its first visible text of words, then
// its other texts of words, shortest first, then its numbers (an id, a
// price: what the next run changes); each 2 to
// MAX_TEXT characters, none inside target.  heading: firstHeading's.
function filterTexts(ev, a, target, heading) {
  const out = [];
  const add = (t) => {
    if (out.length < MAX_TEXTS && t.length >= 2 && t.length <= MAX_TEXT && !out.includes(t)) out.push(t);
  };
  if (heading) add(heading);
  const runs = [];
  visibleRuns(ev, a, target, runs, { left: MAX_NODES });
  // A number alone (an order id "#1001", a price, a date) is the text most
  // likely to differ in the next run: the words come first.
  const words = runs.filter((t) => !NUMBERISH.test(t));
  if (words.length > 0) add(words[0]);
  for (const t of words.slice(1).sort((x, y) => x.length - y.length)) add(t);
  for (const t of runs.filter((x) => NUMBERISH.test(x))) add(t);
  return out;
}

// Whether el is a live region (LIVE_ROLES, or aria-live polite or
// assertive), whose text says the page's state now.
export function isLive(el) {
  if (LIVE_ROLES.has(getRole(el))) return true;
  const live = N.getAttribute(el, 'aria-live');
  return live === 'polite' || live === 'assertive';
}

// The children of node in the composed tree: its open shadow root's,
// then its own (a slotted child is reached through its host's light DOM).
function* composedChildren(node) {
  const shadow = N.nodeType(node) === N.ELEMENT_NODE ? N.shadowRoot(node) : null;
  if (shadow) for (let c = N.firstChild(shadow); c !== null; c = N.nextSibling(c)) yield c;
  for (let c = N.firstChild(node); c !== null; c = N.nextSibling(c)) yield c;
}

// The name of the first visible heading under a (outside target), or ''.
function firstHeading(ev, a, target) {
  const walk = (node, budget) => {
    for (const c of composedChildren(node)) {
      if (budget.left-- <= 0) return '';
      if (N.nodeType(c) !== N.ELEMENT_NODE || c === target || skipsText(c)) continue;
      if (getRole(c) === 'heading' && !isHiddenFromAllUsers(ev.ctx, c)) {
        const name = accessibleName(ev.ctx, c, 'heading', false);
        if (name) return name;
      }
      const t = walk(c, budget);
      if (t) return t;
    }
    return '';
  };
  return walk(a, { left: MAX_NODES });
}

// Pushes the normalized text of each visible text node under node (outside
// target) onto out, in document order, until MAX_TEXTS or the budget.
function visibleRuns(ev, node, target, out, budget) {
  for (const c of composedChildren(node)) {
    if (out.length >= MAX_TEXTS * 2 || budget.left-- <= 0) return;
    const type = N.nodeType(c);
    if (type === N.TEXT_NODE) {
      const t = normalize(N.nodeData(c));
      if (t && !isHiddenFromAllUsers(ev.ctx, node)) out.push(t);
    } else if (type === N.ELEMENT_NODE && c !== target && !skipsText(c) && !isLive(c)
      && !isHiddenFromAllUsers(ev.ctx, c)) {
      visibleRuns(ev, c, target, out, budget);
    }
  }
}
