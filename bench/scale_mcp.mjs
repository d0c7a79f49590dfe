// bench/scale_mcp.mjs: the `vdxlua mcp` cell of `make bench-scale`
// (bench/scale.mjs runs it as a child process).  N client-side callers
// run concurrently, each with a role of its own ("r1" … "rN", declared
// with --role NAME -): each loops browser_navigate {url, role} then
// browser_snapshot {role} for SECONDS.
//
// One server serves all N roles when its tools take a `role` argument.
// A server that refuses the argument (its tools act on the one current
// role) gets N servers instead, one role each, called without it; the
// JSON line says which ("servers": 1 or N, "role_argument": true/false).
//
// The transport is a seam: TRANSPORTS maps a name to a factory returning
// { pid, send(message), onmessage, close() }.  "stdio" is the one today
// (a message a line, the MCP stdio transport) and "http" (`vdxlua mcp
// --port`, Streamable HTTP, one session); MCP_TRANSPORT chooses.
//
// Usage: node bench/scale_mcp.mjs N SECONDS URL
// Prints one JSON line like bench/scale_cell.lua's (host_pids: the server
// processes, for the parent's memory reading), then keeps the servers
// until its standard input closes.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { createServer } from 'node:net';
import { vdxluaMcpCommand, MCP_ENV } from './mcp_common.mjs';
import { stats } from './scale_lib.mjs';

const [N, SECONDS] = [Number(process.argv[2]), Number(process.argv[3])];
const URL = process.argv[4];
const TRANSPORT = process.env.MCP_TRANSPORT || 'stdio';
if (!(N > 0) || !(SECONDS > 0) || !URL) {
  console.error('usage: node bench/scale_mcp.mjs N SECONDS URL');
  process.exit(2);
}

const TRANSPORTS = {
  /** `vdxlua mcp` as a child process, JSON-RPC a line on its stdin/stdout. */
  stdio(serverArgs) {
    const { command, args } = vdxluaMcpCommand(serverArgs);
    const proc = spawn(command, args, { env: MCP_ENV, stdio: ['pipe', 'pipe', 'inherit'] });
    const t = { pid: proc.pid, onmessage: null, onclose: null };
    createInterface({ input: proc.stdout }).on('line', (line) => {
      if (line.trim()) t.onmessage(JSON.parse(line));
    });
    proc.on('exit', (code) => t.onclose && t.onclose(code));
    t.send = (msg) => proc.stdin.write(JSON.stringify(msg) + '\n');
    t.close = () => new Promise((res) => { proc.on('exit', res); proc.stdin.end(); });
    return t;
  },
  /** `vdxlua mcp --port P` (Streamable HTTP): one session, a POST a
   * message; the answer is JSON (no progress token is sent, so no SSE). */
  http(serverArgs) {
    const t = { pid: 0, onmessage: null, onclose: null, session: null, version: null };
    const ready = freePort().then((port) => {
      const { command, args } = vdxluaMcpCommand([...serverArgs, '--port', String(port)]);
      const proc = spawn(command, args, { env: MCP_ENV, stdio: ['ignore', 'ignore', 'inherit'] });
      t.pid = proc.pid;
      t.proc = proc;
      proc.on('exit', (code) => t.onclose && t.onclose(code));
      return waitListening(`http://127.0.0.1:${port}/mcp`);
    });
    t.send = (msg) => ready.then(async (url) => {
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      if (t.session) headers['mcp-session-id'] = t.session;
      if (t.version) headers['mcp-protocol-version'] = t.version;
      const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(msg) });
      if (res.headers.get('mcp-session-id')) t.session = res.headers.get('mcp-session-id');
      if (res.status === 202) return;
      const body = await res.json();
      if (msg.method === 'initialize' && body.result) t.version = body.result.protocolVersion;
      t.onmessage(body);
    });
    t.close = () => ready.then(() => new Promise((res) => { t.proc.on('exit', res); t.proc.kill('SIGTERM'); }));
    return t;
  },
};

/** A TCP port free now on 127.0.0.1. */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => { const { port } = srv.address(); srv.close(() => resolve(port)); });
  });
}

