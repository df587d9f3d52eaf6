
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
    const { encodeTagged } = await import('../../../src/node/consensus/store/codec.js');
    const db = memoryDatabase();
    const store = new StateStore(db);
    const blockEvents = [{ type: 'block_bloom', attributes: [{ key: 'bloom', value: '0x01', index: true }] }];
    const response = { events: blockEvents, txResults: [{ code: 0, data: new Uint8Array(0), log: '', info: '', gasWanted: 1n, gasUsed: 1n, events: [], codespace: '' }], validatorUpdates: [], appHash: new Uint8Array([3]) };
    await store.saveFinalizeBlockResponse(3, response);
    // One copy of the events: the response record holds none.
    const { decodeResponse, RESULTS_FORMAT } = await import('../../../src/node/consensus/store/resultsCodec.js');
    const record = db.getSync(bucketKey(Bucket.consensusFinalizeBlockResponse, uint64BE(3)))!;
    expect(record[0]).toBe(RESULTS_FORMAT);
    expect(decodeResponse(record, 'test').events).toEqual([]);
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

describe('the binary record of tx results and events', () => {
  const sample = () => ({
    events: [
      { type: 'mint', attributes: [{ key: 'amount', value: '1000', index: true }, { key: 'bonded_ratio', value: '0.5', index: false }] },
      { type: 'ünïcode ✓', attributes: [{ key: 'emoji', value: '🚀 and 中文', index: true }] },
    ],
    txResults: [
      {
        code: 0,
        data: new Uint8Array([1, 2, 3]),
        log: '',
        info: 'info',
        gasWanted: 200000n,
        gasUsed: 71234n,
        events: [
          { type: 'transfer', attributes: [{ key: 'recipient', value: 'token1abc', index: true }, { key: 'sender', value: 'token1def', index: true }, { key: 'amount', value: '1000', index: true }] },
          { type: 'message', attributes: [{ key: 'sender', value: 'token1def', index: false }] },
          { type: 'empty', attributes: [] },
        ],
        codespace: '',
      },
      { code: 5, data: new Uint8Array(0), log: 'insufficient funds: 1000 < 2000', info: '', gasWanted: 2n ** 64n - 1n, gasUsed: 2n ** 53n + 1n, events: [], codespace: 'sdk' },
    ],
    validatorUpdates: [{ pubKeyType: 'ed25519' as const, pubKey: new Uint8Array(32).fill(9), power: 10n }],
    consensusParamUpdates: { block: { maxBytes: 22020096n, maxGas: -1n } } as never,
    appHash: new Uint8Array(32).fill(4),
  });

  test('a response and its block events read back equal, strings, flags, bytes and 64-bit gas included', async () => {
    const { decodeEvents, decodeResponse, encodeEvents, encodeResponse } = await import('../../../src/node/consensus/store/resultsCodec.js');
    const response = sample();
    const back = decodeResponse(encodeResponse(response), 'test');
    expect(back).toEqual({ ...response, events: [] });
    expect(back.txResults[1]!.gasWanted).toBe(2n ** 64n - 1n);
    expect(decodeEvents(encodeEvents(response.events), 'test')).toEqual(response.events);
    // Without param updates the field stays absent, as in the response.
    const { consensusParamUpdates: _omitted, ...plain } = response;
    expect(Object.keys(decodeResponse(encodeResponse(plain), 'test'))).toEqual(['events', 'txResults', 'validatorUpdates', 'appHash']);
  });

  test('each distinct string is stored once', async () => {
    const { encodeResponse } = await import('../../../src/node/consensus/store/resultsCodec.js');
    const one = sample();
    const many = { ...one, txResults: Array.from({ length: 100 }, () => one.txResults[0]!) };
    const address = Buffer.from('token1def');
    const record = Buffer.from(encodeResponse(many));
    expect(record.indexOf(address)).toBeGreaterThan(0);
    expect(record.indexOf(address, record.indexOf(address) + 1)).toBe(-1);
  });

  test('a truncated, extended or unknown record is refused with the height named, not misread', async () => {
    const { decodeEvents, decodeResponse, encodeEvents, encodeResponse } = await import('../../../src/node/consensus/store/resultsCodec.js');
    const record = encodeResponse(sample());
    expect(() => decodeResponse(record.subarray(0, record.length - 3), 'finalize block response 7')).toThrow(/corrupt finalize block response 7 in the state store/);
    expect(() => decodeResponse(new Uint8Array([...record, 0]), 'finalize block response 7')).toThrow(/1 bytes after the end/);
    expect(() => decodeEvents(new Uint8Array([2, 0]), 'finalize block events 7')).toThrow(/unknown format 2/);
    const events = encodeEvents(sample().events);
    expect(() => decodeEvents(events.subarray(0, 5), 'finalize block events 7')).toThrow(/corrupt finalize block events 7/);
  });

  test('a reader asking while the response is being written gets the object being saved', async () => {
    const { StateStore } = await import('../../../src/node/consensus/store/stateStore.js');
    const { memoryDatabase } = await import('../../../src/node/store/db/database.js');
    const db = memoryDatabase();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const batch = db.batch.bind(db);
    // The records become readable before the synced write returns, as LevelDB's do.
    db.batch = async (ops, options) => {
      await batch(ops, options);
      await gate;
    };
    const store = new StateStore(db);
    const response = sample();
    const saving = store.saveFinalizeBlockResponse(9, response);
    expect(store.loadFinalizeBlockResponse(9)).toBe(response);
    release();
    await saving;
    expect(store.loadFinalizeBlockResponse(9)).toBe(response);
    expect(new StateStore(db).loadFinalizeBlockResponse(9)).toEqual(response);
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
