#!/usr/bin/env node
// `tokend q …` is `tokend query …`: oclif has no topic aliases, so rewrite the first word.
if (process.argv[2] === 'q') process.argv[2] = 'query';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// The module topics (`query staking`, `tx bank` …) come from the modules' CLI descriptors: the build
// writes them to dist/cli-topics.json (scripts/gen-cli-commands.js) and they join package.json's.
const root = fileURLToPath(new URL('..', import.meta.url));
const pjson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
try {
  pjson.oclif.topics = { ...pjson.oclif.topics, ...JSON.parse(readFileSync(new URL('../dist/cli-topics.json', import.meta.url), 'utf8')) };
} catch {
  // Not built yet: oclif reports that itself.
}
const { execute } = await import('@oclif/core');
await execute({ loadOptions: { root, pjson } });
