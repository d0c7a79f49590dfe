// The snapshot's size budget: what the walk spends of it, and where the
// text may be cut safely (snapshot.js walks; this counts).
import { MAX_RUN } from './text.js';

// Lines at the end of a walk stopped early that may differ from the whole
// walk's (the open ancestors' last lines, see safeCut).
const TAIL = 3;

// The index of the line at which the host's cut (whole lines from
// fromLine while they fit in maxChars; see apply_budget in the core)
// stops, when that line and all before it are the whole walk's: a walk
// stopped early differs from the whole one only in the last lines of its
// open ancestors (a node with no child left, or one text child, prints on
// one line; the last text may be partial), which are the last TAIL lines,
// and in a listbox's option count.  -1 when the cut is not that safe.
// The host counts bytes and indents frames, so it cuts at this line or
// before.
export function safeCut(out, budget) {
  const lines = out.lines;
  let used = 0;
  let last = -1;
  for (let i = budget.fromLine; i < lines.length; i++) {
    const n = lines[i].length + 1;
    if (used + n > budget.cutChars && used > 0) {
      last = i;
      break;
    }
    used += n;
  }
  if (last < 0 || last > lines.length - 1 - TAIL || out.openListbox <= last) return -1;
  return last;
}

// Counts lines and characters the walk adds to the text, by estimate, and
// stops the walk once they pass the budget (see snapshot).
export function spend(walk, lines, chars) {
  const b = walk.budget;
  b.lines += lines;
  if (b.lines <= b.fromLine) return;
  b.chars += chars;
  if (b.chars > b.maxChars && b.lines > b.fromLine + TAIL + 1 && !b.stopped) {
    b.stopped = true;
    walk.limit = walk.count;
  }
}

// The characters a text of length n adds to target's line: its text
// shows at most MAX_RUN of them (see cutRun in text.js), so a paragraph
// of 10 MB does not stop the walk at its own line.
export function runSpend(target, n) {
  const before = target.runChars || 0;
  target.runChars = before + n;
  return Math.max(0, Math.min(MAX_RUN, before + n) - before);
}
