// locator.js -- evaluates a Playwright locator expression (see locparse.js)
// against the live document with Playwright's matching semantics:
//
// - getByRole: the role and accessible name from the snapshot's own engine
//   (getRole, accessibleName); the name matches as a case-insensitive
//   substring with white space normalized, or in full and case-sensitively
//   with exact: true, or by regex.  Elements hidden from the accessibility
//   tree are left out unless includeHidden: true.
// - getByText: the innermost elements whose element text (Playwright's,
//   see facts.js) matches; hidden elements count, as in Playwright.
// - getByLabel: controls whose aria-labelledby text, aria-label or <label>
//   text matches.  getByPlaceholder, getByAltText, getByTitle: the
//   attribute matches.  getByTestId: data-testid equals.
// - locator(css): CSS in the scope and every open shadow root under it.
// - filter({ hasText, hasNotText, has, hasNot, visible }), first(),
//   last(), nth(i), and(), or().
//
// Each step runs from every element the previous one matched (descendants
// only, as in Playwright; getByText also tests the scope element itself).

import * as N from './natives.js';
import * as X from './extra-natives.js';
import { bridgeError, checkKeys } from './errors.js';
import { idRefs, normalize } from './dom.js';
import { parseLocator } from './locparse.js';
import { ariaRoleName, mayHaveRole } from './roles.js';
import {
  Ctx, ElementText, TextCache, accessibleName, getRole, headingLevel, intOption, isHiddenForAria, parentOrHost, refFor,
  skipsText,
} from './facts.js';

// { count, refs, matches }: the number of elements the expression
// matches and, for the first max_refs of them, their refs (null for
// elements an agent cannot act on); with details = N, the first N matches
// described as { role, name, tag, text, visible, ref }, so a caller can
// tell apart matches that have no ref (assertion targets, containers).
// With act: true every match gets a ref, as Playwright acts on whatever
// its locator matches (a replay of a test's hover on a table row, which a
// snapshot gave a ref as a container).
export function locatorCount(env, expr, options) {
  const opts = options || {};
  checkKeys(opts, ['max_refs', 'details', 'act'], 'locatorCount');
  const max = intOption(opts, 'max_refs', 50, 0, 'locatorCount');
  const details = intOption(opts, 'details', 0, 0, 'locatorCount');
  const chain = parseLocator(expr);
  const ev = new Evaluator();
  const found = ev.chain(chain, document);
  const refs = [];
  for (let i = 0; i < found.length && i < Math.max(max, details); i++) {
    let ref = refFor(ev.ctx, env.refs, found[i]);
    if (ref === null && opts.act === true) {
      const el = found[i], role = getRole(el);
      ref = env.refs.assign(el, role, accessibleName(ev.ctx, el, role, false), N.localName(el));
    }
    refs.push(ref);
  }
  const out = { count: found.length, refs: refs.slice(0, max) };
  if (details > 0) {
    out.matches = [];
    for (let i = 0; i < found.length && i < details; i++) out.matches.push(describeMatch(ev, found[i], refs[i]));
  }
  return out;
}

const MATCH_TEXT = 80;

// What a match is, for a reader: its ARIA role and name, tag, the start of
// its text, whether Playwright would call it visible, and its ref or null.
export function describeMatch(ev, el, ref) {
  const role = getRole(el);
  const text = ev.texts.get(el).normalized;
  return {
    role: role ? ariaRoleName(el, role) : null,
    name: accessibleName(ev.ctx, el, role, false, true),
    tag: N.localName(el),
    text: text.length > MATCH_TEXT ? text.slice(0, MATCH_TEXT) + '\u2026' : text,
    visible: isVisible(el),
    ref: ref === undefined ? null : ref,
  };
}

export function evaluateChain(ev, chain) {
  return ev.chain(chain, document);
}

export class Evaluator {
  // ctx: a reading of the page as it is now to start from (a snapshot's,
  // see batch.js), or none.
  constructor(ctx) {
    this.ctx = ctx || new Ctx();
    this.texts = new TextCache();
    this.all = new Map();
    this.roles = new Map();
    this.roleOf = new Map();
    this.names = new Map();
  }

