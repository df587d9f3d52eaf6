/**
 * ICS23 proofs from the store, verified with the published @confio/ics23 library (iavlSpec for
 * the store tree, tendermintSpec for the multistore) against the app hash of each version:
 * existence and absence, at the latest and at older versions, after reopening (nodes read from
 * disk), at the edges of the key space; bad requests; state-sync export/import round trips.
 */
import { openCommitMultiStore, type RootMultiStore } from '../../../src/node/store/commitmulti.js';
import { memoryDatabase, type Database } from '../../../src/node/store/db/database.js';
import { StoreError } from '../../../src/node/store/errors.js';
import type { SnapshotItem } from '../../../src/node/store/interface.js';
import { PRUNING_NOTHING, pruningFromAppToml } from '../../../src/node/store/options.js';
import { verifyStoreProof } from '../../helpers/ics23.js';
import { Bucket } from '../../../src/node/store/db/buckets.js';
import { hex, levelFixture, rng, s, type DbFixture } from './helpers.js';

const STORES = ['acc', 'bank', 'staking'];

function open(db: Database, pruning = PRUNING_NOTHING): Promise<RootMultiStore> {
  return openCommitMultiStore(db, { stores: STORES, pruning, syncCommits: false });
}

async function expectStoreError(promise: Promise<unknown>, reason: string, message: RegExp): Promise<void> {
  let caught: unknown;
  try {
    await promise;
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(StoreError);
  expect((caught as StoreError).reason).toBe(reason);
  expect((caught as StoreError).message).toMatch(message);
}

/** Balances-like keys: 0x02 ‖ len ‖ address ‖ denom. */
function balanceKey(i: number, denom = 'attotoken'): Uint8Array {
  const address = Uint8Array.from({ length: 20 }, (_, j) => (i * 31 + j * 7) & 0xff);
  return Uint8Array.of(0x02, 20, ...address, ...s(denom));
}

describe('ICS23 proofs verified with @confio/ics23', () => {
  let fixture: DbFixture;
  beforeEach(async () => {
    fixture = await levelFixture();
  });
  afterEach(async () => fixture.cleanup());

  test('existence and absence at the latest and older versions, before and after a reopen', async () => {
    let cms = await open(fixture.db);
    const random = rng(5);
    const model: Map<string, Uint8Array>[] = [];
    const live = new Map<string, Uint8Array>();
    const hashes: Uint8Array[] = [];
    for (let version = 1; version <= 8; version++) {
      for (let i = 0; i < 60; i++) {
        const key = balanceKey(Math.floor(random() * 80));
        if (random() < 0.2) {
          cms.getStore('bank').delete(key);
          live.delete(hex(key)!);
        } else {
          const value = s(`${Math.floor(random() * 1e9)}`);
          cms.getStore('bank').set(key, value);
          live.set(hex(key)!, value);
        }
      }
      cms.getStore('acc').set(s(`account-${version}`), s(`seq-${version}`));
      const commit = await cms.commit();
      hashes[version] = commit.hash;
      model[version] = new Map(live);
    }
    const check = async (store: RootMultiStore): Promise<void> => {
      for (const version of [8, 7, 3, 1]) {
        const appHash = hashes[version]!;
        let present = 0;
        let absent = 0;
        for (let i = 0; i < 80; i += 3) {
          const key = balanceKey(i);
          const expected = model[version]!.get(hex(key)!);
          const proof = await store.prove(version, 'bank', key);
          expect(hex(proof.value)).toBe(hex(expected));
          expect(verifyStoreProof(proof.ops, appHash, 'bank', key, expected)).toBe(true);
          // The same proof does not verify against another version's app hash or another value.
          expect(verifyStoreProof(proof.ops, hashes[version === 1 ? 2 : version - 1]!, 'bank', key, expected)).toBe(false);
          if (expected !== undefined) {
            expect(verifyStoreProof(proof.ops, appHash, 'bank', key, s('forged'))).toBe(false);
            present++;
          } else absent++;
        }
        expect(present).toBeGreaterThan(0);
        expect(absent).toBeGreaterThan(0);
        // Arbitrary keys outside every stored key: before the first, after the last, another prefix.
        for (const key of [Uint8Array.of(0x00), Uint8Array.of(0xff, 0xff), s('account-9'), s('not-there')]) {
          const proof = await store.prove(version, 'bank', key);
          expect(proof.value).toBeUndefined();
          expect(verifyStoreProof(proof.ops, appHash, 'bank', key, undefined)).toBe(true);
        }
        const account = await store.prove(version, 'acc', s(`account-${version}`));
        expect(verifyStoreProof(account.ops, appHash, 'acc', s(`account-${version}`), s(`seq-${version}`))).toBe(true);
      }
    };
    await check(cms);
    await cms.close();
    cms = await open(await fixture.reopen());
    await check(cms);
    await cms.close();
  });

  test('bad requests: unknown store, heights outside the retained range, empty key, empty store', async () => {
    const cms = await open(fixture.db, pruningFromAppToml('custom', 2, 10));
    for (let version = 1; version <= 12; version++) {
      cms.getStore('bank').set(s('fee'), s(`${version}`));
      await cms.commit();
    }
    await cms.waitForPruning();
    await expectStoreError(cms.prove(12, 'nope', s('fee')), 'UNKNOWN_STORE', /^unknown store "nope"/);
    await expectStoreError(cms.prove(13, 'bank', s('fee')), 'VERSION_NOT_FOUND', /^version 13 does not exist: available versions are 8–12$/);
    await expectStoreError(cms.prove(3, 'bank', s('fee')), 'VERSION_PRUNED', /^version 3 has been pruned: available versions are 8–12$/);
    await expectStoreError(cms.prove(12, 'bank', new Uint8Array(0)), 'INVALID_KEY', /empty key/);
    await expectStoreError(cms.prove(12, 'staking', s('x')), 'INVALID_KEY', /^store staking is empty at version 12/);
    const ok = await cms.prove(10, 'bank', s('fee'));
    expect(verifyStoreProof(ok.ops, cms.lastCommitId().hash, 'bank', s('fee'), s('10'))).toBe(false);
    await cms.close();
  });

  test('pruning deletes tree nodes no retained version uses; every retained version still proves', async () => {
    const pruning = pruningFromAppToml('custom', 3, 10);
    let cms = await open(fixture.db, pruning);
    const random = rng(21);
    const hashes: Uint8Array[] = [];
    const countChunks = async (): Promise<number> => {
      let n = 0;
      for await (const _ of fixture.db.keys({ gte: Uint8Array.of(Bucket.stateNode), lt: Uint8Array.of(Bucket.stateNode + 1) })) n++;
      return n;
    };
    let peak = 0;
    for (let version = 1; version <= 60; version++) {
      // The same 40 keys rewritten over and over: without pruning the node records would grow
      // with every version.
      for (let i = 0; i < 40; i++) cms.getStore('bank').set(balanceKey(i), s(`${version}.${Math.floor(random() * 1000)}`));
      hashes[version] = (await cms.commit()).hash;
      await cms.waitForPruning();
      if (version === 20) peak = await countChunks();
    }
    const earliest = cms.earliestVersion();
    expect(earliest).toBe(57);
    expect(await countChunks()).toBeLessThanOrEqual(peak);
    const checkAll = async (store: RootMultiStore): Promise<void> => {
      for (let version = earliest; version <= 60; version++) {
        for (const i of [0, 17, 39, 40]) {
          const proof = await store.prove(version, 'bank', balanceKey(i));
          expect(verifyStoreProof(proof.ops, hashes[version]!, 'bank', balanceKey(i), proof.value)).toBe(true);
        }
      }
    };
    await checkAll(cms);
    await cms.close();
    cms = await open(await fixture.reopen(), pruning);
    await checkAll(cms);
    await cms.close();
  });

  test('state sync: export at a version, import into an empty store gives the same app hash and proofs', async () => {
    const source = await open(fixture.db);
    const random = rng(9);
    for (let version = 1; version <= 5; version++) {
      for (let i = 0; i < 200; i++) source.getStore(random() < 0.5 ? 'bank' : 'acc').set(balanceKey(Math.floor(random() * 300)), s(`${version}.${i}`));
      if (version === 4) source.getStore('bank').delete(balanceKey(7));
      await source.commit();
    }
    const at4 = (await source.prove(4, 'bank', balanceKey(1))).ops;
    const items: SnapshotItem[] = [];
    for await (const item of source.exportSnapshot(4)) items.push(item);
    expect(items.filter((item) => item.kind === 'store').map((item) => (item as { name: string }).name)).toEqual(STORES);
    const hash4 = (await source.prove(4, 'acc', balanceKey(2))).ops;
    const stream = async function* (list: SnapshotItem[]): AsyncIterable<SnapshotItem> {
      yield* list;
    };

    // A wrong expected hash: refused, nothing written.
    const target = await open(memoryDatabase());
    await expectStoreError(target.importSnapshot(4, stream(items), new Uint8Array(32)), 'INVALID_VALUE', /^invalid snapshot: the imported state hashes to/);
    expect(target.lastCommitId().version).toBe(0);
    // Malformed streams: refused.
    await expectStoreError(target.importSnapshot(4, stream([{ kind: 'node', key: s('k'), value: s('v'), version: 1, height: 0 }])), 'INVALID_VALUE', /a node came before any store item/);
    await expectStoreError(target.importSnapshot(4, stream([{ kind: 'store', name: 'bank' }, { kind: 'node', key: s('k'), value: undefined, version: 1, height: 1 }])), 'INVALID_VALUE', /without two lower children/);
    expect(target.lastCommitId().version).toBe(0);

    // The real thing. The expected hash is the app hash of version 4.
    const appHash4 = await (async () => {
      for (const op of [at4, hash4]) expect(op).toHaveLength(2);
      // The app hash of version 4 is what its proofs verify against; take it from a fresh import.
      const probe = await open(memoryDatabase());
      return (await probe.importSnapshot(4, stream(items))).hash;
    })();
    expect(verifyStoreProof(at4, appHash4, 'bank', balanceKey(1), source.readAt(4, 'bank', balanceKey(1)))).toBe(true);
    const imported = await target.importSnapshot(4, stream(items), appHash4);
    expect(imported).toEqual({ version: 4, hash: appHash4 });
    for (let i = 0; i < 300; i += 7) {
      for (const store of ['bank', 'acc']) {
        const key = balanceKey(i);
        expect(hex(target.getStore(store).get(key))).toBe(hex(source.readAt(4, store, key)));
        const proof = await target.prove(4, store, key);
        expect(verifyStoreProof(proof.ops, appHash4, store, key, source.readAt(4, store, key))).toBe(true);
      }
    }
    // It goes on from there exactly as the source did.
    const again: SnapshotItem[] = [];
    for await (const item of target.exportSnapshot(4)) again.push(item);
    expect(again.length).toBe(items.length);
    target.getStore('bank').set(s('next'), s('1'));
    expect((await target.commit()).version).toBe(5);
    await target.close();
    await source.close();
  });
});
