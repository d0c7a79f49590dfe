// waits.js -- the DOM half of page:wait_for (lua/vdx/wait.lua holds the
// policy): an element's state as Playwright's locator.waitFor judges it,
// and a change counter the host re-checks a main-world predicate against.
//
//   waitState({ ref | locator, state, timeout })   -> { count }
//   waitFor({ text | textGone | refGone, timeout }) -> true
//   changeSince(seq, { timeout })                   -> { seq, changed }
//
// All are event-driven: they look once, then again only when something
// that can change the answer happened: a DOM mutation (childList,
// attributes, characterData, in the whole document and in every open
// shadow root, those added later too), the end of a CSS
// transition or animation, or a resize of the frame (media queries).  The
// checks of one burst of events run once, on the next animation frame.
// Nothing re-checks on a timer; the only timer is the deadline.

import { badArgument, bridgeError, checkKeys } from './errors.js';
import { Evaluator, isVisible } from './locator.js';
import { parseLocator } from './locparse.js';
import { nextFrame } from './actions.js';
import * as N from './natives.js';

const STATES = ['visible', 'hidden', 'attached', 'detached'];


// The open shadow roots in root's subtree (root's own included), nested
// ones too: a closed one is the page's own.
function shadowRootsIn(root) {
  const out = [];
  const visit = (r) => {
    const type = N.nodeType(r);
    if (type === N.ELEMENT_NODE && N.shadowRoot(r)) {
      out.push(N.shadowRoot(r));
      visit(N.shadowRoot(r));
    }
    const all = type === N.DOCUMENT_NODE ? N.docQuerySelectorAll(r, '*')
      : type === N.DOCUMENT_FRAGMENT_NODE ? N.fragQuerySelectorAll(r, '*') : N.querySelectorAll(r, '*');
    for (let i = 0; i < all.length; i++) {
      const s = N.shadowRoot(all[i]);
      if (s) {
        out.push(s);
        visit(s);
      }
    }
  };
  visit(root);
  return out;
}

// Whether this document shows needle: in the body's rendered text, else
// in that of an open shadow root (a web component's, which the body's
// innerText leaves out: run BV's cart badge never showed to a wait),
// whose walk is taken only when the body's text lacks it.  roots: a
// function giving the shadow roots to read (a watch's, see watch), else
// the document is searched for them.
const UNRENDERED = new Set(['style', 'script', 'template']);
function shows(needle, roots) {
  const body = document.body || N.documentElement(document);
  if (body && String(body.innerText || N.textContent(body) || '').includes(needle)) return true;
  for (const root of roots ? roots() : shadowRootsIn(document)) {
    for (let c = N.firstChild(root); c; c = N.nextSibling(c)) {
      const t = N.nodeType(c) === N.TEXT_NODE ? N.textContent(c)
        : N.nodeType(c) === N.ELEMENT_NODE && !UNRENDERED.has(N.localName(c)) ? c.innerText : '';
      if (String(t || '').includes(needle)) return true;
    }
  }
  return false;
}

// Calls onChange (at most once per animation frame) after every event that
// can change what a wait looks at; returns the function that stops it,
// whose roots() gives the open shadow roots it observes that are still in
// the document (found once when it is armed, then as elements are added:
// a check on each change need not search the document for them again).
function watch(onChange) {
  let scheduled = false;
  const poke = () => {
    if (scheduled) return;
    scheduled = true;
    nextFrame().then(() => {
      scheduled = false;
      onChange();
    });
  };
  const OPTS = { subtree: true, childList: true, characterData: true, attributes: true };
  const watched = new WeakSet();
  const observed = [];
  // A shadow root's mutations reach no observer of the document: each is
  // observed itself, those of elements added later too.
  const observeShadows = (root) => {
    for (const s of shadowRootsIn(root)) {
      if (!watched.has(s)) {
        watched.add(s);
        observed.push(s);
        mo.observe(s, OPTS);
      }
    }
  };
  const mo = new MutationObserver((records) => {
    for (const r of records) {
      for (let i = 0; i < r.addedNodes.length; i++) {
        if (N.nodeType(r.addedNodes[i]) === N.ELEMENT_NODE) observeShadows(r.addedNodes[i]);
      }
    }
    poke();
  });
  mo.observe(document, OPTS);
  observeShadows(document);
  const events = ['transitionend', 'animationend', 'transitioncancel', 'animationcancel'];
  for (const e of events) document.addEventListener(e, poke, true);
  window.addEventListener('resize', poke);
  const stop = () => {
    mo.disconnect();
    for (const e of events) document.removeEventListener(e, poke, true);
    window.removeEventListener('resize', poke);
  };
  // (A removed component's root still holds its text: left out.)
  stop.roots = () => observed.filter((s) => N.isConnected(N.shadowHost(s)));
  return stop;
}

// The elements the target names now: the ref's element (none when it left
// the document), or every match of the locator.
function targets(env, o) {
  if (o.ref != null) {
    const hit = env.refs.lookup(String(o.ref));
    if (hit === null) throw bridgeError('UnknownRef', 'ref ' + o.ref + ' was never given out in this frame', { ref: o.ref });
    return hit.stale ? [] : [hit.element];
  }
  return new Evaluator().chain(parseLocator(String(o.locator)), document);
}

// True when els are in the state (Playwright's waitForSelector: visible
// means attached and visible; hidden means detached or not visible).
function inState(els, state) {
  if (state === 'attached') return els.length > 0;
  if (state === 'detached') return els.length === 0;
  const visible = els.length > 0 && isVisible(els[0]);
  return state === 'visible' ? visible : !visible;
}

