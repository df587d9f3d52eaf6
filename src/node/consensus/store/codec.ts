/**
 * Tagged JSON for state-store values: JSON with bigint as {"$n":"123"} and bytes as {"$b":base64}.
 * Readable in a debugger, exact for int64 and bytes, and independent of generated protobuf code.
 */
import { ConsensusError } from '../errors.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function replacer(this: unknown, key: string, value: unknown): unknown {
  // JSON.stringify calls Buffer#toJSON before the replacer sees the value, so look at the
  // holder's original property: a Buffer (a Uint8Array) must be tagged like any other bytes.
  const original = (this as Record<string, unknown>)[key];
  if (typeof original === 'bigint') return { $n: original.toString() };
  if (original instanceof Uint8Array) return { $b: Buffer.from(original.buffer, original.byteOffset, original.byteLength).toString('base64') };
  return value;
}

function reviver(_key: string, value: unknown): unknown {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj);
    if (keys.length === 1) {
      if (typeof obj['$n'] === 'string') return BigInt(obj['$n']);
      if (typeof obj['$b'] === 'string') return new Uint8Array(Buffer.from(obj['$b'], 'base64'));
    }
  }
  return value;
}

export function encodeTagged(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value, replacer));
}

export function decodeTagged<T>(bytes: Uint8Array, what: string): T {
  try {
    return JSON.parse(decoder.decode(bytes), reviver) as T;
  } catch (err) {
    throw new ConsensusError('STORE', `corrupt ${what} in the state store: ${(err as Error).message}`);
  }
}
