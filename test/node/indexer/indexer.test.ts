/**
 * The tx and block indexers, run over the in-memory database and a real LevelDB (one contract for
 * both), checked against a brute-force oracle; plus the indexer service's ordering guarantee.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AbciEvent, ExecTxResult, ResponseFinalizeBlock } from '../../../src/node/abci/types.js';
import { EventBus } from '../../../src/node/consensus/events.js';
import type { Block, BlockId } from '../../../src/node/consensus/types/block.js';
import { sha256, toHexLower, toHexUpper } from '../../../src/node/consensus/types/bytes.js';
import { memoryDatabase, openDatabase, type Database } from '../../../src/node/store/db/database.js';
import { KvBlockIndexer, NullBlockIndexer } from '../../../src/node/indexer/blockIndex.js';
import { IndexerService } from '../../../src/node/indexer/service.js';
import { KvTxIndexer, NullTxIndexer, type IndexBatch } from '../../../src/node/indexer/txIndex.js';
import { matchEventConditions, Query } from '../../../src/node/indexer/query.js';
import type { SearchOptions } from '../../../src/node/indexer/paging.js';
import type { BlockStoreReader } from '../../../src/node/consensus/store/blockStore.js';
import type { StateStoreReader } from '../../../src/node/consensus/store/stateStore.js';
import { indexLagging } from '../../../src/node/rpc/core/txs.js';
import { FaultyDatabase } from '../../helpers/faultyDb.js';

const enc = new TextEncoder();
const attr = (key: string, value: string, index = true): { key: string; value: string; index: boolean } => ({ key, value, index });

interface OracleTx {
  height: number;
  index: number;
  hash: string;
  events: AbciEvent[];
  code: number;
}

function txEvents(h: number, i: number): AbciEvent[] {
  const sender = `s${h % 3}`;
  const recipient = `r${(h * 7 + i) % 5}`;
  const amount = `${(h * 13 + i * 7) % 1000}attotoken`;
  return [
    { type: 'message', attributes: [attr('action', '/cosmos.bank.v1beta1.MsgSend'), attr('sender', sender), attr('module', 'bank')] },
    { type: 'transfer', attributes: [attr('recipient', 'fee_collector'), attr('sender', sender), attr('amount', '5attotoken')] },
    { type: 'transfer', attributes: [attr('recipient', recipient), attr('sender', sender), attr('amount', amount)] },
    { type: 'message', attributes: [attr('memo', `memo-${h}-${i}`, false)] },
    ...(i % 4 === 0 ? [{ type: 'special', attributes: [attr('flag', 'yes'), attr('when', `2024-01-${String((h % 28) + 1).padStart(2, '0')}`)] }] : []),
  ];
}

function makeTx(h: number, i: number): Uint8Array {
  return enc.encode(`tx-${h}-${i}`);
}

function result(events: AbciEvent[], code = 0): ExecTxResult {
  return { code, data: enc.encode('ok'), log: code ? 'failed' : '', info: '', gasWanted: 100n, gasUsed: 50n, events, codespace: code ? 'sdk' : '' };
}

function blockEvents(h: number): AbciEvent[] {
  return [
    { type: 'mint', attributes: [attr('amount', String(h * 10)), attr('mode', 'BeginBlock')] },
    { type: 'parity', attributes: [attr('value', h % 2 ? 'odd' : 'even'), attr('secret', 'x', false)] },
  ];
}

const HEIGHTS = 60;
const txsPerBlock = (h: number): number => (h % 5 === 0 ? 0 : (h % 4) + 1);

async function populate(db: Database): Promise<{ tx: KvTxIndexer; block: KvBlockIndexer; oracle: OracleTx[] }> {
  const tx = new KvTxIndexer(db);
  const block = new KvBlockIndexer(db);
  const oracle: OracleTx[] = [];
  for (let h = 1; h <= HEIGHTS; h++) {
    const txs: Uint8Array[] = [];
    const results: ExecTxResult[] = [];
    for (let i = 0; i < txsPerBlock(h); i++) {
      const events = txEvents(h, i);
      const t = makeTx(h, i);
      txs.push(t);
      results.push(result(events));
      oracle.push({ height: h, index: i, hash: toHexUpper(sha256(t)), events, code: 0 });
    }
    const batch: IndexBatch = { ops: [], onCommit: [] };
    tx.stageBlock(h, txs, results, batch);
    block.stageBlock(h, blockEvents(h), batch);
    await db.batch(batch.ops);
    for (const f of batch.onCommit) f();
  }
  return { tx, block, oracle };
}

/** Brute force: conditions on tx.height as numbers, tm.event as 'Tx', the rest per event. */
function oracleSearch(oracle: OracleTx[], text: string): OracleTx[] {
  const q = Query.parse(text);
  return oracle.filter((t) => {
    const attrs = q.conditions.filter((c) => c.tag !== 'tx.height' && c.tag !== 'tm.event' && c.tag !== 'tx.hash');
    for (const c of q.conditions) {
      if (c.tag === 'tx.height' && !c.matches(String(t.height))) return false;
      if (c.tag === 'tm.event' && !c.matches('Tx')) return false;
      if (c.tag === 'tx.hash' && c.operand!.text.toUpperCase() !== t.hash) return false;
    }
    return attrs.length === 0 || matchEventConditions(attrs, t.events, true);
  });
}

