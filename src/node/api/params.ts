/**
 * Request messages from path variables and query parameters (grpc-gateway v1
 * runtime/query.go): a parameter names a field path ("address", "pagination.limit",
 * "pagination.count_total"), by proto name or lowerCamel JSON name at each level. Values:
 *
 *   string           as given
 *   bool             true/false/1/0/t/f/True/FALSE… (Go's strconv.ParseBool)
 *   (u)int32/64      decimal, range-checked; 64-bit ones become bigints
 *   float/double     decimal (NaN, Infinity accepted)
 *   bytes            base64, standard or URL-safe alphabet, padding optional; a space is read as
 *                    "+" (an unescaped "+" in a query string arrives as a space)
 *   enum             value name ("ORDER_BY_DESC") or number
 *   Timestamp, Duration, wrappers   their proto3 JSON string form
 *   repeated         one parameter per element ("events=a&events=b")
 *
 * A non-repeated field given twice, or an unparsable value, is InvalidArgument; parameters that
 * name no field are ignored (as grpc-gateway does), and so are parameters naming path-bound fields.
 *
 * Plans are compiled once per route; building a request is then a few property writes and one
 * `create()`.
 */
import { create, fromJson, ScalarType, type DescField, type DescMessage, type JsonValue, type Message } from '@bufbuild/protobuf';
import { queryError } from '../services/types.js';

/** Where a parameter lands in the request message and how its text is read. */
export interface ParamPlan {
  /** Dotted proto-name path, for messages ("pagination.limit"). */
  readonly name: string;
  readonly fields: readonly DescField[];
  readonly repeated: boolean;
  /** Whether the leaf is a bytes field (path-variable disambiguation looks at it). */
  readonly isBytes: boolean;
  readonly parse: (text: string) => unknown;
}

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const UINT32_MAX = 2 ** 32 - 1;
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
const UINT64_MAX = (1n << 64n) - 1n;

const TRUE_TEXTS = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE_TEXTS = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

const WKT_STRING_FORM = new Set([
  'google.protobuf.Timestamp',
  'google.protobuf.Duration',
  'google.protobuf.FieldMask',
  'google.protobuf.DoubleValue',
  'google.protobuf.FloatValue',
  'google.protobuf.Int64Value',
  'google.protobuf.UInt64Value',
  'google.protobuf.Int32Value',
  'google.protobuf.UInt32Value',
  'google.protobuf.BoolValue',
  'google.protobuf.StringValue',
  'google.protobuf.BytesValue',
]);

/** Fields nested deeper than this are not reachable through query parameters. */
const MAX_PARAM_DEPTH = 4;

function invalid(name: string, text: string, expected: string): never {
  throw queryError('InvalidArgument', `invalid value "${text}" for ${name}: expected ${expected}`);
}

/** Strict base64 (either alphabet, optional padding; spaces read as "+"). */
export function parseBase64(text: string): Uint8Array | undefined {
  const clean = text.includes(' ') ? text.replace(/ /g, '+') : text;
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(clean)) return undefined;
  const unpadded = clean.replace(/=+$/, '');
  if (unpadded.length % 4 === 1) return undefined;
  return new Uint8Array(Buffer.from(unpadded, 'base64'));
}

function integerParser(name: string, type: ScalarType): (text: string) => unknown {
  switch (type) {
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return (text) => {
        const n = /^[-+]?\d+$/.test(text) ? Number(text) : NaN;
        if (!Number.isInteger(n) || n < INT32_MIN || n > INT32_MAX) invalid(name, text, 'a 32-bit integer');
        return n;
      };
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return (text) => {
        const n = /^\+?\d+$/.test(text) ? Number(text) : NaN;
        if (!Number.isInteger(n) || n > UINT32_MAX) invalid(name, text, 'an unsigned 32-bit integer');
        return n;
      };
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      return (text) => {
        if (!/^[-+]?\d+$/.test(text)) invalid(name, text, 'a 64-bit integer');
        const n = BigInt(text);
        if (n < INT64_MIN || n > INT64_MAX) invalid(name, text, 'a 64-bit integer');
        return n;
      };
    default:
      return (text) => {
        if (!/^\+?\d+$/.test(text)) invalid(name, text, 'an unsigned 64-bit integer');
        const n = BigInt(text);
        if (n > UINT64_MAX) invalid(name, text, 'an unsigned 64-bit integer');
        return n;
      };
  }
}

