/**
 * A block's stored logs bloom (EthBackend.storedBloom), which eth_getLogs tests before reading a
 * block and eth_getBlockBy* show as logsBloom: the `block_bloom` event when there is one; the
 * empty bloom for a height whose block-level events are recorded apart and carry none (such a
 * block has no logs); unknown for an older height without the event, whose logs decide.
 */
import { describe, expect, it } from '@jest/globals';
import type { AbciEvent, ResponseFinalizeBlock } from '../../../src/node/abci/types.js';
import { EthBackend } from '../../../src/node/ethrpc/backend.js';
import type { RpcEnvironment } from '../../../src/node/rpc/environment.js';

const bloomEvent = (hex: string): AbciEvent => ({ type: 'block_bloom', attributes: [{ key: 'bloom', value: hex, index: true }] });
const other: AbciEvent = { type: 'commission', attributes: [{ key: 'amount', value: '1token', index: true }] };
const someBloom = `0x${'00'.repeat(255)}80`;

function backend(apart: Record<number, AbciEvent[]>, inside: Record<number, AbciEvent[]>): EthBackend {
  const stateStore = {
    loadFinalizeBlockEvents: (h: number) => apart[h],
    loadFinalizeBlockResponse: (h: number) => (h in inside || h in apart ? ({ events: apart[h] ?? inside[h]!, txResults: [] } as unknown as ResponseFinalizeBlock) : undefined),
  };
  return new EthBackend({ stateStore } as unknown as RpcEnvironment);
}

describe('stored block bloom', () => {
  const b = backend({ 1: [other, bloomEvent(someBloom)], 2: [other] }, { 3: [bloomEvent(someBloom)], 4: [other] });
  it('is the block_bloom event, from the events record or an older whole response', () => {
    expect(Buffer.from(b.storedBloom(1)!).toString('hex')).toBe(someBloom.slice(2));
    expect(Buffer.from(b.storedBloom(3)!).toString('hex')).toBe(someBloom.slice(2));
  });
  it('is the empty bloom for a recorded block without the event', () => {
    expect(b.storedBloom(2)).toEqual(new Uint8Array(256));
  });
  it('is unknown for an older block without the event, and for a height not stored', () => {
    expect(b.storedBloom(4)).toBeUndefined();
    expect(b.storedBloom(5)).toBeUndefined();
  });
});
