// locgen.js -- the Playwright locator of one element, written the way
// Playwright's codegen writes it (single-quoted strings, relative to the
// page) and verified with the bridge's own locator engine (locator.js:
// Playwright's matching rules, open shadow roots included) to match that
// element and nothing else:
//
//   locatorFor(ref, { alternatives = 4, anchor, avoid }) ->
//     { locator, positional, note, alternatives: [{ locator, kind, count }] }
//
// (anchor: the test's run token, see anchored(); avoid: a text the locator
// is not to find the element by, see generate().)
//
// Candidates, most stable first; the first verified one is the locator,
// the next verified ones its alternatives:
//   1. the element's own: its stable test id, its role and name (exact
//      only when needed), for form fields its label and placeholder, its
//      alt text and title, its text (for an element without a useful role:
//      a message, a paragraph, a list item), its role alone;
//   2. for a card or a row, its test id or role filtered by its own text;
//      then one of its own under the nearest container that makes it unique
//      (rolepath.js): a test id ancestor, filtered by its text only when
//      the test id repeats, a row filtered by its text, a named landmark,
//      dialog or group;
//   3. its text, when its role and name exist but need a scope (the text
//      then differs from the name: a glyph, a state), and its stable id,
//      as CSS;
//   4. only when nothing else is unique: the candidate that matched it
//      among the fewest others, with .nth(i), and positional set (for a
//      check of the text every verified one holds, its place in its
//      nearest part of the page comes first: locplace.js).
// Before all of these, for an element in (or being) the only item of a
// list or table (rolepath.js soleItem): the item filtered by its text,
// and the element's own candidate within it, so the locator still holds
// once the app shows a second item; then, for an element in a named
// dialog, menu or listbox, that by its role and name and the element's
// own candidate within it (inPopup).

import * as N from './natives.js';
import { Evaluator } from './locator.js';
import { jsString, parseLocator } from './locparse.js';
import { MAX_NAME, anchoredItem, container, containersOf, isItemLike, roleExprs, soleItem } from './rolepath.js';
import { accessibleName, getRole, intOption, isStableId, parentOrHost } from './facts.js';
import { badArgument, checkKeys } from './errors.js';
import { shared } from './batch.js';
import { describedOther } from './ladder.js';
import { refOfIn } from './actions.js';
import { ownCandidates } from './owncands.js';
import { placeIn } from './locplace.js';

// What the page opens over itself and closes again: an element in one is
// located through it (inPopup), as far up as this many ancestors.
const POPUP_ROLES = new Set(['dialog', 'alertdialog', 'menu', 'listbox']);
const MAX_POPUP_DEPTH = 20;
// How many ancestors up a card or row showing the run's token is looked
// for (anchored).
export const MAX_ANCHORED = 12;

// Finds verified locators; one instance shares the locator engine's
// caches (and the counts of every expression it tried) over the elements
// of one document while it does not change.
export class LocatorGen {
  // ev: an engine to share (batch.js), or none for one of its own.
  constructor(ev) {
    this.ev = ev || null;
    // The run's token (locatorFor's anchor), for one generate() at a time.
    this.anchor = null;
    this.counts = new Map();
    // Sets of the elements of some counted expressions (otherContainers).
    this.sets = new Map();
  }

  engine() {
    if (this.ev === null) this.ev = new Evaluator();
    return this.ev;
  }

  // The elements expr matches in the document (cached per expression).
  matches(expr) {
    let m = this.counts.get(expr);
    if (m === undefined) {
      m = this.engine().chain(parseLocator(expr), document);
      this.counts.set(expr, m);
    }
    return m;
  }

  // The elements outer.inner matches (inner: { expr, chain }, parsed),
  // for a check that it matches el alone: inner run within each element
  // outer matches, which are counted once (otherContainers counted them
  // already), where the whole chain would count outer's again (a filter
  // of 200 cards by their headings, twice a click).  The same elements as
  // the whole chain's, in an order that may differ where outer's matches
  // nest: kept for the next call only when there is at most one.  An inner
  // step that works on the list as a whole (first, nth, and, or) runs the
  // whole chain instead.
  within(outer, inner) {
    const expr = outer + '.' + inner.expr;
    const known = this.counts.get(expr);
    if (known !== undefined) return known;
    if (inner.chain.steps.some((s) => LIST_STEPS.has(s.method))) return this.matches(expr);
    const ev = this.engine();
    const seen = new Set();
    const m = [];
    for (const o of this.matches(outer)) {
      for (const e of ev.chain(inner.chain, o)) {
        if (!seen.has(e)) {
          seen.add(e);
          m.push(e);
        }
      }
    }
    if (m.length <= 1) this.counts.set(expr, m);
    return m;
  }