const opts = (page: number | undefined, perPage: number, orderBy: 'asc' | 'desc' = 'asc'): SearchOptions => ({ perPage, orderBy, ...(page === undefined ? {} : { page }) });

for (const kind of ['memory', 'leveldb'] as const) {
  describe(`kv indexers over ${kind} database`, () => {
    let db: Database;
    let dir = '';
    let tx: KvTxIndexer;
    let block: KvBlockIndexer;
    let oracle: OracleTx[];

    beforeAll(async () => {
      if (kind === 'memory') db = memoryDatabase();
      else {
        dir = await mkdtemp(join(tmpdir(), 'tokend-indexer-'));
        db = await openDatabase(join(dir, 'db'));
      }
      ({ tx, block, oracle } = await populate(db));
    });

    afterAll(async () => {
      await db.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('reports the indexed range', () => {
      expect(tx.indexedRange()).toEqual({ earliest: 1, latest: HEIGHTS, count: oracle.length });
      expect(block.indexedRange()).toEqual({ earliest: 1, latest: HEIGHTS, count: HEIGHTS });
      expect(block.has(HEIGHTS)).toBe(true);
      expect(block.has(HEIGHTS + 1)).toBe(false);
    });

    it('gets a tx by hash with its result', () => {
      const t = oracle[17]!;
      const got = tx.get(Buffer.from(t.hash, 'hex'))!;
      expect(got.height).toBe(t.height);
      expect(got.index).toBe(t.index);
      expect(new TextDecoder().decode(got.tx)).toBe(`tx-${t.height}-${t.index}`);
      expect(got.result.events).toEqual(t.events);
      expect(got.result.gasWanted).toBe(100n);
      expect(tx.get(new Uint8Array(32))).toBeUndefined();
      expect(() => tx.get(new Uint8Array(0))).toThrow('transaction hash cannot be empty');
    });

    const queries = [
      "transfer.recipient='r3'",
      "transfer.recipient='fee_collector'",
      "message.sender='s1'",
      "transfer.recipient='r2' AND message.sender='s0'",
      "transfer.recipient='r2' AND transfer.sender='s2'",
      "transfer.recipient='r1' AND transfer.amount='5attotoken'",
      "transfer.recipient='r4' AND tx.height>=20 AND tx.height<45",
      "transfer.recipient='r4' AND tx.height=33",
      "transfer.recipient='r4' AND tx.height > 12.5 AND tx.height <= 30",
      'transfer.amount > 900',
      'transfer.amount >= 500 AND transfer.amount < 510',
      "transfer.amount > 900 AND transfer.recipient='r0'",
      "special.flag EXISTS",
      "special.when >= DATE 2024-01-20",
      "transfer.recipient CONTAINS 'r'",
      "transfer.recipient CONTAINS '3' AND tx.height < 30",
      "tm.event='Tx'",
      "tm.event='Tx' AND tx.height > 50",
      "tm.event='Tx' AND transfer.recipient='r3'",
      "tm.event='NewBlock'",
      'tx.height = 7',
      'tx.height >= 58',
      "message.memo='memo-1-0'",
      "nothing.here='x'",
      "transfer.recipient='r3' AND transfer.recipient='r4'",
    ];

    it.each(queries)('search %s matches the oracle (totals, order, every page)', async (text) => {
      const expected = oracleSearch(oracle, text);
      const q = Query.parse(text);
      for (const perPage of [7, 100]) {
        for (const orderBy of ['asc', 'desc'] as const) {
          const ordered = orderBy === 'asc' ? expected : [...expected].reverse();
          const pages = Math.max(1, Math.ceil(expected.length / perPage));
          for (let page = 1; page <= pages; page++) {
            const res = await tx.search(q, opts(page, perPage, orderBy));
            expect(res.total).toBe(expected.length);
            expect(res.items.map((i) => `${i.height}/${i.index}`)).toEqual(ordered.slice((page - 1) * perPage, page * perPage).map((t) => `${t.height}/${t.index}`));
          }
        }
      }
    });

    it('tx.hash is a direct lookup (either case), still checked against the other conditions', async () => {
      const t = oracle[5]!;
      const byUpper = await tx.search(Query.parse(`tx.hash='${t.hash}'`), opts(undefined, 30));
      expect(byUpper.items.map((i) => toHexUpper(i.hash))).toEqual([t.hash]);
      const byLower = await tx.search(Query.parse(`tx.hash='${t.hash.toLowerCase()}' AND tm.event='Tx'`), opts(undefined, 30));
      expect(byLower.total).toBe(1);
      const contradicted = await tx.search(Query.parse(`tx.hash='${t.hash}' AND tx.height=${t.height + 1}`), opts(undefined, 30));
      expect(contradicted.total).toBe(0);
      await expect(tx.search(Query.parse("tx.hash='zz'"), opts(undefined, 30))).rejects.toThrow(/error during searching for a hash in the query/);
    });

    it('rejects pages out of range with CometBFT wording', async () => {
      const q = Query.parse("transfer.recipient='r3'");
      const total = oracleSearch(oracle, "transfer.recipient='r3'").length;
      const pages = Math.ceil(total / 10);
      await expect(tx.search(q, opts(pages + 1, 10))).rejects.toThrow(`page should be within [1, ${pages}] range, given ${pages + 1}`);
      await expect(tx.search(q, opts(0, 10))).rejects.toThrow(`page should be within [1, ${pages}] range, given 0`);
      // An empty result still has one (empty) page.
      expect((await tx.search(Query.parse("a.b='none'"), opts(1, 10))).items).toEqual([]);
      await expect(tx.search(Query.parse("a.b='none'"), opts(2, 10))).rejects.toThrow('page should be within [1, 1] range, given 2');
    });

    it('block search: finalize_block_events by type.key and block.height, desc or asc', async () => {
      const odd = await block.search(Query.parse("parity.value='odd'"), opts(1, 100, 'desc'));
      expect(odd.total).toBe(HEIGHTS / 2);
      expect(odd.items.slice(0, 3)).toEqual([59, 57, 55]);
      const window = await block.search(Query.parse("parity.value='even' AND block.height > 10 AND block.height <= 20"), opts(1, 100, 'asc'));
      expect(window.items).toEqual([12, 14, 16, 18, 20]);
      const ranged = await block.search(Query.parse('mint.amount >= 550'), opts(1, 100, 'asc'));
      expect(ranged.items).toEqual([55, 56, 57, 58, 59, 60]);
      const exact = await block.search(Query.parse('block.height = 7'), opts(undefined, 30, 'desc'));
      expect(exact).toEqual({ total: 1, items: [7] });
      const all = await block.search(Query.parse("tm.event='NewBlock'"), opts(2, 25, 'desc'));
      expect(all.total).toBe(HEIGHTS);
      expect(all.items[0]).toBe(35);
      expect((await block.search(Query.parse("parity.secret='x'"), opts(1, 10, 'asc'))).total).toBe(0);
      const sameEvent = await block.search(Query.parse("mint.amount=100 AND mint.mode='BeginBlock'"), opts(1, 10, 'asc'));
      expect(sameEvent.items).toEqual([10]);
    });
  });
}

describe('kv indexers: staging a block in steps', () => {
  it('pauses while writing a big block\'s counters, and stages the same operations as in one go', () => {
    const count = 300;
    const txs = Array.from({ length: count }, (_, i) => makeTx(1, i));
    // Two values of their own per tx (as tx.acc_seq and tx.signature are): 600+ distinct counters.
    const results = txs.map((_, i) => result([...txEvents(1, i), { type: 'tx', attributes: [attr('acc_seq', `a/${i}`), attr('signature', `s/${i}`)] }]));
    const whole: IndexBatch = { ops: [], onCommit: [] };
    new KvTxIndexer(memoryDatabase()).stageBlock(1, txs, results, whole);
    const stepped: IndexBatch = { ops: [], onCommit: [] };
    const steps = new KvTxIndexer(memoryDatabase()).stageBlockSteps(1, txs, results, stepped);
    // Operations staged per step, after the last tx's own step.
    const afterLastTx: number[] = [];
    let pauses = 0;
    for (let step = steps.next(); step.done !== true; step = steps.next()) {
      pauses++;
      if (pauses >= count) afterLastTx.push(stepped.ops.length);
    }
    // One pause between txs, then more while the block's distinct counters are written.
    expect(pauses).toBeGreaterThanOrEqual(count - 1 + 2);
    expect(afterLastTx.length).toBeGreaterThan(1);
    const key = (op: { key: Uint8Array; value?: Uint8Array }) => `${toHexLower(op.key)}=${toHexLower(op.value ?? new Uint8Array(0))}`;
    expect(stepped.ops.map(key)).toEqual(whole.ops.map(key));
  });
});

describe('kv indexers: persistence and edge cases', () => {
  it('keeps counters and ranges across reopening, and continues the ordinal index', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tokend-indexer-'));
    try {
      let db = await openDatabase(join(dir, 'db'));
      const { oracle } = await populate(db);
      await db.close();
      db = await openDatabase(join(dir, 'db'));
      const tx = new KvTxIndexer(db);
      expect(tx.indexedRange()).toEqual({ earliest: 1, latest: HEIGHTS, count: oracle.length });
      const events = txEvents(1, 1); // recipient r3
      const batch: IndexBatch = { ops: [], onCommit: [] };
      tx.stageBlock(HEIGHTS + 1, [enc.encode('late')], [result(events)], batch);
      await db.batch(batch.ops);
      for (const f of batch.onCommit) f();
      const res = await tx.search(Query.parse("transfer.recipient='r3'"), opts(1, 1, 'desc'));
      expect(res.total).toBe(oracleSearch(oracle, "transfer.recipient='r3'").length + 1);
      expect(res.items[0]!.height).toBe(HEIGHTS + 1);
      expect(() => tx.stageBlock(HEIGHTS, [], [], { ops: [], onCommit: [] })).toThrow(/cannot index height 60 again/);
      await db.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('the counter cache stays bounded over many blocks of per-tx unique values, and counts stay right', async () => {
    const db = memoryDatabase();
    const small = new KvTxIndexer(db, undefined, 8);
    const recipients = 20;
    const expected = new Map<string, number>();
    for (let h = 1; h <= 300; h++) {
      const txs: Uint8Array[] = [];
      const results: ExecTxResult[] = [];
      for (let i = 0; i < 5; i++) {
        const recipient = `r${(h * 5 + i) % recipients}`;
        expected.set(recipient, (expected.get(recipient) ?? 0) + 1);
        txs.push(enc.encode(`unique-${h}-${i}`));
        results.push(
          result([
            { type: 'tx', attributes: [attr('acc_seq', `acct${i}/${h}`), attr('signature', `sig-${h}-${i}`)] },
            { type: 'transfer', attributes: [attr('recipient', recipient)] },
          ]),
        );
      }
      const batch: IndexBatch = { ops: [], onCommit: [] };
      small.stageBlock(h, txs, results, batch);
      await db.batch(batch.ops);
      for (const f of batch.onCommit) f();
      expect(small.cachedCounters).toBeLessThanOrEqual(8);
    }
    for (const [recipient, count] of expected) {
      expect((await small.search(Query.parse(`transfer.recipient='${recipient}'`), opts(1, 1))).total).toBe(count);
    }
    expect((await small.search(Query.parse("tx.signature='sig-7-3'"), opts(1, 1))).total).toBe(1);
    // With the default size, the 1,500 unique signatures and sequences are never cached: only the 20 recipients are.
    const fresh = memoryDatabase();
    const unbounded = new KvTxIndexer(fresh);
    for (let h = 1; h <= 300; h++) {
      const batch: IndexBatch = { ops: [], onCommit: [] };
      unbounded.stageBlock(
        h,
        [enc.encode(`u-${h}`)],
        [result([{ type: 'tx', attributes: [attr('signature', `sig-${h}`), attr('acc_seq', `a/${h}`)] }, { type: 'transfer', attributes: [attr('recipient', `r${h % recipients}`)] }])],
        batch,
      );
      await fresh.batch(batch.ops);
      for (const f of batch.onCommit) f();
    }
    expect(unbounded.cachedCounters).toBe(recipients);
  });

  it('a failed re-inclusion does not hide the successful result; reserved keys are skipped', async () => {
    const db = memoryDatabase();
    const tx = new KvTxIndexer(db);
    const t = enc.encode('dup');
    for (const [h, code] of [
      [1, 0],
      [2, 5],
    ] as const) {
      const batch: IndexBatch = { ops: [], onCommit: [] };
      tx.stageBlock(h, [t], [result([{ type: 'tx', attributes: [attr('height', '999'), attr('ok', String(code))] }], code)], batch);
      await db.batch(batch.ops);
      for (const f of batch.onCommit) f();
    }
    const got = tx.get(sha256(t))!;
    expect(got.height).toBe(1);
    expect(got.result.code).toBe(0);
    expect((await tx.search(Query.parse('tx.height = 999'), opts(1, 10))).total).toBe(0);
    expect((await tx.search(Query.parse("tx.ok = '5'"), opts(1, 10))).total).toBe(1);
  });

  it('null indexers say indexing is disabled', async () => {
    await expect(new NullTxIndexer().search()).rejects.toThrow('transaction indexing is disabled');
    await expect(new NullBlockIndexer().search()).rejects.toThrow('block indexing is disabled');
    expect(new NullTxIndexer().get()).toBeUndefined();
  });
});

// ---- IndexerService ----

function fakeBlock(height: number, txs: Uint8Array[]): Block {
  return { header: { height } as Block['header'], data: { txs }, evidence: [], lastCommit: { height: height - 1, round: 0, blockId: fakeBlockId(), signatures: [] } };
}

function fakeBlockId(): BlockId {
  return { hash: new Uint8Array(32), partSetHeader: { total: 1, hash: new Uint8Array(32) } };
}

/** Stores holding `blocks`; the chain state says `committed()` is the last committed height (default: the highest block). */
function fakeStores(blocks: Map<number, { block: Block; response: ResponseFinalizeBlock }>, committed?: () => number): { blockStore: BlockStoreReader; stateStore: StateStoreReader } {
  const heights = (): number[] => [...blocks.keys()];
  const blockStore = {
    base: () => (blocks.size ? Math.min(...heights()) : 0),
    height: () => (blocks.size ? Math.max(...heights()) : 0),
    loadBlock: (h: number) => blocks.get(h)?.block,
  } as unknown as BlockStoreReader;
  const stateStore = {
    loadFinalizeBlockResponse: (h: number) => blocks.get(h)?.response,
    load: () => ({ lastBlockHeight: committed?.() ?? (blocks.size ? Math.max(...heights()) : 0) }),
  } as unknown as StateStoreReader;
  return { blockStore, stateStore };
}

function makeHeight(h: number): { block: Block; response: ResponseFinalizeBlock } {
  const txs = [enc.encode(`svc-${h}-0`), enc.encode(`svc-${h}-1`)];
  return {
    block: fakeBlock(h, txs),
    response: { events: blockEvents(h), txResults: txs.map((_, i) => result(txEvents(h, i))), validatorUpdates: [], appHash: new Uint8Array(32) },
  };
}

function publishBlock(bus: EventBus, h: number, data: { block: Block; response: ResponseFinalizeBlock }): void {
  bus.publishNewBlock({ block: data.block, blockId: fakeBlockId(), resultFinalizeBlock: data.response });
  bus.publishNewBlockHeader({ header: data.block.header });
  data.block.data.txs.forEach((tx, index) => bus.publishTx({ height: h, index, tx, result: data.response.txResults[index]! }));
}

describe('IndexerService', () => {
  it('catches up stored heights on start, then indexes each block before relaying its events', async () => {
    const blocks = new Map<number, { block: Block; response: ResponseFinalizeBlock }>();
    for (let h = 1; h <= 3; h++) blocks.set(h, makeHeight(h));
    const { blockStore, stateStore } = fakeStores(blocks);
    const bus = new EventBus();
    const db = memoryDatabase();
    const service = new IndexerService({ db, blockStore, stateStore, eventBus: bus });
    await service.start();
    await service.whenIdle();
    expect(service.txIndexer.indexedRange()).toEqual({ earliest: 1, latest: 3, count: 6 });

    const seen: string[] = [];
    service.eventBus.subscribe((event) => {
      if (event.type === 'Tx') {
        // The tx is already queryable when its event arrives.
        const found = service.txIndexer.get(sha256(event.data.tx));
        seen.push(`${event.type}:${event.data.height}:${found ? 'indexed' : 'MISSING'}`);
      } else if (event.type === 'NewBlock') {
        seen.push(`${event.type}:${event.data.block.header.height}:${service.blockIndexer.has(event.data.block.header.height) ? 'indexed' : 'MISSING'}`);
      } else seen.push(event.type);
    });
    const five = makeHeight(5);
    const waiter = service.eventBus.waitForTx(toHexLower(sha256(five.block.data.txs[1]!)), 5000);
    // Height 4 reaches the store but its event is lost: the service fills the gap from the store.
    blocks.set(4, makeHeight(4));
    blocks.set(5, five);
    publishBlock(bus, 5, five);
    const data = await waiter.promise;
    expect(data.height).toBe(5);
    await service.whenIdle();
    expect(seen).toEqual(['NewBlock:5:indexed', 'NewBlockHeader', 'Tx:5:indexed', 'Tx:5:indexed']);
    expect(service.txIndexer.indexedRange()).toEqual({ earliest: 1, latest: 5, count: 10 });
    expect((await service.blockIndexer.search(Query.parse('block.height >= 1'), opts(1, 100, 'asc'))).items).toEqual([1, 2, 3, 4, 5]);

    // Heights already indexed are skipped (idempotent direct calls).
    await service.indexBlock(5, five.block.data.txs, five.response.txResults, five.response.events);
    expect(service.txIndexer.indexedRange().count).toBe(10);

    const late = service.eventBus.waitForTx('AB'.repeat(32), 50);
    await expect(late.promise).rejects.toThrow('timed out waiting for tx to be included in a block');
    await service.stop();
  });

  it('writes the same entries through a write batch (memory, LevelDB) as through one array of operations', async () => {
    const blocks = new Map<number, { block: Block; response: ResponseFinalizeBlock }>();
    for (let h = 1; h <= 4; h++) blocks.set(h, makeHeight(h));
    const { blockStore, stateStore } = fakeStores(blocks);
    const dir = await mkdtemp(join(tmpdir(), 'tokend-indexer-batch-'));
    // FaultyDatabase has no openBatch: the service falls back to Database.batch with the array.
    const dbs: Database[] = [memoryDatabase(), await openDatabase(join(dir, 'db')), new FaultyDatabase(memoryDatabase())];
    expect(dbs.map((db) => db.openBatch !== undefined)).toEqual([true, true, false]);
    const dumps: string[][] = [];
    try {
      for (const db of dbs) {
        const service = new IndexerService({ db, blockStore, stateStore, eventBus: new EventBus() });
        await service.start();
        await service.whenIdle();
        expect(service.txIndexer.indexedRange()).toEqual({ earliest: 1, latest: 4, count: 8 });
        await service.stop();
        const dump: string[] = [];
        for await (const [key, value] of db.entries()) dump.push(`${toHexLower(key)}=${toHexLower(value)}`);
        dumps.push(dump);
      }
      expect(dumps[0]!.length).toBeGreaterThan(20);
      expect(dumps[1]).toEqual(dumps[0]);
      expect(dumps[2]).toEqual(dumps[0]);
    } finally {
      for (const db of dbs) await db.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a block whose indexing failed is indexed before a lookup answers "not found"', async () => {
    const blocks = new Map<number, { block: Block; response: ResponseFinalizeBlock }>();
    const { blockStore, stateStore } = fakeStores(blocks);
    const bus = new EventBus();
    const db = new FaultyDatabase(memoryDatabase());
    const service = new IndexerService({ db, blockStore, stateStore, eventBus: bus });
    await service.start();
    await service.whenIdle();
    const one = makeHeight(1);
    blocks.set(1, one);
    db.fail('ENOSPC');
    publishBlock(bus, 1, one);
    await service.whenIdle();
    const hash = sha256(one.block.data.txs[0]!);
    expect(service.txIndexer.get(hash)).toBeUndefined();
    db.heal();
    // What the RPC `tx` / `tx_search` and the gRPC GetTx do before saying "not found".
    const env = { txIndexer: service.txIndexer, blockStore, catchUpIndex: () => service.catchUpIndex() };
    const lagging = indexLagging(env);
    expect(lagging).toBeDefined();
    await lagging;
    expect(service.txIndexer.get(hash)?.height).toBe(1);
    expect(indexLagging(env)).toBeUndefined();
    await service.stop();
  });

  it('a lookup does not index a block whose results are stored but whose state is not committed yet', async () => {
    const blocks = new Map<number, { block: Block; response: ResponseFinalizeBlock }>();
    let committed = 0;
    const { blockStore, stateStore } = fakeStores(blocks, () => committed);
    const service = new IndexerService({ db: memoryDatabase(), blockStore, stateStore, eventBus: new EventBus() });
    await service.start();
    const one = makeHeight(1);
    blocks.set(1, one); // stored and finalized, the app still committing
    const hash = sha256(one.block.data.txs[0]!);
    await service.catchUpIndex();
    expect(service.txIndexer.get(hash)).toBeUndefined();
    committed = 1;
    await service.catchUpIndex();
    expect(service.txIndexer.get(hash)?.height).toBe(1);
    await service.stop();
  });

  it('with indexer "null" relays events without indexing', async () => {
    const bus = new EventBus();
    const { blockStore, stateStore } = fakeStores(new Map());
    const service = new IndexerService({ db: memoryDatabase(), blockStore, stateStore, eventBus: bus, options: { indexer: 'null' } });
    await service.start();
    const got: string[] = [];
    service.eventBus.on('NewBlock', (d) => got.push(String(d.block.header.height)));
    publishBlock(bus, 1, makeHeight(1));
    await service.whenIdle();
    expect(got).toEqual(['1']);
    expect(service.txIndexer.enabled).toBe(false);
    await expect(service.txIndexer.search(Query.parse('a.b=1'), opts(1, 10))).rejects.toThrow('transaction indexing is disabled');
    await service.stop();
  });
});
