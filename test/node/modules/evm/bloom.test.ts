import { describe, expect, it } from '@jest/globals';
import { BLOOM_BYTES, bloomAdd, bloomMayContain, logsBloom } from '../../../../src/node/modules/evm/bloom.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('logs bloom', () => {
  it('admits what was added and rules out what was not (go-ethereum\'s bloom vector)', () => {
    const bloom = new Uint8Array(BLOOM_BYTES);
    for (const word of ['testtest', 'test', 'hallo', 'other']) bloomAdd(bloom, bytes(word));
    for (const word of ['testtest', 'test', 'hallo', 'other']) expect(bloomMayContain(bloom, bytes(word))).toBe(true);
    for (const word of ['tes', 'lo']) expect(bloomMayContain(bloom, bytes(word))).toBe(false);
  });

  it('sets three bits per value, from the first six bytes of its keccak-256', () => {
    // keccak256("") = c5d2 4601 86f7…: bits 0xc5d2 & 2047 = 1490, 0x4601 & 2047 = 1537, 0x86f7 & 2047 = 1783.
    const bloom = new Uint8Array(BLOOM_BYTES);
    bloomAdd(bloom, new Uint8Array(0));
    const set = [...bloom.entries()].flatMap(([i, byte]) => [0, 1, 2, 3, 4, 5, 6, 7].filter((b) => byte & (1 << b)).map((b) => (BLOOM_BYTES - 1 - i) * 8 + b));
    expect(set.sort((a, b) => a - b)).toEqual([1490, 1537, 1783]);
  });

  it('a block\'s bloom is the same whether repeated values are hashed again or skipped', () => {
    const address = new Uint8Array(20).fill(7);
    const topic = new Uint8Array(32).fill(9);
    const logs = Array.from({ length: 30 }, (_, i) => [address, [topic, new Uint8Array(32).fill(i)]] as const);
    const expected = new Uint8Array(BLOOM_BYTES);
    for (const [a, topics] of logs) {
      bloomAdd(expected, a);
      for (const t of topics) bloomAdd(expected, t);
    }
    expect(logsBloom(logs)).toEqual(expected);
    // Into an existing bloom: ORed.
    const prior = new Uint8Array(BLOOM_BYTES);
    bloomAdd(prior, bytes('earlier'));
    const merged = logsBloom(logs, prior.slice());
    expect(bloomMayContain(merged, bytes('earlier'))).toBe(true);
    expect(bloomMayContain(merged, address)).toBe(true);
  });
});
