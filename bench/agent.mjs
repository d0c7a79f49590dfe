// bench/agent.mjs: the real job, measured.  For each of four apps of our
// own (bench/agent/apps/: a todo app, a widgets page, a long documentation
// page with live examples, a shadow-DOM shop) one scripted agent session
// goes through `vdxlua mcp` and the same user story through Playwright MCP
// (with its testing tools, `--caps testing`), each server's best path:
// explore, act, verify, and end with a Playwright spec (vdxlua:
// browser_export_test; Playwright MCP: the code it prints after each call,
// its "### Ran Playwright code" sections, put in a test).  Refs come from
// the servers' answers at run time.  Counts per server and app the tool
// calls and the characters returned (the text content of every reply),
// prints them with the ratios vdxlua / Playwright MCP, runs every spec 3
// times under @playwright/test and flags positional locators.  Merges an
// "agent" section into bench/results.json.
//
// The sessions live in bench/agent/sessions.mjs; this file runs them.
// Run by `make bench-agent`.  Environment: AGENT_APPS (comma list of
// todo,widgets,docs,shadow), AGENT_ONLY (playwright-mcp or vdxlua-mcp),
// AGENT_RUNS (spec runs, default 3), AGENT_VERBOSE=1 (print every call
// and reply), VDXLUA.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir, loadavg, cpus } from 'node:os';
import { join, resolve, isAbsolute } from 'node:path';
import { here, peers, ROOT, CHROMIUM, RESOLVER_ARG, MCP_ENV, loadSdk, replyText, playwrightMcpCommand,
  vdxluaMcpCommand, startFixtures, mergeResults } from './mcp_common.mjs';
import { APPS, SESSIONS } from './agent/sessions.mjs';

