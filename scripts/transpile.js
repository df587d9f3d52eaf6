// Build step (`npm run build`, first after the contracts): compiles src/**/*.ts to dist/ file for
// file with esbuild, as `tsc -p tsconfig.build.json` laid it out (dist/<path>.js beside a source
// map), in about a second instead of ~20 s of CPU. Types are not checked here: `npm run typecheck`
// (`tsc --noEmit` over src, test and bench) does that, and `npm test` runs it.
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { filesUnder } from './files.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');

const started = Date.now();
const entryPoints = filesUnder(src, (name) => name.endsWith('.ts') && !name.endsWith('.d.ts'));
await build({
  entryPoints,
  outdir: join(root, 'dist'),
  outbase: src,
  bundle: false,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // The class-field semantics and the rest of the language settings follow the compiler options tsc uses.
  tsconfig: join(root, 'tsconfig.build.json'),
  sourcemap: true,
  logLevel: 'warning',
});
process.stdout.write(`transpiled ${entryPoints.length} files in ${Date.now() - started} ms\n`);
