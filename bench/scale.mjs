// bench/scale.mjs: `make bench-scale` — throughput of navigate + snapshot
// loops on N = 1, 4 and 16 concurrent pages, each in its own context:
//
//   floor       raw Page.navigate -> load event + a bare DOM walk by
//               Runtime.evaluate, no bridge (bench/scale_cell.lua floor)
//   inproc      vdxlua in process, a vdx.spawn task per page
//               (bench/scale_cell.lua inproc)
//   mcp-stdio   `vdxlua mcp`, N roles, N concurrent client callers
//               (bench/scale_mcp.mjs)
//   mcp-http    the same over `vdxlua mcp --port` (Streamable HTTP, one
//               session)
//   playwright  playwright-core, goto + ariaSnapshot({mode: 'ai'})
//               (bench/scale_pw.mjs)
//
// Every cell is its own child process with its own browser (the browser
// vdxlua launches by default), started one after another, never two at
// once.  Cells are interleaved round by round (SCALE_ROUNDS rounds of
// SCALE_SECONDS / SCALE_ROUNDS seconds each, the order rotated every
// round), so a swing of the machine's load falls on every row alike.
// After a cell's loop the parent reads the RSS of the host process(es)
// and of the browser tree below them, then lets the cell close.
//
// Environment: SCALE_SECONDS (30), SCALE_ROUNDS (2), SCALE_N ("1,4,16"),
// SCALE_ROWS ("floor,inproc,mcp-stdio,mcp-http,playwright"), SCALE_PAGE
// ("shop.html"), VDXLUA (build/vdxlua).  Prints the table; writes
// bench/results-scale.json.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { VDXLUA, ROOT, CHROMIUM, startFixtures } from './mcp_common.mjs';
import { treeMemory } from './scale_lib.mjs';

const SECONDS = Number(process.env.SCALE_SECONDS || 30);
const ROUNDS = Math.max(1, Number(process.env.SCALE_ROUNDS || 2));
const NS = (process.env.SCALE_N || '1,4,16').split(',').map(Number);
const ROWS = (process.env.SCALE_ROWS || 'floor,inproc,mcp-stdio,mcp-http,playwright').split(',');
const PAGE = process.env.SCALE_PAGE || 'shop.html';

const COMMANDS = {
  floor: (n, s, url) => [VDXLUA, ['bench/scale_cell.lua', 'floor', n, s, url]],
  inproc: (n, s, url) => [VDXLUA, ['bench/scale_cell.lua', 'inproc', n, s, url]],
  'mcp-stdio': (n, s, url) => [process.execPath, ['bench/scale_mcp.mjs', n, s, url], { MCP_TRANSPORT: 'stdio' }],
  'mcp-http': (n, s, url) => [process.execPath, ['bench/scale_mcp.mjs', n, s, url], { MCP_TRANSPORT: 'http' }],
  playwright: (n, s, url) => [process.execPath, ['bench/scale_pw.mjs', n, s, url]],
};
for (const r of ROWS) if (!COMMANDS[r]) throw new Error(`SCALE_ROWS: no row ${r} (${Object.keys(COMMANDS)})`);

const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number);

/** Runs one cell: resolves to its JSON line, with the memory read while
 * its browser is still open, or { error }. */
function runCell(row, n, seconds, url) {
  const [cmd, args, env] = COMMANDS[row](String(n), String(seconds), url);
  const child = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve) => {
    let result = null;
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (result || !line.startsWith('{')) return;
      try { result = JSON.parse(line); } catch { return; }
      if (!result.skipped) Object.assign(result, treeMemory(result.host_pids || [child.pid]));
      child.stdin.end();
    });
    child.on('exit', (code) => resolve(result || { error: `exited with ${code} before its result` }));
  });
}

const fixtures = await startFixtures();
const url = `${fixtures.base.local}/${PAGE}`;
const started = { date: new Date().toISOString(), load: loadavg() };
console.log(`bench-scale ${started.date}: ${SECONDS} s per cell in ${ROUNDS} round(s), N = ${NS.join(', ')}, ` +
  `${PAGE}, load ${started.load.join(' ')}, ${cpus().length} cores, ${CHROMIUM}`);

