/**
 * The collection paginator (COMPAT §5 rules, the SDK's Paginate/FilteredPaginate) over a branch
 * of a real store (CacheKVStore over MemKVStore, with entries of other collections around).
 */
import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { PageRequestSchema, type PageRequest } from '../../../src/gen/cosmos/base/query/v1beta1/pagination_pb.js';
import { SchemaBuilder, StateMap, emptyPage, paginate, pairKey, stringKey, u64Key, u64Value, type StoreProvider } from '../../../src/node/collections/index.js';
import { GrpcError } from '../../../src/node/modules/shared/errors.js';
import { CacheKVStoreImpl, MemKVStore } from '../../../src/node/store/index.js';
import { StoreKey } from '../../../src/node/store/storeKey.js';

const STORE = StoreKey.persistent('test');
const pad = (i: number): string => String(i).padStart(3, '0');
const req = (init: MessageInitShape<typeof PageRequestSchema>): PageRequest => create(PageRequestSchema, init);
const text = (bytes: Uint8Array): string => Buffer.from(bytes).toString();

/** 250 entries "000"…"249" → i (odd i are the "hits" of the filter), between two other collections. */
function fixture(): { ctx: StoreProvider; items: StateMap<string, bigint>; pairs: StateMap<readonly [string, bigint], bigint> } {
  const parent = new MemKVStore();
  const branch = new CacheKVStoreImpl(parent);
  const ctx: StoreProvider = { kv: () => branch };
  const schema = new SchemaBuilder(STORE);
  const before = new StateMap(schema, 'before', 0x01, stringKey, u64Value);
  const items = new StateMap(schema, 'items', 0x02, stringKey, u64Value);
  const pairs = new StateMap(schema, 'pairs', 0x03, pairKey(stringKey, u64Key), u64Value);
  before.set(ctx, 'zzz', 0n);
  // Half below the branch, half pending in it: the paginator sees both merged.
  const below: StoreProvider = { kv: () => parent };
  for (let i = 0; i < 250; i++) items.set(i % 2 === 0 ? below : ctx, pad(i), BigInt(i));
  for (const group of ['a', 'b', 'c']) for (let n = 0n; n < 5n; n++) pairs.set(ctx, [group, n], n);
  return { ctx, items, pairs };
}

const odd = (_key: string, value: bigint): boolean => value % 2n === 1n;

