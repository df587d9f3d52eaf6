/**
 * "A build with the handler" for upgrade tests of the real binary: a copy of this checkout's
 * built binary (bin/ + dist/ + package.json + oclif.manifest.json, node_modules linked) whose
 * upgrade-handler list (the built src/node/app/upgrades.ts: dist/node/app/upgrades.js, and the CLI
 * bundle's chunk that carries it, under dist/bundle) has one more handler, named by the caller,
 * that runs the modules' migrations — what a release with
 * `{ name, handler: (ctx, plan, from, migrator) => migrator.runMigrations(ctx, from) }` added to
 * src/node/app/upgrades.ts would be. `npm run build` must have run first.
 *
 *   const next = upgradeBuild('v2');
 *   runCli(['version'], { bin: next.bin });  startOnFreePorts(home, 1, [], 60_000, next.bin);
 *   next.cleanup();
 */
import { appendFileSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './cli.js';

export interface UpgradeBuild {
  /** The copy's root directory. */
  dir: string;
  /** Its bin/run.js (spawn it with `node`). */
  bin: string;
  /** The plan name the copy has a handler for. */
  name: string;
  cleanup(): void;
}

/** The built handler list, relative to the build's root. */
export const UPGRADES_JS = join('dist', 'node', 'app', 'upgrades.js');

/** The handler list's declaration as esbuild emits it, in dist/ and in the bundle (exported, or exported below). */
const DECLARATION = /^(?:export )?(?:var|let|const) UPGRADE_HANDLERS = \[\];$/m;

function bundleFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? bundleFiles(join(dir, entry.name)) : entry.name.endsWith('.js') ? [join(dir, entry.name)] : []));
}

export function upgradeBuild(name: string, options: { from?: string } = {}): UpgradeBuild {
  const from = options.from ?? REPO_ROOT;
  const handlers = join(from, UPGRADES_JS);
  if (!existsSync(handlers)) throw new Error(`no built binary at ${from} (${UPGRADES_JS} is missing): run npm run build first`);
  if (!DECLARATION.test(readFileSync(handlers, 'utf8'))) throw new Error(`${handlers} does not declare UPGRADE_HANDLERS as the upgrade tests expect`);
  const dir = mkdtempSync(join(tmpdir(), `tokend-build-${name.replace(/[^A-Za-z0-9_.-]/g, '_')}-`));
  for (const part of ['bin', 'dist']) cpSync(join(from, part), join(dir, part), { recursive: true });
  for (const file of ['package.json', 'oclif.manifest.json']) if (existsSync(join(from, file))) cpSync(join(from, file), join(dir, file));
  symlinkSync(join(from, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const push = `UPGRADE_HANDLERS.push({ name: ${JSON.stringify(name)}, handler: (ctx, plan, from, migrator) => migrator.runMigrations(ctx, from) });`;
  appendFileSync(join(dir, UPGRADES_JS), `\n// Added by test/helpers/upgradeBuild.ts: this build carries out the upgrade ${JSON.stringify(name)}.\n${push}\n`);
  // The CLI bundle (scripts/bundle-cli.js) holds its own copy of the list: add the handler right after its declaration.
  const bundled = bundleFiles(join(dir, 'dist', 'bundle')).filter((file) => DECLARATION.test(readFileSync(file, 'utf8')));
  if (bundled.length !== 1) throw new Error(`expected one bundle chunk declaring UPGRADE_HANDLERS under ${join(from, 'dist', 'bundle')}, found ${bundled.length}`);
  writeFileSync(bundled[0], readFileSync(bundled[0], 'utf8').replace(DECLARATION, (line) => `${line} ${push}`));
  return { dir, bin: join(dir, 'bin', 'run.js'), name, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
