// warm.js -- readies the snapshot code of a new document in idle time.
//
// Every document gets a fresh isolated world, and the first snapshot in it
// runs mostly unoptimized code: on the 200-card shop it costs about 50 ms
// where the following ones cost about 15.  So once the main frame's
// document has loaded, its first idle period runs one throwaway snapshot
// (a separate instance with its own ref registry: nothing is kept, no ref
// is taken), and the agent's first snapshot runs warm.  It is skipped in
// child frames and in documents over WARM_MAX_ELEMENTS elements, where the
// throwaway walk would cost more than it saves.

import * as N from './natives.js';

export const WARM_MAX_ELEMENTS = 5000;

// Schedules the warm-up: create is the bridge's instance factory.
export function scheduleWarmUp(create) {
  if (typeof requestIdleCallback !== 'function') return;
  let top = false;
  try {
    top = window.top === window;
  } catch (e) {
    top = false;
  }
  if (!top) return;
  const run = () => {
    try {
      if (N.docQuerySelectorAll(document, '*').length > WARM_MAX_ELEMENTS) return;
      create({ prefix: '' }).snapshot({});
    } catch (e) {
      // A page that fights back only loses the warm-up.
    }
  };
  const later = () => requestIdleCallback(run, { timeout: 2000 });
  if (document.readyState === 'complete') later();
  else addEventListener('load', later, { once: true });
}
