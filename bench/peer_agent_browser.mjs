// bench/peer_agent_browser.mjs: agent-browser (Vercel's native Rust CLI,
// the npm package agent-browser, which ships the binary for each platform
// in its bin/ folder) as a peer of bench/peers.mjs, driven through its own
// MCP mode (`agent-browser mcp`, stdio).
//
// The same browser as every other server: agent-browser launches Chrome
// for Testing unless AGENT_BROWSER_EXECUTABLE_PATH names another, and
// takes its launch flags from AGENT_BROWSER_ARGS (one a line), so it runs
// Debian's chromium-headless-shell (or chromium) with --no-sandbox and the
// resolver rule of the fixtures, headless (its default).  Its tools run in
// a background daemon that outlives the MCP process (an hour by default),
// so the harness ends every session with agent_browser_close (closeCall),
// and each run gets a session and a namespace of its own (its sockets and
// state apart from any other agent-browser on the machine).
import { existsSync } from 'node:fs';
import { arch, platform } from 'node:os';
import { join } from 'node:path';
import { peers, CHROMIUM, RESOLVER_ARG } from './mcp_common.mjs';

/** The native binary bench/.peers holds for this machine, or null. */
export function agentBrowserBinary() {
  const bin = join(peers, 'node_modules/agent-browser/bin', `agent-browser-${platform()}-${arch()}`);
  return existsSync(bin) ? bin : null;
}

/** agent-browser's entry in peers.mjs's server list (see servers()), or
 * null when it is not installed.  Its snapshot tool lists interactive
 * elements only by default (interactive: true), as an agent calling it
 * gets it; snapshotInteractive asks for that mode by name, beside
 * vdxlua's browser_snapshot {interactive: true}. */
export function agentBrowserServer() {
  const bin = agentBrowserBinary();
  if (!bin) return null;
  const session = `vdxbench${process.pid}`;
  return {
    name: 'agent-browser',
    command: bin,
    args: ['mcp'],
    env: {
      AGENT_BROWSER_EXECUTABLE_PATH: CHROMIUM,
      AGENT_BROWSER_ARGS: `--no-sandbox\n${RESOLVER_ARG}`,
      AGENT_BROWSER_SESSION: session,
      AGENT_BROWSER_NAMESPACE: session,
    },
    navigate: (url) => ['agent_browser_open', { url }],
    snapshot: () => ['agent_browser_snapshot', {}],
    snapshotInteractive: () => ['agent_browser_snapshot', { interactive: true }],
    // Its lines: `- button "Add to Cart" [ref=e604]`, and states before
    // the ref in the same brackets: `- textbox "Full name" [required, ref=e1001]`.
    clickRef: (text) => /button "Add to Cart" \[ref=(\w+)\]/.exec(text)?.[1],
    click: (ref) => ['agent_browser_click', { selector: '@' + ref }],
    typeRef: (text) => /textbox "Full name"[^\n]*ref=(\w+)\]/.exec(text)?.[1],
    type: (ref) => ['agent_browser_fill', { selector: '@' + ref, text: 'Ada Lovelace' }],
    closeCall: () => ['agent_browser_close', {}],
  };
}
