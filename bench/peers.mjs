// bench/peers.mjs: one MCP stdio client (@modelcontextprotocol/sdk) drives
// Playwright MCP, chrome-devtools-mcp and `vdxlua mcp` over the same
// fixture pages in the same run: navigate, snapshot, click.  Measures
// tool-call latency (median, p95), reply size in characters, and server
// memory (RSS of the server process; the browser tree it started is
// reported apart).  Every figure is also given as a ratio to Playwright
// MCP's.  Merges a "peers" section into bench/results.json.
//
// The servers run side by side and take turns: for each rep every server
// (and vdxlua in process, bench/inproc.lua) does the same operation, in
// an order that changes each rep (each one follows each other one equally
// often), so the machine's load swings fall on all of
// them alike and a ratio compares calls made at the same time.  The load
// average is printed at start and end.
//
// Run by `make bench-peers` (which installs the peers into bench/.peers).
// The pages come from `build/vdxlua bench/serve_fixtures.lua`, started here.
//
// Environment: PEERS_REPS (default 7: the 20,000 and 100,000-element pages
// take half and a third of it), PEERS_QUICK_REPS (every cell of the small
// pages, shop, elements-2000, frames and shadow, and the shop's click, type
// and structure queries; default 21: with 7 the nearest-rank p95 is the
// slowest call), PEERS_SIZES ("2000,20000,100000"),
// PEERS_ONLY (comma list of server names), PEERS_COLD (cold starts per
// server, default 5; 0 skips them), VDXLUA (default build/vdxlua).
import { spawn, execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir, loadavg, cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { here, peers, ROOT, VDXLUA, CHROMIUM, RESOLVER_ARG, MCP_ENV, loadSdk, replyText, playwrightMcpCommand,
  vdxluaMcpCommand, startFixtures, mergeResults } from './mcp_common.mjs';
import { agentBrowserServer } from './peer_agent_browser.mjs';
import { bestPeerReport } from './peers_report.mjs';

const { Client, StdioClientTransport } = await loadSdk();
const REPS = Number(process.env.PEERS_REPS || 7);
const QUICK_REPS = Number(process.env.PEERS_QUICK_REPS || Math.max(REPS, 21));
const SIZES = (process.env.PEERS_SIZES || '2000,20000,100000').split(',').filter(Boolean).map(Number);
const ONLY = process.env.PEERS_ONLY ? process.env.PEERS_ONLY.split(',') : null;
const OUT = resolve(ROOT, process.env.BENCH_OUT || 'bench/results.json');
const COLD = Number(process.env.PEERS_COLD ?? 5);
const CALL_TIMEOUT = 180000;

// ------------------------------------------------------------ helpers

const now = () => Number(process.hrtime.bigint()) / 1e6;

function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  if (!n) return { n: 0 };
  const median = n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  const p95 = s[Math.min(n - 1, Math.max(0, Math.ceil(0.95 * n) - 1))];
  return { median, p95, min: s[0], max: s[n - 1], n };
}

function smaps(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    return { rss_kib: Number(/\nRss:\s+(\d+)/.exec(s)[1]), pss_kib: Number(/\nPss:\s+(\d+)/.exec(s)[1]) };
  } catch { return null; }
}

// Every descendant of pid (from ps; one snapshot of the process table).
function descendants(pid) {
  let out = '';
  try { out = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,stat='], { encoding: 'utf8' }); } catch { return []; }
  const kids = new Map();
  for (const line of out.split('\n')) {
    const m = /(\d+)\s+(\d+)\s+(\S+)/.exec(line);
    if (!m || m[3].includes('Z')) continue;
    const pp = Number(m[2]);
    if (!kids.has(pp)) kids.set(pp, []);
    kids.get(pp).push(Number(m[1]));
  }
  const all = [];
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop();
    for (const c of kids.get(p) || []) { all.push(c); stack.push(c); }
  }
  return all;
}

// The browser tree of a server: its descendants, plus (for vdxlua, whose
// browser runs in its own session) the process groups they lead.
function treeMem(pid) {
  const seen = new Set(descendants(pid));
  for (const p of [...seen]) {
    try {
      const out = execFileSync('ps', ['-o', 'pid=', '-g', String(p)], { encoding: 'utf8' });
      for (const q of out.split(/\s+/).filter(Boolean)) seen.add(Number(q));
    } catch { /* not a group leader */ }
  }
  const r = { rss_kib: 0, pss_kib: 0, processes: 0 };
  for (const p of seen) {
    const m = smaps(p);
    if (m) { r.rss_kib += m.rss_kib; r.pss_kib += m.pss_kib; r.processes++; }
  }
  return r;
}

