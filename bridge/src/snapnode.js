// snapnode.js -- what one line of the snapshot says about its element:
// the node the walk (snapshot.js) makes of it, its name as printed, and
// the /url and /placeholder properties.

import { attr, hasAttr, normalize } from './dom.js';
import { NAME_PROHIBITED } from './roles.js';
import { accessibleName, plainContentName } from './name.js';
import { statesOf } from './states.js';
import { Sep, snapText } from './tidy.js';

const TABLE_PARTS = new Set(['row', 'cell', 'gridcell', 'columnheader', 'rowheader']);

// A node of the snapshot's tree for el (see snapshot.js's header).
export function createNode(walk, el, tag, html, role, wantsRef, disabled, plain) {
  return blankNode(el, tag, role, statesOf(walk, el, tag, html, role, disabled, plain), wantsRef);
}

// The root of a walk's tree: a node of no element, whose children are the
// snapshot's top lines.
export function fragmentNode() {
  return blankNode(null, '', 'fragment', '', false);
}

// Every node has every field the walk and the renderers may give it, from
// its start: nodes of one shape keep V8's property accesses monomorphic,
// which a fresh document's world, running this code cold in its
// interpreter, pays for most (a field added later made each node take one
// of several shapes, and its first snapshot spent milliseconds in the
// stores).  titled, open: the walk's marks; acts: compact.js's; frame:
// a frame owner's key (undefined for any other node); nameByKids,
// refTarget: tidy.js's; runChars: budget.js's count of text shown.
function blankNode(el, tag, role, states, wantsRef) {
  return {
    el, tag, role, name: '', states, value: null, url: null, placeholder: null, wantsRef, container: null,
    children: [], titled: false, open: false, acts: false, frame: undefined, nameByKids: 0, refTarget: null,
    runChars: 0,
  };
}

// Gives node its accessible name.  Rows and cells named only from their
// content keep it only when their content is plain text, or it would
// repeat, in one long string, what their rendered children already say.
export function nameNode(ctx, el, role, node, tag, html, plain, childText, plainTree) {
  if (NAME_PROHIBITED.has(role)) {
    if (node.titled === true) setName(node, titleOf(el));
    return;
  }
  if (plain && html) {
    const name = plainContentName(ctx, el, tag, role, childText, plainTree);
    if (name !== undefined) { setName(node, name); return; }
  }
  // A grid cell is a widget: it keeps its name whatever it holds (a link
  // or a button in a data grid); a header names its column or row, which
  // the sort button it holds does not say (Playwright's AI snapshot keeps
  // the names of both: rolesWithIdentifyingNames).
  if (TABLE_PARTS.has(role) && role !== 'gridcell' && role !== 'columnheader' && role !== 'rowheader' &&
      !hasAttr(el, 'aria-label') && !hasAttr(el, 'aria-labelledby')) {
    const kids = node.children;
    for (let i = 0; i < kids.length; i++) {
      if (typeof kids[i] !== 'string' && !(kids[i] instanceof Sep)) return;
    }
  }
  setName(node, accessibleName(ctx, el, role, true));
}

// el's title attribute as a name ('' when it has none, or blanks).
export function titleOf(el) {
  const t = attr(el, 'title');
  return t ? normalize(t) : '';
}

// The name as the snapshot prints it: white space collapsed as Playwright
// collapses it (an NBSP too), so "a&nbsp; b" is "a b" and a child text
// repeating it is seen to (tidy.js).
function setName(node, name) {
  node.name = name.indexOf('\u00a0') < 0 && name.indexOf('\u200b') < 0 && name.indexOf('\u00ad') < 0
    ? name : snapText(name);
}

// A data: URL cut after its comma, as Playwright cuts it
// (truncateDataUrl): "data:text/plain;base64,…".  Its payload says
// nothing an agent acts on and may be megabytes long.
export function cutDataUrl(url) {
  if (!url.startsWith('data:')) return url;
  const comma = url.indexOf(',');
  return comma < 0 ? url : url.slice(0, comma + 1) + '\u2026';
}

// Sets node.placeholder, printed as Playwright's /placeholder property,
// when the placeholder is not already the name.
export function placeholderOf(el, node) {
  const ph = attr(el, 'placeholder');
  if (ph && normalize(ph) !== node.name) node.placeholder = ph;
}
