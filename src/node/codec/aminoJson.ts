/**
 * Amino JSON: the legacy JSON encoding that SIGN_MODE_LEGACY_AMINO_JSON signs (Ledger, Keplr's
 * amino path, CosmJS `AminoTypes`), derived from the protobuf descriptors' amino options with
 * the rules of the Cosmos SDK 0.50 signer (x/tx/signing/aminojson):
 *
 * - a message with `(amino.name)` is written `{"type":"<name>","value":{…}}` where it travels in
 *   an Any (and always at the top of `msgs`); an Any of a type without a name uses its type URL;
 * - object keys are field names (`(amino.field_name)` when set), sorted byte-wise; a field that
 *   is not set is left out unless `(amino.dont_omitempty)`, in which case its zero value is
 *   written (an empty list is `null`, or `[]` with `(amino.encoding) = "legacy_coins"`);
 * - 64-bit integers are decimal strings, 32-bit integers and enums are numbers, bytes are
 *   padded base64, Timestamp is RFC 3339 in UTC (nanoseconds only when not zero), Duration is
 *   its total nanoseconds as a string;
 * - `(cosmos_proto.scalar) = "cosmos.Dec"` strings are printed as decimals with 18 digits
 *   ("0.100000000000000000"), "cosmos.Int" as their text ("" as "0");
 * - `(amino.message_encoding)`: "key_field" (the key bytes as one base64 string, as amino's
 *   MarshalAminoJSON of public keys), "threshold_string" (a multisig key's
 *   `{"pubkeys":[…],"threshold":"2"}`) and "module_account";
 * - a set oneof member is wrapped `"<OneofName>":{"type":"<amino.oneof_name>","value":{…}}`, an
 *   unset oneof is written once as `"<OneofName>":null`;
 * - strings are escaped as Go's encoding/json does (`<`, `>`, `&`, U+2028, U+2029 as \u escapes).
 *
 * The SignDoc (StdSignDoc) is `{"account_number","chain_id","fee":{"amount","gas"[,"granter"]
 * [,"payer"]},"memo","msgs","sequence"[,"timeout_height"]}` with the same rules.
 *
 * Where tokend is stricter than the SDK: a tx message whose type has no amino name (neither in
 * its proto nor in the name overrides the app passes in) cannot be signed in this mode — the
 * SDK would fall back to its type URL, which no amino signer (Ledger, Keplr) produces — and
 * `AminoJsonError` names the type.
 */
import { fromBinary, getOption, hasOption, ScalarType, type DescField, type DescMessage, type Message, type Registry } from '@bufbuild/protobuf';
import { base64Encode } from '@bufbuild/protobuf/wire';
import type { Any } from '@bufbuild/protobuf/wkt';
import { dont_omitempty, encoding, field_name, message_encoding, name as aminoNameOption, oneof_name } from '../../gen/amino/amino_pb.js';
import { CoinSchema, type Coin } from '../../gen/cosmos/base/v1beta1/coin_pb.js';
import { scalar } from '../../gen/cosmos_proto/cosmos_pb.js';
import { nullable } from '../../gen/gogoproto/gogo_pb.js';
import { typeNameFromUrl } from './any.js';
import { legacyDecFromWire, legacyDecToWire } from './decimal.js';
import { registry as defaultRegistry } from './registry.js';

/** Why a message could not be written as amino JSON (the sign bytes cannot be built). */
export class AminoJsonError extends Error {
  constructor(
    message: string,
    /** The type URL the problem is about, when there is one. */
    readonly typeUrl?: string,
  ) {
    super(message);
    this.name = 'AminoJsonError';
  }
}

/** Message types whose amino JSON is their key bytes (MarshalAminoJSON), though their proto does not say so. */
const KEY_FIELD_TYPES = new Set(['ethermint.crypto.v1.ethsecp256k1.PubKey', 'ethermint.crypto.v1.ethsecp256k1.PrivKey', 'cosmos.evm.crypto.v1.ethsecp256k1.PubKey', 'cosmos.evm.crypto.v1.ethsecp256k1.PrivKey']);

