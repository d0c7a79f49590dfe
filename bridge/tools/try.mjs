#!/usr/bin/env node
// try.mjs -- a development harness for the bridge.  Plain Node, no
// dependencies.
//
//   node tools/try.mjs PAGE [--depth N] [--root REF] [--repeat N] [--quiet]
//       Opens PAGE (a file path or a file:/http: URL) in headless Chromium,
//       evaluates dist/vdx-bridge.js in an isolated world of every frame,
//       prints the stitched snapshot text and the timing of each frame.
//   node tools/try.mjs --check [--chrome]
//       Checks spec/fixtures/snapshot/names.html and roles.html: every
//       element with data-case/data-expect (names), data-expect-description
//       (descriptions, read through accessible() by data-case, so light DOM
//       only) or data-expect-role (roles) whose computed value differs is
//       reported; exits 1 on any.
//       --chrome also prints what Chromium's own accessibility tree says.
//
// Chromium is driven over --remote-debugging-pipe (fd 3 in, fd 4 out,
// NUL-separated JSON).  Its process tree is killed on exit.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const bridgeDir = join(here, '..');
const fixtures = join(bridgeDir, '..', 'spec', 'fixtures', 'snapshot');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const FRAME_MARK = '\u0001frame:';

function parseArgs(argv) {
  const a = { page: null, depth: null, root: null, repeat: 3, check: false, chrome: false, quiet: false };
  for (let i = 0; i < argv.length; i++) {
    const v = argv[i];
    if (v === '--check') a.check = true;
    else if (v === '--chrome') a.chrome = true;
    else if (v === '--quiet') a.quiet = true;
    else if (v === '--depth') a.depth = +argv[++i];
    else if (v === '--root') a.root = argv[++i];
    else if (v === '--repeat') a.repeat = +argv[++i];
    else if (!a.page) a.page = v;
    else throw new Error('unexpected argument ' + v);
  }
  return a;
}

function toURL(page) {
  if (/^(https?|file|about|data):/.test(page)) return page;
  return pathToFileURL(resolve(page)).href;
}

// ---------------------------------------------------------------- browser

