/**
 * Gas meters and the gas-charging KV wrapper, with the Cosmos SDK's schedule and descriptors
 * (store/types/gas.go, store/gaskv/store.go):
 *
 *   get     ReadFlat 1000, then ReadPerByte 3 x len(key), then ReadPerByte 3 x len(value)
 *   set     WriteFlat 2000, then WritePerByte 30 x len(key), then WritePerByte 30 x len(value)
 *   has     Has 1000            delete  Delete 1000
 *   iterate at the first step and at every step after an entry: ValuePerByte 3 x (len(key) +
 *           len(value)) of the current entry (if any), then IterNextFlat 30. As in the SDK, the
 *           first entry is charged twice (at "creation" and at its Next), and an exhausted
 *           iterator pays one more IterNextFlat.
 *
 * Gas amounts are JavaScript numbers (safe integers): a block's or a tx's gas never nears 2^53.
 * The SDK's uint64 overflow becomes `GasOverflowError` at 2^53-1. The infinite meter reports
 * `limit() = Number.MAX_SAFE_INTEGER`.
 */
import { CacheKVStoreImpl } from './cachekv.js';
import { GasOverflowError, OutOfGasError } from './errors.js';
import { scanStore, storeChunks, type ScanVisitor } from './chunks.js';
import type { CacheKVStore, GasConfig, GasMeter, IteratorOptions, KVEntry, KVStore } from './interface.js';

export const GAS_DESCRIPTOR = {
  readFlat: 'ReadFlat',
  readPerByte: 'ReadPerByte',
  writeFlat: 'WriteFlat',
  writePerByte: 'WritePerByte',
  has: 'Has',
  delete: 'Delete',
  iterNextFlat: 'IterNextFlat',
  valuePerByte: 'ValuePerByte',
} as const;

/** KVGasConfig() of the SDK. */
export const KV_GAS_CONFIG: Readonly<GasConfig> = Object.freeze({
  hasCost: 1000,
  deleteCost: 1000,
  readCostFlat: 1000,
  readCostPerByte: 3,
  writeCostFlat: 2000,
  writeCostPerByte: 30,
  iterNextCostFlat: 30,
});

/** TransientGasConfig() of the SDK, for transient stores. */
export const TRANSIENT_GAS_CONFIG: Readonly<GasConfig> = Object.freeze({
  hasCost: 100,
  deleteCost: 100,
  readCostFlat: 100,
  readCostPerByte: 0,
  writeCostFlat: 200,
  writeCostPerByte: 3,
  iterNextCostFlat: 3,
});

export class BasicGasMeter implements GasMeter {
  private consumed = 0;

  constructor(private readonly gasLimit: number) {
    if (!Number.isSafeInteger(gasLimit) || gasLimit < 0) throw new RangeError(`gas limit must be a non-negative safe integer, got ${gasLimit}`);
  }

  /** From a tx's uint64 gas limit; limits above 2^53-1 are clamped (unreachable in practice). */
  static fromLimit(limit: bigint | number): BasicGasMeter {
    const max = BigInt(Number.MAX_SAFE_INTEGER);
    const value = BigInt(limit);
    return new BasicGasMeter(Number(value > max ? max : value < 0n ? 0n : value));
  }

  limit(): number {
    return this.gasLimit;
  }

  gasConsumed(): number {
    return this.consumed;
  }

  gasConsumedToLimit(): number {
    return this.consumed > this.gasLimit ? this.gasLimit : this.consumed;
  }

  gasRemaining(): number {
    return this.consumed >= this.gasLimit ? 0 : this.gasLimit - this.consumed;
  }

  isPastLimit(): boolean {
    return this.consumed > this.gasLimit;
  }

  isOutOfGas(): boolean {
    return this.consumed >= this.gasLimit;
  }

  consumeGas(amount: number, descriptor: string): void {
    const next = this.consumed + amount;
    if (next > Number.MAX_SAFE_INTEGER) {
      this.consumed = Number.MAX_SAFE_INTEGER;
      throw new GasOverflowError(descriptor);
    }
    this.consumed = next;
    if (next > this.gasLimit) throw new OutOfGasError(descriptor, this.gasLimit, next);
  }

  refundGas(amount: number, descriptor: string): void {
    if (amount > this.consumed) throw new RangeError(`cannot refund ${amount} gas (${descriptor}): only ${this.consumed} consumed`);
    this.consumed -= amount;
  }

  toString(): string {
    return `BasicGasMeter: limit ${this.gasLimit}, consumed ${this.consumed}`;
  }
}

export class InfiniteGasMeter implements GasMeter {
  private consumed = 0;

  limit(): number {
    return Number.MAX_SAFE_INTEGER;
  }

  gasConsumed(): number {
    return this.consumed;
  }

  gasConsumedToLimit(): number {
    return this.consumed;
  }

  gasRemaining(): number {
    return Number.MAX_SAFE_INTEGER;
  }

