/** Key and value codecs: layouts (as cosmossdk.io/collections encodes them), order, round trips, bad input. */
import { create } from '@bufbuild/protobuf';
import { CoinSchema } from '../../../src/gen/cosmos/base/v1beta1/coin_pb.js';
import {
  CollectionError,
  boolKey,
  bytesKey,
  bytesValue,
  i64Key,
  intValue,
  lengthPrefixedBytesKey,
  markerValue,
  pairKey,
  protoBoolValue,
  protoValue,
  stringKey,
  stringValue,
  tripleKey,
  u32Key,
  u64Key,
  u64Value,
  type KeyCodec,
} from '../../../src/node/collections/index.js';
import { compareBytes } from '../../../src/node/store/bytes.js';
import { rng } from '../store/helpers.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
const fromHex = (text: string): Uint8Array => Uint8Array.from(Buffer.from(text, 'hex'));

function terminal<K>(codec: KeyCodec<K>, key: K): Uint8Array {
  const out = new Uint8Array(codec.size(key));
  expect(codec.encode(key, out, 0)).toBe(out.length);
  return out;
}

function nonTerminal<K>(codec: KeyCodec<K>, key: K): Uint8Array {
  const out = new Uint8Array(codec.sizeNonTerminal(key));
  expect(codec.encodeNonTerminal(key, out, 0)).toBe(out.length);
  return out;
}

/** Both encodings decode back, and the non-terminal one says where it ends. */
function roundTrip<K>(codec: KeyCodec<K>, key: K): void {
  const t = terminal(codec, key);
  expect(codec.decode(t, 0, t.length)).toEqual(key);
  const nt = nonTerminal(codec, key);
  const followed = Uint8Array.from([...nt, 0xaa, 0xbb]);
  expect(codec.decodeNonTerminal(followed, 0)).toEqual({ key, next: nt.length });
}

/** Sorting values and sorting their encodings give the same order. */
function expectOrderPreserved<K>(codec: KeyCodec<K>, values: K[], compare: (a: K, b: K) => number): void {
  const byValue = [...values].sort(compare).map((value) => hex(terminal(codec, value)));
  const byBytes = values.map((value) => terminal(codec, value)).sort(compareBytes).map(hex);
  expect(byBytes).toEqual(byValue);
}

const compareBigint = (a: bigint, b: bigint): number => (a < b ? -1 : a > b ? 1 : 0);

