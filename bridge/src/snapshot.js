// snapshot.js -- one pass over the flat tree that builds a compact
// accessibility tree: nodes { el, role, name, states, value, url, ref?,
// frame?, children } and strings for text.
//
// Generic wrappers without a ref are flattened (their children join the
// parent); text-level roles (strong, emphasis, ...) are flattened into the
// surrounding text.  Each element's style is read once through the Ctx.

import * as N from './natives.js';
import {
  ariaToken, attr, deepActiveElement, forEachFlatChild, hasAttr, idRefs, isElement, isHTML,
} from './dom.js';
import { getRole, headingLevel, INTERACTIVE_ROLES, NAME_FROM_CONTENT, NAME_PROHIBITED } from './roles.js';
import { accessibleName } from './name.js';
import {
  Ctx, hidesSubtree, isActionable, isClosedDetailsContent, isHiddenForAria, isVisibilityHidden,
} from './visibility.js';
import { render } from './text.js';
import { checkKeys } from './errors.js';

// Roles that are flattened when they carry no ref.
const FLATTENED = new Set([
  'generic', 'none', 'presentation', 'emphasis', 'strong', 'mark', 'subscript',
  'superscript', 'time', 'code', 'rowgroup',
]);

const CHECKABLE = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);
const VALUE_ROLES = new Set(['slider', 'spinbutton', 'progressbar', 'meter', 'scrollbar']);
const TEXT_ROLES = new Set(['textbox', 'searchbox', 'combobox']);
// Roles whose descendants are presentational (WAI-ARIA 1.2): their text is
// already in their name.  Descendants with refs are kept all the same.
const CHILDREN_PRESENTATIONAL = new Set([
  'button', 'checkbox', 'img', 'math', 'menuitemcheckbox', 'menuitemradio', 'meter', 'option',
  'progressbar', 'radio', 'scrollbar', 'separator', 'slider', 'switch', 'tab',
]);
const TABLE_PARTS = new Set(['row', 'cell', 'gridcell', 'columnheader', 'rowheader']);
const FORM_TAGS = new Set(['input', 'select', 'textarea', 'button', 'fieldset', 'optgroup', 'option']);

const SNAPSHOT_OPTIONS = ['root', 'depth', 'maxOptions'];

// Runs a snapshot.  env is the instance's { refs, frameKeys }.
export function snapshot(env, options) {
  const opts = options || {};
  checkKeys(opts, SNAPSHOT_OPTIONS, 'snapshot');
  const ctx = new Ctx();
  const walk = {
    ctx,
    env,
    count: 0,
    maxOptions: opts.maxOptions == null ? 10 : Math.max(0, opts.maxOptions | 0),
    active: deepActiveElement(document),
    owned: new Map(),
    ownedDone: new Set(),
  };
  let rootEl = N.documentElement(document);
  if (opts.root != null) rootEl = env.resolve(opts.root);
  collectOwned(walk, N.docQuerySelectorAll(document, '[aria-owns]'));

  const top = { role: 'fragment', children: [] };
  if (rootEl) {
    visitElement(walk, rootEl, top, { pointer: false, disabled: false, visible: true, text: true });
  }
  finish(top);
  const depth = opts.depth == null ? Infinity : Math.max(0, opts.depth | 0);
  const out = render(top, env, depth);
  return {
    text: out.text,
    element_count: walk.count,
    ref_count: out.refCount,
    unmeasurable: ctx.unmeasurable,
    frames: out.frames,
    url: String(document.URL),
    title: String(document.title),
  };
}

// Records which elements aria-owns moves under another owner.
function collectOwned(walk, owners) {
  for (let i = 0; i < owners.length; i++) {
    const owner = owners[i];
    for (const target of idRefs(owner, 'aria-owns')) {
      if (target === owner || N.contains(target, owner) || walk.owned.has(target)) continue;
      walk.owned.set(target, owner);
    }
  }
}

// Visits one flat-tree child of an element.
function visitNode(walk, node, parent, inherited) {
  const type = N.nodeType(node);
  if (type === N.TEXT_NODE) {
    if (inherited.visible && inherited.text) {
      const data = N.nodeData(node);
      if (data) parent.children.push(data);
    }
    return;
  }
  if (type !== N.ELEMENT_NODE) return;
  if (walk.owned.has(node)) return;
  visitElement(walk, node, parent, inherited);
}

