#!/usr/bin/env node
// `tokend q …` is `tokend query …`: oclif has no topic aliases, so rewrite the first word.
if (process.argv[2] === 'q') process.argv[2] = 'query';
const { execute } = await import('@oclif/core');
await execute({ dir: import.meta.url });
