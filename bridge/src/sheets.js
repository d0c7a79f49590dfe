// sheets.js -- what the style sheets of one tree (a document or a shadow
// root) can do, read once and kept while the sheets stay the same, so that
// most elements need no computed style at all.
//
// scanTree(root) answers two questions about a tree's author sheets:
//   pseudo   whether any rule may give a ::before or ::after its content;
//            pseudoOwners, the selectors of the elements whose ::before
//            or ::after a rule gives a content, or null when they cannot
//            all be told (see pseudoOwners());
//   transform whether any rule or inline style may set text-transform;
//   inherit  the selectors of the rules that set cursor, pointer-events or
//            visibility, or null when they cannot all be known (an
//            unreadable sheet, :host, ::slotted, ::part, @scope, nested
//            rules or keyframes that set one of them); inheritSet, which
//            of the three they set (INHERIT_* bits).
//   box      the selectors of the rules that set display or
//            content-visibility, or null as for inherit.
//   geom     the selectors of the rules that may change the geometry of
//            the elements they match, or null when a rule may empty the
//            box of other elements (see geometry.js).
// The three properties are inherited, so an element that no rule, inline
// style, presentation attribute or user-agent rule targets has its parent's
// values; only the elements addCandidates() returns and those whose markup
// may style them (markupStyle) need their style read.  Likewise an
// element whose box no rule may take away, under a parent with a box that
// lays its children out, has a box when its markup says so (boxByMarkup).

import * as N from './natives.js';
import { scanGeometry, scanLooseGeometry } from './geometry.js';

const PSEUDO_SELECTOR = /:(?:before|after)\b/i;
const CROSS_TREE = /:host|::slotted|::part/i;

// HTML elements the user-agent style sheet gives a box of their own (not
// none, not contents) in which their children are laid out as boxes, and
// the attributes that may change that (the user-agent sheet hides
// [hidden] and a closed [popover]; an inline style may do anything).
const UA_BOXED = new Set(['html', 'body', 'div', 'span', 'p', 'a', 'li', 'ul', 'ol', 'section',
  'article', 'header', 'footer', 'main', 'nav', 'aside', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'b', 'i',
  'em', 'strong', 'small', 'u', 's', 'mark', 'code', 'pre', 'blockquote', 'dl', 'dt', 'dd', 'figure',
  'figcaption', 'label', 'button', 'abbr', 'cite', 'q', 'sub', 'sup', 'time', 'address', 'kbd',
  'samp', 'var']);
const BOX_ATTRIBUTES = new Set(['hidden', 'popover', 'style']);

// True when an HTML element's markup alone gives it a box that lays out
// its children as boxes, given that its flat-tree parent has such a box
// and no rule of its sheets sets display or content-visibility on it
// (scan.box): its tag (tag) is one the user-agent sheet boxes, and none
// of its attribute names (names, null when it has none) can say otherwise.
export function boxByMarkup(tag, names) {
  if (!UA_BOXED.has(tag)) return false;
  if (names === null) return true;
  for (let i = 0; i < names.length; i++) {
    if (BOX_ATTRIBUTES.has(names[i])) return false;
  }
  return true;
}

// The tags the user-agent style sheet gives their own cursor (links and
// form controls), the SVG presentation attributes that may set one of the
// three properties, and the words of an inline style that may ("all"
// resets them too).  The walk checks these on each element it visits
// (see markupStyle), so the sheets' own selectors are all a tree needs
// to be queried for.
const UA_STYLED = new Set(['a', 'area', 'button', 'input', 'label', 'select', 'textarea']);
const PRESENTATION = new Set(['cursor', 'pointer-events', 'visibility']);
const INLINE_WORDS = /cursor|pointer-events|visibility|all/i;

function setsInherited(style) {
  return !!(style.cursor || style.pointerEvents || style.visibility);
}

// Which of the three a declaration block sets (INHERIT_* bits).
export const INHERIT_CURSOR = 1;
export const INHERIT_EVENTS = 2;
export const INHERIT_VISIBILITY = 4;
function inheritedSet(style) {
  return (style.cursor ? INHERIT_CURSOR : 0) | (style.pointerEvents ? INHERIT_EVENTS : 0) |
    (style.visibility ? INHERIT_VISIBILITY : 0);
}

// Whether a declaration block may take an element's box away, or its
// children's (display, content-visibility; `all` sets both).
function setsBox(style) {
  return !!(style.display || style.contentVisibility);
}