  // The first verified locator of el that is not positional, or null.
  best(el) {
    for (const c of this.verified(el, [])) return c.locator;
    return null;
  }

  // { locator, positional, note, alternatives }: see the module comment.
  // anchor: the token of the test's run (locatorFor), or null.  avoid: a
  // text the locator is not to find el by (a check of that text would
  // hold by construction), or null: candidates that hold it come after
  // every other verified one, and before a positional locator, but the
  // one through the run's own item (anchored): another would be unique
  // only while the page holds no item of an earlier run (run AO's row,
  // checked for its own name, was its test id alone).
  generate(el, alternatives, anchor, avoid) {
    const near = [];
    const found = [];
    const held = [];
    const holds = avoidance(avoid);
    this.anchor = anchor || null;
    try {
      for (const c of this.verified(el, near)) {
        if (holds(c.locator) && !c.anchored) held.push(c);
        else found.push(c);
        if (found.length > alternatives) break;
      }
    } finally {
      this.anchor = null;
    }
    if (found.length === 0 && held.length > 0) {
      // Each verified locator finds el by the text checked: its place in
      // its part of the page, where one tells (locplace.js).
      const place = placeIn(this, el, holds);
      if (place !== null) return { ...place, alternatives: held.slice(0, alternatives) };
    }
    for (const c of held) found.push(c);
    if (found.length > 0) {
      return { locator: found[0].locator, positional: false, note: null, alternatives: found.slice(1) };
    }
    return this.positional(el, near);
  }

  // For a one-step expr whose matches are not known yet: false when it
  // does not match el, true when it matches el and one of peers as well
  // (so it is no unique locator), undefined when a search must tell.
  sharedWith(expr, el, peers) {
    if (peers === null || this.counts.has(expr)) return undefined;
    const chain = parseLocator(expr);
    if (chain.steps.length !== 1) return undefined;
    const ev = this.engine();
    const own = ev.member(chain.steps[0], el);
    if (own !== true) return own;
    for (const p of peers) {
      if (ev.member(chain.steps[0], p) === true) return true;
    }
    return undefined;
  }

  // For a one-step expr whose matches are not known yet: false when it
  // does not match el, else up to three other elements it matches (none:
  // el is its only match, which the search, run to the end, recorded);
  // undefined when a search must tell.
  othersOf(expr, el) {
    if (this.counts.has(expr)) return undefined;
    const chain = parseLocator(expr);
    if (chain.steps.length !== 1) return undefined;
    const ev = this.engine();
    const own = ev.member(chain.steps[0], el);
    if (own !== true) return own;
    const others = ev.othersMatching(chain.steps[0], el, 3);
    if (others !== undefined && others.length === 0) this.counts.set(expr, [el]);
    return others;
  }

  // Elements outer matches besides container: the two first, and the
  // nearest ancestor of each of peers it matches.
  otherContainers(outer, container, peers) {
    const m = this.matches(outer);
    const out = m.filter((x) => x !== container).slice(0, 2);
    if (peers === null || m.length <= 3) return out;
    let set = this.sets.get(outer);
    if (set === undefined) {
      set = new Set(m);
      this.sets.set(outer, set);
    }
    for (const p of peers) {
      for (let a = parentOrHost(p).parent; a !== null; a = parentOrHost(a).parent) {
        if (set.has(a)) {
          if (a !== container && !out.includes(a)) out.push(a);
          break;
        }
      }
    }
    return out;
  }

  // Whether the one-step chain is known to match one of peers inside
  // scope (so it is no unique locator there).
  peerWithin(chain, scope, peers) {
    if (peers === null || chain.steps.length !== 1) return false;
    const ev = this.engine();
    return peers.some((p) => p !== scope && N.contains(scope, p) && ev.member(chain.steps[0], p) === true);
  }

