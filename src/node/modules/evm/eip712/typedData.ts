/**
 * EIP-712 typed-data hashing with the semantics of the go-ethereum version Ethermint v0.22 builds
 * on (signer/core/apitypes, v1.10.x), which is what decides whether a wallet's signature matches:
 *
 * - encodeType: the primary type, then the types it references (transitively, `[]` stripped)
 *   sorted by name, each written `Name(type1 name1,type2 name2)`; typeHash = keccak256 of that;
 * - encodeData: typeHash, then per declared field (in declaration order): a struct → keccak256 of
 *   its encodeData; an array → keccak256 of the concatenated element encodings (struct elements
 *   hashed, primitive elements as 32-byte words); `string` → keccak256(utf8); `bytes` →
 *   keccak256; `bool` → 0/1 word; `(u)intN` → the 256-bit two's complement word; `address` → the
 *   20 bytes left-padded; `bytesN` → right-padded;
 * - a message with more keys than its type has fields is refused ("there is extra data provided
 *   in the message (3 < 4)"); a value of the wrong JSON kind is "provided data '<v>' doesn't
 *   match type 't'" (Go's %v formatting of the value);
 * - the digest is keccak256(0x19 0x01 ‖ hashStruct(EIP712Domain, domain) ‖ hashStruct(primary, message)),
 *   with the domain's own field types taken from `types.EIP712Domain` (Ethermint's domain uses
 *   `string` for verifyingContract and salt, as MetaMask's eth_signTypedData_v4 allows).
 *
 * Values are JSON values as `JSON.parse` gives them: integers may be numbers or decimal/0x-hex
 * strings (bigints are accepted too).
 */
import { keccak256 } from '../../../../keyring/hash.js';

export interface TypedField {
  readonly name: string;
  readonly type: string;
}

export type Types = Record<string, TypedField[]>;

export type TypedValue = null | boolean | number | string | bigint | TypedValue[] | { [key: string]: TypedValue };

export interface TypedData {
  readonly types: Types;
  readonly primaryType: string;
  readonly domain: Record<string, TypedValue>;
  readonly message: Record<string, TypedValue>;
}

/** A typed-data document that cannot be hashed; the message is go-ethereum's text. */
export class TypedDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TypedDataError';
  }
}

const utf8 = new TextEncoder();
const REFERENCE_TYPE = /^[A-Z](\w*)(\[\])?$/;

/** Go's `%v` of a decoded JSON value (for go-ethereum's error texts). */
export function goFormat(value: TypedValue | undefined): string {
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(goFormat).join(' ')}]`;
  const keys = Object.keys(value).sort();
  return `map[${keys.map((k) => `${k}:${goFormat(value[k])}`).join(' ')}]`;
}

function mismatch(type: string, value: TypedValue | undefined): TypedDataError {
  return new TypedDataError(`provided data '${goFormat(value)}' doesn't match type '${type}'`);
}

function isPrimitiveType(type: string): boolean {
  const base = type.endsWith('[]') ? type.slice(0, -2) : type;
  if (base === 'address' || base === 'bool' || base === 'string' || base === 'bytes') return true;
  let m = /^bytes(\d+)$/.exec(base);
  if (m !== null) {
    const n = Number(m[1]);
    return String(n) === m[1] && n >= 1 && n <= 32;
  }
  m = /^u?int(\d+)$/.exec(base);
  if (m !== null) {
    const n = Number(m[1]);
    return String(n) === m[1] && n >= 8 && n <= 256 && n % 8 === 0;
  }
  return false;
}

function isReferenceType(type: string): boolean {
  return type.length > 0 && type[0]!.toUpperCase() === type[0] && /[A-Z]/.test(type[0]!);
}

/** go-ethereum's Types.validate: names, field types known, no self reference. */
export function validateTypes(types: Types): void {
  for (const [typeKey, fields] of Object.entries(types)) {
    if (typeKey.length === 0) throw new TypedDataError('empty type key');
    fields.forEach((field, i) => {
      if (field.type.length === 0) throw new TypedDataError(`type "${typeKey}":${i}: empty Type`);
      if (field.name.length === 0) throw new TypedDataError(`type "${typeKey}":${i}: empty Name`);
      if (typeKey === field.type) throw new TypedDataError(`type "${field.type}" cannot reference itself`);
      if (isReferenceType(field.type)) {
        const name = field.type.endsWith('[]') ? field.type.slice(0, -2) : field.type;
        if (types[name] === undefined) throw new TypedDataError(`reference type "${field.type}" is undefined`);
        if (!REFERENCE_TYPE.test(field.type)) throw new TypedDataError(`unknown reference type "${field.type}"`);
      } else if (!isPrimitiveType(field.type)) {
        throw new TypedDataError(`unknown type "${field.type}"`);
      }
    });
  }
}

