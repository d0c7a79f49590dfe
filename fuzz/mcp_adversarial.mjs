// fuzz/mcp_adversarial.mjs: a bounded adversarial run of `vdxlua mcp` over
// stdio.  Sends a seeded random mix of hostile lines (invalid JSON, wrong
// types, huge strings, deep nesting, unknown methods, batches, stray
// responses, notifications) interleaved with real requests (ping,
// tools/list, tools/call, some cancelled mid-flight), then closes stdin.
//
// Checks: every request is answered exactly once (by its id, compared as
// the exact text sent: big integers and escaped strings come back byte for
// byte; a line that is not a valid request by one error with id null),
// cancelled requests are answered at most once, every stdout line is
// strict UTF-8 (invalid bytes are sent in methods and strings) and one
// JSON-RPC object (no stdout corruption), and the server exits on its own
// with status 0 (no crash).  Bytes that are not UTF-8 inside a tool's
// arguments, at any depth, must be answered with an InvalidArgument that
// names that argument.  With the browser, the server has two roles, and
// select_role and browser_navigate are sent without waiting: each
// navigate must act in the role selected before it in arrival order (the
// page it opens shows the role's session cookie).  Prints the counts;
// exits 1 on a violation.
//
// Usage: node fuzz/mcp_adversarial.mjs [path/to/vdxlua]
// Environment: FUZZ_SECONDS (default 60), FUZZ_SEED, FUZZ_BROWSER=0 to skip
// the tool calls that start a browser.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const VDXLUA = process.argv[2] || 'build/vdxlua';
const SECONDS = Number(process.env.FUZZ_SECONDS || 60);
let seed = Number(process.env.FUZZ_SEED || Date.now() % 2147483647);
const SEED0 = seed;
const BROWSER = process.env.FUZZ_BROWSER !== '0';

function rnd() { seed = (seed * 48271) % 2147483647; return seed / 2147483647; }
const pick = (a) => a[Math.floor(rnd() * a.length)];
const int = (n) => Math.floor(rnd() * n);

// The roles of the pipelined role switches, and the page that names the
// role whose cookie it was sent (its title: "sid NAME").
const ROLES = ['alice', 'bob'];
const dir = mkdtempSync(join(tmpdir(), 'vdx-fuzz-mcp-'));
const whoami = createServer((req, res) => {
  const m = /(?:^|; )sid=(\w+)/.exec(req.headers.cookie || '');
  res.writeHead(200, { 'content-type': 'text/html' });
  res.end(`<title>sid ${m ? m[1] : 'nobody'}</title><p>who</p>`);
});
let base = '';
const roleArgs = [];
for (const r of ROLES) {
  const auth = join(dir, r + '.json');
  writeFileSync(auth, JSON.stringify({ cookies: [{ name: 'sid', value: r, domain: '127.0.0.1', path: '/',
    expires: -1, httpOnly: true, secure: false, sameSite: 'Lax' }], origins: [] }));
  roleArgs.push('--role', r, auth);
}

let server;
let stderrTail = '';
function startServer() {
  server = spawn(VDXLUA, ['mcp', '--log-level', 'error', '--max-message-bytes', String(4 << 20),
    ...(BROWSER ? roleArgs : [])], { stdio: ['pipe', 'pipe', 'pipe'] });
  server.stderr.on('data', (d) => { stderrTail = (stderrTail + d).slice(-2000); });
  server.stdout.on('data', onStdout);
}

const counts = {
  sent_lines: 0, requests: 0, expect_null: 0, notifications: 0, cancelled: 0,
  answered: 0, flexible: 0, answered_null: 0, duplicates: 0, unknown_ids: 0, bad_lines: 0,
  server_notifications: 0, bytes_out: 0, bad_utf8: 0,
  utf8_args: 0, utf8_wrong: 0, role_navs: 0, role_wrong: 0, role_nav_failed: 0,
};
// id (as sent) -> what its answer must show: { path } for bytes that are
// not UTF-8 in an argument, { role } for a pipelined navigate.
const checks = new Map();
const wrong = [];
// The role current in arrival order: set when a select_role is written.
let arrivalRole = ROLES[0];
let selectFailed = false;
const pending = new Map();     // id as the exact JSON text sent -> {cancelled}
const seen = new Set();
let nextId = 1;
let buf = Buffer.alloc(0);
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

