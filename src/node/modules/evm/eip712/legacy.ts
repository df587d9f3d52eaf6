/**
 * Ethermint v0.22's legacy EIP-712 typed data for a Cosmos tx (what an Ethereum wallet signs
 * when it signs a tx carrying ExtensionOptionsWeb3Tx):
 *
 * - domain: name "Cosmos Web3", version "1.0.0", chainId = the extension's typed_data_chain_id,
 *   verifyingContract "cosmos", salt "0" (EIP712Domain declares all but chainId as `string`);
 * - primary type `Tx` {account_number, chain_id string; fee Fee; memo string; msgs Msg[];
 *   sequence string}; `Fee` {feePayer string, amount Coin[], gas string}; `Coin` {denom, amount};
 *   `Msg` {type string, value MsgValue};
 * - the message: the tx's legacy amino JSON sign doc (StdSignDoc with fee = amount and gas only)
 *   with `fee.feePayer` = the fee payer's bech32 address;
 * - `MsgValue` and the types under it come from the FIRST message alone, field by field in the
 *   order the proto declares them (the Go struct's order), under each field's JSON name:
 *   fields with a zero value are left out; string → `string`, bool → `bool`, (s)int32/sfixed32 and
 *   enums → `int32`, (s)int64/sfixed64 → `int64`, uint32/fixed32 → `uint32`, uint64/fixed64 →
 *   `uint64`, bytes → `uint8[]`, Timestamp → `string`, Duration → `int64`, float/double and maps
 *   not at all; a repeated field takes its element's type plus `[]`, derived from its first
 *   element; a nested message gets its own type named from its path (`_.amount` → `TypeAmount`,
 *   `_.content.value` → `TypeContentValue`); an Any becomes `{type string, value <its message>}`.
 *
 * Every message must then fit the first one's types: a tx mixing message types fails to hash
 * (go-ethereum's "provided data … doesn't match type …" / "there is extra data …"), as in Ethermint.
 */
import { fromBinary, getOption, hasOption, ScalarType, type DescField, type DescMessage, type Message } from '@bufbuild/protobuf';
import type { Any } from '@bufbuild/protobuf/wkt';
import { field_name } from '../../../../gen/amino/amino_pb.js';
import { nullable } from '../../../../gen/gogoproto/gogo_pb.js';
import { registry as defaultRegistry } from '../../../codec/index.js';
import { typeNameFromUrl } from '../../../codec/any.js';
import { TypedDataError, type TypedData, type TypedField, type TypedValue, type Types } from './typedData.js';

export const EIP712_DOMAIN_NAME = 'Cosmos Web3';
export const EIP712_DOMAIN_VERSION = '1.0.0';
export const EIP712_VERIFYING_CONTRACT = 'cosmos';
export const EIP712_SALT = '0';

const ROOT_PREFIX = '_';
const TYPE_PREFIX = 'Type';
const MSG_VALUE = 'MsgValue';

/** `_.foo_bar.baz` → `TypeFooBarBaz` (Ethermint's sanitizeTypedef). */
export function sanitizeTypedef(path: string): string {
  let out = '';
  for (const part of path.split('.')) {
    if (part === ROOT_PREFIX) {
      out += TYPE_PREFIX;
      continue;
    }
    for (const sub of part.split('_')) out += sub.length === 0 ? '' : sub[0]!.toUpperCase() + sub.slice(1);
  }
  return out;
}

/** The types every legacy EIP-712 tx shares, with an empty `MsgValue`. */
/**
 * The types both EIP-712 encodings share (Ethermint's eip712 package): the domain, the fee and its
 * coins, and the Tx fields; `msgs` is where the encodings differ (one `Msg[]` field here, flattened
 * `msg0…` fields in the current encoding).
 */
export function baseTypes(txFields: readonly TypedField[]): Types {
  return {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
      { name: 'verifyingContract', type: 'string' },
      { name: 'salt', type: 'string' },
    ],
    Tx: [
      { name: 'account_number', type: 'string' },
      { name: 'chain_id', type: 'string' },
      { name: 'fee', type: 'Fee' },
      { name: 'memo', type: 'string' },
      ...txFields,
      { name: 'sequence', type: 'string' },
    ],
    Fee: [
      { name: 'amount', type: 'Coin[]' },
      { name: 'gas', type: 'string' },
    ],
    Coin: [
      { name: 'denom', type: 'string' },
      { name: 'amount', type: 'string' },
    ],
  };
}

function rootTypes(): Types {
  return {
    ...baseTypes([{ name: 'msgs', type: 'Msg[]' }]),
    Msg: [
      { name: 'type', type: 'string' },
      { name: 'value', type: MSG_VALUE },
    ],
    [MSG_VALUE]: [],
  };
}

type Fields = Record<string, unknown>;

/** One field of the Go struct: a proto field, or a whole oneof (one interface field in Go). */
type GoField = { kind: 'field'; field: DescField } | { kind: 'oneof'; localName: string };

