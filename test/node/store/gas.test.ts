/**
 * Gas: the SDK's KV schedule (store/types/gas.go KVGasConfig, store/gaskv/store.go) charged with
 * the SDK's descriptors, and the meters' limit semantics.
 */
import { GasOverflowError, OutOfGasError } from '../../../src/node/store/errors.js';
import { BasicGasMeter, GAS_DESCRIPTOR, GasKVStore, InfiniteGasMeter, KV_GAS_CONFIG } from '../../../src/node/store/gas.js';
import type { GasMeter } from '../../../src/node/store/interface.js';
import { MemKVStore } from '../../../src/node/store/memkv.js';
import { b } from './helpers.js';

/** A meter that records each charge. */
class RecordingMeter extends InfiniteGasMeter {
  readonly charges: [string, number][] = [];
  override consumeGas(amount: number, descriptor: string): void {
    this.charges.push([descriptor, amount]);
    super.consumeGas(amount, descriptor);
  }
}

function setup(): { base: MemKVStore; meter: RecordingMeter; store: GasKVStore } {
  const base = new MemKVStore();
  const meter = new RecordingMeter();
  return { base, meter, store: new GasKVStore(base, meter) };
}

test('the schedule is the SDK KVGasConfig', () => {
  expect(KV_GAS_CONFIG).toEqual({ hasCost: 1000, deleteCost: 1000, readCostFlat: 1000, readCostPerByte: 3, writeCostFlat: 2000, writeCostPerByte: 30, iterNextCostFlat: 30 });
});

test('get: ReadFlat, then ReadPerByte for the key and for the value', () => {
  const { base, meter, store } = setup();
  base.set(b(1, 2, 3), new Uint8Array(10));
  store.get(b(1, 2, 3));
  store.get(b(9));
  expect(meter.charges).toEqual([
    ['ReadFlat', 1000],
    ['ReadPerByte', 9],
    ['ReadPerByte', 30],
    ['ReadFlat', 1000],
    ['ReadPerByte', 3],
    ['ReadPerByte', 0],
  ]);
  expect(meter.gasConsumed()).toBe(1000 + 9 + 30 + 1000 + 3);
});

test('set: WriteFlat, then WritePerByte for the key and the value; has and delete are flat', () => {
  const { meter, store } = setup();
  store.set(b(1, 2), new Uint8Array(40));
  store.has(b(1, 2));
  store.delete(b(1, 2));
  expect(meter.charges).toEqual([
    ['WriteFlat', 2000],
    ['WritePerByte', 60],
    ['WritePerByte', 1200],
    ['Has', 1000],
    ['Delete', 1000],
  ]);
});

test('iteration: seek charge at start and after each entry (the first entry twice, as in the SDK)', async () => {
  const { base, meter, store } = setup();
  base.set(b(1), b(1, 1)); // 1 + 2 bytes -> 3 + 6
  base.set(b(2, 2), b(2)); // 2 + 1 bytes -> 6 + 3
  for await (const _ of store.iterator()) void _;
  expect(meter.charges).toEqual([
    ['ValuePerByte', 3],
    ['ValuePerByte', 6],
    ['IterNextFlat', 30],
    ['ValuePerByte', 3],
    ['ValuePerByte', 6],
    ['IterNextFlat', 30],
    ['ValuePerByte', 6],
    ['ValuePerByte', 3],
    ['IterNextFlat', 30],
  ]);
  meter.charges.length = 0;
  for await (const _ of store.iterator(b(5))) void _;
  expect(meter.charges).toEqual([['IterNextFlat', 30]]);
  meter.charges.length = 0;
  for await (const _ of store.iterator()) break;
  expect(meter.charges).toEqual([
    ['ValuePerByte', 3],
    ['ValuePerByte', 6],
    ['IterNextFlat', 30],
  ]);
});