  // The elements a chain matches, run from base (the document, or the
  // element a `has` locator is tested against).
  chain(chain, base) {
    let cur = [base];
    for (const step of chain.steps) cur = this.step(step, cur, base);
    return cur;
  }

  step(step, cur, base) {
    const a = step.args;
    switch (step.method) {
      case 'first': return cur.slice(0, 1);
      case 'last': return cur.slice(-1);
      case 'nth': {
        const i = a[0].value < 0 ? cur.length + a[0].value : a[0].value;
        return i >= 0 && i < cur.length ? [cur[i]] : [];
      }
      case 'filter': return this.filter(cur, a[0]);
      case 'and': {
        const other = new Set(this.chain(a[0].chain, base));
        return cur.filter((e) => other.has(e));
      }
      case 'or': return sortInDocumentOrder(unique(cur.concat(this.chain(a[0].chain, base))));
      default: {
        const out = [];
        const seen = new Set();
        for (const scope of cur) {
          for (const e of this.query(step, scope)) {
            if (!seen.has(e)) {
              seen.add(e);
              out.push(e);
            }
          }
        }
        return step.method === 'locator' && a[1] ? this.filter(out, a[1]) : out;
      }
    }
  }

  query(step, scope) {
    const a = step.args;
    const opts = a[1] && a[1].kind === 'object' ? a[1].props : new Map();
    const exact = opts.has('exact') && opts.get('exact').value;
    switch (step.method) {
      case 'getByRole': return this.byRole(scope, a[0].value, opts);
      case 'getByText': return this.byText(scope, textMatcher(a[0], exact));
      case 'getByLabel': return this.byLabel(scope, textMatcher(a[0], exact));
      case 'getByPlaceholder': return this.byAttribute(scope, 'placeholder', textMatcher(a[0], exact));
      case 'getByAltText': return this.byAttribute(scope, 'alt', textMatcher(a[0], exact));
      case 'getByTitle': return this.byAttribute(scope, 'title', textMatcher(a[0], exact));
      case 'getByTestId': {
        const v = a[0];
        const m = v.kind === 'regex' ? (s) => v.value.test(s) : (s) => s === v.value;
        return this.elements(scope).filter((e) => {
          const t = N.getAttribute(e, 'data-testid');
          return t !== null && m(t);
        });
      }
      case 'locator':
        if (a[0].kind === 'locator') return this.chain(a[0].chain, scope).filter((e) => e !== scope);
        return this.css(scope, a[0]);
      default:
        throw bridgeError('LocatorSyntax', 'unsupported method ' + step.method, null);
    }
  }

  // Every element under scope, open shadow roots included, in Playwright's
  // order (a root's own elements, then its shadow roots').  Cached.
  elements(scope) {
    let list = this.all.get(scope);
    if (list === undefined) {
      list = [];
      const visit = (root) => {
        const shadows = [];
        if (N.nodeType(root) === N.ELEMENT_NODE && N.shadowRoot(root)) shadows.push(N.shadowRoot(root));
        const found = queryIn(root, '*');
        for (let i = 0; i < found.length; i++) {
          list.push(found[i]);
          const s = N.shadowRoot(found[i]);
          if (s) shadows.push(s);
        }
        for (const s of shadows) visit(s);
      };
      visit(scope);
      this.all.set(scope, list);
    }
    return list;
  }

  byRole(scope, role, opts) {
    const want = role.trim().toLowerCase();
    const ok = this.roleTest(want, opts);
    const out = [];
    for (const e of this.withRole(scope, want)) {
      if (ok(e)) out.push(e);
    }
    return out;
  }

  // The test getByRole(want, opts) puts an element of role want to.
  roleTest(want, opts) {
    const includeHidden = opts.has('includeHidden') && opts.get('includeHidden').value;
    const nameOpt = opts.get('name');
    const exact = opts.has('exact') && opts.get('exact').value;
    const nameMatch = nameOpt ? textMatcherOn(nameOpt, exact) : null;
    // The snapshot shows a frame as `iframe`, as Playwright's does, but
    // Playwright's getByRole gives an <iframe> no role: it finds none.
    if (want === 'iframe') return () => false;
    return (e) => {
      if (!includeHidden && isHiddenForAria(this.ctx, e)) return false;
      if (!statesMatch(e, want, opts)) return false;
      return !nameMatch || nameMatch(this.nameOf(e, want));
    };
  }

