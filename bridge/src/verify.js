// verify.js -- the facts the verify tools and the change report check an
// assertion against: for a Playwright locator expression, how many
// elements it matches and, for the first of them, what a web-first
// assertion reads (Playwright's element text for toHaveText, the field
// value for toHaveValue, the checked state for toBeChecked, visibility for
// toBeVisible).  Which assertion to make of them is the host's policy.

import * as N from './natives.js';
import * as X from './extra-natives.js';
import { checkKeys } from './errors.js';
import { ariaRoleName } from './roles.js';
import { accessibleName, getRole, intOption, refFor } from './facts.js';
import { isChecked, isDisabled, isVisible } from './locator.js';
import { shared } from './batch.js';
import { flatParent } from './dom.js';
import { batchOption, makeGen } from './locgen.js';

// Roles whose checked state Playwright's toBeChecked reads (aria-checked).
const CHECKABLE_ROLES = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio', 'treeitem']);

// { count, matches }: matches describes the first `limit` (default 20)
// elements expr matches as { ref, role, name, tag, text, visible, value,
// label, checked[, in_viewport][, attribute] }: text is Playwright's element text, cut at text_max
// characters (default 500); value the field's value (null for an element
// that is not an input, textarea or select), label the selected option's
// text of a select; checked true, false or "mixed" for a checkbox or
// radio (input or ARIA role), else null.  A label element stands for its
// control, as Playwright retargets it.  With viewport: true, in_viewport
// says whether part of the element's box is in the viewport (what
// toBeInViewport checks); with attribute: a name, attribute is that
// attribute's value (null when the element has none: toHaveAttribute);
// with css: a property's name, css is its computed value (toHaveCSS).
export function locatorFacts(env, expr, options) {
  const opts = options || {};
  checkKeys(opts, ['limit', 'text_max', 'batch', 'viewport', 'attribute', 'css'], 'locatorFacts');
  const attr = typeof opts.attribute === 'string' ? opts.attribute : null;
  const css = typeof opts.css === 'string' ? opts.css : null;
  const limit = intOption(opts, 'limit', 20, 0, 'locatorFacts');
  const textMax = intOption(opts, 'text_max', 500, 1, 'locatorFacts');
  const { ev, gen } = shared(batchOption(opts, 'locatorFacts'), makeGen);
  const found = gen.matches(expr);
  const matches = [];
  for (let i = 0; i < found.length && i < limit; i++) {
    const f = factsOf(env, ev, found[i], textMax);
    if (opts.viewport === true) f.in_viewport = inViewport(found[i]);
    if (attr !== null) f.attribute = N.getAttribute(found[i], attr);
    if (css !== null) f.css = N.styleValue(N.computedStyle(found[i]), css);
    matches.push(f);
  }
  return { count: found.length, matches };
}

function factsOf(env, ev, el, textMax) {
  const role = getRole(el);
  const text = ev.texts.get(el).normalized;
  const field = retarget(el);
  const out = {
    ref: refFor(ev.ctx, env.refs, el),
    role: role ? ariaRoleName(el, role) : null,
    name: accessibleName(ev.ctx, el, role, false, true),
    tag: N.localName(el),
    text: text.length > textMax ? text.slice(0, textMax) + '\u2026' : text,
    visible: isVisible(el),
    value: null,
    label: null,
    checked: null,
  };
  const tag = N.localName(field);
  if (tag === 'input') out.value = N.inputValue(field);
  else if (tag === 'textarea') out.value = N.textareaValue(field);
  else if (tag === 'select') {
    out.value = X.selectValue(field);
    const sel = N.selectSelectedOptions(field);
    if (sel.length > 0) out.label = N.optionText(sel[0]);
  }
  out.checked = checkedState(field);
  out.disabled = isDisabled(field);
  return out;
}

// Overflow values that clip an element's content to its box.
const CLIPS = new Set(['hidden', 'clip', 'scroll', 'auto']);

// True when some area of el's box shows in its frame's viewport, as an
// IntersectionObserver on the viewport sees it (Playwright's
// toBeInViewport, ratio above 0): its box cut by each ancestor that clips
// its overflow (a scrolling list, a panel) and by the viewport; an empty
// box is in no viewport.
function inViewport(el) {
  const r = N.getBoundingClientRect(el);
  let left = r.left, top = r.top, right = r.right, bottom = r.bottom;
  if (right <= left || bottom <= top) return false;
  const doc = N.ownerDocument(el);
  const root = doc && N.documentElement(doc);
  for (let a = flatParent(el); a && a !== root; a = flatParent(a)) {
    if (N.nodeType(a) !== N.ELEMENT_NODE || N.localName(a) === 'body') continue;
    const st = N.computedStyle(a);
    if (!CLIPS.has(N.styleValue(st, 'overflow-x')) && !CLIPS.has(N.styleValue(st, 'overflow-y'))) continue;
    const c = N.getBoundingClientRect(a);
    left = Math.max(left, c.left); top = Math.max(top, c.top);
    right = Math.min(right, c.right); bottom = Math.min(bottom, c.bottom);
    if (right <= left || bottom <= top) return false;
  }
  return Math.min(right, innerWidth) > Math.max(left, 0) && Math.min(bottom, innerHeight) > Math.max(top, 0);
}

// The control of a label element, else the element itself.
function retarget(el) {
  if (N.localName(el) !== 'label') return el;
  const c = N.labelControl(el);
  return c === null ? el : c;
}

function checkedState(el) {
  if (N.localName(el) === 'input' && N.getAttribute(el, 'aria-checked') === null) {
    const t = N.inputType(el);
    if (t !== 'checkbox' && t !== 'radio') return null;
    if (t === 'checkbox' && N.inputIndeterminate(el)) return 'mixed';
    return N.inputChecked(el);
  }
  if (!CHECKABLE_ROLES.has(getRole(el))) return null;
  if (N.getAttribute(el, 'aria-checked') === 'mixed') return 'mixed';
  return isChecked(el);
}
