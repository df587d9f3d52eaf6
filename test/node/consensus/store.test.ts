
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
