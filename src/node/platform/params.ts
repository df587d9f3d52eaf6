/**
 * Module parameter spaces (x/params subspaces): how the params module reads one parameter of a
 * module as the SDK's legacy amino JSON and how a ParameterChangeProposal changes it. A module
 * with params declares `paramSpace` in its ModuleInstance — usually `protoParamSpace(...)` over
 * its keeper's getParams/setParams and its MsgUpdateParams validation — and the params module
 * serves every declared space (subspace = module name) without a link to the module.
 */
import type { DescField, DescMessage, JsonObject, JsonValue, MessageShape } from '@bufbuild/protobuf';
import { AminoJsonEncoder } from '../codec/aminoJson.js';
import { fromGatewayJson, toGatewayJson } from '../codec/json.js';
import type { Context } from '../modules/shared/context.js';
import { registerError, SdkErrors } from '../modules/shared/errors.js';

/** x/params errors (codespace "params", x/params/types/proposal/errors.go). */
export const ParamsErrors = {
  UnknownSubspace: registerError('params', 2, 'unknown subspace'),
  SettingParameter: registerError('params', 3, 'failed to set parameter'),
  EmptyChanges: registerError('params', 4, 'submitted parameter changes are empty'),
  EmptySubspace: registerError('params', 5, 'parameter subspace is empty'),
  EmptyKey: registerError('params', 6, 'parameter key is empty'),
  EmptyValue: registerError('params', 7, 'parameter value is empty'),
};

/** One parameter change (subspace implied): the key and its new value as amino JSON. */
export interface ParamSpaceChange {
  readonly key: string;
  readonly value: string;
}

/** A module's parameter space. */
export interface ParamSpace {
  /** The SDK's parameter keys, in the module's order. */
  readonly keys: readonly string[];
  /** The value of `key` as amino JSON text; undefined for an unknown key. */
  get(ctx: Context, key: string): string | undefined;
  /**
   * Applies the changes together and validates the result as the module's MsgUpdateParams
   * would; throws an SdkError (nothing written) for an unknown key, bad JSON or invalid params.
   */
  set(ctx: Context, changes: readonly ParamSpaceChange[]): void;
}

/** Every module's space, by subspace name (filled by the module manager). */
export class ParamSpaces {
  private readonly spaces = new Map<string, ParamSpace>();

  register(subspace: string, space: ParamSpace): void {
    if (this.spaces.has(subspace)) throw new Error(`param subspace ${subspace} is declared twice`);
    this.spaces.set(subspace, space);
  }

  get(subspace: string): ParamSpace | undefined {
    return this.spaces.get(subspace);
  }

  /** Subspace names, sorted. */
  names(): string[] {
    return [...this.spaces.keys()].sort();
  }
}

export interface ProtoParamSpaceOptions<S extends DescMessage> {
  get(ctx: Context): MessageShape<S>;
  set(ctx: Context, params: MessageShape<S>): void;
  /** Problems of a params value (the module's MsgUpdateParams validation); [] when valid. */
  validate(params: MessageShape<S>): string[];
  /** SDK key by proto field name where it is not the field's CamelCase name (unbonding_time → UnbondingTime). */
  keyNames?: Readonly<Record<string, string>>;
  /** Proto fields that are not parameters of the subspace. */
  omit?: readonly string[];
}

const encoder = new AminoJsonEncoder();

function camel(name: string): string {
  return name.split('_').map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join('');
}

/** The amino JSON zero value of a field left out of the encoding. */
function zeroAmino(field: DescField): JsonValue {
  if (field.fieldKind === 'list' || field.fieldKind === 'map') return field.fieldKind === 'list' ? [] : {};
  if (field.fieldKind === 'message') return null;
  if (field.fieldKind === 'enum') return 0;
  switch (field.scalar) {
    case 8: // BOOL
      return false;
    case 9: // STRING
    case 12: // BYTES
      return '';
    case 3: // INT64
    case 4: // UINT64
    case 6: // FIXED64
    case 16: // SFIXED64
    case 18: // SINT64
      return '0';
    default:
      return 0;
  }
}

