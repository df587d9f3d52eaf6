/** The shared pagination helper over a plain store (COMPAT §5 rules), filtered and unfiltered. */
import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { PageRequestSchema, type PageRequest } from '../../../src/gen/cosmos/base/query/v1beta1/pagination_pb.js';
import { MemKVStore } from '../../../src/node/store/index.js';
import { GrpcError } from '../../../src/node/modules/shared/errors.js';
import { paginate, paginateList } from '../../../src/node/modules/shared/pagination.js';

const enc = new TextEncoder();
const dec = new TextDecoder();

function store(): MemKVStore {
  const kv = new MemKVStore();
  for (let i = 0; i < 250; i++) kv.set(enc.encode(`p/${String(i).padStart(3, '0')}`), Uint8Array.of(i % 2));
  kv.set(enc.encode('q/other'), Uint8Array.of(0));
  kv.set(enc.encode('o/before'), Uint8Array.of(0));
  return kv;
}

const req = (init: MessageInitShape<typeof PageRequestSchema>): PageRequest => create(PageRequestSchema, init);
const keys = (items: Uint8Array[]): string[] => items.map((key) => dec.decode(key));

describe('paginate', () => {
  test('no request: 100 items, count_total forced, next_key = first key not returned', async () => {
    const page = await paginate(store(), enc.encode('p/'), undefined, { map: (key) => key.slice() });
    expect(page.items).toHaveLength(100);
    expect(dec.decode(page.pagination.nextKey)).toBe('100');
    expect(page.pagination.total).toBe(250n);
  });

  test('key continuation walks everything exactly once; total is 0 with a key', async () => {
    const seen: string[] = [];
    let next: Uint8Array = new Uint8Array(0);
    for (;;) {
      const page = await paginate(store(), enc.encode('p/'), req({ key: next, limit: 64n, countTotal: true }), { map: (key) => key.slice() });
      seen.push(...keys(page.items));
      if (next.length > 0) expect(page.pagination.total).toBe(0n);
      next = page.pagination.nextKey;
      if (next.length === 0) break;
    }
    expect(seen).toEqual(Array.from({ length: 250 }, (_, i) => String(i).padStart(3, '0')));
  });

  test('key and offset together are InvalidArgument with the SDK text', async () => {
    await expect(paginate(store(), enc.encode('p/'), req({ key: enc.encode('001'), offset: 1n }), { map: (key) => key })).rejects.toThrow(new GrpcError('InvalidArgument', 'invalid request, either offset or key is expected, got both'));
  });

  test('reverse with and without a key', async () => {
    const page = await paginate(store(), enc.encode('p/'), req({ limit: 3n, reverse: true }), { map: (key) => key.slice() });
    expect(keys(page.items)).toEqual(['249', '248', '247']);
    const next = await paginate(store(), enc.encode('p/'), req({ limit: 3n, reverse: true, key: page.pagination.nextKey }), { map: (key) => key.slice() });
    expect(keys(next.items)).toEqual(['246', '245', '244']);
  });

  test('filtered: offsets, limits and totals count only hits', async () => {
    const page = await paginate(store(), enc.encode('p/'), req({ offset: 2n, limit: 3n, countTotal: true }), { map: (key) => key.slice(), filter: (_key, value) => value[0] === 1 });
    expect(keys(page.items)).toEqual(['005', '007', '009']);
    expect(page.pagination.total).toBe(125n);
    expect(dec.decode(page.pagination.nextKey)).toBe('011');
  });

  test('paginateList over in-memory entries', () => {
    const entries = ['a', 'b', 'c', 'd'].map((key) => [enc.encode(key), key] as const);
    const page = paginateList(entries, req({ limit: 2n, countTotal: true }));
    expect(page.items).toEqual(['a', 'b']);
    expect(dec.decode(page.pagination.nextKey)).toBe('c');
    expect(page.pagination.total).toBe(4n);
    expect(paginateList(entries, req({ key: enc.encode('c') })).items).toEqual(['c', 'd']);
  });
});
