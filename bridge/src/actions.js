// actions.js -- the in-page half of acting like a user.  The host sends the
// real input events (Input.dispatch*); this file only finds targets, waits
// until they can take input, says where to press, and tells what would
// receive the press instead.  Waits are driven by animation frames and DOM
// mutations, each bounded by the timeout the host passes.
//
// actionMethods(env) returns the methods index.js adds to an instance; env
// is the instance's { refs, resolve, arrival } (arrival: arrival.js's
// methods).

import * as N from './natives.js';
import { flatParent, isElement, normalize } from './dom.js';
import { getRole } from './roles.js';
import { accessibleName } from './name.js';
import { Ctx, subtreeHiddenReason } from './visibility.js';
import { badArgument, bridgeError } from './errors.js';
import { boxBeforeFrame } from './still.js';
import { eq, findByDescription } from './ladder.js';

const DEFAULT_TIMEOUT = 30000;
const TEXT_INPUTS = new Set(['', 'text', 'search', 'email', 'url', 'tel', 'password', 'number',
  'date', 'datetime-local', 'month', 'time', 'week']);

// Resolves on the next animation frame, or after 50 ms when frames are
// throttled (a page in the background).
export function nextFrame() {
  return new Promise((resolve) => {
    let done = false;
    const fire = () => {
      if (!done) {
        done = true;
        resolve();
      }
    };
    requestAnimationFrame(fire);
    setTimeout(fire, 50);
  });
}

export function clip(s, n) {
  const t = normalize(String(s || ''));
  return t.length > n ? t.slice(0, n) + '\u2026' : t;
}

// { tag, id, class, text } of an element, for messages.
function brief(el) {
  if (!isElement(el)) return null;
  return {
    tag: N.localName(el),
    id: N.getAttribute(el, 'id') || '',
    class: N.getAttribute(el, 'class') || '',
    text: clip(el.innerText !== undefined ? el.innerText : N.textContent(el), 80),
  };
}

// The nearest ancestor (or el) that names the layer el belongs to: one
// with an id, a role of dialog/alertdialog or a fixed/sticky position.
function layerOf(el) {
  for (let n = el; isElement(n); n = flatParent(n)) {
    if (N.getAttribute(n, 'id')) return n;
    const role = N.getAttribute(n, 'role');
    if (role === 'dialog' || role === 'alertdialog') return n;
    const pos = N.computedStyle(n).position;
    if (pos === 'fixed' || pos === 'sticky') return n;
  }
  return null;
}

function composedContains(el, node) {
  for (let n = node; n; n = N.nodeType(n) === N.DOCUMENT_FRAGMENT_NODE ? N.shadowHost(n) : N.parentNode(n)) {
    if (n === el) return true;
  }
  return false;
}

