/**
 * Key codecs: how a typed key becomes store-key bytes whose byte order is the key order.
 *
 * Every codec has two encodings (as cosmossdk.io/collections has):
 *  - terminal: the key is the last part of the store key, so it may run to the end (a string is
 *    its UTF-8 bytes, a byte string is itself);
 *  - non-terminal: another part follows, so the encoding must say where it ends (a string gets a
 *    0x00 delimiter, a byte string a one-byte length prefix). Fixed-size keys encode the same way.
 *
 * Numbers are big-endian so that ranges sort by value; signed numbers have the sign bit flipped.
 * Composite keys (`pairKey`, `tripleKey`) are tuples: every part but the last uses its
 * non-terminal encoding, and a range can be restricted to the keys that start with given leading
 * parts (`KeyPrefix`).
 *
 * Encoding writes into one buffer the collection allocates, so a key costs one allocation; string
 * parts (denoms, names) have their UTF-8 bytes memoised.
 */
import { CollectionError } from './errors.js';

/** A key part decoded from a non-terminal encoding, and where the next part starts. */
export interface DecodedPart<K> {
  key: K;
  next: number;
}

export interface KeyCodec<K> {
  /** What the key is, for messages ("u64", "Pair[bytes, string]"). */
  readonly keyType: string;
  /** Bytes of the terminal encoding. */
  size(key: K): number;
  /** Writes the terminal encoding at `offset`; returns the offset after it. */
  encode(key: K, out: Uint8Array, offset: number): number;
  /** Decodes a terminal encoding spanning [offset, end). Byte-string parts are copied. */
  decode(bytes: Uint8Array, offset: number, end: number): K;
  sizeNonTerminal(key: K): number;
  encodeNonTerminal(key: K, out: Uint8Array, offset: number): number;
  decodeNonTerminal(bytes: Uint8Array, offset: number): DecodedPart<K>;
  /** Human-readable form for errors and logs. */
  stringify(key: K): string;
  /** Composite keys: bytes of the leading parts `parts` (each non-terminal). */
  prefixSize?(parts: readonly unknown[]): number;
  encodePrefix?(parts: readonly unknown[], out: Uint8Array, offset: number): number;
}

/** The leading parts of a composite key by which a range can be restricted. */
export type KeyPrefix<K> = K extends readonly [infer A, infer B, infer _C]
  ? readonly [A] | readonly [A, B]
  : K extends readonly [infer A, infer _B]
    ? readonly [A]
    : never;

function decodeError(codec: string, message: string): CollectionError {
  return new CollectionError('DECODING', `cannot decode ${codec} key: ${message}`);
}

/** A fixed-size codec encodes the same way terminal or not. */
function fixedSize<K>(keyType: string, width: number, write: (key: K, out: Uint8Array, offset: number) => void, read: (bytes: Uint8Array, offset: number) => K, stringify: (key: K) => string): KeyCodec<K> {
  const decodeNonTerminal = (bytes: Uint8Array, offset: number): DecodedPart<K> => {
    if (bytes.length - offset < width) throw decodeError(keyType, `want ${width} bytes, got ${bytes.length - offset}`);
    return { key: read(bytes, offset), next: offset + width };
  };
  return {
    keyType,
    size: () => width,
    sizeNonTerminal: () => width,
    encode(key, out, offset) {
      write(key, out, offset);
      return offset + width;
    },
    encodeNonTerminal(key, out, offset) {
      write(key, out, offset);
      return offset + width;
    },
    decode(bytes, offset, end) {
      if (end - offset !== width) throw decodeError(keyType, `want ${width} bytes, got ${end - offset}`);
      return read(bytes, offset);
    },
    decodeNonTerminal,
    stringify,
  };
}

const U64_MAX = (1n << 64n) - 1n;
const I64_OFFSET = 1n << 63n;

function writeU64(value: bigint, out: Uint8Array, offset: number): void {
  let hi = Number(value >> 32n);
  let lo = Number(value & 0xffffffffn);
  for (let i = 7; i >= 4; i--) {
    out[offset + i] = lo & 0xff;
    lo >>>= 8;
  }
  for (let i = 3; i >= 0; i--) {
    out[offset + i] = hi & 0xff;
    hi >>>= 8;
  }
}

function readU64(bytes: Uint8Array, offset: number): bigint {
  const hi = ((bytes[offset]! << 24) | (bytes[offset + 1]! << 16) | (bytes[offset + 2]! << 8) | bytes[offset + 3]!) >>> 0;
  const lo = ((bytes[offset + 4]! << 24) | (bytes[offset + 5]! << 16) | (bytes[offset + 6]! << 8) | bytes[offset + 7]!) >>> 0;
  return (BigInt(hi) << 32n) | BigInt(lo);
}

