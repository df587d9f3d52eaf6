/**
 * BIP-39 mnemonics and BIP-32/44 derivation.
 *
 * Paths: `m/44'/<coin>'/<account>'/0/<index>`, coin 60 for eth_secp256k1 and 118 for secp256k1.
 * A path that does not start with `m/` is relative, with the semantics of the algorithm's upstream
 * implementation:
 * - eth_secp256k1 (Ethermint, go-ethereum's ParseDerivationPath): appended to m/44'/60'/0'/0,
 *   so "0" means m/44'/60'/0'/0/0 and "44'/60'/0'/0/0" means m/44'/60'/0'/0/44'/60'/0'/0/0;
 * - secp256k1 (Cosmos SDK): read from the master key, i.e. the same as with `m/` in front.
 */
import { pbkdf2Sync } from 'node:crypto';
import { HDKey } from '@scure/bip32';
import { generateMnemonic as generateBip39Mnemonic, mnemonicToEntropy } from '@scure/bip39';
import { wordlist as englishWordlist } from '@scure/bip39/wordlists/english.js';
import { TokendError } from '../util/errors.js';
import type { KeyAlgo } from './types.js';

export const MNEMONIC_WORD_COUNTS: readonly number[] = [12, 15, 18, 21, 24];
export const DEFAULT_MNEMONIC_WORD_COUNT = 24;
export const ETH_COIN_TYPE = 60;
export const COSMOS_COIN_TYPE = 118;
export const HARDENED_OFFSET = 0x80000000;
const MAX_CHILD_INDEX = HARDENED_OFFSET - 1;
const MAX_PATH_DEPTH = 255;
const BIP39_PBKDF2_ROUNDS = 2048;
const BIP39_SEED_BYTES = 64;

/** go-ethereum's DefaultRootDerivationPath, the base of relative eth_secp256k1 paths. */
const ETH_RELATIVE_ROOT: readonly number[] = [44 + HARDENED_OFFSET, 60 + HARDENED_OFFSET, HARDENED_OFFSET, 0];

const englishWords: ReadonlySet<string> = new Set(englishWordlist);

/** A fresh mnemonic; 24 words (256-bit entropy) unless told otherwise. */
export function generateMnemonic(wordCount: number = DEFAULT_MNEMONIC_WORD_COUNT): string {
  if (!MNEMONIC_WORD_COUNTS.includes(wordCount)) {
    throw new TokendError('INVALID_ARGUMENT', `cannot generate a ${wordCount}-word mnemonic`, {
      hint: 'use 12, 15, 18, 21 or 24 words',
    });
  }
  const entropyBits = (wordCount / 3) * 32;
  return generateBip39Mnemonic(englishWordlist, entropyBits);
}

/** NFKD, lower case, single spaces, no surrounding blanks. */
export function normalizeMnemonic(input: string): string {
  return input.normalize('NFKD').toLowerCase().trim().split(/\s+/u).filter(Boolean).join(' ');
}

/**
 * Checks a mnemonic and returns its normalised form. Distinct errors (INVALID_MNEMONIC) for an
 * empty input, a wrong word count, an unknown word (named, with its 1-based position) and a bad
 * checksum.
 */
export function validateMnemonic(input: string): string {
  const normalized = normalizeMnemonic(input);
  if (normalized === '') {
    throw new TokendError('INVALID_MNEMONIC', 'mnemonic is empty', { hint: 'enter the 24 words of your mnemonic' });
  }
  const words = normalized.split(' ');
  if (!MNEMONIC_WORD_COUNTS.includes(words.length)) {
    throw new TokendError('INVALID_MNEMONIC', `mnemonic has ${words.length} words`, {
      hint: 'a BIP-39 mnemonic has 12, 15, 18, 21 or 24 words',
      meta: { wordCount: words.length },
    });
  }
  for (const [position, word] of words.entries()) {
    if (!englishWords.has(word)) {
      const suggestion = suggestWord(word);
      throw new TokendError('INVALID_MNEMONIC', `unknown word "${word}" at position ${position + 1}`, {
        hint: suggestion
          ? `did you mean "${suggestion}"? Words come from the BIP-39 English list`
          : 'words come from the BIP-39 English list',
        meta: { word, position: position + 1 },
      });
    }
  }
  try {
    mnemonicToEntropy(normalized, englishWordlist);
  } catch (err) {
    throw new TokendError('INVALID_MNEMONIC', 'mnemonic checksum is invalid', {
      hint: 'a word is wrong or the words are out of order; check them against your backup',
      cause: err,
    });
  }
  return normalized;
}

/** BIP-39 words are unique in their first four letters, which makes a cheap suggestion. */
function suggestWord(word: string): string | undefined {
  if (word.length < 3) return undefined;
  const stem = word.slice(0, Math.min(4, word.length));
  return englishWordlist.find((candidate) => candidate.startsWith(stem));
}