class Browser {
  constructor() {
    this.dir = mkdtempSync(join(tmpdir(), 'vdx-try-'));
    this.proc = spawn(CHROMIUM, [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
      '--remote-debugging-pipe', `--user-data-dir=${this.dir}`, 'about:blank',
    ], { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'], detached: true });
    this.nextId = 1;
    this.pending = new Map();
    this.listeners = [];
    let buf = '';
    this.proc.stdio[4].on('data', (chunk) => {
      buf += chunk.toString('utf8');
      let end;
      while ((end = buf.indexOf('\0')) >= 0) {
        const msg = JSON.parse(buf.slice(0, end));
        buf = buf.slice(end + 1);
        this.dispatch(msg);
      }
    });
    this.proc.on('exit', () => {
      for (const p of this.pending.values()) p.reject(new Error('chromium exited'));
      this.pending.clear();
    });
  }

  dispatch(msg) {
    if (msg.id !== undefined) {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.error) p.reject(new Error(`${p.method}: ${msg.error.message}`));
      else p.resolve(msg.result);
      return;
    }
    for (const l of this.listeners.slice()) l(msg);
  }

  send(method, params = {}, sessionId) {
    const id = this.nextId++;
    const msg = { id, method, params };
    if (sessionId) msg.sessionId = sessionId;
    this.proc.stdio[3].write(JSON.stringify(msg) + '\0');
    return new Promise((res, rej) => this.pending.set(id, { resolve: res, reject: rej, method }));
  }

  waitEvent(method, sessionId, timeoutMs = 15000) {
    return new Promise((res, rej) => {
      const timer = setTimeout(() => { done(); rej(new Error('timeout waiting for ' + method)); }, timeoutMs);
      const l = (msg) => {
        if (msg.method === method && (!sessionId || msg.sessionId === sessionId)) { done(); res(msg.params); }
      };
      const done = () => { clearTimeout(timer); this.listeners = this.listeners.filter((x) => x !== l); };
      this.listeners.push(l);
    });
  }

  close() {
    try { process.kill(-this.proc.pid, 'SIGKILL'); } catch (e) { /* already gone */ }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

// A page session with the bridge evaluated in an isolated world of each
// frame.
async function openPage(browser, url) {
  const { targetId } = await browser.send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await browser.send('Target.attachToTarget', { targetId, flatten: true });
  const send = (m, p) => browser.send(m, p, sessionId);
  await send('Page.enable');
  await send('DOM.enable');
  const loaded = browser.waitEvent('Page.loadEventFired', sessionId);
  await send('Page.navigate', { url });
  await loaded;
  return { send, sessionId, targetId };
}

async function injectFrames(page, bundle) {
  const { frameTree } = await page.send('Page.getFrameTree');
  const frames = [];
  let counter = 0;
  const walk = (node, parent) => {
    const prefix = parent ? `f${++counter}_` : '';
    const f = { id: node.frame.id, prefix, parent, key: parent ? `frame-${counter}` : 'main' };
    frames.push(f);
    for (const c of node.childFrames || []) walk(c, f);
  };
  walk(frameTree, null);
  for (const f of frames) {
    const { executionContextId } = await page.send('Page.createIsolatedWorld',
      { frameId: f.id, worldName: 'vdx', grantUniveralAccess: false });
    f.ctx = executionContextId;
    await evaluate(page, f.ctx, bundle);
    await evaluate(page, f.ctx, bundle); // a second evaluation must be a no-op
    const r = await page.send('Runtime.evaluate', {
      expression: `globalThis.__vdxBridge.create({ prefix: ${JSON.stringify(f.prefix)} })`,
      contextId: f.ctx,
    });
    if (r.exceptionDetails) throw new Error(describeException(r.exceptionDetails));
    f.instance = r.result.objectId;
  }
  for (const f of frames) {
    if (!f.parent) continue;
    const owner = await page.send('DOM.getFrameOwner', { frameId: f.id });
    const node = await page.send('DOM.resolveNode',
      { backendNodeId: owner.backendNodeId, executionContextId: f.parent.ctx });
    await callOn(page, f.parent.instance, 'function (el, key) { return this.tagFrame(el, key); }',
      [{ objectId: node.object.objectId }, { value: f.key }]);
  }
  return frames;
}

function describeException(d) {
  return d.exception && d.exception.description ? d.exception.description : d.text;
}

async function evaluate(page, contextId, expression) {
  const r = await page.send('Runtime.evaluate', { expression, contextId, returnByValue: true });
  if (r.exceptionDetails) throw new Error(describeException(r.exceptionDetails));
  return r.result.value;
}

async function callOn(page, objectId, fn, args = [], returnByValue = true) {
  const r = await page.send('Runtime.callFunctionOn',
    { objectId, functionDeclaration: fn, arguments: args, returnByValue });
  if (r.exceptionDetails) throw new Error(describeException(r.exceptionDetails));
  return returnByValue ? r.result.value : r.result;
}

// Replaces each frame placeholder with that frame's text, indented to the
// placeholder's column.
function stitch(text, byKey) {
  return text.split('\n').map((line) => {
    const at = line.indexOf(FRAME_MARK);
    if (at < 0) return line;
    const key = line.slice(at + FRAME_MARK.length);
    const child = byKey.get(key);
    if (child === undefined) return line.slice(0, at) + `- text: "(frame ${key} not snapshotted)"`;
    const pad = line.slice(0, at);
    if (child === '') return pad + '- text: "(empty frame)"';
    return child.split('\n').map((l) => pad + l).join('\n');
  }).join('\n');
}

// ---------------------------------------------------------------- modes

const SNAPSHOT_FN = `function (opts) {
  const t0 = performance.now();
  const r = this.snapshot(opts);
  r.ms = performance.now() - t0;
  return r;
}`;

async function runSnapshot(browser, args, bundle) {
  const page = await openPage(browser, toURL(args.page));
  const frames = await injectFrames(page, bundle);
  const opts = {};
  if (args.depth != null) opts.depth = args.depth;
  if (args.root) opts.root = args.root;
  const texts = new Map();
  const report = [];
  for (const f of frames.slice().reverse()) {
    const runs = [];
    let result;
    for (let i = 0; i < Math.max(1, args.repeat); i++) {
      result = await callOn(page, f.instance, SNAPSHOT_FN, [{ value: f.parent ? {} : opts }]);
      runs.push(result.ms);
    }
    texts.set(f.key, stitch(result.text, texts));
    report.push({ frame: f.key, ...result, runs });
  }
  const main = texts.get('main');
  if (!args.quiet) console.log(main);
  console.log('---');
  for (const r of report.reverse()) {
    console.log(`${r.frame}: ${r.text.length} chars, ${r.element_count} elements, ${r.ref_count} refs, ` +
      `${r.unmeasurable} unmeasurable, frames [${r.frames.join(', ')}], ` +
      `ms first ${r.runs[0].toFixed(2)} then ${r.runs.slice(1).map((x) => x.toFixed(2)).join(' ')}`);
  }
  console.log(`stitched: ${main.length} chars`);
}

// Collects the case elements of a fixture, looking into open shadow roots.
const CASES_FN = `function (attrName) {
  const out = [];
  const visit = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.hasAttribute(attrName)) out.push(el);
      if (el.shadowRoot) visit(el.shadowRoot);
    }
  };
  visit(document);
  return out;
}`;

const EXPECT_ATTRIBUTE = {
  name: 'data-expect', description: 'data-expect-description', role: 'data-expect-role',
};

async function checkFixture(browser, file, kind, chrome) {
  const page = await openPage(browser, pathToFileURL(join(fixtures, file)).href);
  const [f] = await injectFrames(page, readFileSync(bundlePath(), 'utf8'));
  const attrName = EXPECT_ATTRIBUTE[kind];
  const results = await callOn(page, f.instance, `function () {
    const els = (${CASES_FN})(${JSON.stringify(attrName)});
    const describe = (el) => {
      const found = this.accessible('[data-case="' + CSS.escape(el.getAttribute('data-case') || '') + '"]', 1);
      return found.total === 1 ? found.items[0].description : '(no unique data-case)';
    };
    return els.map((el) => ({
      id: el.getAttribute('data-case') || el.id || el.localName,
      expect: el.getAttribute(${JSON.stringify(attrName)}),
      got: ${kind === 'name' ? 'this.name(el)' : kind === 'role' ? 'this.role(el)' : 'describe(el)'},
      html: el.outerHTML.slice(0, 140),
    }));
  }`);
  let bad = 0;
  for (let i = 0; i < results.length; i++) {
    const r = results[i];
    let ax = '';
    if (chrome) ax = await chromeView(page, f, attrName, i, kind);
    const ok = r.got === r.expect;
    if (!ok) bad++;
    if (!ok || chrome) {
      console.log(`${ok ? 'ok  ' : 'FAIL'} ${file} ${r.id}: expected ${JSON.stringify(r.expect)}, ` +
        `got ${JSON.stringify(r.got)}${ax}${ok ? '' : '\n       ' + r.html}`);
    }
  }
  console.log(`${file} (${kind}s): ${results.length - bad} passed, ${bad} failed`);
  return bad;
}

// What Chromium's accessibility tree says about case i.
async function chromeView(page, f, attrName, i, kind) {
  const obj = await callOn(page, f.instance,
    `function (i) { return (${CASES_FN})(${JSON.stringify(attrName)})[i]; }`, [{ value: i }], false);
  const { node } = await page.send('DOM.describeNode', { objectId: obj.objectId });
  const { nodes } = await page.send('Accessibility.getPartialAXTree',
    { backendNodeId: node.backendNodeId, fetchRelatives: false });
  const ax = nodes[0] || {};
  const name = ax.name ? ax.name.value : '';
  const role = ax.role ? ax.role.value : '';
  if (kind === 'description') return ` [chromium: ${JSON.stringify(ax.description ? ax.description.value : '')}]`;
  return ` [chromium: ${role} ${JSON.stringify(name)}]`;
}

function bundlePath() {
  return join(bridgeDir, 'dist', 'vdx-bridge.js');
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (!args.check && !args.page) {
    console.error('usage: try.mjs PAGE [--depth N] [--root REF] [--repeat N] [--quiet] | --check [--chrome]');
    process.exit(2);
  }
  const bundle = readFileSync(bundlePath(), 'utf8');
  const browser = new Browser();
  const cleanup = () => browser.close();
  process.on('SIGINT', () => { cleanup(); process.exit(130); });
  let status = 0;
  try {
    await browser.send('Target.setDiscoverTargets', { discover: false });
    if (args.check) {
      let bad = 0;
      bad += await checkFixture(browser, 'names.html', 'name', args.chrome);
      bad += await checkFixture(browser, 'names.html', 'description', args.chrome);
      bad += await checkFixture(browser, 'roles.html', 'role', args.chrome);
      console.log(bad === 0 ? 'check: all cases pass' : `check: ${bad} mismatches`);
      status = bad === 0 ? 0 : 1;
    } else {
      await runSnapshot(browser, args, bundle);
    }
  } catch (e) {
    console.error(e.stack || String(e));
    status = 1;
  } finally {
    cleanup();
  }
  process.exit(status);
}

// Run as a script; importing the module (for ad-hoc experiments) only
// exposes the helpers.
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();

export { Browser, openPage, injectFrames, callOn, evaluate, stitch };
