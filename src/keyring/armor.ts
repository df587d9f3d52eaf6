/**
 * Cosmos-SDK compatible private-key armor, so keys move between tokend and Go nodes
 * (`keys export` / `keys import`).
 *
 * Format (OpenPGP-style ASCII armor, RFC 4880 §6.2):
 *
 *   -----BEGIN TENDERMINT PRIVATE KEY-----
 *   kdf: bcrypt
 *   salt: <16 random bytes, upper-case hex>
 *   type: eth_secp256k1 | secp256k1
 *
 *   <base64 body, 64 characters a line>
 *   =<base64 of the CRC-24 of the body bytes>
 *   -----END TENDERMINT PRIVATE KEY-----
 *
 * Body = nonce(24) || XSalsa20-Poly1305 secretbox(plaintext) under
 * key = sha256(bcrypt-hash-string(passphrase, salt, cost 12)), the full "$2a$12$…" string being
 * hashed. Plaintext = Amino binary of the private key: 4 prefix bytes of the registered type name
 * (`ethermint/PrivKeyEthSecp256k1` or `tendermint/PrivKeySecp256k1`), then the 32 key bytes as a
 * length-prefixed byte string. Newer SDK releases may write `kdf: scrypt` with a
 * `kdfparams: n=…,r=…,p=…,dklen=…` header; such armor is read too.
 */
import { randomBytes, scrypt as scryptCallback, type ScryptOptions } from 'node:crypto';
import bcrypt from 'bcryptjs';
import { secretbox } from '@noble/ciphers/salsa.js';
import { TokendError } from '../util/errors.js';
import { sha256 } from './hash.js';
import { checkPrivateKey, isKeyAlgo, PRIVATE_KEY_LENGTH, PRIVKEY_AMINO_NAMES } from './keys.js';
import type { KeyAlgo } from './types.js';

export const PRIVATE_KEY_BLOCK_TYPE = 'TENDERMINT PRIVATE KEY';
/** The SDK's BcryptSecurityParameter. It is not written in the armor, so it cannot change. */
export const ARMOR_BCRYPT_COST = 12;
const SALT_LENGTH = 16;
const NONCE_LENGTH = 24;
const SECRETBOX_TAG_LENGTH = 16;
const BODY_LINE_LENGTH = 64;
const MIN_ARMOR_PASSPHRASE_LENGTH = 8;

function invalidArmor(problem: string, hint?: string): TokendError {
  return new TokendError('INVALID_ARGUMENT', `invalid armor: ${problem}`, hint === undefined ? {} : { hint });
}

// ---------------------------------------------------------------------------------------------
// Armor text

/** CRC-24 of OpenPGP (init 0xB704CE, polynomial 0x1864CFB). */
export function crc24(data: Uint8Array): number {
  let crc = 0xb704ce;
  for (const byte of data) {
    crc ^= byte << 16;
    for (let bit = 0; bit < 8; bit++) {
      crc <<= 1;
      if (crc & 0x1000000) crc ^= 0x1864cfb;
    }
  }
  return crc & 0xffffff;
}

function crc24Base64(data: Uint8Array): string {
  const crc = crc24(data);
  return Buffer.from([(crc >> 16) & 0xff, (crc >> 8) & 0xff, crc & 0xff]).toString('base64');
}

export interface ArmorBlock {
  blockType: string;
  /** Header lines in order (decode keeps the order found). */
  headers: Array<[string, string]>;
  data: Uint8Array;
}

export function encodeArmor(block: ArmorBlock): string {
  const lines = [`-----BEGIN ${block.blockType}-----`];
  for (const [key, value] of block.headers) lines.push(`${key}: ${value}`);
  lines.push('');
  const body = Buffer.from(block.data).toString('base64');
  for (let offset = 0; offset < body.length; offset += BODY_LINE_LENGTH) {
    lines.push(body.slice(offset, offset + BODY_LINE_LENGTH));
  }
  lines.push(`=${crc24Base64(block.data)}`);
  lines.push(`-----END ${block.blockType}-----`);
  return lines.join('\n');
}