/** uint64, 8 bytes big-endian (collections.Uint64Key). */
export const u64Key: KeyCodec<bigint> = fixedSize<bigint>(
  'u64',
  8,
  (key, out, offset) => {
    if (key < 0n || key > U64_MAX) throw new CollectionError('ENCODING', `u64 key out of range: ${key}`);
    writeU64(key, out, offset);
  },
  readU64,
  (key) => key.toString(),
);

/** int64, 8 bytes big-endian two's complement with the sign bit flipped, so negatives sort first (collections.Int64Key). */
export const i64Key: KeyCodec<bigint> = fixedSize<bigint>(
  'i64',
  8,
  (key, out, offset) => {
    if (key < -I64_OFFSET || key >= I64_OFFSET) throw new CollectionError('ENCODING', `i64 key out of range: ${key}`);
    writeU64(key + I64_OFFSET, out, offset);
  },
  (bytes, offset) => readU64(bytes, offset) - I64_OFFSET,
  (key) => key.toString(),
);

/** uint32, 4 bytes big-endian (collections.Uint32Key). */
export const u32Key: KeyCodec<number> = fixedSize<number>(
  'u32',
  4,
  (key, out, offset) => {
    if (!Number.isInteger(key) || key < 0 || key > 0xffffffff) throw new CollectionError('ENCODING', `u32 key out of range: ${key}`);
    out[offset] = key >>> 24;
    out[offset + 1] = (key >>> 16) & 0xff;
    out[offset + 2] = (key >>> 8) & 0xff;
    out[offset + 3] = key & 0xff;
  },
  (bytes, offset) => ((bytes[offset]! << 24) | (bytes[offset + 1]! << 16) | (bytes[offset + 2]! << 8) | bytes[offset + 3]!) >>> 0,
  (key) => String(key),
);

/** bool, one byte 0x00 / 0x01 (collections.BoolKey). */
export const boolKey: KeyCodec<boolean> = fixedSize<boolean>(
  'bool',
  1,
  (key, out, offset) => {
    out[offset] = key ? 1 : 0;
  },
  (bytes, offset) => {
    const byte = bytes[offset];
    if (byte !== 0 && byte !== 1) throw decodeError('bool', `invalid byte ${byte}`);
    return byte === 1;
  },
  (key) => String(key),
);

// ------------------------------------------------------------------------------------ strings

const STRING_DELIMITER = 0x00;
const UTF8_MEMO_LIMIT = 10_000;
const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', { fatal: true });
const utf8Memo = new Map<string, Uint8Array>();
let lastText = '';
let lastTextBytes: Uint8Array = new Uint8Array(0);

/** UTF-8 bytes of a key string, memoised (key strings — denoms, names — repeat constantly). */
export function keyStringBytes(text: string): Uint8Array {
  if (text === lastText) return lastTextBytes;
  let bytes = utf8Memo.get(text);
  if (bytes === undefined) {
    bytes = utf8Encoder.encode(text);
    if (utf8Memo.size >= UTF8_MEMO_LIMIT) utf8Memo.clear();
    utf8Memo.set(text, bytes);
  }
  lastText = text;
  lastTextBytes = bytes;
  return bytes;
}

function decodeUtf8(bytes: Uint8Array, start: number, end: number): string {
  try {
    return utf8Decoder.decode(bytes.subarray(start, end));
  } catch {
    throw decodeError('string', 'invalid UTF-8');
  }
}

/** string: terminal = UTF-8 bytes; non-terminal = UTF-8 bytes then 0x00, so 0x00 may not occur in it (collections.StringKey). */
export const stringKey: KeyCodec<string> = {
  keyType: 'string',
  size: (key) => keyStringBytes(key).length,
  sizeNonTerminal: (key) => keyStringBytes(key).length + 1,
  encode(key, out, offset) {
    const bytes = keyStringBytes(key);
    out.set(bytes, offset);
    return offset + bytes.length;
  },
  encodeNonTerminal(key, out, offset) {
    const bytes = keyStringBytes(key);
    if (bytes.includes(STRING_DELIMITER)) {
      throw new CollectionError('ENCODING', `string key ${JSON.stringify(key)} contains the delimiter 0x00, which a non-terminal string key may not contain`);
    }
    out.set(bytes, offset);
    out[offset + bytes.length] = STRING_DELIMITER;
    return offset + bytes.length + 1;
  },
  decode: (bytes, offset, end) => decodeUtf8(bytes, offset, end),
  decodeNonTerminal(bytes, offset) {
    const at = bytes.indexOf(STRING_DELIMITER, offset);
    if (at < 0) throw decodeError('string', 'no 0x00 delimiter after a non-terminal string');
    return { key: decodeUtf8(bytes, offset, at), next: at + 1 };
  },
  stringify: (key) => key,
};

