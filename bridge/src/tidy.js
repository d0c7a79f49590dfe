// tidy.js -- the snapshot tree after the walk (snapshot.js): adjacent
// text merged with the spaces the layout puts between flattened elements,
// a <details> shaped as Playwright prints it, children that only repeat
// their parent's name dropped, and a name its child lines print whole
// marked to be left off its line (as Playwright's AI snapshot does).

import * as N from './natives.js';
import { hasAttr, isSpace, normalize } from './dom.js';
import { NAME_FROM_CONTENT } from './roles.js';

// Roles whose descendants are presentational (WAI-ARIA 1.2): their text is
// already in their name.  Descendants with refs are kept all the same.
const CHILDREN_PRESENTATIONAL = new Set([
  'button', 'checkbox', 'img', 'math', 'menuitemcheckbox', 'menuitemradio', 'meter', 'option',
  'progressbar', 'radio', 'scrollbar', 'separator', 'slider', 'switch', 'tab',
]);

// Stands in a parent's children for the start and end of a flattened
// element: a space when that element is not inline, decided only when text
// lies on both sides (see finish).  display is the element's computed
// display when the walk knows it without a read, else null.
export class Sep {
  constructor(el, display) {
    this.el = el;
    this.display = display === undefined ? null : display;
  }
}

// Merges adjacent text and drops children that only repeat the name,
// bottom-up, in place (a node's children array is rewritten from the
// front: what is kept never outnumbers what was read).  A Sep between two
// pieces of text adds a space when its element is not inline and the
// text has none there already.
export function finish(ctx, node) {
  if (node.tag === 'details' && node.role === 'group' && !node.wantsRef) mergeSummary(node);
  const out = node.children;
  let kept = 0;
  let text = null;
  let pending = null;
  const n = out.length;
  for (let i = 0; i < n; i++) {
    const c = out[i];
    if (typeof c === 'string') {
      if (text === null) {
        text = c;
      } else {
        if (pending !== null && !isSpace(c.charCodeAt(0)) && anyBlock(ctx, pending)) text += ' ';
        text += c;
      }
      pending = null;
      continue;
    }
    if (c instanceof Sep) {
      if (text !== null && !isSpace(text.charCodeAt(text.length - 1))) {
        if (pending === null) pending = [c];
        else pending.push(c);
      }
      continue;
    }
    if (text !== null) {
      kept = keepText(out, kept, text);
      text = null;
      pending = null;
    }
    finish(ctx, c);
    // An image without a name, ref or content tells nothing (Playwright's
    // AI snapshot drops it too): `link "Open"`, not a bare `- img` in it.
    if (c.role === 'img' && !c.name && !c.wantsRef && c.children.length === 0) continue;
    // A list item around a single widget keeps its line, as in Playwright.
    out[kept++] = c;
  }
  if (text !== null) kept = keepText(out, kept, text);
  out.length = kept;
  // A container by its role that holds only text (a plain cell or list
  // item) or one widget alone (a list item around a link) is nothing to
  // start from beyond what its line or the widget's ref gives: it prints
  // without a ref.
  if (node.container === 'role' && (!hasNode(node) || loneWidget(node))) node.wantsRef = false;
  if (CHILDREN_PRESENTATIONAL.has(node.role) && !hasRef(node)) node.children = [];
  dropRepeatedName(node);
  if (out.length === 1 && typeof out[0] === 'string' && node.name &&
      NAME_FROM_CONTENT.has(node.role) && sameText(out[0], node.name)) {
    node.children = [];
  }
  markNameByKids(node);
}

// Roles whose name says which one it is even when its content repeats it
// (Playwright's AI snapshot keeps their names: rolesWithIdentifyingNames).
// Of the roles named from content only the headers are among them.
const IDENTIFYING = new Set(['columnheader', 'rowheader']);

// Playwright's AI snapshot leaves a name off a line when the name comes
// from the content and the elements that gave it are all printed below:
// `heading [level=3]` over `link "Clipboard API"`, not the name twice.
// Here: the name comes from the content (a role named from content, no
// aria-label or aria-labelledby), a child line is an element, and the
// child lines' text (a child's name, or its own child lines when it has
// none) reads the name whole.  node.nameByKids is then the number of
// levels below node those lines take (text.js prints the name when the
// depth limit would hide them); the name itself stays on the node, for
// the ref registry and locators.
function markNameByKids(node) {
  if (!node.name || !NAME_FROM_CONTENT.has(node.role) || IDENTIFYING.has(node.role)) return;
  const kids = node.children;
  if (!kids.some(c => typeof c !== 'string')) return;
  if (hasAttr(node.el, 'aria-label') || hasAttr(node.el, 'aria-labelledby')) return;
  const parts = [];
  const levels = shownText(node, parts);
  if (levels >= 0 && squeeze(parts.join('')) === squeeze(node.name)) node.nameByKids = levels;
}

