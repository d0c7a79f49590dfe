// sheets.js -- what the style sheets of one tree (a document or a shadow
// root) can do, read once per call so that most elements need no computed
// style at all.
//
// scanTree(root) answers two questions about a tree's author sheets:
//   pseudo   whether any rule may give a ::before or ::after its content;
//   transform whether any rule or inline style may set text-transform;
//   inherit  the selectors of the rules that set cursor, pointer-events or
//            visibility, or null when they cannot all be known (an
//            unreadable sheet, :host, ::slotted, ::part, @scope, nested
//            rules or keyframes that set one of them).
// The three properties are inherited, so an element that no rule, inline
// style, presentation attribute or user-agent rule targets has its parent's
// values; only the elements addCandidates() returns and those whose markup
// may style them (styledByMarkup) need their style read.

import * as N from './natives.js';

const PSEUDO_SELECTOR = /:(?:before|after)\b/i;
const CROSS_TREE = /:host|::slotted|::part/i;

// The tags the user-agent style sheet gives their own cursor (links and
// form controls), the SVG presentation attributes that may set one of the
// three properties, and the words of an inline style that may ("all"
// resets them too).  The walk checks these on each element it visits
// (see styledByMarkup), so the sheets' own selectors are all a tree needs
// to be queried for.
const UA_STYLED = new Set(['a', 'area', 'button', 'input', 'label', 'select', 'textarea']);
const PRESENTATION = new Set(['cursor', 'pointer-events', 'visibility']);
const INLINE_WORDS = /cursor|pointer-events|visibility|all/i;

function setsInherited(style) {
  return !!(style.cursor || style.pointerEvents || style.visibility);
}

// Adds to scan what rules (a CSSRuleList) say; sets scan.inherit to null
// when they set an inherited property the selector list cannot express.
function scanRules(rules, scan, nested) {
  for (let i = 0; i < rules.length; i++) {
    const r = rules[i];
    const selector = r.selectorText;
    if (selector !== undefined) {
      if (PSEUDO_SELECTOR.test(selector)) scan.pseudo = true;
      if (r.style && r.style.textTransform) scan.transform = true;
      if (r.style && setsInherited(r.style) && scan.inherit !== null) {
        if (nested || CROSS_TREE.test(selector)) scan.inherit = null;
        else scan.inherit.push(selector);
      }
      if (r.cssRules && r.cssRules.length > 0) scanRules(r.cssRules, scan, true);
      continue;
    }
    if (r.styleSheet !== undefined && r.href !== undefined) { // @import
      if (r.styleSheet) scanSheet(r.styleSheet, scan);
      continue;
    }
    if (r.keyText !== undefined) { // a keyframe
      if (r.style && setsInherited(r.style)) scan.inherit = null;
      continue;
    }
    if (r.cssRules && r.cssRules.length > 0) {
      // @scope limits its rules to a subtree no flat selector states.
      scanRules(r.cssRules, scan, nested || r.start !== undefined);
    } else if (r.style && setsInherited(r.style)) {
      scan.inherit = null; // declarations nested in a style rule's group rule
    }
  }
}

function scanSheet(sheet, scan) {
  let rules;
  try {
    rules = sheet.cssRules;
  } catch (e) {
    // A cross-origin sheet cannot be read: assume it does everything.
    scan.pseudo = true;
    scan.transform = true;
    scan.inherit = null;
    return;
  }
  if (rules) scanRules(rules, scan, false);
}

// { pseudo, inherit } for the author sheets of root.
export function scanTree(root) {
  const scan = { pseudo: false, transform: false, inherit: [], entered: false };
  const lists = [root.styleSheets, root.adoptedStyleSheets];
  for (let l = 0; l < lists.length; l++) {
    const list = lists[l];
    if (!list) continue;
    for (let i = 0; i < list.length; i++) scanSheet(list[i], scan);
  }
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

// True when el's own markup may give it a cursor, pointer-events or
// visibility of its own: its tag (tag, its local name) is one the
// user-agent style sheet styles, or its attribute names (names, or null
// when it has none) hold a presentation attribute or an inline style that
// names one of them.  direct says el is not a form (see elementTag).
export function styledByMarkup(el, tag, names, direct) {
  if (UA_STYLED.has(tag)) return true;
  if (names === null) return false;
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    if (PRESENTATION.has(name)) return true;
    if (name === 'style') {
      const style = direct ? el.getAttribute('style') : N.getAttribute(el, 'style');
      if (style !== null && INLINE_WORDS.test(style)) return true;
    }
  }
  return false;
}

// The elements of root that a rule of its sheets may give a cursor,
// pointer-events or visibility of their own, added to the set out (the
// elements whose markup may, see styledByMarkup, are told apart during the
// walk).  Returns false when that cannot be told (every element must then
// be read).
export function addCandidates(root, scan, out) {
  if (scan.inherit === null) return false;
  if (scan.inherit.length === 0) return true;
  let list;
  try {
    list = N.nodeType(root) === N.DOCUMENT_NODE ? N.docQuerySelectorAll(root, scan.inherit.join(','))
      : N.fragQuerySelectorAll(root, scan.inherit.join(','));
  } catch (e) {
    return false;
  }
  for (let i = 0; i < list.length; i++) out.add(list[i]);
  return true;
}
