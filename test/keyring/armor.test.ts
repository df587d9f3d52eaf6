import {
  aminoPrefix,
  crc24,
  decodeArmor,
  decryptArmorPrivateKey,
  encodeAminoPrivateKey,
  encodeArmor,
  encryptArmorPrivateKey,
} from '../../src/keyring/armor.js';
import { keyPairFromPrivateKey } from '../../src/keyring/keys.js';
import { ETH_VECTORS } from './vectors.js';

const JUNK_PRIVATE_KEY = Uint8Array.from(Buffer.from(ETH_VECTORS[0].privateKeyHex!, 'hex'));

/**
 * Exported by Go Cosmos-SDK nodes (published in public docs and tests), with their passphrases.
 * The secretbox's authenticator opening proves the KDF and cipher match the SDK's; the addresses
 * were computed here from the decrypted keys and guard against regressions.
 */
const GO_ARMOR_SECP256K1 = {
  passphrase: 'password',
  armor: `-----BEGIN TENDERMINT PRIVATE KEY-----
kdf: bcrypt
salt: BE58E64E619563E337C6D899F06BF022
type: secp256k1

fOM6ZNruv1AirP/KYq1ZdMLdp8ynpk4cGPCsNThmEvRvqkhONpo9S1+tw6/WiFRN
+ZZrSaeqYO/3JKIr4cKRsaD460vtoK53crvJ/bE=
=1EBo
-----END TENDERMINT PRIVATE KEY-----`,
  addressHex: '3770d1eb188482f21bad675dd9063a37205b8d75',
};

const GO_ARMOR_ETH = {
  passphrase: 'dummy-passphrase',
  armor: `-----BEGIN TENDERMINT PRIVATE KEY-----
kdf: bcrypt
salt: 17CC5AD77CCB1B38DEF803F281B99E08
type: eth_secp256k1

HbwolSfDxdtFt/7aIZaTQXiMpKUxIHYtXg+uFKZflaml4PrKIkv86CxcbDfCvM1i
29NlKdKBqQfnSw6mWe/9ntDYtVIVQ8q6GikWTBc=
=rruy
-----END TENDERMINT PRIVATE KEY-----`,
  addressHex: 'e8e46c07a3fbab8e75a971901751aa3728a5142f',
};

/** Exported by the SDK's in-memory keyring with an empty passphrase (library call, no CLI). */
const GO_ARMOR_EMPTY_PASSPHRASE = `-----BEGIN TENDERMINT PRIVATE KEY-----
kdf: bcrypt
salt: 18156479C183D89BFD7D6AC648719FB4
type: secp256k1

EsoSHTVeSmuv7r5jEeXy7a+iqgnLYkijUrSLJljQTWP9jG9U5YBjL4dUlcSxku36
iigF+ApHTckpsrZNDcy12wgzsjIblDbPjs3nJHY=
=LSQ2
-----END TENDERMINT PRIVATE KEY-----`;

async function rejection(promise: Promise<unknown>): Promise<{ code?: string; message: string; hint?: string }> {
  try {
    await promise;
  } catch (err) {
    return err as { code?: string; message: string; hint?: string };
  }
  throw new Error('expected a rejection');
}

function addressHexOf(algo: 'eth_secp256k1' | 'secp256k1', privateKey: Uint8Array): string {
  return Buffer.from(keyPairFromPrivateKey(algo, privateKey).address).toString('hex');
}

test('Amino prefixes of the private key types', () => {
  // tendermint/PrivKeySecp256k1 = E1B0F79B is documented by Tendermint (type "019E82E1B0F798").
  expect(Buffer.from(aminoPrefix('tendermint/PrivKeySecp256k1')).toString('hex')).toBe('e1b0f79b');
  expect(Buffer.from(aminoPrefix('ethermint/PrivKeyEthSecp256k1')).toString('hex')).toBe('fcd2efcc');
  expect(Buffer.from(encodeAminoPrivateKey('secp256k1', JUNK_PRIVATE_KEY)).toString('hex')).toBe(`e1b0f79b20${ETH_VECTORS[0].privateKeyHex}`);
});

