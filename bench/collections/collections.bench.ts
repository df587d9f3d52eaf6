/**
 * Collections micro-benchmark: bank balance reads and writes through the `Balances` collection
 * against the hand-encoded path bank used before collections (concat of prefix, length-prefixed
 * address and memoised denom bytes; decimal amounts with a WeakMap decode cache), on the same
 * store stack a tx sees (gas store over a fresh branch over an in-memory store), in the same run.
 * Rounds alternate between the two paths, back to back; each measures CPU time per op
 * (process.cpuUsage, so time spent descheduled on a shared machine does not count). Reported: the
 * median of each path and the median of the per-round ratios (paired, so load swings cancel).
 *
 *   npx tsx bench/collections/collections.bench.ts
 *   COLLECTIONS_BENCH_OPS=20000 COLLECTIONS_BENCH_ROUNDS=21 npx tsx bench/collections/collections.bench.ts
 *
 * `run()` returns rows {name, value, unit} for bench/run.ts.
 */
import { pathToFileURL } from 'node:url';
import type { StoreProvider } from '../../src/node/collections/index.js';
import { Balances, bankStoreKey } from '../../src/node/modules/bank/keys.js';
import { CacheKVStoreImpl, GasKVStore, InfiniteGasMeter, MemKVStore, type KVStore } from '../../src/node/store/index.js';

export interface Row {
  name: string;
  value: number;
  unit: string;
}

const ACCOUNTS = 10_000;
const DENOMS = ['attotoken', 'uatom', 'ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2'];

// ---------------------------------------------------------------------------- the pre-collections path

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const BALANCES_PREFIX = Uint8Array.of(0x02);
const denomBytesCache = new Map<string, Uint8Array>();
const amountCache = new WeakMap<Uint8Array, bigint>();

function concat(...parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function lengthPrefixed(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length + 1);
  out[0] = bytes.length;
  out.set(bytes, 1);
  return out;
}

function denomBytes(denom: string): Uint8Array {
  let bytes = denomBytesCache.get(denom);
  if (bytes === undefined) {
    bytes = encoder.encode(denom);
    denomBytesCache.set(denom, bytes);
  }
  return bytes;
}

function handBalanceKey(address: Uint8Array, denom: string): Uint8Array {
  return concat(BALANCES_PREFIX, lengthPrefixed(address), denomBytes(denom));
}

function handDecodeAmount(bytes: Uint8Array): bigint {
  let amount = amountCache.get(bytes);
  if (amount === undefined) {
    amount = BigInt(decoder.decode(bytes));
    amountCache.set(bytes, amount);
  }
  return amount;
}

function handEncodeAmount(amount: bigint): Uint8Array {
  const text = amount.toString();
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  amountCache.set(bytes, amount);
  return bytes;
}

// ---------------------------------------------------------------------------- harness

interface Fixture {
  /** The context the ops use; `time` points it at a fresh branch each round. */
  ctx: StoreProvider;
  base: MemKVStore;
  store: KVStore;
  addresses: Uint8Array[];
}

function fixture(): Fixture {
  const base = new MemKVStore();
  const addresses: Uint8Array[] = [];
  const seed: StoreProvider = { kv: () => base };
  for (let i = 0; i < ACCOUNTS; i++) {
    const address = new Uint8Array(20);
    new DataView(address.buffer).setUint32(16, i * 2654435761);
    address[0] = i & 0xff;
    addresses.push(address);
    for (const denom of DENOMS) Balances.set(seed, [address, denom], BigInt(1_000_000 + i));
  }
  const fx: Fixture = { ctx: { kv: () => fx.store }, base, store: base, addresses };
  return fx;
}

type Op = (address: Uint8Array, denom: string, i: number) => void;

