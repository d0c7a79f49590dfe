// still.js -- the boxes a click compares with to tell that an element
// holds still (see waitActionable in actions.js), gathered around a
// snapshot so that a click after it need not wait for a frame.
//
// An element holds still when its box is the same on both sides of a
// frame's start.  The snapshot's walk reads the boxes of some elements
// (hasBox in visibility.js); the others that got a ref have theirs read
// right after the snapshot, in background tasks of a millisecond or so
// each (any call that comes in goes first).  Each box counts once a frame
// has begun after it was read: a click then reads the box again, and the
// same box means the element held still across that frame.  The record of
// a snapshot is dropped by the next one.

import * as N from './natives.js';
import { flatParent } from './dom.js';

// Elements read per task at least, and the time a task goes on reading.
const MIN_CHUNK = 8;
const SLICE_MS = 1;

// Runs fn soon, after anything more urgent: a background task where the
// page has the Prioritized Task Scheduling API, else a timer task.  Idle
// callbacks wait for an idle period, which a host's calls in a row never
// leave: a click right after a snapshot found its element unread.
function later(fn) {
  const sched = globalThis.scheduler;
  if (sched && typeof sched.postTask === 'function') {
    sched.postTask(fn, { priority: 'background' }).catch(() => {});
  } else {
    setTimeout(fn, 0);
  }
}

// Elements read after the snapshot at most, the first in the text: a budgeted
// snapshot shows the agent its first refs only, and a whole one of a big
// page would keep the renderer busy for long.
const MAX_SAMPLED = 2000;

// The record a snapshot about to run fills: rects (element -> DOMRect,
// filled by the walk's box reads) and refEls (the first MAX_SAMPLED
// elements given a ref, see noteRef).
export function beginSeen() {
  return { rects: new WeakMap(), refEls: [], walkMark: { framed: false }, sampled: new WeakMap(),
    live: true };
}

// Notes that the running snapshot of seen gave el a ref.
export function noteRef(seen, el) {
  if (seen.refEls.length < MAX_SAMPLED) seen.refEls.push(el);
}

// Called when the snapshot of seen has run: its boxes count from the next
// frame on, and the boxes of the elements with a ref that the walk did not
// read are read in background tasks right after it, each task's counting
// from the frame after it.
export function endSeen(seen) {
  requestAnimationFrame(() => { seen.walkMark.framed = true; });
  const els = seen.refEls;
  seen.refEls = null;
  if (els.length === 0) return;
  let i = 0;
  const chunk = () => {
    if (!seen.live) return;
    const mark = { framed: false };
    const until = performance.now() + SLICE_MS;
    let n = 0;
    while (i < els.length && (n < MIN_CHUNK || (n % 16 !== 0 || performance.now() < until))) {
      const el = els[i++];
      if (seen.rects.has(el)) continue;
      n++;
      try {
        seen.sampled.set(el, { rect: N.getBoundingClientRect(el), mark });
      } catch (e) {
        // A page that fights back only costs its clicks a frame's wait.
      }
    }
    requestAnimationFrame(() => { mark.framed = true; });
    if (i < els.length) later(chunk);
  };
  later(chunk);
}

// Stops what is left of seen's box reads (a newer snapshot replaces it).
export function dropSeen(seen) {
  if (seen !== null) seen.live = false;
}

// True when an animation or transition runs on el or on an element it
// lies in (flat tree): its box may then come back to where it was, a
// period later, and only two frames in a row tell.  Movement a page script
// makes frame by frame is not seen here.
function animatedAround(el) {
  let list;
  try {
    list = document.getAnimations();
  } catch (e) {
    return true;
  }
  if (list.length === 0) return false;
  const targets = new Set();
  for (let i = 0; i < list.length; i++) {
    const effect = list[i].effect;
    if (effect && effect.target) targets.add(effect.target);
  }
  for (let n = el; n !== null; n = flatParent(n)) {
    if (targets.has(n)) return true;
  }
  return false;
}

// The box el had before a frame that has since begun, as seen's snapshot
// found it (a DOMRect), or undefined (also while an animation runs around
// el).
export function boxBeforeFrame(seen, el) {
  if (seen === null || animatedAround(el)) return undefined;
  if (seen.walkMark.framed) {
    const r = seen.rects.get(el);
    if (r !== undefined) return r;
  }
  const s = seen.sampled.get(el);
  return s !== undefined && s.mark.framed ? s.rect : undefined;
}
