// mcp_probe.mjs -- times `vdxlua mcp` alone on one fixture page: navigate,
// then browser_snapshot right away and after a pause, so the MCP overhead
// can be told from the snapshot itself.  Needs `make bench-peers` once (for
// the SDK in bench/.peers).  node bench/mcp_probe.mjs [PAGE] [REPS]
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
const page = process.argv[2] || 'shop.html';
const reps = Number(process.argv[3] || 7);

const urlFile = join(mkdtempSync(join(tmpdir(), 'vdx-probe-')), 'url');
const srv = spawn(VDXLUA, [join('bench', 'serve_fixtures.lua'), urlFile], { cwd: ROOT, stdio: ['pipe', 'ignore', 'inherit'] });
while (!existsSync(urlFile) || !readFileSync(urlFile, 'utf8').trim()) await new Promise((r) => setTimeout(r, 50));
const base = JSON.parse(readFileSync(urlFile, 'utf8')).local;
const client = new Client({ name: 'probe', version: '1' });
await client.connect(new StdioClientTransport({ command: VDXLUA, args: ['mcp'], cwd: ROOT, stderr: 'ignore' }));
const call = async (name, args) => {
  const t = performance.now();
  const res = await client.callTool({ name, arguments: args });
  if (res.isError) throw new Error(`${name}: ${JSON.stringify(res.content).slice(0, 300)}`);
  return performance.now() - t;
};
const med = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1].toFixed(1);
await call('browser_navigate', { url: `${base}/${page}` });
const now = [], later = [], again = [];
for (let i = 0; i < reps; i++) {
  await call('browser_navigate', { url: `${base}/${page}` });
  now.push(await call('browser_snapshot', {}));
  again.push(await call('browser_snapshot', {}));
  await call('browser_navigate', { url: `${base}/${page}` });
  await new Promise((r) => setTimeout(r, 500));
  later.push(await call('browser_snapshot', {}));
}
console.log(`${page}: snapshot right after navigate ${med(now)} ms, 0.5 s later ${med(later)} ms, a second one ${med(again)} ms`);
await client.close();
srv.kill();
