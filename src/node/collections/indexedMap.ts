/**
 * IndexedMap (collections.IndexedMap): a StateMap whose secondary indexes the collection keeps in
 * step on every set and remove, in the same store under the indexes' own prefixes.
 *
 * Index kinds:
 *  - MultiIndex: many primary keys per reference key; entries (ref ‖ pk) → marker.
 *  - UniqueIndex: one primary key per reference key; entries ref → pk. Mapping a reference key
 *    that another primary key holds throws `CollectionError(CONFLICT)`.
 *  - ReversePairIndex: for Pair primary keys (a, b), the set of (b, a) — "who holds b" (bank's
 *    denom → owners). It depends on the primary key only.
 *
 * Writes cost what they must: an index entry is written only when its key changes (updating an
 * account's sequence does not touch its account-number index; updating a balance does not touch
 * the denom index). To know what changed, `set` reads the stored value; callers that have just
 * read it pass it to `update` and save that read (the bank keeper does, on every balance change).
 */
import { bytesEqual } from '../store/bytes.js';
import type { KVStore } from '../store/interface.js';
import type { StoreKey } from '../store/storeKey.js';
import { CollectionError } from './errors.js';
import { pairKey, type KeyCodec, type KeyPrefix } from './keys.js';
import { KeySet, StateMap, type KeyedCollection, type Range } from './map.js';
import type { PrefixInput, SchemaBuilder, StoreProvider } from './schema.js';
import type { ValueCodec } from './values.js';

function isPrimitive(value: unknown): boolean {
  const type = typeof value;
  return type === 'bigint' || type === 'string' || type === 'number' || type === 'boolean';
}

/** A secondary index of an IndexedMap with primary key PK and value V. */
export interface Index<PK, V> {
  readonly name: string;
  /**
   * Index `value` stored under `pk`, replacing what `previous` (the value stored until now, or
   * undefined if none) was indexed as.
   */
  reference(store: KVStore, pk: PK, value: V, previous: V | undefined): void;
  /**
   * Throws if `reference` would break a constraint; called for every index before any index
   * writes, so a refused set writes nothing.
   */
  check?(store: KVStore, pk: PK, value: V, previous: V | undefined): void;
  /** Drop the entries of `previous`, which is being removed. */
  unreference(store: KVStore, pk: PK, previous: V): void;
}

/** Many primary keys per reference key (indexes.Multi). `refKey` undefined: not indexed. */
export class MultiIndex<RK, PK, V> implements Index<PK, V> {
  /** The index entries: (reference key, primary key). Paginate over it with `prefix: [ref]`. */
  readonly keys: KeySet<readonly [RK, PK]>;

  constructor(
    schema: SchemaBuilder,
    readonly name: string,
    prefix: PrefixInput,
    refCodec: KeyCodec<RK>,
    pkCodec: KeyCodec<PK>,
    private readonly refKey: (pk: PK, value: V) => RK | undefined,
  ) {
    this.keys = new KeySet(schema, name, prefix, pairKey(refCodec, pkCodec), 'index');
  }

  reference(store: KVStore, pk: PK, value: V, previous: V | undefined): void {
    const next = this.refKey(pk, value);
    // Same primitive reference key (number, bigint, string): nothing to do, nothing to encode.
    if (previous !== undefined && next !== undefined && isPrimitive(next) && next === this.refKey(pk, previous)) return;
    const nextKey = next === undefined ? undefined : this.keys.encodeKey([next, pk]);
    if (previous !== undefined) {
      const old = this.refKey(pk, previous);
      if (old !== undefined) {
        const oldKey = this.keys.encodeKey([old, pk]);
        if (nextKey !== undefined && bytesEqual(oldKey, nextKey)) return;
        store.delete(oldKey);
      }
    }
    if (nextKey !== undefined) store.set(nextKey, this.keys.valueCodec.encode(true));
  }

  unreference(store: KVStore, pk: PK, previous: V): void {
    const old = this.refKey(pk, previous);
    if (old !== undefined) this.keys.removeIn(store, [old, pk]);
  }

  /** The primary keys indexed under `ref`, in primary-key order. */
  async *matchExact(ctx: StoreProvider, ref: RK): AsyncIterableIterator<PK> {
    for await (const [, pk] of this.keys.keys(ctx, { prefix: [ref] as KeyPrefix<readonly [RK, PK]> })) yield pk;
  }