/** Parses armor text; text before the BEGIN line is skipped, CRLF line ends are accepted. */
export function decodeArmor(text: string): ArmorBlock {
  const lines = text.replace(/\r\n?/gu, '\n').split('\n').map((line) => line.trim());
  const begin = lines.findIndex((line) => /^-----BEGIN .+-----$/u.test(line));
  if (begin === -1) {
    throw invalidArmor(`missing the "-----BEGIN ${PRIVATE_KEY_BLOCK_TYPE}-----" line`, 'pass the whole exported text, BEGIN and END lines included');
  }
  const blockType = lines[begin].slice('-----BEGIN '.length, -'-----'.length);
  const endLine = `-----END ${blockType}-----`;
  const end = lines.indexOf(endLine, begin + 1);
  if (end === -1) throw invalidArmor(`missing the "${endLine}" line`, 'the text looks truncated');

  const headers: Array<[string, string]> = [];
  let cursor = begin + 1;
  for (; cursor < end && lines[cursor] !== ''; cursor++) {
    const separator = lines[cursor].indexOf(':');
    if (separator <= 0) {
      throw invalidArmor(`header line "${lines[cursor]}" is not "key: value" (or the blank line after the headers is missing)`);
    }
    headers.push([lines[cursor].slice(0, separator).trim(), lines[cursor].slice(separator + 1).trim()]);
  }
  const bodyLines = lines.slice(cursor + 1, end).filter((line) => line !== '');
  const checksumIndex = bodyLines.findIndex((line) => line.startsWith('='));
  if (checksumIndex === -1) throw invalidArmor('missing the "=…" checksum line', 'the text looks truncated');
  if (checksumIndex !== bodyLines.length - 1) throw invalidArmor('unexpected text after the checksum line');
  const body = bodyLines.slice(0, checksumIndex).join('');
  if (body === '' || !/^[A-Za-z0-9+/]+={0,2}$/u.test(body) || body.length % 4 !== 0) {
    throw invalidArmor('the body is not valid base64');
  }
  const data = Uint8Array.from(Buffer.from(body, 'base64'));
  if (bodyLines[checksumIndex].slice(1) !== crc24Base64(data)) {
    throw invalidArmor('bad checksum', 'the text was altered or truncated; export the key again');
  }
  return { blockType, headers, data };
}

// ---------------------------------------------------------------------------------------------
// Amino encoding of the private key

/**
 * Amino's 4 "prefix bytes" of a registered type name: sha256(name), skip leading zero bytes,
 * skip 3 (the disambiguation bytes), skip leading zero bytes, take 4.
 */
export function aminoPrefix(typeName: string): Uint8Array {
  const digest = sha256(new TextEncoder().encode(typeName));
  let offset = 0;
  while (digest[offset] === 0) offset++;
  offset += 3;
  while (digest[offset] === 0) offset++;
  return digest.slice(offset, offset + 4);
}

const AMINO_PREFIXES: ReadonlyArray<[KeyAlgo, Uint8Array]> = (Object.keys(PRIVKEY_AMINO_NAMES) as KeyAlgo[]).map(
  (algo) => [algo, aminoPrefix(PRIVKEY_AMINO_NAMES[algo])],
);

export function encodeAminoPrivateKey(algo: KeyAlgo, privateKey: Uint8Array): Uint8Array {
  const prefix = aminoPrefix(PRIVKEY_AMINO_NAMES[algo]);
  const out = new Uint8Array(prefix.length + 1 + PRIVATE_KEY_LENGTH);
  out.set(prefix);
  out[prefix.length] = PRIVATE_KEY_LENGTH; // uvarint length of the byte string
  out.set(checkPrivateKey(privateKey), prefix.length + 1);
  return out;
}

