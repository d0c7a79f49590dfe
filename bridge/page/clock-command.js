// clock-command.js -- runs one command of the controlled clock
// (bridge/page/clock.js) in the main world of the main frame and of every
// frame below it whose clock this document can reach (same-origin frames;
// a cross-origin frame is skipped, the frames inside it are still
// visited).  Called as (this function)(key, cmd, arg); answers the main
// frame's state ({ wall, real, paused, fixed, now, fired, pending }) with
// frames = the number of frames that ran the command.  An error of the
// main frame's clock is thrown; a child frame's is skipped.
(function (key, cmd, arg) {
  'use strict';
  let frames = 0;
  const top = globalThis[key];
  if (!top) throw new Error('vdx-clock: not installed in this document');
  const out = top.run(cmd, arg);
  frames++;
  const visit = (w) => {
    let n = 0;
    try { n = w.length; } catch (e) { return; }
    for (let i = 0; i < n; i++) {
      let child;
      try { child = w[i]; } catch (e) { continue; }
      try {
        const c = child[key];
        if (c) { c.run(cmd, arg); frames++; }
      } catch (e) { /* cross-origin, or its clock refused: skipped */ }
      visit(child);
    }
  };
  visit(globalThis);
  out.frames = frames;
  return out;
})
