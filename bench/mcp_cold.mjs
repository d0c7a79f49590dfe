// mcp_cold.mjs -- cold starts of `vdxlua mcp` as an agent sees them: a
// fresh server process, initialize and tools/list, then (after THINK_MS, as
// when the model thinks before its first call) browser_navigate to the
// shop and browser_snapshot.  Prints, per run, the first call's time
// (navigate + snapshot) and the time from spawn to the first snapshot;
// then the medians.  THINK_MS=0 is the whole-process cold start of
// `make bench-peers`.  Needs `make bench-peers` once (the SDK in
// bench/.peers).   THINK_MS=4000 node bench/mcp_cold.mjs [RUNS]
import { spawn } from 'node:child_process';
import { readFileSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';

const here = resolve(new URL('.', import.meta.url).pathname);
const require = createRequire(join(here, '.peers', 'package.json'));
const { Client } = await import(require.resolve('@modelcontextprotocol/sdk/client/index.js'));
const { StdioClientTransport } = await import(require.resolve('@modelcontextprotocol/sdk/client/stdio.js'));
const ROOT = resolve(here, '..');
const VDXLUA = resolve(ROOT, process.env.VDXLUA || 'build/vdxlua');
const THINK = Number(process.env.THINK_MS || 0);
const runs = Number(process.argv[2] || 5);

const urlFile = join(mkdtempSync(join(tmpdir(), 'vdx-cold-')), 'url');
const srv = spawn(VDXLUA, [join('bench', 'serve_fixtures.lua'), urlFile], { cwd: ROOT, stdio: ['pipe', 'ignore', 'inherit'] });
while (!existsSync(urlFile) || !readFileSync(urlFile, 'utf8').trim()) await new Promise((r) => setTimeout(r, 50));
const url = JSON.parse(readFileSync(urlFile, 'utf8')).local + '/shop.html';
const med = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1].toFixed(0);
const firstCall = [], whole = [];
for (let i = 0; i < runs; i++) {
  const t0 = performance.now();
  const client = new Client({ name: 'cold', version: '1' });
  await client.connect(new StdioClientTransport({ command: VDXLUA, args: ['mcp', '--log-level', 'warn'], cwd: ROOT, stderr: 'inherit',
    env: { ...process.env } }));
  await client.listTools();
  if (THINK) await new Promise((r) => setTimeout(r, THINK));
  const t1 = performance.now();
  for (const [name, args] of [['browser_navigate', { url }], ['browser_snapshot', {}]]) {
    const res = await client.callTool({ name, arguments: args });
    if (res.isError) throw new Error(`${name}: ${JSON.stringify(res.content).slice(0, 300)}`);
  }
  const t2 = performance.now();
  await client.close();
  firstCall.push(t2 - t1);
  whole.push(t2 - t0);
  console.log(`run ${i + 1}: first call (navigate + snapshot) ${(t2 - t1).toFixed(0)} ms, spawn to first snapshot ${(t2 - t0).toFixed(0)} ms`);
}
console.log(`think ${THINK} ms, ${runs} runs: first call median ${med(firstCall)} ms, spawn to first snapshot median ${med(whole)} ms`);
srv.stdin.end();
srv.kill();