/**
 * Hashes that depend only on text — keccak256(encodeType) and domain separators — are kept
 * across documents (a chain sees the same few message types and one domain over and over);
 * bounded, oldest dropped first.
 */
class BoundedCache {
  private readonly entries = new Map<string, Uint8Array>();
  constructor(private readonly capacity: number) {}
  get(key: string): Uint8Array | undefined {
    return this.entries.get(key);
  }
  set(key: string, value: Uint8Array): void {
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, value);
  }
}

const typeHashCache = new BoundedCache(4096);
const domainCache = new BoundedCache(256);

/** Compiled encoder for one set of types: type hashes are computed once. */
export class TypedDataEncoder {
  private readonly typeHashes = new Map<string, Uint8Array>();

  constructor(readonly types: Types) {
    validateTypes(types);
  }

  private dependencies(type: string, found: string[]): string[] {
    const name = type.split('[')[0]!;
    if (found.includes(name) || this.types[name] === undefined) return found;
    found.push(name);
    for (const field of this.types[name]!) {
      for (const dep of this.dependencies(field.type, found)) if (!found.includes(dep)) found.push(dep);
    }
    return found;
  }

  /** `Primary(type name,…)Dep1(…)…`, dependencies sorted by name. */
  encodeType(primary: string): string {
    const deps = this.dependencies(primary, []);
    const rest = deps.slice(1).sort();
    return [primary, ...rest].map((t) => `${t}(${(this.types[t] ?? []).map((f) => `${f.type} ${f.name}`).join(',')})`).join('');
  }

  typeHash(primary: string): Uint8Array {
    let hash = this.typeHashes.get(primary);
    if (hash === undefined) {
      const encoded = this.encodeType(primary);
      hash = typeHashCache.get(encoded);
      if (hash === undefined) {
        hash = keccak256(utf8.encode(encoded));
        typeHashCache.set(encoded, hash);
      }
      this.typeHashes.set(primary, hash);
    }
    return hash;
  }

  encodeData(primary: string, data: Record<string, TypedValue>): Uint8Array {
    const fields = this.types[primary] ?? [];
    const got = Object.keys(data).length;
    if (fields.length < got) throw new TypedDataError(`there is extra data provided in the message (${fields.length} < ${got})`);
    const parts: Uint8Array[] = [this.typeHash(primary)];
    for (const field of fields) {
      const type = field.type;
      const value = data[field.name];
      if (type.endsWith(']')) {
        if (!Array.isArray(value)) throw mismatch(type, value);
        const elementType = type.split('[')[0]!;
        const items: Uint8Array[] = [];
        for (const item of value) {
          if (this.types[elementType] !== undefined) {
            if (!isObject(item)) throw mismatch(elementType, item);
            items.push(keccak256(this.encodeData(elementType, item)));
          } else {
            items.push(encodePrimitive(elementType, item));
          }
        }
        parts.push(keccak256(concat(items)));
      } else if (this.types[type] !== undefined) {
        if (!isObject(value)) throw mismatch(type, value);
        parts.push(keccak256(this.encodeData(type, value)));
      } else {
        parts.push(encodePrimitive(type, value));
      }
    }
    return concat(parts);
  }

  hashStruct(primary: string, data: Record<string, TypedValue>): Uint8Array {
    return keccak256(this.encodeData(primary, data));
  }
}