// Calls fn(i) for each character of s at its top level (outside brackets,
// parentheses and quotes; escapes skipped) until fn returns true.  Returns
// that index, -1 when fn never did, -2 when s is unbalanced.
function topLevel(s, fn) {
  let depth = 0;
  let quote = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quote !== '') {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '\\') {
      i++;
    } else if (c === '(' || c === '[') {
      depth++;
    } else if (c === ')' || c === ']') {
      depth--;
    } else if (depth === 0 && fn(i)) {
      return i;
    }
  }
  return depth !== 0 || quote !== '' ? -2 : -1;
}

// The complex selectors of a selector list (its top-level commas), or
// null when the list is not one this reader follows (unbalanced).
function splitList(selector) {
  const parts = [];
  let start = 0;
  const end = topLevel(selector, (i) => {
    if (selector[i] === ',') {
      parts.push(selector.slice(start, i));
      start = i + 1;
    }
    return false;
  });
  if (end === -2) return null;
  parts.push(selector.slice(start));
  return parts;
}

// Where a ::before or ::after (or the one-colon forms) starts in a complex
// selector, at its top level; -1 when it has none there.
const PSEUDO_AT = /^::?(?:before|after)(?![\w-])/i;
function pseudoAt(part) {
  const at = topLevel(part, (i) => part[i] === ':' && PSEUDO_AT.test(part.slice(i)));
  return at >= 0 ? at : -1;
}

// Adds to owners, and returns it, the selectors of the elements whose
// ::before or ::after a rule's selector list is for: each complex
// selector with one, cut where it begins (what follows it, a user-action
// state, only narrows what the cut selector matches; `.a > ::before`
// becomes `.a > *`, `.a ::after` `.a *`).  A complex selector without one gives nothing: the
// rule styles the elements themselves.  Returns null when the list cannot
// be followed, or names the pseudo-element elsewhere (inside :is(), in
// an attribute's value): every element may then have one.
function pseudoOwners(selector, owners) {
  const parts = splitList(selector);
  if (parts === null) return null;
  let found = false;
  for (let p = 0; p < parts.length; p++) {
    const at = pseudoAt(parts[p]);
    if (at < 0) continue;
    found = true;
    const raw = parts[p].slice(0, at);
    const head = raw.trim();
    // Nothing before it, or a combinator (white space too) right before
    // it: the pseudo-element is any element's there.
    owners.push(head === '' ? '*' : /(?:\s|[>+~])$/.test(raw) ? head + ' *' : head);
  }
  return found ? owners : null;
}

// Adds to scan what rules (a CSSRuleList) say; sets scan.inherit (scan.box)
// to null when they set an inherited property (a box property) the
// selector list cannot express.
function scanRules(rules, scan, nested) {
  for (let i = 0; i < rules.length; i++) {
    const r = rules[i];
    const selector = r.selectorText;
    if (selector !== undefined) {
      const flat = !nested && !CROSS_TREE.test(selector);
      if (PSEUDO_SELECTOR.test(selector)) {
        scan.pseudo = true;
        // A ::before or ::after has a box only when a rule gives it a
        // content: a rule that sets none (a box-sizing for every one,
        // say) makes no element an owner.
        if (scan.pseudoOwners !== null && (!r.style || r.style.content)) {
          scan.pseudoOwners = flat ? pseudoOwners(selector, scan.pseudoOwners) : null;
        }
      }
      if (r.style && r.style.textTransform) scan.transform = true;
      if (r.style && setsInherited(r.style) && scan.inherit !== null) {
        if (flat) {
          scan.inherit.push(selector);
          scan.inheritSet |= inheritedSet(r.style);
        } else {
          scan.inherit = null;
        }
      }
      if (r.style && setsBox(r.style) && scan.box !== null) {
        if (flat) scan.box.push(selector);
        else scan.box = null;
      }
      scanGeometry(scan, selector, r.style, flat);
      // (every style rule has a list for nested rules, mostly empty: only
      // one with rules is recorded, to keep the check short)
      if (r.cssRules && r.cssRules.length > 0 && nest(scan, r.cssRules)) scanRules(r.cssRules, scan, true);
      continue;
    }
    if (r.styleSheet !== undefined && r.href !== undefined) { // @import
      if (r.styleSheet) scanSheet(r.styleSheet, scan, true);
      continue;
    }
    if (r.keyText !== undefined) { // a keyframe
      // An animation may give a ::before its content: any may have one.
      if (r.style && r.style.content) scan.pseudoOwners = null;
      if (r.style && setsInherited(r.style)) scan.inherit = null;
      if (r.style && setsBox(r.style)) scan.box = null;
      scanLooseGeometry(scan, r.style);
      continue;
    }
    if (r.cssRules && nest(scan, r.cssRules)) {
      // @scope limits its rules to a subtree no flat selector states.
      scanRules(r.cssRules, scan, nested || r.start !== undefined);
    } else if (r.style) {
      // declarations nested in a style rule's group rule
      if (setsInherited(r.style)) scan.inherit = null;
      if (setsBox(r.style)) scan.box = null;
      scanLooseGeometry(scan, r.style);
    }
  }
}