// The element that receives a press at (x, y), through open shadow roots.
function hitAt(x, y) {
  let hit = document.elementFromPoint(x, y);
  while (hit && N.shadowRoot(hit)) {
    const inner = N.shadowRoot(hit).elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  return hit;
}

// null when a press at (x, y) reaches el, else what covers it.
function coverAt(el, x, y) {
  const hit = hitAt(x, y);
  if (hit && (composedContains(el, hit))) return null;
  if (hit && N.localName(hit) === 'label' && N.labelControl(hit) === el) return null;
  if (!hit) return { tag: '', id: '', class: '', text: '', outside: true };
  const info = brief(hit);
  const layer = layerOf(hit);
  if (layer && layer !== hit) info.layer = brief(layer);
  return info;
}

export function isVisible(el) {
  if (!N.isConnected(el)) return false;
  try {
    if (!N.checkVisibility(el, { visibilityProperty: true })) return false;
  } catch (e) {
    // older engines: fall through to the box check
  }
  const r = N.getBoundingClientRect(el);
  return r.width > 0 && r.height > 0;
}

// Why el is not visible, in words: what hides it or its ancestor
// (display:none, the hidden attribute, a closed <details>), else its
// visibility, else its empty box.
function whyHidden(el) {
  const why = subtreeHiddenReason(new Ctx(), el, true);
  if (why !== null) return why;
  try {
    if (!N.checkVisibility(el, { visibilityProperty: true })) return 'visibility:hidden';
  } catch (e) {
    // older engines: the box says the rest
  }
  return 'its box is empty (no width or height)';
}

function isDisabled(el) {
  try {
    if (N.matches(el, ':disabled')) return true;
  } catch (e) {
    // not a form element
  }
  for (let n = el; isElement(n); n = flatParent(n)) {
    if ((N.getAttribute(n, 'aria-disabled') || '').trim().toLowerCase() === 'true') return true;
  }
  return false;
}

function isEditable(el) {
  const tag = N.localName(el);
  if (tag === 'textarea') return !N.hasAttribute(el, 'readonly');
  if (tag === 'input') return TEXT_INPUTS.has(N.inputType(el)) && !N.hasAttribute(el, 'readonly');
  return N.isContentEditable(el) === true;
}

// Why el can never take typed text, or null: not an input of a text
// kind, a textarea or contenteditable (a link, a checkbox), which no wait
// changes.  A read-only or disabled field may change: it is waited for.
// (As Playwright's fill, which fails at once on such an element; vdx
// waited its whole timeout for "editable".)
function neverEditable(el) {
  const tag = N.localName(el);
  if (tag === 'textarea' || N.isContentEditable(el) === true) return null;
  if (tag === 'input') {
    const type = N.inputType(el);
    return TEXT_INPUTS.has(type) ? null : 'is an <input type=' + type + '>, which takes no typed text';
  }
  return 'is a <' + tag + '>, not an <input>, <textarea> or contenteditable element';
}

function inViewport(r) {
  return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
}

// How long a page may draw no frame at all before a box read twice counts
// as still (see waitActionable).
const FRAMELESS_MS = 300;

// The document's animation time: it moves when a frame begins.
function animationTime() {
  const tl = document.timeline;
  return tl ? tl.currentTime : null;
}

// True when a frame began since the animation time was t.  Two reads in
// one frame may differ by a few microseconds (the time is coarsened), a
// frame moves it by milliseconds.
function framedSince(t) {
  const now = animationTime();
  return now !== null && t !== null && Math.abs(now - t) >= 1;
}

function sameRect(a, b) {
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}

function deadlineOf(opts) {
  const t = opts && opts.timeout != null ? opts.timeout : DEFAULT_TIMEOUT;
  return { t, at: Date.now() + t };
}

// The kind of error an actionability wait that ran out of time raises, by
// what was still missing (anything else is a Timeout).
const WAIT_ERRORS = { 'is not visible': 'ElementNotVisible', 'is disabled': 'ElementNotEnabled' };

// Waits until the element of ref is visible, enabled (opts.enabled),
// editable (opts.editable) and holds still for one frame (unless
// opts.still is false: keys aim at no point), scrolling it into view.
// Holding still means the same box on both sides of a frame's start: the
// box the latest snapshot found (see still.js), when a frame has begun
// since, or else the box now and after the next frame.  A frame counts
// when the document's animation time moved between the two reads: the
// wait for a frame gives up after 50 ms (a page whose frames are
// throttled), and a box read again before any frame began says nothing of
// an animation, as a loaded machine's late frames showed (a sliding
// button taken as still).  Only after FRAMELESS_MS without any frame does
// the same box count, so a page that draws no frames (a tab in the
// background) can still be acted on.  Resolves { el, rect, stillBy }
// (stillBy: 'snapshot', 'frame' or null when not asked); rejects with
// ElementNotVisible, ElementNotEnabled or Timeout saying what was missing,
// or StaleRef when the element goes away meanwhile.
async function waitActionable(env, ref, opts) {
  const { t, at } = deadlineOf(opts);
  // opts.hidden: ms an element not visible is waited for, at most (an
  // agent's ref of a part the page hid: run FM's Checkout, moved, whose
  // old ref was the hidden payment section, waited out the whole 30 s).
  const hiddenFor = opts.hidden != null ? opts.hidden : null;
  let hiddenAt = null;
  let last = null;
  let lastTime = null;   // the animation time when last was read
  let lastAt = 0;        // and the wall time
  let reason = '';
  for (;;) {
    const el = env.resolve(ref);
    const never = opts.editable ? neverEditable(el) : null;
    if (never !== null) {
      const d = describeEl(el);
      throw bridgeError('NotEditable', ref + ' (' + (d.role || d.tag) + (d.name ? ' "' + d.name + '"' : '') + ') '
        + never, { ref, role: d.role, name: d.name, tag: d.tag });
    }
    const visible = isVisible(el);
    hiddenAt = visible ? null : hiddenAt === null ? Date.now() : hiddenAt;
    if (!visible && hiddenFor !== null && Date.now() - hiddenAt >= hiddenFor) {
      throw bridgeError('ElementNotVisible', ref + ' is not visible after ' + hiddenFor + ' ms: ' + whyHidden(el),
        { ref, reason: 'is not visible', timeout_ms: hiddenFor });
    }
    if (!visible) reason = 'is not visible';
    else if (opts.enabled && isDisabled(el)) reason = 'is disabled';
    else if (opts.editable && !isEditable(el)) reason = 'is not editable';
    else reason = '';
    if (reason) {
      last = null;
    } else {
      let r = N.getBoundingClientRect(el);
      if (!inViewport(r)) {
        el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
        r = N.getBoundingClientRect(el);
      }
      // Keys do not aim at a point: typing needs no still element.
      if (opts.still === false) return { el, rect: r, stillBy: null };
      if (last !== null && sameRect(r, last)) {
        if (framedSince(lastTime) || Date.now() - lastAt >= FRAMELESS_MS) {
          return { el, rect: r, stillBy: 'frame' };
        }
        // No frame began since last was read: keep that read.
      } else {
        if (last === null) {
          const before = boxBeforeFrame(env.seen, el);
          if (before !== undefined && sameRect(r, before)) return { el, rect: r, stillBy: 'snapshot' };
        }
        last = r;
        lastTime = animationTime();
        lastAt = Date.now();
      }
      reason = 'is still moving';
    }
    if (Date.now() >= at) {
      // The message names the action's own timeout (opts.asked), not what
      // was left of it when this wait began.
      const said = opts.asked != null ? opts.asked : t;
      const why = reason === 'is not visible' ? ': ' + whyHidden(el) : '';
      throw bridgeError(WAIT_ERRORS[reason] || 'Timeout', ref + ' ' + reason + ' after ' + said + ' ms' + why,
        { ref, reason, timeout_ms: said });
    }
    await nextFrame();
  }
}

// The options of waitActionable from a bridge call's opts (the host's
// timeout, asked and hidden: see Action:call) and the wait's own.
function waits(opts, own) {
  const o = opts || {};
  return Object.assign({ timeout: o.timeout, asked: o.asked, hidden: o.hidden }, own);
}

function describeEl(el) {
  const role = getRole(el);
  return { role, name: accessibleName(new Ctx(), el, role, false), tag: N.localName(el) };
}

// The function that gives an element its ref in refs (the one it has,
// or a new one).
export function refOfIn(refs) {
  return (el) => {
    const d = describeEl(el);
    return refs.assign(el, d.role, d.name, d.tag);
  };
}

// ----------------------------------------------------------- methods

export function actionMethods(env) {
  const { refs } = env;

  const refOf = refOfIn(refs);

  return {
    // Finds the element a plain-words description means (ladder.js).
    // { ref, by, phrase } or { miss: { description, tried, links, href, url } }.
    findByDescription(desc) {
      return findByDescription(desc, refOf);
    },

    // Waits until ref can take a press, then { x, y, role, name, tag,
    // covered, still_by } with the point in this frame's viewport: the
    // centre, or opts.position from the element's top-left corner.  covered
    // names what a press there would reach instead (opts.hit); still_by
    // says how the element was seen holding still ('snapshot' or 'frame',
    // see waitActionable).  opts.arm starts the watch for the pointer's
    // arrival (arrival.js).
    async actionPoint(ref, opts) {
      const o = opts || {};
      const { el, rect, stillBy } = await waitActionable(env, ref, waits(o, { enabled: o.enabled !== false }));
      let x;
      let y;
      if (o.position) {
        x = rect.left + Number(o.position.x || 0);
        y = rect.top + Number(o.position.y || 0);
      } else {
        const l = Math.max(rect.left, 0);
        const r = Math.min(rect.right, innerWidth);
        const t = Math.max(rect.top, 0);
        const b = Math.min(rect.bottom, innerHeight);
        x = (l + r) / 2;
        y = (t + b) / 2;
      }
      const out = Object.assign({ x, y, covered: null, still_by: stillBy }, describeEl(el));
      if (o.hit !== false) out.covered = coverAt(el, x, y);
      if (o.arm) env.arrival.armPointer();
      return out;
    },

    // With an iframe element: where its content box starts in this frame's
    // viewport, and what a press at (x, y) inside it would reach here.
    // reveal: only scroll the element into view when none of it is in
    // this viewport (a frame out of view is not drawn, and its timers
    // slow down), and say nothing of what covers it.
    frameOrigin(frameEl, x, y, reveal) {
      let r = N.getBoundingClientRect(frameEl);
      const cs = N.computedStyle(frameEl);
      const ox = () => r.left + frameEl.clientLeft + parseFloat(cs.paddingLeft || '0');
      const oy = () => r.top + frameEl.clientTop + parseFloat(cs.paddingTop || '0');
      if (reveal === true) {
        if (r.bottom <= 0 || r.right <= 0 || r.top >= innerHeight || r.left >= innerWidth) {
          frameEl.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' });
          r = N.getBoundingClientRect(frameEl);
        }
        return { x: ox(), y: oy(), covered: null };
      }
      if (ox() + x < 0 || oy() + y < 0 || ox() + x > innerWidth || oy() + y > innerHeight) {
        frameEl.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' });
        r = N.getBoundingClientRect(frameEl);
      }
      const px = ox() + x;
      const py = oy() + y;
      return { x: ox(), y: oy(), covered: coverAt(frameEl, px, py) };
    },

    // Scrolls ref into view and gives its rectangle in this viewport.
    async rect(ref, opts) {
      const { rect } = await waitActionable(env, ref, waits(opts, {}));
      return { x: rect.x, y: rect.y, width: rect.width, height: rect.height };
    },

    // Makes ref ready for typed text: waits until it is visible, enabled and
    // editable, focuses it and selects its content (opts.clear) or puts the
    // caret at its end.  { had_text }.
    async prepareType(ref, opts) {
      const o = opts || {};
      const { el } = await waitActionable(env, ref, waits(o, { enabled: true, editable: true, still: false }));
      el.focus();
      const tag = N.localName(el);
      let hadText;
      if (tag === 'input' || tag === 'textarea') {
        hadText = el.value.length > 0;
        if (o.clear) el.select();
        else {
          try {
            el.setSelectionRange(el.value.length, el.value.length);
          } catch (e) {
            // types without a selection (number, email): the caret stays
          }
        }
      } else {
        hadText = N.textContent(el).length > 0;
        const range = document.createRange();
        range.selectNodeContents(el);
        if (!o.clear) range.collapse(false);
        const sel = getSelection();
        sel.removeAllRanges();
        sel.addRange(range);
      }
      return { had_text: hadText };
    },

    // Focuses ref (for keys pressed at it).
    async focus(ref, opts) {
      const { el } = await waitActionable(env, ref, waits(opts, { still: false }));
      el.focus();
      return true;
    },

    // What fill_form needs to know: { kind, checked, multiple }.
    fieldInfo(ref) {
      const el = env.resolve(ref);
      const tag = N.localName(el);
      const role = getRole(el);
      if (tag === 'select') return { kind: 'select', multiple: N.selectMultiple(el) };
      if (tag === 'input') {
        const type = N.inputType(el);
        if (type === 'checkbox' || type === 'radio') return { kind: type, checked: N.inputChecked(el) };
        if (type === 'range') return { kind: 'slider' };
        if (type === 'file') return { kind: 'file' };
      }
      if (role === 'checkbox' || role === 'switch' || role === 'radio') {
        return { kind: role === 'radio' ? 'radio' : 'checkbox', checked: N.getAttribute(el, 'aria-checked') === 'true' };
      }
      if (role === 'slider') return { kind: 'slider' };
      return { kind: 'text' };
    },

    // { checked: true | false | 'mixed', role }.
    checkState(ref) {
      const el = env.resolve(ref);
      const role = getRole(el);
      if (N.localName(el) === 'input' && (N.inputType(el) === 'checkbox' || N.inputType(el) === 'radio')) {
        return { checked: N.inputIndeterminate(el) ? 'mixed' : N.inputChecked(el), role };
      }
      const a = (N.getAttribute(el, 'aria-checked') || N.getAttribute(el, 'aria-pressed') || '').trim();
      if (a === 'true' || a === 'false' || a === 'mixed') return { checked: a === 'mixed' ? 'mixed' : a === 'true', role };
      throw bridgeError('NotCheckable', ref + ' (' + role + ') is not a checkbox, radio or switch',
        { ref, role });
    },

    // Selects options of a <select> by value or label and fires input and
    // change.  { selected = {values} }, or NoOption with the options there
    // are.
    async selectOption(ref, values, opts) {
      const o = opts || {};
      const { el } = await waitActionable(env, ref, waits(o, { enabled: true }));
      if (N.localName(el) !== 'select') {
        throw bridgeError('NotSelect', ref + ' is a <' + N.localName(el) + '>, not a <select>; ' +
          'click it and then click the option', { ref, tag: N.localName(el) });
      }
      const options = Array.from(N.selectOptions(el));
      const picks = [];
      for (const v of values) {
        const s = String(v);
        const hit = options.find((op) => op.value === s) ||
          options.find((op) => eq(N.optionLabel(op), s) || eq(N.optionText(op), s));
        if (!hit) {
          const available = options.slice(0, 50).map((op) => ({ value: op.value, label: normalize(N.optionLabel(op)) }));
          throw bridgeError('NoOption', 'no option of ' + ref + ' has the value or label ' +
            JSON.stringify(s) + '; it has ' + options.length + ' options: ' +
            available.slice(0, 10).map((a) => JSON.stringify(a.label)).join(', ') +
            (options.length > 10 ? ', \u2026' : ''), { ref, value: s, available, option_count: options.length });
        }
        if (hit.disabled) throw bridgeError('NoOption', 'option ' + JSON.stringify(s) + ' of ' + ref + ' is disabled', { ref, value: s });
        picks.push(hit);
      }
      if (picks.length > 1 && !N.selectMultiple(el)) throw badArgument('selectOption: ' + ref + ' takes one option');
      el.focus();
      for (const op of options) op.selected = picks.includes(op);
      el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
      el.dispatchEvent(new Event('change', { bubbles: true }));
      return { selected: picks.map((op) => op.value) };
    },

    // Sets a range input (slider) to value, firing input and change.
    async setSlider(ref, value, opts) {
      const { el } = await waitActionable(env, ref, waits(opts, { enabled: true }));
      if (N.localName(el) !== 'input' || N.inputType(el) !== 'range') {
        throw bridgeError('NotSlider', ref + ' is not an <input type=range>', { ref });
      }
      el.focus();
      el.value = String(value);
      el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
      el.dispatchEvent(new Event('change', { bubbles: true }));
      return { value: el.value };
    },

    // { multiple } of the file input ref names (or that its label controls).
    fileInputInfo(ref) {
      const input = fileInputOf(env.resolve(ref), ref);
      return { multiple: N.hasAttribute(input, 'multiple') };
    },

    // The file input element itself, for the host to hold by object id.
    fileInput(ref) {
      return fileInputOf(env.resolve(ref), ref);
    },
  };
}

function fileInputOf(el, ref) {
  let input = el;
  if (N.localName(el) === 'label' && N.labelControl(el)) input = N.labelControl(el);
  if (N.localName(input) !== 'input' || N.inputType(input) !== 'file') {
    throw bridgeError('NotFileInput', ref + ' is a <' + N.localName(el) + '>, not a file input',
      { ref, tag: N.localName(el) });
  }
  return input;
}