  // Whether the one-step locator `step` run from the document matches e,
  // read from e alone (its role and name, or its text and its children's),
  // without a search of the whole document; undefined for a step this
  // cannot tell so (the caller then runs it).
  member(step, e) {
    const test = this.memberTest(step);
    return test === undefined ? undefined : test(e);
  }

  // The test member puts an element to for step, or undefined for a step
  // it cannot tell; role is the role a getByRole step asks for.
  memberTest(step) {
    const a = step.args;
    const opts = a[1] && a[1].kind === 'object' ? a[1].props : new Map();
    if (step.method === 'getByRole' && a[0] && typeof a[0].value === 'string') {
      const want = a[0].value.trim().toLowerCase();
      const ok = this.roleTest(want, opts);
      const test = (e) => mayHaveRole(e, want) && this.roleFor(e) === want && ok(e);
      test.role = want;
      return test;
    }
    if (step.method === 'getByText') {
      const m = textMatcher(a[0], opts.has('exact') && opts.get('exact').value);
      return (e) => this.textMember(e, m);
    }
    return undefined;
  }

  // Up to limit elements of the document besides el that the one-step
  // locator step matches, in order, by a search that stops there (member
  // tells each; a role's elements are those withRole lists); undefined
  // for a step member cannot tell.
  othersMatching(step, el, limit) {
    const test = this.memberTest(step);
    if (test === undefined) return undefined;
    const out = [];
    const cands = test.role !== undefined ? this.withRole(document, test.role) : this.elements(document);
    for (const e of cands) {
      if (e !== el && test(e) && out.push(e) >= limit) break;
    }
    return out;
  }

  // The elements under scope whose role is role, in order: each element's
  // role is read once (a locator search asks for many roles in many
  // scopes), and only of the elements whose tag or role attribute may
  // give role (roles.js mayHaveRole).
  withRole(scope, role) {
    let lists = this.roles.get(scope);
    if (lists === undefined) {
      lists = new Map();
      this.roles.set(scope, lists);
    }
    let l = lists.get(role);
    if (l === undefined) {
      l = [];
      for (const e of this.elements(scope)) {
        if (mayHaveRole(e, role) && this.roleFor(e) === role) l.push(e);
      }
      lists.set(role, l);
    }
    return l;
  }

  // The role of e (cached).
  roleFor(e) {
    let r = this.roleOf.get(e);
    if (r === undefined) {
      r = getRole(e);
      this.roleOf.set(e, r);
    }
    return r;
  }

  // The accessible name of e with its role (cached).
  nameOf(e, role) {
    let n = this.names.get(e);
    if (n === undefined) {
      n = accessibleName(this.ctx, e, role, false);
      this.names.set(e, n);
    }
    return n;
  }

  // Playwright's text engine: elements whose text matches while none of
  // their children's does (the innermost), the scope element included.
  byText(scope, m) {
    const out = [];
    const cands = N.nodeType(scope) === N.ELEMENT_NODE ? [scope].concat(this.elements(scope)) : this.elements(scope);
    for (const e of cands) {
      if (this.textMember(e, m)) out.push(e);
    }
    return out;
  }

  // Whether e's text matches m while none of its children's does.
  textMember(e, m) {
    if (this.texts.skips(e) || !m(this.texts.get(e))) return false;
    for (let c = X.firstElementChild(e); c !== null; c = X.nextElementSibling(c)) {
      if (m(this.texts.get(c))) return false;
    }
    const shadow = N.shadowRoot(e);
    return !(shadow && m(this.texts.get(shadow)));
  }

  byLabel(scope, m) {
    return this.elements(scope).filter((e) => this.labels(e).some(m));
  }

  // Playwright's getElementLabels: the text of the aria-labelledby
  // elements, else aria-label, else the <label> elements of a control.
  labels(e) {
    const by = idRefs(e, 'aria-labelledby');
    if (by.length > 0) return by.map((l) => this.texts.get(l));
    const al = N.getAttribute(e, 'aria-label');
    if (al !== null && al.trim()) return [new ElementText(al)];
    const tag = N.localName(e);
    if (tag === 'input' && N.inputType(e) === 'hidden') return [];
    const labels = X.labelsOf(e, tag);
    if (!labels) return [];
    const out = [];
    for (let i = 0; i < labels.length; i++) out.push(this.texts.get(labels[i]));
    return out;
  }