/** CPU ns per op over `ops` operations cycling through the accounts and denoms. */
function time(fx: Fixture, ops: number, op: Op): number {
  const { addresses } = fx;
  // What a tx sees: a gas-metered store over a (fresh) branch of the state.
  fx.store = new GasKVStore(new CacheKVStoreImpl(fx.base), new InfiniteGasMeter());
  const started = process.cpuUsage();
  for (let i = 0; i < ops; i++) op(addresses[(i * 7919) % ACCOUNTS]!, DENOMS[i % DENOMS.length]!, i);
  const used = process.cpuUsage(started);
  return ((used.user + used.system) * 1000) / ops;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function run(log: (line: string) => void = () => undefined): Promise<Row[]> {
  const ops = Number(process.env.COLLECTIONS_BENCH_OPS ?? 20_000);
  const rounds = Number(process.env.COLLECTIONS_BENCH_ROUNDS ?? 21);
  log(`${ACCOUNTS} accounts × ${DENOMS.length} denoms; ${ops} ops per round, ${rounds} rounds, alternating`);
  const fx = fixture();
  const { ctx } = fx;
  let sink = 0n;

  const pairs: [string, Op, Op][] = [
    [
      'balance key encoding',
      (address, denom) => {
        sink += BigInt(handBalanceKey(address, denom).length);
      },
      (address, denom) => {
        sink += BigInt(Balances.encodeKey([address, denom]).length);
      },
    ],
    [
      'balance read (get + decode)',
      (address, denom) => {
        const bytes = ctx.kv(bankStoreKey).get(handBalanceKey(address, denom));
        sink += bytes === undefined ? 0n : handDecodeAmount(bytes);
      },
      (address, denom) => {
        sink += Balances.get(ctx, [address, denom]) ?? 0n;
      },
    ],
    [
      'balance write of an existing balance (previous known)',
      (address, denom, i) => {
        ctx.kv(bankStoreKey).set(handBalanceKey(address, denom), handEncodeAmount(BigInt(2_000_000 + i)));
      },
      (address, denom, i) => {
        Balances.update(ctx, [address, denom], 1n, BigInt(2_000_000 + i));
      },
    ],
    [
      'balance change (read, then write with the read value)',
      (address, denom) => {
        const store = ctx.kv(bankStoreKey);
        const key = handBalanceKey(address, denom);
        const bytes = store.get(key);
        const amount = bytes === undefined ? 0n : handDecodeAmount(bytes);
        store.set(handBalanceKey(address, denom), handEncodeAmount(amount + 1n));
      },
      (address, denom) => {
        const amount = Balances.get(ctx, [address, denom]) ?? 0n;
        Balances.update(ctx, [address, denom], amount === 0n ? undefined : amount, amount + 1n);
      },
    ],
  ];

  const rows: Row[] = [];
  for (const [name, hand, collection] of pairs) {
    // Warm both paths (JIT, caches) before measuring.
    time(fx, ops / 4, hand);
    time(fx, ops / 4, collection);
    const handNs: number[] = [];
    const collectionNs: number[] = [];
    for (let round = 0; round < rounds; round++) {
      if (round % 2 === 0) {
        handNs.push(time(fx, ops, hand));
        collectionNs.push(time(fx, ops, collection));
      } else {
        collectionNs.push(time(fx, ops, collection));
        handNs.push(time(fx, ops, hand));
      }
    }
    const h = median(handNs);
    const c = median(collectionNs);
    const ratio = median(collectionNs.map((ns, i) => ns / handNs[i]!));
    log(`${name}: hand-encoded ${h.toFixed(0)} ns, collection ${c.toFixed(0)} ns, paired ratio ${ratio.toFixed(2)}`);
    rows.push({ name: `${name}: hand-encoded keys`, value: +h.toFixed(1), unit: 'ns/op (CPU)' });
    rows.push({ name: `${name}: Balances collection`, value: +c.toFixed(1), unit: 'ns/op (CPU)' });
    rows.push({ name: `${name}: collection / hand-encoded (median of paired rounds)`, value: +ratio.toFixed(2), unit: 'x' });
  }
  if (sink === -1n) log('unreachable');
  return rows;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await run((line) => process.stderr.write(`${line}\n`));
  const width = Math.max(...rows.map((row) => row.name.length));
  for (const row of rows) process.stdout.write(`${row.name.padEnd(width)}  ${String(row.value).padStart(10)} ${row.unit}\n`);
}
