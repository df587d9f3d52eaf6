/**
 * Value codecs: how a stored value becomes bytes and back. Protobuf messages use the message's
 * binary encoding (protobuf-es schema); numbers and flags use the encodings the Cosmos SDK stores.
 *
 * Decoding is on the hot path (balances, accounts, params are read several times per tx), so the
 * codecs for immutable values (bigint, string) memoise by the identity of the stored bytes: stores
 * hand back the same Uint8Array for a value that did not change within a branch.
 */
import { fromBinary, toBinary, type DescMessage, type MessageShape } from '@bufbuild/protobuf';
import { BoolValueSchema } from '@bufbuild/protobuf/wkt';
import { bytesEqual } from '../store/bytes.js';
import { CollectionError } from './errors.js';

export interface ValueCodec<V> {
  /** What the value is, for messages ("math.Int", "cosmos.bank.v1beta1.Metadata"). */
  readonly valueType: string;
  encode(value: V): Uint8Array;
  decode(bytes: Uint8Array): V;
  stringify(value: V): string;
}

function decodeError(valueType: string, message: string, cause?: unknown): CollectionError {
  return new CollectionError('DECODING', `cannot decode ${valueType} value: ${message}`, { cause });
}

export interface ProtoValueOptions {
  /**
   * Share decoded messages between reads of the same bytes (by identity, and by content for the
   * last value seen). Only for values callers treat as immutable — params and the like.
   */
  shared?: boolean;
}

/** A protobuf message in its binary encoding (codec.CollValue). */
export function protoValue<Desc extends DescMessage>(schema: Desc, options: ProtoValueOptions = {}): ValueCodec<MessageShape<Desc>> {
  const decodeOnce = (bytes: Uint8Array): MessageShape<Desc> => {
    try {
      return fromBinary(schema, bytes);
    } catch (err) {
      throw decodeError(schema.typeName, (err as Error).message, err);
    }
  };
  const decode = options.shared ? sharedDecoder(decodeOnce) : decodeOnce;
  return {
    valueType: schema.typeName,
    encode: (value) => toBinary(schema, value),
    decode,
    stringify: (value) => JSON.stringify(value, (_key, field: unknown) => (typeof field === 'bigint' ? field.toString() : field)),
  };
}

/** Decodes once per bytes object and once per content (the last one), sharing the result. */
function sharedDecoder<V>(decode: (bytes: Uint8Array) => V): (bytes: Uint8Array) => V {
  const byObject = new WeakMap<Uint8Array, V>();
  let lastBytes: Uint8Array | undefined;
  let lastValue: V | undefined;
  return (bytes) => {
    const hit = byObject.get(bytes);
    if (hit !== undefined) return hit;
    let value: V;
    if (lastBytes !== undefined && bytesEqual(lastBytes, bytes)) value = lastValue as V;
    else {
      value = decode(bytes);
      lastBytes = bytes;
      lastValue = value;
    }
    byObject.set(bytes, value);
    return value;
  };
}

/** Bytes of an ASCII string (numbers): no encoder round trip. */
function asciiBytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

function asciiText(bytes: Uint8Array): string {
  return String.fromCharCode.apply(null, bytes as unknown as number[]);
}

const INT_TEXT = /^-?[0-9]+$/;
/** math.Int allows 256 bits of magnitude. */
const INT_MAX_BITS = 256;
/** The last few amounts encoded, by the identity of their bytes (a small ring, no WeakMap). */
const RECENT_INTS = 8;
const recentIntBytes: (Uint8Array | undefined)[] = new Array<Uint8Array | undefined>(RECENT_INTS).fill(undefined);
const recentIntValues: bigint[] = new Array<bigint>(RECENT_INTS).fill(0n);
let recentIntAt = 0;

