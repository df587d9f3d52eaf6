/**
 * Load beyond capacity (issue 15's bad input): with the mempool full, broadcast_tx_sync and
 * broadcast_tx_async answer CometBFT's error — JSON-RPC -32603 "Internal error" with data
 * "mempool is full: number of txs N (max: N), total txs bytes B (max: M)" — nothing crashes, reads
 * keep answering, and once a block takes txs out of the pool new ones are admitted again.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Mempool } from '../../../src/node/consensus/mempool/mempool.js';
import { b64, call, startFakeServer, TransferApp } from './helpers.js';

describe('broadcast_tx_* with a full mempool', () => {
  let url: string;
  let stop: () => Promise<void>;
  const app = new TransferApp();
  const pool = new Mempool(app, { size: 2 });

  beforeAll(async () => {
    const fake = await startFakeServer({ mempool: pool });
    url = fake.url;
    stop = () => fake.server.stop();
  });
  afterAll(async () => {
    await stop();
  });

  it('answers "mempool is full" with CometBFT\'s code, keeps serving, and recovers after a block', async () => {
    const txs = ['k1=v', 'k2=v', 'k3=v', 'k4=v'].map((text) => new TextEncoder().encode(text));
    expect((await call(url, 'broadcast_tx_sync', { tx: Buffer.from(txs[0]!).toString('base64') })).code).toBe(0);
    expect((await call(url, 'broadcast_tx_sync', { tx: Buffer.from(txs[1]!).toString('base64') })).code).toBe(0);
    const full = { code: -32603, message: 'Internal error', data: expect.stringMatching(/^mempool is full: number of txs 2 \(max: 2\), total txs bytes 8 \(max: \d+\)$/) };
    await expect(call(url, 'broadcast_tx_sync', { tx: Buffer.from(txs[2]!).toString('base64') })).rejects.toMatchObject({ rpc: full });
    await expect(call(url, 'broadcast_tx_async', { tx: Buffer.from(txs[2]!).toString('base64') })).rejects.toMatchObject({ rpc: full });
    // Reads still answer while the pool is full.
    expect((await call(url, 'num_unconfirmed_txs')).n_txs).toBe('2');
    expect(await call(url, 'health')).toEqual({});
    // A block takes the two txs: the pool admits again (the refused tx was not cached as seen).
    const release = await pool.acquire();
    try {
      await pool.update(1, txs.slice(0, 2), [
        { code: 0, data: new Uint8Array(0), log: '', info: '', gasWanted: 0n, gasUsed: 0n, events: [], codespace: '' },
        { code: 0, data: new Uint8Array(0), log: '', info: '', gasWanted: 0n, gasUsed: 0n, events: [], codespace: '' },
      ]);
    } finally {
      release();
    }
    expect((await call(url, 'broadcast_tx_sync', { tx: b64('k3=v') })).code).toBe(0);
    expect((await call(url, 'num_unconfirmed_txs')).n_txs).toBe('1');
  });
});
