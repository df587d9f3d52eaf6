/**
 * JSON in the Cosmos REST gateway's dialect (grpc-gateway JSONPb with OrigName + EmitDefaults
 * over gogoproto types, see COMPAT §5), built on protobuf-es descriptors.
 *
 * What differs from protobuf-es `toJson` with useProtoFieldName + alwaysEmitImplicit:
 * - an unset message field is `null`, unless it is `(gogoproto.nullable) = false`, in which
 *   case Go holds a zero struct and the gateway prints that (a zero Timestamp prints as
 *   "0001-01-01T00:00:00Z", Go's zero time);
 * - an expanded Any starts with "@type", and an Any of unknown type is an error naming the URL;
 * - an empty singular bytes field is `null` (Go's nil slice); list elements stay "";
 * - a `customtype` LegacyDec (a string, or bytes holding the wire text) prints as a decimal
 *   with 18 digits, and an unset nullable customtype (Int or Dec) prints as `null`;
 * - fields come in declaration order, as Go struct fields do; unset oneof members are omitted.
 * Unchanged: proto field names, 64-bit integers as strings, 32-bit as numbers, bytes as padded
 * base64, enums by name, empty lists as [], Timestamp/Duration in their proto3 JSON form.
 *
 * `fromGatewayJson` reads the same dialect (POST bodies): nulls mean unset, decimals are scaled
 * back to wire form, and both proto and lowerCamel field names are accepted.
 */
import type { DescField, DescMessage, JsonObject, JsonValue, Message, MessageShape, Registry } from '@bufbuild/protobuf';
import { create, fromBinary, fromJson, getOption, hasOption, ScalarType, toBinary, toJson } from '@bufbuild/protobuf';
import type { ReflectMessage } from '@bufbuild/protobuf/reflect';
import { isReflectMessage, reflect } from '@bufbuild/protobuf/reflect';
import { base64Encode } from '@bufbuild/protobuf/wire';
import type { Any } from '@bufbuild/protobuf/wkt';
import { AnySchema } from '@bufbuild/protobuf/wkt';
import { customtype, nullable } from '../../gen/gogoproto/gogo_pb.js';
import { typeNameFromUrl } from './any.js';
import { legacyDecFromWire, legacyDecToWire } from './decimal.js';
import { CodecError } from './errors.js';
import { registry as defaultRegistry } from './registry.js';

export interface GatewayJsonOptions {
  /** Resolves the types inside Anys; the codec registry by default. */
  registry?: Registry;
}

export interface GatewayJsonReadOptions extends GatewayJsonOptions {
  /** Skip fields the schema does not know instead of failing (default false). */
  ignoreUnknownFields?: boolean;
}

/** Go's zero time.Time as the gateway prints it. */
const GO_ZERO_TIME = '0001-01-01T00:00:00Z';

const ANY_TYPE = 'google.protobuf.Any';
const TIMESTAMP_TYPE = 'google.protobuf.Timestamp';

