// warm.js -- readies the snapshot code of a new document in idle time.
//
// Every document gets a fresh isolated world, and the first snapshot in it
// runs mostly unoptimized code: on the 200-card shop it costs about 45 ms
// of renderer CPU where the following ones cost about 15.  So once the main
// frame's document is parsed, its idle periods run a few throwaway partial
// snapshots (a separate instance with its own ref registry: nothing is
// kept, no ref is taken), and the agent's first snapshot runs warm.
//
// It comes in pieces, each in its own idle callback: the first walks at
// most WARM_ELEMENTS elements (a few ms even cold), the others as much of
// the page as the MCP server's default budget shows (WARM_CHARS), so on a
// 100,000-element page a piece costs what a budgeted snapshot costs, not
// a whole walk.  One budgeted walk leaves the code half warm (V8 optimizes
// a function after it has run a while); with three, a first snapshot half
// a second after load took 25 ms on the shop instead of 38, and 21 instead
// of 34 on elements-2000 (medians of 6 processes x 5 navigations,
// alternating the two builds; make bench's "1st snap, goto+0.5 s" row is
// the same measure).  The host's calls are tasks, which always go before
// idle callbacks, so a snapshot waits for one piece at most, and the
// warm-up stops for good once a real snapshot has run (the code is warm
// then).  Child frames are left alone.
//
// It starts START_DELAY_MS after the load event, not before: a snapshot
// asked for right after navigate (a script, a loop of navigate + snapshot,
// the MCP navigate's outline) gains nothing from pieces run before load (it
// ran as cold with them as without), and they cost a whole walk of the
// renderer's CPU in every document, 16% of a navigate + snapshot cycle of
// the shop (bench/cycle_ab.lua).  An agent that reads the answer and thinks
// before its first snapshot still finds the code warm.

// Elements the first piece visits.
export const WARM_ELEMENTS = 300;
// Characters of text a later piece stops at: the MCP server's default
// budget of 12,000 tokens, at four characters a token.
const WARM_CHARS = 48000;
// What each piece walks: the options of the host's own snapshot calls
// (lua/vdx/snapshot.lua builds them), so the same code paths warm up.
const FULL = { maxOptions: 10, maxChars: WARM_CHARS, fromLine: 0 };
const PIECES = [{ maxElements: WARM_ELEMENTS }, FULL, FULL, FULL];
// The warm-up waits this long after the load event, so a snapshot asked
// for right after navigate finds it not started, and stops it.
const START_DELAY_MS = 250;

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
      walk(PIECES[pieces]);
    } catch (e) {
      return; // a page that fights back only loses the warm-up
    }
    if (++pieces < PIECES.length) requestIdleCallback(piece);
  };
  const start = () => setTimeout(() => {
    if (!stopped) requestIdleCallback(piece, { timeout: 2000 });
  }, START_DELAY_MS);
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}