// Records a rule list below a sheet's top level (a group's, a nested
// style rule's, an imported sheet's) with its length in scan.nested, which
// tells a later call that nothing was added or removed there (see
// scanTree); true when it has rules to read.
function nest(scan, rules) {
  scan.nested.push(rules, rules.length);
  return rules.length > 0;
}

// Reads sheet into scan; imported says it came by an @import, so its list
// is a nested one.
function scanSheet(sheet, scan, imported) {
  let rules;
  try {
    rules = sheet.cssRules;
  } catch (e) {
    // A cross-origin sheet cannot be read: assume it does everything.
    scan.pseudo = true;
    scan.pseudoOwners = null;
    scan.transform = true;
    scan.inherit = null;
    scan.box = null;
    scan.geom = null;
    return;
  }
  if (rules && (!imported || nest(scan, rules))) scanRules(rules, scan, false);
}

// Calls fn(sheet) for each of root's sheets: its document (or shadow
// root) sheets, then its adopted ones, in order.
function eachSheet(root, fn) {
  const lists = [root.styleSheets, root.adoptedStyleSheets];
  for (let l = 0; l < lists.length; l++) {
    const list = lists[l];
    if (!list) continue;
    for (let i = 0; i < list.length; i++) fn(list[i]);
  }
}

// A sheet's rule list, or null when it cannot be read (another origin's).
function rulesOf(sheet) {
  try {
    return sheet.cssRules || null;
  } catch (e) {
    return null;
  }
}

// The sheets' part of a tree's scan, kept for the tree between calls:
// root -> { key, nested, scan }.  Reading every rule's selector and
// declarations costs a page of a CSS framework's 2,700 rules about 5 ms a
// call (each snapshot, each locator read); telling that the sheets are
// the same costs a few reads per sheet and per group of rules.
const kept = new WeakMap();

// What the scan of root's sheets depends on, as a flat list: each sheet
// (document and adopted ones, in order), the length of its rule list and
// its first rule (a replaceSync() makes new rules), or null and -1 for a
// sheet that cannot be read.  Adding or removing a sheet, or a rule at a
// sheet's top level, changes it; the nested lists are checked apart
// (sameNested, on the lists the scan recorded).  Editing a rule's
// declarations or selector in place changes neither (see scanTree).
function sheetsKey(root) {
  const key = [];
  eachSheet(root, (sheet) => {
    const rules = rulesOf(sheet);
    key.push(sheet, rules ? rules.length : -1, rules && rules.length > 0 ? rules[0] : null);
  });
  return key;
}

function sameKey(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return false;
  }
  return true;
}

// True when each nested rule list of a kept reading has the length it had
// (a rule added to or removed from a group changes its list's length; a
// group added or removed changes its parent's).
function sameNested(nested) {
  for (let i = 0; i < nested.length; i += 2) {
    if (nested[i].length !== nested[i + 1]) return false;
  }
  return true;
}

// The scan of root's sheets alone (no inline style).
function scanSheets(root) {
  const scan = {
    pseudo: false, pseudoOwners: [], transform: false, inherit: [], inheritSet: 0, box: [], geom: [],
    nested: [], entered: false,
  };
  eachSheet(root, (sheet) => scanSheet(sheet, scan));
  return scan;
}

