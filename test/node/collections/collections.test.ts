/** Item, Sequence, StateMap, KeySet, IndexedMap with its indexes, the schema builder, genesis helpers. */
import {
  CollectionError,
  IndexedMap,
  Item,
  KeySet,
  MultiIndex,
  ReversePairIndex,
  SchemaBuilder,
  Sequence,
  StateMap,
  UniqueIndex,
  bytesKey,
  bytesValue,
  exportEntries,
  importEntries,
  intValue,
  lengthPrefixedBytesKey,
  pairKey,
  stringKey,
  stringValue,
  u64Key,
  u64Value,
  type StoreProvider,
} from '../../../src/node/collections/index.js';
import { CacheKVStoreImpl, MemKVStore, type KVStore } from '../../../src/node/store/index.js';
import { StoreKey } from '../../../src/node/store/storeKey.js';

const STORE = StoreKey.persistent('test');
const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
const addr = (byte: number): Uint8Array => new Uint8Array(20).fill(byte);

async function collect<T>(iterator: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterator) out.push(item);
  return out;
}

/** A context over a branch of an in-memory store, counting reads and writes. */
function context(): { ctx: StoreProvider; parent: MemKVStore; branch: KVStore; counts: { get: number; set: number; delete: number } } {
  const parent = new MemKVStore();
  const branch = new CacheKVStoreImpl(parent);
  const counts = { get: 0, set: 0, delete: 0 };
  const counted: KVStore = {
    get: (key) => (counts.get++, branch.get(key)),
    has: (key) => (counts.get++, branch.has(key)),
    set: (key, value) => (counts.set++, branch.set(key, value)),
    delete: (key) => (counts.delete++, branch.delete(key)),
    iterator: (start, end, options) => branch.iterator(start, end, options),
    branch: () => branch.branch(),
  };
  return { ctx: { kv: (key) => (key === STORE ? counted : assert.fail(`unexpected store ${key.name}`)) }, parent, branch, counts };
}

const assert = {
  fail(message: string): never {
    throw new Error(message);
  },
};

async function dump(store: KVStore): Promise<string[]> {
  const out: string[] = [];
  for await (const [key, value] of store.iterator()) out.push(`${hex(key)}=${hex(value)}`);
  return out;
}

describe('schema builder', () => {
  test('refuses a second name, the same prefix, a prefix of another, bad names, and changes after build', () => {
    const schema = new SchemaBuilder(STORE);
    new Item(schema, 'params', 0x05, stringValue);
    new StateMap(schema, 'balances', Uint8Array.of(0x02, 0x01), bytesKey, intValue);
    expect(() => new Item(schema, 'params', 0x06, stringValue)).toThrow(new CollectionError('SCHEMA', 'collection name "params" is declared twice in store "test"'));
    expect(() => new Item(schema, 'other', 0x05, stringValue)).toThrow('collections "params" and "other" in store "test" have the same prefix 0x05');
    expect(() => new StateMap(schema, 'wide', 0x02, bytesKey, intValue)).toThrow(
      'collection "wide" (prefix 0x02) overlaps "balances" (prefix 0x0201) in store "test": one prefix starts the other',
    );
    expect(() => new StateMap(schema, 'narrow', Uint8Array.of(0x05, 0x00), bytesKey, intValue)).toThrow('overlaps "params" (prefix 0x05)');
    expect(() => new Item(schema, '1st', 0x07, stringValue)).toThrow('invalid collection name "1st" in store "test"');
    expect(() => new Item(schema, 'big', 256, stringValue)).toThrow('a numeric collection prefix is one byte (0–255), got 256');
    expect(() => new Item(schema, 'empty', '', stringValue)).toThrow('a collection prefix cannot be empty');
    // An index registers under its own name and prefix too.
    expect(() => new MultiIndex(schema, 'balances_index', 0x05, stringKey, bytesKey, () => 'x')).toThrow('have the same prefix 0x05');
    const built = schema.build();
    expect(built.collections.map((info) => [info.name, hex(info.prefix), info.kind])).toEqual([
      ['params', '05', 'item'],
      ['balances', '0201', 'map'],
    ]);
    expect(() => new Item(schema, 'late', 0x09, stringValue)).toThrow('collection "late": the schema of store "test" is already built');
    expect(schema.build()).toBe(built);
  });
});

