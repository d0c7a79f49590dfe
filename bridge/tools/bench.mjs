#!/usr/bin/env node
// bench.mjs -- times bridge snapshots in headless Chromium.  Plain Node, no
// dependencies; drives Chromium through try.mjs.
//
//   node tools/bench.mjs [PAGE] [--runs N] [--repeats N] [--bundle FILE]...
//                        [--profile] [--settle] [--warm] [--preworld] [--idle MS]
//       For each of N runs (default 10) opens PAGE (default
//       spec/fixtures/snapshot/shop.html) in a fresh tab, evaluates each
//       bundle (default dist/vdx-bridge.js) in its own fresh isolated world
//       and times the first snapshot there and then `repeats` more (default
//       10).  Bundles are interleaved run by run, so a noisy machine slows
//       them alike.  Prints, per bundle, the median of the first snapshots
//       and the median of all repeats, both as wall time measured in the
//       page with performance.now() and as CPU time of the renderer's main
//       thread (from /proc/PID/schedstat, Linux only) over the CDP call that
//       ran the snapshot.  CPU time is what to compare on a busy machine.
//       --settle forces style and layout before the first snapshot, to
//       tell the page's pending work from the bridge's own.
//       --warm first visits every node once from the isolated world, to
//       tell wrapper set-up from the bridge's own first-run cost.  --preworld
//       runs one snapshot in another fresh world of the same page first,
//       as when a renderer process has run the bridge before.  --idle MS
//       waits MS between loading the bundle and the first snapshot, as an
//       agent does between two calls (the bundle's idle-time warm-up, see
//       src/warm.js, runs then).
//       --profile also records a CPU profile (CDP Profiler) of the repeats
//       and prints the functions with the most self time.

import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Browser, openPage, callOn } from './try.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const bridgeDir = join(here, '..');

function parseArgs(argv) {
  const a = { page: null, runs: 10, repeats: 10, bundles: [], profile: false, settle: false };
  for (let i = 0; i < argv.length; i++) {
    const v = argv[i];
    if (v === '--runs') a.runs = +argv[++i];
    else if (v === '--repeats') a.repeats = +argv[++i];
    else if (v === '--bundle') a.bundles.push(argv[++i]);
    else if (v === '--profile') a.profile = true;
    else if (v === '--settle') a.settle = true;
    else if (v === '--warm') a.warm = true;
    else if (v === '--preworld') a.preworld = true;
    else if (v === '--idle') a.idle = +argv[++i];
    else if (!a.page) a.page = v;
    else throw new Error('unexpected argument ' + v);
  }
  if (!a.page) a.page = join(bridgeDir, '..', 'spec', 'fixtures', 'snapshot', 'shop.html');
  if (a.bundles.length === 0) a.bundles.push(join(bridgeDir, 'dist', 'vdx-bridge.js'));
  return a;
}

const median = (xs) => {
  const s = xs.slice().sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

// Times one snapshot in the page; returns [ms, chars].
const TIME_FN = `function () {
  const t0 = performance.now();
  const r = this.snapshot({});
  return [performance.now() - t0, r.text.length];
}`;

// Visits every node of the flat tree once, creating its wrapper in the
// isolated world, and nothing else (--warm).
const WARM_FN = `function () {
  let n = 0;
  const walk = (node) => {
    for (let c = node.firstChild; c; c = c.nextSibling) {
      n++;
      if (c.nodeType === 1) { if (c.shadowRoot) walk(c.shadowRoot); walk(c); }
    }
  };
  walk(document);
  return n;
}`;

// The pids of the renderer processes of this browser.
function rendererPids(browser) {
  const out = [];
  for (const d of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(d)) continue;
    let cmd;
    try {
      cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8');
    } catch (e) {
      continue;
    }
    if (cmd.includes('--type=renderer') && cmd.includes(browser.dir)) out.push(d);
  }
  return out;
}

// CPU nanoseconds each process's main thread has run.
function cpuTimes(pids) {
  return pids.map((p) => {
    try {
      return +readFileSync(`/proc/${p}/task/${p}/schedstat`, 'utf8').split(' ')[0];
    } catch (e) {
      return 0;
    }
  });
}

