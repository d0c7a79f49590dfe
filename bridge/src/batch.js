// batch.js -- one locator engine shared by a run of reads the host makes
// one after another on a page that does not change in between: the
// change report's checks after an action (a locator for a ref, then the
// facts of each candidate) each built the roles, names and texts of the
// whole document again.  A call that names a batch (a string the host
// makes up for the run) gets the run's engine while the page is the same:
//
//   shared(batch) -> { ev, gen }    (gen: locgen.js's LocatorGen on ev)
//
// The engine is dropped, and a new one made, when another batch is named,
// when the page changed since (a mutation anywhere in the document, a
// field's input or change event, a transition or animation ending: what
// can change a role, a name, a text or a visibility), or when the run is
// older than MAX_AGE_MS.  Without a batch every call has its own engine.
// Mutations inside a shadow root are not observed: a run is a burst of
// reads on a settled page, not a cache to keep.

import { Evaluator } from './locator.js';

const MAX_AGE_MS = 2000;
const EVENTS = ['input', 'change', 'transitionend', 'animationend', 'transitioncancel', 'animationcancel'];

let run = null;   // { id, ev, gen, at, dirty, stop }

function end() {
  if (run !== null) {
    run.stop();
    run = null;
  }
}

function start(id, makeGen) {
  const r = { id, ev: new Evaluator(), gen: null, at: performance.now(), dirty: false, stop: null };
  r.gen = makeGen(r.ev);
  const mark = () => { r.dirty = true; };
  const mo = new MutationObserver(mark);
  mo.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  for (const e of EVENTS) document.addEventListener(e, mark, true);
  r.stop = () => {
    mo.disconnect();
    for (const e of EVENTS) document.removeEventListener(e, mark, true);
  };
  r.records = () => mo.takeRecords().length > 0;
  return r;
}

// The engine of batch (and its locator generator, made by makeGen(ev)):
// the run's own while the page has not changed, else a new one.  A batch
// of null or undefined is no run: a fresh engine, nothing kept.
export function shared(batch, makeGen) {
  if (batch == null) {
    const ev = new Evaluator();
    return { ev, gen: makeGen(ev) };
  }
  const id = String(batch);
  if (run !== null && (run.id !== id || run.dirty || run.records() || performance.now() - run.at > MAX_AGE_MS)) end();
  if (run === null) run = start(id, makeGen);
  return { ev: run.ev, gen: run.gen };
}