// cells[row][n]: the rounds' results summed.
const cells = {};
for (const n of NS) {
  for (let round = 0; round < ROUNDS; round++) {
    const order = ROWS.map((_, i) => ROWS[(i + round) % ROWS.length]);
    for (const row of order) {
      const r = await runCell(row, n, SECONDS / ROUNDS, url);
      const c = ((cells[row] ||= {})[n] ||= { cycles: 0, seconds: 0, rounds: [] });
      c.rounds.push(r);
      if (r.error || r.skipped) { console.log(`  ${row} N=${n}: ${r.error || r.skipped}`); continue; }
      c.cycles += r.cycles;
      c.seconds += r.seconds;
      c.rate = c.cycles / c.seconds;
      for (const k of ['host_kib', 'browser_kib']) c[k] = Math.max(c[k] || 0, r[k]);
      c.median_ms = Math.max(c.median_ms || 0, r.median_ms);
      c.p95_ms = Math.max(c.p95_ms || 0, r.p95_ms);
      c.errors = (c.errors || 0) + (r.errors || 0);
      process.stdout.write(`  ${row} N=${n} round ${round + 1}: ${r.rate.toFixed(2)} snapshots/s` +
        `${r.servers ? ` (${r.servers} server${r.servers > 1 ? 's' : ''})` : ''}` +
        `${r.errors ? `, ${r.errors} failed cycle(s): ${r.first_error}` : ''}\n`);
    }
  }
}
fixtures.proc.stdin.end();
const ended = { date: new Date().toISOString(), load: loadavg() };

const mib = (k) => (k ? `${(k / 1024).toFixed(0)} MiB` : 'n/a');
const pad = (s, w) => String(s).padEnd(w);
console.log(`\nsnapshots/s (navigate + snapshot cycles per second, all N pages together); ` +
  `× = ratio to the floor; load at the end ${ended.load.join(' ')}`);
console.log(pad('N', 4) + ROWS.map((r) => pad(r, 22)).join(''));
for (const n of NS) {
  const floor = cells.floor?.[n]?.rate;
  console.log(pad(n, 4) + ROWS.map((r) => {
    const c = cells[r]?.[n];
    if (!c?.rate) return pad('n/a', 22);
    return pad(`${c.rate.toFixed(2)}${floor ? ` (${(c.rate / floor).toFixed(2)}×)` : ''}`, 22);
  }).join(''));
}
for (const row of ['mcp-stdio', 'mcp-http']) {
  if (!cells.inproc || !cells[row]) continue;
  console.log(`${row} / inproc: ` + NS.map((n) => {
    const a = cells[row][n]?.rate, b = cells.inproc[n]?.rate;
    return `N=${n} ${a && b ? (a / b).toFixed(2) : 'n/a'}×`;
  }).join(', '));
}
console.log('\nper-cycle median / p95 ms (the worst round), host RSS, browser tree RSS');
for (const n of NS) {
  for (const r of ROWS) {
    const c = cells[r]?.[n];
    if (!c?.rate) continue;
    console.log(`  N=${pad(n, 3)}${pad(r, 12)} ${c.median_ms.toFixed(0).padStart(6)} / ${c.p95_ms.toFixed(0).padStart(6)} ms` +
      `   host ${mib(c.host_kib).padStart(8)}   browser ${mib(c.browser_kib).padStart(9)}` +
      `${c.errors ? `   ${c.errors} failed cycles` : ''}`);
  }
}
writeFileSync(join(ROOT, 'bench/results-scale.json'), JSON.stringify({ started, ended, seconds: SECONDS,
  rounds: ROUNDS, page: PAGE, cores: cpus().length, chromium: CHROMIUM, cells }, null, 1) + '\n');
console.log('\nwrote bench/results-scale.json');