const goFieldCache = new WeakMap<DescMessage, GoField[]>();

function goFields(schema: DescMessage): GoField[] {
  const cached = goFieldCache.get(schema);
  if (cached !== undefined) return cached;
  const out: GoField[] = [];
  const seen = new Set<string>();
  for (const field of schema.fields) {
    if (field.oneof === undefined) out.push({ kind: 'field', field });
    else if (!seen.has(field.oneof.localName)) {
      seen.add(field.oneof.localName);
      out.push({ kind: 'oneof', localName: field.oneof.localName });
    }
  }
  goFieldCache.set(schema, out);
  return out;
}

// Reading an option decodes it from the descriptor each time: remember the answers per field.
const fieldFacts = new WeakMap<DescField, { name: string; nonNullable: boolean }>();

function facts(field: DescField): { name: string; nonNullable: boolean } {
  let known = fieldFacts.get(field);
  if (known === undefined) {
    known = { name: hasOption(field, field_name) ? getOption(field, field_name) : field.name, nonNullable: hasOption(field, nullable) && getOption(field, nullable) === false };
    fieldFacts.set(field, known);
  }
  return known;
}

function jsonName(field: DescField): string {
  return facts(field).name;
}

function scalarEthType(type: ScalarType): string {
  switch (type) {
    case ScalarType.STRING:
      return 'string';
    case ScalarType.BOOL:
      return 'bool';
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return 'int32';
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      return 'int64';
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return 'uint32';
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return 'uint64';
    case ScalarType.BYTES:
      return 'uint8[]';
    default:
      return ''; // float, double: no EIP-712 type (the field is left out)
  }
}

function isZeroScalar(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (value instanceof Uint8Array) return value.length === 0;
  return value === 0 || value === 0n || value === '' || value === false;
}

/** Every field zero (reflect's IsZero of a non-nullable struct). */
function isDeepZero(schema: DescMessage, message: Fields): boolean {
  for (const field of schema.fields) {
    if (field.oneof !== undefined) {
      if ((message[field.oneof.localName] as { case?: string } | undefined)?.case !== undefined) return false;
      continue;
    }
    const value = message[field.localName];
    switch (field.fieldKind) {
      case 'list':
        if ((value as unknown[]).length > 0) return false;
        break;
      case 'map':
        if (Object.keys(value as object).length > 0) return false;
        break;
      case 'message':
        if (value !== undefined && !isDeepZero(field.message, value as Fields)) return false;
        break;
      default:
        if (!isZeroScalar(value)) return false;
    }
  }
  return true;
}

/** An Any's wrapper `{type, value}`, as Ethermint unpacks it. */
interface AnyWrapper {
  readonly typeUrl: string;
  readonly schema: DescMessage;
  readonly message: Fields;
}

export class LegacyTypesBuilder {
  constructor(private readonly registry = defaultRegistry) {}

  private unpack(any: Any | undefined): AnyWrapper {
    // Ethermint reads the TypeUrl of a nil Any, which panics (and is recovered as this error).
    if (any === undefined) throw new TypedDataError('panicked with error: runtime error: invalid memory address or nil pointer dereference');
    const schema = this.registry.getMessage(typeNameFromUrl(any.typeUrl));
    if (schema === undefined) throw new TypedDataError(`failed to unpack Any in msg struct: no concrete type registered for type URL ${any.typeUrl} against interface *interface {}: failed unpacking protobuf message from Any`);
    let message: Message;
    try {
      message = fromBinary(schema, any.value);
    } catch (err) {
      throw new TypedDataError(`failed to unpack Any in msg struct: ${err instanceof Error ? err.message : String(err)}`);
    }
    return { typeUrl: any.typeUrl, schema, message: message as unknown as Fields };
  }

  /** The types of a legacy EIP-712 tx whose first message is `schema`/`message`. */
  types(schema: DescMessage, message: Message): Types {
    const types = rootTypes();
    this.traverse(types, ROOT_PREFIX, schema, message as unknown as Fields);
    return types;
  }

  private append(types: Types, prefix: string, entry: TypedField): void {
    const typeDef = prefix === ROOT_PREFIX ? MSG_VALUE : sanitizeTypedef(prefix);
    (types[typeDef] ??= []).push(entry);
  }

