// bench/mcp_common.mjs: what bench/peers.mjs and bench/agent.mjs share —
// the MCP SDK loaded from bench/.peers, the browser every server runs,
// the fixture server (bench/serve_fixtures.lua) and the command lines of
// Playwright MCP and `vdxlua mcp`, so both harnesses start the same
// servers the same way.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';

export const here = resolve(new URL('.', import.meta.url).pathname);
export const peers = join(here, '.peers');
export const ROOT = resolve(here, '..');
export const VDXLUA = resolve(ROOT, process.env.VDXLUA || 'build/vdxlua');
// Every server runs the browser vdxlua launches by default: Debian's
// chromium-headless-shell when installed (Playwright's own choice for
// headless), else the full chromium.
export const CHROMIUM = process.env.VDX_CHROMIUM ||
  ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((p) => existsSync(p));
export const RESOLVER_ARG = '--host-resolver-rules=MAP a.test 127.0.0.1, MAP b.test 127.0.0.1';
export const MCP_ENV = { ...process.env, CI: '1', PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', PUPPETEER_SKIP_DOWNLOAD: '1' };

export const peersRequire = createRequire(join(peers, 'package.json'));

/** The SDK's Client and StdioClientTransport, from bench/.peers. */
export async function loadSdk() {
  const { Client } = await import(peersRequire.resolve('@modelcontextprotocol/sdk/client/index.js'));
  const { StdioClientTransport } = await import(peersRequire.resolve('@modelcontextprotocol/sdk/client/stdio.js'));
  return { Client, StdioClientTransport };
}

/** The text content of an MCP tool result, concatenated. */
export function replyText(res) {
  let t = '';
  for (const c of res.content || []) if (c.type === 'text') t += c.text;
  return t;
}

/** Playwright MCP's config file (written into tmp) and its command line;
 * extraArgs are appended (e.g. ['--caps', 'testing']). */
export function playwrightMcpCommand(tmp, extraArgs = []) {
  const pwConfig = join(tmp, 'playwright-mcp.json');
  writeFileSync(pwConfig, JSON.stringify({
    browser: {
      browserName: 'chromium', isolated: true,
      launchOptions: { executablePath: CHROMIUM, headless: true, chromiumSandbox: false, args: [RESOLVER_ARG] },
    },
    outputDir: join(tmp, 'pw-out'),
  }));
  return {
    command: process.execPath,
    args: [join(peers, 'node_modules/@playwright/mcp/cli.js'), '--config', pwConfig, '--headless',
      '--executable-path', CHROMIUM, '--no-sandbox', '--isolated',
      '--timeout-navigation', '120000', '--timeout-action', '60000', ...extraArgs],
  };
}

/** `vdxlua mcp`'s command line on the same browser; extraArgs appended. */
export function vdxluaMcpCommand(extraArgs = []) {
  return { command: VDXLUA, args: ['mcp', '--executable', CHROMIUM, '--browser-arg', RESOLVER_ARG, '--log-level', 'warn', ...extraArgs] };
}

/** Starts bench/serve_fixtures.lua; resolves to { proc, base } once it
 * listens (base: { local, a, b } URLs).  Ends when its stdin closes. */
export function startFixtures() {
  const urlFile = join(mkdtempSync(join(tmpdir(), 'vdx-fixtures-')), 'url');
  const p = spawn(VDXLUA, [join('bench', 'serve_fixtures.lua'), urlFile], { cwd: ROOT, stdio: ['pipe', 'ignore', 'inherit'] });
  return new Promise((res, rej) => {
    const t0 = Date.now();
    const tick = () => {
      if (existsSync(urlFile) && readFileSync(urlFile, 'utf8').trim()) {
        return res({ proc: p, base: JSON.parse(readFileSync(urlFile, 'utf8')) });
      }
      if (Date.now() - t0 > 60000) { p.kill(); return rej(new Error('fixture server did not start')); }
      setTimeout(tick, 100);
    };
    tick();
  });
}

/** Merges section (an object) into the results file under key. */
export function mergeResults(file, key, section) {
  let all = {};
  try { all = JSON.parse(readFileSync(file, 'utf8')); } catch { /* first run */ }
  all[key] = section;
  writeFileSync(file, JSON.stringify(all) + '\n');
}