/**
 * math.Int as decimal text (sdk.IntValue: what x/bank stores for balances and supply). The last
 * few encoded bytes objects are remembered with their amount, so a balance written by one tx and
 * read by the next (the fee collector's, every tx) decodes without parsing. The bytes are never
 * changed once made, so a hit by identity is always the same amount. (This was a WeakMap over
 * every encoded value; a sender debit, a fee-collector read and credit and a recipient credit
 * cost ~3.2 µs with it against ~0.95 µs with the ring, .scratch micro-benchmark, session 26.)
 */
export const intValue: ValueCodec<bigint> = {
  valueType: 'math.Int',
  encode(value) {
    const bytes = asciiBytes(value.toString());
    recentIntBytes[recentIntAt] = bytes;
    recentIntValues[recentIntAt] = value;
    recentIntAt = (recentIntAt + 1) % RECENT_INTS;
    return bytes;
  },
  decode(bytes) {
    for (let i = 0; i < RECENT_INTS; i++) if (recentIntBytes[i] === bytes) return recentIntValues[i]!;
    const text = asciiText(bytes);
    if (!INT_TEXT.test(text)) throw decodeError('math.Int', `"${text}" is not an integer`);
    const value = BigInt(text);
    if ((value < 0n ? -value : value) >> BigInt(INT_MAX_BITS) !== 0n) throw decodeError('math.Int', `${text} exceeds ${INT_MAX_BITS} bits`);
    return value;
  },
  stringify: (value) => value.toString(),
};

const U64_MAX = (1n << 64n) - 1n;

/** uint64, 8 bytes big-endian (collections.Uint64Value; what a Sequence stores). */
export const u64Value: ValueCodec<bigint> = {
  valueType: 'u64',
  encode(value) {
    if (value < 0n || value > U64_MAX) throw new CollectionError('ENCODING', `u64 value out of range: ${value}`);
    const out = new Uint8Array(8);
    new DataView(out.buffer).setBigUint64(0, value);
    return out;
  },
  decode(bytes) {
    if (bytes.length !== 8) throw decodeError('u64', `want 8 bytes, got ${bytes.length}`);
    return new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0);
  },
  stringify: (value) => value.toString(),
};

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', { fatal: true });

/** A string as UTF-8 (collections.StringValue). */
export const stringValue: ValueCodec<string> = {
  valueType: 'string',
  encode: (value) => utf8Encoder.encode(value),
  decode(bytes) {
    try {
      return utf8Decoder.decode(bytes);
    } catch (err) {
      throw decodeError('string', 'invalid UTF-8', err);
    }
  },
  stringify: (value) => value,
};

/** Bytes as they are (collections.BytesValue). Not copied: treat them as immutable. */
export const bytesValue: ValueCodec<Uint8Array> = {
  valueType: 'bytes',
  encode: (value) => value,
  decode: (bytes) => bytes,
  stringify: (value) => Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex'),
};

const PROTO_TRUE = Uint8Array.of(0x08, 0x01);
const EMPTY = new Uint8Array(0);

/**
 * A bool as google.protobuf.BoolValue (the SDK's codec.BoolValue, which x/bank's send-enabled
 * table uses): true = 08 01, false = no bytes at all.
 */
export const protoBoolValue: ValueCodec<boolean> = {
  valueType: 'google.protobuf.BoolValue',
  encode: (value) => (value ? PROTO_TRUE : EMPTY),
  decode(bytes) {
    if (bytes.length === 0) return false;
    if (bytes.length === 2 && bytes[0] === 0x08 && bytes[1] === 0x01) return true;
    try {
      return fromBinary(BoolValueSchema, bytes).value;
    } catch (err) {
      throw decodeError('google.protobuf.BoolValue', (err as Error).message, err);
    }
  },
  stringify: (value) => String(value),
};

/**
 * What a KeySet stores under each key: nothing (collections.NoValue). Any stored bytes decode as
 * present, so sets written with an older marker byte still read.
 */
export const markerValue: ValueCodec<true> = {
  valueType: 'marker',
  encode: () => EMPTY,
  decode: () => true,
  stringify: () => 'true',
};