function scalarParser(name: string, type: ScalarType): (text: string) => unknown {
  switch (type) {
    case ScalarType.STRING:
      return (text) => text;
    case ScalarType.BOOL:
      return (text) => {
        if (TRUE_TEXTS.has(text)) return true;
        if (FALSE_TEXTS.has(text)) return false;
        return invalid(name, text, 'true or false');
      };
    case ScalarType.BYTES:
      return (text) => parseBase64(text) ?? invalid(name, text, 'base64 bytes');
    case ScalarType.FLOAT:
    case ScalarType.DOUBLE:
      return (text) => {
        if (text === 'NaN') return NaN;
        if (text === 'Infinity' || text === '+Infinity') return Infinity;
        if (text === '-Infinity') return -Infinity;
        const n = text.trim() === '' ? NaN : Number(text);
        if (Number.isNaN(n)) invalid(name, text, 'a number');
        return n;
      };
    default:
      return integerParser(name, type);
  }
}

function leafParser(name: string, field: DescField): ((text: string) => unknown) | undefined {
  const kind = field.fieldKind === 'list' ? field.listKind : field.fieldKind;
  if (kind === 'scalar' && field.scalar !== undefined) return scalarParser(name, field.scalar);
  if (kind === 'enum' && field.enum !== undefined) {
    const values = field.enum.values;
    const byName = new Map(values.map((value) => [value.name, value.number]));
    const numbers = new Set(values.map((value) => value.number));
    return (text) => {
      const named = byName.get(text);
      if (named !== undefined) return named;
      const n = /^-?\d+$/.test(text) ? Number(text) : NaN;
      if (numbers.has(n)) return n;
      return invalid(name, text, `one of ${values.map((value) => value.name).join(', ')}`);
    };
  }
  if (kind === 'message' && field.message !== undefined && WKT_STRING_FORM.has(field.message.typeName)) {
    const desc = field.message;
    return (text) => {
      const json: JsonValue = /Value$/.test(desc.typeName) && !/(String|Bytes)Value$/.test(desc.typeName) && /^-?[\d.]+$/.test(text) ? Number(text) : text;
      try {
        return fromJson(desc, json);
      } catch (err) {
        return invalid(name, text, err instanceof Error ? err.message : 'a valid value');
      }
    };
  }
  return undefined;
}

/** The plan for one field path ("pagination.key"); undefined when it does not name a settable field. */
export function planForPath(schema: DescMessage, path: string): ParamPlan | undefined {
  const fields: DescField[] = [];
  let desc: DescMessage | undefined = schema;
  const parts = path.split('.');
  for (let i = 0; i < parts.length; i++) {
    if (desc === undefined) return undefined;
    const part = parts[i]!;
    const field: DescField | undefined = desc.fields.find((f) => f.name === part || f.jsonName === part);
    if (field === undefined) return undefined;
    fields.push(field);
    const last = i === parts.length - 1;
    if (!last) {
      if (field.fieldKind !== 'message') return undefined;
      desc = field.message;
    }
  }
  const leaf = fields[fields.length - 1]!;
  const name = fields.map((f) => f.name).join('.');
  const parse = leafParser(name, leaf);
  if (parse === undefined || leaf.fieldKind === 'map') return undefined;
  return { name, fields, repeated: leaf.fieldKind === 'list', isBytes: leaf.fieldKind === 'scalar' && leaf.scalar === ScalarType.BYTES, parse };
}

/**
 * Query-parameter plans of a request message keyed by every accepted spelling (proto and
 * lowerCamel names at each level), leaving out the field paths bound by the path template.
 */
