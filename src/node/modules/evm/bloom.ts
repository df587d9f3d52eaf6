/**
 * The 2048-bit logs bloom (yellow paper §4.3.1): each log's address and topics set 3 bits each,
 * taken from the first 6 bytes of their keccak-256. A block's bloom is the OR of its logs'; a
 * filter whose address or topics are not all in it matches no log of the block.
 */
import { keccak256 } from '../../../util/hash.js';
import { bytesEqual } from '../../../util/bytes.js';

export const BLOOM_BYTES = 256;

function bits(value: Uint8Array): [number, number, number] {
  const h = keccak256(value);
  const bit = (i: number) => ((h[i]! << 8) | h[i + 1]!) & 2047;
  return [bit(0), bit(2), bit(4)];
}

export function bloomAdd(bloom: Uint8Array, value: Uint8Array): void {
  for (const bit of bits(value)) bloom[BLOOM_BYTES - 1 - (bit >> 3)]! |= 1 << (bit & 7);
}

/** False when `value` was certainly never added; true when it may have been. */
export function bloomMayContain(bloom: Uint8Array, value: Uint8Array): boolean {
  for (const bit of bits(value)) if ((bloom[BLOOM_BYTES - 1 - (bit >> 3)]! & (1 << (bit & 7))) === 0) return false;
  return true;
}

/**
 * ORs the logs' addresses and topics into `bloom` (a new one when not given). Values repeat
 * within a tx (one contract, one event signature), so the last few added are skipped unhashed.
 */
export function logsBloom(logs: Iterable<readonly [address: Uint8Array, topics: readonly Uint8Array[], ...rest: unknown[]]>, bloom = new Uint8Array(BLOOM_BYTES)): Uint8Array {
  const recent: Uint8Array[] = [];
  const add = (value: Uint8Array) => {
    for (const seen of recent) if (bytesEqual(seen, value)) return;
    bloomAdd(bloom, value);
    if (recent.length === 8) recent.shift();
    recent.push(value);
  };
  for (const [address, topics] of logs) {
    add(address);
    for (const topic of topics) add(topic);
  }
  return bloom;
}