// Runs one timed snapshot; returns { wall, cpu, chars } (milliseconds).
async function timed(page, inst, pids) {
  const before = cpuTimes(pids);
  const [wall, chars] = await callOn(page, inst, TIME_FN);
  const after = cpuTimes(pids);
  let cpu = 0;
  for (let i = 0; i < pids.length; i++) cpu = Math.max(cpu, (after[i] - before[i]) / 1e6);
  return { wall, cpu, chars };
}

async function freshInstance(page, source, world) {
  const { frameTree } = await page.send('Page.getFrameTree');
  const { executionContextId } = await page.send('Page.createIsolatedWorld',
    { frameId: frameTree.frame.id, worldName: world, grantUniveralAccess: false });
  const ev = await page.send('Runtime.evaluate',
    { expression: source + '\n;globalThis.__vdxBridge.create({ prefix: "" })', contextId: executionContextId });
  if (ev.exceptionDetails) throw new Error(ev.exceptionDetails.text);
  return ev.result.objectId;
}

// Self time per function of a CDP profile, largest first.
function selfTimes(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const n = byId.get(profile.samples[i]);
    const f = n.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url ? f.url.split('/').pop() : ''}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) || 0) + (profile.timeDeltas[i] || 0) / 1000);
  }
  return [...self.entries()].sort((x, y) => y[1] - x[1]);
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const url = /^(https?|file):/.test(args.page) ? args.page : pathToFileURL(resolve(args.page)).href;
  const sources = args.bundles.map((b) => readFileSync(b, 'utf8'));
  const results = args.bundles.map(() => ({ first: [], repeats: [], firstCpu: [], repeatsCpu: [], chars: 0 }));
  const browser = new Browser();
  process.on('SIGINT', () => { browser.close(); process.exit(130); });
  let status = 0;
  try {
    await browser.send('Target.setDiscoverTargets', { discover: false });
    for (let run = 0; run < args.runs; run++) {
      for (let b = 0; b < sources.length; b++) {
        const page = await openPage(browser, url);
        if (args.preworld) {
          const pre = await freshInstance(page, sources[b], 'vdx-pre-' + run + '-' + b);
          await callOn(page, pre, TIME_FN);
        }
        const inst = await freshInstance(page, sources[b], 'vdx-bench-' + run + '-' + b);
        const profiling = args.profile && run === args.runs - 1;
        if (profiling) {
          await page.send('Profiler.enable');
          await page.send('Profiler.setSamplingInterval', { interval: 100 });
          await page.send('Profiler.start');
        }
        const pids = rendererPids(browser);
        if (args.settle) {
          const t = await page.send('Runtime.evaluate',
            { expression: 'document.documentElement.getBoundingClientRect().height', returnByValue: true });
          if (t.exceptionDetails) throw new Error(t.exceptionDetails.text);
        }
        if (args.warm) await callOn(page, inst, WARM_FN);
        if (args.idle) await new Promise((r) => setTimeout(r, args.idle));
        const first = await timed(page, inst, pids);
        results[b].first.push(first.wall);
        results[b].firstCpu.push(first.cpu);
        results[b].chars = first.chars;
        for (let i = 0; i < args.repeats; i++) {
          const r = await timed(page, inst, pids);
          results[b].repeats.push(r.wall);
          results[b].repeatsCpu.push(r.cpu);
        }
        if (profiling) {
          const { profile } = await page.send('Profiler.stop');
          console.log(`profile of ${args.bundles[b]} (first + ${args.repeats} repeats), self ms:`);
          for (const [k, ms] of selfTimes(profile).slice(0, 25)) console.log(`  ${ms.toFixed(1).padStart(7)}  ${k}`);
        }
        await browser.send('Target.closeTarget', { targetId: page.targetId }).catch(() => {});
      }
    }
    for (let b = 0; b < sources.length; b++) {
      const r = results[b];
      const f = (xs) => `median ${median(xs).toFixed(2)} min ${Math.min(...xs).toFixed(2)}`;
      console.log(`${args.bundles[b]}: ${r.chars} chars\n` +
        `  first   cpu ${f(r.firstCpu)}  wall ${f(r.first)}\n` +
        `  repeat  cpu ${f(r.repeatsCpu)}  wall ${f(r.repeats)}`);
    }
  } catch (e) {
    console.error(e.stack || String(e));
    status = 1;
  } finally {
    browser.close();
  }
  process.exit(status);
}

main();