/** Amino JSON of one field → the gateway (proto) JSON of the same field. */
function aminoToGateway(field: DescField, value: JsonValue): JsonValue {
  if (field.fieldKind === 'message' && field.message.typeName === 'google.protobuf.Duration') {
    if (typeof value !== 'string' && typeof value !== 'number') throw new Error('a duration is its nanoseconds as a string');
    const nanos = BigInt(value);
    const seconds = nanos / 1_000_000_000n;
    const rest = (nanos < 0n ? -nanos : nanos) % 1_000_000_000n;
    return rest === 0n ? `${seconds}s` : `${seconds}.${rest.toString().padStart(9, '0')}s`;
  }
  return value;
}

/**
 * A parameter space over a module's proto Params: each field is a key (CamelCase of its name
 * unless renamed), read as the field's amino JSON and changed through the gateway JSON of the
 * whole params, which must then pass `validate`.
 */
export function protoParamSpace<S extends DescMessage>(schema: S, options: ProtoParamSpaceOptions<S>): ParamSpace {
  const omit = new Set(options.omit ?? []);
  const fields = schema.fields.filter((field) => !omit.has(field.name));
  const byKey = new Map(fields.map((field) => [options.keyNames?.[field.name] ?? camel(field.name), field]));
  const aminoOf = (params: MessageShape<S>): JsonObject => {
    const json = JSON.parse(encoder.encodeMessage(schema, params)) as JsonObject;
    return typeof json.type === 'string' && json.value !== undefined && Object.keys(json).length === 2 ? (json.value as JsonObject) : json;
  };
  return {
    keys: [...byKey.keys()],
    get(ctx, key) {
      const field = byKey.get(key);
      if (field === undefined) return undefined;
      const value = aminoOf(options.get(ctx))[field.name];
      return JSON.stringify(value === undefined ? zeroAmino(field) : value);
    },
    set(ctx, changes) {
      const json = toGatewayJson(schema, options.get(ctx)) as JsonObject;
      for (const change of changes) {
        const field = byKey.get(change.key);
        if (field === undefined) throw ParamsErrors.SettingParameter.wrap(`parameter ${change.key} not registered`);
        let value: JsonValue;
        try {
          value = aminoToGateway(field, JSON.parse(change.value) as JsonValue);
        } catch (err) {
          throw ParamsErrors.SettingParameter.wrap(`key: ${change.key}, value: ${change.value}, err: ${err instanceof Error ? err.message : String(err)}`);
        }
        json[field.name] = value;
      }
      let params: MessageShape<S>;
      try {
        params = fromGatewayJson(schema, json);
      } catch (err) {
        throw ParamsErrors.SettingParameter.wrap(err instanceof Error ? err.message : String(err));
      }
      const problems = options.validate(params);
      if (problems.length > 0) throw SdkErrors.InvalidRequest.wrap(problems.join('; '));
      options.set(ctx, params);
    },
  };
}

/**
 * One subspace over several modules' (or submodules') param spaces, as ibc-go's "ibc" subspace
 * holds both 02-client's AllowedClients and 03-connection's MaxExpectedTimePerBlock: each key
 * goes to the space that has it; changes are applied space by space (an unknown key refused first).
 */
export function mergedParamSpace(...spaces: readonly ParamSpace[]): ParamSpace {
  const owner = (key: string) => spaces.find((space) => space.keys.includes(key));
  return {
    keys: spaces.flatMap((space) => space.keys),
    get: (ctx, key) => owner(key)?.get(ctx, key),
    set(ctx, changes) {
      for (const change of changes) {
        if (owner(change.key) === undefined) throw ParamsErrors.SettingParameter.wrap(`parameter ${change.key} not registered`);
      }
      for (const space of spaces) {
        const mine = changes.filter((change) => space.keys.includes(change.key));
        if (mine.length > 0) space.set(ctx, mine);
      }
    },
  };
}
