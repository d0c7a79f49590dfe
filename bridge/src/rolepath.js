// rolepath.js -- a Playwright role locator for an element that CSS cannot
// single out, verified with the bridge's own locator engine (locator.js,
// Playwright's matching rules, open shadow roots included):
//
//   getByRole("button", { name: "Cash Deposit", exact: true })
//   getByRole("listitem").filter({ hasText: "Buy milk" }).getByRole("checkbox")
//
// The first is tried when the element has a name; a row-like element
// itself is tried by its text (getByRole("listitem").filter({ hasText:
// "Buy milk" })); the second scopes the element to the nearest row-like
// ancestor (a list item, row, tree item or
// article) picked out by its text.  No positional nth().

import { Evaluator, evaluateChain } from './locator.js';
import * as N from './natives.js';
import { accessibleName, getRole, normalize, parentOrHost, skipsText } from './facts.js';
import { parseLocator } from './locparse.js';

const ROW_ROLES = new Set(['listitem', 'row', 'treeitem', 'article']);
const UNLOCATABLE = new Set(['generic', 'none', 'presentation', 'iframe']);
const MAX_TEXT = 80;

// Finds role locators; one instance shares the locator engine's caches
// over many elements of one document.
export class RoleLocators {
  constructor() {
    this.ev = null;
  }

  // A locator expression that matches el and nothing else, or null.
  find(el) {
    const role = getRole(el);
    if (UNLOCATABLE.has(role)) return null;
    if (this.ev === null) this.ev = new Evaluator();
    const name = accessibleName(this.ev.ctx, el, role, false);
    const own = 'getByRole(' + JSON.stringify(role) +
      (name ? ', { name: ' + JSON.stringify(name) + ', exact: true })' : ')');
    const candidates = name ? [own] : [];
    // A row itself (a container the snapshot gives a ref) by its text.
    if (ROW_ROLES.has(role)) {
      for (let text of [firstText(el), this.ev.texts.get(el).normalized]) {
        text = text.slice(0, MAX_TEXT).trim();
        if (text) candidates.push('getByRole(' + JSON.stringify(role) + ').filter({ hasText: ' + JSON.stringify(text) + ' })');
      }
    }
    const row = rowOf(el);
    if (row !== null) {
      // The row's first words (a to-do's title, a first cell), else all
      // of its text.
      const texts = [firstText(row.el), this.ev.texts.get(row.el).normalized];
      for (let text of texts) {
        text = text.slice(0, MAX_TEXT).trim();
        if (!text || candidates.some((c) => c.includes(JSON.stringify(text)))) continue;
        candidates.push('getByRole(' + JSON.stringify(row.role) + ').filter({ hasText: ' +
          JSON.stringify(text) + ' }).' + own);
      }
    }
    for (const c of candidates) {
      const found = evaluateChain(this.ev, parseLocator(c));
      if (found.length === 1 && found[0] === el) return c;
    }
    return null;
  }
}

// The first text with words in it under node, in the composed tree, with
// white space normalized; '' when there is none.
function firstText(node) {
  const shadow = N.nodeType(node) === N.ELEMENT_NODE ? N.shadowRoot(node) : null;
  for (let c = N.firstChild(shadow || node); c !== null; c = N.nextSibling(c)) {
    const type = N.nodeType(c);
    if (type === N.TEXT_NODE) {
      const t = normalize(N.textContent(c) || '');
      if (t) return t;
    } else if (type === N.ELEMENT_NODE && !skipsText(c)) {
      const t = firstText(c);
      if (t) return t;
    }
  }
  return '';
}

// { el, role } of the nearest row-like ancestor of el in the composed
// tree, or null.
function rowOf(el) {
  for (let a = parentOrHost(el).parent; a !== null; a = parentOrHost(a).parent) {
    const role = getRole(a);
    if (ROW_ROLES.has(role)) return { el: a, role };
  }
  return null;
}
