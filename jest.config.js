/** Jest runs TypeScript ESM through SWC; `tsc --noEmit` checks types separately. */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'es6' } }],
  },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  testTimeout: 30000,
  // A private Secret Service for the os keyring backend's tests (skipped visibly when unavailable).
  globalSetup: '<rootDir>/test/setup/secret-service.ts',
  globalTeardown: '<rootDir>/test/setup/secret-service-teardown.ts',
  // Three files at once on two cores: the end-to-end files spend much of their time waiting (on
  // blocks, voting periods, child processes), so a third keeps both cores busy — 190 % CPU over
  // the run against 165 % with two, the whole suite ~720 s against ~800 s (docs/PERFORMANCE.md).
  maxWorkers: 3,
  // ESM test files leave their module graphs behind in the worker (jest's vm modules): a worker's
  // heap grows by 10–20 MB per in-process file, and garbage collection over that growing heap made
  // late files several times slower than alone. A worker past this much heap after a file is
  // replaced by a fresh one (about a second to start).
  workerIdleMemoryLimit: '500MB',
  // Without a timing cache (a fresh clone) the end-to-end files start first, so no long file starts last.
  testSequencer: '<rootDir>/test/setup/sequencer.js',
};
