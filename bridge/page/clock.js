// clock.js -- the controlled clock of lua/vdx/clock.lua, run in a page's
// MAIN world before any script of the document (Page.addScriptToEvaluate-
// OnNewDocument, and at once in the current document).  Called as
// (this function)(key, config): config = { wall, real, paused, fixed }, the
// clock's wall time `wall` (ms since the epoch) read when the real clock
// showed `real`; a running clock has moved on by the real time since.
//
// It replaces Date (constructor, Date.now; instanceof, parse and UTC kept),
// performance.now, setTimeout/clearTimeout, setInterval/clearInterval,
// requestAnimationFrame/cancelAnimationFrame and requestIdleCallback/
// cancelIdleCallback.  Time is `ticks`, milliseconds since install: it
// flows with real time until paused; fake timers are due at a tick and run
// in order of due tick, then of creation.  Date is origin + ticks, or the
// fixed time when one is set.
//
// Lua drives it through one object, globalThis[key]: key carries a random
// part that Lua chose, the property is neither enumerable, writable nor
// configurable, and the clock keeps the native functions it captured here,
// so a page that replaces setTimeout or Date.now, or assigns to every
// global it knows, does not reach or break it by accident.
(function (key, config) {
  'use strict';
  const g = globalThis;
  if (Object.prototype.hasOwnProperty.call(g, key)) return;
  const apply = Reflect.apply, construct = Reflect.construct;
  const NativeDate = g.Date, dateNow = NativeDate.now;
  const perf = g.performance, perfNow = perf.now;
  const nSetTimeout = g.setTimeout, nClearTimeout = g.clearTimeout, nClearInterval = g.clearInterval;
  const nCancelFrame = g.cancelAnimationFrame, nCancelIdle = g.cancelIdleCallback;
  const report = typeof g.reportError === 'function' ? g.reportError : (e) => nSetTimeout(() => { throw e; }, 0);
  const realNow = () => apply(dateNow, NativeDate, []);
  const realPerf = () => apply(perfNow, perf, []);

  // The clock: base ticks at the real performance time realRef.
  const perfBase = realPerf();
  let base = 0, realRef = perfBase, paused = !!config.paused;
  let fixed = typeof config.fixed === 'number' ? config.fixed : null;
  let origin = paused ? config.wall : config.wall + (realNow() - config.real);
  const timers = new Map();
  let nextId = 1e7, wake = null, fired = 0, budget = 0;
  const LOOP_LIMIT = 100000;

  const ticks = () => (paused ? base : base + (realPerf() - realRef));
  const sync = () => { base = ticks(); realRef = realPerf(); };
  const wallNow = () => (fixed !== null ? fixed : Math.floor(origin + ticks()));

  // The timer due first (ties: the one made first), or null.
  function first(limit) {
    let best = null;
    for (const t of timers.values()) {
      if (t.due > limit) continue;
      if (!best || t.due < best.due || (t.due === best.due && t.id < best.id)) best = t;
    }
    return best;
  }

  function call(t) {
    if (t.interval) t.due = (t.next === 'now' ? base : t.due) + t.delay;
    else timers.delete(t.id);
    fired++;
    if (--budget < 0) {
      throw new Error('vdx-clock: more than ' + LOOP_LIMIT +
        ' timer callbacks in one step (a timer that always sets another one at once)');
    }
    try {
      if (t.kind === 'frame') t.fn(perfBase + base);
      else if (t.kind === 'idle') t.fn({ didTimeout: false, timeRemaining: () => 50 });
      else if (typeof t.fn === 'function') apply(t.fn, g, t.args);
      else (0, eval)(String(t.fn));
    } catch (e) { report(e); }
  }

  // Runs every timer due up to target in order, each interval as often as
  // it falls due; the clock stands at each timer's tick while it runs.
  function runTo(target) {
    for (let t = first(target); t; t = first(target)) {
      if (t.due > base) base = t.due;
      t.next = 'due';
      call(t);
    }
    if (target > base) base = target;
  }

  // Jumps to target and runs each timer due by then once (an interval
  // starts again from target), like a laptop lid opened again.
  function jumpTo(target) {
    const due = [];
    for (const t of timers.values()) if (t.due <= target) due.push(t);
    due.sort((a, b) => a.due - b.due || a.id - b.id);
    base = target;
    for (const t of due) {
      if (!timers.has(t.id)) continue;
      t.next = 'now';
      call(t);
    }
  }

  // Sets the real timer that wakes the clock for its next due timer.
  function schedule() {
    if (wake !== null) { nClearTimeout(wake); wake = null; }
    if (paused) return;
    const t = first(Infinity);
    if (!t) return;
    wake = apply(nSetTimeout, g, [() => {
      wake = null;
      budget = LOOP_LIMIT;
      sync();
      try { runTo(base); } finally { realRef = realPerf(); schedule(); }
    }, Math.max(0, t.due - ticks())]);
  }

  function add(fn, delay, args, interval, kind) {
    delay = Math.max(0, Math.floor(Number(delay) || 0));
    if (interval && delay < 1) delay = 1;
    const id = nextId++;
    timers.set(id, { id, fn, args, delay, interval, kind, due: ticks() + delay, next: 'due' });
    schedule();
    return id;
  }

  // Clears a fake timer; an id it did not make goes to the native clear
  // (a timer the document set before the clock came).
  const clearer = (native) => function (id) {
    if (timers.delete(id)) { schedule(); return; }
    if (typeof native === 'function') apply(native, g, [id]);
  };

  function FakeDate(...args) {
    if (!new.target) return apply(NativeDate.prototype.toString, construct(NativeDate, [wallNow()]), []);
    return construct(NativeDate, args.length === 0 ? [wallNow()] : args, new.target);
  }
  Object.defineProperty(FakeDate, 'length', { value: 7 });
  Object.defineProperty(FakeDate, 'name', { value: 'Date' });
  FakeDate.prototype = NativeDate.prototype;
  FakeDate.now = function now() { return wallNow(); };
  FakeDate.parse = NativeDate.parse;
  FakeDate.UTC = NativeDate.UTC;
  Object.defineProperty(NativeDate.prototype, 'constructor', { value: FakeDate, writable: true, configurable: true });

  const define = (obj, name, value) =>
    Object.defineProperty(obj, name, { value, writable: true, configurable: true, enumerable: false });
  define(g, 'Date', FakeDate);
  define(perf, 'now', function now() { return perfBase + ticks(); });
  define(g, 'setTimeout', function setTimeout(fn, delay, ...args) { return add(fn, delay, args, false, 'timeout'); });
  define(g, 'setInterval', function setInterval(fn, delay, ...args) { return add(fn, delay, args, true, 'timeout'); });
  define(g, 'clearTimeout', clearer(nClearTimeout));
  define(g, 'clearInterval', clearer(nClearInterval));
  define(g, 'requestAnimationFrame', function requestAnimationFrame(fn) { return add(fn, 16, [], false, 'frame'); });
  define(g, 'cancelAnimationFrame', clearer(nCancelFrame));
  define(g, 'requestIdleCallback', function requestIdleCallback(fn, opts) {
    return add(fn, opts && opts.timeout > 0 ? Math.min(opts.timeout, 50) : 50, [], false, 'idle');
  });
  define(g, 'cancelIdleCallback', clearer(nCancelIdle));

  // The commands; each answers the clock's state and the callbacks it ran.
  const commands = {
    state() {},
    fastForward(ms) { jumpTo(base + ms); },
    runFor(ms) { runTo(base + ms); },
    pauseAt(wall) {
      const ms = wall - Math.floor(origin + base);
      if (ms < 0) {
        throw new Error('vdx-clock: cannot pause at a time before the clock\'s time ' +
          new NativeDate(Math.floor(origin + base)).toISOString());
      }
      jumpTo(base + ms);
      paused = true;
    },
    resume() { paused = false; },
    setFixedTime(wall) { fixed = wall; },
    setSystemTime(wall) { origin = wall - base; fixed = null; },
  };
  const control = Object.freeze({
    run(cmd, arg) {
      if (!Object.prototype.hasOwnProperty.call(commands, cmd)) throw new Error('vdx-clock: no command ' + cmd);
      sync();
      const before = fired;
      budget = LOOP_LIMIT;
      try { commands[cmd](arg); } finally { realRef = realPerf(); schedule(); }
      return { wall: Math.floor(origin + base), real: realNow(), paused, fixed, now: wallNow(),
        fired: fired - before, pending: timers.size };
    },
  });
  Object.defineProperty(g, key, { value: control, enumerable: false, writable: false, configurable: false });
})
