
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
  });
});