  has(ctx: StoreProvider, ref: RK, pk: PK): boolean {
    return this.keys.has(ctx, [ref, pk]);
  }
}

/** One primary key per reference key (indexes.Unique). `refKey` undefined: not indexed. */
export class UniqueIndex<RK, PK, V> implements Index<PK, V> {
  /** The index entries: reference key → primary key. */
  readonly refs: StateMap<RK, PK>;

  /** `pkValueCodec` stores the primary key as the entry's value (the SDK: the key codec's terminal bytes). */
  constructor(
    schema: SchemaBuilder,
    readonly name: string,
    prefix: PrefixInput,
    refCodec: KeyCodec<RK>,
    pkValueCodec: ValueCodec<PK>,
    private readonly refKey: (pk: PK, value: V) => RK | undefined,
  ) {
    this.refs = new StateMap(schema, name, prefix, refCodec, pkValueCodec, 'index');
  }

  /** The entry key `value` needs and whether the index already holds it for `previous`. */
  private plan(pk: PK, value: V, previous: V | undefined): { next: RK | undefined; nextKey: Uint8Array | undefined; oldKey: Uint8Array | undefined } | undefined {
    const next = this.refKey(pk, value);
    // Same primitive reference key (an account keeping its number): unchanged, nothing to encode.
    if (previous !== undefined && next !== undefined && isPrimitive(next) && next === this.refKey(pk, previous)) return undefined;
    const nextKey = next === undefined ? undefined : this.refs.encodeKey(next);
    const old = previous === undefined ? undefined : this.refKey(pk, previous);
    const oldKey = old === undefined ? undefined : this.refs.encodeKey(old);
    return { next, nextKey, oldKey };
  }

  check(store: KVStore, pk: PK, value: V, previous: V | undefined): void {
    const plan = this.plan(pk, value, previous);
    if (plan === undefined) return;
    const { next, nextKey, oldKey } = plan;
    if (nextKey === undefined || (oldKey !== undefined && bytesEqual(oldKey, nextKey))) return;
    const holder = store.get(nextKey);
    if (holder !== undefined && !bytesEqual(holder, this.refs.valueCodec.encode(pk))) {
      throw new CollectionError('CONFLICT', `index "${this.name}" uniqueness constraint violation: ${this.refs.keyCodec.stringify(next!)} is already indexed`);
    }
  }

  reference(store: KVStore, pk: PK, value: V, previous: V | undefined): void {
    const plan = this.plan(pk, value, previous);
    if (plan === undefined) return;
    const { nextKey, oldKey } = plan;
    if (oldKey !== undefined && nextKey !== undefined && bytesEqual(oldKey, nextKey)) return;
    if (oldKey !== undefined) store.delete(oldKey);
    if (nextKey !== undefined) store.set(nextKey, this.refs.valueCodec.encode(pk));
  }

  unreference(store: KVStore, pk: PK, previous: V): void {
    const old = this.refKey(pk, previous);
    if (old !== undefined) this.refs.removeIn(store, old);
  }

  /** The primary key indexed under `ref` (synchronous: a point read). */
  get(ctx: StoreProvider, ref: RK): PK | undefined {
    return this.refs.get(ctx, ref);
  }
}

/**
 * For a Pair primary key (a, b): the set of (b, a) (indexes.ReversePair). `codec` encodes the
 * reversed pair; its layout is the index's (the SDK's bank index length-prefixes the address even
 * as the last part).
 */
export class ReversePairIndex<K1, K2, V> implements Index<readonly [K1, K2], V> {
  readonly keys: KeySet<readonly [K2, K1]>;

  constructor(schema: SchemaBuilder, readonly name: string, prefix: PrefixInput, codec: KeyCodec<readonly [K2, K1]>) {
    this.keys = new KeySet(schema, name, prefix, codec, 'index');
  }

  reference(store: KVStore, pk: readonly [K1, K2], _value: V, previous: V | undefined): void {
    // The entry depends on the primary key only: it exists exactly while the primary entry does.
    if (previous === undefined) this.keys.setIn(store, [pk[1], pk[0]]);
  }

  unreference(store: KVStore, pk: readonly [K1, K2]): void {
    this.keys.removeIn(store, [pk[1], pk[0]]);
  }

