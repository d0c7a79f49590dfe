// owncands.js -- the candidates of an element's own locator, best first
// (locgen.js tries them on the page, alone and under containers): its
// stable test id, its role and name (exact only when needed), for a form
// field its label and placeholder, its alt text and title, its text, its
// role alone.

import * as N from './natives.js';
import { jsString } from './locparse.js';
import { MAX_NAME, container, inNamedScope, isLive, roleExpr, roleExprs } from './rolepath.js';
import { TEST_ID_ATTRIBUTES, accessibleName, getRole, isStableId, normalize } from './facts.js';

const UNLOCATABLE = new Set(['generic', 'none', 'presentation', 'iframe']);
const FIELD_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'checkbox', 'radio', 'switch', 'slider',
  'spinbutton', 'listbox']);
const FIELD_TAGS = new Set(['input', 'select', 'textarea']);
const ALT_TAGS = new Set(['img', 'area', 'input']);
const MAX_TEXT = 120;
const LEAD = 60;
const SIMPLE_VALUE = /^[^"'\\\n\r]{1,120}$/;
// Tags rare enough on a page, and named for what they show, to locate
// their element by within a container (`….locator('output')`): a value
// that an output shows has no role or name of its own to go by (runs EZ
// and FD wrote a section's counter as getByText('2') by hand).
const SHOWN_TAGS = new Set(['output', 'progress', 'meter']);

// A name that ends in a count in brackets: its words before it.
const COUNTED = /^(.*[^\s(\[])\s*([(\[])\d+[)\]]$/;

// The own candidates of el, best first: [{ kind, exprs, late, scoped }],
// where exprs is a ladder (the plain form, then the exact one when the
// plain one matches others too), late ones rank after the scoped
// candidates, and those whose scoped() is true too, and are tried within
// containers.
export function ownCandidates(ev, el) {
  const out = [];
  const tag = N.localName(el);
  const role = getRole(el);
  const locatable = role && !UNLOCATABLE.has(role);
  const tid = N.getAttribute(el, 'data-testid');
  if (tid && isStableId(tid)) out.push({ kind: 'test-id', exprs: ['getByTestId(' + jsString(tid) + ')'] });
  for (const a of TEST_ID_ATTRIBUTES) {
    const v = N.getAttribute(el, a);
    if (a !== 'data-testid' && v && isStableId(v) && SIMPLE_VALUE.test(v)) {
      out.push({ kind: 'test-id', exprs: ['locator(' + jsString('[' + a + '="' + v + '"]') + ')'] });
    }
  }
  const name = locatable ? accessibleName(ev.ctx, el, role, false) : '';
  if (name && name.length <= MAX_NAME) {
    // A count in the name ("Cart (2)", "Inbox (13)") changes as the test
    // adds to it, and with what earlier runs left: the words before it
    // first (getByRole's name matches a substring).
    const counted = COUNTED.exec(normalize(name));
    if (counted !== null) {
      // Then the whole name with any count, when the words alone match
      // another element ("Carts help").
      const words = counted[1].replace(/[.*+?^${}()|[\]\\/]/g, '\\$&').replace(/ /g, '\\s*');
      const bracket = counted[2] === '(' ? '\\(\\d+\\)' : '\\[\\d+\\]';
      const exprs = [roleExpr(role, counted[1], false)];
      // (No quote in a regex: the scans of a written test read quotes as strings.)
      if (!/['"`]/.test(words)) exprs.push('getByRole(' + jsString(role) + ', { name: /^' + words + '\\s*' + bracket + '$/ })');
      out.push({ kind: 'role', exprs });
    }
    out.push({ kind: 'role', exprs: roleExprs(role, name) });
  }
  if (FIELD_TAGS.has(tag) || FIELD_ROLES.has(role)) {
    // The name the label gives, when it has one: a label that wraps a
    // select also holds the options' text, which getByLabel need not spell.
    const labels = ev.labels(el).map((l) => l.normalized);
    for (const t of name && labels.length > 0 ? [name] : labels) {
      if (t && t.length <= MAX_NAME) out.push({ kind: 'label', exprs: textual('getByLabel', t) });
    }
  }
  attributeCandidate(out, el, 'placeholder', 'getByPlaceholder', 'placeholder');
  if (ALT_TAGS.has(tag)) attributeCandidate(out, el, 'alt', 'getByAltText', 'alt-text');
  attributeCandidate(out, el, 'title', 'getByTitle', 'title');
  // The bare role, inside a named part of the page, after that part's
  // scope (scoped(): it is one of the inner candidates there too; asked
  // only of a bare role that is unique, seldom reached).
  const bare = locatable ? { kind: 'role', exprs: [roleExpr(role)], scoped: () => inNamedScope(ev, el) } : null;
  // A live region's text is the page's state now ("3" in a counter's
  // output): its role comes before it, and it ranks late (run EZ's
  // counter was getByText('3', { exact: true })).
  const live = bare !== null && isLive(el);
  // The tag, after the text of an element whose text is not the page's
  // state, before it where it is (an output's).
  const byTag = SHOWN_TAGS.has(tag) ? { kind: 'css', exprs: ['locator(' + jsString(tag) + ')'], late: true } : null;
  if (live) out.push(bare);
  if (live && byTag !== null) out.push(byTag);
  // A card's or a row's whole text is a poor name: it is filtered by its
  // first texts instead (see self).
  if (!FIELD_TAGS.has(tag) && container(ev, el, null) === null) {
    const text = ev.texts.get(el).normalized;
    // Text that tells apart an element whose role and name do not is
    // text other than its name (an icon's glyph, a state): scoping the
    // name comes first.
    if (text && text.length <= MAX_TEXT) {
      out.push({ kind: 'text', exprs: textual('getByText', text), late: live || (!!name && text !== name) });
    } else if (text) {
      // A long message by its first words: getByText matches a substring.
      out.push({ kind: 'text', exprs: ['getByText(' + jsString(leadingWords(text)) + ')'], late: live || !!name });
    }
  }
  if (bare !== null && !live) out.push(bare);
  if (byTag !== null && !live) out.push(byTag);
  return out;
}

// The first words of text, at most LEAD characters, cut between words.
function leadingWords(text) {
  const cut = text.slice(0, LEAD + 1);
  const space = cut.lastIndexOf(' ');
  return (space > LEAD / 2 ? cut.slice(0, space) : cut.slice(0, LEAD)).trim();
}

function textual(method, text) {
  return [method + '(' + jsString(text) + ')', method + '(' + jsString(text) + ', { exact: true })'];
}

function attributeCandidate(out, el, attribute, method, kind) {
  const v = N.getAttribute(el, attribute);
  const t = v === null ? '' : normalize(v);
  if (t && t.length <= MAX_NAME) out.push({ kind, exprs: textual(method, t) });
}
