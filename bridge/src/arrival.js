// arrival.js -- whether the pointer input the host sent reached this frame.
//
// The browser sends pointer input into an out-of-process frame by the
// layers it has drawn, asking the parent's renderer when it cannot tell.
// Now and then it sends the input to the <iframe> element in the parent
// instead, and the frame never sees it: a click or a hover that reports
// success and did nothing.  Here that happened to about one fresh frame in
// 150, to most frames pressed or hovered just after they were scrolled
// into view (the browser does not draw a frame out of view); a report on a
// headed Chrome whose window was covered says every press then.  (A
// minimized headless window here still got its presses.)  The release of
// a press may still reach
// the frame, but a click needs both halves on its element.
//
// So before acting in such a frame the host arms a watch here
// (actionPoint's opts.arm) and, once the input is sent, asks whether it
// arrived: for a press, its pointerdown or mousedown; for a move alone (a
// hover), any move or over event.  When it did not, nothing in this frame
// was pressed or hovered, and the host waits for the frame to be drawn
// and sends it again (see Action:mouse in lua/vdx/action.lua).  A frame
// runs moves at its next animation frame, whose acknowledgement the host
// waits for, so a hover costs no extra wait either.
//
// Only trusted events count: a page cannot answer for the browser.  The
// watch listens in the capture phase on window; a page that stops all of
// a kind's events at window's capture phase before the watch sees them
// gets its press or hover twice.

import { nextFrame } from './actions.js';

// How long input may take to arrive after the browser acknowledged it.
// In hundreds of presses here it had always arrived before the question
// did (the acknowledgement comes from the frame that took it); the wait
// is a margin, and what a missed press costs before it is sent again.
const WAIT_MS = 50;
const WAIT_MAX_MS = 2000;
const KINDS = {
  press: ['pointerdown', 'mousedown'],
  move: ['pointermove', 'mousemove', 'pointerover', 'mouseover'],
};

export function arrivalMethods() {
  let watch = null;

  function disarm() {
    if (watch) watch.off();
    watch = null;
  }

  return {
    // Starts watching for the next trusted event of each kind (press,
    // move) in this frame's window; a watch armed before is dropped.  true.
    armPointer() {
      disarm();
      const w = { seen: { press: false, move: false }, wake: null, want: null, off: null };
      const offs = [];
      for (const kind of Object.keys(KINDS)) {
        const on = (e) => {
          if (!e.isTrusted) return;
          w.seen[kind] = true;
          if (w.wake && w.want === kind) w.wake();
        };
        for (const t of KINDS[kind]) {
          addEventListener(t, on, true);
          offs.push(() => removeEventListener(t, on, true));
        }
      }
      w.off = () => {
        for (const off of offs) off();
      };
      watch = w;
      return true;
    },

    // { arrived, armed }: whether an event of opts.kind ('press', the
    // default, or 'move') reached this frame since armPointer (ref names
    // the element the input was aimed at, as every action call does; the
    // watch is the frame's), waiting up
    // to opts.wait ms (50) for one.  When none has, it waits for the next
    // two animation frames before answering, so input sent after the
    // answer meets a frame that has been drawn; the watch stays armed for
    // it.  When one has, the watch ends.  armed is false when no watch was
    // armed (a new document since).
    async pointerArrived(ref, opts) {
      const o = opts || {};
      const kind = o.kind === 'move' ? 'move' : 'press';
      const w = watch;
      if (!w) return { arrived: false, armed: false };
      if (!w.seen[kind]) {
        const ms = Math.min(Math.max(Number(o.wait) || WAIT_MS, 0), WAIT_MAX_MS);
        await new Promise((resolve) => {
          w.wake = resolve;
          w.want = kind;
          setTimeout(resolve, ms);
        });
        w.wake = null;
        w.want = null;
      }
      if (w.seen[kind]) {
        disarm();
        return { arrived: true, armed: true };
      }
      await nextFrame();
      await nextFrame();
      return { arrived: false, armed: true };
    },
  };
}