test('a callback scan charges exactly what the iterator charges, also when stopped early or empty', async () => {
  const { base, meter, store } = setup();
  for (let i = 1; i <= 70; i++) base.set(b(i), b(i, i));
  const charges = async (walk: () => Promise<void>): Promise<[string, number][]> => {
    meter.charges.length = 0;
    await walk();
    return [...meter.charges];
  };
  const full = await charges(async () => {
    for await (const _ of store.iterator()) void _;
  });
  expect(full.length).toBe(3 * 71);
  expect(await charges(() => store.scan(undefined, undefined, {}, () => undefined))).toEqual(full);
  const stopped = await charges(async () => {
    let seen = 0;
    for await (const _ of store.iterator(b(3))) if (++seen === 40) break;
  });
  let visited = 0;
  expect(await charges(() => store.scan(b(3), undefined, {}, () => ++visited !== 40))).toEqual(stopped);
  expect(visited).toBe(40);
  expect(await charges(() => store.scan(b(100), undefined, {}, () => undefined))).toEqual([['IterNextFlat', 30]]);
  const reversed: number[] = [];
  await store.scan(b(60), undefined, { reverse: true }, (key, keyAt) => void reversed.push(key[keyAt]!));
  expect(reversed).toEqual([70, 69, 68, 67, 66, 65, 64, 63, 62, 61, 60]);
});

test('running out of gas throws OutOfGasError naming the charge; the write does not happen', () => {
  const base = new MemKVStore();
  const meter = new BasicGasMeter(2500);
  const store = new GasKVStore(base, meter);
  try {
    store.set(b(1), new Uint8Array(100));
    throw new Error('expected out of gas');
  } catch (err) {
    expect(err).toBeInstanceOf(OutOfGasError);
    const oog = err as OutOfGasError;
    expect(oog.descriptor).toBe(GAS_DESCRIPTOR.writePerByte);
    expect(oog.gasLimit).toBe(2500);
    expect(oog.gasUsed).toBe(2000 + 30 + 3000);
    expect(oog.message).toBe('out of gas in location: WritePerByte; gasWanted: 2500, gasUsed: 5030');
  }
  expect(base.has(b(1))).toBe(false);
  expect(meter.isPastLimit()).toBe(true);
  expect(meter.gasConsumedToLimit()).toBe(2500);
  expect(meter.gasRemaining()).toBe(0);
});

test('basic meter: limit is inclusive; isOutOfGas at the limit, past it only above', () => {
  const meter: GasMeter = new BasicGasMeter(1000);
  meter.consumeGas(1000, 'x');
  expect(meter.isOutOfGas()).toBe(true);
  expect(meter.isPastLimit()).toBe(false);
  expect(() => meter.consumeGas(1, 'ReadFlat')).toThrow('out of gas in location: ReadFlat');
  expect(meter.gasConsumed()).toBe(1001);
  meter.refundGas(1, 'refund');
  expect(meter.gasConsumed()).toBe(1000);
  expect(() => meter.refundGas(5000, 'refund')).toThrow(RangeError);
});

test('infinite meter never runs out but detects overflow; fromLimit clamps uint64 limits', () => {
  const meter = new InfiniteGasMeter();
  meter.consumeGas(Number.MAX_SAFE_INTEGER - 1, 'big');
  expect(meter.isOutOfGas()).toBe(false);
  expect(() => meter.consumeGas(5, 'Overflow')).toThrow(GasOverflowError);
  expect(BasicGasMeter.fromLimit(18446744073709551615n).limit()).toBe(Number.MAX_SAFE_INTEGER);
  expect(BasicGasMeter.fromLimit(200000n).limit()).toBe(200000);
  expect(() => new BasicGasMeter(-1)).toThrow(RangeError);
});

test('a branch over a gas store charges reads that reach the parent and the flush', () => {
  const { base, meter, store } = setup();
  base.set(b(1), b(1));
  const branch = store.branch();
  branch.set(b(2), b(2));
  expect(meter.charges).toEqual([]);
  branch.get(b(2)); // cached: free
  branch.get(b(1)); // falls through: charged
  branch.write();
  expect(meter.charges.map(([d]) => d)).toEqual(['ReadFlat', 'ReadPerByte', 'ReadPerByte', 'WriteFlat', 'WritePerByte', 'WritePerByte']);
});
