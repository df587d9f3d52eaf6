/**
 * Route parameters and their decoding (CometBFT rpc/jsonrpc/server http_json_handler.go and
 * http_uri_handler.go).
 *
 * Types mirror the Go argument types:
 *   int64 / int / uint  heights, pages, limits: JSON string "5" (a bare number is accepted too);
 *                       URI 5 or "5".
 *   bool                JSON true/false; URI true/false.
 *   string              JSON string; URI "quoted" (unquoted accepted), or 0x-hex.
 *   bytes               []byte: JSON base64; URI 0x-hex or "quoted raw string".
 *   hexbytes            HexBytes: JSON hex; URI 0x-hex.
 *   hash                a tx/block hash: base64 like []byte, or 64 hex digits.
 *   json                any JSON value (URI: JSON text).
 * Missing (or null) → undefined: the handler applies the Go zero value / default.
 */
import { ParamError } from './errors.js';

export type ParamType = 'int64' | 'int' | 'uint' | 'bool' | 'string' | 'bytes' | 'hexbytes' | 'hash' | 'json';

export interface ParamTypeMap {
  int64: number;
  int: number;
  uint: number;
  bool: boolean;
  string: string;
  bytes: Uint8Array;
  hexbytes: Uint8Array;
  hash: Uint8Array;
  /** Any JSON value, passed through (broadcast_evidence's amino evidence). */
  json: unknown;
}

export interface ParamSpec {
  readonly name: string;
  readonly type: ParamType;
}

/** Decoded arguments of a route: every parameter optional. */
export type ArgsOf<P extends readonly ParamSpec[]> = { [S in P[number] as S['name']]?: ParamTypeMap[S['type']] };

export type DecodedArgs = Record<string, unknown>;

const INT_RE = /^-?[0-9]+$/;
const BASE64_RE = /^[A-Za-z0-9+/]*={0,2}$/;
const HEX_RE = /^[0-9a-fA-F]*$/;
const HASH_HEX_RE = /^[0-9a-fA-F]{64}$/;

function parseInteger(spec: ParamSpec, text: string): number {
  if (!INT_RE.test(text)) throw new ParamError(`${spec.name}: invalid integer ${JSON.stringify(text)}`);
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new ParamError(`${spec.name}: integer ${text} out of range`);
  if (spec.type === 'uint' && n < 0) throw new ParamError(`${spec.name}: expected a non-negative integer, got ${text}`);
  return n;
}

function decodeBase64(spec: ParamSpec, text: string): Uint8Array {
  const clean = text.replace(/[\r\n]/g, '');
  if (!BASE64_RE.test(clean) || clean.replace(/=+$/, '').length % 4 === 1) throw new ParamError(`${spec.name}: illegal base64 data`);
  return new Uint8Array(Buffer.from(clean, 'base64'));
}

function decodeHex(spec: ParamSpec, text: string): Uint8Array {
  const clean = text.startsWith('0x') || text.startsWith('0X') ? text.slice(2) : text;
  if (!HEX_RE.test(clean) || clean.length % 2 !== 0) throw new ParamError(`${spec.name}: invalid hex ${JSON.stringify(text)}`);
  return new Uint8Array(Buffer.from(clean, 'hex'));
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : `${typeof value} ${JSON.stringify(value)}`;
}

