// warm.js -- readies the snapshot code of a new document in idle time.
//
// Every document gets a fresh isolated world, and the first snapshot in it
// runs mostly unoptimized code: on the 200-card shop it costs about 50 ms
// of renderer CPU where the following ones cost about 15.  So once the main
// frame's document is parsed, its idle periods run a few throwaway partial
// snapshots (a separate instance with its own ref registry: nothing is
// kept, no ref is taken), and the agent's first snapshot runs warm.
//
// It comes in two pieces, each in its own idle callback: the first walks
// at most WARM_ELEMENTS elements (a few ms even cold), the second the
// whole page (much cheaper once the first has run).  The host's calls are
// tasks, which always go before idle callbacks, so a snapshot asked for
// right after load waits for the short piece at most, and the warm-up
// stops for good once a real snapshot has run (the code is warm then).
// Child frames are left alone.

// Elements the first piece visits; the second visits them all.
export const WARM_ELEMENTS = 300;
const PIECES = [WARM_ELEMENTS, undefined];

let stopped = false;

// Called by every real snapshot: the warm-up has nothing left to do.
export function warmUpDone() {
  stopped = true;
}

// Schedules the warm-up.  makeWalk() returns a function that takes
// snapshot options and snapshots with a registry of its own.
export function scheduleWarmUp(makeWalk) {
  if (typeof requestIdleCallback !== 'function') return;
  let top = false;
  try {
    top = window.top === window;
  } catch (e) {
    top = false;
  }
  if (!top) return;
  let walk = null;
  let pieces = 0;
  const piece = () => {
    if (stopped) return;
    try {
      if (walk === null) walk = makeWalk();
      walk({ maxElements: PIECES[pieces] });
    } catch (e) {
      return; // a page that fights back only loses the warm-up
    }
    if (++pieces < PIECES.length) requestIdleCallback(piece);
  };
  // From DOMContentLoaded on: the code only needs a representative page,
  // not the final one, and navigations usually wait for the later load.
  const start = () => requestIdleCallback(piece, { timeout: 2000 });
  if (document.readyState !== 'loading') start();
  else document.addEventListener('DOMContentLoaded', start, { once: true });
}
