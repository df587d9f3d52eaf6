#!/usr/bin/env node
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';

// A command other than the ones that run a node lives about half a second. With V8's default
// interrupt budget its optimising compiler spends ~15–20 % of such a command's CPU on functions
// that have run a few times and never will again; with eight times the budget a function is
// optimised only once it has run long (docs/PERFORMANCE.md, "The CLI's CPU").
if (!['start', 'devnet', 'testnet'].includes(process.argv[2] ?? '')) setFlagsFromString('--interrupt-budget=1048576');

// `tokend q …` is `tokend query …`: oclif has no topic aliases, so rewrite the first word.
if (process.argv[2] === 'q') process.argv[2] = 'query';

// The query commands scripts call in loops (`query bank balances`, `query txs`) run without oclif
// when given in their plain form (dist/bundle/cli/fast.js); anything else — help, a usage error — falls
// through to oclif, which prints what it always did.
let handled = false;
if (process.argv[2] === 'query' && !process.env.TOKEND_NO_FAST_PATH) {
  const fast = await import('../dist/bundle/cli/fast.js').catch((err) => {
    if (err?.code === 'ERR_MODULE_NOT_FOUND') return undefined; // not built yet: oclif reports that
    throw err;
  });
  handled = fast !== undefined && (await fast.runFast(process.argv.slice(2)));
}

if (!handled) {
  // The module topics (`query staking`, `tx bank` …) come from the modules' CLI descriptors: the build
  // writes them to dist/cli-topics.json (scripts/gen-cli-commands.js) and they join package.json's.
  const root = fileURLToPath(new URL('..', import.meta.url));
  const pjson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  try {
    pjson.oclif.topics = { ...pjson.oclif.topics, ...JSON.parse(readFileSync(new URL('../dist/cli-topics.json', import.meta.url), 'utf8')) };
  } catch {
    // Not built yet: oclif reports that itself.
  }
  // The build's one-file copy of @oclif/core (scripts/bundle-cli.js), registered under the path
  // `@oclif/core` resolves to: every importer — this file, the commands, @oclif/plugin-help — gets
  // that one copy, and the package's ~65 files are not loaded (~90 ms of CPU a command).
  const bundledCore = fileURLToPath(new URL('../dist/oclif-core/lib/index.js', import.meta.url));
  if (existsSync(bundledCore)) {
    const require = createRequire(import.meta.url);
    require(bundledCore);
    require.cache[require.resolve('@oclif/core')] = require.cache[bundledCore];
  }
  const { execute, settings } = await import('@oclif/core');
  // This entry runs the built JavaScript only (bin/dev.js runs the TypeScript sources). Without this,
  // NODE_ENV=development or test (a developer's shell, a test runner's children) makes oclif look
  // for the sources and load the TypeScript compiler on every command: ~0.5 s of CPU each.
  settings.enableAutoTranspile = false;
  await execute({ loadOptions: { root, pjson } });
}
