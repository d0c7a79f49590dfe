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
// values; only the elements candidates() returns need their style read.

import * as N from './natives.js';

const PSEUDO_SELECTOR = /:(?:before|after)\b/i;
const CROSS_TREE = /:host|::slotted|::part/i;

// Elements the user-agent style sheet gives their own cursor (links and
// form controls), and the SVG presentation attributes and inline styles
// that may set one of the three properties.  "all" resets them too.
const ALWAYS = 'a,area,button,input,label,select,textarea,[cursor],[pointer-events],[visibility],' +
  '[style*="cursor" i],[style*="pointer-events" i],[style*="visibility" i],[style*="all" i]';

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

// The elements of root whose cursor, pointer-events or visibility may
// differ from their flat-tree parent's, added to the set out.  Returns
// false when that cannot be told (every element must then be read).
export function addCandidates(root, scan, out) {
  if (scan.inherit === null) return false;
  let selector = ALWAYS;
  for (let i = 0; i < scan.inherit.length; i++) selector += ',' + scan.inherit[i];
  let list;
  try {
    list = N.nodeType(root) === N.DOCUMENT_NODE ? N.docQuerySelectorAll(root, selector)
      : N.fragQuerySelectorAll(root, selector);
  } catch (e) {
    return false;
  }
  for (let i = 0; i < list.length; i++) out.add(list[i]);
  return true;
}
