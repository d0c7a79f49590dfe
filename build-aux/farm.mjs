// build-aux/farm.mjs: starts browserless (the open-source browser farm, npm
// @browserless.io/browserless) on 127.0.0.1 with Debian's Chromium, for
// spec/farm_spec.lua and for trying a farm by hand.
//
//   node build-aux/farm.mjs FARM_DIR PORT TOKEN [CHROMIUM]
//
// FARM_DIR holds node_modules/@browserless.io/browserless (installed with
// browser downloads skipped).  Two things stand between browserless and a
// browser it did not download:
// - it takes Chromium from Playwright's cache path
//   (playwright-core's chromium.executablePath()): PLAYWRIGHT_BROWSERS_PATH
//   points that into FARM_DIR/browsers, where a link leads to CHROMIUM
//   (default /usr/lib/chromium/chromium, the binary behind /usr/bin/chromium);
// - it reads playwright-core's browsers.json from the working directory's
//   node_modules, so it runs in FARM_DIR;
// - it refuses to start when any browser of its routes is missing (Chrome,
//   Edge, Firefox, WebKit); its SDK's disableRoutes() drops those routes,
//   so only the Chromium ones are served.
// Serves ws://127.0.0.1:PORT/chromium?token=TOKEN until SIGTERM or until
// its standard input closes, then shuts every browser down.
import { createRequire } from 'node:module';
import { mkdirSync, symlinkSync, existsSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const [dirArg, port, token, chromium = '/usr/lib/chromium/chromium'] = process.argv.slice(2);
if (!dirArg || !port || !token) {
  process.stderr.write('usage: node build-aux/farm.mjs FARM_DIR PORT TOKEN [CHROMIUM]\n');
  process.exit(2);
}
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
process.on('SIGTERM', stop).on('SIGINT', stop);
process.stdin.on('end', stop).on('close', stop).resume();
await farm.start();
process.stderr.write(`farm: serving ws://127.0.0.1:${port}/chromium?token=${token}\n`);
