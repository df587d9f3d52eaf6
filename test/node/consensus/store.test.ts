
describe('tagged JSON codec', () => {
  test('Buffers round-trip as bytes, not as {type:"Buffer"} objects', async () => {
    const { encodeTagged, decodeTagged } = await import('../../../src/node/consensus/store/codec.js');
    const hash = Buffer.from('c52f4ca2db8dd1e6', 'hex');
    const decoded = decodeTagged<{ appHash: Uint8Array; n: bigint }>(encodeTagged({ appHash: hash, n: 5n }), 'test');
    expect(decoded.appHash).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(decoded.appHash).equals(hash)).toBe(true);
    expect(decoded.n).toBe(5n);
  });
});

describe('FinalizeBlock responses in the state store', () => {
  test('recent ones are served decoded; a new store reads the same from disk; pruned ones are gone', async () => {
    const { StateStore } = await import('../../../src/node/consensus/store/stateStore.js');
    const { memoryDatabase } = await import('../../../src/node/store/db/database.js');
    const db = memoryDatabase();
    const store = new StateStore(db);
    const response = (h: number) => ({ events: [], txResults: [{ code: 0, data: new Uint8Array([h]), log: '', info: '', gasWanted: BigInt(h), gasUsed: 1n, events: [], codespace: '' }], validatorUpdates: [], appHash: new Uint8Array([h]) });
    for (let h = 1; h <= 20; h++) await store.saveFinalizeBlockResponse(h, response(h));
    const recent = store.loadFinalizeBlockResponse(20)!;
    expect(store.loadFinalizeBlockResponse(20)).toBe(recent); // kept decoded
    expect(recent.txResults[0]!.gasWanted).toBe(20n);
    // An old height and a fresh store decode from disk, with the same content.
    expect(store.loadFinalizeBlockResponse(1)!.txResults[0]!.gasWanted).toBe(1n);
    const reopened = new StateStore(db);
    expect(reopened.loadFinalizeBlockResponse(20)).toEqual(recent);
    // A re-saved height (after a rollback) is served as saved, not as cached before.
    await store.saveFinalizeBlockResponse(20, response(42));
    expect(store.loadFinalizeBlockResponse(20)!.txResults[0]!.gasWanted).toBe(42n);
    await store.prune(1, 10);
    expect(store.loadFinalizeBlockResponse(5)).toBeUndefined();
    expect(store.loadFinalizeBlockResponse(10)).toBeDefined();
    expect(store.loadFinalizeBlockEvents(5)).toBeUndefined();
  });

  test('the decoded FinalizeBlock responses it keeps are bounded by its limit (app.toml [cache] recent-block-results), 0 keeping none', async () => {
    const { StateStore } = await import('../../../src/node/consensus/store/stateStore.js');
    const { memoryDatabase } = await import('../../../src/node/store/db/database.js');
    const { DEFAULT_RECENT_RESPONSES } = await import('../../../src/node/consensus/options.js');
    const response = (h: number) => ({ events: [], txResults: [{ code: 0, data: new Uint8Array([h]), log: '', info: '', gasWanted: BigInt(h), gasUsed: 1n, events: [], codespace: '' }], validatorUpdates: [], appHash: new Uint8Array([h]) });
    for (const limit of [0, 3, DEFAULT_RECENT_RESPONSES]) {
      const db = memoryDatabase();
      const store = limit === DEFAULT_RECENT_RESPONSES ? new StateStore(db) : new StateStore(db, limit);
      for (let h = 1; h <= 100; h++) {
        await store.saveFinalizeBlockResponse(h, response(h));
        expect(store.loadFinalizeBlockResponse(h - (h % 7))?.txResults[0]!.gasWanted ?? 0n).toBe(BigInt(h - (h % 7)));
        expect(store.recentResponseCount).toBeLessThanOrEqual(limit);
      }
      expect(store.recentResponseCount).toBe(limit);
      // Every height still reads back whole, kept or not.
      for (let h = 1; h <= 100; h++) expect(store.loadFinalizeBlockResponse(h)!.txResults[0]!.gasWanted).toBe(BigInt(h));
      expect(store.recentResponseCount).toBe(limit);
    }
  });

  test('a height\'s block-level events are stored once, served without its tx results, and pruned with it', async () => {
    const { StateStore } = await import('../../../src/node/consensus/store/stateStore.js');
    const { memoryDatabase } = await import('../../../src/node/store/db/database.js');
    const { Bucket, bucketKey } = await import('../../../src/node/store/db/buckets.js');
    const { uint64BE } = await import('../../../src/node/consensus/types/bytes.js');
    const { decodeTagged, encodeTagged } = await import('../../../src/node/consensus/store/codec.js');
    const db = memoryDatabase();
    const store = new StateStore(db);
    const blockEvents = [{ type: 'block_bloom', attributes: [{ key: 'bloom', value: '0x01', index: true }] }];
    const response = { events: blockEvents, txResults: [{ code: 0, data: new Uint8Array(0), log: '', info: '', gasWanted: 1n, gasUsed: 1n, events: [], codespace: '' }], validatorUpdates: [], appHash: new Uint8Array([3]) };
    await store.saveFinalizeBlockResponse(3, response);
    // One copy of the events: the response record holds none.
    expect(decodeTagged<{ events: unknown[] }>(db.getSync(bucketKey(Bucket.consensusFinalizeBlockResponse, uint64BE(3)))!, 'test').events).toEqual([]);
    const reopened = new StateStore(db); // nothing cached: read from the records
    expect(reopened.loadFinalizeBlockEvents(3)).toEqual(blockEvents);
    expect(reopened.loadFinalizeBlockResponse(3)).toEqual(response);
    expect(Object.keys(reopened.loadFinalizeBlockResponse(3)!)).toEqual(Object.keys(response));
    expect(reopened.loadFinalizeBlockEvents(4)).toBeUndefined();
    // A response stored before the events record existed (events inside, no record): read whole;
    // it has no events record, so a reader of the record alone gets undefined.
    await db.batch([
      { type: 'put', key: bucketKey(Bucket.consensusFinalizeBlockResponse, uint64BE(5)), value: encodeTagged(response) },
      { type: 'put', key: bucketKey(Bucket.consensusFinalizeBlockResponse, uint64BE(6)), value: encodeTagged(response) },
      { type: 'put', key: bucketKey(Bucket.consensusFinalizeBlockEvents, uint64BE(6)), value: encodeTagged(response.events) },
    ]);
    const older = new StateStore(db);
    expect(older.loadFinalizeBlockResponse(5)).toEqual(response);
    expect(older.loadFinalizeBlockEvents(5)).toBeUndefined(); // also once the response is cached
    expect(new StateStore(db).loadFinalizeBlockEvents(5)).toBeUndefined();
    // Stored while both copies were written: the same response.
    expect(new StateStore(db).loadFinalizeBlockResponse(6)).toEqual(response);
    expect(new StateStore(db).loadFinalizeBlockEvents(6)).toEqual(blockEvents);
    await reopened.prune(1, 4);
    expect(new StateStore(db).loadFinalizeBlockEvents(3)).toBeUndefined();
    expect(new StateStore(db).loadFinalizeBlockResponse(3)).toBeUndefined();
  });
});