// The raw JSON text of the top-level "id" member of each object in line
// (one entry for an object, one per element for a batch): JSON.parse would
// round a big integer id, so ids are compared as text.
function rawIds(line) {
  let i = 0;
  const ws = () => { while (' \t\r\n'.includes(line[i]) && i < line.length) i++; };
  const skipString = () => { i++; while (i < line.length && line[i] !== '"') i += line[i] === '\\' ? 2 : 1; i++; };
  const skipValue = () => {
    if (line[i] === '"') return skipString();
    if (line[i] !== '{' && line[i] !== '[') { while (i < line.length && !',]} \t\r\n'.includes(line[i])) i++; return; }
    let depth = 0;
    do {
      if (line[i] === '"') { skipString(); continue; }
      if (line[i] === '{' || line[i] === '[') depth++;
      else if (line[i] === '}' || line[i] === ']') depth--;
      i++;
    } while (depth > 0 && i < line.length);
  };
  const objectId = () => {
    let id;
    i++; ws();
    while (line[i] === '"') {
      const k0 = i; skipString(); const key = line.slice(k0, i);
      ws(); i++; ws();
      const v0 = i; skipValue();
      if (key === '"id"') id = line.slice(v0, i);
      ws();
      if (line[i] !== ',') break;
      i++; ws();
    }
    return id;
  };
  ws();
  if (line[i] === '{') return [objectId()];
  const out = [];
  i++; ws();
  while (i < line.length && line[i] !== ']') {
    if (line[i] === '{') { const s = i; out.push(objectId()); i = s; }
    else out.push(undefined);
    skipValue(); ws();
    if (line[i] === ',') { i++; ws(); }
  }
  return out;
}

function onStdout(d) {
  counts.bytes_out += d.length;
  buf = Buffer.concat([buf, d]);
  let nl;
  while ((nl = buf.indexOf(0x0a)) >= 0) {
    const bytes = buf.subarray(0, nl);
    buf = buf.subarray(nl + 1);
    let line, msg;
    try { line = strictUtf8.decode(bytes); } catch { counts.bad_utf8++; continue; }
    try { msg = JSON.parse(line); } catch { counts.bad_lines++; continue; }
    const ids = rawIds(line);
    if (Array.isArray(msg)) { msg.forEach((m, k) => onMessage(m, ids[k])); continue; }
    onMessage(msg, ids[0]);
  }
}

function onMessage(msg, rawId) {
  if (typeof msg !== 'object' || msg === null || msg.jsonrpc !== '2.0') { counts.bad_lines++; return; }
  if (msg.method && msg.id === undefined) { counts.server_notifications++; return; }
  if (!('result' in msg) && !('error' in msg)) { counts.bad_lines++; return; }
  if (msg.id === null) { counts.answered_null++; return; }
  const key = rawId;
  if (seen.has(key)) { counts.duplicates++; return; }
  if (!pending.has(key)) { counts.unknown_ids++; return; }
  seen.add(key);
  pending.delete(key);
  counts.answered++;
  if (checks.has(key)) check(checks.get(key), msg, key);
}

// Checks the answer of a request that must show what want says.
function check(want, msg, key) {
  const text = msg.result && msg.result.content && msg.result.content[0] ? String(msg.result.content[0].text) : '';
  if (want.path !== undefined) {
    if (msg.result && msg.result.isError && text.startsWith('❌ Invalid argument') &&
        text.includes(`field ${want.path}: the string is not valid UTF-8`)) return;
    counts.utf8_wrong++;
    wrong.push(`${key}: bytes that are not UTF-8 in ${want.path}: ${(text || JSON.stringify(msg)).slice(0, 200)}`);
  } else if (want.select) {
    if (!msg.result || msg.result.isError) selectFailed = true;
  } else if (want.role !== undefined) {
    const m = /\nTitle: sid (\w+)/.exec(text);
    if (!msg.result || msg.result.isError || !m) { counts.role_nav_failed++; return; }
    if (m[1] === want.role) return;
    // A select_role that failed (a role that could not start under load)
    // leaves the role as it was: not a wrong order.
    if (selectFailed) { counts.role_nav_failed++; return; }
    counts.role_wrong++;
    wrong.push(`${key}: navigate sent after select_role ${want.role} acted as ${m[1]}`);
  }
}

// Writes one line: a string, or a Buffer (to send bytes that are not UTF-8).
function write(line) {
  counts.sent_lines++;
  const data = Buffer.isBuffer(line) ? Buffer.concat([line, Buffer.from('\n')]) : line + '\n';
  return new Promise((res) => { if (server.stdin.write(data)) res(); else server.stdin.once('drain', res); });
}

