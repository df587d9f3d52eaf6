/**
 * Address codecs for modules: bech32 account (`token1…`), validator operator (`tokenvaloper1…`)
 * and consensus (`tokenvalcons1…`) forms of 20-byte addresses, with SDK-style error texts.
 *
 * Encoding is memoised (bech32 and EIP-55 cost a few µs and the same addresses recur in every event).
 */
import { sha256 } from '../../../keyring/hash.js';
import { decodeBech32Address, toAccountAddress, toChecksumHex, toConsensusAddress, toValidatorOperatorAddress } from '../../../keyring/address.js';
import { ACCOUNT_PREFIX, CONSENSUS_PREFIX, VALIDATOR_OPERATOR_PREFIX } from '../../../keyring/prefixes.js';
import { TokendError } from '../../../util/errors.js';

export { ACCOUNT_PREFIX, CONSENSUS_PREFIX, VALIDATOR_OPERATOR_PREFIX };

const MEMO_LIMIT = 100_000;
const accCache = new Map<string, string>();
const valCache = new Map<string, string>();
const checksumCache = new Map<string, string>();

function memo(cache: Map<string, string>, address: Uint8Array, encode: (a: Uint8Array) => string): string {
  const key = Buffer.from(address.buffer, address.byteOffset, address.byteLength).toString('latin1');
  let text = cache.get(key);
  if (text === undefined) {
    text = encode(address);
    if (cache.size >= MEMO_LIMIT) cache.clear();
    cache.set(key, text);
  }
  return text;
}

/** EIP-55 `0x…` of a 20-byte address (the EVM's event attributes and logs: one contract recurs in every tx). */
export function checksumString(address: Uint8Array): string {
  return memo(checksumCache, address, toChecksumHex);
}

/** `token1…` of a 20-byte address. */
export function accString(address: Uint8Array): string {
  return memo(accCache, address, toAccountAddress);
}

/** `tokenvaloper1…` of a 20-byte address. */
export function valString(address: Uint8Array): string {
  return memo(valCache, address, toValidatorOperatorAddress);
}

export function consString(address: Uint8Array): string {
  return toConsensusAddress(address);
}

/** The reason `text` is not an address with `prefix`, as the SDK's bech32 codec words it. */
function parseError(text: string, prefix: string, err: unknown): string {
  if (text.trim() === '') return 'empty address string is not allowed';
  const message = err instanceof TokendError || err instanceof Error ? err.message : String(err);
  if (/wrong address prefix/.test(message)) {
    const got = text.slice(0, Math.max(0, text.lastIndexOf('1')));
    return `invalid Bech32 prefix; expected ${prefix}, got ${got}`;
  }
  return `decoding bech32 failed: ${message}`;
}

export type AddressResult = { ok: true; bytes: Uint8Array } | { ok: false; error: string };

/** Successful parses, per prefix by text (addresses recur in every tx and query; bech32 decoding costs µs). */
const parsed = new Map<string, Map<string, Uint8Array>>();

export function parseBech32(text: string, prefix: string): AddressResult {
  if (text === '') return { ok: false, error: 'empty address string is not allowed' };
  let memo = parsed.get(prefix);
  if (memo === undefined) parsed.set(prefix, (memo = new Map()));
  const hit = memo.get(text);
  if (hit !== undefined) return { ok: true, bytes: hit };
  try {
    const bytes = decodeBech32Address(text, prefix);
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(text, bytes);
    return { ok: true, bytes };
  } catch (err) {
    return { ok: false, error: parseError(text, prefix, err) };
  }
}

export function parseAccAddress(text: string): AddressResult {
  return parseBech32(text, ACCOUNT_PREFIX);
}

export function parseValAddress(text: string): AddressResult {
  return parseBech32(text, VALIDATOR_OPERATOR_PREFIX);
}

export function parseConsAddress(text: string): AddressResult {
  return parseBech32(text, CONSENSUS_PREFIX);
}

/** The 20-byte address of a module account: sha256(name)[:20] (address.Module). */
export function moduleAddress(name: string): Uint8Array {
  return sha256(new TextEncoder().encode(name)).slice(0, 20);
}