/** Well-known types whose JSON form is not an object of their fields. */
const WKT_WITH_CUSTOM_JSON = new Set([
  ANY_TYPE,
  TIMESTAMP_TYPE,
  'google.protobuf.Duration',
  'google.protobuf.FieldMask',
  'google.protobuf.Struct',
  'google.protobuf.Value',
  'google.protobuf.ListValue',
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

type CustomType = 'dec' | 'int' | undefined;

/** What the gogoproto options of a field mean for JSON; computed once per field. */
interface FieldPlan {
  /** An unset value prints as null (gogoproto default) rather than a zero value. */
  readonly nullable: boolean;
  readonly customType: CustomType;
}

const fieldPlans = new WeakMap<DescField, FieldPlan>();

function planOf(field: DescField): FieldPlan {
  let plan = fieldPlans.get(field);
  if (plan === undefined) {
    const goType = hasOption(field, customtype) ? getOption(field, customtype) : '';
    plan = {
      nullable: hasOption(field, nullable) ? getOption(field, nullable) : true,
      customType: /(LegacyDec|types\.Dec)$/.test(goType) ? 'dec' : /(math\.Int|types\.Int)$/.test(goType) ? 'int' : undefined,
    };
    fieldPlans.set(field, plan);
  }
  return plan;
}

// ------------------------------------------------------------------------------------ writing

/** A message as the Cosmos REST gateway prints it. */
export function toGatewayJson<Desc extends DescMessage>(
  schema: Desc,
  message: MessageShape<Desc>,
  options: GatewayJsonOptions = {},
): JsonValue {
  return messageToJson(schema, message, options.registry ?? defaultRegistry);
}

function messageToJson(desc: DescMessage, message: MessageShape<DescMessage>, registry: Registry): JsonValue {
  if (desc.typeName === ANY_TYPE) return anyToJson(message as Any, registry);
  if (WKT_WITH_CUSTOM_JSON.has(desc.typeName)) return toJson(desc, message, { registry });
  const reflected = reflect(desc, message);
  const json: JsonObject = {};
  for (const field of desc.fields) {
    if (field.oneof !== undefined && reflected.oneofCase(field.oneof) !== field) continue;
    json[field.name] = fieldToJson(field, reflected, registry);
  }
  return json;
}

function anyToJson(any: Any, registry: Registry): JsonObject {
  const typeName = typeNameFromUrl(any.typeUrl);
  const desc = typeName === '' ? undefined : registry.getMessage(typeName);
  if (desc === undefined) {
    throw new CodecError('UNKNOWN_TYPE_URL', `unknown type URL '${any.typeUrl}': cannot print it as JSON`, {
      typeUrl: any.typeUrl,
    });
  }
  let inner: MessageShape<DescMessage>;
  try {
    inner = fromBinary(desc, any.value);
  } catch (err) {
    throw new CodecError('INVALID_BYTES', `cannot decode '${any.typeUrl}': ${errText(err)}`, { typeUrl: any.typeUrl }, err);
  }
  const body = messageToJson(desc, inner, registry);
  if (WKT_WITH_CUSTOM_JSON.has(desc.typeName)) return { '@type': any.typeUrl, value: body };
  return { '@type': any.typeUrl, ...(body as JsonObject) };
}

function fieldToJson(field: DescField, reflected: ReflectMessage, registry: Registry): JsonValue {
  switch (field.fieldKind) {
    case 'scalar': {
      if (field.proto.proto3Optional === true && !reflected.isSet(field)) return null;
      return singularScalarToJson(field, field.scalar, reflected.get(field));
    }
    case 'enum': {
      if (field.proto.proto3Optional === true && !reflected.isSet(field)) return null;
      return enumToJson(field.enum.value, reflected.get(field));
    }
    case 'message': {
      if (!reflected.isSet(field)) {
        return planOf(field).nullable ? null : zeroMessageJson(field.message, registry);
      }
      return messageToJson(field.message, reflected.get(field).message, registry);
    }
    case 'list': {
      const items: JsonValue[] = [];
      for (const item of reflected.get(field)) {
        if (field.listKind === 'message' && isReflectMessage(item)) {
          items.push(messageToJson(field.message, item.message, registry));
        } else if (field.listKind === 'enum') {
          items.push(enumToJson(field.enum.value, item as number));
        } else if (field.listKind === 'scalar') {
          items.push(customScalarToJson(field, scalarToJson(field.scalar, item)));
        }
      }
      return items;
    }
    case 'map': {
      const entries: JsonObject = {};
      for (const [key, value] of reflected.get(field)) {
        const name = String(key);
        if (field.mapKind === 'message' && isReflectMessage(value)) {
          entries[name] = messageToJson(field.message, value.message, registry);
        } else if (field.mapKind === 'enum') {
          entries[name] = enumToJson(field.enum.value, value as number);
        } else if (field.mapKind === 'scalar') {
          entries[name] = scalarToJson(field.scalar, value);
        }
      }
      return entries;
    }
  }
}

/**
 * Whether the gateway can print `null` for this (singular) field: an unset nullable message
 * field, an empty bytes field, an unset nullable customtype. The OpenAPI document marks these
 * `nullable`.
 */
export function mayBeNullInGatewayJson(field: DescField): boolean {
  if (field.fieldKind === 'message') return planOf(field).nullable;
  if (field.fieldKind !== 'scalar') return false;
  if (field.scalar === ScalarType.BYTES) return planOf(field).customType === undefined || planOf(field).nullable;
  return planOf(field).customType !== undefined && planOf(field).nullable;
}

/** The zero value Go holds in a non-nullable message field. */
function zeroMessageJson(desc: DescMessage, registry: Registry): JsonValue {
  if (desc.typeName === TIMESTAMP_TYPE) return GO_ZERO_TIME;
  return messageToJson(desc, create(desc), registry);
}

function singularScalarToJson(field: DescField, type: ScalarType, value: unknown): JsonValue {
  const plan = planOf(field);
  if (type === ScalarType.BYTES) {
    const bytes = value as Uint8Array;
    if (plan.customType === 'int') {
      // math.Int in a bytes field (staking genesis last_total_power): its text form.
      return bytes.length === 0 ? (plan.nullable ? null : '0') : new TextDecoder().decode(bytes);
    }
    if (plan.customType === 'dec') {
      // LegacyDec in a bytes field (slashing params, mint QueryInflationResponse): the wire text
      // (the scaled integer), printed as a decimal.
      return bytes.length === 0 ? (plan.nullable ? null : legacyDecFromWire('')) : legacyDecFromWire(new TextDecoder().decode(bytes));
    }
    return bytes.length === 0 ? null : base64Encode(bytes);
  }
  if (plan.customType !== undefined && value === '') {
    if (plan.nullable) return null;
    return plan.customType === 'dec' ? legacyDecFromWire('') : '0';
  }
  return customScalarToJson(field, scalarToJson(type, value));
}

function customScalarToJson(field: DescField, json: JsonValue): JsonValue {
  if (planOf(field).customType === 'dec' && typeof json === 'string') return legacyDecFromWire(json);
  return json;
}

function scalarToJson(type: ScalarType, value: unknown): JsonValue {
  switch (type) {
    case ScalarType.BYTES:
      return base64Encode(value as Uint8Array);
    case ScalarType.INT64:
    case ScalarType.UINT64:
    case ScalarType.SINT64:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return String(value);
    case ScalarType.FLOAT:
    case ScalarType.DOUBLE: {
      const num = value as number;
      if (Number.isNaN(num)) return 'NaN';
      if (num === Number.POSITIVE_INFINITY) return 'Infinity';
      if (num === Number.NEGATIVE_INFINITY) return '-Infinity';
      return num;
    }
    case ScalarType.BOOL:
      return value as boolean;
    case ScalarType.STRING:
      return value as string;
    default:
      return value as number;
  }
}

function enumToJson(values: Record<number, { name: string } | undefined>, value: number): JsonValue {
  return values[value]?.name ?? value;
}

// ------------------------------------------------------------------------------------ reading

/**
 * Reads gateway JSON (a POST body, or query parameters gathered into an object) into a message.
 * Anys keep the type URL they were given ("/cosmos.bank.v1beta1.MsgSend"). Throws CodecError
 * INVALID_JSON (or UNKNOWN_TYPE_URL for an Any) with the path of the offending field.
 */
export function fromGatewayJson<Desc extends DescMessage>(
  schema: Desc,
  json: JsonValue,
  options: GatewayJsonReadOptions = {},
): MessageShape<Desc> {
  const context: ReadContext = {
    registry: options.registry ?? defaultRegistry,
    ignoreUnknownFields: options.ignoreUnknownFields ?? false,
  };
  return readMessage(schema, json, context, '') as MessageShape<Desc>;
}

interface ReadContext {
  registry: Registry;
  ignoreUnknownFields: boolean;
}

/**
 * Scalars, enums and their lists go through protobuf-es `fromJson`; message fields are read
 * here, recursively, so that Anys can be built with their own type URL (protobuf-es would
 * rewrite it to "type.googleapis.com/...") and gogoproto conventions apply at every depth.
 */
function readMessage(desc: DescMessage, json: JsonValue, context: ReadContext, path: string): Message {
  if (desc.typeName === ANY_TYPE) return readAny(json, context, path);
  if (WKT_WITH_CUSTOM_JSON.has(desc.typeName)) return parseProtoJson(desc, json, context, path);
  const object = expectObject(json, desc, path);
  const plain: JsonObject = {};
  const nested: Array<[DescField, DescMessage, JsonValue]> = [];
  for (const [key, value] of Object.entries(object)) {
    const field = desc.fields.find((f) => f.name === key || f.jsonName === key);
    if (field === undefined) {
      plain[key] = value; // fromJson reports it, or drops it with ignoreUnknownFields
    } else if (value === null) {
      continue;
    } else if (field.message !== undefined) {
      nested.push([field, field.message, value]);
    } else {
      plain[key] = field.fieldKind === 'scalar' || field.fieldKind === 'list' ? scalarsFromGateway(field, value, joinPath(path, key)) : value;
    }
  }
  const message = parseProtoJson(desc, plain, context, path);
  const target = message as unknown as Record<string, unknown>;
  for (const [field, fieldDesc, value] of nested) {
    const fieldPath = joinPath(path, field.name);
    let fieldValue: unknown;
    if (field.fieldKind === 'list') {
      fieldValue = expectArray(value, fieldPath).map((item, i) => readMessage(fieldDesc, item, context, `${fieldPath}[${i}]`));
    } else if (field.fieldKind === 'map') {
      const entries = expectObject(value, fieldDesc, fieldPath);
      fieldValue = Object.fromEntries(
        Object.entries(entries).map(([key, item]) => [key, readMessage(fieldDesc, item, context, joinPath(fieldPath, key))]),
      );
    } else {
      fieldValue = readMessage(fieldDesc, value, context, fieldPath);
    }
    if (field.oneof !== undefined) {
      target[field.oneof.localName] = { case: field.localName, value: fieldValue };
    } else {
      target[field.localName] = fieldValue;
    }
  }
  return message;
}

function readAny(json: JsonValue, context: ReadContext, path: string): Any {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new CodecError('INVALID_JSON', `${where(path)}: expected an object with "@type"`, { path });
  }
  const typeUrl = json['@type'];
  if (typeof typeUrl !== 'string' || typeUrl === '') {
    throw new CodecError('INVALID_JSON', `${where(path)}: an Any needs a "@type" string`, { path });
  }
  const desc = context.registry.getMessage(typeNameFromUrl(typeUrl));
  if (desc === undefined) {
    throw new CodecError('UNKNOWN_TYPE_URL', `${where(path)}: unknown type URL '${typeUrl}'`, { path, typeUrl });
  }
  const { '@type': _type, ...fields } = json;
  const inner = WKT_WITH_CUSTOM_JSON.has(desc.typeName)
    ? readMessage(desc, fields.value ?? null, context, path)
    : readMessage(desc, fields, context, path);
  return create(AnySchema, { typeUrl, value: toBinary(desc, inner) });
}

function parseProtoJson(desc: DescMessage, json: JsonValue, context: ReadContext, path: string): Message {
  try {
    return fromJson(desc, json, { registry: context.registry, ignoreUnknownFields: context.ignoreUnknownFields });
  } catch (err) {
    throw new CodecError('INVALID_JSON', `invalid JSON for ${desc.typeName}${path === '' ? '' : ` at ${path}`}: ${errText(err)}`, {
      typeName: desc.typeName,
      path,
    }, err);
  }
}

/** Customtype scalars (and lists of them) from gateway to wire form. */
function scalarsFromGateway(field: DescField, value: JsonValue, path: string): JsonValue {
  if (Array.isArray(value)) return value.map((item, i) => scalarFromGateway(field, item, `${path}[${i}]`));
  return scalarFromGateway(field, value, path);
}

function scalarFromGateway(field: DescField, value: JsonValue, path: string): JsonValue {
  const plan = planOf(field);
  if (plan.customType === undefined || typeof value !== 'string') return value;
  if (field.scalar === ScalarType.BYTES) {
    if (plan.customType === 'int') return base64Encode(new TextEncoder().encode(value));
    try {
      return base64Encode(new TextEncoder().encode(legacyDecToWire(value)));
    } catch (err) {
      throw new CodecError('INVALID_JSON', `${where(path)}: ${errText(err)}`, { path }, err);
    }
  }
  if (plan.customType === 'dec') {
    try {
      return legacyDecToWire(value);
    } catch (err) {
      throw new CodecError('INVALID_JSON', `${where(path)}: ${errText(err)}`, { path }, err);
    }
  }
  return value;
}

/** "a.b" paths for error messages; the root is "". */
function joinPath(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

/** The path as a message prefix ("body" at the root). */
function where(path: string): string {
  return path === '' ? 'body' : path;
}

function expectArray(json: JsonValue, path: string): JsonValue[] {
  if (!Array.isArray(json)) throw new CodecError('INVALID_JSON', `${where(path)}: expected a JSON array`, { path });
  return json;
}

function expectObject(json: JsonValue, desc: DescMessage, path: string): JsonObject {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new CodecError('INVALID_JSON', `${where(path)}: expected a JSON object for ${desc.typeName}`, { path });
  }
  return json;
}

function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
