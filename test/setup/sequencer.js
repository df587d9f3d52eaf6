/**
 * The order jest starts the test files in (jest.config.js `testSequencer`).
 *
 * With a timing cache (a second run on one machine) jest's own order is kept: failed files first,
 * then the longest. On a fresh clone (CI) there is no cache and jest falls back to file size,
 * which starts a two-minute end-to-end file after many small unit files and can leave one worker
 * idle while the other finishes it. So without timings the end-to-end files (test/e2e, which
 * spawn the built binary and wait on a running chain: tens of seconds to minutes each) go first,
 * largest first, and the short files fill the two workers' ends.
 */
import { sep } from 'node:path';
import Sequencer from '@jest/test-sequencer';

const E2E = `${sep}test${sep}e2e${sep}`;

export default class SlowFirstSequencer extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests); // sets each test's cached duration, if any
    if (sorted.some((test) => test.duration != null)) return sorted;
    const e2e = (test) => test.path.includes(E2E);
    return [...sorted.filter(e2e), ...sorted.filter((test) => !e2e(test))];
  }
}
