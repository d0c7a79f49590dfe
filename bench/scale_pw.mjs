// bench/scale_pw.mjs: the playwright-core cell of `make bench-scale`
// (bench/scale.mjs runs it as a child process).  N pages, each in a
// browser context of its own, loop page.goto(url) (until load) and
// page.ariaSnapshot({ mode: 'ai' }) (the snapshot with refs Playwright MCP
// gives an agent) for SECONDS, concurrently, on the browser vdxlua
// launches.  playwright-core comes from bench/.peers or build/playwright.
//
// Usage: node bench/scale_pw.mjs N SECONDS URL
// Prints one JSON line like bench/scale_cell.lua's, then keeps the browser
// open until its standard input closes.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { CHROMIUM, RESOLVER_ARG, ROOT } from './mcp_common.mjs';
import { stats } from './scale_lib.mjs';

const [N, SECONDS] = [Number(process.argv[2]), Number(process.argv[3])];
const URL = process.argv[4];
if (!(N > 0) || !(SECONDS > 0) || !URL) {
  console.error('usage: node bench/scale_pw.mjs N SECONDS URL');
  process.exit(2);
}

/** playwright-core's chromium, from the first place that has it. */
function findPlaywrightCore() {
  for (const dir of [join(ROOT, 'bench/.peers'), join(ROOT, 'build/playwright')]) {
    if (existsSync(join(dir, 'node_modules/playwright-core/package.json'))) {
      return createRequire(join(dir, 'package.json'))('playwright-core');
    }
  }
  return null;
}

const pw = findPlaywrightCore();
if (!pw) {
  console.log(JSON.stringify({ skipped: 'playwright-core is not installed (make peers-install)' }));
  process.exit(0);
}
const browser = await pw.chromium.launch({ executablePath: CHROMIUM, headless: true,
  chromiumSandbox: false, args: [RESOLVER_ARG] });
const pages = [];
for (let i = 0; i < N; i++) pages.push(await (await browser.newContext()).newPage());

const cycle = async (page) => {
  await page.goto(URL, { waitUntil: 'load', timeout: 120000 });
  return (await page.ariaSnapshot({ mode: 'ai', timeout: 120000 })).length;
};
// A cycle that fails is counted, not fatal (see scale_cell.lua).
let errors = 0, firstError = null;
const tryCycle = (page) => cycle(page).catch((e) => { errors++; firstError ||= String(e).slice(0, 300); return null; });
const chars = await Promise.all(pages.map(tryCycle));
errors = 0; firstError = null;

const times = [];
let count = 0;
const t0 = performance.now();
const deadline = t0 + SECONDS * 1000;
await Promise.all(pages.map(async (page) => {
  while (performance.now() < deadline) {
    const c0 = performance.now();
    if (await tryCycle(page) === null) continue;
    times.push(performance.now() - c0);
    count++;
  }
}));
const elapsed = (performance.now() - t0) / 1000;
const st = stats(times);
console.log(JSON.stringify({ mode: 'playwright', n: N, cycles: count, seconds: elapsed,
  rate: count / elapsed, median_ms: st.median, p95_ms: st.p95, chars: chars[0], errors, first_error: firstError }));

process.stdin.resume();
process.stdin.on('end', async () => { await browser.close(); process.exit(0); });