  private traverse(types: Types, prefix: string, schema: DescMessage, message: Fields): void {
    const fields = goFields(schema);
    const typeDef = prefix === ROOT_PREFIX ? MSG_VALUE : sanitizeTypedef(prefix);
    if ((types[typeDef]?.length ?? 0) === fields.length) return;
    fields.forEach((goField, index) => {
      if (goField.kind === 'oneof') {
        // A set oneof is an interface field without a JSON name in Go: go-ethereum refuses the empty name.
        if ((message[goField.localName] as { case?: string } | undefined)?.case !== undefined) throw new TypedDataError(`type "${typeDef}":${index}: empty Name`);
        return;
      }
      const field = goField.field;
      const name = jsonName(field);
      const value = message[field.localName];
      const path = `${prefix}.${name}`;
      switch (field.fieldKind) {
        case 'map':
          return;
        case 'scalar': {
          if (isZeroScalar(value)) return;
          const type = scalarEthType(field.scalar);
          if (type !== '') this.append(types, prefix, { name, type });
          return;
        }
        case 'enum':
          if (isZeroScalar(value)) return;
          this.append(types, prefix, { name, type: 'int32' });
          return;
        case 'list': {
          const list = value as unknown[];
          if (list.length === 0) return;
          if (field.listKind === 'scalar') {
            const type = scalarEthType(field.scalar);
            if (type !== '') this.append(types, prefix, { name, type: type.endsWith('[]') ? type : `${type}[]` });
            return;
          }
          if (field.listKind === 'enum') {
            this.append(types, prefix, { name, type: 'int32[]' });
            return;
          }
          this.messageField(types, prefix, path, name, field.message, list[0] as Fields, true);
          return;
        }
        case 'message': {
          if (field.message.typeName === 'google.protobuf.Any') {
            this.messageField(types, prefix, path, name, field.message, value as Fields | undefined, false);
            return;
          }
          if (value === undefined) return;
          if (facts(field).nonNullable && isDeepZero(field.message, value as Fields)) return;
          this.messageField(types, prefix, path, name, field.message, value as Fields, false);
          return;
        }
      }
    });
  }

  private messageField(types: Types, prefix: string, path: string, name: string, schema: DescMessage, value: Fields | undefined, repeated: boolean): void {
    const suffix = repeated ? '[]' : '';
    switch (schema.typeName) {
      case 'google.protobuf.Timestamp':
        this.append(types, prefix, { name, type: `string${suffix}` });
        return;
      case 'google.protobuf.Duration':
        this.append(types, prefix, { name, type: `int64${suffix}` });
        return;
      case 'google.protobuf.Any': {
        const wrapper = this.unpack(value as unknown as Any | undefined);
        this.append(types, prefix, { name, type: sanitizeTypedef(path) + suffix });
        this.traverseAny(types, path, wrapper);
        return;
      }
    }
    this.append(types, prefix, { name, type: sanitizeTypedef(path) + suffix });
    this.traverse(types, path, schema, value ?? {});
  }

  /** The wrapper struct {Type string `json:"type"`; Value interface{} `json:"value"`}. */
  private traverseAny(types: Types, path: string, wrapper: AnyWrapper): void {
    const typeDef = sanitizeTypedef(path);
    if ((types[typeDef]?.length ?? 0) === 2) return;
    if (wrapper.typeUrl !== '') this.append(types, path, { name: 'type', type: 'string' });
    const valuePath = `${path}.value`;
    if (wrapper.schema.typeName === 'cosmos.crypto.ed25519.PubKey') {
      this.append(types, path, { name: 'value', type: 'string' });
      return;
    }
    this.append(types, path, { name: 'value', type: sanitizeTypedef(valuePath) });
    this.traverse(types, valuePath, wrapper.schema, wrapper.message);
  }
}

const defaultBuilder = new LegacyTypesBuilder();

export interface LegacyTypedDataInput {
  /** typed_data_chain_id of the extension option. */
  readonly chainId: bigint;
  /** The legacy amino JSON StdSignDoc (fee with amount and gas only). */
  readonly signDocJson: string;
  /** The first message of the tx, decoded. */
  readonly firstMsg: { readonly schema: DescMessage; readonly message: Message };
  /** The fee payer's bech32 address as Ethermint writes it back. */
  readonly feePayer: string;
}

/** The typed data an Ethereum wallet signed for this tx (Ethermint's LegacyWrapTxToTypedData). */
export function legacyTypedData(input: LegacyTypedDataInput, builder: LegacyTypesBuilder = defaultBuilder): TypedData {
  let message: Record<string, TypedValue>;
  try {
    message = JSON.parse(input.signDocJson) as Record<string, TypedValue>;
  } catch {
    throw new TypedDataError('failed to JSON unmarshal data: failed to unmarshal JSON bytes');
  }
  const types = builder.types(input.firstMsg.schema, input.firstMsg.message);
  const fee = message['fee'];
  if (typeof fee !== 'object' || fee === null || Array.isArray(fee)) throw new TypedDataError('cannot parse fee from tx data: invalid type');
  fee['feePayer'] = input.feePayer;
  types['Fee'] = [
    { name: 'feePayer', type: 'string' },
    { name: 'amount', type: 'Coin[]' },
    { name: 'gas', type: 'string' },
  ];
  return {
    types,
    primaryType: 'Tx',
    domain: { name: EIP712_DOMAIN_NAME, version: EIP712_DOMAIN_VERSION, chainId: input.chainId, verifyingContract: EIP712_VERIFYING_CONTRACT, salt: EIP712_SALT },
    message,
  };
}