  // The candidate that matched el among the fewest others, with .nth().
  positional(el, near) {
    let base = null;
    for (const c of near) {
      if (c.count === null) {
        // Told apart by its peers: counted now that it may serve.
        const m = this.matches(c.locator);
        c.count = m.length;
        c.index = m.indexOf(el);
      }
      if (base === null || c.count < base.count) base = c;
    }
    if (base === null) {
      const expr = 'locator(' + jsString(N.localName(el)) + ')';
      const m = this.matches(expr);
      base = { locator: expr, count: m.length, index: m.indexOf(el) };
    }
    if (base.index < 0) {
      return { locator: null, positional: true, note: 'no locator reaches this element', alternatives: [] };
    }
    return {
      locator: base.locator + '.nth(' + base.index + ')',
      positional: true,
      note: 'positional: ' + base.count + ' elements match ' + base.locator +
        ' and no test id, role and name, label, text or container tells this one apart',
      alternatives: [],
    };
  }

  // Yields { locator, kind, count: 1 } for each verified candidate of el,
  // best first.  Candidates that match el among others go to near, as
  // { locator, count, index }, for a positional locator.
  *verified(el, near) {
    const seen = new Set();
    const inner = [];
    const late = [];
    // Elements a candidate matched besides el: a later one-step candidate
    // that matches el and one of these is not unique, which they tell
    // without a search of the whole document (a getByText after a
    // getByRole that matched 200 alike buttons).
    let peers = null;
    if (this.anchor !== null) {
      // The test's own data (the run's token) in a card or row around el:
      // through it first, as the next run's page holds this item's
      // likeness from every run before.
      const hit = this.anchored(el);
      if (hit !== null) {
        seen.add(hit.locator);
        hit.anchored = true;
        yield hit;
      }
    }
    const item = soleItem(el);
    if (item !== null) {
      const hit = this.inItem(el, item);
      if (hit !== null) {
        seen.add(hit.locator);
        yield hit;
      }
    }
    const popup = this.inPopup(el);
    if (popup !== null && !seen.has(popup.locator)) {
      seen.add(popup.locator);
      yield popup;
    }
    for (const c of ownCandidates(this.engine(), el)) {
      for (const expr of c.exprs) {
        const shared = this.sharedWith(expr, el, peers);
        if (shared === false) break;
        if (shared === true) {
          near.push({ locator: expr, count: null, index: null });
          inner.push(expr);
          continue;
        }
        if (peers === null) {
          // The first candidate that matches others: searched only until
          // three of them turn up (counted later, if a positional locator
          // needs it), not through the whole document.
          const others = this.othersOf(expr, el);
          if (others === false) break;
          if (others !== undefined && others.length > 0) {
            peers = others;
            near.push({ locator: expr, count: null, index: null });
            inner.push(expr);
            continue;
          }
        }
        const m = this.matches(expr);
        const index = m.indexOf(el);
        if (index < 0) break;
        if (m.length > 1 && peers === null) peers = m.filter((x) => x !== el).slice(0, 3);
        if (m.length === 1) {
          if (!seen.has(expr)) {
            seen.add(expr);
            const hit = { locator: expr, kind: c.kind, count: 1 };
            const scoped = c.scoped !== undefined && c.scoped();
            if (scoped) inner.push(expr);
            if (c.late || scoped) late.push(hit);
            else yield hit;
          }
          break;
        }
        near.push({ locator: expr, count: m.length, index });
        inner.push(expr);
      }
    }
    yield* this.self(el, seen);
    yield* this.scoped(el, inner, seen, peers);
    yield* late;
    const id = N.getAttribute(el, 'id');
    if (id && isStableId(id) && /^[A-Za-z][\w-]*$/.test(id)) {
      const expr = 'locator(' + jsString('#' + id) + ')';
      const m = this.matches(expr);
      if (m.length === 1 && m[0] === el) yield { locator: expr, kind: 'css', count: 1 };
    }
  }

  // For el in (or being) a card or a row that shows the run's token
  // (this.anchor; anchoredText): that item filtered by the text that
  // holds it, then el's own candidate within it (inItem); null when el's
  // own name or text holds the token already (it is unique by itself), or
  // the nearest such item within MAX_ANCHORED ancestors does not serve.
  anchored(el) {
    const ev = this.engine();
    const own = ev.texts.get(el).normalized;
    const role = getRole(el);
    const name = role ? accessibleName(ev.ctx, el, role, false) : '';
    if (!isItemLike(el) && (own.includes(this.anchor) || name.includes(this.anchor))) return null;
    // The nearest item that shows the token: through it, or not at all.
    const item = anchoredItem(this.engine(), el, this.anchor, true, MAX_ANCHORED);
    return item === null ? null : this.inItem(el, item);
  }