function describe(o) {
  return o.ref != null ? 'ref ' + o.ref : 'locator ' + o.locator;
}

export function waitMethods(env) {
  let changes = null;   // { seq, waiters }, armed by the first changeSince
  // This document's bridge: a counter read in another document means nothing here.
  const doc = Math.random().toString(36).slice(2);
  return {
    // Waits until the ref's element or the locator's one match is in
    // state (default visible).  Like Playwright's locator.waitFor it is
    // strict: a locator that matches more than one element raises
    // NotUnique.  Resolves { count } (the matches at the end); rejects
    // with Timeout naming the state still false.
    waitState(opts) {
      const o = opts || {};
      checkKeys(o, ['ref', 'locator', 'state', 'timeout'], 'waitState');
      if ((o.ref == null) === (o.locator == null)) throw badArgument('waitState: give ref or locator');
      const state = o.state == null ? 'visible' : String(o.state);
      if (!STATES.includes(state)) throw badArgument('waitState: state is one of ' + STATES.join(', '));
      const t = o.timeout == null ? 30000 : Number(o.timeout);
      const at = Date.now() + t;
      const test = () => {
        const els = targets(env, o);
        if (els.length > 1) {
          throw bridgeError('NotUnique', describe(o) + ' matches ' + els.length + ' elements, and wait_for waits ' +
            'for one (Playwright\'s strict mode); narrow it or add .first()', { count: els.length });
        }
        return inState(els, state) ? { count: els.length } : null;
      };
      const now = test();
      if (now) return now;
      return new Promise((resolve, reject) => {
        let stop = null;
        let timer = 0;
        const finish = (err, value) => {
          stop();
          clearTimeout(timer);
          if (err) reject(err);
          else resolve(value);
        };
        stop = watch(() => {
          try {
            const r = test();
            if (r) finish(null, r);
          } catch (e) {
            finish(e);
          }
        });
        timer = setTimeout(() => {
          let r = null;
          try {
            r = test();
          } catch (e) {
            finish(e);
            return;
          }
          if (r) return finish(null, r);
          const n = targets(env, o).length;
          const now = n === 0 ? 'it matches nothing' : isVisible(targets(env, o)[0]) ? 'it is visible' : 'it is attached but hidden';
          finish(bridgeError('Timeout', describe(o) + ' was not ' + state + ' within ' + t + ' ms (' + now + ')',
            { timeout_ms: t, state }));
        }, Math.max(0, at - Date.now()));
      });
    },

    // Waits for text to appear (text) or go (textGone) in what this
    // document shows (shows), or for ref to leave the document or be
    // hidden (refGone).  Rejects with Timeout.
    waitFor(opts) {
      const o = opts || {};
      checkKeys(o, ['text', 'textGone', 'refGone', 'timeout'], 'waitFor');
      const t = o.timeout == null ? 30000 : Number(o.timeout);
      const at = Date.now() + t;
      // roots: the watch's shadow roots, read on each change; the first
      // look and the last (at the deadline) search the document for them,
      // so a root attached to an element already there (a custom element
      // defined late) is read at the latest then.
      const test = (roots) => {
        if (o.refGone != null) {
          const hit = env.refs.lookup(String(o.refGone));
          if (hit && !hit.stale && isVisible(hit.element)) return false;
        }
        if (o.text != null && !shows(String(o.text), roots)) return false;
        if (o.textGone != null && shows(String(o.textGone), roots)) return false;
        return true;
      };
      if (test()) return true;
      return new Promise((resolve, reject) => {
        let stop = null;
        let timer = 0;
        const done = (ok) => {
          stop();
          clearTimeout(timer);
          if (ok) return resolve(true);
          const what = o.text != null ? 'text ' + JSON.stringify(o.text) + ' did not appear'
            : o.textGone != null ? 'text ' + JSON.stringify(o.textGone) + ' did not go away'
              : 'ref ' + o.refGone + ' did not go away';
          reject(bridgeError('Timeout', what + ' within ' + t + ' ms', { timeout_ms: t }));
        };
        stop = watch(() => {
          if (test(stop.roots)) done(true);
        });
        timer = setTimeout(() => done(test()), Math.max(0, at - Date.now()));
      });
    },

    // The document's change counter: resolves { seq, doc, changed = true }
    // as soon as a change (see watch) came after seq, or with changed =
    // false at the timeout.  seq -1 only reads the counter (and starts it:
    // the first call in a document arms the watch).  doc names this
    // document: a call whose doc is another one's (the page navigated
    // since) is a change at once.
    changeSince(seq, opts) {
      const o = opts || {};
      checkKeys(o, ['timeout', 'doc'], 'changeSince');
      if (changes === null) {
        const armed = { seq: 0, waiters: new Set() };
        changes = armed;
        watch(() => {
          armed.seq += 1;
          for (const w of armed.waiters) w();
        });
      }
      const c = changes;
      const since = Number(seq);
      if (o.doc != null && o.doc !== doc) return { seq: c.seq, doc, changed: true };
      if (since < 0 || c.seq > since) return { seq: c.seq, doc, changed: since >= 0 };
      const t = o.timeout == null ? 30000 : Number(o.timeout);
      return new Promise((resolve) => {
        let timer = 0;
        const wake = () => {
          c.waiters.delete(wake);
          clearTimeout(timer);
          resolve({ seq: c.seq, doc, changed: true });
        };
        c.waiters.add(wake);
        timer = setTimeout(() => {
          c.waiters.delete(wake);
          resolve({ seq: c.seq, doc, changed: false });
        }, t);
      });
    },
  };
}
