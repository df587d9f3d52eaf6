import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import {
  buildHdPath,
  formatHdPath,
  generateMnemonic,
  mnemonicToSeed,
  normalizeMnemonic,
  parseHdPath,
  privateKeyFromMnemonic,
  validateMnemonic,
} from '../../src/keyring/hd.js';
import { keyPairFromPrivateKey } from '../../src/keyring/keys.js';
import { toChecksumHex } from '../../src/keyring/address.js';
import { ETH_VECTORS, JUNK_MNEMONIC, PICNIC_RELATIVE } from './vectors.js';

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

function thrown(fn: () => unknown): { code?: string; message: string; hint?: string } {
  try {
    fn();
  } catch (err) {
    return err as { code?: string; message: string; hint?: string };
  }
  throw new Error('expected an error');
}

describe('mnemonic generation', () => {
  test('24 words by default, valid, and different each time', () => {
    const first = generateMnemonic();
    const second = generateMnemonic();
    expect(first.split(' ')).toHaveLength(24);
    expect(validateMnemonic(first)).toBe(first);
    expect(first).not.toBe(second);
  });

  test('12 words on request; other counts rejected', () => {
    expect(generateMnemonic(12).split(' ')).toHaveLength(12);
    expect(thrown(() => generateMnemonic(13)).code).toBe('INVALID_ARGUMENT');
  });
});

describe('mnemonic validation', () => {
  test('normalises case and whitespace', () => {
    const messy = `  TEST test\ttest\n test   test test test test test test test JUNK  `;
    expect(normalizeMnemonic(messy)).toBe(JUNK_MNEMONIC);
    expect(validateMnemonic(messy)).toBe(JUNK_MNEMONIC);
  });

  test('empty input', () => {
    const err = thrown(() => validateMnemonic('   '));
    expect(err.code).toBe('INVALID_MNEMONIC');
    expect(err.message).toBe('mnemonic is empty');
  });

  test('wrong word count says which counts are accepted', () => {
    const err = thrown(() => validateMnemonic('test test test test test test test test test test junk'));
    expect(err.code).toBe('INVALID_MNEMONIC');
    expect(err.message).toBe('mnemonic has 11 words');
    expect(err.hint).toContain('12, 15, 18, 21 or 24');
  });

  test('unknown word is named with its position (and a suggestion)', () => {
    const err = thrown(() => validateMnemonic('test test testt test test test test test test test test junk'));
    expect(err.code).toBe('INVALID_MNEMONIC');
    expect(err.message).toBe('unknown word "testt" at position 3');
    expect(err.hint).toContain('"test"');
    const noSuggestion = thrown(() => validateMnemonic('test test test test test test test test test test test zz'));
    expect(noSuggestion.message).toBe('unknown word "zz" at position 12');
  });

  test('bad checksum is its own error', () => {
    const err = thrown(() => validateMnemonic('test test test test test test test test test test test test'));
    expect(err.code).toBe('INVALID_MNEMONIC');
    expect(err.message).toBe('mnemonic checksum is invalid');
  });

  test('seed matches @scure/bip39 (with and without a BIP-39 passphrase)', () => {
    expect(hex(mnemonicToSeed(JUNK_MNEMONIC))).toBe(hex(mnemonicToSeedSync(JUNK_MNEMONIC)));
    expect(hex(mnemonicToSeed(JUNK_MNEMONIC, 'extra'))).toBe(hex(mnemonicToSeedSync(JUNK_MNEMONIC, 'extra')));
  });
});