  // For el in (or being) the only item of its list (soleItem): the item
  // filtered by its text, then el's first own candidate that is unique in
  // the item, verified unique on the page; null when none serves or the
  // candidate names the item's text already.  Its own
  // locator, unique too while the item is alone, follows as an alternative.
  // With this.anchor, the item is filtered by the text that holds it first.
  inItem(el, item) {
    const ev = this.engine();
    const c = container(ev, item, item === el ? null : el, this.anchor);
    if (c === null) return null;
    let inner = '';
    if (item !== el) {
      inner = null;
      for (const cand of ownCandidates(ev, el)) {
        const expr = cand.exprs.find((e) => {
          const m = ev.chain(parseLocator(e), item);
          return m.length === 1 && m[0] === el;
        });
        if (expr !== undefined) {
          inner = '.' + expr;
          break;
        }
      }
      if (inner === null) return null;
    }
    for (const outer of c.exprs()) {
      if (!outer.includes('.filter(')) continue;
      // An own name that holds the item's text ("Done: Buy milk") tells
      // the items apart by itself: no scope needed.
      const at = outer.lastIndexOf('hasText: ');
      if (at >= 0 && inner.includes(outer.slice(at + 10, -4))) return null;
      const m = inner === '' ? this.matches(outer)
        : this.within(outer, { expr: inner.slice(1), chain: parseLocator(inner.slice(1)) });
      if (m.length === 1 && m[0] === el) return { locator: outer + inner, kind: 'container', count: 1 };
    }
    return null;
  }

  // For el inside a named dialog, menu or listbox (what the page opens
  // over itself, and closes again): that by its role and name, then el's
  // first own candidate that is unique within it, verified unique on the
  // page; null when el is in none or none serves.  The field of a dialog,
  // the option of a listbox and the item of a menu read as the user's
  // story, and hold when the page behind shows the same name (runs AV, BA
  // and BG scoped such locators by hand).
  inPopup(el) {
    const ev = this.engine();
    let popup = null;
    let n = 0;
    for (let a = parentOrHost(el).parent; a !== null && n < MAX_POPUP_DEPTH; a = parentOrHost(a).parent, n++) {
      if (POPUP_ROLES.has(getRole(a))) {
        popup = a;
        break;
      }
    }
    if (popup === null) return null;
    const role = getRole(popup);
    const name = accessibleName(ev.ctx, popup, role, false);
    if (!name || name.length > MAX_NAME) return null;
    let outer = null;
    for (const expr of roleExprs(role, name)) {
      const m = this.matches(expr);
      if (m.length === 1 && m[0] === popup) {
        outer = expr;
        break;
      }
    }
    if (outer === null) return null;
    for (const cand of ownCandidates(ev, el)) {
      for (const e of cand.exprs) {
        const within = ev.chain(parseLocator(e), popup);
        if (within.indexOf(el) < 0) break;
        if (within.length !== 1) continue;
        const m = this.within(outer, { expr: e, chain: parseLocator(e) });
        if (m.length === 1 && m[0] === el) return { locator: outer + '.' + e, kind: 'container', count: 1 };
        break;
      }
    }
    return null;
  }

  // el as a container of its own (a card, a row): its test id or row
  // role filtered by its own texts.
  *self(el, seen) {
    const c = container(this.engine(), el, null, this.anchor);
    if (c === null) return;
    for (const expr of c.exprs()) {
      const m = this.matches(expr);
      if (m.length !== 1 || m[0] !== el) continue;
      // Its own test id or role and name served already: no filter.
      if (seen.has(expr)) return;
      seen.add(expr);
      yield { locator: expr, kind: 'container', count: 1 };
    }
  }

  // The inner candidates under the containers of el, nearest first, each
  // container's locator with the best inner one that serves under it.  A
  // container whose plain locator serves is not also offered filtered.
  // peers (elements an inner candidate matched besides el, or null) rule
  // a one-step candidate out in a container that holds one it matches,
  // with no search of the container (a grid of 200 cards, each with its
  // "Add to Cart").
  *scoped(el, inner, seen, peers) {
    // A container known by its role alone (`getByRole('article')`) yields
    // to a test-id one around it that serves as well (`getByTestId(
    // 'product-card')`): the id is the team's contract, the bare role the
    // markup's structure.
    const held = [];
    let holding = true;
    for (const cand of this.scopedInOrder(el, inner, seen, peers)) {
      if (holding && BARE_ROLE.test(cand.locator)) { held.push(cand); continue; }
      if (!cand.locator.startsWith('getByTestId(')) {
        holding = false;
        yield* held.splice(0);
      }
      yield cand;
    }
    yield* held;
  }

