// name.js -- accessible name and description (accname 1.2 with the HTML-AAM
// rules for native elements).
//
// The computation follows the spec's steps: hidden nodes (2A), aria-labelledby
// without nested labelledby (2B), embedded control values (2C), aria-label
// (2D), host-language labels (2E), name from content including CSS
// ::before/::after (2F-2H), and the title tooltip (2I).  Ids resolve in the
// tree of the referring element (its document or shadow root).  A hidden node
// referenced by aria-labelledby or aria-describedby contributes its whole
// subtree, hidden parts included; a visible one contributes only its visible
// parts.

import * as N from './natives.js';
import { attr, collapse, elementTag, idRefs, isElement, isHTML, normalize, tagOf } from './dom.js';
import { getRole, NAME_FROM_CONTENT } from './roles.js';
import { hidesSubtree, isClosedDetailsContent, isHiddenForAria, isVisibilityHidden } from './visibility.js';

const LABELABLE = new Set(['input', 'select', 'textarea', 'button', 'meter', 'output', 'progress']);
const RANGE_ROLES = new Set(['slider', 'spinbutton', 'progressbar', 'scrollbar', 'meter']);
const TEXT_INPUT_TYPES = new Set(['text', 'search', 'email', 'tel', 'url', 'password', 'number',
  'date', 'datetime-local', 'month', 'time', 'week', '']);

// The accessible name of el.  `visible` says the caller already knows el is
// not hidden (the snapshot walk does), which saves the ancestor check.
export function accessibleName(ctx, el, role, visible) {
  const cached = ctx.names.get(el);
  if (cached !== undefined) return cached;
  const r = role || getRole(el);
  const includeHidden = visible ? false : isHiddenForAria(ctx, el);
  const state = {
    root: el,
    includeHidden,
    path: [],
    inLabelledBy: false,
    // Pure: every node reached so far was reached from the root through
    // content alone, so the content text of a node does not depend on the
    // root and is cached in ctx.contents.  taint counts the detours
    // (aria-labelledby met inside content) that would make it depend.
    pure: !includeHidden,
    taint: 0,
  };
  const name = normalize(textAlternative(ctx, el, r, state, ROOT));
  ctx.names.set(el, name);
  return name;
}

// The accessible description of el: aria-describedby, aria-description,
// then a title not already used as the name.
export function accessibleDescription(ctx, el, name) {
  const refs = idRefs(el, 'aria-describedby');
  if (refs.length > 0) {
    const text = normalize(referencedText(ctx, refs, el));
    if (text) return text;
  }
  const desc = attr(el, 'aria-description');
  if (desc && desc.trim()) return normalize(desc);
  const title = attr(el, 'title');
  if (title && normalize(title) !== name) return normalize(title);
  return '';
}

// How the current node was reached.
const ROOT = 0;        // the element being named
const REFERENCED = 1;  // directly referenced by aria-labelledby/describedby
const LABEL = 2;       // a native label of the element being named
const CONTENT = 3;     // a descendant reached while naming from content

// Text of the elements an id-list attribute names, joined by spaces.
function referencedText(ctx, refs, root) {
  const parts = [];
  for (const ref of refs) {
    const state = {
      root,
      includeHidden: isHiddenForAria(ctx, ref),
      path: [],
      inLabelledBy: true,
      pure: false,
      taint: 0,
    };
    parts.push(textAlternative(ctx, ref, getRole(ref), state, REFERENCED));
  }
  return parts.join(' ');
}

function textAlternative(ctx, el, role, state, how) {
  // The elements being computed, outermost first: a cycle gives nothing.
  if (state.path.includes(el)) return '';
  // 2A: hidden nodes contribute nothing unless hidden content is included.
  if (how === CONTENT && !state.includeHidden &&
      (hidesSubtree(ctx, el) || isVisibilityHidden(ctx, el))) {
    return '';
  }
  state.path.push(el);
  try {
    return computeSteps(ctx, el, role, state, how);
  } finally {
    state.path.pop();
  }
}

function computeSteps(ctx, el, role, state, how) {
  // 2B: aria-labelledby, not followed inside another labelledby traversal.
  if (!state.inLabelledBy) {
    const refs = idRefs(el, 'aria-labelledby');
    if (refs.length > 0) {
      if (how === CONTENT) state.taint++;
      const text = referencedText(ctx, refs, state.root);
      if (text.trim()) return text;
    }
  }
  // 2C: a control embedded in a label or referenced content gives its value.
  if (how !== ROOT && el !== state.root) {
    const value = embeddedValue(ctx, el, role);
    if (value !== null) return value;
  }
  // 2D: aria-label.
  const label = attr(el, 'aria-label');
  if (label && label.trim()) return label;
  // 2E: host-language label.
  if (role !== 'none' && role !== 'presentation') {
    const native = hostLanguageLabel(ctx, el, state, how);
    if (native) return native;
  }
  // 2F: name from content.
  if (how !== ROOT || NAME_FROM_CONTENT.has(role)) {
    const text = contentText(ctx, el, state);
    if (text.trim()) return text;
  }
  // 2I: tooltip.
  const title = attr(el, 'title');
  if (title && title.trim()) return title;
  // Text inputs fall back to their placeholder, after the title (as
  // Chromium does).
  return how === ROOT ? placeholderOf(el) : '';
}

