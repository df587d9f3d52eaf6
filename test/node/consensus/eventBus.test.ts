/**
 * The consensus event bus: a Tx event's composite keys (what subscriptions match on) are computed
 * when a listener first reads them, once, and equal what the bus computed eagerly before.
 */
import { describe, expect, it } from '@jest/globals';
import type { ExecTxResult } from '../../../src/node/abci/types.js';
import { EventBus, type ConsensusEvent } from '../../../src/node/consensus/events.js';
import { sha256, toHexUpper } from '../../../src/node/consensus/types/bytes.js';

const tx = new TextEncoder().encode('a tx');
const result: ExecTxResult = {
  code: 0,
  data: new Uint8Array(0),
  log: '',
  info: '',
  gasWanted: 1n,
  gasUsed: 1n,
  codespace: '',
  events: [
    { type: 'transfer', attributes: [{ key: 'recipient', value: 'r1', index: true }, { key: 'amount', value: '5stake', index: true }] },
    { type: 'transfer', attributes: [{ key: 'recipient', value: 'r2', index: true }, { key: '', value: 'no key', index: true }] },
    { type: '', attributes: [{ key: 'x', value: 'no type', index: true }] },
    { type: 'tx', attributes: [{ key: 'hash', value: 'FROM-APP', index: true }] },
  ],
};

describe('EventBus', () => {
  it("a Tx event's composite keys are computed on first read, once, and are what subscriptions match", () => {
    const bus = new EventBus();
    const seen: ConsensusEvent[] = [];
    bus.subscribe((event) => seen.push(event));
    bus.publishTx({ height: 7, index: 0, tx, result });
    expect(seen).toHaveLength(1);
    const event = seen[0]!;
    expect(event.type).toBe('Tx');
    const first = event.events;
    expect(first).toEqual({
      'transfer.recipient': ['r1', 'r2'],
      'transfer.amount': ['5stake'],
      'tx.hash': ['FROM-APP', toHexUpper(sha256(tx))],
      'tx.height': ['7'],
      'tm.event': ['Tx'],
    });
    expect(event.events).toBe(first);
    // A listener that copies the event sees the keys too.
    expect({ ...event }.events).toEqual(first);
  });

  it('waiters get the tx without any subscription reading the keys; NewBlock keys name the type', async () => {
    const bus = new EventBus();
    const waiter = bus.waitForTx(toHexUpper(sha256(tx)), 5000);
    bus.publishTx({ height: 3, index: 0, tx, result });
    await expect(waiter.promise).resolves.toMatchObject({ height: 3 });
    const blocks: ConsensusEvent[] = [];
    bus.subscribe((event) => blocks.push(event));
    bus.publish('NewBlockHeader', { header: { height: 3 } } as never);
    expect(blocks[0]!.events).toEqual({ 'tm.event': ['NewBlockHeader'] });
  });
});