  // scoped's candidates, nearest container first.
  *scopedInOrder(el, inner, seen, peers) {
    if (inner.length === 0) return;
    const ev = this.engine();
    const parsed = inner.map((e) => ({ expr: e, chain: parseLocator(e) }));
    // Past the nearest container that serves, two more are looked at for
    // alternatives: farther ones are larger, slower and rarely better.
    let left = Infinity;
    for (const c of containersOf(ev, el)) {
      if (left-- <= 0) return;
      // The inner locators that single el out within this container.
      const within = parsed.filter((p) => {
        if (this.peerWithin(p.chain, c.el, peers)) return false;
        const m = ev.chain(p.chain, c.el);
        return m.length === 1 && m[0] === el;
      });
      if (within.length === 0) continue;
      let first = true;
      for (const outer of c.exprs()) {
        // Another container outer matches where an inner one matches too
        // makes the pair match twice: two of them are looked into, not all,
        // and those that hold a peer (where an inner candidate is known to
        // match).
        const others = this.otherContainers(outer, c.el, peers);
        const p = within.find((q) => {
          if (others.some((o) => ev.chain(q.chain, o).some((x) => x !== el))) return false;
          const m = this.within(outer, q);
          return m.length === 1 && m[0] === el;
        });
        if (p !== undefined && !seen.has(outer + '.' + p.expr)) {
          seen.add(outer + '.' + p.expr);
          if (left > 2) left = 2;
          yield { locator: outer + '.' + p.expr, kind: 'container', count: 1 };
          if (first) break;
        }
        first = false;
      }
    }
  }
}

// The steps that work on a list as a whole, not on each element of it.
const LIST_STEPS = new Set(['first', 'last', 'nth', 'and', 'or']);

// A locator that starts with a role and no options (no name): a container
// told by its structure only.
const BARE_ROLE = /^getByRole\('[a-z]+'\)\./;

// A test of whether a locator holds text (normalized; as written in a
// JavaScript string, or as it is): a function of the locator, false for
// every one when there is no text.
function avoidance(text) {
  const t = typeof text === 'string' ? text.replace(/\s+/g, ' ').trim() : '';
  if (t === '') return () => false;
  const quoted = jsString(t).slice(1, -1);
  return (locator) => locator.includes(t) || locator.includes(quoted);
}

// The bridge method: the locator of ref's element (see the module comment).
// opts.described: the description the caller gave with ref; when it
// names another element (ladder.js describedOther), the answer's described
// says which, and no locator is generated.
export function locatorFor(env, ref, options) {
  const opts = options || {};
  checkKeys(opts, ['alternatives', 'batch', 'described', 'anchor', 'avoid'], 'locatorFor');
  if (opts.avoid !== undefined && opts.avoid !== null && typeof opts.avoid !== 'string') {
    throw badArgument('locatorFor: avoid must be a string');
  }
  const n = intOption(opts, 'alternatives', 4, 0, 'locatorFor');
  const anchor = opts.anchor === undefined || opts.anchor === null ? null : opts.anchor;
  if (anchor !== null && (typeof anchor !== 'string' || anchor.length < 4)) {
    throw badArgument('locatorFor: anchor must be a string of 4 characters or more');
  }
  const el = env.resolve(ref);
  if (opts.described !== undefined && opts.described !== null) {
    if (typeof opts.described !== 'string') throw badArgument('locatorFor: described must be a string');
    const d = describedOther(el, opts.described, refOfIn(env.refs));
    if (d !== null && d.other !== null) return { locator: null, positional: false, note: null, alternatives: [], described: d };
  }
  return shared(batchOption(opts, 'locatorFor'), makeGen).gen.generate(el, n, anchor, opts.avoid);
}

// A LocatorGen on ev (batch.js makes one per run).
export function makeGen(ev) {
  return new LocatorGen(ev);
}

// opts.batch: a string naming a run of reads that share an engine, or
// undefined.
export function batchOption(opts, what) {
  const b = opts.batch;
  if (b === undefined || b === null) return undefined;
  if (typeof b !== 'string' || b === '') throw badArgument(what + ': batch must be a non-empty string');
  return b;
}