/** BIP-39 seed: PBKDF2-HMAC-SHA512("mnemonic" + passphrase, 2048 rounds), 64 bytes. */
export function mnemonicToSeed(mnemonic: string, bip39Passphrase = ''): Uint8Array {
  const normalized = validateMnemonic(mnemonic);
  const salt = `mnemonic${bip39Passphrase}`.normalize('NFKD');
  return new Uint8Array(pbkdf2Sync(normalized, salt, BIP39_PBKDF2_ROUNDS, BIP39_SEED_BYTES, 'sha512'));
}

export function defaultCoinType(algo: KeyAlgo): number {
  return algo === 'eth_secp256k1' ? ETH_COIN_TYPE : COSMOS_COIN_TYPE;
}

export interface HdPathOptions {
  algo: KeyAlgo;
  /** BIP-44 account (hardened); default 0. */
  account?: number;
  /** BIP-44 address index; default 0. */
  index?: number;
  /** Default: 60 for eth_secp256k1, 118 for secp256k1. */
  coinType?: number;
  /** An explicit path overrides account/index/coinType. */
  hdPath?: string;
}

/**
 * The absolute path a key is derived along, e.g. m/44'/60'/0'/0/0. An explicit `hdPath` is
 * validated and resolved (relative paths per the module header).
 */
export function buildHdPath(options: HdPathOptions): string {
  if (options.hdPath !== undefined && options.hdPath.trim() !== '') {
    return formatHdPath(parseHdPath(options.hdPath, options.algo));
  }
  const coinType = checkIndex('coin type', options.coinType ?? defaultCoinType(options.algo));
  const account = checkIndex('account', options.account ?? 0);
  const index = checkIndex('index', options.index ?? 0);
  return `m/44'/${coinType}'/${account}'/0/${index}`;
}

function checkIndex(what: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0 || value > MAX_CHILD_INDEX) {
    throw new TokendError('INVALID_ARGUMENT', `${what} must be an integer from 0 to ${MAX_CHILD_INDEX}, got ${value}`);
  }
  return value;
}

/** Child indices of a path (hardened ones with HARDENED_OFFSET added). */
export function parseHdPath(path: string, algo: KeyAlgo): number[] {
  const trimmed = path.trim();
  const invalid = (reason: string): TokendError =>
    new TokendError('INVALID_ARGUMENT', `invalid HD path "${path}": ${reason}`, {
      hint: "use the form m/44'/60'/0'/0/0 (a trailing ' marks a hardened index)",
    });
  if (trimmed === '') throw invalid('it is empty');
  const components = trimmed.split('/').map((component) => component.trim());
  let indices: number[];
  if (components[0] === 'm') {
    components.shift();
    indices = [];
  } else if (components[0] === '') {
    throw invalid("it starts with '/'; write m/… for an absolute path or leave the '/' out for a relative one");
  } else {
    indices = algo === 'eth_secp256k1' ? [...ETH_RELATIVE_ROOT] : [];
  }
  if (components.length === 0) throw invalid('it has no indices after m');
  for (const component of components) {
    if (component === '') throw invalid('it has an empty component');
    const hardened = component.endsWith("'");
    const digits = (hardened ? component.slice(0, -1) : component).trim();
    if (!/^\d+$/u.test(digits)) throw invalid(`"${component}" is not a number`);
    const value = Number(digits);
    if (value > MAX_CHILD_INDEX) throw invalid(`index ${digits} is larger than ${MAX_CHILD_INDEX}`);
    indices.push(hardened ? value + HARDENED_OFFSET : value);
  }
  if (indices.length > MAX_PATH_DEPTH) throw invalid(`it is deeper than ${MAX_PATH_DEPTH} levels`);
  return indices;
}

export function formatHdPath(indices: readonly number[]): string {
  const parts = indices.map((index) => (index >= HARDENED_OFFSET ? `${index - HARDENED_OFFSET}'` : String(index)));
  return ['m', ...parts].join('/');
}

/** BIP-32 private key at `path` below the master key of `seed`. */
export function derivePrivateKey(seed: Uint8Array, path: readonly number[]): Uint8Array {
  let node = HDKey.fromMasterSeed(seed);
  for (const index of path) node = node.deriveChild(index);
  if (!node.privateKey) throw new TokendError('INTERNAL', 'BIP-32 derivation produced no private key');
  return node.privateKey;
}

export interface MnemonicKeyOptions {
  mnemonic: string;
  algo: KeyAlgo;
  hdPath: string;
  bip39Passphrase?: string;
}

/** Validates everything, then derives the 32-byte private key. Returns the resolved path too. */
export function privateKeyFromMnemonic(options: MnemonicKeyOptions): { privateKey: Uint8Array; hdPath: string } {
  const indices = parseHdPath(options.hdPath, options.algo);
  const seed = mnemonicToSeed(options.mnemonic, options.bip39Passphrase ?? '');
  try {
    return { privateKey: derivePrivateKey(seed, indices), hdPath: formatHdPath(indices) };
  } finally {
    seed.fill(0);
  }
}