// What a shop snapshot must keep (issue 8): every interactive element,
// name, state and price.
function shopCompleteness(text) {
  const count = (re) => (text.match(re) || []).length;
  let prices = 0;
  for (let i = 1; i <= 200; i++) if (text.includes(`$${((i * 37) % 1000 + 0.99).toFixed(2)}`)) prices++;
  let products = 0;
  for (let i = 1; i <= 200; i++) if (new RegExp(`Product ${i}\\b`).test(text)) products++;
  const nav = ['Home', 'New', 'Laptops', 'Phones', 'Tablets', 'Audio', 'Cameras', 'Deals', 'Help', 'Cart (0)']
    .filter((n) => text.includes(n)).length;
  const fields = ['Full name', 'Email', 'Phone', 'Street', 'City', 'Country'].filter((n) => text.includes(n)).length;
  return {
    prices, products, add_to_cart: count(/Add to Cart/g), nav_links: nav, labelled_fields: fields,
    country_value: /Country 42/.test(text), checkbox_checked: /checkbox "Send me offers" \[checked/.test(text) ||
      /checkbox[^\n]*Send me offers[^\n]*checked/.test(text),
    place_order: text.includes('Place order'),
  };
}

// ------------------------------------------------------------ servers

function servers(base) {
  const resolverArg = RESOLVER_ARG;
  const tmp = mkdtempSync(join(tmpdir(), 'vdx-peers-'));
  // The Node peers' browsers leave a ProcessSingleton folder in TMPDIR when
  // they are ended; theirs is a folder of tmp, removed with it.
  const peerTmp = join(tmp, 'tmp');
  mkdirSync(peerTmp);
  const node = process.execPath;
  const list = [
    {
      name: 'playwright-mcp',
      env: { TMPDIR: peerTmp },
      ...playwrightMcpCommand(tmp),
      navigate: (url) => ['browser_navigate', { url }],
      snapshot: () => ['browser_snapshot', {}],
      clickRef: (text) => /button "Add to Cart" \[ref=(\w+)\]/.exec(text)?.[1],
      // Newer releases name the ref `target`.
      click: (ref, tools) => ['browser_click', tools.browser_click?.inputSchema?.properties?.target
        ? { element: 'Add to Cart button', target: ref } : { element: 'Add to Cart button', ref }],
      typeRef: (text) => /textbox "Full name"[^\n]*\[ref=(\w+)\]/.exec(text)?.[1],
      type: (ref, tools) => ['browser_type', tools.browser_type?.inputSchema?.properties?.target
        ? { element: 'Full name', target: ref, text: 'Ada Lovelace' } : { element: 'Full name', ref, text: 'Ada Lovelace' }],
    },
    {
      name: 'chrome-devtools-mcp',
      env: { TMPDIR: peerTmp },
      command: node,
      args: [join(peers, 'node_modules/chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js'),
        '--headless', '--isolated', '--executablePath', CHROMIUM,
        '--chromeArg=--no-sandbox', `--chromeArg=${resolverArg}`,
        '--no-usage-statistics', '--no-performance-crux', '--no-page-id-routing'],
      navigate: (url, tools) => ['navigate_page',
        tools.navigate_page?.inputSchema?.properties?.type ? { type: 'url', url } : { url }],
      snapshot: () => ['take_snapshot', {}],
      clickRef: (text) => /uid=(\S+) button "Add to Cart"/.exec(text)?.[1],
      click: (uid) => ['click', { uid }],
      typeRef: (text) => /uid=(\S+) textbox "Full name"/.exec(text)?.[1],
      type: (uid) => ['fill', { uid, value: 'Ada Lovelace' }],
    },
    {
      name: 'vdxlua-mcp',
      ...vdxluaMcpCommand(),
      navigate: (url) => ['browser_navigate', { url }],
      snapshot: () => ['browser_snapshot', {}],
      snapshotInteractive: () => ['browser_snapshot', { interactive: true }],
      clickRef: (text) => /button "Add to Cart" \[ref=(\w+)\]/.exec(text)?.[1],
      click: (ref) => ['browser_click', { element: 'Add to Cart button', ref }],
      typeRef: (text) => /textbox "Full name"[^\n]*\[ref=(\w+)\]/.exec(text)?.[1],
      type: (ref) => ['browser_type', { element: 'Full name', ref, text: 'Ada Lovelace' }],
      // The structure queries only vdxlua has.
      structure: (ref) => [['resolve_container', { ref }], ['inspect_pattern', { ref, level: 1 }],
        ['extract_anchors', { ref, level: 1 }]],
    },
  ];
  // agent-browser, when bench/.peers has it (bench/peer_agent_browser.mjs).
  const ab = agentBrowserServer();
  if (ab) list.splice(2, 0, ab);
  return { list: ONLY ? list.filter((s) => ONLY.includes(s.name)) : list, tmp };
}

async function vdxluaMcpAnswers() {
  return new Promise((res) => {
    const p = spawn(VDXLUA, ['mcp', '--log-level', 'error'], { stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    const t = setTimeout(() => { p.kill('SIGKILL'); res(false); }, 20000);
    p.stdout.on('data', (d) => {
      out += d;
      if (out.includes('"result"')) { clearTimeout(t); p.stdin.end(); res(true); }
    });
    p.on('error', () => { clearTimeout(t); res(false); });
    p.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {
      protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '0' } } }) + '\n');
  });
}