// Visits an element: decides whether it becomes a node (or is flattened
// into parent), gives it a name, states and a ref flag, then walks its
// flat-tree children and aria-owns children.
function visitElement(walk, el, parent, inherited) {
  const ctx = walk.ctx;
  walk.count++;
  if (hidesSubtree(ctx, el)) return;
  const style = ctx.style(el);
  const visible = !isVisibilityHidden(ctx, el);
  const html = isHTML(el);
  const tag = N.localName(el);
  const role = getRole(el);
  const pointer = style.cursor === 'pointer';
  const disabled = inherited.disabled || ariaToken(el, 'aria-disabled') === 'true';
  // The text of a label whose control is rendered is that control's name;
  // it is not repeated, and the label itself is not a click target.
  const labelling = html && tag === 'label' && labelsRenderedControl(ctx, el);
  const childInherited = { pointer, disabled, visible, text: inherited.text && !labelling };

  const shadow = N.shadowRoot(el);
  if (shadow) collectOwned(walk, N.fragQuerySelectorAll(shadow, '[aria-owns]'));

  const outermostPointer = pointer && !inherited.pointer && !labelling;
  const wantsRef = visible && isRefWorthy(el, tag, role, outermostPointer) && isActionable(ctx, el);
  const node = visible && (wantsRef || !FLATTENED.has(role))
    ? createNode(walk, el, tag, role, wantsRef, disabled) : null;

  if (html && (tag === 'iframe' || tag === 'frame')) {
    if (node) visitFrame(walk, el, node, parent);
    return;
  }

  const target = node || parent;
  const block = !node && !style.display.startsWith('inline') && style.display !== 'contents';
  if (block) target.children.push(' ');
  if (!(node && html && fillControl(walk, el, tag, role, node))) {
    const isDetails = html && tag === 'details';
    forEachFlatChild(el, (child) => {
      if (isDetails && isClosedDetailsContent(el, child)) return;
      visitNode(walk, child, target, childInherited);
    });
  }
  visitOwned(walk, el, target, childInherited);
  if (block) target.children.push(' ');

  if (node) {
    if (TABLE_PARTS.has(role)) nameTablePart(walk.ctx, el, role, node);
    if (role === 'link' && html && hasAttr(el, 'href')) node.url = attr(el, 'href');
    if (role === 'listbox' && !(html && tag === 'select')) capOptions(walk, node);
    parent.children.push(node);
  }
}

function createNode(walk, el, tag, role, wantsRef, disabled) {
  const node = { el, role, name: '', states: '', value: null, url: null, wantsRef, children: [] };
  if (!NAME_PROHIBITED.has(role) && !TABLE_PARTS.has(role)) {
    node.name = accessibleName(walk.ctx, el, role, true);
  }
  node.states = statesOf(walk, el, tag, role, disabled);
  return node;
}

// A frame owner with a box becomes a node with one placeholder child (the
// host's key for the frame), and is never descended into.
function visitFrame(walk, el, node, parent) {
  const box = walk.ctx.box(el);
  if (box && (box.w <= 0 || box.h <= 0)) return;
  const key = walk.env.frameKeys.get(el);
  node.frame = key === undefined ? '?' : key;
  parent.children.push(node);
}

function labelsRenderedControl(ctx, label) {
  const control = N.labelControl(label);
  return control !== null && !isHiddenForAria(ctx, control);
}

// Rows and cells named from their content would repeat, in one long
// string, what their rendered children already say: they keep a name only
// when it is given explicitly or when their content is plain text.
function nameTablePart(ctx, el, role, node) {
  const explicit = hasAttr(el, 'aria-label') || hasAttr(el, 'aria-labelledby');
  if (!explicit) {
    for (const c of node.children) {
      if (typeof c !== 'string') return;
    }
  }
  node.name = accessibleName(ctx, el, role, true);
}

// Visits the elements el owns through aria-owns, after its own children.
function visitOwned(walk, el, target, inherited) {
  if (!N.hasAttribute(el, 'aria-owns')) return;
  for (const owned of idRefs(el, 'aria-owns')) {
    if (walk.owned.get(owned) !== el || walk.ownedDone.has(owned)) continue;
    walk.ownedDone.add(owned);
    visitElement(walk, owned, target, inherited);
  }
}

// True when an agent could act on el: natively interactive or focusable,
// an interactive role, or the outermost element with a pointer cursor.
export function isRefWorthy(el, tag, role, outermostPointer) {
  if (INTERACTIVE_ROLES.has(role) || outermostPointer) return true;
  const tabindex = attr(el, 'tabindex');
  if (tabindex !== null) return parseInt(tabindex, 10) >= 0;
  if (!isHTML(el)) return false;
  switch (tag) {
    case 'a': case 'area': return hasAttr(el, 'href');
    case 'button': case 'input': case 'select': case 'textarea': case 'summary':
      return true;
    case 'audio': case 'video': return hasAttr(el, 'controls');
    default: return N.isContentEditable(el);
  }
}

