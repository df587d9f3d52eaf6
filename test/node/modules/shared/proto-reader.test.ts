import { ProtoReader, ProtoWriter } from '../../../../src/node/modules/shared/proto.js';

function readAll(bytes: Uint8Array): [number, number, bigint | Uint8Array][] {
  const out: [number, number, bigint | Uint8Array][] = [];
  const reader = new ProtoReader(bytes);
  while (reader.next()) out.push([reader.field, reader.wireType, reader.wireType === 0 ? reader.varint : reader.bytes]);
  return out;
}

describe('ProtoReader', () => {
  it('reads varints of every width up to u64 max, as written', () => {
    const values = [1n, 127n, 128n, 300n, 2n ** 28n, 2n ** 35n - 1n, 2n ** 42n, 2n ** 49n - 1n, 2n ** 49n, 2n ** 56n + 5n, 2n ** 63n, 2n ** 64n - 1n];
    const writer = new ProtoWriter();
    values.forEach((value, i) => writer.uintField(i + 1, value));
    expect(readAll(writer.finish())).toEqual(values.map((value, i) => [i + 1, 0, value]));
  });

  it('reads large field numbers, length-delimited payloads and skips fixed-width fields', () => {
    const payload = new Uint8Array([1, 2, 3]);
    const writer = new ProtoWriter().bytesField(536_870_911, payload);
    const fixed64 = new Uint8Array([(2 << 3) | 1, 0, 0, 0, 0, 0, 0, 0, 0]);
    const fixed32 = new Uint8Array([(3 << 3) | 5, 0, 0, 0, 0]);
    const bytes = new Uint8Array([...writer.finish(), ...fixed64, ...fixed32, 0x20, 0x05]);
    expect(readAll(bytes)).toEqual([[536_870_911, 2, payload], [4, 0, 5n]]);
  });

  it('rejects truncated and over-long varints and truncated payloads', () => {
    expect(() => readAll(new Uint8Array([0x08, 0x80]))).toThrow('truncated varint');
    expect(() => readAll(new Uint8Array([0x08, ...new Array<number>(10).fill(0xff), 0x01]))).toThrow('varint too long');
    expect(() => readAll(new Uint8Array([0x0a, 0x05, 0x01]))).toThrow('truncated field');
    expect(() => readAll(new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]))).toThrow('length too large');
  });
});

describe('ProtoWriter strings', () => {
  it('writes ASCII, non-ASCII and long strings as UTF-8, byte for byte as Buffer encodes them, growing its buffer', () => {
    const texts = ['', 'token1qypqxpq9qcrsszg2pvxq6rs0zqg3yyc5lzv7xu', '/ethermint.types.v1.EthAccount', 'héllo ✓ 𝄞', 'x'.repeat(127), 'y'.repeat(128), 'z'.repeat(300), `${'a'.repeat(126)}é`, '\u007f\u0000'];
    for (const text of texts) {
      const bytes = new ProtoWriter(4).stringElement(3, text).finish();
      const utf8 = Buffer.from(text, 'utf8');
      const reader = new ProtoReader(bytes);
      expect(reader.next()).toBe(true);
      expect([reader.field, reader.wireType]).toEqual([3, 2]);
      expect(Buffer.from(reader.bytes).equals(utf8)).toBe(true);
      expect(reader.next()).toBe(false);
    }
  });
});