// ------------------------------------------------------------ participants

// A participant is a server (or vdxlua in process) ready for calls:
// { name, spec, call([tool, args]) -> { ms, text }, close() }, plus what
// the report needs (pid, init_ms, first_call_ms, stderr).

// Connects an MCP client to s and makes the first navigation (which starts
// the browser: timed apart as first_call_ms).
async function startMcp(s, firstUrl) {
  const stderr = [];
  const transport = new StdioClientTransport({ command: s.command, args: s.args, stderr: 'pipe', cwd: ROOT, env: { ...MCP_ENV, ...s.env } });
  transport.stderr?.on('data', (d) => { if (stderr.length < 200) stderr.push(String(d)); });
  const client = new Client({ name: 'vdxlua-bench', version: '1.0.0' });
  const t0 = now();
  await client.connect(transport);
  const init_ms = now() - t0;
  const tools = Object.fromEntries((await client.listTools()).tools.map((t) => [t.name, t]));
  const call = async ([name, args]) => {
    const t = now();
    const res = await client.callTool({ name, arguments: args }, undefined, { timeout: CALL_TIMEOUT, resetTimeoutOnProgress: true });
    const ms = now() - t;
    const text = replyText(res);
    if (res.isError) throw new Error(`${name}: ${text.slice(0, 300)}`);
    return { ms, text };
  };
  const first = await call(s.navigate(firstUrl, tools));
  return { name: s.name, spec: s, tools, call, pid: transport.pid, init_ms, first_call_ms: first.ms,
    stderr, close: () => closeMcp(s, client) };
}

// Ends a server's session: its own close tool first where its browser
// outlives the MCP process (agent-browser's daemon), then the client.
async function closeMcp(s, client) {
  if (s.closeCall) {
    const [name, args] = s.closeCall();
    try { await client.callTool({ name, arguments: args }, undefined, { timeout: 60000 }); } catch { /* gone */ }
  }
  await client.close();
}

// vdxlua in process (bench/inproc.lua): the same operations as page
// methods, each timed inside that process.
const INPROC = {
  name: 'in-process',
  navigate: (url) => ['navigate', { url }],
  snapshot: () => ['snapshot', {}],
  snapshotInteractive: () => ['snapshot', { interactive: true }],
  clickRef: (text) => /button "Add to Cart" \[ref=(\w+)\]/.exec(text)?.[1],
  click: (ref) => ['click', { ref }],
  typeRef: (text) => /textbox "Full name"[^\n]*\[ref=(\w+)\]/.exec(text)?.[1],
  type: (ref) => ['type', { ref, text: 'Ada Lovelace' }],
  structure: (ref) => [['resolve_container', { ref }], ['inspect_pattern', { ref, level: 1 }],
    ['extract_anchors', { ref, level: 1 }]],
};

// The floor (bench/inproc.lua floor): the browser's own cost of each
// operation over the same transport, on a page without the bridge: a raw
// navigate until load, a bare DOM walk for either snapshot, a click and a
// type that find their element in one script (by its text, by its label)
// and send the input.  No structure queries.
const FLOOR = {
  name: 'floor',
  floor: true,
  navigate: (url) => ['navigate', { url }],
  snapshot: () => ['snapshot', {}],
  snapshotInteractive: () => ['snapshot', { interactive: true }],
  clickRef: (text) => text.includes('Add to Cart') ? 'Add to Cart' : null,
  click: (ref) => ['click', { ref }],
  typeRef: () => 'Full name',
  type: (ref) => ['type', { ref, text: 'Ada Lovelace' }],
};