describe('Item and Sequence', () => {
  test('an item lives at its prefix; a sequence hands out 0, 1, 2', () => {
    const { ctx, branch } = context();
    const schema = new SchemaBuilder(STORE);
    const name = new Item(schema, 'name', 0x01, stringValue);
    const counter = new Sequence(schema, 'counter', 'seq');
    expect(name.get(ctx)).toBeUndefined();
    expect(name.has(ctx)).toBe(false);
    name.set(ctx, 'tokend');
    expect(name.get(ctx)).toBe('tokend');
    expect(hex(branch.get(Uint8Array.of(0x01))!)).toBe(hex(Buffer.from('tokend')));
    expect([counter.peek(ctx), counter.next(ctx), counter.next(ctx), counter.peek(ctx)]).toEqual([0n, 0n, 1n, 2n]);
    expect(hex(branch.get(Buffer.from('seq'))!)).toBe('0000000000000002');
    counter.set(ctx, 10n);
    expect(counter.next(ctx)).toBe(10n);
    name.remove(ctx);
    expect(name.has(ctx)).toBe(false);
  });
});

describe('StateMap', () => {
  function balances(): { ctx: StoreProvider; map: StateMap<readonly [Uint8Array, string], bigint>; branch: KVStore } {
    const { ctx, branch } = context();
    const map = new StateMap(new SchemaBuilder(STORE), 'balances', 0x02, pairKey(bytesKey, stringKey), intValue);
    for (const [owner, denom, amount] of [
      [1, 'atom', 10n],
      [1, 'btc', 11n],
      [1, 'eth', 12n],
      [2, 'atom', 20n],
      [3, 'atom', 30n],
      [3, 'zeta', 31n],
    ] as const) {
      map.set(ctx, [addr(owner), denom], amount);
    }
    return { ctx, map, branch };
  }

  test('get / has / set / remove with the encoded layout', async () => {
    const { ctx, map, branch } = balances();
    expect(map.get(ctx, [addr(1), 'btc'])).toBe(11n);
    expect(map.get(ctx, [addr(1), 'xyz'])).toBeUndefined();
    expect(map.has(ctx, [addr(2), 'atom'])).toBe(true);
    expect(hex(map.encodeKey([addr(2), 'atom']))).toBe(`0214${'02'.repeat(20)}61746f6d`);
    expect(Buffer.from(branch.get(map.encodeKey([addr(2), 'atom']))!).toString()).toBe('20');
    map.remove(ctx, [addr(2), 'atom']);
    expect(map.has(ctx, [addr(2), 'atom'])).toBe(false);
    expect(map.decodeKey(map.encodeKey([addr(3), 'zeta']))).toEqual([addr(3), 'zeta']);
    expect(() => map.decodeKey(Uint8Array.of(0x03, 0x00))).toThrow('key does not belong to collection "balances"');
  });

  test('iteration: all, prefix range, reverse, start/end bounds (inclusive and exclusive)', async () => {
    const { ctx, map } = balances();
    const show = (entries: [readonly [Uint8Array, string], bigint][]): string[] => entries.map(([[owner, denom], amount]) => `${owner[0]}/${denom}=${amount}`);
    expect(show(await collect(map.iterate(ctx)))).toEqual(['1/atom=10', '1/btc=11', '1/eth=12', '2/atom=20', '3/atom=30', '3/zeta=31']);
    expect(show(await collect(map.iterate(ctx, { prefix: [addr(1)] })))).toEqual(['1/atom=10', '1/btc=11', '1/eth=12']);
    expect(show(await collect(map.iterate(ctx, { prefix: [addr(3)], reverse: true })))).toEqual(['3/zeta=31', '3/atom=30']);
    expect(show(await collect(map.iterate(ctx, { prefix: [addr(9)] })))).toEqual([]);
    expect(show(await collect(map.iterate(ctx, { prefix: [addr(1)], start: [addr(1), 'btc'] })))).toEqual(['1/btc=11', '1/eth=12']);
    expect(show(await collect(map.iterate(ctx, { prefix: [addr(1)], start: [addr(1), 'btc'], startExclusive: true })))).toEqual(['1/eth=12']);
    expect(show(await collect(map.iterate(ctx, { start: [addr(1), 'eth'], end: [addr(3), 'atom'] })))).toEqual(['1/eth=12', '2/atom=20']);
    expect(show(await collect(map.iterate(ctx, { start: [addr(1), 'eth'], end: [addr(3), 'atom'], endInclusive: true, reverse: true })))).toEqual(['3/atom=30', '2/atom=20', '1/eth=12']);
    // Bounds outside the prefix are clamped to it.
    expect(show(await collect(map.iterate(ctx, { prefix: [addr(2)], start: [addr(1), 'atom'], end: [addr(9), 'x'] })))).toEqual(['2/atom=20']);
    expect((await collect(map.keys(ctx, { prefix: [addr(3)] }))).map(([, denom]) => denom)).toEqual(['atom', 'zeta']);
    expect(await collect(map.values(ctx, { prefix: [addr(2)] }))).toEqual([20n]);
  });

  test('iteration sees only its own collection, and a prefix needs a composite key', async () => {
    const { ctx } = context();
    const schema = new SchemaBuilder(STORE);
    const a = new StateMap(schema, 'a', 0x01, stringKey, stringValue);
    const b = new StateMap(schema, 'b', 0x02, stringKey, stringValue);
    a.set(ctx, 'x', '1');
    b.set(ctx, 'x', '2');
    a.set(ctx, 'y', '3');
    expect(await collect(a.iterate(ctx))).toEqual([
      ['x', '1'],
      ['y', '3'],
    ]);
    expect(() => a.rangePrefix(['x'] as never)).toThrow('collection "a" has string keys, which have no leading parts to range over');
  });

  test('prefix 0xff: iteration to the end of the store', async () => {
    const { ctx } = context();
    const map = new StateMap(new SchemaBuilder(STORE), 'last', 0xff, u64Key, stringValue);
    map.set(ctx, 2n, 'b');
    map.set(ctx, 1n, 'a');
    expect(await collect(map.iterate(ctx, { reverse: true }))).toEqual([
      [2n, 'b'],
      [1n, 'a'],
    ]);
  });
});

