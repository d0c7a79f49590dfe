// states.js -- what a snapshot line says of a node besides its role and
// name: its state flags (" [checked] [level=2] ...") and the value a
// native control or a range shows.  Part of the walk of snapshot.js.

import * as N from './natives.js';
import { ariaToken, attr, hasAttr } from './dom.js';
import { headingLevel } from './roles.js';

const CHECKABLE = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);
const VALUE_ROLES = new Set(['slider', 'spinbutton', 'progressbar', 'meter', 'scrollbar']);
const TEXT_ROLES = new Set(['textbox', 'searchbox', 'combobox']);
const FORM_TAGS = new Set(['input', 'select', 'textarea', 'button', 'fieldset', 'optgroup', 'option']);

// The state flags of a node, rendered as " [checked] [level=2] ...".  A
// plain element (see WALK_ATTRIBUTES) has no aria-* state to read.
export function statesOf(walk, el, tag, html, role, ariaDisabled, plain) {
  const aria = plain !== true;
  const form = html && FORM_TAGS.has(tag);
  let s = '';
  if (CHECKABLE.has(role)) {
    let checked = aria ? ariaToken(el, 'aria-checked') : '';
    if (html && tag === 'input' && !(aria && hasAttr(el, 'aria-checked'))) {
      checked = el.indeterminate && el.type === 'checkbox' ? 'mixed' : el.checked ? 'true' : '';
    }
    if (checked === 'true') s += ' [checked]';
    else if (checked === 'mixed') s += ' [checked=mixed]';
  }
  if (ariaDisabled || (form && el.matches(':disabled'))) s += ' [disabled]';
  if (aria && ariaToken(el, 'aria-expanded') === 'true') {
    s += ' [expanded]';
  } else if (html && tag === 'summary' && role === 'button' && N.detailsOpen(el.parentNode)) {
    s += ' [expanded]';
  }
  // Where Playwright's AI snapshot puts it.
  if (el === walk.active && tag !== 'body' && tag !== 'html') s += ' [active]';
  const level = headingLevel(el, role, plain);
  if (level) s += ' [level=' + level + ']';
  if (aria) {
    const pressed = ariaToken(el, 'aria-pressed');
    if (pressed === 'true') s += ' [pressed]';
    else if (pressed === 'mixed') s += ' [pressed=mixed]';
  }
  if (role === 'option' || role === 'tab' || role === 'treeitem' || role === 'gridcell' ||
      role === 'row' || role === 'columnheader' || role === 'rowheader') {
    const selected = html && tag === 'option' ? el.selected
      : aria && ariaToken(el, 'aria-selected') === 'true';
    if (selected) s += ' [selected]';
  }
  // A sorted column (not in Playwright's format): what a click on a
  // sortable header changed.
  if (aria && (role === 'columnheader' || role === 'rowheader')) {
    const sort = ariaToken(el, 'aria-sort');
    if (sort === 'ascending' || sort === 'descending' || sort === 'other') s += ' [sort=' + sort + ']';
  }
  const invalid = aria ? ariaToken(el, 'aria-invalid') : '';
  if ((invalid && invalid !== 'false') || (form && el.matches(':user-invalid'))) {
    s += ' [invalid]';
  }
  if ((aria && ariaToken(el, 'aria-required') === 'true') ||
      (html && (tag === 'input' || tag === 'select' || tag === 'textarea') && el.hasAttribute('required'))) {
    s += ' [required]';
  }
  if ((aria && ariaToken(el, 'aria-readonly') === 'true') ||
      (html && (tag === 'input' || tag === 'textarea') && el.hasAttribute('readonly') &&
       TEXT_ROLES.has(role))) {
    s += ' [readonly]';
  }
  return s;
}

// Fills node.value for native controls that show a value.  Returns true when
// the element's children must not be walked.
export function fillControl(walk, el, tag, role, node) {
  if (tag === 'input') {
    const type = el.type;
    if (TEXT_ROLES.has(role) || VALUE_ROLES.has(role)) {
      const v = el.value;
      node.value = type === 'password' && v ? '\u2022'.repeat(8) : v;
    }
    return true;
  }
  if (tag === 'textarea') {
    node.value = el.value;
    return true;
  }
  if (tag === 'select') {
    const options = el.options;
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
  const sel = select.selectedOptions;
  const parts = [];
  for (let i = 0; i < sel.length; i++) parts.push(sel[i].text);
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
export function capOptions(walk, node) {
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