function isObject(value: TypedValue | undefined): value is { [key: string]: TypedValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function word(value: bigint): Uint8Array {
  const out = new Uint8Array(32);
  let v = BigInt.asUintN(256, value);
  for (let i = 31; i >= 0 && v > 0n; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

function bitLength(value: bigint): number {
  const abs = value < 0n ? -value : value;
  return abs === 0n ? 0 : abs.toString(2).length;
}

/** go-ethereum's parseInteger: numbers (lossless), decimal or 0x strings, with width and sign checks. */
function parseInteger(type: string, value: TypedValue | undefined): bigint {
  const signed = type.startsWith('int');
  const width = type === 'int' || type === 'uint' ? 256 : Number(type.replace(/^u?int/, ''));
  let b: bigint | undefined;
  if (typeof value === 'bigint') b = value;
  else if (typeof value === 'string') {
    // math.HexOrDecimal256: 0x-hex or (signed) decimal, at most 256 bits.
    const hex = /^0[xX]([+-]?)([0-9a-fA-F]+)$/.exec(value);
    const dec = /^([+-]?)([0-9]+)$/.exec(value);
    if (hex !== null) b = (hex[1] === '-' ? -1n : 1n) * BigInt(`0x${hex[2]}`);
    else if (dec !== null) b = (dec[1] === '-' ? -1n : 1n) * BigInt(dec[2]!);
    if (b === undefined || bitLength(b) > 256) throw new TypedDataError(`invalid hex or decimal integer ${JSON.stringify(value)}`);
  } else if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw new TypedDataError(`invalid float value ${value} for type ${type}`);
    b = BigInt(value);
  }
  if (b === undefined) throw new TypedDataError(`invalid integer value ${goFormat(value)}/${goTypeName(value)} for type ${type}`);
  if (bitLength(b) > width) throw new TypedDataError(`integer larger than '${type}'`);
  if (!signed && b < 0n) throw new TypedDataError(`invalid negative value for unsigned type ${type}`);
  return b;
}

function goTypeName(value: TypedValue | undefined): string {
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'boolean') return 'bool';
  if (Array.isArray(value)) return '[]interface {}';
  if (typeof value === 'object') return 'map[string]interface {}';
  return typeof value;
}

function hexBytes(value: TypedValue | undefined): Uint8Array | undefined {
  if (typeof value !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(value)) return undefined;
  return Uint8Array.from(Buffer.from(value.slice(2), 'hex'));
}

function encodePrimitive(type: string, value: TypedValue | undefined): Uint8Array {
  switch (type) {
    case 'address': {
      if (typeof value !== 'string' || !/^(0x|0X)?[0-9a-fA-F]{40}$/.test(value)) throw mismatch(type, value);
      const out = new Uint8Array(32);
      out.set(Buffer.from(value.replace(/^0[xX]/, ''), 'hex'), 12);
      return out;
    }
    case 'bool':
      if (typeof value !== 'boolean') throw mismatch(type, value);
      return word(value ? 1n : 0n);
    case 'string':
      if (typeof value !== 'string') throw mismatch(type, value);
      return keccak256(utf8.encode(value));
    case 'bytes': {
      const bytes = hexBytes(value);
      if (bytes === undefined) throw mismatch(type, value);
      return keccak256(bytes);
    }
  }
  const fixed = /^bytes(\d+)$/.exec(type);
  if (fixed !== null) {
    const length = Number(fixed[1]);
    const bytes = hexBytes(value);
    if (bytes === undefined || bytes.length !== length) throw mismatch(type, value);
    const out = new Uint8Array(32);
    out.set(bytes);
    return out;
  }
  if (type.startsWith('int') || type.startsWith('uint')) return word(parseInteger(type, value));
  throw new TypedDataError(`unrecognized type '${type}'`);
}

/** The 32-byte digest a wallet signs, and the `0x1901 ‖ domain ‖ struct` bytes it is the hash of. */
export function typedDataHash(data: TypedData, encoder: TypedDataEncoder = new TypedDataEncoder(data.types)): { hash: Uint8Array; raw: Uint8Array } {
  // The separator is a function of the domain type and the domain's values: remember it.
  const domainKey = `${encoder.encodeType('EIP712Domain')}\n${JSON.stringify(data.domain, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))}`;
  let domainSeparator = domainCache.get(domainKey);
  if (domainSeparator === undefined) {
    domainSeparator = encoder.hashStruct('EIP712Domain', data.domain);
    domainCache.set(domainKey, domainSeparator);
  }
  const structHash = encoder.hashStruct(data.primaryType, data.message);
  const raw = concat([Uint8Array.of(0x19, 0x01), domainSeparator, structHash]);
  return { hash: keccak256(raw), raw };
}