// ------------------------------------------------------------------------------------ bytes

/** The longest byte string a one-byte length prefix can describe. */
export const MAX_LENGTH_PREFIXED_BYTES = 255;

function writeLengthPrefixed(key: Uint8Array, out: Uint8Array, offset: number): number {
  if (key.length > MAX_LENGTH_PREFIXED_BYTES) {
    throw new CollectionError('ENCODING', `bytes key of ${key.length} bytes cannot be length-prefixed (max ${MAX_LENGTH_PREFIXED_BYTES})`);
  }
  out[offset] = key.length;
  out.set(key, offset + 1);
  return offset + 1 + key.length;
}

function readLengthPrefixed(keyType: string, bytes: Uint8Array, offset: number): DecodedPart<Uint8Array> {
  if (offset >= bytes.length) throw decodeError(keyType, 'missing length prefix');
  const length = bytes[offset]!;
  const end = offset + 1 + length;
  if (end > bytes.length) throw decodeError(keyType, `length prefix says ${length} bytes, ${bytes.length - offset - 1} left`);
  return { key: bytes.slice(offset + 1, end), next: end };
}

const hex = (key: Uint8Array): string => Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString('hex');

/**
 * Byte strings (addresses): terminal = the bytes as they are; non-terminal = one length byte
 * then the bytes (collections.BytesKey, sdk.AccAddressKey).
 */
export const bytesKey: KeyCodec<Uint8Array> = {
  keyType: 'bytes',
  size: (key) => key.length,
  sizeNonTerminal: (key) => key.length + 1,
  encode(key, out, offset) {
    out.set(key, offset);
    return offset + key.length;
  },
  encodeNonTerminal: writeLengthPrefixed,
  decode: (bytes, offset, end) => bytes.slice(offset, end),
  decodeNonTerminal: (bytes, offset) => readLengthPrefixed('bytes', bytes, offset),
  stringify: hex,
};

/**
 * Byte strings of one fixed length, with no length byte even when not the last part (Ethermint's
 * evm storage key: address (20) ‖ slot (32)). A key of another length cannot be encoded.
 */
export function fixedBytesKey(width: number): KeyCodec<Uint8Array> {
  return fixedSize<Uint8Array>(
    `bytes[${width}]`,
    width,
    (key, out, offset) => {
      if (key.length !== width) throw new CollectionError('ENCODING', `bytes[${width}] key of ${key.length} bytes`);
      out.set(key, offset);
    },
    (bytes, offset) => bytes.slice(offset, offset + width),
    hex,
  );
}

/**
 * Byte strings that are length-prefixed even as the last part (sdk.LengthPrefixedBytesKey,
 * sdk.LengthPrefixedAddressKey): the layout x/staking and the bank denom index keep.
 */
export const lengthPrefixedBytesKey: KeyCodec<Uint8Array> = {
  keyType: 'bytes(length-prefixed)',
  size: (key) => key.length + 1,
  sizeNonTerminal: (key) => key.length + 1,
  encode: writeLengthPrefixed,
  encodeNonTerminal: writeLengthPrefixed,
  decode(bytes, offset, end) {
    const part = readLengthPrefixed('bytes(length-prefixed)', bytes.subarray(0, end), offset);
    if (part.next !== end) throw decodeError('bytes(length-prefixed)', `${end - part.next} trailing bytes`);
    return part.key;
  },
  decodeNonTerminal: (bytes, offset) => readLengthPrefixed('bytes(length-prefixed)', bytes, offset),
  stringify: hex,
};

// ------------------------------------------------------------------------------------ composite

/** A key of two parts: part 1 non-terminal, part 2 terminal (collections.PairKeyCodec). */
export function pairKey<K1, K2>(codec1: KeyCodec<K1>, codec2: KeyCodec<K2>): KeyCodec<readonly [K1, K2]> {
  return {
    keyType: `Pair[${codec1.keyType}, ${codec2.keyType}]`,
    size: (key) => codec1.sizeNonTerminal(key[0]) + codec2.size(key[1]),
    sizeNonTerminal: (key) => codec1.sizeNonTerminal(key[0]) + codec2.sizeNonTerminal(key[1]),
    encode: (key, out, offset) => codec2.encode(key[1], out, codec1.encodeNonTerminal(key[0], out, offset)),
    encodeNonTerminal: (key, out, offset) => codec2.encodeNonTerminal(key[1], out, codec1.encodeNonTerminal(key[0], out, offset)),
    decode(bytes, offset, end) {
      const first = codec1.decodeNonTerminal(bytes.subarray(0, end), offset);
      return [first.key, codec2.decode(bytes, first.next, end)] as const;
    },
    decodeNonTerminal(bytes, offset) {
      const first = codec1.decodeNonTerminal(bytes, offset);
      const second = codec2.decodeNonTerminal(bytes, first.next);
      return { key: [first.key, second.key] as const, next: second.next };
    },
    stringify: (key) => `(${codec1.stringify(key[0])}, ${codec2.stringify(key[1])})`,
    prefixSize(parts) {
      checkPrefixLength(parts, 1, 1);
      return codec1.sizeNonTerminal(parts[0] as K1);
    },
    encodePrefix(parts, out, offset) {
      checkPrefixLength(parts, 1, 1);
      return codec1.encodeNonTerminal(parts[0] as K1, out, offset);
    },
  };
}

