// arrival.js -- whether a press the host sent began in this frame.
//
// The browser sends a press into an out-of-process frame by the layers it
// has drawn, asking the parent's renderer when it cannot tell.  Now and
// then it sends the press to the <iframe> element in the parent instead,
// and the frame never sees it: a click that reports success and did
// nothing.  Here that happened to about one fresh frame in 150, to nearly
// every frame clicked just after it was scrolled into view (the browser
// does not draw a frame out of view), and to every press while a tab is
// not drawn.  The release may still reach the frame, but a click needs
// both halves on its element.
//
// So before pressing in such a frame the host arms a watch here
// (actionPoint's opts.arm) and, once the press is sent, asks whether its
// pointerdown or mousedown arrived; when neither did, nothing in this
// frame was pressed, and the host waits for the frame to be drawn and
// presses again (see Action:mouse in lua/vdx/actions.lua).
//
// Only trusted events count: a page cannot answer for the browser.  The
// watch listens in the capture phase on window; a page that stops both
// events at window's capture phase before the watch sees them is pressed
// twice.

import { nextFrame } from './actions.js';

// How long a press may take to arrive after the browser acknowledged it.
// In hundreds of presses here it had always arrived before the question
// did (the acknowledgement comes from the frame that took it); the wait
// is a margin, and what a missed press costs before it is sent again.
const WAIT_MS = 50;
const WAIT_MAX_MS = 2000;
const EVENTS = ['pointerdown', 'mousedown'];

export function arrivalMethods() {
  let watch = null;

  function disarm() {
    if (watch) watch.off();
    watch = null;
  }

  return {
    // Starts watching for the next trusted pointerdown or mousedown in
    // this frame's window (not moves: a frame runs them at its next
    // animation frame, which a frame still loading its styles does not
    // have); a watch armed before is dropped.  true.
    armPointer() {
      disarm();
      const w = { seen: false, wake: null, off: null };
      const on = (e) => {
        if (!e.isTrusted) return;
        w.seen = true;
        if (w.wake) w.wake();
      };
      w.off = () => {
        for (const t of EVENTS) removeEventListener(t, on, true);
      };
      for (const t of EVENTS) addEventListener(t, on, true);
      watch = w;
      return true;
    },

    // { arrived, armed }: whether an event reached this frame since
    // armPointer, waiting up to opts.wait ms (50) for one.  When none has,
    // it waits for the next two animation frames before answering, so a
    // press sent after the answer meets a frame that has been drawn; the
    // watch stays armed for it.  When one has, the watch ends.  armed is
    // false when no watch was armed (a new document since).
    async pointerArrived(opts) {
      const w = watch;
      if (!w) return { arrived: false, armed: false };
      if (!w.seen) {
        const o = opts || {};
        const ms = Math.min(Math.max(Number(o.wait) || WAIT_MS, 0), WAIT_MAX_MS);
        await new Promise((resolve) => {
          w.wake = resolve;
          setTimeout(resolve, ms);
        });
        w.wake = null;
      }
      if (w.seen) {
        disarm();
        return { arrived: true, armed: true };
      }
      await nextFrame();
      await nextFrame();
      return { arrived: false, armed: true };
    },
  };
}