test('CRC-24 of OpenPGP', () => {
  expect(crc24(new Uint8Array(0))).toBe(0xb704ce);
  expect(crc24(new TextEncoder().encode('123456789'))).toBe(0x21cf02); // the standard check value
});

describe('armor made by Go nodes imports', () => {
  test('secp256k1', async () => {
    const { algo, privateKey } = await decryptArmorPrivateKey(GO_ARMOR_SECP256K1.armor, GO_ARMOR_SECP256K1.passphrase);
    expect(algo).toBe('secp256k1');
    expect(addressHexOf(algo, privateKey)).toBe(GO_ARMOR_SECP256K1.addressHex);
  });

  test('eth_secp256k1', async () => {
    const { algo, privateKey } = await decryptArmorPrivateKey(GO_ARMOR_ETH.armor, GO_ARMOR_ETH.passphrase);
    expect(algo).toBe('eth_secp256k1');
    expect(addressHexOf(algo, privateKey)).toBe(GO_ARMOR_ETH.addressHex);
  });

  test('empty passphrase, CRLF line ends, text around the block', async () => {
    const wrapped = `exported key:\r\n${GO_ARMOR_EMPTY_PASSPHRASE.replace(/\n/gu, '\r\n')}\r\n`;
    const { algo } = await decryptArmorPrivateKey(wrapped, '');
    expect(algo).toBe('secp256k1');
  });

  test('wrong passphrase → WRONG_PASSWORD "invalid armor passphrase"', async () => {
    const err = await rejection(decryptArmorPrivateKey(GO_ARMOR_ETH.armor, 'not-the-passphrase'));
    expect(err.code).toBe('WRONG_PASSWORD');
    expect(err.message).toBe('invalid armor passphrase');
  });
});

test('export → import round trip keeps algorithm and key; layout as the SDK writes it', async () => {
  const armor = await encryptArmorPrivateKey({ algo: 'eth_secp256k1', privateKey: JUNK_PRIVATE_KEY, passphrase: 'correct horse' });
  const lines = armor.split('\n');
  expect(lines[0]).toBe('-----BEGIN TENDERMINT PRIVATE KEY-----');
  expect(lines[1]).toBe('kdf: bcrypt');
  expect(lines[2]).toMatch(/^salt: [0-9A-F]{32}$/u);
  expect(lines[3]).toBe('type: eth_secp256k1');
  expect(lines[4]).toBe('');
  expect(lines.at(-2)).toMatch(/^=[A-Za-z0-9+/]{4}$/u);
  expect(lines.at(-1)).toBe('-----END TENDERMINT PRIVATE KEY-----');
  expect(decodeArmor(armor).data).toHaveLength(24 + 16 + 37);
  const back = await decryptArmorPrivateKey(armor, 'correct horse');
  expect(back.algo).toBe('eth_secp256k1');
  expect(Buffer.from(back.privateKey).equals(Buffer.from(JUNK_PRIVATE_KEY))).toBe(true);
  // a fresh salt and nonce each time
  const again = await encryptArmorPrivateKey({ algo: 'eth_secp256k1', privateKey: JUNK_PRIVATE_KEY, passphrase: 'correct horse' });
  expect(again).not.toBe(armor);
});

test('export refuses a passphrase under 8 characters', async () => {
  const err = await rejection(encryptArmorPrivateKey({ algo: 'secp256k1', privateKey: JUNK_PRIVATE_KEY, passphrase: 'short' }));
  expect(err.code).toBe('INVALID_PASSWORD');
  expect(err.message).toBe('password must be at least 8 characters');
});

