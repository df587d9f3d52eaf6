/**
 * The keys and values of a bank send as the store benchmarks write them (roughly the SDK's
 * shapes: an auth account record, balances under two denoms), and their seeded PRNG — shared by
 * bench/store/store.bench.ts and bench/store/commit.bench.ts so both time the same block.
 */
import { createHash } from 'node:crypto';

export const DENOM_A = new TextEncoder().encode('attotoken');
export const DENOM_B = new TextEncoder().encode('ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2');

/** Account `i`'s 20-byte address (node:crypto, so it does not depend on the store being timed). */
export function address(i: number): Uint8Array {
  const buf = new Uint8Array(4);
  new DataView(buf.buffer).setUint32(0, i);
  return createHash('sha256').update(buf).digest().subarray(0, 20);
}

export function accountKey(addr: Uint8Array): Uint8Array {
  const key = new Uint8Array(21);
  key[0] = 0x01;
  key.set(addr, 1);
  return key;
}

export function balanceKey(addr: Uint8Array, denom: Uint8Array): Uint8Array {
  const key = new Uint8Array(2 + addr.length + denom.length);
  key[0] = 0x02;
  key[1] = addr.length;
  key.set(addr, 2);
  key.set(denom, 2 + addr.length);
  return key;
}

/** A BaseAccount-sized record (33-byte pubkey, account number, sequence) carrying `seq`. */
export function accountValue(seq: number): Uint8Array {
  const value = new Uint8Array(110);
  value.fill(0x5a);
  new DataView(value.buffer).setUint32(value.length - 4, seq);
  return value;
}

export function balanceValue(amount: number): Uint8Array {
  const value = new Uint8Array(32);
  value.fill(0x31);
  new DataView(value.buffer).setFloat64(0, amount);
  return value;
}

/** A seeded PRNG (mulberry32): the same blocks in every run and every checkout. */
export function rng(seed: number): () => number {
  let t = seed >>> 0;
  return () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let r = Math.imul(t ^ (t >>> 15), 1 | t);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}
