/**
 * The committed multi-store: app hash determinism, persistence and reopen, crash safety,
 * rollback, reads and iteration at old versions, pruning, the CheckTx branch. Run over both the
 * in-memory database and a real LevelDB in a temp directory.
 */
import type { BatchOp, Database } from '../../../src/node/store/db/database.js';
import { Bucket } from '../../../src/node/store/db/buckets.js';
import { openCommitMultiStore, type RootMultiStore } from '../../../src/node/store/commitmulti.js';
import { StoreError, isStoreError } from '../../../src/node/store/errors.js';
import { PRUNING_EVERYTHING, PRUNING_NOTHING, pruningFromAppToml, type PruningOptions } from '../../../src/node/store/options.js';
import { readU64 } from '../../../src/node/store/bytes.js';
import { keyIndexKey } from '../../../src/node/store/layout.js';
import { DB_KINDS, b, drain, drainScan, hex, rng, s, type DbFixture } from './helpers.js';

const STORES = ['auth', 'bank', 'params', 'staking'];
/** Store ids are given in name order from 1 on a fresh database. */
const BANK_ID = 2;

function open(db: Database, pruning: PruningOptions = PRUNING_NOTHING): Promise<RootMultiStore> {
  return openCommitMultiStore(db, { stores: STORES, pruning });
}

function catchStoreError(fn: () => unknown): StoreError {
  try {
    fn();
  } catch (err) {
    if (err instanceof StoreError) return err;
    throw err;
  }
  throw new Error('expected a StoreError');
}

async function rejectStoreError(promise: Promise<unknown>): Promise<StoreError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof StoreError) return err;
    throw err;
  }
  throw new Error('expected a StoreError');
}

/** A database whose next batch fails: the process "dies" before the commit lands. */
function failingNextBatch(db: Database): Database & { armed: boolean } {
  const wrapper = Object.create(db) as Database & { armed: boolean };
  wrapper.armed = true;
  wrapper.batch = async (ops: BatchOp[], options?: { sync?: boolean }): Promise<void> => {
    if (wrapper.armed) {
      wrapper.armed = false;
      throw new Error('simulated crash before the batch was written');
    }
    return db.batch(ops, options);
  };
  return wrapper;
}