describe('KeySet', () => {
  test('keys map to an empty value; has / set / remove / iterate over a branch and after write', async () => {
    const { ctx, branch, parent } = context();
    const set = new KeySet(new SchemaBuilder(STORE), 'owners', 0x03, pairKey(stringKey, lengthPrefixedBytesKey));
    set.set(ctx, ['atom', addr(2)]);
    set.set(ctx, ['atom', addr(1)]);
    set.set(ctx, ['btc', addr(1)]);
    expect(set.has(ctx, ['atom', addr(1)])).toBe(true);
    expect(set.has(ctx, ['atom', addr(3)])).toBe(false);
    expect(hex(branch.get(set.encodeKey(['atom', addr(1)]))!)).toBe('');
    expect((await collect(set.iterate(ctx, { prefix: ['atom'] }))).map(([, owner]) => owner[0])).toEqual([1, 2]);
    set.remove(ctx, ['atom', addr(2)]);
    (branch as CacheKVStoreImpl).write();
    expect(parent.has(set.encodeKey(['atom', addr(1)]))).toBe(true);
    expect(parent.has(set.encodeKey(['atom', addr(2)]))).toBe(false);
    // 0x03 ‖ denom ‖ 0x00 ‖ len ‖ address → (empty): the layout of x/bank's denom index.
    expect(await dump(parent)).toEqual([`0361746f6d0014${'01'.repeat(20)}=`, `036274630014${'01'.repeat(20)}=`]);
  });
});

