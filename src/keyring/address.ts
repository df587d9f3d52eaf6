/**
 * Address codecs: bech32 with this chain's prefixes (src/keyring/prefixes.ts) and EIP-55 hex.
 *
 * The same 20 bytes are an account (`token1…`), a validator operator (`tokenvaloper1…`), a
 * consensus address (`tokenvalcons1…`) and an Ethereum address (`0x…`). Every parse error is
 * INVALID_ADDRESS with a message that names the problem.
 */
import { bech32 } from '@scure/base';
import { TokendError } from '../util/errors.js';
import { keccak256 } from './hash.js';
import { ADDRESS_LENGTH } from './constants.js';
import {
  ACCOUNT_PREFIX,
  ADDRESS_PREFIXES,
  CONSENSUS_PREFIX,
  PUBKEY_PREFIXES,
  VALIDATOR_OPERATOR_PREFIX,
} from './prefixes.js';

const BECH32_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
/** BIP-173 limits a string to 90 characters; the SDK (and we) allow longer ones for pubkeys. */
const BECH32_MAX_LENGTH = 1023;
const BECH32_CHECKSUM_LENGTH = 6;

function invalidAddress(message: string, hint?: string): TokendError {
  return new TokendError('INVALID_ADDRESS', message, hint === undefined ? {} : { hint });
}

export function encodeBech32(prefix: string, data: Uint8Array): string {
  return bech32.encode(prefix, bech32.toWords(data), BECH32_MAX_LENGTH);
}

export interface DecodedBech32 {
  prefix: string;
  data: Uint8Array;
}

/**
 * Decodes any bech32 string, checking its structure and checksum but not its prefix or length.
 * Use `decodeBech32Address` for addresses.
 */
export function decodeBech32(input: string): DecodedBech32 {
  const text = input.trim();
  if (text === '') throw invalidAddress('address is empty');
  if (text !== text.toLowerCase() && text !== text.toUpperCase()) {
    throw invalidAddress(`invalid bech32 address "${text}": it mixes upper and lower case`);
  }
  const lower = text.toLowerCase();
  const separator = lower.lastIndexOf('1');
  if (separator < 1) {
    throw invalidAddress(`invalid bech32 address "${text}": no prefix followed by the separator "1"`);
  }
  const dataPart = lower.slice(separator + 1);
  for (const char of dataPart) {
    if (!BECH32_CHARSET.includes(char)) {
      throw invalidAddress(`invalid bech32 address "${text}": character "${char}" is not allowed`, `bech32 uses only ${BECH32_CHARSET}`);
    }
  }
  if (dataPart.length < BECH32_CHECKSUM_LENGTH) {
    throw invalidAddress(`invalid bech32 address "${text}": too short`);
  }
  let decoded: { prefix: string; words: number[] };
  try {
    decoded = bech32.decode(lower as `${string}1${string}`, BECH32_MAX_LENGTH);
  } catch (err) {
    const reason = err instanceof Error && /checksum/iu.test(err.message) ? 'bad checksum' : 'malformed';
    throw new TokendError('INVALID_ADDRESS', `invalid bech32 address "${text}": ${reason}`, {
      hint: reason === 'bad checksum' ? 'a character is wrong or missing; copy the address again' : undefined,
      cause: err,
    });
  }
  let data: Uint8Array;
  try {
    data = bech32.fromWords(decoded.words);
  } catch (err) {
    throw new TokendError('INVALID_ADDRESS', `invalid bech32 address "${text}": bad padding`, { cause: err });
  }
  return { prefix: decoded.prefix, data };
}

/**
 * Decodes a bech32 address whose prefix must be `expectedPrefix` (or one of them) and whose payload
 * must be 20 bytes (an account address may also be a 32-byte derived address).
 */
export function decodeBech32Address(input: string, expectedPrefix: string | readonly string[] = ACCOUNT_PREFIX): Uint8Array {
  const { prefix, data } = decodeBech32(input);
  const allowed = typeof expectedPrefix === 'string' ? [expectedPrefix] : expectedPrefix;
  if (!allowed.includes(prefix)) {
    const expected = allowed.map((candidate) => `${candidate}1…`).join(' or ');
    throw invalidAddress(`wrong address prefix: expected ${expected}, got ${prefix}1…`, wrongPrefixHint(prefix));
  }
  if (data.length !== ADDRESS_LENGTH && !(prefix === ACCOUNT_PREFIX && data.length === DERIVED_ADDRESS_LENGTH)) {
    const expected = prefix === ACCOUNT_PREFIX ? `${ADDRESS_LENGTH} or ${DERIVED_ADDRESS_LENGTH}` : `${ADDRESS_LENGTH}`;
    throw invalidAddress(`wrong address length: expected ${expected} bytes, got ${data.length}`);
  }
  return data;
}

function wrongPrefixHint(prefix: string): string | undefined {
  if (PUBKEY_PREFIXES.includes(prefix)) return `${prefix}1… is a public key, not an address`;
  if (ADDRESS_PREFIXES.includes(prefix)) return 'the same bytes under the right prefix: tokend keys parse <address>';
  return `this chain's addresses start with ${ACCOUNT_PREFIX}1; convert with tokend keys parse`;
}