for (const [kind, makeFixture] of DB_KINDS) {
  describe(`CommitMultiStore over ${kind}`, () => {
    let fixture: DbFixture;
    beforeEach(async () => {
      fixture = await makeFixture();
    });
    afterEach(async () => fixture.cleanup());

    test('empty state: version 0, empty hash; unknown store is a clear error', async () => {
      const cms = await open(fixture.db);
      expect(cms.lastCommitId()).toEqual({ version: 0, hash: new Uint8Array(0) });
      expect(cms.earliestVersion()).toBe(0);
      const err = catchStoreError(() => cms.getStore('nope'));
      expect(err.reason).toBe('UNKNOWN_STORE');
      expect(err.message).toBe('unknown store "nope"');
      expect(catchStoreError(() => cms.readAt(1, 'bank', b(1))).reason).toBe('VERSION_NOT_FOUND');
      await cms.close();
    });

    test('a sliced commit writes what a whole one does, and readers see the previous version between its pieces', async () => {
      const other = await makeFixture();
      try {
        // Counts the puts made into the sliced commit's write batch, for the probe below.
        let puts = 0;
        const counted = Object.create(other.db) as Database;
        counted.openBatch = () => {
          const batch = other.db.openBatch!();
          return {
            put: (key, value) => {
              puts++;
              batch.put(key, value);
            },
            del: (key) => batch.del(key),
            get length() {
              return batch.length;
            },
            write: (options) => batch.write(options),
            discard: () => batch.discard(),
          };
        };
        const whole = await open(fixture.db);
        const sliced = await open(counted);
        const write = (cms: RootMultiStore, round: number) => {
          for (let i = 0; i < 3000; i++) cms.getStore(STORES[i % STORES.length]!).set(s(`key-${i}`), s(`value-${round}-${i}`));
        };
        write(whole, 1);
        write(sliced, 1);
        await whole.commit();
        await sliced.commit(0.01);
        write(whole, 2);
        write(sliced, 2);
        const wholeId = await whole.commit();
        // Between the pieces the loop runs other work; a read there sees version 1, not a half-written 2.
        const seen: string[] = [];
        const putsSeen: number[] = [];
        let turns = 0;
        const before = puts;
        const probe = () => {
          turns++;
          putsSeen.push(puts - before);
          seen.push(Buffer.from(sliced.readAt(sliced.lastCommitId().version, 'bank', s('key-1'))!).toString());
          if (turns < 1000) timer = setImmediate(probe);
        };
        let timer = setImmediate(probe);
        const slicedId = await sliced.commit(0.01);
        clearImmediate(timer);
        expect(slicedId).toEqual(wholeId);
        // Some turns ran while the batch was part filled.
        const total = puts - before;
        expect(total).toBeGreaterThan(3000);
        expect(putsSeen.some((n) => n > 0 && n < total)).toBe(true);
        expect(new Set(seen.slice(0, -1))).toEqual(new Set(['value-1-1']));
        expect(Buffer.from(sliced.readAt(2, 'bank', s('key-1'))!).toString()).toBe('value-2-1');
        // The same bytes in both databases.
        expect(await drain(other.db.entries())).toEqual(await drain(fixture.db.entries()));
        await whole.close();
        await sliced.close();
      } finally {
        await other.cleanup();
      }
    });

    test('the same writes in a different order give the same hash; different content a different one', async () => {
      const writes: [string, Uint8Array, Uint8Array][] = [];
      for (let i = 0; i < 200; i++) writes.push([STORES[i % STORES.length]!, s(`key-${i}`), s(`value-${i}`)]);
      const one = await open(fixture.db);
      for (const [name, key, value] of writes) one.getStore(name).set(key, value);
      const oneHash = one.workingHash();
      const other = await openCommitMultiStore((await import('../../../src/node/store/db/database.js')).memoryDatabase(), { stores: [...STORES].reverse() });
      const shuffled = [...writes].sort(() => 0.5 - rng(7)());
      for (const [name, key, value] of shuffled.reverse()) other.getStore(name).set(key, value);
      // Noise that cancels out: a key set then deleted, a value overwritten back.
      other.getStore('bank').set(s('transient'), s('x'));
      other.getStore('bank').delete(s('transient'));
      expect(hex(other.workingHash())).toBe(hex(oneHash));
      other.getStore('bank').set(s('key-1'), s('value-1!'));
      expect(hex(other.workingHash())).not.toBe(hex(oneHash));
      // Same key and value in another store: a different app hash.
      other.getStore('bank').set(s('key-1'), s('value-1'));
      other.getStore('auth').set(s('only-here'), s('v'));
      const a = other.workingHash();
      other.getStore('auth').delete(s('only-here'));
      other.getStore('bank').set(s('only-here'), s('v'));
      expect(hex(other.workingHash())).not.toBe(hex(a));
      await one.close();
      await other.close();
    });

    test('a committed value read twice is the same object until a commit changes it (decode memos key on it)', async () => {
      const cms = await open(fixture.db);
      for (let i = 0; i < 50; i++) cms.getStore('bank').set(s(`k/${i}`), s(`v/${i}`));
      await cms.commit();
      await cms.close();
      const again = await open(await fixture.reopen());
      const first = again.getStore('bank').get(s('k/7'))!;
      expect(again.getStore('bank').get(s('k/7'))).toBe(first);
      expect(again.branchCommitted().getStore('bank').get(s('k/7'))).toBe(first);
      const neighbour = again.getStore('bank').get(s('k/8'))!;
      again.getStore('bank').set(s('k/7'), s('v/7!'));
      await again.commit();
      const changed = again.getStore('bank').get(s('k/7'))!;
      expect(changed).not.toBe(first);
      expect(Buffer.from(changed).toString()).toBe('v/7!');
      expect(Buffer.from(first).toString()).toBe('v/7');
      expect(Buffer.from(again.getStore('bank').get(s('k/8'))!).toString()).toBe(Buffer.from(neighbour).toString());
      expect(Buffer.from(again.readAt(1, 'bank', s('k/7'))!).toString()).toBe('v/7');
      await again.close();
    });

    test('the decoded-bucket cache holds at most bucketCacheSize buckets per store (app.toml [cache] store-buckets)', async () => {
      const cms = await open(fixture.db);
      const value = (i: number) => s(`${i}:`.padEnd(1500, 'v')); // above INDEX_VALUE_MAX: read from its bucket
      for (let round = 0; round < 4; round++) {
        for (let i = round * 150; i < (round + 1) * 150; i++) cms.getStore('bank').set(s(`acct/${i}`), value(i));
        await cms.commit();
      }
      await cms.close();
      for (const bound of [16, 64]) {
        const bounded = await openCommitMultiStore(await fixture.reopen(), { stores: STORES, pruning: PRUNING_NOTHING, bucketCacheSize: bound });
        for (let i = 0; i < 600; i++) {
          expect(hex(bounded.getStore('bank').get(s(`acct/${i}`)))).toBe(hex(value(i)));
          expect(bounded.stats().cachedBuckets).toBeLessThanOrEqual(bound);
        }
        expect(bounded.stats().cachedBuckets).toBeGreaterThan(bound / 2);
        await bounded.close();
      }
      // The default bound is far larger: the same reads keep more buckets than either bound above.
      const unbounded = await open(await fixture.reopen());
      for (let i = 0; i < 600; i++) unbounded.getStore('bank').get(s(`acct/${i}`));
      expect(unbounded.stats().cachedBuckets).toBeGreaterThan(64);
      await unbounded.close();
    });

    test('workingHash is what commit returns; commit persists and reopen lands on it', async () => {
      const cms = await open(fixture.db);
      cms.getStore('bank').set(s('alice'), s('100'));
      cms.getStore('auth').set(s('alice'), s('account'));
      const working = cms.workingHash();
      expect(hex(cms.workingHash())).toBe(hex(working)); // stable without writes
      const first = await cms.commit();
      expect(first.version).toBe(1);
      expect(hex(first.hash)).toBe(hex(working));
      expect(cms.lastCommitId()).toEqual(first);
      // Nothing written: the next version has the same roots, so the same app hash.
      expect(hex(cms.workingHash())).toBe(hex(working));
      cms.getStore('bank').set(s('bob'), s('5'));
      expect(hex(cms.workingHash())).not.toBe(hex(working));
      const second = await cms.commit();
      expect(second.version).toBe(2);
      await cms.close();

      const reopened = await open(await fixture.reopen());
      expect(reopened.lastCommitId().version).toBe(2);
      expect(hex(reopened.lastCommitId().hash)).toBe(hex(second.hash));
      expect(hex(reopened.workingHash())).toBe(hex(second.hash));
      expect(hex(reopened.getStore('bank').get(s('alice')))).toBe(hex(s('100')));
      expect(hex(reopened.getStore('bank').get(s('bob')))).toBe(hex(s('5')));
      expect(hex(reopened.readAt(1, 'bank', s('alice')))).toBe(hex(s('100')));
      expect(reopened.readAt(1, 'bank', s('bob'))).toBeUndefined();
      await reopened.close();
    });

    test('background loading after reopen ends when stores of different sizes finish out of step', async () => {
      // Each store's pass over its tree ends at a different turn; asking a finished store again
      // used to start a new pass, so the stores kept each other loading forever.
      const cms = await open(fixture.db);
      for (let i = 0; i < 6000; i++) cms.getStore('bank').set(s(`balance/${i}`), s(`${i}`));
      for (let i = 0; i < 700; i++) cms.getStore('auth').set(s(`account/${i}`), s(`${i}`));
      for (let i = 0; i < 90; i++) cms.getStore('staking').set(s(`validator/${i}`), s(`${i}`));
      await cms.commit();
      await cms.close();

      const reopened = await open(await fixture.reopen());
      reopened.getStore('bank').set(s('balance/17'), s('changed'));
      await reopened.commit();
      await reopened.waitForWarmUp();
      expect(hex(reopened.getStore('auth').get(s('account/699')))).toBe(hex(s('699')));
      await reopened.close();
    });

    test('a crash before the commit batch lands leaves the previous version, on disk and in memory', async () => {
      const cms = await open(fixture.db);
      cms.getStore('bank').set(s('alice'), s('100'));
      const v1 = await cms.commit();
      await cms.close();

      const failing = failingNextBatch(fixture.db);
      const crashing = await open(failing);
      crashing.getStore('bank').set(s('alice'), s('1'));
      crashing.getStore('bank').set(s('carol'), s('7'));
      crashing.workingHash();
      await expect(crashing.commit()).rejects.toThrow('simulated crash');
      expect(crashing.lastCommitId()).toEqual(v1);
      expect(hex(crashing.readAt(1, 'bank', s('alice')))).toBe(hex(s('100')));
      await crashing.close();

      // Never committed at all (process killed after FinalizeBlock): reopen lands on version 1.
      const again = await open(await fixture.reopen());
      again.getStore('bank').set(s('dave'), s('1'));
      again.workingHash();
      const reopened = await open(await fixture.reopen());
      expect(reopened.lastCommitId().version).toBe(1);
      expect(hex(reopened.lastCommitId().hash)).toBe(hex(v1.hash));
      expect(hex(reopened.getStore('bank').get(s('alice')))).toBe(hex(s('100')));
      expect(reopened.getStore('bank').get(s('carol'))).toBeUndefined();
      expect(reopened.getStore('bank').get(s('dave'))).toBeUndefined();
      await reopened.close();
    });

    test('reads and iteration at every retained version match what was written', async () => {
      const cms = await open(fixture.db);
      const random = rng(3);
      const keys = Array.from({ length: 30 }, (_, i) => s(`acct/${String(i).padStart(2, '0')}`));
      const history: Map<string, string>[] = [new Map()];
      for (let version = 1; version <= 12; version++) {
        const model = new Map(history[version - 1]);
        for (let op = 0; op < 15; op++) {
          const key = keys[Math.floor(random() * keys.length)]!;
          if (random() < 0.3) {
            cms.getStore('bank').delete(key);
            model.delete(hex(key)!);
          } else {
            const value = s(`v${version}.${op}`);
            cms.getStore('bank').set(key, value);
            model.set(hex(key)!, hex(value)!);
          }
        }
        // A hot key written every block (like the fee collector).
        cms.getStore('bank').set(s('fee'), s(`fee${version}`));
        model.set(hex(s('fee'))!, hex(s(`fee${version}`))!);
        await cms.commit();
        history.push(model);
      }
      const check = async (store: RootMultiStore): Promise<void> => {
        for (let version = 1; version <= 12; version++) {
          const model = history[version]!;
          for (const key of [...keys, s('fee')]) expect([version, hex(key), hex(store.readAt(version, 'bank', key))]).toEqual([version, hex(key), model.get(hex(key)!)]);
          const sorted = [...model.entries()].sort((x, y) => (x[0] < y[0] ? -1 : 1));
          expect(await drain(store.storeAt(version, 'bank').iterator())).toEqual(sorted);
          expect(await drain(store.storeAt(version, 'bank').iterator(s('acct/10'), s('acct/20'), { reverse: true }))).toEqual(
            sorted.filter(([k]) => k >= hex(s('acct/10'))! && k < hex(s('acct/20'))!).reverse(),
          );
        }
        expect(await drain(store.storeAt(12, 'auth').iterator())).toEqual([]);
      };
      await check(cms);
      await cms.close();
      await check(await open(await fixture.reopen()));
    });

    test('iteration of the latest state is one scan of the key index: no bucket read, except for large values and entries written without their value', async () => {
      const cms = await open(fixture.db);
      const expected: [string, string][] = [];
      for (let i = 0; i < 300; i++) {
        const key = s(`acct/${String(i).padStart(3, '0')}`);
        const value = i % 50 === 7 ? new Uint8Array(2000).fill(i) : s(`v${i}`);
        cms.getStore('bank').set(key, value);
        expected.push([hex(key)!, hex(value)!]);
      }
      await cms.commit();
      cms.getStore('bank').set(s('acct/001'), s('changed'));
      expected[1] = [hex(s('acct/001'))!, hex(s('changed'))!];
      await cms.commit();
      await cms.close();
      const reopened = await open(await fixture.reopen());
      expect(reopened.stats().cachedBuckets).toBe(0);
      expect(await drain(reopened.getStore('bank').iterator())).toEqual(expected);
      // Only the six 2,000-byte values were read from their buckets.
      expect(reopened.stats().cachedBuckets).toBe(6);
      // The callback scan over the committed view (the gov tally's path) gives the same.
      expect(await drainScan(reopened.getStore('bank'))).toEqual(expected);
      expect(await drainScan(reopened.getStore('bank'), undefined, undefined, { reverse: true })).toEqual([...expected].reverse());
      expect(await drainScan(reopened.storeAt(1, 'bank'), s('acct/000'), s('acct/003'))).toEqual([
        [hex(s('acct/000'))!, hex(s('v0'))!],
        [hex(s('acct/001'))!, hex(s('v1'))!],
        [hex(s('acct/002'))!, hex(s('v2'))!],
      ]);
      expect(await drain(reopened.storeAt(1, 'bank').iterator(s('acct/000'), s('acct/003')))).toEqual([
        [hex(s('acct/000'))!, hex(s('v0'))!],
        [hex(s('acct/001'))!, hex(s('v1'))!],
        [hex(s('acct/002'))!, hex(s('v2'))!],
      ]);
      await reopened.close();
      // Index entries as written before values were kept there (empty): read from the buckets, in order.
      const legacy: BatchOp[] = [];
      for (let i = 0; i < 300; i += 3) legacy.push({ type: 'put', key: keyIndexKey(BANK_ID, s(`acct/${String(i).padStart(3, '0')}`)), value: new Uint8Array(0) });
      const db = await fixture.reopen();
      await db.batch(legacy);
      const old = await open(db);
      expect(await drain(old.getStore('bank').iterator())).toEqual(expected);
      expect(await drain(old.getStore('bank').iterator(undefined, undefined, { reverse: true }))).toEqual([...expected].reverse());
      expect(await drain(old.storeAt(2, 'bank').iterator())).toEqual(expected);
      expect(old.stats().cachedBuckets).toBeGreaterThan(90);
      expect(await drainScan(old.getStore('bank'))).toEqual(expected);
      expect(await drainScan(old.getStore('bank'), undefined, undefined, { reverse: true }, 40)).toEqual([...expected].reverse().slice(0, 40));
      expect(await drainScan(old.storeAt(2, 'bank'))).toEqual(expected);
      await old.close();
    });

    test('branchAt gives a writable cache over an old version; storeAt views are read-only', async () => {
      const cms = await open(fixture.db);
      cms.getStore('bank').set(s('a'), s('1'));
      await cms.commit();
      cms.getStore('bank').set(s('a'), s('2'));
      await cms.commit();
      const old = cms.branchAt(1);
      expect(hex(old.getStore('bank').get(s('a')))).toBe(hex(s('1')));
      old.getStore('bank').set(s('a'), s('3'));
      expect(hex(old.getStore('bank').get(s('a')))).toBe(hex(s('3')));
      expect(hex(cms.readAt(1, 'bank', s('a')))).toBe(hex(s('1')));
      const view = cms.storeAt(1, 'bank') as unknown as { set(k: Uint8Array, v: Uint8Array): void };
      expect(catchStoreError(() => view.set(s('a'), s('x'))).reason).toBe('READ_ONLY');
      await cms.close();
    });

    test('rollback deletes the latest version; state, hash and history are those of the previous one', async () => {
      const cms = await open(fixture.db);
      const bank = cms.getStore('bank');
      // Watchers hear every move of the latest version, after it has moved.
      const seen: string[] = [];
      const unwatch = cms.watchLatest!((version) => seen.push(`${version}/${cms.latestVersion()}`));
      bank.set(s('a'), s('1'));
      bank.set(s('b'), s('1'));
      const v1 = await cms.commit();
      bank.set(s('a'), s('2'));
      bank.delete(s('b'));
      bank.set(s('c'), s('2'));
      const v2 = await cms.commit();
      bank.delete(s('a'));
      bank.set(s('b'), s('3')); // re-created after its deletion at v2
      bank.set(s('c'), s('3'));
      cms.getStore('staking').set(s('val'), s('3'));
      await cms.commit();

      bank.set(s('z'), s('pending'));
      expect((await rejectStoreError(cms.rollback())).reason).toBe('PENDING_WRITES');
      (bank as unknown as { discard(): void }).discard();

      const back = await cms.rollback();
      expect(back).toEqual(v2);
      expect(seen).toEqual(['1/1', '2/2', '3/3', '2/2']);
      unwatch();
      expect(hex(cms.workingHash())).toBe(hex(v2.hash));
      expect(hex(bank.get(s('a')))).toBe(hex(s('2')));
      expect(bank.get(s('b'))).toBeUndefined();
      expect(hex(bank.get(s('c')))).toBe(hex(s('2')));
      expect(cms.getStore('staking').get(s('val'))).toBeUndefined();
      expect(await drain(cms.storeAt(2, 'bank').iterator())).toEqual([
        [hex(s('a')), hex(s('2'))],
        [hex(s('c')), hex(s('2'))],
      ]);
      expect(catchStoreError(() => cms.readAt(3, 'bank', s('a'))).reason).toBe('VERSION_NOT_FOUND');
      expect(hex(cms.readAt(1, 'bank', s('b')))).toBe(hex(s('1')));
      bank.set(s('q'), s('after'));
      await cms.commit();
      expect(seen).toHaveLength(4);
      await cms.rollback();
      await cms.close();

      const reopened = await open(await fixture.reopen());
      expect(reopened.lastCommitId()).toEqual(v2);
      // Build a different version 3 on top.
      reopened.getStore('bank').set(s('d'), s('4'));
      const v3 = await reopened.commit();
      expect(v3.version).toBe(3);
      expect(reopened.readAt(3, 'bank', s('b'))).toBeUndefined();
      expect(hex(reopened.readAt(3, 'bank', s('d')))).toBe(hex(s('4')));
      expect(await reopened.loadVersion(1)).toEqual(v1);
      expect(await drain(reopened.getStore('bank').iterator())).toEqual([
        [hex(s('a')), hex(s('1'))],
        [hex(s('b')), hex(s('1'))],
      ]);
      // Rolling back the first version empties the state.
      expect(await reopened.rollback()).toEqual({ version: 0, hash: new Uint8Array(0) });
      expect(reopened.getStore('bank').get(s('a'))).toBeUndefined();
      expect(await drain(reopened.getStore('bank').iterator())).toEqual([]);
      await reopened.close();
      const empty = await open(await fixture.reopen());
      expect(empty.lastCommitId().version).toBe(0);
      empty.getStore('bank').set(s('a'), s('again'));
      expect((await empty.commit()).version).toBe(1);
      await empty.close();
    });

    test('a reopen after a crash needs no rebuild; a damaged tree node is refused at open, naming the store and version', async () => {
      const cms = await open(fixture.db);
      for (let i = 0; i < 500; i++) cms.getStore('bank').set(s(`k${i}`), s(`v${i}`));
      const v1 = await cms.commit();
      cms.getStore('bank').set(s('k1'), s('changed'));
      const v2 = await cms.commit();
      // No close: a crash. The reopened store has the same roots without reading every node.
      const afterCrash = await open(await fixture.reopen());
      expect(afterCrash.lastCommitId()).toEqual(v2);
      expect(afterCrash.stats().treeBytes).toBeGreaterThan(0);
      expect(hex(afterCrash.getStore('bank').get(s('k1')))).toBe(hex(s('changed')));
      expect(v1.version).toBe(1);
      await afterCrash.close();

      // Damage the nodes version 2 wrote (only the bank store changed at version 2).
      let damaged = 0;
      for await (const [key, value] of fixture.db.entries({ gte: Uint8Array.of(Bucket.stateNode), lt: Uint8Array.of(Bucket.stateNode + 1) })) {
        if (readU64(key, 2) !== 2) continue;
        const bad = Uint8Array.from(value);
        bad[bad.length - 20]! ^= 0xff;
        await fixture.db.put(key, bad);
        damaged++;
      }
      expect(damaged).toBeGreaterThan(0);
      const err = await rejectStoreError(open(await fixture.reopen()));
      expect(err.reason).toBe('CORRUPTED');
      expect(err.message).toMatch(/^store bank(:| at version 2)/);
      expect(err.message).toMatch(/version 2/);
    });

    test('after an open the trees load in the background; then commits need no node reads', async () => {
      const cms = await open(fixture.db);
      for (let i = 0; i < 3000; i++) cms.getStore('bank').set(s(`k${i}`), s(`v${i}`));
      await cms.commit();
      await cms.close();
      const reopened = await openCommitMultiStore(await fixture.reopen(), { stores: STORES, pruning: PRUNING_NOTHING, preloadNodes: 4 });
      await reopened.waitForWarmUp();
      // Every node is in memory now: with the node records gone, writes still hash and commit.
      for await (const key of fixture.db.keys({ gte: Uint8Array.of(Bucket.stateNode), lt: Uint8Array.of(Bucket.stateNode + 1) })) await fixture.db.del(key);
      for (let i = 0; i < 3000; i += 7) reopened.getStore('bank').set(s(`k${i}`), s(`w${i}`));
      reopened.getStore('bank').delete(s('k1'));
      expect((await reopened.commit()).version).toBe(2);
      await reopened.close();
    });

    test('setInitialVersion: the first commit gets it; later it is refused', async () => {
      const cms = await open(fixture.db);
      cms.setInitialVersion(100);
      cms.getStore('params').set(s('p'), s('1'));
      expect((await cms.commit()).version).toBe(100);
      expect(cms.earliestVersion()).toBe(100);
      expect((await cms.commit()).version).toBe(101);
      expect(catchStoreError(() => cms.setInitialVersion(5)).reason).toBe('INVALID_OPTIONS');
      expect(catchStoreError(() => cms.readAt(99, 'params', s('p'))).message).toBe('version 99 has been pruned: available versions are 100–101');
      await cms.close();
    });

    test('branchCommitted (CheckTx state) ignores uncommitted working writes', async () => {
      const cms = await open(fixture.db);
      cms.getStore('bank').set(s('a'), s('1'));
      await cms.commit();
      const check = cms.branchCommitted();
      cms.getStore('bank').set(s('a'), s('block'));
      expect(hex(check.getStore('bank').get(s('a')))).toBe(hex(s('1')));
      const tx = check.branch();
      tx.getStore('bank').set(s('a'), s('checktx'));
      tx.write();
      expect(hex(check.getStore('bank').get(s('a')))).toBe(hex(s('checktx')));
      expect(hex(cms.getStore('bank').get(s('a')))).toBe(hex(s('block')));
      await cms.commit();
      expect(hex(cms.branchCommitted().getStore('bank').get(s('a')))).toBe(hex(s('block')));
      await cms.close();
    });

    test('writes during a commit in flight are refused', async () => {
      const cms = await open(fixture.db);
      cms.getStore('bank').set(s('a'), s('1'));
      const pending = cms.commit();
      expect(catchStoreError(() => cms.getStore('bank').set(s('b'), s('2'))).reason).toBe('COMMIT_IN_PROGRESS');
      expect((await rejectStoreError(cms.commit())).reason).toBe('COMMIT_IN_PROGRESS');
      await pending;
      cms.getStore('bank').set(s('b'), s('2'));
      await cms.commit();
      await cms.close();
    });

    test("a branch's write into the working state during a commit in flight is refused too (cached writes move up as entries)", async () => {
      const cms = await open(fixture.db);
      const bank = cms.getStore('bank');
      const branch = bank.branch();
      const nested = branch.branch();
      nested.set(s('x'), s('1'));
      nested.delete(s('gone'));
      nested.write();
      expect(hex(branch.get(s('x')))).toBe(hex(s('1')));
      expect(branch.has(s('gone'))).toBe(false);
      bank.set(s('a'), s('1'));
      const pending = cms.commit();
      expect(catchStoreError(() => branch.write()).reason).toBe('COMMIT_IN_PROGRESS');
      await pending;
      branch.write();
      await cms.commit();
      expect(hex(cms.branchCommitted().getStore('bank').get(s('x')))).toBe(hex(s('1')));
      await cms.close();
    });

    test('pruning: versions below earliest are refused with the available range, their history is deleted', async () => {
      const pruning = pruningFromAppToml('custom', 3, 10);
      const cms = await open(fixture.db, pruning);
      for (let version = 1; version <= 25; version++) {
        cms.getStore('bank').set(s('fee'), s(`fee${version}`));
        if (version === 2) cms.getStore('bank').set(s('gone'), s('soon'));
        if (version === 4) cms.getStore('bank').delete(s('gone'));
        if (version === 5) cms.getStore('bank').set(s('stable'), s('since5'));
        if (version === 18) cms.getStore('bank').delete(s('stable'));
        await cms.commit();
        // At 10: prune <= 10-3-1 = 6; at 20: prune <= 16.
        expect(cms.earliestVersion()).toBe(version < 10 ? 1 : version < 20 ? 7 : 17);
      }
      await cms.waitForPruning();
      const err = catchStoreError(() => cms.readAt(16, 'bank', s('fee')));
      expect(err.reason).toBe('VERSION_PRUNED');
      expect(err.message).toBe('version 16 has been pruned: available versions are 17–25');
      expect(catchStoreError(() => cms.storeAt(3, 'bank')).reason).toBe('VERSION_PRUNED');
      await expect(cms.prove(5, 'bank', s('fee'))).rejects.toThrow('available versions are 17–25');
      expect(catchStoreError(() => cms.readAt(26, 'bank', s('fee'))).message).toBe('version 26 does not exist: available versions are 17–25');
      for (let version = 17; version <= 25; version++) {
        expect(hex(cms.readAt(version, 'bank', s('fee')))).toBe(hex(s(`fee${version}`)));
        expect(hex(cms.readAt(version, 'bank', s('stable')))).toBe(version < 18 ? hex(s('since5')) : undefined);
        expect(cms.readAt(version, 'bank', s('gone'))).toBeUndefined();
      }
      expect((await drain(cms.storeAt(17, 'bank').iterator())).map(([k]) => k)).toEqual([hex(s('fee')), hex(s('stable'))]);
      // The deleted data is gone from the database: no diff or commit info below 17.
      const versions: number[] = [];
      for await (const key of fixture.db.keys({ gte: Uint8Array.of(Bucket.stateBucketHistory), lt: Uint8Array.of(Bucket.stateBucketHistory + 1) })) versions.push(readU64(key, 5));
      expect(Math.min(...versions)).toBeGreaterThanOrEqual(17);
      const infos: number[] = [];
      for await (const key of fixture.db.keys({ gte: Uint8Array.of(Bucket.stateCommitInfo), lt: Uint8Array.of(Bucket.stateCommitInfo + 1) })) infos.push(readU64(key, 1));
      expect(infos).toEqual([17, 18, 19, 20, 21, 22, 23, 24, 25]);
      // Proofs at the earliest retained version still work (its tree record was kept or is newer).
      const proof = await cms.prove(17, 'bank', s('stable'));
      expect(hex(proof.value)).toBe(hex(s('since5')));
      await cms.close();
      const reopened = await open(await fixture.reopen(), pruning);
      expect(reopened.earliestVersion()).toBe(17);
      expect(hex(reopened.readAt(17, 'bank', s('fee')))).toBe(hex(s('fee17')));
      await reopened.close();
    });

    test('pruning "everything" keeps the last versions; rollback below earliest is refused', async () => {
      const cms = await open(fixture.db, PRUNING_EVERYTHING);
      for (let version = 1; version <= 20; version++) {
        cms.getStore('bank').set(s('k'), s(`${version}`));
        await cms.commit();
      }
      await cms.waitForPruning();
      expect(cms.earliestVersion()).toBe(18);
      await cms.rollback();
      await cms.rollback();
      expect(cms.lastCommitId().version).toBe(18);
      const err = await rejectStoreError(cms.rollback());
      expect(err.reason).toBe('VERSION_PRUNED');
      expect(err.message).toBe('cannot roll back to version 17: it has been pruned (available versions are 18–18)');
      await cms.close();
    });
  });
}

