/** eth_call's transaction object (TransactionArgs JSON) → CallArgs. */
import { SdkErrors } from '../shared/errors.js';
import type { CallArgs } from './keeper.js';

function hexBytes(value: unknown, what: string, length?: number): Uint8Array | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(value)) throw SdkErrors.InvalidRequest.wrap(`invalid ${what}: ${JSON.stringify(value)}`);
  const bytes = Buffer.from(value.slice(2), 'hex');
  if (length !== undefined && bytes.length !== length) throw SdkErrors.InvalidRequest.wrap(`invalid ${what}: ${value}`);
  return new Uint8Array(bytes);
}

function quantity(value: unknown, what: string): bigint | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]+$/.test(value)) throw SdkErrors.InvalidRequest.wrap(`invalid ${what}: ${JSON.stringify(value)}`);
  return BigInt(value);
}

export function callArgsFromJson(json: unknown): CallArgs {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw SdkErrors.InvalidRequest.wrap('call arguments must be an object');
  const o = json as Record<string, unknown>;
  const input = o.input ?? o.data;
  return {
    from: hexBytes(o.from, 'from', 20),
    to: hexBytes(o.to, 'to', 20),
    gas: quantity(o.gas, 'gas'),
    gasPrice: quantity(o.gasPrice ?? o.maxFeePerGas, 'gasPrice'),
    value: quantity(o.value, 'value'),
    data: hexBytes(input, 'input'),
  };
}

export function parseCallArgs(bytes: Uint8Array): CallArgs {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch (err) {
    throw SdkErrors.InvalidRequest.wrap(`invalid call arguments: ${(err as Error).message}`);
  }
  return callArgsFromJson(json);
}
