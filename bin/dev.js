#!/usr/bin/env -S node --import tsx
// Development entry: runs the TypeScript sources directly (no build step).
if (process.argv[2] === 'q') process.argv[2] = 'query';
const { execute } = await import('@oclif/core');
await execute({ development: true, dir: import.meta.url });