describe('pruning options', () => {
  test('app.toml strategies map to the SDK presets and are validated with its messages', () => {
    expect(pruningFromAppToml('default')).toEqual({ strategy: 'default', keepRecent: 362880, interval: 10 });
    expect(pruningFromAppToml('everything')).toEqual({ strategy: 'everything', keepRecent: 2, interval: 10 });
    expect(pruningFromAppToml('nothing')).toEqual({ strategy: 'nothing', keepRecent: 0, interval: 0 });
    expect(pruningFromAppToml('custom', 100, 10)).toEqual({ strategy: 'custom', keepRecent: 100, interval: 10 });
    expect(() => pruningFromAppToml('custom', 100, 0)).toThrow(`'pruning-interval' must not be 0. If you want to disable pruning, select pruning = "nothing"`);
    expect(() => pruningFromAppToml('custom', 100, 5)).toThrow(`'pruning-interval' must not be less than 10`);
    expect(() => pruningFromAppToml('custom', 1, 10)).toThrow(`'pruning-keep-recent' must not be less than 2`);
    expect(() => pruningFromAppToml('sometimes')).toThrow('unknown pruning strategy sometimes');
    expect(isStoreError(catchStoreError(() => pruningFromAppToml('custom', 0, 0)), 'INVALID_OPTIONS')).toBe(true);
  });
});
