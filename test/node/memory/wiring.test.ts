/**
 * Who turns the memory releaser on: it forces collections of the whole process's heap and trims
 * its C heap, so a node embedded in another program (here, a jest worker) leaves it off unless
 * asked; `tokend start` asks (releaseMemory), with app.toml's release-idle-seconds.
 */
import { afterAll, describe, expect, it, jest } from '@jest/globals';
import { devnetHome, removeHomes, startFast, CapturingLogger } from '../faults/helpers.js';

jest.setTimeout(60_000);

const homes: string[] = [];
afterAll(() => removeHomes(homes));

async function startedLine(releaseMemory: boolean | undefined): Promise<Record<string, unknown> | undefined> {
  const logger = new CapturingLogger();
  const node = await startFast(await devnetHome('release-wiring', homes), { logger, ...(releaseMemory === undefined ? {} : { releaseMemory }) });
  try {
    return logger.lines.find((line) => line.msg === 'node started')?.ctx as Record<string, unknown> | undefined;
  } finally {
    await node.stop();
  }
}

describe('memory releaser wiring', () => {
  it('an embedded node leaves it off; releaseMemory turns it on with [memory] release-idle-seconds', async () => {
    expect((await startedLine(undefined))?.memory_release_idle_seconds).toBe(0);
    expect((await startedLine(true))?.memory_release_idle_seconds).toBe(10);
  });
});