function request(method, params, id = nextId++) {
  counts.requests++;
  pending.set(JSON.stringify(id), { cancelled: false });
  const m = { jsonrpc: '2.0', id, method };
  if (params !== undefined) m.params = params;
  return write(JSON.stringify(m)).then(() => id);
}

// A request whose id is given as raw JSON text (a big integer, an escaped
// string): the answer must carry exactly that text.
function requestRaw(rawId, method, rest = '') {
  counts.requests++;
  pending.set(rawId, { cancelled: false });
  return write(`{"jsonrpc":"2.0","id":${rawId},"method":"${method}"${rest}}`);
}

// Bytes that are not valid UTF-8 (a lone continuation byte, a truncated
// sequence, an overlong slash, an encoded surrogate) around some text.
function badUtf8(text) {
  return Buffer.concat([Buffer.from(text), Buffer.from([0x80, 0xff, 0xc3, 0x28, 0xc0, 0xaf, 0xed, 0xa0, 0x80])]);
}
// A request with bytes that are not UTF-8 outside a tool's arguments: a
// parse error (id null) or an answer by its id.
function requestBytes(method, argBytes) {
  const id = nextId++;
  counts.requests++;
  counts.flexible++;
  pending.set(JSON.stringify(id), { cancelled: false, flexible: true });
  return write(Buffer.concat([Buffer.from(`{"jsonrpc":"2.0","id":${id},"method":"`), method,
    Buffer.from('","params":{"name":"'), argBytes, Buffer.from('"}}')]));
}

// Sequences that are not UTF-8, and tools/call arguments (JSON text
// around the slot X) with the path of the string the bytes land in.
const BAD = [[0x80], [0xff], [0xc3, 0x28], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82]];
const BAD_ARGS = [
  ['browser_navigate', '{"url":"http://127.0.0.1:9/X"}', 'url'],
  ['browser_type', '{"ref":"e1","element":"Name","text":"X"}', 'text'],
  ['browser_evaluate', '{"function":"() => \'X\'"}', 'function'],
  ['browser_find', '{"text":"X","max":3}', 'text'],
  ['browser_select_option', '{"ref":"e1","element":"Size","values":["S","X"]}', 'values[1]'],
  ['browser_fill_form', '{"fields":[{"name":"a","type":"textbox","ref":"e1","value":"ok"},' +
    '{"name":"b","type":"textbox","ref":"e2","value":"X"}]}', 'fields[1].value'],
  ['browser_fill_form', '{"fields":[{"name":"X","type":"textbox","ref":"e1","value":"ok"}]}', 'fields[0].name'],
];
function requestBadArgument() {
  const [tool, args, path] = pick(BAD_ARGS);
  const id = nextId++;
  const [before, after] = args.split('X');
  const text = 'é'.repeat(int(3)) + 'abc'.slice(0, int(4));
  counts.requests++;
  counts.utf8_args++;
  pending.set(JSON.stringify(id), { cancelled: false });
  checks.set(JSON.stringify(id), { path });
  return write(Buffer.concat([Buffer.from(`{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${tool}",` +
    `"arguments":${before}${text}`), Buffer.from(pick(BAD)), Buffer.from(`${text}${after}}}`)]));
}

function garbage(line) { counts.expect_null++; return write(line); }

// An invalid request whose id can still be read: answered once, by that id
// or with id null (JSON-RPC allows either).
function invalidWithId(id, rest) {
  counts.requests++;
  counts.flexible++;
  pending.set(JSON.stringify(id), { cancelled: false, flexible: true });
  return write(`{"jsonrpc":"2.0","id":${JSON.stringify(id)}${rest}`);
}

function deep(n) { return '['.repeat(n) + ']'.repeat(n); }
function hugeString(n) { return 'x'.repeat(n); }