// The state flags of a node, rendered as " [checked] [level=2] ...".
function statesOf(walk, el, tag, role, ariaDisabled) {
  const html = isHTML(el);
  let s = '';
  if (CHECKABLE.has(role)) {
    let checked = ariaToken(el, 'aria-checked');
    if (html && tag === 'input' && !hasAttr(el, 'aria-checked')) {
      checked = N.inputIndeterminate(el) && N.inputType(el) === 'checkbox' ? 'mixed'
        : N.inputChecked(el) ? 'true' : '';
    }
    if (checked === 'true') s += ' [checked]';
    else if (checked === 'mixed') s += ' [checked=mixed]';
  }
  if (ariaDisabled || (html && FORM_TAGS.has(tag) && N.matches(el, ':disabled'))) s += ' [disabled]';
  const expanded = ariaToken(el, 'aria-expanded');
  if (expanded === 'true') s += ' [expanded]';
  else if (html && tag === 'summary' && role === 'button' && N.detailsOpen(N.parentNode(el))) {
    s += ' [expanded]';
  }
  const level = headingLevel(el, role);
  if (level) s += ' [level=' + level + ']';
  const pressed = ariaToken(el, 'aria-pressed');
  if (pressed === 'true') s += ' [pressed]';
  else if (pressed === 'mixed') s += ' [pressed=mixed]';
  if (role === 'option' || role === 'tab' || role === 'treeitem' || role === 'gridcell' ||
      role === 'row' || role === 'columnheader' || role === 'rowheader') {
    const selected = html && tag === 'option' ? N.optionSelected(el)
      : ariaToken(el, 'aria-selected') === 'true';
    if (selected) s += ' [selected]';
  }
  if (el === walk.active && tag !== 'body' && tag !== 'html') s += ' [active]';
  const invalid = ariaToken(el, 'aria-invalid');
  if ((invalid && invalid !== 'false') ||
      (html && FORM_TAGS.has(tag) && N.matches(el, ':user-invalid'))) {
    s += ' [invalid]';
  }
  if (ariaToken(el, 'aria-required') === 'true' ||
      (html && (tag === 'input' || tag === 'select' || tag === 'textarea') && hasAttr(el, 'required'))) {
    s += ' [required]';
  }
  if (ariaToken(el, 'aria-readonly') === 'true' ||
      (html && (tag === 'input' || tag === 'textarea') && hasAttr(el, 'readonly') &&
       TEXT_ROLES.has(role))) {
    s += ' [readonly]';
  }
  return s;
}

// Fills node.value for native controls that show a value.  Returns true when
// the element's children must not be walked.
function fillControl(walk, el, tag, role, node) {
  if (tag === 'input') {
    const type = N.inputType(el);
    if (TEXT_ROLES.has(role) || VALUE_ROLES.has(role)) {
      const v = N.inputValue(el);
      node.value = type === 'password' && v ? '\u2022'.repeat(8) : v;
    }
    return true;
  }
  if (tag === 'textarea') {
    node.value = N.textareaValue(el);
    return true;
  }
  if (tag === 'select') {
    const options = N.selectOptions(el);
    if (options.length > walk.maxOptions) {
      node.states += ' [options=' + options.length + ']';
      node.value = selectedText(el);
      return true;
    }
    return false;
  }
  if (VALUE_ROLES.has(role)) {
    node.value = ariaValue(el);
    if (node.value === '' && (tag === 'progress' || tag === 'meter')) node.value = attr(el, 'value') || '';
    return tag === 'progress' || tag === 'meter';
  }
  return false;
}

function selectedText(select) {
  const sel = N.selectSelectedOptions(select);
  const parts = [];
  for (let i = 0; i < sel.length; i++) parts.push(N.optionText(sel[i]));
  return parts.join(', ');
}

function ariaValue(el) {
  const vt = attr(el, 'aria-valuetext');
  if (vt && vt.trim()) return vt.trim();
  const vn = attr(el, 'aria-valuenow');
  return vn ? vn.trim() : '';
}

// An ARIA listbox with more than maxOptions options keeps only its value
// and the option count.
function capOptions(walk, node) {
  let count = 0;
  const selected = [];
  for (const c of node.children) {
    if (typeof c !== 'string' && c.role === 'option') {
      count++;
      if (c.states.includes('[selected]')) selected.push(c.name);
    }
  }
  if (count <= walk.maxOptions) return;
  node.children = node.children.filter((c) => typeof c === 'string' || c.role !== 'option');
  node.states += ' [options=' + count + ']';
  node.value = selected.join(', ');
}

// Merges adjacent text and drops children that only repeat the name,
// bottom-up.
function finish(node) {
  const out = [];
  let text = null;
  for (const c of node.children) {
    if (typeof c === 'string') {
      text = text === null ? c : text + c;
      continue;
    }
    if (text !== null) { pushText(out, text); text = null; }
    finish(c);
    // A plain list item around a single widget adds a line and nothing else.
    if (c.role === 'listitem' && !c.wantsRef && !c.name && c.children.length === 1 &&
        typeof c.children[0] !== 'string') {
      out.push(c.children[0]);
    } else {
      out.push(c);
    }
  }
  if (text !== null) pushText(out, text);
  node.children = out;
  if (CHILDREN_PRESENTATIONAL.has(node.role) && !hasRef(node)) node.children = [];
  dropRepeatedName(node);
  if (out.length === 1 && typeof out[0] === 'string' && node.name &&
      NAME_FROM_CONTENT.has(node.role) && out[0] === node.name) {
    node.children = [];
  }
}

function hasRef(node) {
  for (const c of node.children) {
    if (typeof c !== 'string' && (c.wantsRef || hasRef(c))) return true;
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
  if (first === node.name ||
      (typeof first !== 'string' && first.role === 'caption' && !first.wantsRef &&
       first.children.length === 1 && first.children[0] === node.name)) {
    node.children.shift();
  }
}

function pushText(out, raw) {
  const t = raw.replace(/[\s\u00a0]+/g, ' ').trim();
  if (t) out.push(t);
}

