// refworthy.js -- which elements get a ref in the snapshot: those an
// agent can act on (isRefWorthy), and the containers it may start a
// snapshot or a structure query from (containerKind).

import * as N from './natives.js';
import { attr, hasAttr, isHTML } from './dom.js';
import { INTERACTIVE_ROLES } from './roles.js';
import { TEST_ID_ATTRIBUTES } from './dom.js';

// Containers an agent may start a snapshot or a structure query from:
// they get a ref though nothing acts on them (see containerKind).
const CONTAINER_ROLES = new Set([
  'main', 'navigation', 'banner', 'contentinfo', 'complementary', 'region', 'search', 'form',
  'list', 'listitem', 'table', 'grid', 'treegrid', 'row', 'cell', 'gridcell', 'columnheader', 'rowheader',
  'dialog', 'alertdialog', 'tablist', 'tabpanel', 'group', 'radiogroup', 'menu', 'menubar', 'toolbar', 'tree',
]);

// Live regions: what the page says of itself (a status, an alert), which
// a test checks first.  They keep their ref though they hold only text
// (run EW found a status line with no ref, and its check page-wide).
export const LIVE_ROLES = new Set(['status', 'alert', 'log', 'timer', 'marquee']);

// Why el, which nothing acts on, still gets a ref as a container a
// snapshot or a structure query may start from: 'role' for a landmark,
// list, table part, dialog or other grouping role, 'live' for a live
// region, 'testid' for an element with a test id; null when it is none.
// A <details> group is left out: it carries its summary's ref (see
// tidy.js).  A 'role' container that ends up holding only text loses its
// ref (see tidy.js); a live region keeps it.
export function containerKind(tag, role, names) {
  if (CONTAINER_ROLES.has(role)) return role === 'group' && tag === 'details' ? null : 'role';
  if (LIVE_ROLES.has(role)) return 'live';
  if (names === null) return null;
  for (let i = 0; i < TEST_ID_ATTRIBUTES.length; i++) {
    if (names.includes(TEST_ID_ATTRIBUTES[i])) return 'testid';
  }
  return null;
}

// True when an agent could act on el: natively interactive or focusable,
// an interactive role, or the outermost element with a pointer cursor.
// plain says el has none of WALK_ATTRIBUTES (so no tabindex); editable
// false says no element of the document can be editable; html, when
// given, whether el is an HTML element.
export function isRefWorthy(el, tag, role, outermostPointer, plain, editable, html) {
  if (INTERACTIVE_ROLES.has(role) || outermostPointer) return true;
  if (plain !== true) {
    const tabindex = attr(el, 'tabindex');
    if (tabindex !== null) return parseInt(tabindex, 10) >= 0;
  }
  if (!(html === undefined ? isHTML(el) : html)) return false;
  switch (tag) {
    case 'a': case 'area': return hasAttr(el, 'href');
    case 'button': case 'input': case 'select': case 'textarea':
      return true;
    // Only a details element's summary opens anything.
    case 'summary': return isDetailsSummary(el);
    case 'audio': case 'video': return hasAttr(el, 'controls');
    default: return editable !== false && N.isContentEditable(el);
  }
}

// True when el (a summary) is the first summary child of a details
// element, the one that opens and closes it (HTML, "the summary element").
function isDetailsSummary(el) {
  const parent = N.parentNode(el);
  if (parent === null || !isHTML(parent) || N.localName(parent) !== 'details') return false;
  for (let c = N.firstChild(parent); c !== null; c = N.nextSibling(c)) {
    if (N.nodeType(c) === N.ELEMENT_NODE && isHTML(c) && N.localName(c) === 'summary') return c === el;
  }
  return false;
}