test('scrypt armor of newer SDKs is read too', async () => {
  // Built here the way the SDK's scrypt branch does (kdfparams header, scrypt key, same secretbox).
  const { scryptSync, randomBytes } = await import('node:crypto');
  const { secretbox } = await import('@noble/ciphers/salsa.js');
  const salt = randomBytes(16);
  const key = scryptSync('scrypt-pass', salt, 32, { N: 1 << 12, r: 8, p: 1 });
  const nonce = randomBytes(24);
  const sealed = secretbox(key, nonce).seal(encodeAminoPrivateKey('eth_secp256k1', JUNK_PRIVATE_KEY));
  const armor = encodeArmor({
    blockType: 'TENDERMINT PRIVATE KEY',
    headers: [
      ['kdf', 'scrypt'],
      ['kdfparams', 'n=4096,r=8,p=1,dklen=32'],
      ['salt', salt.toString('hex').toUpperCase()],
      ['type', 'eth_secp256k1'],
    ],
    data: Uint8Array.from([...nonce, ...sealed]),
  });
  const { algo, privateKey } = await decryptArmorPrivateKey(armor, 'scrypt-pass');
  expect(algo).toBe('eth_secp256k1');
  expect(Buffer.from(privateKey).equals(Buffer.from(JUNK_PRIVATE_KEY))).toBe(true);
});

describe('corrupted armor → INVALID_ARGUMENT naming the problem (checked before any key derivation)', () => {
  const good = GO_ARMOR_ETH.armor;
  const bodyLine = good.split('\n')[5];
  const cases: Array<[string, string, string]> = [
    ['no BEGIN line', good.replace('-----BEGIN TENDERMINT PRIVATE KEY-----\n', ''), 'missing the "-----BEGIN TENDERMINT PRIVATE KEY-----" line'],
    ['no END line', good.replace('-----END TENDERMINT PRIVATE KEY-----', ''), 'missing the "-----END TENDERMINT PRIVATE KEY-----" line'],
    ['truncated body', good.replace(`${bodyLine}\n`, ''), 'bad checksum'],
    ['altered body', good.replace(bodyLine, bodyLine.replace('H', 'J')), 'bad checksum'],
    ['no checksum line', good.replace('=rruy\n', ''), 'missing the "=…" checksum line'],
    ['public key block', good.replaceAll('PRIVATE KEY', 'PUBLIC KEY'), 'it is a "TENDERMINT PUBLIC KEY" block'],
    ['unknown type', good.replace('type: eth_secp256k1', 'type: ed25519'), 'unknown key type "ed25519"'],
    ['unknown kdf', good.replace('kdf: bcrypt', 'kdf: argon2'), 'unsupported kdf "argon2"'],
    ['missing salt', good.replace(/salt: .*\n/u, ''), 'missing the "salt" header'],
    ['bad salt', good.replace(/salt: .*\n/u, 'salt: XYZ\n'), 'the "salt" header is not hexadecimal'],
    ['headers without blank line', good.replace('type: eth_secp256k1\n\n', 'type: eth_secp256k1\n'), 'is not "key: value"'],
    ['not armor at all', 'hello', 'missing the "-----BEGIN'],
  ];
  test.each(cases)('%s', async (_label, armor, problem) => {
    const started = Date.now();
    const err = await rejection(decryptArmorPrivateKey(armor, GO_ARMOR_ETH.passphrase));
    expect(err.code).toBe('INVALID_ARGUMENT');
    expect(err.message).toContain('invalid armor: ');
    expect(err.message).toContain(problem);
    expect(Date.now() - started).toBeLessThan(200); // bcrypt (~300 ms) never ran
  });

  test('type header that disagrees with the key inside', async () => {
    const err = await rejection(decryptArmorPrivateKey(GO_ARMOR_ETH.armor.replace('type: eth_secp256k1', 'type: secp256k1'), GO_ARMOR_ETH.passphrase));
    expect(err.code).toBe('INVALID_ARGUMENT');
    expect(err.message).toBe('invalid armor: the "type" header says secp256k1 but the key inside is eth_secp256k1');
  });
});