async function startInproc(firstUrl, spec = INPROC) {
  const p = spawn(VDXLUA, [join('bench', 'inproc.lua'), ...(spec.floor ? ['floor'] : [])],
    { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  let buf = '';
  const waiting = [];
  p.stdout.setEncoding('utf8');
  p.stdout.on('data', (d) => {
    buf += d;
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      waiting.shift()?.resolve(line);
    }
  });
  p.on('exit', () => { for (const w of waiting.splice(0)) w.reject(new Error('bench/inproc.lua exited')); });
  const call = ([op, args]) => new Promise((res, rej) => {
    waiting.push({ resolve: res, reject: rej });
    p.stdin.write(JSON.stringify({ op, ...args }) + '\n');
  }).then((line) => {
    const r = JSON.parse(line);
    if (r.error) throw new Error(`${op}: ${r.error}`);
    return { ms: r.ms, text: r.text || '' };
  });
  const first = await call(spec.navigate(firstUrl));
  return { name: spec.name, spec, tools: {}, call, first_call_ms: first.ms, inproc: true, floor: !!spec.floor,
    close: () => new Promise((res) => { p.on('exit', res); p.stdin.end(); }) };
}

// ------------------------------------------------------------ the rounds

// The orders of n participants, one per rep in turn: a Williams design
// (with its mirror rows when n is odd), in which every participant goes
// first as often as the others and follows each other one equally often.
// Which one runs right before matters: a browser that has just loaded or
// snapshotted a page keeps a core busy for a while after its answer, and
// a plain rotation of three would put vdxlua's MCP server after
// Playwright's in five reps of seven.
function williams(n) {
  const base = [0];
  for (let k = 1; base.length < n; k++) {
    base.push(k);
    if (base.length < n) base.push(n - k);
  }
  const rows = [];
  for (let r = 0; r < n; r++) rows.push(base.map((x) => (x + r) % n));
  if (n % 2) for (let r = 0; r < n; r++) rows.push(rows[r].slice().reverse());
  return rows;
}

// The order of list in rep i.
function rotate(list, i) {
  const rows = williams(list.length);
  return rows[i % rows.length].map((k) => list[k]);
}

// Runs step(x, rep) reps times for every participant in turn, in the
// order of rotate() for that rep.  A participant whose step fails is out for the rest of
// the page (its error is kept).
async function rounds(parts, reps, step) {
  for (let i = 0; i < reps; i++) {
    for (const x of rotate(parts, i)) {
      if (x.page.error) continue;
      try { await step(x, i); } catch (e) {
        x.page.error = String(e.message || e).slice(0, 400);
        process.stderr.write(`peers: ${x.name} ${x.pageName}: ${x.page.error}\n`);
      }
    }
  }
}

// Each participant's figures on one page: navigate then snapshot (right
// after it), and on the shop click (then a snapshot: refs may be renewed),
// type and the structure queries, all in rounds.
async function runPage(parts, pg) {
  const acc = new Map();
  const push = (x, k, v) => { const a = acc.get(x); (a[k] ||= []).push(v); };
  for (const x of parts) {
    x.pageName = pg.name;
    x.page = { url: pg.url };
    acc.set(x, {});
  }
  await rounds(parts, pg.reps, async (x) => {
    const a = await x.call(x.spec.navigate(pg.url, x.tools));
    push(x, 'navigate', a.ms); push(x, 'navigate_chars', a.text.length);
    const b = await x.call(x.spec.snapshot());
    push(x, 'snapshot', b.ms); push(x, 'snapshot_chars', b.text.length);
    x.lastSnap = b.text;
    // The interactive-only mode, where a server has one, of the same document.
    if (x.spec.snapshotInteractive) {
      const c = await x.call(x.spec.snapshotInteractive());
      push(x, 'snapshot_interactive', c.ms); push(x, 'snapshot_interactive_chars', c.text.length);
      x.lastInteractive = c.text;
    }
  });
  // The last snapshots of every page, to read beside the character counts.
  mkdirSync(join(here, 'out'), { recursive: true });
  for (const x of parts) {
    if (x.page.error || x.inproc) continue;
    if (pg.name !== 'shop' && x.lastSnap) writeFileSync(join(here, 'out', `${pg.name}-${x.name}.txt`), x.lastSnap);
    if (x.lastInteractive) writeFileSync(join(here, 'out', `${pg.name}-interactive-${x.name}.txt`), x.lastInteractive);
  }
  if (pg.name === 'shop') {
    for (const x of parts) {
      if (x.page.error || x.inproc) continue;
      x.page.completeness = shopCompleteness(x.lastSnap);
      mkdirSync(join(here, 'out'), { recursive: true });
      writeFileSync(join(here, 'out', `shop-${x.name}.txt`), x.lastSnap);
    }
    await rounds(parts, QUICK_REPS, async (x) => {
      const ref = x.spec.clickRef(x.lastSnap);
      if (!ref) throw new Error('no "Add to Cart" button in the snapshot');
      const c = await x.call(x.spec.click(ref, x.tools));
      push(x, 'click', c.ms); push(x, 'click_chars', c.text.length);
      // A snapshot of a document already snapshotted: no server's code is
      // cold here, unlike right after a navigation.
      const b = await x.call(x.spec.snapshot());
      push(x, 'snapshot_same_doc', b.ms);
      x.lastSnap = b.text;
    });
    await rounds(parts, QUICK_REPS, async (x) => {
      x.typeRef ||= x.spec.typeRef(x.lastSnap);
      if (!x.typeRef) throw new Error('no "Full name" textbox in the snapshot');
      push(x, 'type', (await x.call(x.spec.type(x.typeRef, x.tools))).ms);
    });
    const structured = parts.filter((x) => x.spec.structure);
    for (let k = 0; k < 3; k++) {
      await rounds(structured, QUICK_REPS, async (x) => {
        const [tool, args] = x.spec.structure(x.spec.clickRef(x.lastSnap))[k];
        push(x, tool, (await x.call([tool, args])).ms);
      });
    }
  }
  for (const x of parts) {
    const a = acc.get(x);
    for (const [k, xs] of Object.entries(a)) {
      x.page[k] = k.endsWith('_chars') ? stats(xs).median : stats(xs);
    }
    if (x.page.snapshot_chars != null) x.page.snapshot_tokens = Math.ceil(x.page.snapshot_chars / 4);
    if (pg.name === 'frames' && x.lastSnap != null) {
      x.page.frames_seen = {
        nested: [1, 2, 3, 4, 5].filter((i) => x.lastSnap.includes(`Nested frame ${i}`)).length,
        cross_origin: [1, 2, 3, 4, 5].filter((i) => x.lastSnap.includes(`Cross-origin frame ${i}`)).length,
      };
    }
  }
}

// One cold start: a fresh server process timed from spawn to its first
// snapshot of url (initialize, navigate, snapshot), and to its exit once
// the client closes its input.
async function coldOnce(s, url) {
  const transport = new StdioClientTransport({ command: s.command, args: s.args, stderr: 'ignore', cwd: ROOT, env: { ...MCP_ENV, ...s.env } });
  const client = new Client({ name: 'vdxlua-bench-cold', version: '1.0.0' });
  const t0 = now();
  await client.connect(transport);
  const tools = Object.fromEntries((await client.listTools()).tools.map((t) => [t.name, t]));
  for (const pair of [s.navigate(url, tools), s.snapshot()]) {
    const res = await client.callTool({ name: pair[0], arguments: pair[1] }, undefined, { timeout: CALL_TIMEOUT });
    if (res.isError) throw new Error(`${pair[0]}: ${replyText(res).slice(0, 300)}`);
  }
  const first = now() - t0;
  const pid = transport.pid;
  await closeMcp(s, client);
  while (pid && alive(pid)) await new Promise((r) => setTimeout(r, 5));
  return { first, exit: now() - t0 };
}

function alive(pid) {
  try { process.kill(pid, 0); } catch { return false; }
  try { return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8')); } catch { return false; }
}

// ------------------------------------------------------------ main

const loadText = (l) => l.map((x) => x.toFixed(1)).join('/');
const loadStart = loadavg();
console.log(`load average at start: ${loadText(loadStart)}`);
const fixtures = await startFixtures();
const base = fixtures.base;
// The small pages' cells (navigate, snapshots) take QUICK_REPS too: their
// tails are part of what the bench reports, and a p95 of 7 calls is the
// slowest of them.  The 20,000 and 100,000-element pages keep fewer (each
// of their calls takes seconds on some servers).
const pages = [{ name: 'shop', url: `${base.local}/shop.html`, reps: QUICK_REPS }];
for (const n of SIZES) pages.push({ name: `elements-${n}`, url: `${base.local}/elements-${n}.html`, reps: n >= 100000 ? Math.max(2, Math.floor(REPS / 3)) : n >= 20000 ? Math.max(3, Math.floor(REPS / 2)) : QUICK_REPS });
pages.push({ name: 'frames', url: `${base.a}/frames.html`, reps: QUICK_REPS });
pages.push({ name: 'shadow', url: `${base.local}/shadow.html`, reps: QUICK_REPS });

const { list, tmp } = servers(base);
const vdxMcp = await vdxluaMcpAnswers();
const results = { machine: { load: loadStart, cpus: cpus().length, cpu_model: cpus()[0]?.model, date: new Date().toISOString() },
  reps: REPS, quick_reps: QUICK_REPS, interleaved: true, servers: {} };
if (!vdxMcp) results.note = 'vdxlua mcp did not answer initialize: only the in-process figures (make bench) stand for vdxlua';
// Every server starts first, then each page's operations go round-robin
// over all of them (vdxlua in process too), so a ratio compares calls made
// at the same time under the same machine load.
const parts = [];
for (const s of list) {
  if (s.name === 'vdxlua-mcp' && !vdxMcp) continue;
  process.stderr.write(`peers: starting ${s.name}\n`);
  try {
    parts.push(await startMcp(s, pages[0].url));
  } catch (e) {
    results.servers[s.name] = { name: s.name, error: String(e.message || e) };
    process.stderr.write(`peers: ${s.name} failed: ${e.stack || e}\n`);
  }
}
if (!ONLY || ONLY.includes('vdxlua-mcp')) {
  process.stderr.write('peers: starting vdxlua in process\n');
  try { parts.push(await startInproc(pages[0].url)); }
  catch (e) { results.inproc = { error: String(e.message || e).slice(0, 400) }; }
  process.stderr.write('peers: starting the floor\n');
  try { parts.push(await startInproc(pages[0].url, FLOOR)); }
  catch (e) { results.floor = { error: String(e.message || e).slice(0, 400) }; }
}
const pageResults = new Map(parts.map((x) => [x, {}]));
for (const pg of pages) {
  process.stderr.write(`peers: ${pg.name}, ${pg.reps} rounds\n`);
  await runPage(parts, pg);
  for (const x of parts) pageResults.get(x)[pg.name] = x.page;
}
// Memory is read at rest, a second after the last call, the same for
// every server: what a server holds while its agent thinks.
await new Promise((ok) => setTimeout(ok, 1000));
for (const x of parts) {
  if (x.floor) {
    results.floor = { pages: pageResults.get(x) };
  } else if (x.inproc) {
    results.inproc = { pages: pageResults.get(x) };
  } else {
    results.servers[x.name] = { name: x.name, init_ms: x.init_ms, first_call_ms: x.first_call_ms,
      pages: pageResults.get(x), server_memory: smaps(x.pid), browser_tree: treeMem(x.pid),
      stderr_tail: x.stderr.join('').slice(-600) };
  }
  await x.close();
}
// Cold starts, in rounds as well, once the warm servers are gone.
const coldList = list.filter((s) => results.servers[s.name] && !results.servers[s.name].error);
if (COLD > 0 && coldList.length) {
  process.stderr.write('peers: cold starts\n');
  const cold = Object.fromEntries(coldList.map((s) => [s.name, { first: [], exit: [] }]));
  for (let i = 0; i < COLD; i++) {
    for (const s of rotate(coldList, i)) {
      const c = cold[s.name];
      if (c.error) continue;
      try {
        const r = await coldOnce(s, pages[0].url);
        c.first.push(r.first); c.exit.push(r.exit);
      } catch (e) { c.error = String(e.message || e); }
    }
  }
  for (const s of coldList) {
    const c = cold[s.name];
    results.servers[s.name].cold = c.error ? { error: c.error } : { first_snapshot: stats(c.first), exit: stats(c.exit) };
  }
}
fixtures.proc.stdin.end();
fixtures.proc.kill('SIGTERM');
rmSync(tmp, { recursive: true, force: true });
results.machine.load_end = loadavg();
console.log(`load average at end: ${loadText(results.machine.load_end)}`);

// ------------------------------------------------------------ report

const ref = results.servers['playwright-mcp'];
const fmt = (x) => x == null ? 'n/a' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2);
const ratio = (a, b) => (a == null || !b) ? 'n/a' : (a / b).toFixed(2) + 'x';
const pad = (s, w, right) => { s = String(s); return s.length >= w ? s : right ? ' '.repeat(w - s.length) + s : s + ' '.repeat(w - s.length); };
const TOOLS = ['navigate', 'snapshot', 'snapshot_interactive', 'snapshot_same_doc', 'click', 'type', 'resolve_container', 'inspect_pattern', 'extract_anchors'];
const m = results.machine;
console.log(`MCP servers side by side, ${m.date}, ${m.cpus} cores (${m.cpu_model}), load ${loadText(m.load)} at start, ` +
  `${loadText(m.load_end)} at end, ${QUICK_REPS} reps (fewer for the 20,000 and 100,000-element pages), the servers interleaved (round-robin, the order balanced over the reps)`);
console.log('each cell: median ms / p95 ms, and the median as a ratio to Playwright MCP\'s; "in-process" is vdxlua without MCP,');
console.log('and "MCP/in" the vdxlua MCP median and p95 over the in-process ones (snapshot: right after navigate, 12,000-token budget)');
const names = Object.keys(results.servers);
const cell = (st, q) => st?.median == null ? 'n/a' : `${fmt(st.median)}/${fmt(st.p95)}` + (q ? ' ' + ratio(st.median, q.median) : '');
let head = pad('page', 16) + pad('tool', 18);
for (const n of names) head += pad(n, 24);
head += pad('in-process', 14) + pad('MCP/in', 12);
console.log(head);
for (const pg of pages) {
  for (const tool of TOOLS) {
    const row = names.map((n) => results.servers[n].pages?.[pg.name]?.[tool]);
    const inp = results.inproc?.pages?.[pg.name]?.[tool];
    if (row.every((x) => !x) && !inp) continue;
    const q = ref?.pages?.[pg.name]?.[tool];
    let line = pad(pg.name, 16) + pad(tool, 18);
    names.forEach((n, i) => { line += pad(cell(row[i], n === 'playwright-mcp' ? null : q), 24); });
    const v = results.servers['vdxlua-mcp']?.pages?.[pg.name]?.[tool];
    line += pad(cell(inp), 14) + pad(v && inp ? `${ratio(v.median, inp.median)} ${ratio(v.p95, inp.p95)}` : '', 12);
    console.log(line);
  }
  for (const n of names) {
    const p = results.servers[n].pages?.[pg.name];
    if (p?.error) console.log(pad(pg.name, 16) + pad('error', 18) + n + ': ' + p.error.split('\n')[0].slice(0, 100));
  }
}
console.log();
console.log(pad('page', 16) + pad('reply chars', 18) + names.map((n) => pad(n, 24)).join(''));
for (const pg of pages) {
  for (const key of ['snapshot', 'snapshot_interactive']) {
    if (names.every((n) => results.servers[n].pages?.[pg.name]?.[key + '_chars'] == null)) continue;
    let line = pad(pg.name, 16) + pad(key, 18);
    for (const n of names) {
      const c = results.servers[n].pages?.[pg.name]?.[key + '_chars'];
      line += pad(c == null ? 'n/a' : c + (n === 'playwright-mcp' ? '' : ' ' + ratio(c, ref?.pages?.[pg.name]?.snapshot_chars)), 24);
    }
    console.log(line);
  }
}
console.log();
bestPeerReport(results, pages, TOOLS, console.log);
console.log();
console.log('cold start, a fresh server process to its first snapshot of the shop (initialize, navigate, snapshot),');
console.log(`and to its exit after the client closes: median/p95 ms over ${COLD} runs`);
for (const n of names) {
  const c = results.servers[n].cold;
  if (!c) continue;
  if (c.error) { console.log(`  ${pad(n, 21)} error: ${c.error}`); continue; }
  console.log(`  ${pad(n, 21)} first snapshot ${cell(c.first_snapshot, n === 'playwright-mcp' ? null : ref?.cold?.first_snapshot)}` +
    `   exit ${cell(c.exit, n === 'playwright-mcp' ? null : ref?.cold?.exit)}`);
}
console.log();
console.log(pad('server', 21) + pad('RSS MiB', 9, true) + pad('vs PW', 8, true) + pad('PSS MiB', 9, true) +
  pad('browser RSS', 13, true) + pad('procs', 7, true) + pad('start ms', 10, true) + pad('1st nav ms', 12, true));
for (const [name, r] of Object.entries(results.servers)) {
  if (r.error) { console.log(pad(name, 21) + '  error: ' + r.error); continue; }
  const mib = (k) => k == null ? 'n/a' : (k / 1024).toFixed(1);
  console.log(pad(name, 21) + pad(mib(r.server_memory?.rss_kib), 9, true) +
    pad(ratio(r.server_memory?.rss_kib, ref?.server_memory?.rss_kib), 8, true) + pad(mib(r.server_memory?.pss_kib), 9, true) +
    pad(mib(r.browser_tree?.rss_kib), 13, true) + pad(r.browser_tree?.processes ?? 'n/a', 7, true) +
    pad(fmt(r.init_ms), 10, true) + pad(fmt(r.first_call_ms), 12, true));
}
console.log();
console.log('shop snapshot completeness (prices/200, products/200, Add to Cart/200, nav/10, fields/6, country value, checkbox state):');
for (const [name, r] of Object.entries(results.servers)) {
  const c = r.pages?.shop?.completeness;
  if (c) console.log(`  ${pad(name, 21)} ${c.prices} ${c.products} ${c.add_to_cart} ${c.nav_links} ${c.labelled_fields} ${c.country_value} ${c.checkbox_checked}`);
}
console.log('shop snapshot after a click (same document, no cold code), median ms and ratio to Playwright MCP:');
for (const [name, r] of Object.entries(results.servers)) {
  const a = r.pages?.shop?.snapshot_same_doc;
  if (a) console.log(`  ${pad(name, 21)} ${fmt(a.median)} ${ratio(a.median, ref?.pages?.shop?.snapshot_same_doc?.median)}`);
}
console.log('frames page, frame contents seen in the last snapshot (nested/5, cross-origin/5):');
for (const [name, r] of Object.entries(results.servers)) {
  const c = r.pages?.frames?.frames_seen;
  if (c) console.log(`  ${pad(name, 21)} ${c.nested} ${c.cross_origin}`);
}
if (results.note) console.log('note: ' + results.note);

// The same figures as a Markdown table (bench/README.md's latest run is
// pasted from it): bench/out/peers-table.md.
function markdown() {
  const cols = ['playwright-mcp', 'chrome-devtools-mcp', 'agent-browser', 'vdxlua-mcp'].filter((n) => results.servers[n]);
  const md = (st, q) => st?.median == null ? 'n/a'
    : `${fmt(st.median)} / ${fmt(st.p95)} ms` + (q?.median ? ` (${ratio(st.median, q.median)})` : '');
  const out = [`MCP side by side (\`make bench-peers\`), ${m.date.slice(0, 16).replace('T', ' ')} UTC, ` +
    `${m.cpus}-core ${m.cpu_model}, load ${loadText(m.load)} at start and ${loadText(m.load_end)} at end, ${QUICK_REPS} reps ` +
    `(fewer for the 20,000 and 100,000-element pages) ` +
    `with the servers interleaved, every one on \`${CHROMIUM}\`; ` +
    'median / p95, and the median\'s ratio to Playwright MCP\'s:', '',
    `| page, tool | ${cols.join(' | ')} | vdxlua in process | MCP / in process (median, p95) |`,
    `|---|${cols.map(() => '---').join('|')}|---|---|`];
  for (const pg of pages) {
    for (const tool of TOOLS) {
      const inp = results.inproc?.pages?.[pg.name]?.[tool];
      const row = cols.map((n) => results.servers[n].pages?.[pg.name]?.[tool]);
      if (row.every((x) => !x) && !inp) continue;
      const q = ref?.pages?.[pg.name]?.[tool];
      const v = results.servers['vdxlua-mcp']?.pages?.[pg.name]?.[tool];
      out.push(`| ${pg.name} ${tool.replace(/_/g, ' ')} | ${row.map((st, i) => md(st, cols[i] === 'playwright-mcp' ? null : q)).join(' | ')} | ` +
        `${md(inp)} | ${v && inp ? `${ratio(v.median, inp.median)}, ${ratio(v.p95, inp.p95)}` : ''} |`);
    }
  }
  const cold = cols.map((n) => results.servers[n].cold?.first_snapshot);
  if (cold.some(Boolean)) {
    out.push(`| cold start to first snapshot | ${cold.map((st, i) => md(st, i ? results.servers[cols[0]].cold?.first_snapshot : null)).join(' | ')} | | |`);
  }
  const rss = cols.map((n) => results.servers[n].server_memory?.rss_kib);
  out.push(`| server RSS | ${rss.map((k, i) => k == null ? 'n/a' : `${(k / 1024).toFixed(1)} MiB` +
    (i ? ` (${ratio(k, rss[0])})` : '')).join(' | ')} | | |`);
  return out.join('\n') + '\n';
}
mkdirSync(join(here, 'out'), { recursive: true });
writeFileSync(join(here, 'out', 'peers-table.md'), markdown());
console.log(`wrote ${join(here, 'out', 'peers-table.md')}`);

mergeResults(OUT, 'peers', results);
console.log(`wrote ${OUT}`);
process.exit(0);