describe('HD paths', () => {
  test('defaults per algorithm', () => {
    expect(buildHdPath({ algo: 'eth_secp256k1' })).toBe("m/44'/60'/0'/0/0");
    expect(buildHdPath({ algo: 'secp256k1' })).toBe("m/44'/118'/0'/0/0");
  });

  test('account and index fill the BIP-44 template', () => {
    expect(buildHdPath({ algo: 'eth_secp256k1', account: 2, index: 7 })).toBe("m/44'/60'/2'/0/7");
    expect(buildHdPath({ algo: 'secp256k1', index: 3, coinType: 529 })).toBe("m/44'/529'/0'/0/3");
  });

  test('an explicit path overrides account/index', () => {
    expect(buildHdPath({ algo: 'eth_secp256k1', account: 5, hdPath: "m/44'/60'/1'/0/9" })).toBe("m/44'/60'/1'/0/9");
  });

  test('relative paths: eth appends to m/44\'/60\'/0\'/0 (Ethermint), cosmos reads from the master', () => {
    expect(buildHdPath({ algo: 'eth_secp256k1', hdPath: '0' })).toBe("m/44'/60'/0'/0/0");
    expect(buildHdPath({ algo: 'eth_secp256k1', hdPath: PICNIC_RELATIVE.hdPath })).toBe(PICNIC_RELATIVE.resolved);
    expect(buildHdPath({ algo: 'secp256k1', hdPath: "44'/118'/0'/0/0" })).toBe("m/44'/118'/0'/0/0");
  });

  test.each([
    ['', 'it is empty'],
    ['m', 'it has no indices after m'],
    ["m/44'/60'/0'/0/", 'it has an empty component'],
    ["/44'/60'/0'/0/0", "it starts with '/'"],
    ["m/44'/sixty'/0'/0/0", '"sixty\'" is not a number'],
    ["m/44'/-1'/0'/0/0", 'is not a number'],
    ['m/44/60/0/0/2147483648', 'larger than 2147483647'],
  ])('invalid path %j → INVALID_ARGUMENT (%s)', (path, reason) => {
    const err = thrown(() => parseHdPath(path, 'eth_secp256k1'));
    expect(err.code).toBe('INVALID_ARGUMENT');
    expect(err.message).toContain(reason);
  });

  test('out-of-range account/index', () => {
    expect(thrown(() => buildHdPath({ algo: 'eth_secp256k1', account: -1 })).code).toBe('INVALID_ARGUMENT');
    expect(thrown(() => buildHdPath({ algo: 'eth_secp256k1', index: 2 ** 31 })).code).toBe('INVALID_ARGUMENT');
    expect(thrown(() => buildHdPath({ algo: 'eth_secp256k1', index: 1.5 })).code).toBe('INVALID_ARGUMENT');
  });

  test('format(parse(path)) round-trips', () => {
    const path = "m/44'/60'/3'/1/42";
    expect(formatHdPath(parseHdPath(path, 'eth_secp256k1'))).toBe(path);
  });
});

describe('derivation vectors (COMPAT §8)', () => {
  test.each(ETH_VECTORS.map((vector) => [vector.hex, vector] as const))('%s', (_hex, vector) => {
    const { privateKey, hdPath } = privateKeyFromMnemonic({ mnemonic: vector.mnemonic, algo: 'eth_secp256k1', hdPath: vector.hdPath });
    expect(hdPath).toBe(vector.hdPath);
    const pair = keyPairFromPrivateKey('eth_secp256k1', privateKey);
    if (vector.privateKeyHex) expect(hex(privateKey)).toBe(vector.privateKeyHex);
    if (vector.publicKeyHex) expect(hex(pair.pubKey)).toBe(vector.publicKeyHex);
    expect(toChecksumHex(pair.address)).toBe(vector.hex);
  });

  test('relative path vector of Ethermint', () => {
    const { privateKey, hdPath } = privateKeyFromMnemonic({ ...PICNIC_RELATIVE, algo: 'eth_secp256k1' });
    expect(hdPath).toBe(PICNIC_RELATIVE.resolved);
    expect(toChecksumHex(keyPairFromPrivateKey('eth_secp256k1', privateKey).address)).toBe(PICNIC_RELATIVE.hex);
  });

  test('agrees with @scure/bip32 on another path, and the BIP-39 passphrase changes the key', () => {
    const path = "m/44'/60'/1'/0/5";
    const { privateKey } = privateKeyFromMnemonic({ mnemonic: JUNK_MNEMONIC, algo: 'eth_secp256k1', hdPath: path });
    const expected = HDKey.fromMasterSeed(mnemonicToSeedSync(JUNK_MNEMONIC)).derive(path).privateKey!;
    expect(hex(privateKey)).toBe(hex(expected));
    const withPassphrase = privateKeyFromMnemonic({ mnemonic: JUNK_MNEMONIC, algo: 'eth_secp256k1', hdPath: path, bip39Passphrase: 'x' });
    expect(hex(withPassphrase.privateKey)).not.toBe(hex(privateKey));
  });
});
