/**
 * The KVStore contract, run over every implementation: the in-memory store, branches (single and
 * nested), the gas store, the prefix store, and the committed multi-store's working state and its
 * branches over memoryDatabase and LevelDB. Harnesses that sit on committed state also "persist"
 * between steps (commit), so reads and iteration are checked across committed + pending layers.
 */
import { CacheKVStoreImpl } from '../../../src/node/store/cachekv.js';
import { openCommitMultiStore, type RootMultiStore } from '../../../src/node/store/commitmulti.js';
import { isStoreError } from '../../../src/node/store/errors.js';
import { GasKVStore, InfiniteGasMeter } from '../../../src/node/store/gas.js';
import type { CacheMultiStore, KVStore } from '../../../src/node/store/interface.js';
import { MemKVStore } from '../../../src/node/store/memkv.js';
import { PrefixStore } from '../../../src/node/store/prefix.js';
import { PRUNING_NOTHING } from '../../../src/node/store/options.js';
import { b, drain, drainScan, hex, levelFixture, memoryFixture, rng, type DbFixture } from './helpers.js';

interface Harness {
  store: KVStore;
  /** Move the writes so far below the store under test (keeping its visible content). */
  persist?: () => Promise<void>;
  close(): Promise<void>;
}

async function multiStoreHarness(fixture: DbFixture, depth: 0 | 1 | 2): Promise<Harness> {
  const cms: RootMultiStore = await openCommitMultiStore(fixture.db, { stores: ['bank', 'other'], pruning: PRUNING_NOTHING });
  const branches: CacheMultiStore[] = [];
  let top: { getStore(name: string): KVStore } = cms;
  for (let i = 0; i < depth; i++) {
    const branch: CacheMultiStore = (top === cms ? cms.branch() : (top as CacheMultiStore).branch());
    branches.push(branch);
    top = branch;
  }
  const store = top.getStore('bank');
  return {
    store,
    async persist() {
      for (let i = branches.length - 1; i >= 0; i--) branches[i]!.write();
      await cms.commit();
    },
    async close() {
      await cms.close();
      await fixture.cleanup();
    },
  };
}

const HARNESSES: [string, () => Promise<Harness>][] = [
  ['MemKVStore', async () => ({ store: new MemKVStore(), close: async () => undefined })],
  [
    'CacheKVStore over MemKVStore',
    async () => {
      const base = new MemKVStore();
      const branch = new CacheKVStoreImpl(base);
      return { store: branch, persist: async () => branch.write(), close: async () => undefined };
    },
  ],
  [
    'nested CacheKVStore',
    async () => {
      const base = new MemKVStore();
      const outer = base.branch();
      const inner = outer.branch();
      return {
        store: inner,
        persist: async () => {
          inner.write();
          outer.write();
        },
        close: async () => undefined,
      };
    },
  ],
  ['GasKVStore over MemKVStore', async () => ({ store: new GasKVStore(new MemKVStore(), new InfiniteGasMeter()), close: async () => undefined })],
  [
    'PrefixStore over CacheKVStore',
    async () => {
      const base = new MemKVStore();
      base.set(b(0x09), b(1)); // outside the prefix: must never show up
      base.set(b(0x0a), b(1));
      base.set(b(0x07, 0xff), b(1));
      const branch = base.branch();
      return { store: new PrefixStore(branch, b(0x08)), persist: async () => branch.write(), close: async () => undefined };
    },
  ],
  ['CommitMultiStore working state (memoryDatabase)', async () => multiStoreHarness(await memoryFixture(), 0)],
  ['CommitMultiStore working state (LevelDB)', async () => multiStoreHarness(await levelFixture(), 0)],
  ['CommitMultiStore branch (LevelDB)', async () => multiStoreHarness(await levelFixture(), 1)],
  ['CommitMultiStore nested branch (memoryDatabase)', async () => multiStoreHarness(await memoryFixture(), 2)],
  [
    // The callback scan's offsets through every layer: LevelDB's arrays with the index prefix and
    // marker skipped, a write cache merging its writes, the prefix skipped, the gas store charging.
    'GasKVStore over PrefixStore over a CommitMultiStore branch (LevelDB)',
    async () => {
      const harness = await multiStoreHarness(await levelFixture(), 1);
      harness.store.set(b(0x09), b(1)); // outside the prefix: must never show up
      harness.store.set(b(0x07, 0xff), b(1));
      await harness.persist!();
      return { ...harness, store: new GasKVStore(new PrefixStore(harness.store, b(0x08)), new InfiniteGasMeter()) };
    },
  ],
];

