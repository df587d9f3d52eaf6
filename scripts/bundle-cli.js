// Build step (`npm run build`, after the compile and gen-cli-commands, before the manifest (scripts/manifest.js)): bundles
// every command (dist/commands/**), the query fast path (dist/cli/fast.js) and the oclif hooks
// into dist/bundle with esbuild, code shared between them split into chunks. A command then loads
// a few dozen files instead of several hundred: Node's ESM loader resolves, reads and links each
// file it imports, and that was about a third of a short command's CPU time.
//
// What stays outside the bundle: @oclif/* (the commands must extend the Command class oclif itself
// loads), the native addons (classic-level, keytar, koffi, secp256k1) and their loaders, and yaml (below). dist/ keeps the compile's
// unbundled output beside the bundle (tests, scripts and the upgrade-build helper read it).
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { filesUnder } from './files.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const out = join(dist, 'bundle');

const jsFiles = (dir) => filesUnder(dir, (name) => name.endsWith('.js'));

const entryPoints = [...jsFiles(join(dist, 'commands')), join(dist, 'cli', 'fast.js'), ...jsFiles(join(dist, 'cli', 'hooks'))];

rmSync(out, { recursive: true, force: true });
const started = Date.now();
const result = await build({
  entryPoints,
  outdir: out,
  outbase: dist,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // yaml's Node build is CommonJS, imported lazily by name (`const { stringify } = await import('yaml')`):
  // a split chunk of a CommonJS package exports only `default`, so Node loads it as it always did.
  external: ['@oclif/*', 'classic-level', 'keytar', 'koffi', 'secp256k1', 'secp256k1/*', 'yaml'],
  // A package's ES module build where it has one (hash-wasm's `main` is UMD, whose lazy named
  // imports would come out empty for the same reason).
  mainFields: ['module', 'main'],
  // Bundled CommonJS packages call require() for Node's built-ins; an ES module has none of its own.
  banner: { js: "import { createRequire as __tokendCreateRequire } from 'node:module'; const require = __tokendCreateRequire(import.meta.url);" },
  chunkNames: 'chunks/[name]-[hash]',
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
});
const outputs = Object.keys(result.metafile.outputs).length;
process.stdout.write(`bundled ${entryPoints.length} entry points into ${outputs} files in ${Date.now() - started} ms\n`);

// @oclif/core itself, as one CommonJS file: its own ~65 files cost every command ~90 ms of CPU to
// resolve, read and compile. bin/run.js loads this file and registers it in require's cache under
// the path `@oclif/core` resolves to, so the commands, @oclif/plugin-help and bin/run.js all get this
// one copy (one set of classes), and the package's files are never read. Its package.json goes
// beside it: the core reads its own version from `<its dir>/../package.json`. The TypeScript loaders
// it asks for only when transpiling sources (which bin/run.js turns off) stay outside.
const core = join(dist, 'oclif-core');
const corePackage = join(root, 'node_modules', '@oclif', 'core');
rmSync(core, { recursive: true, force: true });
mkdirSync(join(core, 'lib'), { recursive: true });
copyFileSync(join(corePackage, 'package.json'), join(core, 'package.json'));
await build({
  entryPoints: [join(corePackage, 'lib', 'index.js')],
  outfile: join(core, 'lib', 'index.js'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external: ['typescript', 'ts-node', 'tsx', 'tsx/*'],
  legalComments: 'none',
  logLevel: 'warning',
});
process.stdout.write(`bundled @oclif/core into ${join('dist', 'oclif-core', 'lib', 'index.js')}\n`);