const hostile = [
  () => garbage('{'),
  () => garbage('}'),
  () => garbage('{"jsonrpc":"2.0","id":1,"method":'),
  () => garbage('\u0000\u0001\u0002'),
  () => garbage('not json at all'),
  () => garbage('"a string"'),
  () => garbage('12345'),
  () => garbage('null'),
  () => invalidWithId(nextId++, ',"method":123}'),
  () => invalidWithId(nextId++, ',"method":"ping","jsonrpc":"1.0"}'),
  () => garbage('{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}'),
  () => garbage('{"jsonrpc":"2.0","id":true,"method":"ping"}'),
  () => garbage('{"jsonrpc":"2.0","id":1.5,"method":"ping"}'),
  () => invalidWithId(nextId++, `,"method":"tools/call","params":${deep(5000)}}`),
  () => garbage(deep(100000)),
  () => garbage('[]'),
  () => garbage('\uFEFF{"jsonrpc":"2.0","id":1,"method":"ping"'),
  () => garbage('{"jsonrpc":"2.0","id":' + nextId++ + ',"method":"' + hugeString(1 << 20) + '"'),
  () => invalidWithId(nextId++, ',"method":"' + hugeString(5 << 20) + '"}'),
  () => request('ping', undefined),
  () => requestRaw(String(123456789012345 + nextId++), 'ping'),
  () => requestRaw('9007199254740993' + String(nextId++).padStart(6, '0'), 'ping'),
  () => requestRaw('"\\u0069d-' + nextId++ + '\\/x"', 'ping'),
  () => requestRaw('"s-' + nextId++ + '\\ud83d\\ude00"', 'no/such/method'),
  () => requestRaw('-' + String(nextId++) + '000000000000000', 'tools/list'),
  () => requestBytes(badUtf8('no/such/'), Buffer.from('x')),
  () => requestBytes(Buffer.from('tools/call'), badUtf8('tool-')),
  () => requestBytes(Buffer.from('prompts/get'), badUtf8('')),
  requestBadArgument,
  requestBadArgument,
  () => request('ping', []),
  () => request('ping', 'string params'),
  () => request('tools/list', { cursor: 12 }),
  () => request('tools/list', undefined, 'id-' + int(1e9)),
  () => request('no/such/method', {}),
  () => request('tools/frobnicate', { a: 1 }),
  () => request('resources/read', { uri: 42 }),
  () => request('prompts/get', { name: hugeString(100000) }),
  () => request('tools/call', { name: 42 }),
  () => request('tools/call', { name: 'browser_navigate', arguments: 'not an object' }),
  () => request('tools/call', { name: 'browser_navigate', arguments: { url: 5 } }),
  () => request('tools/call', { name: 'browser_click', arguments: { ref: [1, 2, 3] } }),
  () => request('tools/call', { name: 'no_such_tool', arguments: {} }),
  () => request('tools/call', { name: 'browser_type', arguments: { text: hugeString(200000), ref: 'e999999' } }),
  () => request('tools/call', { name: 'select_role', arguments: { name: '../../etc/passwd' } }),
  () => request('initialize', { protocolVersion: 12, capabilities: 'x' }),
  () => request('tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': '1999-01-01' } }),
  () => { counts.notifications++; return write('{"jsonrpc":"2.0","method":"notifications/whatever","params":{}}'); },
  () => { counts.notifications++; return write('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":999999999}}'); },
  () => { counts.notifications++; return write('{"jsonrpc":"2.0","id":77777,"result":{}}'); },  // a stray response
  () => { const id = nextId++; counts.requests++; counts.flexible++;
    pending.set(JSON.stringify(id), { cancelled: false, flexible: true });
    return write(JSON.stringify([{ jsonrpc: '2.0', id, method: 'ping' }])); },
];

const slow = [
  // Calls that take a while, cancelled while in flight.
  async () => {
    const id = await request('tools/call', { name: 'browser_wait_for', arguments: { time: 2 } });
    await new Promise((r) => setTimeout(r, int(300)));
    pending.get(JSON.stringify(id)).cancelled = true;
    counts.cancelled++;
    counts.notifications++;
    await write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'fuzz' } }));
  },
  async () => { await request('tools/call', { name: 'browser_snapshot', arguments: {} }); },
  async () => { await request('tools/call', { name: 'browser_navigate', arguments: { url: 'about:blank' } }); },
  async () => { await request('tools/call', { name: 'browser_navigate', arguments: { url: 'http://127.0.0.1:1/' } }); },
  // Role switches and navigations sent without waiting for the answers.
  async () => {
    for (let k = 1 + int(3); k > 0; k--) {
      const role = pick(ROLES);
      const sel = request('tools/call', { name: 'select_role', arguments: { role } });
      arrivalRole = role;
      checks.set(JSON.stringify(await sel), { select: true });
      for (let n = int(3); n >= 0; n--) {
        const want = arrivalRole;
        const id = await request('tools/call', { name: 'browser_navigate', arguments: { url: `${base}/whoami?${nextId}` } });
        counts.role_navs++;
        checks.set(JSON.stringify(id), { role: want });
      }
    }
  },
];