/** One JSON value (POST params) → its typed value. */
export function decodeJsonValue(spec: ParamSpec, value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  switch (spec.type) {
    case 'json':
      return value;
    case 'int64':
    case 'int':
    case 'uint':
      if (typeof value === 'string') return parseInteger(spec, value);
      if (typeof value === 'number' && Number.isInteger(value)) return parseInteger(spec, String(value));
      throw new ParamError(`${spec.name}: invalid 64-bit integer encoding, expected a string of digits, got ${describe(value)}`);
    case 'bool':
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === 'false') return value === 'true';
      throw new ParamError(`${spec.name}: expected a boolean, got ${describe(value)}`);
    case 'string':
      if (typeof value === 'string') return value;
      throw new ParamError(`${spec.name}: expected a string, got ${describe(value)}`);
    case 'bytes':
      if (typeof value === 'string') return decodeBase64(spec, value);
      throw new ParamError(`${spec.name}: expected base64 bytes, got ${describe(value)}`);
    case 'hexbytes':
      if (typeof value === 'string') return decodeHex(spec, value);
      throw new ParamError(`${spec.name}: expected hex bytes, got ${describe(value)}`);
    case 'hash':
      if (typeof value === 'string') return HASH_HEX_RE.test(value) || /^0x[0-9a-fA-F]{64}$/i.test(value) ? decodeHex(spec, value) : decodeBase64(spec, value);
      throw new ParamError(`${spec.name}: expected a base64 or hex hash, got ${describe(value)}`);
  }
}

/** POST params: an object (by name; unknown names ignored) or an array (by position, exact count). */
export function decodeJsonParams(specs: readonly ParamSpec[], params: unknown): DecodedArgs {
  const out: DecodedArgs = {};
  if (params === undefined || params === null) return out;
  if (Array.isArray(params)) {
    if (params.length === 0 && specs.length === 0) return out;
    if (params.length !== specs.length) {
      throw new ParamError(`expected ${specs.length} parameters (${specs.map((s) => s.name).join(',')}), got ${params.length}`);
    }
    specs.forEach((spec, i) => {
      out[spec.name] = decodeJsonValue(spec, params[i]);
    });
    return out;
  }
  if (typeof params !== 'object') throw new ParamError(`unknown type for JSON params: ${describe(params)}. Expected map or array`);
  const record = params as Record<string, unknown>;
  for (const spec of specs) {
    if (Object.prototype.hasOwnProperty.call(record, spec.name)) out[spec.name] = decodeJsonValue(spec, record[spec.name]);
  }
  return out;
}

function unquote(spec: ParamSpec, text: string): string {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'string') return parsed;
  } catch {
    // fall through
  }
  throw new ParamError(`${spec.name}: invalid quoted string ${text}`);
}

/** One URI query value (GET) → its typed value, with CometBFT's conventions. */
export function decodeUriValue(spec: ParamSpec, raw: string): unknown {
  if (raw === '') return undefined;
  const quoted = raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"');
  const isHex = raw.startsWith('0x') || raw.startsWith('0X');
  switch (spec.type) {
    case 'json':
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        throw new ParamError(`${spec.name}: invalid JSON ${JSON.stringify(raw)}`);
      }
    case 'int64':
    case 'int':
    case 'uint':
      if (isHex) throw new ParamError(`${spec.name}: got a hex string arg, but expected 'int'`);
      return parseInteger(spec, quoted ? unquote(spec, raw) : raw);
    case 'bool': {
      const text = quoted ? unquote(spec, raw) : raw;
      if (text === 'true' || text === 'false') return text === 'true';
      throw new ParamError(`${spec.name}: expected true or false, got ${JSON.stringify(raw)}`);
    }
    case 'string':
      if (isHex) return Buffer.from(decodeHex(spec, raw)).toString('utf8');
      return quoted ? unquote(spec, raw) : raw;
    case 'bytes':
    case 'hexbytes':
    case 'hash':
      if (isHex) return decodeHex(spec, raw);
      if (quoted) return new TextEncoder().encode(unquote(spec, raw));
      if (spec.type !== 'bytes' && HASH_HEX_RE.test(raw)) return decodeHex(spec, raw);
      throw new ParamError(`${spec.name}: expected 0x-prefixed hex (e.g. ${spec.name}=0xABCD) or a "quoted" string, got ${JSON.stringify(raw)}`);
  }
}

/** GET /method?a=..&b=.. → arguments. */
export function decodeUriParams(specs: readonly ParamSpec[], query: URLSearchParams): DecodedArgs {
  const out: DecodedArgs = {};
  for (const spec of specs) {
    const raw = query.get(spec.name);
    if (raw !== null) out[spec.name] = decodeUriValue(spec, raw);
  }
  return out;
}
