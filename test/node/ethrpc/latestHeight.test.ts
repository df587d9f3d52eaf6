/**
 * EthBackend.latestHeight: the last block whose state is committed, read from the state store
 * only while the state lags the stored block (eth_sendRawTransaction asks it per request).
 */
import { EthBackend } from '../../../src/node/ethrpc/backend.js';
import type { RpcEnvironment } from '../../../src/node/rpc/environment.js';

test('follows the block store and the committed state, reading the state only until it catches up', () => {
  let stored = 4;
  let committed = 4;
  let reads = 0;
  const env = {
    blockStore: { height: () => stored },
    stateStore: {
      lastBlockHeight: () => {
        reads++;
        return committed;
      },
    },
  } as unknown as RpcEnvironment;
  const backend = new EthBackend(env);
  expect(backend.latestHeight()).toBe(4);
  expect(backend.latestHeight()).toBe(4);
  expect(reads).toBe(1);
  // Block 5 stored, its state not yet committed: 4 until it is.
  stored = 5;
  expect(backend.latestHeight()).toBe(4);
  expect(backend.latestHeight()).toBe(4);
  committed = 5;
  expect(backend.latestHeight()).toBe(5);
  const before = reads;
  expect(backend.latestHeight()).toBe(5);
  expect(reads).toBe(before);
});
