/**
 * Query proofs: membership and non-membership at the latest and at older versions verify
 * against that version's app hash, and fail when anything is tampered with.
 */
import { memoryDatabase } from '../../../src/node/store/db/database.js';
import { openCommitMultiStore, type RootMultiStore } from '../../../src/node/store/commitmulti.js';
import type { ProofOp, QueryProof } from '../../../src/node/store/interface.js';
import { PRUNING_NOTHING } from '../../../src/node/store/options.js';
import { PROOF_OP_BUCKET, PROOF_OP_MULTISTORE, appHashOf, verifyProof } from '../../../src/node/store/proof.js';
import { levelFixture, s, type DbFixture } from './helpers.js';

const STORES = ['acc', 'bank', 'gov', 'params', 'staking'];

function tamper(proof: QueryProof, op: number, byte: number): ProofOp[] {
  return proof.ops.map((o, i) => {
    if (i !== op) return o;
    const data = Uint8Array.from(o.data);
    data[byte]! ^= 0x01;
    return { ...o, data };
  });
}

describe('proofs', () => {
  let fixture: DbFixture;
  let cms: RootMultiStore;
  const hashes = new Map<number, Uint8Array>();

  beforeAll(async () => {
    fixture = await levelFixture();
    cms = await openCommitMultiStore(fixture.db, { stores: STORES, pruning: PRUNING_NOTHING });
    // Enough keys that buckets share depth-3 and depth-4 nodes, and a few keys per store.
    for (let i = 0; i < 3000; i++) cms.getStore('bank').set(s(`balance/${i}`), s(`${i * 7}`));
    cms.getStore('params').set(s('max'), s('10'));
    hashes.set(1, (await cms.commit()).hash);
    for (let i = 0; i < 3000; i += 3) cms.getStore('bank').set(s(`balance/${i}`), s(`${i * 7 + 1}`));
    cms.getStore('bank').delete(s('balance/1'));
    cms.getStore('staking').set(s('validator'), s('v'));
    hashes.set(2, (await cms.commit()).hash);
    cms.getStore('bank').set(s('balance/1'), s('back'));
    hashes.set(3, (await cms.commit()).hash);
  });
  afterAll(async () => {
    await cms.close();
    await fixture.cleanup();
  });

  test('membership at the latest version', async () => {
    const proof = await cms.prove(3, 'bank', s('balance/3'));
    expect(Buffer.from(proof.value!).toString()).toBe('22');
    expect(proof.ops.map((op) => op.type)).toEqual([PROOF_OP_BUCKET, PROOF_OP_MULTISTORE]);
    expect(Buffer.from(proof.ops[1]!.key).toString()).toBe('bank');
    expect(verifyProof(proof.ops, hashes.get(3)!, 'bank', s('balance/3'), s('22'))).toBe(true);
    expect(proof.ops[0]!.data.length).toBeLessThan(3000);
  });

  test('membership and non-membership at older versions, from the recorded tree', async () => {
    const v1 = await cms.prove(1, 'bank', s('balance/3'));
    expect(Buffer.from(v1.value!).toString()).toBe('21');
    expect(verifyProof(v1.ops, hashes.get(1)!, 'bank', s('balance/3'), s('21'))).toBe(true);
    expect(verifyProof(v1.ops, hashes.get(2)!, 'bank', s('balance/3'), s('21'))).toBe(false);

    const absentAt2 = await cms.prove(2, 'bank', s('balance/1'));
    expect(absentAt2.value).toBeUndefined();
    expect(verifyProof(absentAt2.ops, hashes.get(2)!, 'bank', s('balance/1'), undefined)).toBe(true);
    expect(verifyProof(absentAt2.ops, hashes.get(2)!, 'bank', s('balance/1'), s('7'))).toBe(false);

    const staking1 = await cms.prove(1, 'staking', s('validator'));
    expect(staking1.value).toBeUndefined();
    expect(verifyProof(staking1.ops, hashes.get(1)!, 'staking', s('validator'), undefined)).toBe(true);
    const staking2 = await cms.prove(2, 'staking', s('validator'));
    expect(verifyProof(staking2.ops, hashes.get(2)!, 'staking', s('validator'), s('v'))).toBe(true);
  });

  test('non-membership of a key that never existed, in a small store', async () => {
    const proof = await cms.prove(3, 'params', s('nope'));
    expect(proof.value).toBeUndefined();
    expect(verifyProof(proof.ops, hashes.get(3)!, 'params', s('nope'), undefined)).toBe(true);
    expect(verifyProof(proof.ops, hashes.get(3)!, 'params', s('max'), undefined)).toBe(false);
    expect(proof.ops[0]!.data.length).toBeLessThan(200); // zero siblings are elided
  });

  test('tampering with the value, key, store, app hash or any proof byte fails', async () => {
    const proof = await cms.prove(3, 'bank', s('balance/42'));
    const appHash = hashes.get(3)!;
    const value = proof.value!;
    expect(verifyProof(proof.ops, appHash, 'bank', s('balance/42'), value)).toBe(true);
    expect(verifyProof(proof.ops, appHash, 'bank', s('balance/42'), s('999'))).toBe(false);
    expect(verifyProof(proof.ops, appHash, 'bank', s('balance/42'), undefined)).toBe(false);
    expect(verifyProof(proof.ops, appHash, 'bank', s('balance/43'), value)).toBe(false);
    expect(verifyProof(proof.ops, appHash, 'staking', s('balance/42'), value)).toBe(false);
    const wrongHash = Uint8Array.from(appHash);
    wrongHash[0]! ^= 1;
    expect(verifyProof(proof.ops, wrongHash, 'bank', s('balance/42'), value)).toBe(false);
    for (let op = 0; op < 2; op++) {
      for (let byte = 0; byte < proof.ops[op]!.data.length; byte += 7) {
        expect([op, byte, verifyProof(tamper(proof, op, byte), appHash, 'bank', s('balance/42'), value)]).toEqual([op, byte, false]);
      }
    }
    expect(verifyProof([proof.ops[0]!], appHash, 'bank', s('balance/42'), value)).toBe(false);
    expect(verifyProof([proof.ops[1]!, proof.ops[0]!], appHash, 'bank', s('balance/42'), value)).toBe(false);
    const truncated = { ...proof.ops[0]!, data: proof.ops[0]!.data.subarray(0, -1) };
    expect(verifyProof([truncated, proof.ops[1]!], appHash, 'bank', s('balance/42'), value)).toBe(false);
  });

  test('a proof can hide a key only by changing the bucket hash', async () => {
    // Drop one entry from the bucket of a present key and claim absence: must fail.
    const proof = await cms.prove(3, 'bank', s('balance/42'));
    const data = proof.ops[0]!.data;
    const n = Buffer.from(data).readUInt32BE(5);
    expect(n).toBeGreaterThanOrEqual(1);
    const view = Buffer.from(data);
    const withoutFirst = Buffer.concat([view.subarray(0, 5), Buffer.from([0, 0, 0, n - 1]), view.subarray(9 + 64)]);
    const forged = [{ ...proof.ops[0]!, data: new Uint8Array(withoutFirst) }, proof.ops[1]!];
    expect(verifyProof(forged, hashes.get(3)!, 'bank', s('balance/42'), undefined)).toBe(false);
  });

  test('app hash of the commit is the multistore root of the store roots', async () => {
    const roots = STORES.map((name) => [name, cms.storeRoot(name)] as const);
    expect(Buffer.from(appHashOf(roots)).toString('hex')).toBe(Buffer.from(hashes.get(3)!).toString('hex'));
  });

  test('proofs over a fresh in-memory store with one key', async () => {
    const small = await openCommitMultiStore(memoryDatabase(), { stores: ['only'] });
    small.getStore('only').set(s('k'), s('v'));
    const { hash } = await small.commit();
    const proof = await small.prove(1, 'only', s('k'));
    expect(verifyProof(proof.ops, hash, 'only', s('k'), s('v'))).toBe(true);
    small.getStore('only').set(s('k'), s('w'));
    await small.commit();
    const old = await small.prove(1, 'only', s('k'));
    expect(verifyProof(old.ops, hash, 'only', s('k'), s('v'))).toBe(true);
    await small.close();
  });
});
