// build.mjs -- bundles src/index.js into dist/vdx-bridge.js, one IIFE that
// defines globalThis.__vdxBridge and nothing else.
//
//   node build.mjs         the committed build, no source map; deterministic
//   node build.mjs --dev   the same with an inline source map

import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const pkg = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'));
const dev = process.argv.includes('--dev');

// The bundle is the same bytes whatever the working directory: esbuild
// names each module in a comment by its path relative to absWorkingDir.
await build({
  absWorkingDir: here,
  entryPoints: [join(here, 'src/index.js')],
  outfile: join(here, 'dist/vdx-bridge.js'),
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: 'chrome110',
  legalComments: 'none',
  banner: { js: `/* vdx-bridge ${pkg.version} */` },
  define: { __VDX_VERSION__: JSON.stringify(pkg.version) },
  sourcemap: dev ? 'inline' : false,
  logLevel: 'warning',
});