function checkAddressBytes(address: Uint8Array): void {
  if (address.length !== ADDRESS_LENGTH) {
    throw invalidAddress(`wrong address length: expected ${ADDRESS_LENGTH} bytes, got ${address.length}`);
  }
}

/**
 * Length of ADR-028 derived account addresses (address.Module / address.Derive: group policy
 * accounts). Accounts may have them; keys, operators and consensus addresses are 20 bytes.
 */
export const DERIVED_ADDRESS_LENGTH = 32;

export function toAccountAddress(address: Uint8Array): string {
  if (address.length === DERIVED_ADDRESS_LENGTH) return encodeBech32(ACCOUNT_PREFIX, address);
  checkAddressBytes(address);
  return encodeBech32(ACCOUNT_PREFIX, address);
}

export function toValidatorOperatorAddress(address: Uint8Array): string {
  checkAddressBytes(address);
  return encodeBech32(VALIDATOR_OPERATOR_PREFIX, address);
}

export function toConsensusAddress(address: Uint8Array): string {
  checkAddressBytes(address);
  return encodeBech32(CONSENSUS_PREFIX, address);
}

/** EIP-55 mixed-case checksummed `0x…` form of a 20-byte address. */
export function toChecksumHex(address: Uint8Array): string {
  checkAddressBytes(address);
  const lower = Buffer.from(address).toString('hex');
  const hashed = keccak256(new TextEncoder().encode(lower));
  let out = '0x';
  for (let i = 0; i < lower.length; i++) {
    const nibble = (hashed[i >> 1] >> (i % 2 === 0 ? 4 : 0)) & 0x0f;
    out += nibble >= 8 ? lower[i].toUpperCase() : lower[i];
  }
  return out;
}

/**
 * Parses `0x` + 40 hex digits (the `0x` may be left out). All-lower and all-upper digits are
 * accepted as they are; mixed case must be a valid EIP-55 checksum.
 */
export function parseHexAddress(input: string): Uint8Array {
  const text = input.trim();
  const digits = /^0x/iu.test(text) ? text.slice(2) : text;
  if (!/^[0-9a-fA-F]*$/u.test(digits)) {
    throw invalidAddress(`invalid hex address "${text}": it contains non-hexadecimal characters`);
  }
  if (digits.length !== ADDRESS_LENGTH * 2) {
    throw invalidAddress(`invalid hex address "${text}": expected ${ADDRESS_LENGTH * 2} hex digits, got ${digits.length}`);
  }
  const bytes = Uint8Array.from(Buffer.from(digits, 'hex'));
  const mixedCase = digits !== digits.toLowerCase() && digits !== digits.toUpperCase();
  if (mixedCase && toChecksumHex(bytes).slice(2) !== digits) {
    throw invalidAddress(`invalid hex address "${text}": bad EIP-55 checksum`, 'check the address, or write it all in lower case to skip the checksum');
  }
  return bytes;
}

function looksLikeHex(text: string): boolean {
  return /^0x/iu.test(text) || /^[0-9a-fA-F]{40}$/u.test(text);
}

/** Whether `input` has the shape of one of our address forms (before any checksum check). */
export function looksLikeAddress(input: string): boolean {
  const text = input.trim();
  if (looksLikeHex(text)) return true;
  const lower = text.toLowerCase();
  return ADDRESS_PREFIXES.some((prefix) => lower.startsWith(`${prefix}1`));
}

/** 20 address bytes from a bech32 address (any of our address prefixes) or a hex address. */
export function parseAddress(input: string): Uint8Array {
  const text = input.trim();
  if (text === '') throw invalidAddress('address is empty');
  if (looksLikeHex(text)) return parseHexAddress(text);
  return decodeBech32Address(text, ADDRESS_PREFIXES);
}

export interface AddressForms {
  /** EIP-55 checksummed. */
  hex: string;
  /** Upper-case hex without 0x, as the SDK's `keys parse` prints bytes. */
  bytes: string;
  account: string;
  validatorOperator: string;
  consensus: string;
}

export interface ConvertedAddress {
  /** What the input was: bech32 (with its prefix) or hex. */
  input: { format: 'bech32'; prefix: string } | { format: 'hex' };
  forms: AddressForms;
}

export function addressForms(address: Uint8Array): AddressForms {
  return {
    hex: toChecksumHex(address),
    bytes: Buffer.from(address).toString('hex').toUpperCase(),
    account: toAccountAddress(address),
    validatorOperator: toValidatorOperatorAddress(address),
    consensus: toConsensusAddress(address),
  };
}

/**
 * For `keys parse`: bech32 → hex and all our bech32 forms; hex → all bech32 forms. Like the SDK's
 * command it accepts a bech32 address of any chain (e.g. `cosmos1…`, `ethm1…`), so addresses can
 * be carried over; the payload must still be 20 bytes.
 */
export function convertAddress(input: string): ConvertedAddress {
  const text = input.trim();
  if (text === '') throw invalidAddress('address is empty');
  if (looksLikeHex(text)) {
    return { input: { format: 'hex' }, forms: addressForms(parseHexAddress(text)) };
  }
  const { prefix, data } = decodeBech32(text);
  if (PUBKEY_PREFIXES.includes(prefix)) {
    throw invalidAddress(`${prefix}1… is a public key, not an address`);
  }
  checkAddressBytes(data);
  return { input: { format: 'bech32', prefix }, forms: addressForms(data) };
}
