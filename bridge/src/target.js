// target.js -- the one element a structure query starts from when the
// host names it by a Playwright locator or by a text instead of a ref
// (targetRef).  It must be exactly one element: none or several is an
// error that says how many, so the agent narrows it.  The element gets a
// ref, whatever the snapshot would give it, so the answer can name it.

import * as N from './natives.js';
import { bridgeError, badArgument, checkKeys } from './errors.js';
import { parseLocator } from './locparse.js';
import { Evaluator, describeMatch, isVisible } from './locator.js';
import { accessibleName, childElements, getRole, isSkipped, normalize } from './facts.js';

// Matches described in a NotUnique error.
const SHOWN_MATCHES = 5;

// { ref, role, name, tag } of the one element opts names: opts.locator, a
// Playwright locator expression, or opts.text, the smallest visible
// elements whose text holds it (case-insensitive, white space collapsed).
export function targetRef(env, opts) {
  checkKeys(opts || {}, ['locator', 'text'], 'targetRef');
  const { locator, text } = opts || {};
  if ((locator == null) === (text == null)) throw badArgument('targetRef: give one of locator or text');
  const ev = new Evaluator();
  let found;
  let what;
  if (locator != null) {
    if (typeof locator !== 'string') throw badArgument('targetRef: locator must be a string');
    found = ev.chain(parseLocator(locator), document);
    what = 'locator ' + locator;
  } else {
    if (typeof text !== 'string' || normalize(text) === '') throw badArgument('targetRef: text must be a non-empty string');
    found = smallestWithText(ev, normalize(text).toLowerCase());
    what = 'text ' + JSON.stringify(text);
  }
  if (found.length !== 1) {
    const matches = found.slice(0, SHOWN_MATCHES).map((el) => describeMatch(ev, el, env.refs.peek(el)));
    const listed = matches.map((m) => (m.role || '(no role)') + (m.name ? ' ' + JSON.stringify(m.name) : '') +
      ' <' + m.tag + '>' + (m.ref ? ' [ref=' + m.ref + ']' : '')).join('; ');
    throw bridgeError('NotUnique', what + ' matches ' + found.length + ' elements; it must match exactly one' +
      (listed ? ' (' + (found.length > SHOWN_MATCHES ? 'the first ' + SHOWN_MATCHES + ': ' : '') + listed + ')' : ''),
      { count: found.length, matches, [locator != null ? 'locator' : 'text']: locator != null ? locator : text });
  }
  const el = found[0];
  const role = getRole(el);
  const name = accessibleName(ev.ctx, el, role, false);
  const tag = N.localName(el);
  return { ref: env.refs.assign(el, role, name, tag), role, name, tag };
}

// The visible elements under body whose text holds needle and none of
// whose children does, in document order (open shadow roots entered).
function smallestWithText(ev, needle) {
  const out = [];
  const visit = (el) => {
    const kids = childElements(el);
    let inChild = false;
    for (let i = 0; i < kids.length; i++) {
      const k = kids[i];
      if (isSkipped(k) || !ev.texts.get(k).lower.includes(needle)) continue;
      inChild = true;
      visit(k);
    }
    if (!inChild && el !== document.body && isVisible(el)) out.push(el);
  };
  if (document.body && ev.texts.get(document.body).lower.includes(needle)) visit(document.body);
  return out;
}