/** Resolves to url once a POST there is answered (the server is up). */
async function waitListening(url) {
  for (let i = 0; i < 200; i++) {
    try { await fetch(url, { method: 'POST', body: '' }); return url; } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`vdxlua mcp --port did not listen at ${url}`);
}

/** A JSON-RPC client over a transport: request(method, params) -> result. */
class Client {
  constructor(transport) {
    this.t = transport;
    this.next = 1;
    this.pending = new Map();
    transport.onmessage = (m) => {
      const p = m.id !== undefined && this.pending.get(m.id);
      if (!p) return;  // a notification or a request of the server's
      this.pending.delete(m.id);
      if (m.error) p.reject(Object.assign(new Error(m.error.message), { rpc: m.error }));
      else p.resolve(m.result);
    };
    transport.onclose = (code) => {
      for (const p of this.pending.values()) p.reject(new Error(`server exited (${code})`));
      this.pending.clear();
    };
  }
  request(method, params) {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.t.send({ jsonrpc: '2.0', id, method, params });
    });
  }
  async initialize() {
    await this.request('initialize', { protocolVersion: '2025-06-18', capabilities: {},
      clientInfo: { name: 'vdxlua-bench-scale', version: '1' } });
    this.t.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }
  /** A tool's text; a tool error (isError) raises. */
  async tool(name, args) {
    const r = await this.request('tools/call', { name, arguments: args });
    const text = (r.content || []).filter((c) => c.type === 'text').map((c) => c.text).join('');
    if (r.isError) throw Object.assign(new Error(`${name}: ${text.slice(0, 300)}`), { toolError: true });
    return text;
  }
}

async function server(roleNames) {
  const args = [];
  for (const r of roleNames) args.push('--role', r, '-');
  const client = new Client(TRANSPORTS[TRANSPORT](args));
  await client.initialize();
  return client;
}

const roles = Array.from({ length: N }, (_, i) => `r${i + 1}`);
// callers[i]: { client, args: extra arguments naming its role, or none }.
let callers, servers, roleArgument = true;
{
  const one = await server(roles);
  try {
    await one.tool('browser_navigate', { url: URL, role: roles[0] });
    callers = roles.map((role) => ({ client: one, args: { role } }));
    servers = [one];
  } catch (e) {
    // Only a refusal of the argument itself falls back; anything else is a
    // failure of the run.
    if (!(e.toolError || e.rpc) || !/role/.test(e.message)) throw e;
    console.error(`scale_mcp: the server refused the role argument (${e.message.split('\n')[0].slice(0, 160)}); ` +
      `running ${N} servers, one role each`);
    roleArgument = false;
    await one.t.close();
    servers = await Promise.all(roles.map((r) => server([r])));
    callers = servers.map((client) => ({ client, args: {} }));
  }
}

const cycle = async ({ client, args }) => {
  await client.tool('browser_navigate', { url: URL, ...args });
  return (await client.tool('browser_snapshot', { ...args })).length;
};
// A cycle that fails is counted, not fatal (see scale_cell.lua).
let errors = 0, firstError = null;
const tryCycle = (c) => cycle(c).catch((e) => { errors++; firstError ||= String(e).slice(0, 300); return null; });
const chars = await Promise.all(callers.map(tryCycle));
errors = 0; firstError = null;

const times = [];
let count = 0;
const t0 = performance.now();
const deadline = t0 + SECONDS * 1000;
await Promise.all(callers.map(async (c) => {
  while (performance.now() < deadline) {
    const c0 = performance.now();
    if (await tryCycle(c) === null) continue;
    times.push(performance.now() - c0);
    count++;
  }
}));
const elapsed = (performance.now() - t0) / 1000;
const st = stats(times);
console.log(JSON.stringify({ mode: `mcp-${TRANSPORT}`, n: N, cycles: count, seconds: elapsed,
  rate: count / elapsed, median_ms: st.median, p95_ms: st.p95, chars: chars[0],
  errors, first_error: firstError, servers: servers.length, role_argument: roleArgument, host_pids: servers.map((s) => s.t.pid) }));

process.stdin.resume();
process.stdin.on('end', async () => {
  await Promise.all(servers.map((s) => s.t.close()));
  process.exit(0);
});
