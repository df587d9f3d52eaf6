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
import { reflect, type ReflectList, type ReflectMessage } from '@bufbuild/protobuf/reflect';
import { base64Encode } from '@bufbuild/protobuf/wire';
import type { Any } from '@bufbuild/protobuf/wkt';
import { dont_omitempty, encoding, field_name, message_encoding, name as aminoNameOption, oneof_name } from '../../gen/amino/amino_pb.js';
import { CoinSchema, type Coin } from '../../gen/cosmos/base/v1beta1/coin_pb.js';
import { scalar } from '../../gen/cosmos_proto/cosmos_pb.js';
import { typeNameFromUrl } from './any.js';
import { legacyDecFromWire } from './decimal.js';
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

/** Go's encoding/json string escaping (HTML-safe): JSON.stringify plus \u003c \u003e \u0026 \u2028 \u2029. */
export function goJsonString(text: string): string {
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

function fieldNamed(schema: DescMessage, name: string): DescField {
  const field = schema.fields.find((f) => f.name === name);
  if (field === undefined) throw new AminoJsonError(`${schema.typeName} has no field ${name}`);
  return field;
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

/** Encodes protobuf-es messages as amino JSON (see the file comment). Stateless apart from caches. */
export class AminoJsonEncoder {
  private readonly registry: Registry;
  private readonly overrides: ReadonlyMap<string, string>;
  private readonly plans = new WeakMap<DescMessage, readonly FieldPlan[]>();

  constructor(options: AminoJsonOptions = {}) {
    this.registry = options.registry ?? defaultRegistry;
    const overrides = options.nameOverrides;
    this.overrides = overrides === undefined ? new Map() : overrides instanceof Map ? overrides : new Map(Object.entries(overrides as Record<string, string>));
  }

  /** The amino name of a message type (override first, then `(amino.name)`), if it has one. */
  aminoName(schema: DescMessage): string | undefined {
    const override = this.overrides.get(schema.typeName);
    if (override !== undefined) return override;
    return hasOption(schema, aminoNameOption) ? getOption(schema, aminoNameOption) : undefined;
  }

  /** The amino JSON of a message as it appears inside an Any: `{"type":…,"value":…}`. */
  encodeAny(any: Any): string {
    const schema = this.resolve(any.typeUrl);
    const message = this.unpack(schema, any);
    return this.wrapped(schema, reflect(schema, message), true);
  }

  /** The amino JSON of a message at the top level (wrapped only if it has an amino name). */
  encodeMessage(schema: DescMessage, message: Message): string {
    return this.wrapped(schema, reflect(schema, message), false);
  }

  /** The SDK's `msgs` entry of a tx message: requires an amino name. */
  encodeTxMessage(any: Any): string {
    const schema = this.resolve(any.typeUrl);
    if (this.aminoName(schema) === undefined) {
      throw new AminoJsonError(`${any.typeUrl} has no amino name, so it cannot be signed with SIGN_MODE_LEGACY_AMINO_JSON`, any.typeUrl);
    }
    return this.encodeAny(any);
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

  private wrapped(schema: DescMessage, message: ReflectMessage, isAny: boolean): string {
    const name = this.aminoName(schema) ?? (isAny ? `/${schema.typeName}` : undefined);
    const body = this.message(message);
    return name === undefined ? body : `{"type":${goJsonString(name)},"value":${body}}`;
  }

  private fieldPlans(schema: DescMessage): readonly FieldPlan[] {
    let plans = this.plans.get(schema);
    if (plans !== undefined) return plans;
    plans = schema.fields
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
    this.plans.set(schema, plans);
    return plans;
  }

  private message(message: ReflectMessage): string {
    const schema = message.desc;
    switch (schema.typeName) {
      case 'google.protobuf.Timestamp':
        return `"${formatTimestamp(message.get(fieldNamed(schema, 'seconds')) as bigint, message.get(fieldNamed(schema, 'nanos')) as number)}"`;
      case 'google.protobuf.Duration': {
        const seconds = message.get(fieldNamed(schema, 'seconds')) as bigint;
        if (seconds > MAX_DURATION_SECONDS) throw new AminoJsonError(`${seconds} seconds would overflow an int64 when represented as nanoseconds`);
        const nanos = BigInt(message.get(fieldNamed(schema, 'nanos')) as number);
        return `"${seconds * 1_000_000_000n + nanos}"`;
      }
      case 'google.protobuf.Any': {
        const typeUrl = message.get(fieldNamed(schema, 'type_url')) as string;
        const value = message.get(fieldNamed(schema, 'value')) as Uint8Array;
        return this.encodeAny({ $typeName: 'google.protobuf.Any', typeUrl, value });
      }
    }
    const messageEncoding = KEY_FIELD_TYPES.has(schema.typeName) ? 'key_field' : hasOption(schema, message_encoding) ? getOption(schema, message_encoding) : undefined;
    if (messageEncoding === 'key_field') return this.keyField(message);
    if (messageEncoding === 'threshold_string') return this.thresholdString(message);
    if (messageEncoding === 'module_account') return this.moduleAccount(message);

    const parts: string[] = [];
    const nullOneofs = new Set<string>();
    for (const plan of this.fieldPlans(schema)) {
      const { field } = plan;
      let name = plan.name;
      let writeNull = false;
      if (!message.isSet(field)) {
        if (field.oneof !== undefined && message.oneofCase(field.oneof) === undefined && !nullOneofs.has(plan.oneofName!)) {
          name = plan.oneofName!;
          writeNull = true;
          nullOneofs.add(name);
        } else if (plan.omitEmpty) {
          continue;
        } else if (field.fieldKind === 'message') {
          throw new AminoJsonError(`not supported: dont_omit_empty=true on invalid (nil?) message field: ${name}`);
        }
      }
      let value: string;
      if (plan.encoder !== undefined) value = this.encodedField(plan, message);
      else if (writeNull) value = 'null';
      else value = this.fieldValue(field, message);
      if (field.oneof !== undefined && !writeNull) {
        if (plan.oneofTypeName === undefined) throw new AminoJsonError(`field ${field.name} within a oneof must have the amino.oneof_type_name option set`);
        parts.push(`${goJsonString(plan.oneofName!)}:{"type":${goJsonString(plan.oneofTypeName)},"value":{${goJsonString(name)}:${value}}}`);
      } else {
        parts.push(`${goJsonString(name)}:${value}`);
      }
    }
    return `{${parts.join(',')}}`;
  }

  private fieldValue(field: DescField, message: ReflectMessage): string {
    switch (field.fieldKind) {
      case 'scalar':
        return this.scalar(field.scalar, message.get(field));
      case 'enum':
        return String(message.get(field) as number);
      case 'message':
        return this.message(message.get(field) as ReflectMessage);
      case 'list': {
        const list = message.get(field) as ReflectList;
        if (list.size === 0) return 'null';
        return this.list(field, list);
      }
      case 'map':
        throw new AminoJsonError('maps are not supported');
    }
  }

  private list(field: DescField & { fieldKind: 'list' }, list: ReflectList): string {
    const items: string[] = [];
    for (const item of list) {
      if (field.listKind === 'message') items.push(this.message(item as ReflectMessage));
      else if (field.listKind === 'enum') items.push(String(item as number));
      else items.push(this.scalar(field.scalar, item));
    }
    return `[${items.join(',')}]`;
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

  private encodedField(plan: FieldPlan, message: ReflectMessage): string {
    const { field } = plan;
    switch (plan.encoder) {
      case 'legacy_coins': {
        if (field.fieldKind !== 'list') throw new AminoJsonError(`legacy_coins on a non-repeated field ${field.name}`);
        const list = message.get(field) as ReflectList;
        return list.size === 0 ? '[]' : this.list(field, list);
      }
      case 'cosmos.Dec':
      case 'cosmos.Int': {
        if (field.fieldKind !== 'scalar' || (field.scalar !== ScalarType.STRING && field.scalar !== ScalarType.BYTES)) {
          throw new AminoJsonError(`${plan.encoder} on field ${field.name} of unsupported type`);
        }
        const raw = message.get(field);
        const text = typeof raw === 'string' ? raw : new TextDecoder().decode(raw as Uint8Array);
        if (text === '') return '"0"';
        if (plan.encoder === 'cosmos.Int') return goJsonString(text);
        try {
          return goJsonString(legacyDecFromWire(text));
        } catch {
          throw new AminoJsonError(`failed to unmarshal for Amino JSON encoding; string "${text}" into Dec`);
        }
      }
      default:
        throw new AminoJsonError(`unknown field encoder for ${field.name}`);
    }
  }

  private keyField(message: ReflectMessage): string {
    const key = message.desc.fields.find((f) => f.name === 'key');
    if (key === undefined) throw new AminoJsonError('message encoder for key_field: no field named "key" found');
    const bytes = message.get(key) as Uint8Array;
    return bytes.length === 0 ? 'null' : `"${base64Encode(bytes, 'std')}"`;
  }

  private thresholdString(message: ReflectMessage): string {
    const schema = message.desc;
    const pubKeysField = schema.fields.find((f) => f.name === 'public_keys');
    const thresholdField = schema.fields.find((f) => f.name === 'threshold');
    if (pubKeysField === undefined || thresholdField === undefined || pubKeysField.fieldKind !== 'list') {
      throw new AminoJsonError(`thresholdStringEncoder: ${schema.typeName} is not a multisig.LegacyAminoPubKey`);
    }
    const list = message.get(pubKeysField) as ReflectList;
    const keys = list.size === 0 ? '[]' : this.list(pubKeysField, list);
    return `{"pubkeys":${keys},"threshold":"${String(message.get(thresholdField))}"}`;
  }

  private moduleAccount(message: ReflectMessage): string {
    const schema = message.desc;
    const get = (m: ReflectMessage, name: string): unknown => {
      const field = m.desc.fields.find((f) => f.name === name);
      return field === undefined ? undefined : m.get(field);
    };
    const baseField = schema.fields.find((f) => f.name === 'base_account');
    const permissions = [...((get(message, 'permissions') as ReflectList | undefined) ?? [])] as string[];
    let address = '';
    let accountNumber = 0n;
    let sequence = 0n;
    if (baseField !== undefined && message.isSet(baseField)) {
      const base = message.get(baseField) as ReflectMessage;
      address = get(base, 'address') as string;
      accountNumber = get(base, 'account_number') as bigint;
      sequence = get(base, 'sequence') as bigint;
    }
    // encoding/json of a Go struct: fields in declaration order (already sorted), uint64 as numbers.
    return (
      `{"account_number":${accountNumber},"address":${goJsonString(address)},"name":${goJsonString(get(message, 'name') as string)},` +
      `"permissions":${permissions.length === 0 ? 'null' : `[${permissions.map(goJsonString).join(',')}]`},"public_key":"","sequence":${sequence}}`
    );
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
  readonly msgs: readonly Any[];
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