/** A key of three parts: parts 1 and 2 non-terminal, part 3 terminal (collections.TripleKeyCodec). */
export function tripleKey<K1, K2, K3>(codec1: KeyCodec<K1>, codec2: KeyCodec<K2>, codec3: KeyCodec<K3>): KeyCodec<readonly [K1, K2, K3]> {
  return {
    keyType: `Triple[${codec1.keyType}, ${codec2.keyType}, ${codec3.keyType}]`,
    size: (key) => codec1.sizeNonTerminal(key[0]) + codec2.sizeNonTerminal(key[1]) + codec3.size(key[2]),
    sizeNonTerminal: (key) => codec1.sizeNonTerminal(key[0]) + codec2.sizeNonTerminal(key[1]) + codec3.sizeNonTerminal(key[2]),
    encode: (key, out, offset) => codec3.encode(key[2], out, codec2.encodeNonTerminal(key[1], out, codec1.encodeNonTerminal(key[0], out, offset))),
    encodeNonTerminal: (key, out, offset) => codec3.encodeNonTerminal(key[2], out, codec2.encodeNonTerminal(key[1], out, codec1.encodeNonTerminal(key[0], out, offset))),
    decode(bytes, offset, end) {
      const bounded = bytes.subarray(0, end);
      const first = codec1.decodeNonTerminal(bounded, offset);
      const second = codec2.decodeNonTerminal(bounded, first.next);
      return [first.key, second.key, codec3.decode(bytes, second.next, end)] as const;
    },
    decodeNonTerminal(bytes, offset) {
      const first = codec1.decodeNonTerminal(bytes, offset);
      const second = codec2.decodeNonTerminal(bytes, first.next);
      const third = codec3.decodeNonTerminal(bytes, second.next);
      return { key: [first.key, second.key, third.key] as const, next: third.next };
    },
    stringify: (key) => `(${codec1.stringify(key[0])}, ${codec2.stringify(key[1])}, ${codec3.stringify(key[2])})`,
    prefixSize(parts) {
      checkPrefixLength(parts, 1, 2);
      return codec1.sizeNonTerminal(parts[0] as K1) + (parts.length === 2 ? codec2.sizeNonTerminal(parts[1] as K2) : 0);
    },
    encodePrefix(parts, out, offset) {
      checkPrefixLength(parts, 1, 2);
      const next = codec1.encodeNonTerminal(parts[0] as K1, out, offset);
      return parts.length === 2 ? codec2.encodeNonTerminal(parts[1] as K2, out, next) : next;
    },
  };
}

function checkPrefixLength(parts: readonly unknown[], min: number, max: number): void {
  if (parts.length < min || parts.length > max) {
    throw new CollectionError('ENCODING', `a key prefix has ${min === max ? min : `${min}–${max}`} part(s), got ${parts.length}`);
  }
}

const TIME_KEY_WIDTH = 29;

/**
 * A time as sdk.FormatTimeBytes writes it ("2006-01-02T15:04:05.000000000", UTC, 29 bytes), so
 * byte order is time order (the SDK's queue keys: unbonding, redelegation, validator queues).
 * The key is milliseconds since the Unix epoch (the precision block times carry here).
 */
export const timeKey: KeyCodec<number> = fixedSize<number>(
  'time',
  TIME_KEY_WIDTH,
  (key, out, offset) => {
    const text = `${new Date(key).toISOString().slice(0, 23)}000000`;
    if (text.length !== TIME_KEY_WIDTH) throw new CollectionError('ENCODING', `time key out of range: ${key}`);
    for (let i = 0; i < TIME_KEY_WIDTH; i++) out[offset + i] = text.charCodeAt(i);
  },
  (bytes, offset) => {
    const text = String.fromCharCode(...bytes.subarray(offset, offset + TIME_KEY_WIDTH));
    const ms = Date.parse(`${text.slice(0, 23)}Z`);
    if (Number.isNaN(ms)) throw decodeError('time', `not a time: ${text}`);
    return ms;
  },
  (key) => new Date(key).toISOString(),
);