describe('key codecs', () => {
  const random = rng(7);
  const randomU64 = (): bigint => (BigInt(Math.floor(random() * 2 ** 32)) << 32n) | BigInt(Math.floor(random() * 2 ** 32));

  test('u64: 8 bytes big-endian; encoded order = numeric order; range checked', () => {
    expect(hex(terminal(u64Key, 1n))).toBe('0000000000000001');
    expect(hex(terminal(u64Key, 0x0102030405060708n))).toBe('0102030405060708');
    expect(hex(terminal(u64Key, (1n << 64n) - 1n))).toBe('ffffffffffffffff');
    const values = [0n, 1n, 255n, 256n, 65535n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 63n, (1n << 64n) - 1n, ...Array.from({ length: 200 }, randomU64)];
    expectOrderPreserved(u64Key, values, compareBigint);
    for (const value of values.slice(0, 20)) roundTrip(u64Key, value);
    expect(() => terminal(u64Key, -1n)).toThrow(new CollectionError('ENCODING', 'u64 key out of range: -1'));
    expect(() => terminal(u64Key, 1n << 64n)).toThrow(CollectionError);
    expect(() => u64Key.decode(fromHex('0102'), 0, 2)).toThrow('cannot decode u64 key: want 8 bytes, got 2');
  });

  test('i64: sign bit flipped, so negatives sort before positives', () => {
    expect(hex(terminal(i64Key, 0n))).toBe('8000000000000000');
    expect(hex(terminal(i64Key, -1n))).toBe('7fffffffffffffff');
    expect(hex(terminal(i64Key, -(2n ** 63n)))).toBe('0000000000000000');
    expect(hex(terminal(i64Key, 2n ** 63n - 1n))).toBe('ffffffffffffffff');
    const values = [0n, -1n, 1n, -(2n ** 63n), 2n ** 63n - 1n, -256n, 256n, ...Array.from({ length: 200 }, () => randomU64() - 2n ** 63n)];
    expectOrderPreserved(i64Key, values, compareBigint);
    for (const value of values.slice(0, 7)) roundTrip(i64Key, value);
    expect(() => terminal(i64Key, 2n ** 63n)).toThrow('i64 key out of range');
  });

  test('u32 and bool', () => {
    expect(hex(terminal(u32Key, 0x01020304))).toBe('01020304');
    expectOrderPreserved(u32Key, [0, 1, 255, 256, 65536, 0xffffffff, ...Array.from({ length: 100 }, () => Math.floor(random() * 2 ** 32))], (a, b) => a - b);
    roundTrip(u32Key, 0xfffffffe);
    expect(() => terminal(u32Key, -1)).toThrow('u32 key out of range: -1');
    expect(() => terminal(u32Key, 1.5)).toThrow('u32 key out of range: 1.5');
    expect([hex(terminal(boolKey, false)), hex(terminal(boolKey, true))]).toEqual(['00', '01']);
    roundTrip(boolKey, true);
    expect(() => boolKey.decode(fromHex('02'), 0, 1)).toThrow('cannot decode bool key: invalid byte 2');
  });

  test('string: UTF-8 as the last part, 0x00-terminated otherwise (and 0x00 refused there)', () => {
    expect(hex(terminal(stringKey, 'atom'))).toBe('61746f6d');
    expect(hex(nonTerminal(stringKey, 'atom'))).toBe('61746f6d00');
    roundTrip(stringKey, 'ibc/27394FB0');
    roundTrip(stringKey, 'ünïcödé');
    expect(() => nonTerminal(stringKey, 'a\u0000b')).toThrow('contains the delimiter 0x00');
    expect(() => stringKey.decodeNonTerminal(fromHex('6162'), 0)).toThrow('no 0x00 delimiter');
    expect(() => stringKey.decode(fromHex('ff'), 0, 1)).toThrow('cannot decode string key: invalid UTF-8');
    // Non-terminal strings sort as the strings do, also when one is a prefix of another.
    const words = ['a', 'ab', 'abc', 'b', 'ba', 'atom', 'atomx', 'z'];
    const byBytes = words.map((word) => nonTerminal(stringKey, word)).sort(compareBytes).map((bytes) => stringKey.decodeNonTerminal(bytes, 0).key);
    expect(byBytes).toEqual([...words].sort());
  });

  test('bytes: raw as the last part, length-prefixed otherwise; lengthPrefixedBytes always prefixed', () => {
    const address = fromHex('0102030405060708090a0b0c0d0e0f1011121314');
    expect(hex(terminal(bytesKey, address))).toBe(hex(address));
    expect(hex(nonTerminal(bytesKey, address))).toBe(`14${hex(address)}`);
    expect(hex(terminal(lengthPrefixedBytesKey, address))).toBe(`14${hex(address)}`);
    roundTrip(bytesKey, address);
    roundTrip(lengthPrefixedBytesKey, address);
    expect(() => nonTerminal(bytesKey, new Uint8Array(256))).toThrow('bytes key of 256 bytes cannot be length-prefixed (max 255)');
    expect(() => terminal(lengthPrefixedBytesKey, new Uint8Array(300))).toThrow(CollectionError);
    expect(() => bytesKey.decodeNonTerminal(fromHex('05aabb'), 0)).toThrow('length prefix says 5 bytes, 2 left');
    expect(() => lengthPrefixedBytesKey.decode(fromHex('01aabb'), 0, 3)).toThrow('1 trailing bytes');
    // Decoded bytes are copies, not views of the store's buffer.
    const stored = fromHex('14' + hex(address));
    const decoded = lengthPrefixedBytesKey.decode(stored, 0, stored.length);
    stored[1] = 0xff;
    expect(decoded[0]).toBe(1);
  });

  test('pair: (address, denom) as x/bank lays it out; prefix of the leading part', () => {
    const codec = pairKey(bytesKey, stringKey);
    const address = fromHex('aa'.repeat(20));
    expect(codec.keyType).toBe('Pair[bytes, string]');
    expect(hex(terminal(codec, [address, 'atom']))).toBe(`14${'aa'.repeat(20)}61746f6d`);
    expect(hex(nonTerminal(codec, [address, 'atom']))).toBe(`14${'aa'.repeat(20)}61746f6d00`);
    roundTrip(codec, [address, 'atom'] as const);
    const prefix = new Uint8Array(codec.prefixSize!([address]));
    codec.encodePrefix!([address], prefix, 0);
    expect(hex(prefix)).toBe(`14${'aa'.repeat(20)}`);
    expect(() => codec.prefixSize!([address, 'atom'])).toThrow('a key prefix has 1 part(s), got 2');
    expect(codec.stringify([address, 'atom'])).toBe(`(${'aa'.repeat(20)}, atom)`);
  });

  test('pair order: by first part, then second; every key of a first part lies inside its prefix range', () => {
    const codec = pairKey(u64Key, stringKey);
    const keys: (readonly [bigint, string])[] = [];
    for (const first of [0n, 1n, 2n, 256n]) for (const second of ['', 'a', 'ab', 'b']) keys.push([first, second]);
    const sorted = [...keys].sort((a, b) => compareBigint(a[0], b[0]) || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
    expect(keys.map((key) => terminal(codec, key)).sort(compareBytes).map(hex)).toEqual(sorted.map((key) => hex(terminal(codec, key))));
    const prefix = new Uint8Array(8);
    codec.encodePrefix!([1n], prefix, 0);
    const inside = keys.filter((key) => Buffer.from(terminal(codec, key)).subarray(0, 8).equals(Buffer.from(prefix)));
    expect(inside.map((key) => key[0])).toEqual([1n, 1n, 1n, 1n]);
  });

  test('triple: two non-terminal parts, prefixes of one or two parts', () => {
    const codec = tripleKey(lengthPrefixedBytesKey, bytesKey, u64Key);
    const key = [fromHex('0a0b'), fromHex('0c'), 7n] as const;
    expect(hex(terminal(codec, key))).toBe('020a0b010c0000000000000007');
    roundTrip(codec, key);
    const one = new Uint8Array(codec.prefixSize!([fromHex('0a0b')]));
    codec.encodePrefix!([fromHex('0a0b')], one, 0);
    expect(hex(one)).toBe('020a0b');
    const two = new Uint8Array(codec.prefixSize!([fromHex('0a0b'), fromHex('0c')]));
    codec.encodePrefix!([fromHex('0a0b'), fromHex('0c')], two, 0);
    expect(hex(two)).toBe('020a0b010c');
    expect(() => codec.prefixSize!([])).toThrow('a key prefix has 1–2 part(s), got 0');
  });
});

describe('value codecs', () => {
  test('protobuf message: binary encoding; shared decoding returns one object per bytes', () => {
    const plain = protoValue(CoinSchema);
    const coin = create(CoinSchema, { denom: 'atom', amount: '5' });
    const bytes = plain.encode(coin);
    expect(hex(bytes)).toBe('0a0461746f6d120135');
    expect(plain.decode(bytes)).toEqual(coin);
    expect(plain.decode(bytes)).not.toBe(plain.decode(bytes));
    const shared = protoValue(CoinSchema, { shared: true });
    expect(shared.decode(bytes)).toBe(shared.decode(bytes));
    expect(shared.decode(bytes.slice())).toBe(shared.decode(bytes)); // same content, another object
    expect(() => plain.decode(fromHex('0aff'))).toThrow(/^cannot decode cosmos.base.v1beta1.Coin value: /);
  });

  test('math.Int as decimal text (x/bank balances and supply)', () => {
    expect(Buffer.from(intValue.encode(1234567890123456789012345n)).toString()).toBe('1234567890123456789012345');
    expect(intValue.decode(Buffer.from('-42'))).toBe(-42n);
    expect(intValue.decode(intValue.encode(10n ** 30n))).toBe(10n ** 30n);
    expect(() => intValue.decode(Buffer.from('12a'))).toThrow('cannot decode math.Int value: "12a" is not an integer');
    expect(() => intValue.decode(Buffer.from((1n << 256n).toString()))).toThrow('exceeds 256 bits');
    expect(intValue.decode(Buffer.from(((1n << 256n) - 1n).toString()))).toBe((1n << 256n) - 1n);
  });

  test('math.Int: values encoded long ago (out of the recent ring) and copies of recent bytes decode by parsing, to the same amounts', () => {
    const written = Array.from({ length: 40 }, (_, i) => [BigInt(i) * 10n ** 20n + 7n, intValue.encode(BigInt(i) * 10n ** 20n + 7n)] as const);
    for (const [amount, bytes] of written) {
      expect(intValue.decode(bytes)).toBe(amount);
      expect(intValue.decode(bytes.slice())).toBe(amount);
    }
  });

  test('u64, string, bytes, BoolValue, marker', () => {
    expect(hex(u64Value.encode(258n))).toBe('0000000000000102');
    expect(u64Value.decode(fromHex('0000000000000102'))).toBe(258n);
    expect(() => u64Value.decode(fromHex('01'))).toThrow('cannot decode u64 value: want 8 bytes, got 1');
    expect(() => u64Value.encode(-1n)).toThrow('u64 value out of range: -1');
    expect(stringValue.decode(stringValue.encode('héllo'))).toBe('héllo');
    expect(() => stringValue.decode(fromHex('c3'))).toThrow('cannot decode string value: invalid UTF-8');
    const raw = fromHex('0102');
    expect(bytesValue.decode(bytesValue.encode(raw))).toBe(raw);
    // The SDK's codec.BoolValue: google.protobuf.BoolValue bytes (false is empty).
    expect(hex(protoBoolValue.encode(true))).toBe('0801');
    expect(hex(protoBoolValue.encode(false))).toBe('');
    expect([protoBoolValue.decode(fromHex('0801')), protoBoolValue.decode(new Uint8Array(0)), protoBoolValue.decode(fromHex('0800'))]).toEqual([true, false, false]);
    expect(() => protoBoolValue.decode(fromHex('08'))).toThrow(/^cannot decode google.protobuf.BoolValue value: /);
    expect(hex(markerValue.encode(true))).toBe('');
    expect(markerValue.decode(fromHex('01'))).toBe(true);
  });
});
