// locplace.js -- an element by its place within its nearest container
// that a locator finds alone, for a check of the text that every other
// verified locator of the element finds it by (locgen.js generate's
// avoid): `getByRole('region', { name: '18. Configuration examples',
// exact: true }).getByRole('status').nth(1)`.
//
// A check of a status's text through `getByText(thatText)` holds wherever
// the page shows the text; run FL's subscription status shared its
// section with a counter's <output>, both of role status, and the agent
// wrote `.getByRole('status').last()` by hand after the tool had
// recorded the text's own locator.  A place among a few elements of the
// same role in a named part is positional, and said so, but it checks
// what that part shows.

import { parseLocator } from './locparse.js';
import { containersOf } from './rolepath.js';
import { ownCandidates } from './owncands.js';

// A place among more than this many matches in the container is no
// better than the text's locator.
const MAX_PLACES = 4;

// { locator, positional: true, note, alternatives: [] } for el, or null:
// gen is the LocatorGen (its matches() counts on the page), holds(expr)
// whether a locator holds the text checked (neither the container's nor
// the inner one may).
export function placeIn(gen, el, holds) {
  const ev = gen.engine();
  for (const c of containersOf(ev, el)) {
    let outer = null;
    for (const e of c.exprs()) {
      if (holds(e)) continue;
      const m = gen.matches(e);
      if (m.length === 1 && m[0] === c.el) {
        outer = e;
        break;
      }
    }
    if (outer === null) continue;
    for (const cand of ownCandidates(ev, el)) {
      for (const e of cand.exprs) {
        if (holds(e)) continue;
        const within = ev.chain(parseLocator(e), c.el);
        const i = within.indexOf(el);
        if (i < 0 || within.length > MAX_PLACES) continue;
        const expr = outer + '.' + e + '.nth(' + i + ')';
        const m = gen.matches(expr);
        if (m.length !== 1 || m[0] !== el) continue;
        return {
          locator: expr,
          positional: true,
          note: 'positional: ' + within.length + ' elements match ' + e + ' in ' + outer +
            ', and every other locator finds this one by the text checked',
          alternatives: [],
        };
      }
    }
    // The nearest container a locator finds alone, or none.
    return null;
  }
  return null;
}