// 2C: the value an embedded control contributes, or null when el is not
// one.
function embeddedValue(ctx, el, role) {
  const tag = isHTML(el) ? N.localName(el) : '';
  if (role === 'textbox' || role === 'searchbox') {
    if (tag === 'input') return N.inputValue(el);
    if (tag === 'textarea') return N.textareaValue(el);
    return null;
  }
  if (role === 'combobox' || role === 'listbox') {
    if (tag === 'select') {
      const opts = N.selectSelectedOptions(el);
      const parts = [];
      for (let i = 0; i < opts.length; i++) parts.push(N.optionText(opts[i]));
      return parts.join(' ');
    }
    if (tag === 'input') return N.inputValue(el);
    const selected = N.querySelectorAll(el, '[role="option"][aria-selected="true"]');
    const parts = [];
    for (let i = 0; i < selected.length; i++) {
      parts.push(accessibleName(ctx, selected[i], 'option', true));
    }
    return parts.join(' ');
  }
  if (RANGE_ROLES.has(role)) {
    const vt = attr(el, 'aria-valuetext');
    if (vt && vt.trim()) return vt;
    const vn = attr(el, 'aria-valuenow');
    if (vn && vn.trim()) return vn;
    if (tag === 'input') return N.inputValue(el);
    if (tag === 'progress' || tag === 'meter') return attr(el, 'value') || '';
    return '';
  }
  return null;
}

// 2E: names HTML gives natively: labels, alt, legend, caption, figcaption,
// button values, optgroup/option labels, svg <title>.
function hostLanguageLabel(ctx, el, state, how) {
  if (!isHTML(el)) return svgTitle(el);
  const tag = N.localName(el);
  if (tag === 'input') {
    const type = N.inputType(el);
    if (type === 'button' || type === 'submit' || type === 'reset') {
      const v = attr(el, 'value');
      if (v) return v;
      if (type === 'submit') return 'Submit';
      if (type === 'reset') return 'Reset';
    }
    if (type === 'image') {
      const alt = attr(el, 'alt');
      if (alt && alt.trim()) return alt;
      const v = attr(el, 'value');
      if (v && v.trim()) return v;
      const title = attr(el, 'title');
      return title && title.trim() ? title : 'Submit';
    }
  }
  if (how !== LABEL && LABELABLE.has(tag)) {
    const labels = ctx.labelsOf(el);
    if (labels.length > 0) {
      const parts = [];
      const pure = state.pure;
      state.pure = false; // a label may hold the element being named
      for (let i = 0; i < labels.length; i++) {
        const lab = labels[i];
        if (!state.includeHidden && isHiddenForAria(ctx, lab)) continue;
        parts.push(textAlternative(ctx, lab, 'generic', state, LABEL));
      }
      state.pure = pure;
      const text = parts.join(' ');
      if (text.trim()) return text;
    }
  }
  switch (tag) {
    case 'img': case 'area': {
      const alt = attr(el, 'alt');
      return alt && alt.trim() ? alt : '';
    }
    case 'fieldset': return childText(ctx, el, 'legend', state);
    case 'figure': return childText(ctx, el, 'figcaption', state);
    case 'table': return childText(ctx, el, 'caption', state);
    case 'optgroup': return attr(el, 'label') || '';
    case 'option': {
      const label = attr(el, 'label');
      return label && label.trim() ? label : '';
    }
    // A file input without a label is named by its button's text, as
    // Chromium names it (its title is not used).
    case 'input':
      if (how === LABEL || N.inputType(el) !== 'file') return '';
      return attr(el, 'multiple') !== null ? 'Choose Files' : 'Choose File';
    default: return '';
  }
}

// The placeholder of a text-like input or textarea, else ''.
function placeholderOf(el) {
  const tag = tagOf(el);
  if (tag === 'textarea' || (tag === 'input' && TEXT_INPUT_TYPES.has(N.inputType(el)))) {
    const ph = attr(el, 'placeholder') || attr(el, 'aria-placeholder');
    return ph && ph.trim() ? ph : '';
  }
  return '';
}