export function decodeAminoPrivateKey(encoded: Uint8Array): { algo: KeyAlgo; privateKey: Uint8Array } {
  for (const [algo, prefix] of AMINO_PREFIXES) {
    const matches = prefix.every((byte, i) => encoded[i] === byte);
    if (!matches) continue;
    if (encoded.length !== prefix.length + 1 + PRIVATE_KEY_LENGTH || encoded[prefix.length] !== PRIVATE_KEY_LENGTH) {
      throw invalidArmor(`the ${algo} private key inside has the wrong length`);
    }
    return { algo, privateKey: checkPrivateKey(encoded.slice(prefix.length + 1)) };
  }
  throw invalidArmor('it holds a private key of an unsupported type', 'only eth_secp256k1 and secp256k1 keys can be imported');
}

// ---------------------------------------------------------------------------------------------
// Key derivation and encryption

type KdfSpec = { kdf: 'bcrypt'; salt: Uint8Array } | { kdf: 'scrypt'; salt: Uint8Array; n: number; r: number; p: number; dkLen: number };

function parseKdf(headers: ReadonlyMap<string, string>): KdfSpec {
  const kdf = headers.get('kdf');
  if (kdf === undefined) throw invalidArmor('missing the "kdf" header');
  const saltHex = headers.get('salt');
  if (saltHex === undefined) throw invalidArmor('missing the "salt" header');
  if (!/^([0-9a-fA-F]{2})+$/u.test(saltHex)) throw invalidArmor('the "salt" header is not hexadecimal');
  const salt = Uint8Array.from(Buffer.from(saltHex, 'hex'));
  if (kdf === 'bcrypt') {
    if (salt.length !== SALT_LENGTH) throw invalidArmor(`the bcrypt salt must be ${SALT_LENGTH} bytes, got ${salt.length}`);
    return { kdf, salt };
  }
  if (kdf === 'scrypt') {
    const params = /^n=(\d+),r=(\d+),p=(\d+),dklen=(\d+)$/u.exec(headers.get('kdfparams') ?? '');
    if (!params) throw invalidArmor('missing or malformed "kdfparams" header (expected n=…,r=…,p=…,dklen=32)');
    const [n, r, p, dkLen] = params.slice(1).map(Number);
    // Bounds keep a hostile armor from asking for gigabytes of memory.
    const sane = n >= 2 && n <= 1 << 20 && (n & (n - 1)) === 0 && r >= 1 && r <= 32 && p >= 1 && p <= 16 && dkLen === 32;
    if (!sane) throw invalidArmor(`unsupported scrypt parameters ${headers.get('kdfparams')}`);
    return { kdf, salt, n, r, p, dkLen };
  }
  throw invalidArmor(`unsupported kdf "${kdf}"`, 'tokend reads armor made with bcrypt (all SDK versions) or scrypt');
}

function scrypt(passphrase: string, salt: Uint8Array, keyLength: number, options: ScryptOptions): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    scryptCallback(passphrase, salt, keyLength, options, (err, key) => (err ? reject(err) : resolve(new Uint8Array(key))));
  });
}

async function deriveArmorKey(spec: KdfSpec, passphrase: string, bcryptCost: number): Promise<Uint8Array> {
  if (spec.kdf === 'bcrypt') {
    const bcryptSalt = `$2a$${String(bcryptCost).padStart(2, '0')}$${bcrypt.encodeBase64(spec.salt, SALT_LENGTH)}`;
    const hashString = await bcrypt.hash(passphrase, bcryptSalt);
    return sha256(new TextEncoder().encode(hashString));
  }
  const maxmem = 256 * spec.n * spec.r + (1 << 20);
  return scrypt(passphrase, spec.salt, spec.dkLen, { N: spec.n, r: spec.r, p: spec.p, maxmem });
}

export interface EncryptArmorOptions {
  algo: KeyAlgo;
  privateKey: Uint8Array;
  passphrase: string;
}

