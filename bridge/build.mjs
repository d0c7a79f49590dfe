// build.mjs -- bundles src/index.js into dist/vdx-bridge.js, one IIFE that
// defines globalThis.__vdxBridge and nothing else.
//
//   node build.mjs         the committed build, no source map; deterministic
//   node build.mjs --dev   the same with an inline source map
//   node build.mjs --out F write the bundle to F instead (the test suite
//                          compares a fresh build with the committed one)

import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const pkg = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'));
const dev = process.argv.includes('--dev');
const outAt = process.argv.indexOf('--out');
const outfile = outAt > 0 ? process.argv[outAt + 1] : join(here, 'dist/vdx-bridge.js');

// The bundle is the same bytes whatever the working directory: esbuild
// names each module in a comment by its path relative to absWorkingDir.
await build({
  absWorkingDir: here,
  entryPoints: [join(here, 'src/index.js')],
  outfile,
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: 'chrome110',
  legalComments: 'none',
  // White space and syntax minified: every new document's world receives
  // and compiles the whole bundle, and what that costs follows its bytes
  // (a CDP message of the source and V8's scan of it; bench/frames_nav.lua).
  // Names are kept (158 KB against 116 KB with them minified): a bridge
  // error's stack and a CPU profile name the function (spec/warm_spec.lua
  // finds the walk by name).  `--dev` keeps the readable build with a
  // source map.
  minifyWhitespace: !dev,
  minifySyntax: !dev,
  banner: { js: `/* vdx-bridge ${pkg.version} */` },
  define: { __VDX_VERSION__: JSON.stringify(pkg.version) },
  sourcemap: dev ? 'inline' : false,
  logLevel: 'warning',
});
