/**
 * StateMap (collections.Map) and KeySet (collections.KeySet): typed entries under one prefix of
 * a module store. Point reads and writes are synchronous, iteration is asynchronous
 * (`for await`), as the store's contract has it.
 *
 * Store key = collection prefix ‖ key codec's terminal encoding. A `Range` narrows iteration to
 * the keys starting with leading parts of a composite key (`prefix: [address]`), to bounds, and
 * may run in descending order.
 */
import { compareBytes, prefixEnd } from '../store/bytes.js';
import { scanStore, type ScanVisitor } from '../store/chunks.js';
import type { KVEntry, KVStore, KVStoreReader } from '../store/interface.js';
import type { StoreKey } from '../store/storeKey.js';
import { CollectionError } from './errors.js';
import type { KeyCodec, KeyPrefix } from './keys.js';
import { prefixBytes, type PrefixInput, type SchemaBuilder, type StoreProvider } from './schema.js';
import { markerValue, type ValueCodec } from './values.js';

/** Which keys an iteration visits. Bounds are whole keys; all fields are optional. */
export interface Range<K> {
  /** Only keys whose leading parts are these (composite keys). */
  prefix?: KeyPrefix<K>;
  /** Lower bound, inclusive unless `startExclusive`. */
  start?: K;
  startExclusive?: boolean;
  /** Upper bound, exclusive unless `endInclusive`. */
  end?: K;
  endInclusive?: boolean;
  /** Descending key order. */
  reverse?: boolean;
}

/** Raw store-key bounds of a range: start ≤ key < end (end undefined: unbounded). */
export interface RawBounds {
  start: Uint8Array;
  end: Uint8Array | undefined;
  reverse: boolean;
}

/**
 * What the paginator and the genesis helpers need from a collection: where its entries live and
 * how to decode them. StateMap, KeySet and IndexedMap provide it.
 */
export interface KeyedCollection<K, V> {
  readonly name: string;
  readonly storeKey: StoreKey;
  /** The collection prefix. */
  readonly prefix: Uint8Array;
  readonly keyCodec: KeyCodec<K>;
  readonly valueCodec: ValueCodec<V>;
  /** Collection prefix ‖ the encoded leading parts (the collection prefix alone without parts). */
  rangePrefix(parts?: KeyPrefix<K>): Uint8Array;
  /** Decodes a whole store key (collection prefix included). */
  decodeKey(storeKey: Uint8Array): K;
}

/** The smallest key after `bytes`: bytes ‖ 0x00. */
function appendZero(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length + 1);
  out.set(bytes);
  return out;
}

export class StateMap<K, V> implements KeyedCollection<K, V> {
  readonly prefix: Uint8Array;
  readonly storeKey: StoreKey;
  private readonly prefixLength: number;
  private readonly singleBytePrefix: number;

  constructor(
    schema: SchemaBuilder,
    readonly name: string,
    prefix: PrefixInput,
    readonly keyCodec: KeyCodec<K>,
    readonly valueCodec: ValueCodec<V>,
    kind = 'map',
  ) {
    this.prefix = prefixBytes(prefix);
    this.storeKey = schema.storeKey;
    this.prefixLength = this.prefix.length;
    this.singleBytePrefix = this.prefixLength === 1 ? this.prefix[0]! : -1;
    schema.register({ name, prefix: this.prefix, kind, keyType: keyCodec.keyType, valueType: valueCodec.valueType });
  }

  // ---------------------------------------------------------------------------- keys

  /** The store key of `key`: prefix ‖ terminal encoding, in one allocation. */
  encodeKey(key: K): Uint8Array {
    const out = new Uint8Array(this.prefixLength + this.keyCodec.size(key));
    if (this.singleBytePrefix >= 0) out[0] = this.singleBytePrefix;
    else out.set(this.prefix);
    this.keyCodec.encode(key, out, this.prefixLength);
    return out;
  }

  decodeKey(storeKey: Uint8Array): K {
    for (let i = 0; i < this.prefixLength; i++) {
      if (storeKey[i] !== this.prefix[i]) throw new CollectionError('DECODING', `key does not belong to collection "${this.name}"`);
    }
    return this.keyCodec.decode(storeKey, this.prefixLength, storeKey.length);
  }

  rangePrefix(parts?: KeyPrefix<K>): Uint8Array {
    if (parts === undefined) return this.prefix;
    const codec = this.keyCodec;
    if (codec.prefixSize === undefined || codec.encodePrefix === undefined) {
      throw new CollectionError('ENCODING', `collection "${this.name}" has ${codec.keyType} keys, which have no leading parts to range over`);
    }
    const list = parts as readonly unknown[];
    const out = new Uint8Array(this.prefixLength + codec.prefixSize(list));
    out.set(this.prefix);
    codec.encodePrefix(list, out, this.prefixLength);
    return out;
  }

