/** server.test.ts again with the RPC's HTTP side on a thread of its own ([rpc] http_thread): the same answers, byte for byte. */
import './onThread.js';
import './server.test.js';

import { expect, it } from '@jest/globals';
import { FrontThread } from '../../../src/node/threads/frontThread.js';
import { startFakeServer } from './helpers.js';

it('the suite above ran with the HTTP side on a thread of its own', async () => {
  const { server } = await startFakeServer();
  try {
    expect((server as unknown as { front: unknown }).front).toBeInstanceOf(FrontThread);
  } finally {
    await server.stop();
  }
});
