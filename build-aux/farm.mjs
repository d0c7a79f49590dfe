// build-aux/farm.mjs: starts browserless (the open-source browser farm, npm
// @browserless.io/browserless) on 127.0.0.1 with Debian's Chromium, for
// spec/farm_spec.lua and for trying a farm by hand (docs/farms.md).
//
//   node build-aux/farm.mjs FARM_DIR PORT TOKEN [CHROMIUM] [--pidfile FILE] [--parent PID]
//
// In the foreground it serves until SIGTERM, SIGINT or SIGHUP, or until
// its parent (the shell or program that started it) ends; standard input
// plays no part, so `node build-aux/farm.mjs … &` in a script serves for
// as long as the script runs.  With --pidfile it starts the farm in the
// background, writes the farm's pid to FILE (its log to FILE.log) and
// returns once the farm serves (exit 0) or failed to start (exit 1, with
// the end of its log); `kill $(cat FILE)` stops it.  --parent PID stops
// the farm when process PID ends (a test run that started it).
// The environment passes through: CONCURRENT and QUEUED set browserless's
// limits (past both it answers HTTP 429).
//
// FARM_DIR holds node_modules/@browserless.io/browserless (installed with
// browser downloads skipped).  Three things stand between browserless and
// a browser it did not download:
// - it takes Chromium from Playwright's cache path
//   (playwright-core's chromium.executablePath()): PLAYWRIGHT_BROWSERS_PATH
//   points that into FARM_DIR/browsers, where a link leads to CHROMIUM
//   (default /usr/lib/chromium/chromium, the binary behind /usr/bin/chromium);
// - it reads playwright-core's browsers.json from the working directory's
//   node_modules, so it runs in FARM_DIR;
// - it refuses to start when any browser of its routes is missing (Chrome,
//   Edge, Firefox, WebKit); its SDK's disableRoutes() drops those routes,
//   so only the Chromium ones are served.
// Serves ws://127.0.0.1:PORT/chromium?token=TOKEN (and
// http://127.0.0.1:PORT/json/version?token=TOKEN).
import { createRequire } from 'node:module';
import { spawn } from 'node:child_process';
import { mkdirSync, symlinkSync, existsSync, rmSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const USAGE = 'usage: node build-aux/farm.mjs FARM_DIR PORT TOKEN [CHROMIUM] [--pidfile FILE] [--parent PID]\n';
const args = process.argv.slice(2);
const flags = {};
const pos = [];
const usage = (why = '') => {
  process.stderr.write(why + USAGE);
  process.exit(2);
};
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--detached') {          // internal: the farm --pidfile started
    flags.detached = true;
  } else if (a === '--pidfile' || a === '--parent') {
    if (args[i + 1] === undefined) usage(`farm: ${a} needs a value\n`);
    flags[a.slice(2)] = args[++i];
  } else if (a.startsWith('--')) {
    usage(`farm: unknown option ${a}\n`);
  } else {
    pos.push(a);
  }
}
const [dirArg, port, token, chromium = '/usr/lib/chromium/chromium'] = pos;
if (!dirArg || !port || !token) usage();

if (flags.pidfile) {
  // Background mode: this process starts the farm detached, waits until it
  // serves (or ends), writes its pid and returns.
  const pidfile = resolve(flags.pidfile);
  const logfile = `${pidfile}.log`;
  const out = openSync(logfile, 'w');
  const rest = [dirArg, port, token, chromium, '--detached'];
  if (flags.parent) rest.push('--parent', flags.parent);
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), ...rest],
    { detached: true, stdio: ['ignore', out, out] });
  writeFileSync(pidfile, `${child.pid}\n`);
  let ended = false;
  child.on('exit', () => { ended = true; });
  const tail = () => { try { return readFileSync(logfile, 'utf8').slice(-2000); } catch { return ''; } };
  const started = Date.now();
  const timer = setInterval(() => {
    if (tail().includes('farm: serving')) {
      clearInterval(timer);
      child.unref();
      process.stdout.write(`farm: serving ws://127.0.0.1:${port}/chromium?token=${token} (pid ${child.pid}; stop it with kill $(cat ${flags.pidfile}))\n`);
      process.exit(0);
    } else if (ended || Date.now() - started > 120000) {
      clearInterval(timer);
      if (!ended) child.kill('SIGTERM');
      rmSync(pidfile, { force: true });
      process.stderr.write(`farm: browserless did not start; the end of ${logfile}:\n${tail()}\n`);
      process.exit(1);
    }
  }, 100);
} else {
  await serve();
}

async function serve() {
  const dir = resolve(dirArg);
  // Some of its routes read node_modules/playwright-core/browsers.json and
  // package.json from the working directory.
  process.chdir(dir);
  const require = createRequire(join(dir, 'package.json'));
  process.env.PLAYWRIGHT_BROWSERS_PATH = join(dir, 'browsers');
  process.env.HOST = '127.0.0.1';
  process.env.PORT = port;
  process.env.TOKEN = token;
  process.env.DATA_DIR = process.env.DATA_DIR || join(dir, 'data');
  mkdirSync(process.env.DATA_DIR, { recursive: true });

  const exe = require('playwright-core').chromium.executablePath();
  if (!existsSync(exe)) {
    mkdirSync(dirname(exe), { recursive: true });
    rmSync(exe, { force: true });
    symlinkSync(chromium, exe);
  }

  const bl = await import(require.resolve('@browserless.io/browserless'));
  const farm = new bl.Browserless();
  farm.disableRoutes(...Object.values(bl.BrowserlessChromeRoutes), ...Object.values(bl.BrowserlessEdgeRoutes),
    ...Object.values(bl.BrowserlessFirefoxRoutes), ...Object.values(bl.BrowserlessWebKitRoutes));
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    try { await farm.stop(); } catch { /* closing anyway */ }
    process.exit(0);
  };
  process.on('SIGTERM', stop).on('SIGINT', stop).on('SIGHUP', stop);
  // The process whose end ends the farm: --parent, else (in the
  // foreground) the one that started it.
  const watched = flags.parent ? Number(flags.parent) : (flags.detached ? 0 : process.ppid);
  if (watched > 1) {
    setInterval(() => {
      try { process.kill(watched, 0); } catch (e) { if (e.code === 'ESRCH') stop(); }
    }, 500).unref();
  }
  await farm.start();
  process.stderr.write(`farm: serving ws://127.0.0.1:${port}/chromium?token=${token}\n`);
}
