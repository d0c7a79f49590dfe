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
// field's input or change event, a transition or animation ending, focus
// moving, the pointer entering another element, a popover or details
// toggling, the window resizing: what can change a role, a name, a text
// or a visibility), or when the run is older than MAX_AGE_MS.  Without a
// batch every call has an engine of its own.  Mutations inside a shadow
// root are not observed: a run is a burst of reads on a settled page, not
// a cache to keep.
//
// A snapshot read the styles and names of every element it showed: its
// reading (a Ctx, see visibility.js) is kept under the same watch, and an
// engine made while the page has not changed since starts from it (the
// change report's checks run right after the snapshot of the action's
// outcome, and a click's locator often right after the agent's snapshot).

import { Evaluator } from './locator.js';

const MAX_AGE_MS = 2000;
const EVENTS = ['input', 'change', 'transitionend', 'animationend', 'transitioncancel', 'animationcancel',
  'focusin', 'focusout', 'mouseover', 'mouseout', 'toggle'];

let run = null;    // { id, ev, gen, watch }
let reading = null;   // { ctx, watch }: the latest snapshot's Ctx

// A watch on the page from now on: changed() tells whether it may have
// changed since (or the watch is older than MAX_AGE_MS); stop() ends it.
// The first change, or the age, ends it and calls over(w), so that what
// it guards (and the elements that holds) is let go at once.
function watch(over) {
  const w = { dirty: false };
  const at = performance.now();
  const mark = () => {
    if (w.dirty) return;
    w.dirty = true;
    w.stop();
    over(w);
  };
  const mo = new MutationObserver(mark);
  mo.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  for (const e of EVENTS) document.addEventListener(e, mark, true);
  window.addEventListener('resize', mark, true);
  const timer = setTimeout(mark, MAX_AGE_MS);
  w.changed = () => {
    if (!w.dirty && (mo.takeRecords().length > 0 || performance.now() - at > MAX_AGE_MS)) mark();
    return w.dirty;
  };
  w.stop = () => {
    clearTimeout(timer);
    mo.disconnect();
    for (const e of EVENTS) document.removeEventListener(e, mark, true);
    window.removeEventListener('resize', mark, true);
  };
  return w;
}

function end() {
  if (run !== null) {
    run.watch.stop();
    run = null;
  }
}

// The latest snapshot's Ctx while the page has not changed since, else
// null.
function readingCtx() {
  if (reading !== null && reading.watch.changed()) reading = null;
  return reading === null ? null : reading.ctx;
}

// Keeps ctx, the reading of a snapshot that just ran, for the engines
// made while the page does not change (see the module comment).
export function keepReading(ctx) {
  if (reading !== null) reading.watch.stop();
  const r = { ctx, watch: null };
  r.watch = watch(() => { if (reading === r) reading = null; });
  reading = r;
}

// The engine of batch (and its locator generator, made by makeGen(ev)):
// the run's own while the page has not changed, else a new one.  A batch
// of null or undefined is no run: a fresh engine, nothing kept.  A new
// engine starts from the latest snapshot's reading when the page has not
// changed since.
export function shared(batch, makeGen) {
  const ctx = readingCtx();
  if (batch == null) {
    const ev = new Evaluator(ctx);
    return { ev, gen: makeGen(ev) };
  }
  const id = String(batch);
  if (run !== null && (run.id !== id || run.watch.changed())) end();
  if (run === null) {
    const ev = new Evaluator(ctx);
    const r = { id, ev, gen: makeGen(ev), watch: null };
    r.watch = watch(() => { if (run === r) run = null; });
    run = r;
  }
  return { ev: run.ev, gen: run.gen };
}