describe('the chain state\'s last block height', () => {
  test('is decoded once per stored record and follows every rewrite of it', async () => {
    const { StateStore } = await import('../../../src/node/consensus/store/stateStore.js');
    const { memoryDatabase } = await import('../../../src/node/store/db/database.js');
    const { Bucket, bucketKey } = await import('../../../src/node/store/db/buckets.js');
    const { encodeTagged } = await import('../../../src/node/consensus/store/codec.js');
    const db = memoryDatabase();
    const store = new StateStore(db);
    expect(store.lastBlockHeight()).toBeUndefined();
    const key = bucketKey(Bucket.consensusChainState, new Uint8Array(0));
    // Written behind the store's back, as the block executor's batch does.
    await db.batch([{ type: 'put', key, value: encodeTagged({ lastBlockHeight: 5, chainId: 'x' }) }]);
    expect(store.lastBlockHeight()).toBe(5);
    expect(store.lastBlockHeight()).toBe(5);
    await db.batch([{ type: 'put', key, value: encodeTagged({ lastBlockHeight: 6, chainId: 'x' }) }]);
    expect(store.lastBlockHeight()).toBe(6);
    // A rollback writes an older state again.
    await db.batch([{ type: 'put', key, value: encodeTagged({ lastBlockHeight: 5, chainId: 'x' }) }]);
    expect(store.lastBlockHeight()).toBe(5);
  });
});