export function queryParamPlans(schema: DescMessage, pathBound: readonly string[]): Map<string, ParamPlan> {
  const plans = new Map<string, ParamPlan>();
  const bound = new Set(pathBound);
  const visit = (desc: DescMessage, protoPrefix: string, spellings: string[], depth: number, stack: Set<string>): void => {
    for (const field of desc.fields) {
      const protoPath = protoPrefix === '' ? field.name : `${protoPrefix}.${field.name}`;
      if (bound.has(protoPath)) continue;
      const names = new Set([field.name, field.jsonName]);
      const keys = spellings.length === 0 ? [...names] : spellings.flatMap((prefix) => [...names].map((name) => `${prefix}.${name}`));
      const plan = planForPath(schema, protoPath);
      if (plan !== undefined) {
        for (const key of keys) plans.set(key, plan);
        continue;
      }
      if (field.fieldKind === 'message' && depth < MAX_PARAM_DEPTH && !stack.has(field.message.typeName)) {
        stack.add(field.message.typeName);
        visit(field.message, protoPath, keys, depth + 1, stack);
        stack.delete(field.message.typeName);
      }
    }
  };
  visit(schema, '', [], 1, new Set([schema.typeName]));
  return plans;
}

type InitObject = Record<string, unknown>;

/** Writes `value` at the plan's field path of an init object (appending to lists). */
export function setParam(init: InitObject, plan: ParamPlan, value: unknown): void {
  let target = init;
  const { fields } = plan;
  for (let i = 0; i < fields.length - 1; i++) {
    const field = fields[i]!;
    if (field.oneof !== undefined) {
      const current = target[field.oneof.localName] as { case?: string; value?: InitObject } | undefined;
      if (current?.case === field.localName && current.value !== undefined) {
        target = current.value;
      } else {
        const next: InitObject = {};
        target[field.oneof.localName] = { case: field.localName, value: next };
        target = next;
      }
      continue;
    }
    let next = target[field.localName] as InitObject | undefined;
    if (next === undefined) {
      next = {};
      target[field.localName] = next;
    }
    target = next;
  }
  const leaf = fields[fields.length - 1]!;
  if (plan.repeated) {
    const list = (target[leaf.localName] as unknown[] | undefined) ?? [];
    list.push(value);
    target[leaf.localName] = list;
  } else if (leaf.oneof !== undefined) {
    target[leaf.oneof.localName] = { case: leaf.localName, value };
  } else {
    target[leaf.localName] = value;
  }
}

/**
 * Applies a raw query string ("a=1&b=x%20y") to an init object. `seen` tracks non-repeated
 * fields already set (a second value is InvalidArgument, as in grpc-gateway).
 */
export function applyQueryString(init: InitObject, query: string, plans: ReadonlyMap<string, ParamPlan>): void {
  if (query === '') return;
  let seen: Set<ParamPlan> | undefined;
  let start = 0;
  while (start <= query.length) {
    let end = query.indexOf('&', start);
    if (end < 0) end = query.length;
    if (end > start) {
      const pair = query.slice(start, end);
      const eq = pair.indexOf('=');
      const rawKey = eq < 0 ? pair : pair.slice(0, eq);
      const rawValue = eq < 0 ? '' : pair.slice(eq + 1);
      const key = decodeComponent(rawKey);
      const plan = plans.get(key);
      if (plan !== undefined) {
        if (!plan.repeated) {
          seen ??= new Set();
          if (seen.has(plan)) throw queryError('InvalidArgument', `too many values for field "${plan.name}"`);
          seen.add(plan);
        }
        setParam(init, plan, plan.parse(decodeComponent(rawValue)));
      }
    }
    start = end + 1;
  }
}

/** application/x-www-form-urlencoded component decoding ("+" is a space). */
export function decodeComponent(text: string): string {
  if (text.indexOf('%') < 0 && text.indexOf('+') < 0) return text;
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    throw queryError('InvalidArgument', `invalid percent-encoding in "${text}"`);
  }
}

/** The request message of an init object. */
export function buildRequest(schema: DescMessage, init: InitObject): Message {
  return create(schema, init);
}
