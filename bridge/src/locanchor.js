// locanchor.js -- the bridge methods that locate one element through
// the generator (locgen.js) from outside a snapshot's ref: a locator
// scoped to the item of the test's own run (anchoredLocator), and the
// locator of the element that holds a child frame (frameOwnerLocator).

import * as N from './natives.js';
import { anchoredItem, container } from './rolepath.js';
import { badArgument, checkKeys } from './errors.js';
import { LocatorGen, MAX_ANCHORED } from './locgen.js';

// The bridge method: expr, a locator that matches one element, scoped to
// the nearest card or row around that element that shows opts.anchor (the
// test's run token): the item filtered by the text that holds it, then
// expr, verified to match that element alone; null when expr does not
// match one element or no such item serves.  A text verified on the page
// ("4.0 (1 reviews)") is then recorded through the item this run made,
// not found in every item earlier runs left.  An expr that holds the
// anchor itself (the new item's own name) gives that item alone, filtered
// by it: the row or card this run made is there (runs BU, BY and BZ
// wanted the new product's row, not its name anywhere on the page).
export function anchoredLocator(expr, options) {
  const opts = options || {};
  checkKeys(opts, ['anchor'], 'anchoredLocator');
  const anchor = opts.anchor;
  if (typeof anchor !== 'string' || anchor.length < 4) {
    throw badArgument('anchoredLocator: anchor must be a string of 4 characters or more');
  }
  const own = expr.includes(anchor);
  const gen = new LocatorGen();
  const m = gen.matches(expr);
  if (m.length !== 1) return null;
  const el = m[0];
  const ev = gen.engine();
  const item = anchoredItem(ev, el, anchor, false, MAX_ANCHORED, own);
  const c = item === null ? null : container(ev, item, own ? null : el, anchor);
  if (c === null) return null;
  for (const outer of c.exprs()) {
    if (!outer.includes('.filter(') || (own && !outer.includes(anchor))) continue;
    const whole = own ? outer : outer + '.' + expr;
    const hit = gen.matches(whole);
    if (hit.length === 1 && (own ? hit[0] === item : hit[0] === el)) return whole;
  }
  return null;
}

// The locator of the iframe (or frame) element that holds the child frame
// the host knows as key ("f3"), as locatorFor gives it; null when no
// owner in this document has that key (it was never snapshotted here).
export function frameOwnerLocator(env, key) {
  const gen = new LocatorGen();
  for (const el of gen.engine().elements(document)) {
    const tag = N.localName(el);
    if ((tag === 'iframe' || tag === 'frame') && env.frameKeys.get(el) === key) return gen.generate(el, 0);
  }
  return null;
}