  byAttribute(scope, name, m) {
    const out = [];
    for (const e of this.elements(scope)) {
      const v = N.getAttribute(e, name);
      if (v !== null && m(new ElementText(v))) out.push(e);
    }
    return out;
  }

  css(scope, v) {
    let sel = v.value;
    if (/^css=/.test(sel)) sel = sel.slice(4);
    if (/^xpath=/.test(sel) || /^\.{0,2}\//.test(sel)) return this.xpath(scope, sel.replace(/^xpath=/, ''));
    if (/^[a-z_-]+=/i.test(sel) || /(^|[^\\])>>/.test(sel)) {
      throw bridgeError('InvalidSelector', 'only CSS and XPath are supported in locator(): ' + sel, { selector: sel });
    }
    const out = [];
    const visit = (root) => {
      let found;
      try {
        found = queryIn(root, sel);
      } catch (e) {
        throw bridgeError('InvalidSelector', sel + ' (Playwright-only extensions such as :has-text(), ' +
          ':visible and >> are not supported)', { selector: sel });
      }
      for (let i = 0; i < found.length; i++) out.push(found[i]);
      if (N.nodeType(root) === N.ELEMENT_NODE && N.shadowRoot(root)) visit(N.shadowRoot(root));
      const all = queryIn(root, '*');
      for (let i = 0; i < all.length; i++) {
        const s = N.shadowRoot(all[i]);
        if (s) visit(s);
      }
    };
    visit(scope);
    return out;
  }

  xpath(scope, sel) {
    let r;
    try {
      r = X.docEvaluate(document, sel, scope, null, 7, null);
    } catch (e) {
      throw bridgeError('InvalidSelector', 'xpath ' + sel, { selector: sel });
    }
    const out = [];
    for (let i = 0; i < X.snapshotLength(r); i++) {
      const n = X.snapshotItem(r, i);
      if (N.nodeType(n) === N.ELEMENT_NODE && n !== scope) out.push(n);
    }
    return out;
  }

  filter(list, optsValue) {
    const o = optsValue.props;
    let out = list;
    if (o.has('hasText')) {
      const m = textMatcher(o.get('hasText'), false);
      out = out.filter((e) => !this.texts.skips(e) && m(this.texts.get(e)));
    }
    if (o.has('hasNotText')) {
      const m = textMatcher(o.get('hasNotText'), false);
      out = out.filter((e) => this.texts.skips(e) || !m(this.texts.get(e)));
    }
    if (o.has('has')) {
      const holds = this.holder(o.get('has').chain, out);
      out = out.filter((e) => holds(e));
    }
    if (o.has('hasNot')) {
      const holds = this.holder(o.get('hasNot').chain, out);
      out = out.filter((e) => !holds(e));
    }
    if (o.has('visible')) {
      const want = o.get('visible').value;
      out = out.filter((e) => isVisible(e) === want);
    }
    return out;
  }

  // A test of whether an element of list holds a match of inner (a
  // `has`): see HAS_SEARCHES.
  holder(inner, list) {
    if (list.length <= HAS_SEARCHES || inner.steps.length !== 1 || !SCOPE_FREE.has(inner.steps[0].method)) {
      return (e) => this.chain(inner, e).some((x) => x !== e);
    }
    // A filter of 200 cards by a heading in each searched every card's
    // elements; the ancestors of the heading's matches are the cards that
    // hold one.
    const above = new Set();
    for (const m of this.chain(inner, document)) {
      for (let a = parentOrHost(m).parent; a !== null && !above.has(a); a = parentOrHost(a).parent) above.add(a);
    }
    return (e) => above.has(e);
  }
}

// The steps whose match of an element depends on that element alone (its
// role and name, text, label, attributes), not on the scope searched: run
// from a scope they match the document's matches that lie under it.
const SCOPE_FREE = new Set(['getByRole', 'getByText', 'getByLabel', 'getByPlaceholder', 'getByAltText',
  'getByTitle', 'getByTestId']);

// Past this many elements to filter, a `has` of one scope-free step is
// run once over the document, not once under each of them.
const HAS_SEARCHES = 4;

function queryIn(root, sel) {
  const type = N.nodeType(root);
  if (type === N.DOCUMENT_NODE) return N.docQuerySelectorAll(root, sel);
  if (type === N.DOCUMENT_FRAGMENT_NODE) return N.fragQuerySelectorAll(root, sel);
  return N.querySelectorAll(root, sel);
}

// A matcher of element texts (ElementText) for a string or regex
// argument: regex on the full text, exact on the normalized text, else a
// case-insensitive substring of the normalized text.
function textMatcher(v, exact) {
  if (v.kind === 'regex') {
    const re = v.value;
    return (t) => {
      re.lastIndex = 0;
      return re.test(t.full);
    };
  }
  const want = normalize(v.value);
  if (exact) return (t) => t.normalized === want;
  const lower = want.toLowerCase();
  return (t) => t.lower.includes(lower);
}

// The same for an accessible name, its white space normalized first (a
// name keeps its no-break spaces; Playwright's role engine normalizes
// them away, for a regex too).
function textMatcherOn(v, exact) {
  const m = textMatcher(v, exact);
  return (s) => {
    const n = normalize(s);
    const t = new ElementText(n);
    t.norm = n;
    return m(t);
  };
}

// The getByRole state options (checked, disabled, expanded, pressed,
// selected, level) that are given all hold for e.
function statesMatch(e, role, opts) {
  for (const [key, v] of opts) {
    switch (key) {
      case 'checked': if (isChecked(e) !== v.value) return false; break;
      case 'disabled': if (isDisabled(e) !== v.value) return false; break;
      case 'expanded': if ((N.getAttribute(e, 'aria-expanded') === 'true' || detailsOpenSummary(e)) !== v.value) return false; break;
      case 'pressed': if ((N.getAttribute(e, 'aria-pressed') === 'true') !== v.value) return false; break;
      case 'selected': if (isSelected(e) !== v.value) return false; break;
      case 'level': {
        const lv = role === 'heading' ? headingLevel(e, role) : parseInt(N.getAttribute(e, 'aria-level') || '0', 10);
        if (lv !== v.value) return false;
        break;
      }
      default: break;
    }
  }
  return true;
}

export function isChecked(e) {
  const aria = N.getAttribute(e, 'aria-checked');
  if (N.localName(e) === 'input' && aria === null) {
    const t = N.inputType(e);
    return (t === 'checkbox' || t === 'radio') && N.inputChecked(e);
  }
  return aria === 'true';
}

// Whether e is disabled as Playwright's toBeDisabled reads it: a form
// control :disabled, or aria-disabled="true" on it or an ancestor.
export function isDisabled(e) {
  const tag = N.localName(e);
  if (['button', 'input', 'select', 'textarea', 'option', 'optgroup', 'fieldset'].includes(tag) &&
      N.matches(e, ':disabled')) return true;
  for (let n = e; n !== null && N.nodeType(n) === N.ELEMENT_NODE; n = N.parentNode(n)) {
    if (N.getAttribute(n, 'aria-disabled') === 'true') return true;
  }
  return false;
}

function isSelected(e) {
  if (N.localName(e) === 'option') return N.optionSelected(e);
  return N.getAttribute(e, 'aria-selected') === 'true';
}

function detailsOpenSummary(e) {
  const p = N.parentNode(e);
  return N.localName(e) === 'summary' && p !== null && N.nodeType(p) === N.ELEMENT_NODE &&
    N.localName(p) === 'details' && N.detailsOpen(p);
}

// Playwright's visibility: a non-empty box and visibility: visible.
export function isVisible(e) {
  try {
    if (!N.checkVisibility(e, { visibilityProperty: true })) return false;
    const r = N.getBoundingClientRect(e);
    return r.width > 0 && r.height > 0;
  } catch (err) {
    return false;
  }
}

function unique(list) {
  return Array.from(new Set(list));
}

function sortInDocumentOrder(list) {
  return list.sort((a, b) => {
    const pos = X.compareDocumentPosition(a, b);
    if (pos & 4) return -1;
    if (pos & 2) return 1;
    return 0;
  });
}