const OUT = resolve(ROOT, process.env.BENCH_OUT || 'bench/results.json');
const RUNS = Number(process.env.AGENT_RUNS || 3);
const VERBOSE = !!process.env.AGENT_VERBOSE;
const ONLY = process.env.AGENT_ONLY ? process.env.AGENT_ONLY.split(',') : null;
const APP_LIST = (process.env.AGENT_APPS || APPS.join(',')).split(',').filter(Boolean);
const CALL_TIMEOUT = 180000;
const POSITIONAL = [/\.nth\(/, /\.first\(\)/, /\.last\(\)/, /locator\(\s*['"]\.\.['"]\s*\)/];

if (!CHROMIUM) {
  console.log('bench-agent: skipped, no Chromium (/usr/bin/chromium-headless-shell or /usr/bin/chromium; $VDX_CHROMIUM)');
  process.exit(0);
}
let sdk;
try { sdk = await loadSdk(); } catch (e) {
  console.log(`bench-agent: skipped, the MCP SDK is not in bench/.peers (run make bench-agent): ${e.message}`);
  process.exit(0);
}

// ------------------------------------------------------------ a session

// One MCP server driven by one scripted agent: every call counted, every
// reply's text summed, Playwright MCP's printed code kept in order.
class Agent {
  constructor(name, client, tools, dir) {
    Object.assign(this, { name, client, tools, dir, calls: 0, chars: 0, log: [], code: [], notes: [] });
  }

  /** Whether the server offers tool. */
  has(tool) { return !!this.tools[tool]; }

  /** Calls tool with args; returns the reply's text.  An error reply
   * throws unless opts.allowError (then { error: true, text }). */
  async call(tool, args = {}, opts = {}) {
    if (!this.has(tool)) throw new Error(`${this.name} has no tool ${tool}`);
    const res = await this.client.callTool({ name: tool, arguments: args }, undefined,
      { timeout: CALL_TIMEOUT, resetTimeoutOnProgress: true });
    const text = replyText(res);
    this.calls++;
    this.chars += text.length;
    this.log.push({ tool, args, chars: text.length, error: !!res.isError });
    if (VERBOSE) console.log(`--- ${this.name} ${tool} ${JSON.stringify(args)} (${text.length} chars${res.isError ? ', error' : ''})\n${text}`);
    for (const m of text.matchAll(/### Ran Playwright code\n```\w*\n([\s\S]*?)```/g)) this.code.push(m[1].trimEnd());
    if (res.isError && !opts.allowError) throw new Error(`${tool}: ${text.slice(0, 400)}`);
    return opts.allowError ? { error: !!res.isError, text } : text;
  }

  /** Records a fallback or a limit of the session, printed with the table. */
  note(s) { if (!this.notes.includes(s)) this.notes.push(s); }
}

async function startAgent(name, dir) {
  const tmp = mkdtempSync(join(tmpdir(), `vdx-agent-${name}-`));
  const peerTmp = join(tmp, 'tmp');
  mkdirSync(peerTmp);
  const cmd = name === 'playwright-mcp'
    ? playwrightMcpCommand(tmp, ['--caps', 'testing'])
    : vdxluaMcpCommand(['--output-dir', dir]);
  const transport = new sdk.StdioClientTransport({ ...cmd, cwd: ROOT, stderr: 'pipe',
    env: { ...MCP_ENV, TMPDIR: name === 'playwright-mcp' ? peerTmp : MCP_ENV.TMPDIR || '/tmp' } });
  const stderr = [];
  transport.stderr?.on('data', (d) => { if (stderr.length < 100) stderr.push(String(d)); });
  const client = new sdk.Client({ name: 'vdxlua-bench-agent', version: '1.0.0' });
  await client.connect(transport);
  const listed = (await client.listTools()).tools;
  const tools = Object.fromEntries(listed.map((t) => [t.name, t]));
  const agent = new Agent(name, client, tools, dir);
  // What every session pays once, before its first call: the tool list.
  agent.listed = { tools: listed.length, chars: JSON.stringify(listed).length };
  agent.close = async () => { await client.close(); rmSync(tmp, { recursive: true, force: true }); };
  agent.stderr = stderr;
  return agent;
}

// ------------------------------------------------------------ specs

// Playwright MCP's spec: its printed code, in the order it ran, in a test.
function assembleSpec(app, code) {
  const body = code.join('\n').split('\n').map((l) => '  ' + l).join('\n');
  return `import { test, expect } from '@playwright/test';\n\ntest('${app}', async ({ page }) => {\n${body}\n});\n`;
}

// The spec's positional locators, as the lines that hold them.
function positional(text) {
  return text.split('\n').filter((l) => POSITIONAL.some((re) => re.test(l))).map((l) => l.trim());
}

// Runs spec file (in dir, beside a config) RUNS times in one process
// (--repeat-each); returns { passed, runs, error? }.
function runSpec(dir, file, base) {
  const cli = join(peers, 'node_modules/@playwright/test/cli.js');
  if (!existsSync(cli)) return { skipped: '@playwright/test is not installed in bench/.peers (make bench-agent installs it)' };
  writeFileSync(join(dir, 'playwright.config.mjs'), `export default {
  testDir: '.', timeout: 30000, workers: 1, retries: 0,
  use: { baseURL: ${JSON.stringify(base)}, headless: true,
    launchOptions: { executablePath: ${JSON.stringify(CHROMIUM)}, args: ['--no-sandbox', ${JSON.stringify(RESOLVER_ARG)}] } },
};\n`);
  const jsonOut = join(dir, `${file}.json`);
  const r = spawnSync(process.execPath, [cli, 'test', '--config', join(dir, 'playwright.config.mjs'), '--repeat-each', String(RUNS),
    '--reporter', 'json', file], { cwd: dir, encoding: 'utf8', timeout: 300000,
    env: { ...MCP_ENV, PLAYWRIGHT_JSON_OUTPUT_NAME: jsonOut, BASE_URL: base, CHROMIUM_PATH: CHROMIUM } });
  let passed = 0, failure = null;
  try {
    const rep = JSON.parse(readFileSync(jsonOut, 'utf8'));
    const walk = (s) => {
      for (const sp of s.specs || []) for (const t of sp.tests || []) for (const res of t.results || []) {
        if (res.status === 'passed') passed++;
        else failure ||= (res.error?.message || res.status || '').replace(/\x1b\[[0-9;]*m/g, '').split('\n').slice(0, 4).join(' ');
      }
      for (const c of s.suites || []) walk(c);
    };
    for (const s of rep.suites || []) walk(s);
    if (!rep.suites?.length && rep.errors?.length) failure = rep.errors[0].message?.replace(/\x1b\[[0-9;]*m/g, '').split('\n')[0];
  } catch (e) { failure = `no report (${(r.stderr || r.stdout || String(e)).slice(0, 300)})`; }
  return { passed, runs: RUNS, ...(failure ? { failure: failure.slice(0, 400) } : {}) };
}

// ------------------------------------------------------------ main

const loadText = (l) => l.map((x) => x.toFixed(1)).join('/');
console.log(`load average at start: ${loadText(loadavg())}`);
const fixtures = await startFixtures();
const base = fixtures.base.local;
const specDir = join(peers, 'agent-specs');
rmSync(specDir, { recursive: true, force: true });
mkdirSync(specDir, { recursive: true });
const servers = ['playwright-mcp', 'vdxlua-mcp'].filter((n) => !ONLY || ONLY.includes(n));
const results = { machine: { load: loadavg(), cpus: cpus().length, cpu_model: cpus()[0]?.model, date: new Date().toISOString() },
  runs: RUNS, apps: {}, tools_list: {} };

for (const app of APP_LIST) {
  results.apps[app] = {};
  for (const name of servers) {
    const r = { calls: 0, chars: 0 };
    results.apps[app][name] = r;
    let agent;
    try {
      agent = await startAgent(name, specDir);
      process.stderr.write(`agent: ${app} on ${name}\n`);
      const spec = await SESSIONS[name][app](agent, `${base}/apps/${app === 'shadow' ? 'shadow-shop' : app}.html`, app);
      Object.assign(r, { calls: agent.calls, chars: agent.chars });
      let specFile = null;
      if (spec?.code) {
        specFile = `${name}-${app}.spec.mjs`;
        writeFileSync(join(specDir, specFile), assembleSpec(app, spec.code));
      } else if (spec?.path) {
        const src = isAbsolute(spec.path) ? spec.path : resolve(specDir, spec.path);
        specFile = `${name}-${app}.spec${/\.spec(\.\w+)$/.exec(src)?.[1] || '.ts'}`;
        if (resolve(src) !== join(specDir, specFile)) copyFileSync(src, join(specDir, specFile));
      }
      if (specFile) {
        r.spec = specFile;
        r.positional = positional(readFileSync(join(specDir, specFile), 'utf8'));
      } else {
        r.spec_missing = spec?.missing || 'the session produced no spec';
      }
    } catch (e) {
      r.error = String(e.message || e).slice(0, 500);
      if (agent) Object.assign(r, { calls: agent.calls, chars: agent.chars });
      process.stderr.write(`agent: ${app} on ${name} failed: ${e.stack || e}\n`);
      if (agent?.stderr.length) process.stderr.write(agent.stderr.join('').slice(-800) + '\n');
    }
    if (agent) {
      results.tools_list[name] = agent.listed;
      r.log = agent.log;
      if (agent.notes.length) r.notes = agent.notes;
      await agent.close();
    }
  }
}
// The specs run after the sessions, the fixture server still up.
for (const app of APP_LIST) {
  for (const name of servers) {
    const r = results.apps[app][name];
    if (!r.spec) continue;
    process.stderr.write(`agent: running ${r.spec} ${RUNS} times\n`);
    r.spec_runs = runSpec(specDir, r.spec, base);
  }
}
fixtures.proc.stdin.end();
fixtures.proc.kill('SIGTERM');
results.machine.load_end = loadavg();

// ------------------------------------------------------------ report

const pad = (s, w) => { s = String(s); return s.length >= w ? s + ' ' : s + ' '.repeat(w - s.length); };
const ratio = (a, b) => (a == null || !b) ? 'n/a' : (a / b).toFixed(2) + 'x';
const m = results.machine;
console.log(`\nThe agent's job (make bench-agent), ${m.date}, ${m.cpus} cores (${m.cpu_model}), load ${loadText(m.load)} at start, ${loadText(m.load_end)} at end`);
console.log(pad('app', 9) + pad('server', 16) + pad('calls', 7) + pad('chars', 9) + pad('calls vs PW', 13) + pad('chars vs PW', 13) +
  pad(`spec passes/${RUNS}`, 16) + 'positional');
for (const app of APP_LIST) {
  const pw = results.apps[app]['playwright-mcp'];
  for (const name of servers) {
    const r = results.apps[app][name];
    if (name !== 'playwright-mcp' && pw) {
      r.calls_ratio = pw.calls ? r.calls / pw.calls : null;
      r.chars_ratio = pw.chars ? r.chars / pw.chars : null;
    }
    const sp = r.spec_runs;
    const runs = r.error ? 'session failed' : !r.spec ? 'no spec' : sp?.skipped ? 'skipped' : `${sp.passed}/${sp.runs}`;
    console.log(pad(app, 9) + pad(name, 16) + pad(r.calls, 7) + pad(r.chars, 9) +
      pad(name === 'playwright-mcp' ? '' : ratio(r.calls, pw?.calls), 13) + pad(name === 'playwright-mcp' ? '' : ratio(r.chars, pw?.chars), 13) +
      pad(runs, 16) + (r.positional ? r.positional.length : 'n/a'));
  }
}
{
  const pwList = results.tools_list['playwright-mcp'];
  const says = servers.filter((n) => results.tools_list[n]).map((n) => {
    const l = results.tools_list[n];
    return `${n} ${l.tools} tools, ${l.chars} chars` + (n !== 'playwright-mcp' && pwList ? ` (${ratio(l.chars, pwList.chars)})` : '');
  });
  console.log(`tools/list, paid once a session (JSON of the tools): ${says.join('; ')}`);
  // The whole session's characters: the list and every answer.
  const whole = (app, n) => (results.tools_list[n]?.chars ?? 0) + results.apps[app][n].chars;
  if (pwList && servers.length > 1) {
    const line = APP_LIST.map((app) => {
      const r = results.apps[app]['vdxlua-mcp'];
      r.session_chars = whole(app, 'vdxlua-mcp');
      results.apps[app]['playwright-mcp'].session_chars = whole(app, 'playwright-mcp');
      return `${app} ${ratio(r.session_chars, results.apps[app]['playwright-mcp'].session_chars)}`;
    });
    console.log(`whole session (tools/list + answers), vdxlua vs Playwright MCP: ${line.join(', ')}`);
  }
}
console.log();
for (const app of APP_LIST) {
  for (const name of servers) {
    const r = results.apps[app][name];
    const say = (s) => console.log(`  ${app} ${name}: ${s}`);
    if (r.error) say(`error: ${r.error.split('\n')[0]}`);
    if (r.spec_missing) say(`no spec: ${r.spec_missing}`);
    if (r.spec_runs?.skipped) say(`spec runs skipped: ${r.spec_runs.skipped}`);
    if (r.spec_runs?.failure) say(`spec failure: ${r.spec_runs.failure}`);
    for (const l of r.positional || []) say(`positional locator: ${l}`);
    for (const n of r.notes || []) say(`note: ${n}`);
  }
}
const goal = APP_LIST.map((app) => {
  const v = results.apps[app]['vdxlua-mcp'];
  return v && !v.error && v.chars_ratio != null && v.chars_ratio <= 0.5 && v.calls_ratio <= 0.8 &&
    v.spec_runs?.passed === RUNS && v.positional?.length === 0;
});
results.goal_met = goal.length > 0 && goal.every(Boolean);
console.log(`goal (vdxlua <= 0.5x characters, <= 0.8x calls, spec ${RUNS}/${RUNS}, no positional locator, every app): ${results.goal_met ? 'met' : 'not met'}`);
console.log(`specs in ${specDir}`);
mergeResults(OUT, 'agent', results);
console.log(`wrote ${OUT}`);
process.exit(0);
