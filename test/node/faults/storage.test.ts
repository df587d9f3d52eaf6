/**
 * Storage faults (issue 14): a failed write (ENOSPC, EROFS, EMFILE) never leaves the node half
 * alive. Injected at the database layer under a whole node in-process: the node reports itself
 * unhealthy with the reason at once, `/health` errors, `/ready` is 503, `broadcast_tx_*` refuse,
 * and it stops itself with "storage failure: …" (the CLI then exits non-zero for a supervisor).
 * Started again on the same home with the cause gone, it commits again from where it was.
 */
import { afterAll, describe, expect, it, jest } from '@jest/globals';
import type { RunningNode } from '../../../src/node/node.js';
import type { StorageFaultCode } from '../../../src/util/storageFault.js';
import { FaultyDatabase } from '../../helpers/faultyDb.js';
import { devnetHome, removeHomes, startFast, waitFor } from './helpers.js';

jest.setTimeout(120_000);

const homes: string[] = [];
afterAll(() => removeHomes(homes));

async function start(home: string, faulty?: (db: FaultyDatabase) => void): Promise<RunningNode> {
  return startFast(home, {
    ...(faulty
      ? {
          wrapDatabase: (db) => {
            const f = new FaultyDatabase(db);
            faulty(f);
            return f;
          },
        }
      : {}),
  });
}

async function rpc(node: RunningNode, method: string, params: Record<string, unknown> = {}): Promise<{ result?: unknown; error?: { data?: string } }> {
  const res = await fetch(node.rpcAddress.url, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return (await res.json()) as { result?: unknown; error?: { data?: string } };
}

describe.each<StorageFaultCode>(['ENOSPC', 'EROFS', 'EMFILE'])('a %s write failure', (code) => {
  it('makes the node unhealthy at once, refuses txs, stops it for a restart; restarted, it commits again', async () => {
    const home = await devnetHome(`fault-${code}`, homes);
    let db!: FaultyDatabase;
    const node = await start(home, (f) => (db = f));
    await waitFor(() => node.consensus.status().latestBlockHeight >= 3, 'height 3');
    expect(node.health()).toMatchObject({ healthy: true, ready: true });
    expect((await fetch(`${node.rpcAddress.url}/ready`)).status).toBe(200);

    db.fail(code);
    const reason = await node.stopped;
    expect(reason).toMatch(new RegExp(`^storage failure: database .*${code}`));
    const haltedAt = node.consensus.status().latestBlockHeight;
    // While it cannot commit: unhealthy with the reason, /ready 503, broadcasts refused.
    expect(node.health()).toMatchObject({ healthy: false, ready: false });
    expect(node.health().reason).toContain(code);
    const health = await rpc(node, 'health');
    expect(health.error?.data).toMatch(new RegExp(`node is unhealthy: .*${code}`));
    const ready = await fetch(`${node.rpcAddress.url}/ready`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { reason: string }).reason).toContain(code);
    const sent = await rpc(node, 'broadcast_tx_sync', { tx: Buffer.from('any tx').toString('base64') });
    expect(sent.error?.data).toMatch(new RegExp(`node cannot commit blocks, not accepting txs: .*${code}`));
    await node.stop();

    // The cause is gone (the supervisor restarts the node): it resumes from the stored height.
    const again = await start(home);
    try {
      await waitFor(() => again.consensus.status().latestBlockHeight >= haltedAt + 2, `height ${haltedAt + 2}`);
      expect(again.health()).toMatchObject({ healthy: true, ready: true });
    } finally {
      await again.stop();
    }
  });
});