async function main() {
  if (BROWSER) {
    await new Promise((res) => whoami.listen(0, '127.0.0.1', res));
    base = `http://127.0.0.1:${whoami.address().port}`;
  }
  startServer();
  const t0 = Date.now();
  await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '0' } });
  counts.notifications++;
  await write('{"jsonrpc":"2.0","method":"notifications/initialized"}');
  const inflight = [];
  while (Date.now() - t0 < SECONDS * 1000 * 0.8) {
    if (BROWSER && rnd() < 0.05) inflight.push(pick(slow)());
    else await pick(hostile)();
    if (counts.sent_lines % 50 === 0) await new Promise((r) => setTimeout(r, 20));
    if (counts.sent_lines > 20000) break;
  }
  await Promise.all(inflight);
  // Let the server answer what is in flight, then close its input.
  const deadline = Date.now() + Math.max(10000, SECONDS * 200);
  while (Date.now() < deadline) {
    const strict = [...pending.values()].filter((p) => !p.cancelled && !p.flexible).length;
    const flex = [...pending.values()].filter((p) => p.flexible).length - (counts.answered_null - counts.expect_null);
    if (strict === 0 && flex <= 0) break;
    if (Date.now() > deadline - 100) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  server.stdin.end();
  const status = await new Promise((res) => {
    const t = setTimeout(() => { server.kill('SIGKILL'); res({ code: null, signal: 'timeout' }); }, 60000);
    server.on('exit', (code, signal) => { clearTimeout(t); res({ code, signal }); });
  });
  whoami.close();
  rmSync(dir, { recursive: true, force: true });
  const flexLeft = [...pending.values()].filter((p) => p.flexible).length;
  const nullExtra = counts.answered_null - counts.expect_null;   // flexible ones answered with null
  const unanswered = [...pending.entries()].filter(([, p]) => !p.cancelled && !p.flexible).map(([k]) => k);
  const flexUnanswered = flexLeft - nullExtra;
  const cancelledAnswered = counts.cancelled - [...pending.values()].filter((p) => p.cancelled).length;
  console.log(`mcp fuzz: seed ${SEED0}, ${((Date.now() - t0) / 1000).toFixed(1)} s, ${counts.sent_lines} lines sent, ` +
    `${counts.requests} requests (${counts.cancelled} cancelled, ${cancelledAnswered} of them answered anyway), ` +
    `${counts.expect_null} invalid lines, ${counts.notifications} notifications`);
  console.log(`mcp fuzz: answered ${counts.answered} by id, ${counts.answered_null} with id null (${counts.expect_null} invalid lines + ${counts.flexible} invalid requests that carry an id), ` +
    `${unanswered.length + Math.max(0, flexUnanswered)} unanswered, ${counts.duplicates} duplicates, ${counts.unknown_ids} unknown ids, ` +
    `${counts.bad_lines} corrupt stdout lines, ${counts.bad_utf8} lines not UTF-8, ${counts.bytes_out} bytes out; ` +
    `exit ${status.code ?? status.signal}`);
  console.log(`mcp fuzz: ${counts.utf8_args} calls with bytes that are not UTF-8 in an argument, ${counts.utf8_wrong} ` +
    `not refused naming it; ${counts.role_navs} pipelined navigations, ${counts.role_wrong} in the wrong role, ` +
    `${counts.role_nav_failed} failed`);
  const bad = unanswered.length > 0 || counts.duplicates > 0 || counts.unknown_ids > 0 || counts.bad_lines > 0 ||
    counts.bad_utf8 > 0 || counts.utf8_wrong > 0 || counts.role_wrong > 0 ||
    flexUnanswered !== 0 || status.code !== 0;
  if (bad) {
    if (unanswered.length) console.log('mcp fuzz: unanswered ids: ' + unanswered.slice(0, 20).join(', '));
    for (const w of wrong.slice(0, 20)) console.log('mcp fuzz: ' + w);
    console.log('mcp fuzz: server stderr tail:\n' + stderrTail);
    console.log('mcp fuzz: FAILED');
    process.exit(1);
  }
  console.log('mcp fuzz: ok');
}

main().catch((e) => { console.error(e); if (server) server.kill('SIGKILL'); process.exit(1); });