// { pseudo, pseudoOwners, transform, inherit, inheritSet, box, geom,
// entered } for the
// author sheets of root (see the file's head), a fresh object each call
// (entered is the caller's; the lists are shared and never changed).  The
// sheets' part is read again only when their key (sheetsKey) changed
// since the last call on root: a rule that a script edits in place, or
// whose selector it sets, keeps the old reading until a rule or sheet is
// added or removed.  The inline styles are queried every call.
export function scanTree(root) {
  const key = sheetsKey(root);
  let base = kept.get(root);
  if (base === undefined || !sameKey(base.key, key) || !sameNested(base.nested)) {
    const scan = scanSheets(root);
    base = { key, nested: scan.nested, scan };
    kept.set(root, base);
  }
  const b = base.scan;
  const scan = {
    pseudo: b.pseudo, pseudoOwners: b.pseudoOwners, transform: b.transform, inherit: b.inherit,
    inheritSet: b.inheritSet, box: b.box, geom: b.geom, entered: false,
  };
  if (!scan.transform) {
    const inline = '[style*="text-transform" i]';
    try {
      scan.transform = (N.nodeType(root) === N.DOCUMENT_NODE ? N.docQuerySelectorAll(root, inline)
        : N.fragQuerySelectorAll(root, inline)).length > 0;
    } catch (e) {
      scan.transform = true;
    }
  }
  return scan;
}

// What an element's own markup does to its cursor, pointer-events and
// visibility (see markupStyle).
export const MARKUP_NONE = 0;       // nothing: its parent's values
export const MARKUP_READ = 1;       // perhaps anything: read its style
export const MARKUP_POINTER = 2;    // cursor: pointer (a link)
export const MARKUP_NO_POINTER = 3; // cursor: default (a button)

// What el's own markup may do to the three properties: its tag (tag, its
// local name; html says el is an HTML element) is one the user-agent style
// sheet gives a cursor, or its attribute names (names, or null when it has
// none) hold a presentation attribute or an inline style that names one
// of them.  The user-agent cursor of a link (pointer) and of a button
// (default) is known unless an element may be editable (editable false
// says none can), which changes it; other controls are read.  direct says
// el is not a form (see elementTag).
export function markupStyle(el, tag, names, direct, html, editable) {
  if (names !== null) {
    for (let i = 0; i < names.length; i++) {
      const name = names[i];
      if (PRESENTATION.has(name)) return MARKUP_READ;
      if (name === 'style') {
        const style = direct ? el.getAttribute('style') : N.getAttribute(el, 'style');
        if (style !== null && INLINE_WORDS.test(style)) return MARKUP_READ;
      }
    }
  }
  if (!UA_STYLED.has(tag)) return MARKUP_NONE;
  if (!html || editable !== false) return MARKUP_READ;
  if (tag === 'a') return names !== null && names.includes('href') ? MARKUP_POINTER : MARKUP_NONE;
  return tag === 'button' ? MARKUP_NO_POINTER : MARKUP_READ;
}

// Selectors at most that addCandidates queries for.  A query of a list
// costs about each element times each selector: past a few hundred
// (a CSS framework's geometry rules, say), reading every element's style
// costs less.  bench/css_cost.lua: 200 cards under 3,000 rules took 18.6
// ms a snapshot with the query, 6.5 without.
const MAX_CANDIDATE_SELECTORS = 400;

// The elements of root that a rule of its sheets may give a cursor,
// pointer-events or visibility of their own (selectors: scan.inherit), or
// whose box a rule may take away (scan.box), added to the set out (the
// elements whose markup may, see markupStyle and boxByMarkup, are told
// apart during the walk).  Returns false when that cannot be told (every
// element must then be read), as when the selectors are too many to
// query for (MAX_CANDIDATE_SELECTORS).  `only`, when given, is a compound selector
// that limits the elements looked for; the list is then first parsed as
// is (on one element), since :is() would drop a selector it cannot parse.
export function addCandidates(root, selectors, out, only) {
  if (selectors === null || selectors.length > MAX_CANDIDATE_SELECTORS) return false;
  if (selectors.length === 0) return true;
  const joined = selectors.join(',');
  const doc = N.nodeType(root) === N.DOCUMENT_NODE;
  let list;
  try {
    if (only !== undefined) {
      const probe = doc ? N.documentElement(root) : N.firstElementChild(root);
      if (probe !== null) N.matches(probe, joined);
    }
    const query = only === undefined ? joined : only + ':is(' + joined + ')';
    list = doc ? N.docQuerySelectorAll(root, query) : N.fragQuerySelectorAll(root, query);
  } catch (e) {
    return false;
  }
  for (let i = 0; i < list.length; i++) out.add(list[i]);
  return true;
}
