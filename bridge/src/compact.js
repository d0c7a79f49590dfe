// compact.js -- the interactive-only snapshot: the snapshot tree
// (snapshot.js, tidied by tidy.js) rendered as the elements an agent can
// act on, each on one line with the ref the full snapshot gives the same
// element, and only the context that tells them apart:
//
//   - heading "Block 1" [level=3]
//   - link "Item 1" [ref=e5]
//   - button "Act 1" [ref=e6]
//   - navigation "Main" [ref=e2]:
//     - link "Home" [ref=e3]
//   - iframe "Ads" [ref=e7]:
//     \u0001frame:KEY
//
// A heading is printed only where it tells elements apart: before the
// first element under it whose role and name another element of the
// document shares (three "Edit" buttons, each under its own heading), and
// only when no other heading has its name; a heading that holds a link is
// that link's line.  A dialog, and a named landmark or group, is a key whose
// lines are the elements in it (a key repeated alike is told apart by its
// heading, as an element is).  Every other wrapper, all text, URLs and the
// options of a select are left out (the full snapshot, or one with
// root=REF, shows them).

import { FRAME_MARK, nodeKey, yamlKey, yamlValue } from './text.js';

// Roles whose node, when named, heads the elements inside it.
const NAMED_HEADS = new Set([
  'main', 'navigation', 'banner', 'contentinfo', 'complementary', 'region', 'search', 'form',
  'group', 'radiogroup', 'tabpanel', 'menu', 'menubar', 'toolbar', 'tablist', 'tree', 'grid', 'treegrid',
]);

// Roles whose node heads the elements inside it, named or not.
const HEADS = new Set(['dialog', 'alertdialog']);

// True when node is a line of the compact text by itself: an element an
// agent acts on (a ref not given as a container's) or a frame.
function actionable(node) {
  return node.frame !== undefined || (node.wantsRef === true && node.container === null);
}

// What tells an element or a heading from another: its role and name.
function label(node) {
  return node.role + '\u0000' + node.name;
}

// Marks every node that holds an actionable node below it (node.acts),
// bottom-up, and counts the labels of the actionable nodes and headings
// in seen; returns whether node is or holds one.
function mark(node, seen) {
  let any = false;
  const kids = node.children;
  for (let i = 0; i < kids.length; i++) {
    const c = kids[i];
    if (typeof c !== 'string' && mark(c, seen)) any = true;
  }
  node.acts = any;
  const self = actionable(node);
  if (self || node.role === 'heading' || (any && isHead(node))) {
    seen.set(label(node), (seen.get(label(node)) || 0) + 1);
  }
  return any || self;
}

// True when node, holding actionable nodes, is printed as a key over them.
function isHead(node) {
  return HEADS.has(node.role) || (!!node.name && NAMED_HEADS.has(node.role));
}

// Renders top's tree in the compact form; returns what render (text.js)
// returns: { lines, refLines, frames, openListbox }.
export function renderCompact(top, env) {
  const out = { lines: [], refLines: [], frames: [], openListbox: Infinity, env, pending: null, seen: new Map() };
  mark(top, out.seen);
  walkChildren(out, top, '');
  return out;
}

function walkChildren(out, node, indent) {
  const kids = node.children;
  for (let i = 0; i < kids.length; i++) {
    if (typeof kids[i] !== 'string') walk(out, kids[i], indent);
  }
}

// Prints the heading waiting for an element it tells apart, if any, before
// node's line.
function flush(out, node) {
  if (out.pending !== null && out.seen.get(label(node)) > 1) {
    out.lines.push(out.pending);
    out.pending = null;
  }
}

function walk(out, node, indent) {
  if (actionable(node)) {
    flush(out, node);
    line(out, node, indent);
    return;
  }
  if (node.role === 'heading') {
    // A heading with a link in it is told by that link's line.
    if (node.acts) {
      out.pending = null;
      walkChildren(out, node, indent);
    } else {
      out.pending = node.name && out.seen.get(label(node)) === 1
        ? indent + '- ' + yamlKey(nodeKey(out, node, true)) : null;
    }
    return;
  }
  if (!node.acts) return;
  if (isHead(node)) {
    // A key repeated alike (a "Rating" group in every card) is told apart
    // by the heading before it, as an element is.
    flush(out, node);
    const before = out.pending;
    out.pending = null;
    out.lines.push(indent + '- ' + yamlKey(nodeKey(out, node, true)) + ':');
    walkChildren(out, node, indent + '  ');
    // What follows the group is not under a heading inside it; the heading
    // before it, not printed yet, still leads what follows.
    out.pending = before;
    return;
  }
  walkChildren(out, node, indent);
}

// An actionable node's line: its key, with its value, and under it the
// actionable nodes it holds (a listbox's options, a menu's items), a
// select's options left out.
function line(out, node, indent) {
  if (node.open === true && out.openListbox === Infinity) out.openListbox = out.lines.length;
  const key = indent + '- ' + yamlKey(nodeKey(out, node, true));
  if (node.frame !== undefined) {
    out.lines.push(key + ':');
    out.lines.push(indent + '  ' + FRAME_MARK + node.frame);
    out.frames.push(node.frame);
    return;
  }
  const select = node.tag === 'select' && node.role === 'combobox';
  const value = select && node.value == null ? selected(node) : node.value;
  const hasValue = value != null && value !== '';
  const inner = node.acts && !select;
  if (!inner) {
    out.lines.push(hasValue ? key + ': ' + yamlValue(value) : key);
    return;
  }
  out.lines.push(key + ':');
  if (hasValue) out.lines.push(indent + '  - /value: ' + yamlValue(value));
  walkChildren(out, node, indent + '  ');
  out.pending = null;
}

// A select that lists its options (it has few, see states.js) has no
// value of its own: its value is its selected options' names.
function selected(node) {
  const names = [];
  const kids = node.children;
  for (let i = 0; i < kids.length; i++) {
    const c = kids[i];
    if (typeof c !== 'string' && c.role === 'option' && c.states.includes(' [selected]')) names.push(c.name);
  }
  return names.length > 0 ? names.join(', ') : null;
}