// s without white space, zero-width spaces and soft hyphens: the lines
// break a name where its elements meet, with or without a space.
function squeeze(s) {
  return s.replace(/[\s\u200b\u00ad]+/g, '');
}

// Pushes onto parts the text node's child lines print; returns how many
// levels below node they take, or -1 when a generic holding only text
// gives part of it: Playwright counts such a line as the name's source
// left unprinted (it drops the generic when its text repeats the name),
// so the name stays.
function shownText(node, parts) {
  let levels = 0;
  for (const c of node.children) {
    if (typeof c !== 'string' && c.role === 'generic' && !c.name &&
        c.children.every(k => typeof k === 'string')) {
      return -1;
    }
    if (typeof c === 'string') {
      parts.push(c);
      levels = Math.max(levels, 1);
    } else if (c.name && !c.nameByKids) {
      parts.push(c.name);
      levels = Math.max(levels, 1);
    } else {
      const below = shownText(c, parts);
      if (below < 0) return -1;
      levels = Math.max(levels, 1 + below);
    }
  }
  return levels;
}

// A <details> prints as Playwright prints it: `group` whose content starts
// with its summary's content, not a button inside a group.  The summary is
// what a person clicks to open or close the group, so the group's line
// carries the summary's ref (and its focus); whether it is open shows in
// whether its content is listed.
function mergeSummary(node) {
  const kids = node.children;
  for (let i = 0; i < kids.length; i++) {
    const c = kids[i];
    if (typeof c === 'string' || c instanceof Sep || c.tag !== 'summary' ||
        N.parentNode(c.el) !== node.el) {
      continue;
    }
    kids.splice(i, 1, new Sep(c.el), ...c.children, new Sep(c.el));
    if (c.wantsRef) {
      node.wantsRef = true;
      node.refTarget = { el: c.el, role: c.role, name: c.name, tag: c.tag };
    }
    if (c.states.includes(' [active]')) node.states += ' [active]';
    return;
  }
}

// True when the element of one of seps is not laid out inline.  An
// element with display none adds nothing: the walk leaves a Sep for it
// only when it did not check its box (a leaf, see Ctx.walkFlags).
function anyBlock(ctx, seps) {
  for (let i = 0; i < seps.length; i++) {
    const d = seps[i].display !== null ? seps[i].display : ctx.display(seps[i].el);
    if (d !== 'contents' && d !== 'none' && !d.startsWith('inline')) return true;
  }
  return false;
}

// True when a node below node has a ref an agent acts on (a container's
// ref does not count).
function hasRef(node) {
  for (const c of node.children) {
    if (typeof c !== 'string' && ((c.wantsRef && !c.container) || hasRef(c))) return true;
  }
  return false;
}

// True when node's one child is a node an agent acts on.
function loneWidget(node) {
  const c = node.children;
  return c.length === 1 && typeof c[0] !== 'string' && c[0].wantsRef && !c[0].container;
}

// True when node has a child node (not only text).
function hasNode(node) {
  for (const c of node.children) {
    if (typeof c !== 'string') return true;
  }
  return false;
}

// A caption, legend or figcaption gives its container the name; its text
// is not repeated as the container's first child.
function dropRepeatedName(node) {
  const first = node.children[0];
  if (!node.name || first === undefined) return;
  if (node.children.length === 1) {
    // A link or button around a single image named like it.
    if (typeof first !== 'string' && first.role === 'img' && !first.wantsRef &&
        first.name === node.name && first.children.length === 0) {
      node.children = [];
    }
    return;
  }
  if ((typeof first === 'string' && sameText(first, node.name)) ||
      (typeof first !== 'string' && first.role === 'caption' && !first.wantsRef &&
       first.children.length === 1 && first.children[0] === node.name)) {
    node.children.shift();
  }
}

// True when two texts read the same once white space is collapsed as
// Playwright collapses it (any Unicode space, an NBSP too, is a space;
// zero-width spaces and soft hyphens are nothing).
export function sameText(a, b) {
  return a === b || snapText(a) === snapText(b);
}

// s with white space collapsed as Playwright's normalizeWhiteSpace does.
export function snapText(s) {
  return s.replace(/[\u200b\u00ad]/g, '').trim().replace(/\s+/g, ' ');
}

// Writes raw, normalized, at index kept of out unless it is blank;
// returns the next index.
function keepText(out, kept, raw) {
  const t = normalize(raw);
  if (t) out[kept++] = t;
  return kept;
}