/** go-amino's maximum Duration: seconds that still fit in int64 nanoseconds. */
const MAX_DURATION_SECONDS = 9_223_372_035n;

export interface AminoJsonOptions {
  /**
   * Amino names of message types whose proto has no `(amino.name)`, by full proto name
   * (`"ethermint.evm.v1.MsgEthereumTx"` → `"ethermint/MsgEthereumTx"`). Module declarations
   * provide them; they take precedence over the proto option.
   */
  readonly nameOverrides?: ReadonlyMap<string, string> | Readonly<Record<string, string>>;
  /** Resolves the types inside Anys; the codec registry by default. */
  readonly registry?: Registry;
}

interface FieldPlan {
  readonly field: DescField;
  readonly name: string;
  readonly omitEmpty: boolean;
  readonly encoder: 'legacy_coins' | 'cosmos.Dec' | 'cosmos.Int' | undefined;
  readonly oneofName: string | undefined;
  readonly oneofTypeName: string | undefined;
}

/** Printable ASCII that needs no escaping: anything but `"`, `\`, `<`, `>`, `&`. */
const PLAIN_JSON_STRING = /^[ !#-%'-;=?-[\]-~]*$/;

/** Go's encoding/json string escaping (HTML-safe): JSON.stringify plus \u003c \u003e \u0026 \u2028 \u2029. */
export function goJsonString(text: string): string {
  if (PLAIN_JSON_STRING.test(text)) return `"${text}"`;
  const json = JSON.stringify(text);
  return /[<>&\u2028\u2029]/.test(json)
    ? json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    : json;
}

/** strcase.ToCamel of a oneof name ("sum" → "Sum", "public_key" → "PublicKey"). */
function toCamel(name: string): string {
  return name
    .split(/[_\-\s.]+/)
    .filter((part) => part !== '')
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

/** Go's time.Format(RFC3339 / RFC3339Nano) in UTC. */
function formatTimestamp(seconds: bigint, nanos: number): string {
  if (nanos < 0) throw new AminoJsonError(`nanos must be non-negative on timestamp (seconds ${seconds}, nanos ${nanos})`);
  const date = new Date(Number(seconds) * 1000);
  if (Number.isNaN(date.getTime())) throw new AminoJsonError(`timestamp out of range (seconds ${seconds})`);
  const base =
    `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}` +
    `T${pad(date.getUTCHours(), 2)}:${pad(date.getUTCMinutes(), 2)}:${pad(date.getUTCSeconds(), 2)}`;
  if (nanos === 0) return `${base}Z`;
  return `${base}.${pad(nanos, 9).replace(/0+$/, '')}Z`;
}

type Fields = Record<string, unknown>;

/** How one message type is written, worked out once from its descriptor. */
interface MessagePlan {
  readonly kind: 'fields' | 'timestamp' | 'duration' | 'any' | 'key_field' | 'threshold_string' | 'module_account';
  readonly fields: readonly FieldPlan[];
}

function isZero(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
      return value === '';
    case 'number':
      return value === 0;
    case 'bigint':
      return value === 0n;
    case 'boolean':
      return !value;
    default:
      return value instanceof Uint8Array ? value.length === 0 : value === undefined || value === null;
  }
}

/** A message as decoded from an Any, ready to encode. */
export interface DecodedAny {
  readonly typeUrl: string;
  readonly schema: DescMessage;
  readonly message: Message;
}

/**
 * Encodes protobuf-es messages as amino JSON (see the file comment). Works on the messages' own
 * properties with a plan per message type (names, order, options), so encoding a MsgSend costs a
 * few microseconds.
 */
/** Go's zero time.Time as amino JSON writes it. */
const GO_ZERO_TIME = '0001-01-01T00:00:00Z';

/** A Timestamp field with (gogoproto.nullable) = false: a Go time.Time value, never nil. */
function isGoZeroTime(field: DescField): boolean {
  return field.fieldKind === 'message' && field.message.typeName === 'google.protobuf.Timestamp' && hasOption(field, nullable) && getOption(field, nullable) === false;
}

export class AminoJsonEncoder {
  private readonly registry: Registry;
  private readonly overrides: ReadonlyMap<string, string>;
  private readonly plans = new WeakMap<DescMessage, MessagePlan>();
  private readonly names = new WeakMap<DescMessage, string | undefined>();

  constructor(options: AminoJsonOptions = {}) {
    this.registry = options.registry ?? defaultRegistry;
    const overrides = options.nameOverrides;
    this.overrides = overrides === undefined ? new Map() : overrides instanceof Map ? overrides : new Map(Object.entries(overrides as Record<string, string>));
  }

  /** The amino name of a message type (override first, then `(amino.name)`), if it has one. */
  aminoName(schema: DescMessage): string | undefined {
    // Reading an option decodes it from the descriptor each time: remember the answer.
    if (this.names.has(schema)) return this.names.get(schema);
    const override = this.overrides.get(schema.typeName);
    const name = override ?? (hasOption(schema, aminoNameOption) ? getOption(schema, aminoNameOption) : undefined);
    this.names.set(schema, name);
    return name;
  }

  /** The amino JSON of a message as it appears inside an Any: `{"type":…,"value":…}`. */
  encodeAny(any: Any): string {
    const schema = this.resolve(any.typeUrl);
    return this.wrapped(schema, this.unpack(schema, any), true);
  }

  /** The amino JSON of a message at the top level (wrapped only if it has an amino name). */
  encodeMessage(schema: DescMessage, message: Message): string {
    return this.wrapped(schema, message, false);
  }

  /** The SDK's `msgs` entry of a tx message (an Any, or already decoded): requires an amino name. */
  encodeTxMessage(msg: Any | DecodedAny): string {
    const decoded = 'schema' in msg ? msg : undefined;
    const schema = decoded?.schema ?? this.resolve(msg.typeUrl);
    if (this.aminoName(schema) === undefined) {
      throw new AminoJsonError(`${msg.typeUrl} has no amino name, so it cannot be signed with SIGN_MODE_LEGACY_AMINO_JSON`, msg.typeUrl);
    }
    return this.wrapped(schema, decoded?.message ?? this.unpack(schema, msg as Any), true);
  }

  private resolve(typeUrl: string): DescMessage {
    const schema = this.registry.getMessage(typeNameFromUrl(typeUrl));
    if (schema === undefined) throw new AminoJsonError(`can't resolve type URL ${typeUrl}`, typeUrl);
    return schema;
  }

  private unpack(schema: DescMessage, any: Any): Message {
    try {
      return fromBinary(schema, any.value);
    } catch (err) {
      throw new AminoJsonError(`cannot decode ${any.typeUrl}: ${err instanceof Error ? err.message : String(err)}`, any.typeUrl);
    }
  }

  private wrapped(schema: DescMessage, message: Message, isAny: boolean): string {
    const name = this.aminoName(schema) ?? (isAny ? `/${schema.typeName}` : undefined);
    const body = this.message(schema, message as unknown as Fields);
    return name === undefined ? body : `{"type":${goJsonString(name)},"value":${body}}`;
  }

  private plan(schema: DescMessage): MessagePlan {
    let plan = this.plans.get(schema);
    if (plan !== undefined) return plan;
    let kind: MessagePlan['kind'] = 'fields';
    if (schema.typeName === 'google.protobuf.Timestamp') kind = 'timestamp';
    else if (schema.typeName === 'google.protobuf.Duration') kind = 'duration';
    else if (schema.typeName === 'google.protobuf.Any') kind = 'any';
    else {
      const encodingName = KEY_FIELD_TYPES.has(schema.typeName) ? 'key_field' : hasOption(schema, message_encoding) ? getOption(schema, message_encoding) : undefined;
      if (encodingName === 'key_field' || encodingName === 'threshold_string' || encodingName === 'module_account') kind = encodingName;
    }
    const fields = schema.fields
      .map((field): FieldPlan => {
        const encodingName = hasOption(field, encoding) ? getOption(field, encoding) : undefined;
        const scalarName = hasOption(field, scalar) ? getOption(field, scalar) : undefined;
        let encoder: FieldPlan['encoder'];
        if (encodingName === 'legacy_coins') encoder = 'legacy_coins';
        else if (scalarName === 'cosmos.Dec' || scalarName === 'cosmos.Int') encoder = scalarName;
        return {
          field,
          name: hasOption(field, field_name) ? getOption(field, field_name) : field.name,
          omitEmpty: !(hasOption(field, dont_omitempty) && getOption(field, dont_omitempty)),
          encoder,
          oneofName: field.oneof === undefined ? undefined : toCamel(field.oneof.name),
          oneofTypeName: hasOption(field, oneof_name) ? getOption(field, oneof_name) : undefined,
        };
      })
      // Go's sort.Slice over the names (byte order; field names are ASCII).
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    plan = { kind, fields };
    this.plans.set(schema, plan);
    return plan;
  }

  /** The value of `field` in `message` and whether it is set (protoreflect's Has). */
  private read(field: DescField, message: Fields): { set: boolean; value: unknown } {
    if (field.oneof !== undefined) {
      const oneof = message[field.oneof.localName] as { case?: string; value?: unknown } | undefined;
      return oneof?.case === field.localName ? { set: true, value: oneof.value } : { set: false, value: undefined };
    }
    const value = message[field.localName];
    switch (field.fieldKind) {
      case 'list':
        return { set: (value as unknown[]).length > 0, value };
      case 'map':
        return { set: Object.keys(value as object).length > 0, value };
      case 'message':
        return { set: value !== undefined, value };
      default:
        // Explicit presence (proto3 optional): set when present; implicit: set when not zero.
        return { set: value !== undefined && (field.presence === 1 || !isZero(value)), value };
    }
  }

  private message(schema: DescMessage, message: Fields): string {
    const plan = this.plan(schema);
    switch (plan.kind) {
      case 'timestamp':
        return `"${formatTimestamp(BigInt(message['seconds'] as bigint), Number(message['nanos']))}"`;
      case 'duration': {
        const seconds = BigInt(message['seconds'] as bigint);
        if (seconds > MAX_DURATION_SECONDS) throw new AminoJsonError(`${seconds} seconds would overflow an int64 when represented as nanoseconds`);
        return `"${seconds * 1_000_000_000n + BigInt(message['nanos'] as number)}"`;
      }
      case 'any':
        return this.encodeAny(message as unknown as Any);
      case 'key_field':
        return this.keyField(schema, message);
      case 'threshold_string':
        return this.thresholdString(schema, message);
      case 'module_account':
        return this.moduleAccount(message);
    }
    const parts: string[] = [];
    const nullOneofs = new Set<string>();
    for (const fieldPlan of plan.fields) {
      const { field } = fieldPlan;
      const { set, value } = this.read(field, message);
      let name = fieldPlan.name;
      let writeNull = false;
      if (!set) {
        if (field.oneof !== undefined && (message[field.oneof.localName] as { case?: string } | undefined)?.case === undefined && !nullOneofs.has(fieldPlan.oneofName!)) {
          name = fieldPlan.oneofName!;
          writeNull = true;
          nullOneofs.add(name);
        } else if (fieldPlan.omitEmpty) {
          continue;
        } else if (isGoZeroTime(field)) {
          // A gogoproto non-nullable time.Time left unset is Go's zero time, which amino writes (x/upgrade Plan.time).
          parts.push(`${goJsonString(name)}:"${GO_ZERO_TIME}"`);
          continue;
        } else if (field.fieldKind === 'message') {
          throw new AminoJsonError(`not supported: dont_omit_empty=true on invalid (nil?) message field: ${name}`);
        }
      }
      let text: string;
      if (fieldPlan.encoder !== undefined) text = this.encodedField(fieldPlan, value);
      else if (writeNull) text = 'null';
      else text = this.fieldValue(field, value, set);
      if (field.oneof !== undefined && !writeNull) {
        if (fieldPlan.oneofTypeName === undefined) throw new AminoJsonError(`field ${field.name} within a oneof must have the amino.oneof_type_name option set`);
        parts.push(`${goJsonString(fieldPlan.oneofName!)}:{"type":${goJsonString(fieldPlan.oneofTypeName)},"value":{${goJsonString(name)}:${text}}}`);
      } else {
        parts.push(`${goJsonString(name)}:${text}`);
      }
    }
    return `{${parts.join(',')}}`;
  }

  private fieldValue(field: DescField, value: unknown, set: boolean): string {
    switch (field.fieldKind) {
      case 'scalar':
        return this.scalar(field.scalar, value ?? zeroOf(field.scalar));
      case 'enum':
        return String((value as number | undefined) ?? 0);
      case 'message':
        return this.message(field.message, value as Fields);
      case 'list':
        return set ? this.list(field, value as readonly unknown[]) : 'null';
      case 'map':
        throw new AminoJsonError('maps are not supported');
    }
  }

  private list(field: DescField & { fieldKind: 'list' }, items: readonly unknown[]): string {
    const out: string[] = [];
    for (const item of items) {
      if (field.listKind === 'message') out.push(this.message(field.message, item as Fields));
      else if (field.listKind === 'enum') out.push(String(item as number));
      else out.push(this.scalar(field.scalar, item));
    }
    return `[${out.join(',')}]`;
  }

  private scalar(type: ScalarType, value: unknown): string {
    switch (type) {
      case ScalarType.STRING:
        return goJsonString(value as string);
      case ScalarType.BOOL:
        return value ? 'true' : 'false';
      case ScalarType.BYTES:
        return `"${base64Encode(value as Uint8Array, 'std')}"`;
      case ScalarType.INT64:
      case ScalarType.UINT64:
      case ScalarType.SINT64:
      case ScalarType.FIXED64:
      case ScalarType.SFIXED64:
        return `"${String(value)}"`;
      case ScalarType.DOUBLE:
      case ScalarType.FLOAT:
        return JSON.stringify(value);
      default:
        return String(value as number);
    }
  }

  private encodedField(plan: FieldPlan, value: unknown): string {
    const { field } = plan;
    switch (plan.encoder) {
      case 'legacy_coins': {
        if (field.fieldKind !== 'list') throw new AminoJsonError(`legacy_coins on a non-repeated field ${field.name}`);
        const items = (value as readonly unknown[] | undefined) ?? [];
        return items.length === 0 ? '[]' : this.list(field, items);
      }
      case 'cosmos.Dec':
      case 'cosmos.Int': {
        if (field.fieldKind !== 'scalar' || (field.scalar !== ScalarType.STRING && field.scalar !== ScalarType.BYTES)) {
          throw new AminoJsonError(`${plan.encoder} on field ${field.name} of unsupported type`);
        }
        const text = value === undefined ? '' : typeof value === 'string' ? value : new TextDecoder().decode(value as Uint8Array);
        if (text === '') return '"0"';
        if (plan.encoder === 'cosmos.Int') return goJsonString(text);
        try {
          // A plain-string cosmos.Dec (no gogoproto customtype, e.g. gov v1 params and vote
          // weights) already holds the decimal text: print it with 18 digits.
          return goJsonString(legacyDecFromWire(text.includes('.') ? legacyDecToWire(text) : text));
        } catch {
          throw new AminoJsonError(`failed to unmarshal for Amino JSON encoding; string "${text}" into Dec`);
        }
      }
      default:
        throw new AminoJsonError(`unknown field encoder for ${field.name}`);
    }
  }

  private keyField(schema: DescMessage, message: Fields): string {
    const key = schema.fields.find((f) => f.name === 'key');
    if (key === undefined) throw new AminoJsonError('message encoder for key_field: no field named "key" found');
    const bytes = (message[key.localName] as Uint8Array | undefined) ?? new Uint8Array(0);
    return bytes.length === 0 ? 'null' : `"${base64Encode(bytes, 'std')}"`;
  }

  private thresholdString(schema: DescMessage, message: Fields): string {
    const pubKeysField = schema.fields.find((f) => f.name === 'public_keys');
    const thresholdField = schema.fields.find((f) => f.name === 'threshold');
    if (pubKeysField === undefined || thresholdField === undefined || pubKeysField.fieldKind !== 'list') {
      throw new AminoJsonError(`thresholdStringEncoder: ${schema.typeName} is not a multisig.LegacyAminoPubKey`);
    }
    const keys = (message[pubKeysField.localName] as readonly unknown[]) ?? [];
    return `{"pubkeys":${keys.length === 0 ? '[]' : this.list(pubKeysField, keys)},"threshold":"${String(message[thresholdField.localName] ?? 0)}"}`;
  }

  private moduleAccount(message: Fields): string {
    const base = message['baseAccount'] as Fields | undefined;
    const permissions = (message['permissions'] as readonly string[] | undefined) ?? [];
    const address = (base?.['address'] as string | undefined) ?? '';
    const accountNumber = (base?.['accountNumber'] as bigint | undefined) ?? 0n;
    const sequence = (base?.['sequence'] as bigint | undefined) ?? 0n;
    // encoding/json of a Go struct: fields in declaration order (already sorted), uint64 as numbers.
    return (
      `{"account_number":${accountNumber},"address":${goJsonString(address)},"name":${goJsonString((message['name'] as string | undefined) ?? '')},` +
      `"permissions":${permissions.length === 0 ? 'null' : `[${permissions.map(goJsonString).join(',')}]`},"public_key":"","sequence":${sequence}}`
    );
  }
}

function zeroOf(type: ScalarType): unknown {
  switch (type) {
    case ScalarType.STRING:
      return '';
    case ScalarType.BOOL:
      return false;
    case ScalarType.BYTES:
      return new Uint8Array(0);
    case ScalarType.INT64:
    case ScalarType.UINT64:
    case ScalarType.SINT64:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return 0n;
    default:
      return 0;
  }
}

/** What a StdSignDoc is built from (one signer's view of a tx). */
export interface StdSignDocInput {
  readonly chainId: string;
  readonly accountNumber: bigint;
  readonly sequence: bigint;
  /** 0 = not set (left out of the document). */
  readonly timeoutHeight: bigint;
  readonly memo: string;
  /** The tx's messages, as Anys or already decoded (the node has them decoded). */
  readonly msgs: readonly (Any | DecodedAny)[];
  readonly fee: {
    readonly amount: readonly Coin[];
    readonly gasLimit: bigint;
    readonly payer: string;
    readonly granter: string;
  };
}

const utf8 = new TextEncoder();

/**
 * SIGN_MODE_LEGACY_AMINO_JSON sign bytes: the StdSignDoc as sorted, compact amino JSON.
 * `new AminoJsonSigner({ nameOverrides })` — the overrides name message types whose proto has no
 * `(amino.name)`.
 */
export class AminoJsonSigner {
  readonly encoder: AminoJsonEncoder;

  constructor(options: AminoJsonOptions = {}) {
    this.encoder = new AminoJsonEncoder(options);
  }

  /** The sign document as a JSON string. Throws AminoJsonError when a message cannot be encoded. */
  signDocJson(doc: StdSignDocInput): string {
    const fee = doc.fee;
    const amount = fee.amount.length === 0 ? '[]' : `[${fee.amount.map((coin) => this.encoder.encodeMessage(CoinSchema, coin)).join(',')}]`;
    let feeJson = `{"amount":${amount},"gas":"${fee.gasLimit}"`;
    if (fee.granter !== '') feeJson += `,"granter":${goJsonString(fee.granter)}`;
    if (fee.payer !== '') feeJson += `,"payer":${goJsonString(fee.payer)}`;
    feeJson += '}';
    const msgs = doc.msgs.length === 0 ? 'null' : `[${doc.msgs.map((any) => this.encoder.encodeTxMessage(any)).join(',')}]`;
    let json =
      `{"account_number":"${doc.accountNumber}","chain_id":${goJsonString(doc.chainId)},"fee":${feeJson},` +
      `"memo":${goJsonString(doc.memo)},"msgs":${msgs},"sequence":"${doc.sequence}"`;
    if (doc.timeoutHeight !== 0n) json += `,"timeout_height":"${doc.timeoutHeight}"`;
    return `${json}}`;
  }

  /** UTF-8 of `signDocJson(doc)`: what the signer signs (sha256 for secp256k1, keccak256 for eth_secp256k1). */
  signBytes(doc: StdSignDocInput): Uint8Array {
    return utf8.encode(this.signDocJson(doc));
  }
}