describe('IndexedMap', () => {
  interface Person {
    name: string;
    city: string | undefined;
    number: bigint;
  }
  const personValue = {
    valueType: 'person',
    encode: (person: Person): Uint8Array => Buffer.from(JSON.stringify({ ...person, number: person.number.toString() })),
    decode: (bytes: Uint8Array): Person => {
      const parsed = JSON.parse(Buffer.from(bytes).toString()) as { name: string; city?: string; number: string };
      return { name: parsed.name, city: parsed.city, number: BigInt(parsed.number) };
    },
    stringify: (person: Person): string => person.name,
  };

  function people(): {
    ctx: StoreProvider;
    branch: KVStore;
    counts: { get: number; set: number; delete: number };
    map: IndexedMap<Uint8Array, Person, { byCity: MultiIndex<string, Uint8Array, Person>; byNumber: UniqueIndex<bigint, Uint8Array, Person> }>;
  } {
    const { ctx, branch, counts } = context();
    const schema = new SchemaBuilder(STORE);
    const byCity = new MultiIndex<string, Uint8Array, Person>(schema, 'by_city', 0x02, stringKey, bytesKey, (_id, person) => person.city);
    const byNumber = new UniqueIndex<bigint, Uint8Array, Person>(schema, 'by_number', 0x03, u64Key, bytesValue, (_id, person) => person.number);
    const map = new IndexedMap(schema, 'people', 0x01, bytesKey, personValue, { byCity, byNumber });
    return { ctx, branch, counts, map };
  }

  test('set indexes; an update moves index entries; remove deletes them', async () => {
    const { ctx, map, branch } = people();
    map.set(ctx, addr(1), { name: 'ann', city: 'oslo', number: 7n });
    map.set(ctx, addr(2), { name: 'bob', city: 'oslo', number: 8n });
    map.set(ctx, addr(3), { name: 'cid', city: undefined, number: 9n });
    const { byCity, byNumber } = map.indexes;
    expect((await collect(byCity.matchExact(ctx, 'oslo'))).map((id) => id[0])).toEqual([1, 2]);
    expect(byNumber.get(ctx, 9n)).toEqual(addr(3));
    expect(hex(branch.get(byCity.keys.encodeKey(['oslo', addr(1)]))!)).toBe('');
    expect(hex(branch.get(byNumber.refs.encodeKey(7n))!)).toBe(hex(addr(1)));

    map.set(ctx, addr(1), { name: 'ann', city: 'rome', number: 70n });
    expect((await collect(byCity.matchExact(ctx, 'oslo'))).map((id) => id[0])).toEqual([2]);
    expect((await collect(byCity.matchExact(ctx, 'rome'))).map((id) => id[0])).toEqual([1]);
    expect(byCity.has(ctx, 'rome', addr(1))).toBe(true);
    expect(byNumber.get(ctx, 7n)).toBeUndefined();
    expect(byNumber.get(ctx, 70n)).toEqual(addr(1));

    map.set(ctx, addr(3), { name: 'cid', city: 'oslo', number: 9n }); // not indexed → indexed
    expect((await collect(byCity.matchExact(ctx, 'oslo'))).map((id) => id[0])).toEqual([2, 3]);

    expect(map.remove(ctx, addr(2))).toBe(true);
    expect(map.remove(ctx, addr(2))).toBe(false);
    expect((await collect(byCity.matchExact(ctx, 'oslo'))).map((id) => id[0])).toEqual([3]);
    expect(byNumber.get(ctx, 8n)).toBeUndefined();
    expect(map.has(ctx, addr(2))).toBe(false);
    // Nothing but live entries and their index entries is left.
    expect((await dump(branch)).length).toBe(2 + 2 + 2);
  });

  test('a unique index refuses a reference key another entry holds, and nothing is written', () => {
    const { ctx, map, counts } = people();
    map.set(ctx, addr(1), { name: 'ann', city: 'oslo', number: 7n });
    const writes = counts.set + counts.delete;
    expect(() => map.set(ctx, addr(2), { name: 'bob', city: 'rome', number: 7n })).toThrow(
      new CollectionError('CONFLICT', 'index "by_number" uniqueness constraint violation: 7 is already indexed'),
    );
    expect(counts.set + counts.delete).toBe(writes);
    expect(map.has(ctx, addr(2))).toBe(false);
    // Re-setting the holder itself is no conflict.
    map.set(ctx, addr(1), { name: 'ann', city: 'oslo', number: 7n });
  });

  test('update with the previous value skips the read and writes only what changed', () => {
    const { ctx, map, counts } = people();
    const ann = { name: 'ann', city: 'oslo', number: 7n };
    map.update(ctx, addr(1), undefined, ann);
    expect(counts).toMatchObject({ get: 1, set: 3 }); // the uniqueness check reads; entry + 2 index entries
    const before = { ...counts };
    map.update(ctx, addr(1), ann, { ...ann, name: 'anna' }); // no index key changes
    expect(counts.get - before.get).toBe(0);
    expect(counts.set - before.set).toBe(1);
    expect(counts.delete - before.delete).toBe(0);
    map.update(ctx, addr(1), { ...ann, name: 'anna' }, undefined); // remove
    expect(map.has(ctx, addr(1))).toBe(false);
    expect(map.indexes.byNumber.get(ctx, 7n)).toBeUndefined();
    const quiet = { ...counts };
    map.update(ctx, addr(1), undefined, undefined); // nothing there, nothing to do
    expect(counts).toEqual(quiet);
  });

  test('reverse-pair index: exists exactly while the entry does; written once', async () => {
    const { ctx, counts } = context();
    const schema = new SchemaBuilder(STORE);
    const owners = new ReversePairIndex<Uint8Array, string, bigint>(schema, 'owners', 0x03, pairKey(stringKey, lengthPrefixedBytesKey));
    const balances = new IndexedMap(schema, 'balances', 0x02, pairKey(bytesKey, stringKey), intValue, { owners });
    balances.set(ctx, [addr(1), 'atom'], 5n);
    const writes = counts.set;
    balances.set(ctx, [addr(1), 'atom'], 6n);
    expect(counts.set - writes).toBe(1); // the balance only
    balances.set(ctx, [addr(2), 'atom'], 1n);
    expect((await collect(owners.matchExact(ctx, 'atom'))).map((owner) => owner[0])).toEqual([1, 2]);
    expect(owners.has(ctx, 'atom', addr(1))).toBe(true);
    balances.remove(ctx, [addr(1), 'atom']);
    expect(owners.has(ctx, 'atom', addr(1))).toBe(false);
    expect((await collect(owners.matchExact(ctx, 'atom'))).map((owner) => owner[0])).toEqual([2]);
  });
});