  /** The first parts of the primary keys whose second part is `k2`, in order. */
  async *matchExact(ctx: StoreProvider, k2: K2): AsyncIterableIterator<K1> {
    for await (const [, k1] of this.keys.keys(ctx, { prefix: [k2] as KeyPrefix<readonly [K2, K1]> })) yield k1;
  }

  has(ctx: StoreProvider, k2: K2, k1: K1): boolean {
    return this.keys.has(ctx, [k2, k1]);
  }
}

export type IndexList<K, V> = { readonly [name: string]: Index<K, V> };

export class IndexedMap<K, V, I extends IndexList<K, V>> implements KeyedCollection<K, V> {
  readonly map: StateMap<K, V>;
  private readonly indexList: Index<K, V>[];
  /** The indexes with constraints to check before writing. */
  private readonly checkedIndexes: Index<K, V>[];

  constructor(
    schema: SchemaBuilder,
    name: string,
    prefix: PrefixInput,
    keyCodec: KeyCodec<K>,
    valueCodec: ValueCodec<V>,
    readonly indexes: I,
  ) {
    this.map = new StateMap(schema, name, prefix, keyCodec, valueCodec);
    this.indexList = Object.values(indexes);
    this.checkedIndexes = this.indexList.filter((index) => index.check !== undefined);
  }

  get name(): string {
    return this.map.name;
  }

  get storeKey(): StoreKey {
    return this.map.storeKey;
  }

  get prefix(): Uint8Array {
    return this.map.prefix;
  }

  get keyCodec(): KeyCodec<K> {
    return this.map.keyCodec;
  }

  get valueCodec(): ValueCodec<V> {
    return this.map.valueCodec;
  }

  encodeKey(key: K): Uint8Array {
    return this.map.encodeKey(key);
  }

  decodeKey(storeKey: Uint8Array): K {
    return this.map.decodeKey(storeKey);
  }

  rangePrefix(parts?: KeyPrefix<K>): Uint8Array {
    return this.map.rangePrefix(parts);
  }

  get(ctx: StoreProvider, key: K): V | undefined {
    return this.map.get(ctx, key);
  }

  has(ctx: StoreProvider, key: K): boolean {
    return this.map.has(ctx, key);
  }

  /** Stores `value`, re-indexing it (reads the stored value to see what changes). */
  set(ctx: StoreProvider, key: K, value: V): void {
    const store = ctx.kv(this.map.storeKey);
    this.write(store, key, this.indexList.length === 0 ? undefined : this.map.getIn(store, key), value);
  }

  /**
   * Stores `value` (or removes the entry when `value` is undefined) given `previous`, the value
   * stored now as the caller has just read it (undefined: none). Saves `set`'s read; passing a
   * wrong `previous` leaves stale index entries.
   */
  update(ctx: StoreProvider, key: K, previous: V | undefined, value: V | undefined): void {
    const store = ctx.kv(this.map.storeKey);
    if (value === undefined) {
      if (previous !== undefined) this.erase(store, key, previous);
    } else this.write(store, key, previous, value);
  }

  /** Removes the entry and its index entries; false when there was none (nothing written). */
  remove(ctx: StoreProvider, key: K): boolean {
    const store = ctx.kv(this.map.storeKey);
    const previous = this.map.getIn(store, key);
    if (previous === undefined) return false;
    this.erase(store, key, previous);
    return true;
  }

  private write(store: KVStore, key: K, previous: V | undefined, value: V): void {
    // Constraints first: a refused set writes nothing.
    for (let i = 0; i < this.checkedIndexes.length; i++) this.checkedIndexes[i]!.check!(store, key, value, previous);
    for (let i = 0; i < this.indexList.length; i++) this.indexList[i]!.reference(store, key, value, previous);
    this.map.setIn(store, key, value);
  }

  private erase(store: KVStore, key: K, previous: V): void {
    for (let i = 0; i < this.indexList.length; i++) this.indexList[i]!.unreference(store, key, previous);
    this.map.removeIn(store, key);
  }

  iterate(ctx: StoreProvider, range?: Range<K>): AsyncIterableIterator<[K, V]> {
    return this.map.iterate(ctx, range);
  }

  keys(ctx: StoreProvider, range?: Range<K>): AsyncIterableIterator<K> {
    return this.map.keys(ctx, range);
  }

  values(ctx: StoreProvider, range?: Range<K>): AsyncIterableIterator<V> {
    return this.map.values(ctx, range);
  }
}