function svgTitle(el) {
  for (let c = N.firstChild(el); c; c = N.nextSibling(c)) {
    if (isElement(c) && N.localName(c) === 'title') return N.textContent(c) || '';
  }
  return '';
}

// The content text of el's first child element named tag.
function childText(ctx, el, tag, state) {
  for (let c = N.firstChild(el); c; c = N.nextSibling(c)) {
    if (isElement(c) && N.localName(c) === tag) {
      if (!state.includeHidden && (hidesSubtree(ctx, c) || isVisibilityHidden(ctx, c))) return '';
      return contentText(ctx, c, state);
    }
  }
  return '';
}

// 2F-2H: the text of el's ::before, its flat-tree children and ::after.
// Children that are not inline are set apart by spaces.
function contentText(ctx, el, state) {
  const pure = state.pure;
  if (pure) {
    const cached = ctx.contents.get(el);
    if (cached !== undefined) return cached;
  }
  const taint = state.taint;
  const pseudo = ctx.mayHavePseudo(el);
  const parts = [];
  if (pseudo) parts.push(pseudoText(ctx, el, '::before'));
  const parentHidden = !state.includeHidden && isVisibilityHidden(ctx, el);
  const tag = tagOf(el);
  const html = (tag === 'details' || tag === 'slot') && isHTML(el);
  const details = html && tag === 'details' && !state.includeHidden ? el : null;
  if (html && tag === 'slot' && N.assignedNodes(el).length > 0) {
    const assigned = N.assignedNodes(el);
    for (let i = 0; i < assigned.length; i++) contentChild(ctx, assigned[i], state, parentHidden, details, parts);
  } else {
    // Anything but a form is read directly (see elementTag in dom.js).
    const direct = tag !== 'form';
    const shadow = direct ? el.shadowRoot : N.shadowRoot(el);
    let c = shadow !== null ? shadow.firstChild : direct ? el.firstChild : N.firstChild(el);
    while (c !== null) c = contentChild(ctx, c, state, parentHidden, details, parts);
  }
  if (pseudo) parts.push(pseudoText(ctx, el, '::after'));
  const out = parts.length === 1 ? parts[0] : parts.join('');
  if (pure && state.taint === taint) ctx.contents.set(el, out);
  return out;
}

// Adds to parts the text one flat-tree child contributes to its parent's
// content.  Returns the child's next sibling.
function contentChild(ctx, child, state, parentHidden, details, parts) {
  let type = child.nodeType;
  if (type === N.TEXT_NODE) {
    // Text nodes have no named properties: read directly.
    if (!parentHidden) parts.push(child.data);
    return child.nextSibling;
  }
  // A form's controls may hide its nodeType (see elementTag in dom.js).
  if (typeof type !== 'number') type = N.nodeType(child);
  if (type !== N.ELEMENT_NODE) return child.nextSibling;
  const tag = elementTag(child);
  const direct = tag !== 'form';
  const next = direct ? child.nextSibling : N.nextSibling(child);
  if (child === state.root) return next;
  if (details !== null && isClosedDetailsContent(details, child)) return next;
  const html = (direct ? child.namespaceURI : N.namespaceURI(child)) === N.HTML_NS;
  const text = textAlternative(ctx, child, getRole(child, undefined, undefined, tag, html), state, CONTENT);
  if (!text) return next;
  const display = ctx.display(child);
  if (display === 'contents' || display.startsWith('inline')) {
    parts.push(text);
  } else {
    parts.push(' ', text, ' ');
  }
  return next;
}

// The text a ::before or ::after pseudo-element renders: its string
// content, or the alternative text after a "/" when one is given.
function pseudoText(ctx, el, which) {
  let content;
  try {
    content = N.computedStyle(el, which).content;
  } catch (e) {
    ctx.fail(el);
    return '';
  }
  if (!content || content === 'none' || content === 'normal') return '';
  const slash = topLevelSlash(content);
  const source = slash >= 0 ? content.slice(slash + 1) : content;
  let out = '';
  const re = /"((?:[^"\\]|\\.)*)"|attr\(\s*([\w-]+)\s*\)/g;
  let m;
  while ((m = re.exec(source)) !== null) {
    if (m[1] !== undefined) out += unescapeCss(m[1]);
    else out += attr(el, m[2]) || '';
  }
  return out ? collapse(out) : '';
}

function topLevelSlash(s) {
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') { i++; continue; }
    if (c === '"') quoted = !quoted;
    else if (c === '/' && !quoted) return i;
  }
  return -1;
}

function unescapeCss(s) {
  return s.replace(/\\([0-9a-fA-F]{1,6}\s?|.)/g, (all, seq) => {
    if (/^[0-9a-fA-F]/.test(seq)) return String.fromCodePoint(parseInt(seq, 16));
    return seq;
  });
}
