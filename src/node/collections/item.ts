/**
 * Item (collections.Item): one value stored at the collection prefix itself (params, totals).
 * Sequence (collections.Sequence): a u64 counter that hands out 0, 1, 2 … (account numbers).
 */
import type { StoreKey } from '../store/storeKey.js';
import { prefixBytes, type PrefixInput, type SchemaBuilder, type StoreProvider } from './schema.js';
import { u64Value, type ValueCodec } from './values.js';

export class Item<V> {
  readonly prefix: Uint8Array;
  readonly storeKey: StoreKey;

  constructor(
    schema: SchemaBuilder,
    readonly name: string,
    prefix: PrefixInput,
    readonly valueCodec: ValueCodec<V>,
    kind = 'item',
  ) {
    this.prefix = prefixBytes(prefix);
    this.storeKey = schema.storeKey;
    schema.register({ name, prefix: this.prefix, kind, valueType: valueCodec.valueType });
  }

  /** The value, or undefined when none is stored. */
  get(ctx: StoreProvider): V | undefined {
    const bytes = ctx.kv(this.storeKey).get(this.prefix);
    return bytes === undefined ? undefined : this.valueCodec.decode(bytes);
  }

  has(ctx: StoreProvider): boolean {
    return ctx.kv(this.storeKey).has(this.prefix);
  }

  set(ctx: StoreProvider, value: V): void {
    ctx.kv(this.storeKey).set(this.prefix, this.valueCodec.encode(value));
  }

  remove(ctx: StoreProvider): void {
    ctx.kv(this.storeKey).delete(this.prefix);
  }
}

export class Sequence {
  private readonly item: Item<bigint>;

  constructor(schema: SchemaBuilder, name: string, prefix: PrefixInput) {
    this.item = new Item(schema, name, prefix, u64Value, 'sequence');
  }

  get name(): string {
    return this.item.name;
  }

  /** The next number, without consuming it (0 before the first `next`). */
  peek(ctx: StoreProvider): bigint {
    return this.item.get(ctx) ?? 0n;
  }

  /** Hands out the next number and advances the counter. */
  next(ctx: StoreProvider): bigint {
    const value = this.peek(ctx);
    this.item.set(ctx, value + 1n);
    return value;
  }

  /** Sets the next number to hand out (genesis). */
  set(ctx: StoreProvider, value: bigint): void {
    this.item.set(ctx, value);
  }
}