for (const [name, make] of HARNESSES) {
  describe(`KVStore contract: ${name}`, () => {
    let harness: Harness;
    let store: KVStore;
    beforeEach(async () => {
      harness = await make();
      store = harness.store;
    });
    afterEach(async () => harness.close());

    const persist = async (): Promise<void> => {
      await harness.persist?.();
    };

    test('missing key reads as undefined', () => {
      expect(store.get(b(1))).toBeUndefined();
      expect(store.has(b(1))).toBe(false);
    });

    test('set, overwrite, delete', async () => {
      store.set(b(1), b(10));
      expect(hex(store.get(b(1)))).toBe('0a');
      expect(store.has(b(1))).toBe(true);
      await persist();
      expect(hex(store.get(b(1)))).toBe('0a');
      store.set(b(1), b(11));
      expect(hex(store.get(b(1)))).toBe('0b');
      await persist();
      expect(hex(store.get(b(1)))).toBe('0b');
      store.delete(b(1));
      expect(store.get(b(1))).toBeUndefined();
      expect(store.has(b(1))).toBe(false);
      await persist();
      expect(store.get(b(1))).toBeUndefined();
      store.delete(b(2)); // deleting a missing key is a no-op
      expect(store.has(b(2))).toBe(false);
    });

    test('empty value is a value, not a delete', async () => {
      store.set(b(3), new Uint8Array(0));
      expect(store.has(b(3))).toBe(true);
      expect(store.get(b(3))?.length).toBe(0);
      await persist();
      expect(store.has(b(3))).toBe(true);
      expect(await drain(store.iterator())).toEqual([['03', '']]);
    });

    test('empty key is rejected', () => {
      const attempt = (): void => store.set(new Uint8Array(0), b(1));
      expect(attempt).toThrow();
      try {
        attempt();
      } catch (err) {
        expect(isStoreError(err, 'INVALID_KEY')).toBe(true);
      }
    });

    test('iteration: order, bounds, reverse', async () => {
      const keys = [b(0x02), b(0x01, 0x00), b(0x01), b(0x03, 0xff), b(0x01, 0x00, 0x00), b(0xff)];
      keys.forEach((key, i) => store.set(key, b(i)));
      const sorted = ['01', '0100', '010000', '02', '03ff', 'ff'];
      const check = async (): Promise<void> => {
        expect((await drain(store.iterator())).map(([k]) => k)).toEqual(sorted);
        expect((await drain(store.iterator(undefined, undefined, { reverse: true }))).map(([k]) => k)).toEqual([...sorted].reverse());
        expect((await drain(store.iterator(b(0x01, 0x00), b(0x03)))).map(([k]) => k)).toEqual(['0100', '010000', '02']);
        expect((await drain(store.iterator(b(0x01, 0x00), b(0x03), { reverse: true }))).map(([k]) => k)).toEqual(['02', '010000', '0100']);
        expect((await drain(store.iterator(b(0x02)))).map(([k]) => k)).toEqual(['02', '03ff', 'ff']);
        expect((await drain(store.iterator(undefined, b(0x02)))).map(([k]) => k)).toEqual(['01', '0100', '010000']);
        expect(await drain(store.iterator(b(0x04), b(0x05)))).toEqual([]);
        expect(await drain(store.iterator(b(0x05), b(0x04)))).toEqual([]);
        const values = await drain(store.iterator(b(0x02), b(0x02, 0x00)));
        expect(values).toEqual([['02', '00']]);
      };
      await check();
      await persist();
      await check();
    });

    test('iteration sees overwrites and deletes, also across layers', async () => {
      for (let i = 1; i <= 6; i++) store.set(b(i), b(i));
      await persist();
      store.delete(b(2));
      store.set(b(4), b(0x44));
      store.set(b(7), b(7));
      store.delete(b(9));
      const expected = [
        ['01', '01'],
        ['03', '03'],
        ['04', '44'],
        ['05', '05'],
        ['06', '06'],
        ['07', '07'],
      ];
      expect(await drain(store.iterator())).toEqual(expected);
      expect(await drain(store.iterator(undefined, undefined, { reverse: true }))).toEqual([...expected].reverse());
      await persist();
      expect(await drain(store.iterator())).toEqual(expected);
    });

    test('breaking out of an iterator early', async () => {
      for (let i = 1; i <= 5; i++) store.set(b(i), b(i));
      const seen: string[] = [];
      for await (const [key] of store.iterator()) {
        seen.push(hex(key)!);
        if (seen.length === 2) break;
      }
      expect(seen).toEqual(['01', '02']);
    });

    test('branch: invisible until write, discard drops, nesting', async () => {
      store.set(b(1), b(1));
      const branch = store.branch();
      branch.set(b(2), b(2));
      branch.delete(b(1));
      expect(store.has(b(2))).toBe(false);
      expect(store.has(b(1))).toBe(true);
      expect(branch.has(b(1))).toBe(false);
      const inner = branch.branch();
      inner.set(b(3), b(3));
      expect(branch.has(b(3))).toBe(false);
      expect(await drain(inner.iterator())).toEqual([
        ['02', '02'],
        ['03', '03'],
      ]);
      inner.write();
      expect(branch.has(b(3))).toBe(true);
      branch.write();
      expect(store.has(b(1))).toBe(false);
      expect(hex(store.get(b(3)))).toBe('03');
      const dropped = store.branch();
      dropped.set(b(9), b(9));
      dropped.discard();
      dropped.write();
      expect(store.has(b(9))).toBe(false);
      await persist();
      expect(await drain(store.iterator())).toEqual([
        ['02', '02'],
        ['03', '03'],
      ]);
    });

    test('iteration over thousands of keys, writes cached above committed ones, crosses array boundaries in order', async () => {
      const random = rng(7);
      const model = new Map<string, string>();
      const sortedModel = (): [string, string][] => [...model.entries()].sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
      const key = (i: number): Uint8Array => Uint8Array.of(0x10, i >> 8, i & 0xff);
      for (let i = 0; i < 3000; i += 2) {
        store.set(key(i), Uint8Array.of(1, i & 0xff));
        model.set(hex(key(i))!, hex(Uint8Array.of(1, i & 0xff))!);
      }
      await persist();
      for (let op = 0; op < 900; op++) {
        const k = key(Math.floor(random() * 3000));
        if (random() < 0.4) {
          store.delete(k);
          model.delete(hex(k)!);
        } else {
          store.set(k, Uint8Array.of(2, op & 0xff));
          model.set(hex(k)!, hex(Uint8Array.of(2, op & 0xff))!);
        }
      }
      expect(await drain(store.iterator())).toEqual(sortedModel());
      expect(await drain(store.iterator(undefined, undefined, { reverse: true }))).toEqual(sortedModel().reverse());
      const inRange = sortedModel().filter(([k]) => k >= hex(key(700))! && k < hex(key(2100))!);
      expect(await drain(store.iterator(key(700), key(2100)))).toEqual(inRange);
      expect(await drain(store.iterator(key(700), key(2100), { reverse: true }))).toEqual([...inRange].reverse());
      // The callback scan (scanStore: the gov tally's path) visits the same entries, also stopped early.
      expect(await drainScan(store)).toEqual(sortedModel());
      expect(await drainScan(store, undefined, undefined, { reverse: true })).toEqual(sortedModel().reverse());
      expect(await drainScan(store, key(700), key(2100))).toEqual(inRange);
      expect(await drainScan(store, key(700), key(2100), { reverse: true })).toEqual([...inRange].reverse());
      expect(await drainScan(store, undefined, undefined, {}, 1234)).toEqual(sortedModel().slice(0, 1234));
      expect(await drainScan(store, key(700), undefined, { reverse: true }, 7)).toEqual(sortedModel().filter(([k]) => k >= hex(key(700))!).reverse().slice(0, 7));
      // Taking a few entries and stopping leaves the store usable.
      const first: string[] = [];
      for await (const [k] of store.iterator()) {
        first.push(hex(k)!);
        if (first.length === 5) break;
      }
      expect(first).toEqual(sortedModel().slice(0, 5).map(([k]) => k));
    });

    test('random operations match a model (with persists in between)', async () => {
      const random = rng(42);
      const model = new Map<string, string>();
      const keyPool: Uint8Array[] = [];
      for (let i = 0; i < 40; i++) {
        const length = 1 + Math.floor(random() * 3);
        keyPool.push(Uint8Array.from({ length }, () => [0x00, 0x01, 0x7f, 0x80, 0xff][Math.floor(random() * 5)]!));
      }
      const sortedModel = (): [string, string][] => [...model.entries()].sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
      for (let round = 0; round < 6; round++) {
        for (let op = 0; op < 60; op++) {
          const key = keyPool[Math.floor(random() * keyPool.length)]!;
          if (random() < 0.3) {
            store.delete(key);
            model.delete(hex(key)!);
          } else {
            const value = Uint8Array.of(round, op);
            store.set(key, value);
            model.set(hex(key)!, hex(value)!);
          }
        }
        for (const key of keyPool) expect(hex(store.get(key))).toBe(model.get(hex(key)!));
        expect(await drain(store.iterator())).toEqual(sortedModel());
        const lo = keyPool[Math.floor(random() * keyPool.length)]!;
        const hi = keyPool[Math.floor(random() * keyPool.length)]!;
        const inRange = sortedModel().filter(([k]) => k >= hex(lo)! && k < hex(hi)!);
        expect(await drain(store.iterator(lo, hi))).toEqual(inRange);
        expect(await drain(store.iterator(lo, hi, { reverse: true }))).toEqual([...inRange].reverse());
        expect(await drainScan(store)).toEqual(sortedModel());
        expect(await drainScan(store, lo, hi)).toEqual(inRange);
        expect(await drainScan(store, lo, hi, { reverse: true })).toEqual([...inRange].reverse());
        expect(await drainScan(store, undefined, undefined, {}, 3)).toEqual(sortedModel().slice(0, 3));
        if (round % 2 === 1) await persist();
      }
    });
  });
}