  /** The store-key bounds of a range (clamped to the range's prefix). */
  bounds(range: Range<K> = {}): RawBounds {
    const base = this.rangePrefix(range.prefix);
    let start = base;
    let end = prefixEnd(base);
    if (range.start !== undefined) {
      const key = this.encodeKey(range.start);
      const from = range.startExclusive ? appendZero(key) : key;
      if (compareBytes(from, start) > 0) start = from;
    }
    if (range.end !== undefined) {
      const key = this.encodeKey(range.end);
      const to = range.endInclusive ? appendZero(key) : key;
      if (end === undefined || compareBytes(to, end) < 0) end = to;
    }
    return { start, end, reverse: range.reverse ?? false };
  }

  // ---------------------------------------------------------------------------- point access

  get(ctx: StoreProvider, key: K): V | undefined {
    const bytes = ctx.kv(this.storeKey).get(this.encodeKey(key));
    return bytes === undefined ? undefined : this.valueCodec.decode(bytes);
  }

  has(ctx: StoreProvider, key: K): boolean {
    return ctx.kv(this.storeKey).has(this.encodeKey(key));
  }

  set(ctx: StoreProvider, key: K, value: V): void {
    ctx.kv(this.storeKey).set(this.encodeKey(key), this.valueCodec.encode(value));
  }

  /** Deletes the entry (a no-op for the state when there is none; the store still charges gas). */
  remove(ctx: StoreProvider, key: K): void {
    ctx.kv(this.storeKey).delete(this.encodeKey(key));
  }

  /** Store-level access for collections built on this one (indexes): no context lookup. */
  getIn(store: KVStoreReader, key: K): V | undefined {
    const bytes = store.get(this.encodeKey(key));
    return bytes === undefined ? undefined : this.valueCodec.decode(bytes);
  }

  setIn(store: KVStore, key: K, value: V): void {
    store.set(this.encodeKey(key), this.valueCodec.encode(value));
  }

  removeIn(store: KVStore, key: K): void {
    store.delete(this.encodeKey(key));
  }

  // ---------------------------------------------------------------------------- iteration

  /** Raw entries (whole store keys) of a range. */
  entries(ctx: StoreProvider, range?: Range<K>): AsyncIterableIterator<KVEntry> {
    const { start, end, reverse } = this.bounds(range);
    return ctx.kv(this.storeKey).iterator(start, end, { reverse });
  }

  /**
   * Raw entries of a range to a synchronous callback, in key order (or reversed), until it
   * returns false: no await per entry, for scans of many entries (the gov tally).
   */
  scanEntries(ctx: StoreProvider, range: Range<K> | undefined, visit: ScanVisitor): Promise<void> {
    const { start, end, reverse } = this.bounds(range);
    return scanStore(ctx.kv(this.storeKey), start, end, { reverse }, visit);
  }

  /** [key, value] pairs of a range, in key order (or reversed). */
  async *iterate(ctx: StoreProvider, range?: Range<K>): AsyncIterableIterator<[K, V]> {
    for await (const [key, value] of this.entries(ctx, range)) yield [this.keyCodec.decode(key, this.prefixLength, key.length), this.valueCodec.decode(value)];
  }

  async *keys(ctx: StoreProvider, range?: Range<K>): AsyncIterableIterator<K> {
    for await (const [key] of this.entries(ctx, range)) yield this.keyCodec.decode(key, this.prefixLength, key.length);
  }

  async *values(ctx: StoreProvider, range?: Range<K>): AsyncIterableIterator<V> {
    for await (const [, value] of this.entries(ctx, range)) yield this.valueCodec.decode(value);
  }
}

/** A set of keys (collections.KeySet): each key maps to the empty marker value. */
export class KeySet<K> implements KeyedCollection<K, true> {
  private readonly map: StateMap<K, true>;

  constructor(schema: SchemaBuilder, name: string, prefix: PrefixInput, keyCodec: KeyCodec<K>, kind = 'keyset') {
    this.map = new StateMap(schema, name, prefix, keyCodec, markerValue, kind);
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

  get valueCodec(): ValueCodec<true> {
    return markerValue;
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

  bounds(range?: Range<K>): RawBounds {
    return this.map.bounds(range);
  }

  has(ctx: StoreProvider, key: K): boolean {
    return this.map.has(ctx, key);
  }

  set(ctx: StoreProvider, key: K): void {
    this.map.set(ctx, key, true);
  }

  remove(ctx: StoreProvider, key: K): void {
    this.map.remove(ctx, key);
  }

  hasIn(store: KVStoreReader, key: K): boolean {
    return store.has(this.map.encodeKey(key));
  }

  setIn(store: KVStore, key: K): void {
    this.map.setIn(store, key, true);
  }

  removeIn(store: KVStore, key: K): void {
    this.map.removeIn(store, key);
  }

  entries(ctx: StoreProvider, range?: Range<K>): AsyncIterableIterator<KVEntry> {
    return this.map.entries(ctx, range);
  }

  keys(ctx: StoreProvider, range?: Range<K>): AsyncIterableIterator<K> {
    return this.map.keys(ctx, range);
  }

  /** Same as `keys` (a set's entries are its keys). */
  iterate(ctx: StoreProvider, range?: Range<K>): AsyncIterableIterator<K> {
    return this.map.keys(ctx, range);
  }
}