describe('genesis helpers', () => {
  test('export lists entries in key order; import writes them (indexes kept) and refuses duplicates first', async () => {
    const { ctx } = context();
    const schema = new SchemaBuilder(STORE);
    const supply = new StateMap(schema, 'supply', 0x00, stringKey, intValue);
    const numbers = new UniqueIndex<bigint, string, bigint>(schema, 'by_amount', 0x09, u64Key, stringValue, (_denom, amount) => amount);
    const indexed = new IndexedMap(schema, 'indexed', 0x01, stringKey, u64Value, { numbers });
    importEntries(ctx, supply, [
      ['btc', 2n],
      ['atom', 1n],
    ]);
    expect(await exportEntries(ctx, supply)).toEqual([
      ['atom', 1n],
      ['btc', 2n],
    ]);
    expect(() =>
      importEntries(ctx, indexed, [
        ['x', 1n],
        ['y', 2n],
        ['x', 3n],
      ]),
    ).toThrow(new CollectionError('GENESIS', 'duplicate key x in genesis entries of "indexed"'));
    expect(await exportEntries(ctx, indexed)).toEqual([]);
    importEntries(ctx, indexed, [
      ['x', 1n],
      ['y', 2n],
    ]);
    expect(numbers.get(ctx, 2n)).toBe('y');
    expect(await exportEntries(ctx, indexed, { start: 'y' })).toEqual([['y', 2n]]);
  });
});
