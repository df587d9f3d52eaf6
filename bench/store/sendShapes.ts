/**
 * The keys and values of a bank send as the store benchmarks write them (roughly the SDK's
 * shapes: an auth account record, balances under two denoms), the populated state, one block of
 * sends and their seeded PRNG — shared by bench/store/store.bench.ts and bench/store/commit.bench.ts
 * so both time the same block.
 */
import { createHash } from 'node:crypto';
import type { RootMultiStore } from '../../src/node/store/commitmulti.js';

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

const POPULATE_CHUNK_ACCOUNTS = 50_000;
const SEND_ENABLED = new TextEncoder().encode('bank/SendEnabled');

/** `accounts` accounts with two balances each (committed in chunks), and bank sends enabled. */
export async function populate(cms: RootMultiStore, accounts: number): Promise<void> {
  const auth = cms.getStore('auth');
  const bank = cms.getStore('bank');
  for (let start = 0; start < accounts; start += POPULATE_CHUNK_ACCOUNTS) {
    const end = Math.min(accounts, start + POPULATE_CHUNK_ACCOUNTS);
    for (let i = start; i < end; i++) {
      const addr = address(i);
      auth.set(accountKey(addr), accountValue(0));
      bank.set(balanceKey(addr, DENOM_A), balanceValue(1e6));
      bank.set(balanceKey(addr, DENOM_B), balanceValue(5));
    }
    await cms.commit();
  }
  cms.getStore('params').set(SEND_ENABLED, Uint8Array.of(1));
  await cms.commit();
}

/** One block of `txs` bank sends between random accounts through runTx-shaped branches (ante: sequence and fee; then the MsgSend). */
export function sendBlock(cms: RootMultiStore, accounts: number, txs: number, random: () => number): void {
  const feeCollector = balanceKey(address(accounts + 1), DENOM_A);
  const block = cms.branch();
  for (let t = 0; t < txs; t++) {
    const sender = address(Math.floor(random() * accounts));
    const recipient = address(Math.floor(random() * accounts));
    const ante = block.branch();
    const auth = ante.getStore('auth');
    const bank = ante.getStore('bank');
    const account = auth.get(accountKey(sender));
    auth.set(accountKey(sender), accountValue(account === undefined ? 1 : account.length));
    const senderBalance = bank.get(balanceKey(sender, DENOM_A));
    bank.set(balanceKey(sender, DENOM_A), balanceValue(senderBalance === undefined ? 0 : senderBalance[7]! - 1));
    const fees = bank.get(feeCollector);
    bank.set(feeCollector, balanceValue(fees === undefined ? 1 : fees[7]! + 1));
    ante.write();
    const msg = block.branch();
    const msgBank = msg.getStore('bank');
    msgBank.get(SEND_ENABLED);
    const from = msgBank.get(balanceKey(sender, DENOM_A));
    const to = msgBank.get(balanceKey(recipient, DENOM_A));
    msgBank.set(balanceKey(sender, DENOM_A), balanceValue((from?.[7] ?? 0) - 1));
    msgBank.set(balanceKey(recipient, DENOM_A), balanceValue((to?.[7] ?? 0) + 1));
    msg.write();
  }
  block.write();
}