describe('paginate', () => {
  test('no request: 100 items, count_total forced, next_key = first key not returned', async () => {
    const { ctx, items } = fixture();
    const page = await paginate(ctx, items, undefined, { map: (key) => key });
    expect(page.items).toHaveLength(100);
    expect(page.items[0]).toBe('000');
    expect(text(page.pagination.nextKey)).toBe('100');
    expect(page.pagination.total).toBe(250n);
  });

  test('offset mode: window, next_key, total only with count_total', async () => {
    const { ctx, items } = fixture();
    const page = await paginate(ctx, items, req({ offset: 10n, limit: 5n }), { map: (key) => key });
    expect(page.items).toEqual(['010', '011', '012', '013', '014']);
    expect(text(page.pagination.nextKey)).toBe('015');
    expect(page.pagination.total).toBe(0n);
    const counted = await paginate(ctx, items, req({ offset: 10n, limit: 5n, countTotal: true }), { map: (key) => key });
    expect(counted.pagination.total).toBe(250n);
    const last = await paginate(ctx, items, req({ offset: 245n, limit: 10n, countTotal: true }), { map: (key) => key });
    expect(last.items).toEqual(['245', '246', '247', '248', '249']);
    expect(last.pagination.nextKey).toHaveLength(0);
    const beyond = await paginate(ctx, items, req({ offset: 400n, limit: 10n, countTotal: true }), { map: (key) => key });
    expect(beyond.items).toEqual([]);
    expect(beyond.pagination.total).toBe(250n);
  });

  test('key continuation walks everything exactly once; total is 0 with a key', async () => {
    const { ctx, items } = fixture();
    const seen: string[] = [];
    let next: Uint8Array = new Uint8Array(0);
    for (;;) {
      const page = await paginate(ctx, items, req({ key: next, limit: 64n, countTotal: true }), { map: (key) => key });
      seen.push(...page.items);
      if (next.length > 0) expect(page.pagination.total).toBe(0n);
      next = page.pagination.nextKey;
      if (next.length === 0) break;
    }
    expect(seen).toEqual(Array.from({ length: 250 }, (_, i) => pad(i)));
  });

  test('key and offset together are InvalidArgument with the SDK text (also for an always-empty list)', async () => {
    const { ctx, items } = fixture();
    const error = new GrpcError('InvalidArgument', 'invalid request, either offset or key is expected, got both');
    await expect(paginate(ctx, items, req({ key: Buffer.from('001'), offset: 1n }), { map: (key) => key })).rejects.toThrow(error);
    expect(() => emptyPage(req({ key: Buffer.from('001'), offset: 1n }))).toThrow(error);
    expect(emptyPage(undefined)).toMatchObject({ nextKey: new Uint8Array(0), total: 0n });
  });

  test('reverse with and without a key; the key itself is included going down', async () => {
    const { ctx, items } = fixture();
    const page = await paginate(ctx, items, req({ limit: 3n, reverse: true }), { map: (key) => key });
    expect(page.items).toEqual(['249', '248', '247']);
    expect(text(page.pagination.nextKey)).toBe('246');
    const next = await paginate(ctx, items, req({ limit: 3n, reverse: true, key: page.pagination.nextKey }), { map: (key) => key });
    expect(next.items).toEqual(['246', '245', '244']);
    const seen: string[] = [];
    let key: Uint8Array = new Uint8Array(0);
    do {
      const step = await paginate(ctx, items, req({ limit: 100n, reverse: true, key }), { map: (k) => k });
      seen.push(...step.items);
      key = step.pagination.nextKey;
    } while (key.length > 0);
    expect(seen).toEqual(Array.from({ length: 250 }, (_, i) => pad(249 - i)));
  });

  test('filtered: offsets, limits and totals count only hits (offset and key modes)', async () => {
    const { ctx, items } = fixture();
    const page = await paginate(ctx, items, req({ offset: 2n, limit: 3n, countTotal: true }), { map: (key) => key, filter: odd });
    expect(page.items).toEqual(['005', '007', '009']);
    expect(page.pagination.total).toBe(125n);
    expect(text(page.pagination.nextKey)).toBe('011');
    const byKey = await paginate(ctx, items, req({ key: Buffer.from('100'), limit: 3n }), { map: (key) => key, filter: odd });
    expect(byKey.items).toEqual(['101', '103', '105']);
    expect(text(byKey.pagination.nextKey)).toBe('106');
  });

  test('within a prefix of a composite key: only that group; next_key relative to the prefix', async () => {
    const { ctx, pairs } = fixture();
    const page = await paginate(ctx, pairs, req({ limit: 2n, countTotal: true }), { prefix: ['b'], map: ([group, n], value) => `${group}${n}=${value}` });
    expect(page.items).toEqual(['b0=0', 'b1=1']);
    expect(page.pagination.total).toBe(5n);
    expect(Buffer.from(page.pagination.nextKey).toString('hex')).toBe('0000000000000002'); // the u64 part only
    const rest = await paginate(ctx, pairs, req({ key: page.pagination.nextKey, limit: 10n }), { prefix: ['b'], map: ([group, n]) => `${group}${n}` });
    expect(rest.items).toEqual(['b2', 'b3', 'b4']);
    expect(rest.pagination.nextKey).toHaveLength(0);
    const down = await paginate(ctx, pairs, req({ reverse: true, limit: 2n }), { prefix: ['b'], map: ([group, n]) => `${group}${n}` });
    expect(down.items).toEqual(['b4', 'b3']);
    const whole = await paginate(ctx, pairs, req({ limit: 6n }), { map: ([group, n]) => `${group}${n}` });
    expect(whole.items).toEqual(['a0', 'a1', 'a2', 'a3', 'a4', 'b0']);
    expect(Buffer.from(whole.pagination.nextKey).toString('hex')).toBe('62000000000000000001'); // "b" 0x00 ‖ u64 1
    const none = await paginate(ctx, pairs, undefined, { prefix: ['x'], map: ([group]) => group });
    expect(none.items).toEqual([]);
    expect(none.pagination.total).toBe(0n);
  });
});
