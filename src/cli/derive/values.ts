/**
 * What a user typed for a request field → its gateway-JSON value (the dialect the REST gateway
 * reads; `fromGatewayJson` then builds the message). Every error is one line naming the argument
 * or flag, with the usage exit code, raised before anything is signed or sent.
 */
import type { JsonObject, JsonValue } from '@bufbuild/protobuf';
import { TokendError, isTokendError } from '../../util/errors.js';
import { EXIT_USAGE } from '../base.js';
import type { AddressKind, FieldInput } from './plan.js';

function invalid(label: string, raw: string, why: string, hint?: string): TokendError {
  return new TokendError('INVALID_ARGUMENT', `invalid ${label} "${raw}": ${why}`, { hint, exitCode: EXIT_USAGE });
}

/** bech32 of the address bytes under the prefix of `kind`. */
export async function addressString(bytes: Uint8Array, kind: AddressKind): Promise<string> {
  const address = await import('../../keyring/address.js');
  if (kind === 'validator') return address.toValidatorOperatorAddress(bytes);
  if (kind === 'consensus') return address.toConsensusAddress(bytes);
  if (kind === 'hex') return `0x${Buffer.from(bytes).toString('hex')}`;
  return address.toAccountAddress(bytes);
}

/**
 * An address field: 0x hex becomes bech32 under the field's prefix; bech32 is checked (checksum,
 * one of the chain's prefixes, 20 bytes) and kept as typed, so the node still tells an account
 * from an operator address.
 */
async function addressValue(input: FieldInput, raw: string, label: string): Promise<string> {
  const { parseAddress } = await import('../../keyring/address.js');
  const text = raw.trim();
  let bytes: Uint8Array;
  try {
    bytes = parseAddress(text);
  } catch (err) {
    if (isTokendError(err)) throw new TokendError(err.code, `invalid ${label}: ${err.message}`, { hint: err.hint, exitCode: EXIT_USAGE });
    throw err;
  }
  if (input.address === 'hex') return addressString(bytes, 'hex');
  return /^0x/i.test(text) || /^[0-9a-fA-F]{40}$/.test(text) ? addressString(bytes, input.address ?? 'account') : text.toLowerCase();
}

function integerValue(input: FieldInput, raw: string, label: string): JsonValue {
  const text = raw.trim();
  const pattern = input.kind === 'uint' ? /^\d+$/ : /^-?\d+$/;
  if (!pattern.test(text)) throw invalid(label, raw, input.kind === 'uint' ? 'expected a non-negative integer' : 'expected an integer');
  const value = BigInt(text);
  const limit = input.bits64 ? 64n : 32n;
  const max = input.kind === 'uint' ? (1n << limit) - 1n : (1n << (limit - 1n)) - 1n;
  const min = input.kind === 'uint' ? 0n : -(1n << (limit - 1n));
  if (value > max || value < min) throw invalid(label, raw, `out of range for a ${input.kind === 'uint' ? 'u' : ''}int${limit}`);
  // 64-bit integers are strings in gateway JSON, 32-bit ones numbers.
  return input.bits64 ? value.toString() : Number(value);
}

function bytesValue(raw: string, label: string): string {
  const text = raw.trim();
  if (/^0x([0-9a-fA-F]{2})*$/.test(text)) return Buffer.from(text.slice(2), 'hex').toString('base64');
  if (/^[A-Za-z0-9+/]*={0,2}$/.test(text) && text.length % 4 === 0) return text;
  if (/^[A-Za-z0-9_-]*$/.test(text)) return Buffer.from(text, 'base64url').toString('base64');
  throw invalid(label, raw, 'expected base64 or 0x-prefixed hex');
}

async function coinsValue(raw: string, label: string, single: boolean): Promise<JsonValue> {
  const { parseCoins } = await import('../../node/client/coins.js');
  let coins;
  try {
    coins = parseCoins(raw);
  } catch (err) {
    if (isTokendError(err)) throw new TokendError('INVALID_ARGUMENT', `invalid ${label}: ${err.message}`, { hint: err.hint, exitCode: EXIT_USAGE });
    throw err;
  }
  const json = coins.map((coin): JsonObject => ({ denom: coin.denom, amount: coin.amount.toString() }));
  if (!single) return json;
  if (json.length !== 1) throw invalid(label, raw, 'expected one coin', 'e.g. 1000attotoken');
  return json[0]!;
}

function jsonValue(raw: string, label: string): JsonValue {
  try {
    return JSON.parse(raw) as JsonValue;
  } catch (err) {
    throw invalid(label, raw.length > 60 ? `${raw.slice(0, 57)}...` : raw, `not JSON (${(err as Error).message})`);
  }
}

/** One value (an element, for a list of scalars). */
async function scalarValue(input: FieldInput, raw: string, label: string): Promise<JsonValue> {
  switch (input.kind) {
    case 'address':
      return addressValue(input, raw, label);
    case 'int':
    case 'uint':
      return integerValue(input, raw, label);
    case 'float': {
      const value = Number(raw.trim());
      if (raw.trim() === '' || !Number.isFinite(value)) throw invalid(label, raw, 'expected a number');
      return value;
    }
    case 'bool': {
      const text = raw.trim().toLowerCase();
      if (text !== 'true' && text !== 'false') throw invalid(label, raw, 'expected true or false');
      return text === 'true';
    }
    case 'bytes':
      return bytesValue(raw, label);
    case 'enum': {
      const wanted = raw.trim().toUpperCase();
      const value = input.enumValues?.find((name) => name === wanted);
      if (value === undefined) throw invalid(label, raw, `expected one of ${(input.enumValues ?? []).join(', ')}`);
      return value;
    }
    case 'coin':
      return coinsValue(raw, label, true);
    case 'coins':
      return coinsValue(raw, label, false);
    case 'json':
      return jsonValue(raw, label);
    case 'string':
      return raw;
  }
}

/**
 * The gateway-JSON value of `input` from what the user typed: one string, or several for a list
 * of scalars (each may also be comma-separated). `label` names the argument or flag in errors.
 */
export async function fieldValue(input: FieldInput, raw: string | boolean | readonly string[], label: string): Promise<JsonValue> {
  if (typeof raw === 'boolean') return raw;
  if (input.repeated) {
    const items = (typeof raw === 'string' ? [raw] : raw).flatMap((item) => item.split(',')).map((item) => item.trim()).filter(Boolean);
    const values: JsonValue[] = [];
    for (const item of items) values.push(await scalarValue(input, item, label));
    return values;
  }
  const text = typeof raw === 'string' ? raw : raw.join(',');
  return scalarValue(input, text, label);
}