  isPastLimit(): boolean {
    return false;
  }

  isOutOfGas(): boolean {
    return false;
  }

  consumeGas(amount: number, descriptor: string): void {
    const next = this.consumed + amount;
    if (next > Number.MAX_SAFE_INTEGER) {
      this.consumed = Number.MAX_SAFE_INTEGER;
      throw new GasOverflowError(descriptor);
    }
    this.consumed = next;
  }

  refundGas(amount: number, descriptor: string): void {
    if (amount > this.consumed) throw new RangeError(`cannot refund ${amount} gas (${descriptor}): only ${this.consumed} consumed`);
    this.consumed -= amount;
  }

  toString(): string {
    return `InfiniteGasMeter: consumed ${this.consumed}`;
  }
}

/** The SDK's gaskv.Store: charges `meter` for every access, then delegates to `parent`. */
export class GasKVStore implements KVStore {
  constructor(
    private readonly parent: KVStore,
    private readonly meter: GasMeter,
    private readonly config: Readonly<GasConfig> = KV_GAS_CONFIG,
  ) {}

  get(key: Uint8Array): Uint8Array | undefined {
    this.meter.consumeGas(this.config.readCostFlat, GAS_DESCRIPTOR.readFlat);
    const value = this.parent.get(key);
    this.meter.consumeGas(this.config.readCostPerByte * key.length, GAS_DESCRIPTOR.readPerByte);
    this.meter.consumeGas(this.config.readCostPerByte * (value?.length ?? 0), GAS_DESCRIPTOR.readPerByte);
    return value;
  }

  has(key: Uint8Array): boolean {
    this.meter.consumeGas(this.config.hasCost, GAS_DESCRIPTOR.has);
    return this.parent.has(key);
  }

  set(key: Uint8Array, value: Uint8Array): void {
    this.meter.consumeGas(this.config.writeCostFlat, GAS_DESCRIPTOR.writeFlat);
    this.meter.consumeGas(this.config.writeCostPerByte * key.length, GAS_DESCRIPTOR.writePerByte);
    this.meter.consumeGas(this.config.writeCostPerByte * value.length, GAS_DESCRIPTOR.writePerByte);
    this.parent.set(key, value);
  }

  delete(key: Uint8Array): void {
    this.meter.consumeGas(this.config.deleteCost, GAS_DESCRIPTOR.delete);
    this.parent.delete(key);
  }

  /** A cache over the gas store: reads that reach the parent and `write()` are charged. */
  branch(): CacheKVStore {
    return new CacheKVStoreImpl(this);
  }

  /**
   * Entries one by one, each charged as the caller takes it (as the SDK's gaskv iterator: the
   * seek, then every step with the entry's key and value bytes); below, the layers pass arrays.
   */
  async *iterator(start?: Uint8Array, end?: Uint8Array, options?: IteratorOptions): AsyncIterableIterator<KVEntry> {
    const inner = storeChunks(this.parent, start, end, options);
    try {
      let step = await inner.next();
      this.chargeSeek(step.done === true ? undefined : step.value[0]);
      while (step.done !== true) {
        for (const entry of step.value) {
          yield entry;
          // Moving past an entry costs its bytes again (the SDK's Next charges the entry it leaves).
          this.chargeSeek(entry);
        }
        step = await inner.next();
      }
    } finally {
      await inner.return?.();
    }
  }

  /** `iterator` as a callback scan (`chunks.ts` scanStore): the same charges, entry by entry. */
  async scan(start: Uint8Array | undefined, end: Uint8Array | undefined, options: IteratorOptions, visit: ScanVisitor): Promise<void> {
    let first = true;
    await scanStore(this.parent, start, end, options, (key, keyAt, value, valueAt) => {
      if (first) this.chargeLengths(key.length - keyAt, value.length - valueAt);
      first = false;
      if (visit(key, keyAt, value, valueAt) === false) return false;
      this.chargeLengths(key.length - keyAt, value.length - valueAt);
    });
    if (first) this.chargeSeek(undefined);
  }

  private chargeSeek(entry: KVEntry | undefined): void {
    if (entry !== undefined) this.chargeEntry(entry[0], entry[1]);
    else this.meter.consumeGas(this.config.iterNextCostFlat, GAS_DESCRIPTOR.iterNextFlat);
  }

  private chargeEntry(key: Uint8Array, value: Uint8Array): void {
    this.chargeLengths(key.length, value.length);
  }

  private chargeLengths(keyLength: number, valueLength: number): void {
    this.meter.consumeGas(this.config.readCostPerByte * keyLength, GAS_DESCRIPTOR.valuePerByte);
    this.meter.consumeGas(this.config.readCostPerByte * valueLength, GAS_DESCRIPTOR.valuePerByte);
    this.meter.consumeGas(this.config.iterNextCostFlat, GAS_DESCRIPTOR.iterNextFlat);
  }
}