/** Armor + encrypt a private key like `keys export` of the SDK (kdf bcrypt, cost 12). */
export async function encryptArmorPrivateKey(options: EncryptArmorOptions): Promise<string> {
  if (options.passphrase.length < MIN_ARMOR_PASSPHRASE_LENGTH) {
    throw new TokendError('INVALID_PASSWORD', `password must be at least ${MIN_ARMOR_PASSPHRASE_LENGTH} characters`, {
      hint: 'choose a longer passphrase to protect the exported key',
    });
  }
  const plaintext = encodeAminoPrivateKey(options.algo, options.privateKey);
  const salt = new Uint8Array(randomBytes(SALT_LENGTH));
  const key = await deriveArmorKey({ kdf: 'bcrypt', salt }, options.passphrase, ARMOR_BCRYPT_COST);
  const nonce = new Uint8Array(randomBytes(NONCE_LENGTH));
  const sealed = secretbox(key, nonce).seal(plaintext);
  plaintext.fill(0);
  const data = new Uint8Array(NONCE_LENGTH + sealed.length);
  data.set(nonce);
  data.set(sealed, NONCE_LENGTH);
  return encodeArmor({
    blockType: PRIVATE_KEY_BLOCK_TYPE,
    headers: [
      ['kdf', 'bcrypt'],
      ['salt', Buffer.from(salt).toString('hex').toUpperCase()],
      ['type', options.algo],
    ],
    data,
  });
}

export interface DecryptedArmor {
  algo: KeyAlgo;
  privateKey: Uint8Array;
}

/**
 * Checks the armor's structure first (INVALID_ARGUMENT naming the problem), then derives the key
 * and decrypts (WRONG_PASSWORD "invalid armor passphrase" when the box does not open).
 */
export async function decryptArmorPrivateKey(armor: string, passphrase: string): Promise<DecryptedArmor> {
  const parsed = parseArmoredPrivateKey(armor);
  const key = await deriveArmorKey(parsed.kdf, passphrase, ARMOR_BCRYPT_COST);
  let plaintext: Uint8Array;
  try {
    plaintext = secretbox(key, parsed.nonce).open(parsed.sealed);
  } catch {
    throw new TokendError('WRONG_PASSWORD', 'invalid armor passphrase', {
      hint: 'enter the passphrase the key was exported with',
    });
  }
  const decoded = decodeAminoPrivateKey(plaintext);
  if (parsed.declaredAlgo !== undefined && decoded.algo !== parsed.declaredAlgo) {
    throw invalidArmor(`the "type" header says ${parsed.declaredAlgo} but the key inside is ${decoded.algo}`);
  }
  return decoded;
}

interface ParsedPrivateKeyArmor {
  kdf: KdfSpec;
  nonce: Uint8Array;
  sealed: Uint8Array;
  /** From the `type` header. Old armor has none; the Amino prefix inside decides then. */
  declaredAlgo?: KeyAlgo;
}

function parseArmoredPrivateKey(armor: string): ParsedPrivateKeyArmor {
  const block = decodeArmor(armor);
  if (block.blockType !== PRIVATE_KEY_BLOCK_TYPE) {
    throw invalidArmor(`it is a "${block.blockType}" block, expected "${PRIVATE_KEY_BLOCK_TYPE}"`);
  }
  const headers = new Map(block.headers);
  const kdf = parseKdf(headers);
  const type = headers.get('type');
  let declaredAlgo: KeyAlgo | undefined;
  if (type !== undefined) {
    if (!isKeyAlgo(type)) {
      throw invalidArmor(`unknown key type "${type}"`, 'only eth_secp256k1 and secp256k1 keys can be imported');
    }
    declaredAlgo = type;
  }
  if (block.data.length <= NONCE_LENGTH + SECRETBOX_TAG_LENGTH) throw invalidArmor('the encrypted body is too short');
  return {
    kdf,
    nonce: block.data.subarray(0, NONCE_LENGTH),
    sealed: block.data.subarray(NONCE_LENGTH),
    declaredAlgo,
  };
}

/** Structural check only (no passphrase): throws INVALID_ARGUMENT naming the problem. */
export function checkPrivateKeyArmor(armor: string): void {
  parseArmoredPrivateKey(armor);
}
