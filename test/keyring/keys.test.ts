import { secp256k1 as nobleSecp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { decodeBech32, encodeBech32 } from '../../src/keyring/address.js';
import {
  addressFromPublicKey,
  keyPairFromPrivateKey,
  parseKeyAlgo,
  parsePrivateKeyHex,
  PUBKEY_TYPE_URLS,
  signMessage,
  verifySignature,
} from '../../src/keyring/keys.js';
import {
  isNativeSecp256k1Available,
  secp256k1ImplementationName,
  useSecp256k1Implementation,
  type Secp256k1ImplementationName,
} from '../../src/keyring/secp256k1.js';
import type { KeyAlgo } from '../../src/keyring/types.js';
import { ETH_VECTORS, JUNK_COSMOS_SCHEME } from './vectors.js';

const CURVE_ORDER = BigInt('0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141');
const JUNK_PRIVATE_KEY = Uint8Array.from(Buffer.from(ETH_VECTORS[0].privateKeyHex!, 'hex'));
const MESSAGE = new TextEncoder().encode('{"chain_id":"testnet","memo":"keyring test"}');

function toHighS(signature: Uint8Array): Uint8Array {
  const s = BigInt(`0x${Buffer.from(signature.subarray(32, 64)).toString('hex')}`);
  const flipped = Buffer.from((CURVE_ORDER - s).toString(16).padStart(64, '0'), 'hex');
  const out = Uint8Array.from(signature);
  out.set(flipped, 32);
  return out;
}

const implementations: Secp256k1ImplementationName[] = isNativeSecp256k1Available() ? ['native', 'noble'] : ['noble'];

afterAll(() => {
  useSecp256k1Implementation('native');
});

// The `secp256k1` package ships prebuilt binaries for these; elsewhere noble is the fallback.
const PREBUILT_PLATFORMS = ['linux-x64', 'darwin-arm64', 'win32-x64'];
const hasPrebuild = PREBUILT_PLATFORMS.includes(`${process.platform}-${process.arch}`);

(hasPrebuild ? test : test.skip)('the native libsecp256k1 binding is in use (the node relies on it for throughput)', () => {
  expect(isNativeSecp256k1Available()).toBe(true);
  expect(secp256k1ImplementationName()).toBe('native');
});

describe.each(implementations)('%s implementation', (implementation) => {
  beforeAll(() => {
    expect(useSecp256k1Implementation(implementation)).toBe(true);
  });

  test('eth_secp256k1: 65-byte r||s||v over keccak256, low-S, recoverable', () => {
    const pair = keyPairFromPrivateKey('eth_secp256k1', JUNK_PRIVATE_KEY);
    const signature = pair.sign(MESSAGE);
    expect(signature).toHaveLength(65);
    expect([0, 1]).toContain(signature[64]);
    const digest = keccak_256(MESSAGE);
    // Independent check with noble: signature over keccak256(msg), and v recovers our key.
    expect(nobleSecp256k1.verify(signature.subarray(0, 64), digest, pair.pubKey, { prehash: false })).toBe(true);
    const recovered = nobleSecp256k1.recoverPublicKey(Uint8Array.from([signature[64], ...signature.subarray(0, 64)]), digest, { prehash: false });
    expect(Buffer.from(recovered).equals(Buffer.from(pair.pubKey))).toBe(true);
    expect(pair.verify(MESSAGE, signature)).toBe(true);
    expect(pair.verify(MESSAGE, signature.subarray(0, 64))).toBe(true);
  });

  test('secp256k1: 64-byte r||s over sha256', () => {
    const pair = keyPairFromPrivateKey('secp256k1', JUNK_PRIVATE_KEY);
    const signature = pair.sign(MESSAGE);
    expect(signature).toHaveLength(64);
    expect(nobleSecp256k1.verify(signature, sha256(MESSAGE), pair.pubKey, { prehash: false })).toBe(true);
    expect(verifySignature('secp256k1', pair.pubKey, MESSAGE, signature)).toBe(true);
  });

  test.each<KeyAlgo>(['eth_secp256k1', 'secp256k1'])('%s rejects high-S, other messages, other keys, bad lengths', (algo) => {
    const pair = keyPairFromPrivateKey(algo, JUNK_PRIVATE_KEY);
    const other = keyPairFromPrivateKey(algo, parsePrivateKeyHex('11'.repeat(32)));
    const signature = pair.sign(MESSAGE);
    const compact = signature.subarray(0, 64);
    const highS = toHighS(compact);
    // high-S is a mathematically valid signature; only the low-S rule rejects it
    expect(nobleSecp256k1.verify(highS, algo === 'eth_secp256k1' ? keccak_256(MESSAGE) : sha256(MESSAGE), pair.pubKey, { prehash: false, lowS: false })).toBe(true);
    expect(verifySignature(algo, pair.pubKey, MESSAGE, highS)).toBe(false);
    expect(verifySignature(algo, pair.pubKey, new TextEncoder().encode('other'), signature)).toBe(false);
    expect(verifySignature(algo, other.pubKey, MESSAGE, signature)).toBe(false);
    expect(verifySignature(algo, pair.pubKey, MESSAGE, compact.subarray(0, 63))).toBe(false);
    expect(verifySignature(algo, pair.pubKey, MESSAGE, new Uint8Array(64))).toBe(false);
    expect(verifySignature(algo, pair.pubKey.subarray(0, 32), MESSAGE, signature)).toBe(false);
    expect(verifySignature(algo, new Uint8Array(33).fill(2), MESSAGE, signature)).toBe(false);
  });

  test('a 65-byte signature is eth only; cosmos wants exactly 64', () => {
    const pair = keyPairFromPrivateKey('secp256k1', JUNK_PRIVATE_KEY);
    const signature = pair.sign(MESSAGE);
    expect(verifySignature('secp256k1', pair.pubKey, MESSAGE, Uint8Array.from([...signature, 0]))).toBe(false);
  });

  test('a 32-byte message is hashed like any other (sign and verify agree)', () => {
    const pair = keyPairFromPrivateKey('eth_secp256k1', JUNK_PRIVATE_KEY);
    const digestSized = new Uint8Array(32).fill(9);
    const signature = pair.sign(digestSized);
    expect(nobleSecp256k1.verify(signature.subarray(0, 64), keccak_256(digestSized), pair.pubKey, { prehash: false })).toBe(true);
    expect(pair.verify(digestSized, signature)).toBe(true);
  });
});

test('native and noble produce identical (RFC 6979) signatures', () => {
  if (!isNativeSecp256k1Available()) return;
  for (const algo of ['eth_secp256k1', 'secp256k1'] as const) {
    useSecp256k1Implementation('native');
    const native = signMessage(algo, JUNK_PRIVATE_KEY, MESSAGE);
    useSecp256k1Implementation('noble');
    const noble = signMessage(algo, JUNK_PRIVATE_KEY, MESSAGE);
    expect(Buffer.from(native).toString('hex')).toBe(Buffer.from(noble).toString('hex'));
  }
  useSecp256k1Implementation('native');
});

test('addresses per algorithm (COMPAT §8)', () => {
  const eth = keyPairFromPrivateKey('eth_secp256k1', JUNK_PRIVATE_KEY);
  expect(encodeBech32('token', eth.address)).toBe(ETH_VECTORS[0].token);
  const cosmos = keyPairFromPrivateKey('secp256k1', JUNK_PRIVATE_KEY);
  expect(encodeBech32('token', cosmos.address)).toBe(JUNK_COSMOS_SCHEME.token);
  expect(Buffer.from(decodeBech32(JUNK_COSMOS_SCHEME.upstream).data).equals(Buffer.from(cosmos.address))).toBe(true);
  expect(addressFromPublicKey('secp256k1', cosmos.pubKey)).toEqual(cosmos.address);
});

test('type URLs and amino names', () => {
  const eth = keyPairFromPrivateKey('eth_secp256k1', JUNK_PRIVATE_KEY);
  expect(eth.pubKeyTypeUrl).toBe('/ethermint.crypto.v1.ethsecp256k1.PubKey');
  expect(eth.aminoType).toBe('ethermint/PubKeyEthSecp256k1');
  const cosmos = keyPairFromPrivateKey('secp256k1', JUNK_PRIVATE_KEY);
  expect(cosmos.pubKeyTypeUrl).toBe(PUBKEY_TYPE_URLS.secp256k1);
  expect(cosmos.pubKeyTypeUrl).toBe('/cosmos.crypto.secp256k1.PubKey');
  expect(cosmos.aminoType).toBe('tendermint/PubKeySecp256k1');
});

test('bad private keys and algorithms', () => {
  expect(() => parsePrivateKeyHex('abc')).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  expect(() => parsePrivateKeyHex('00'.repeat(32))).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', message: 'private key is out of range for secp256k1' }));
  expect(() => parsePrivateKeyHex('ff'.repeat(32))).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  expect(parsePrivateKeyHex(`0x${ETH_VECTORS[0].privateKeyHex}`)).toEqual(JUNK_PRIVATE_KEY);
  expect(() => keyPairFromPrivateKey('eth_secp256k1', new Uint8Array(31).fill(1))).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  expect(() => parseKeyAlgo('ed25519')).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', message: 'unsupported key algorithm "ed25519"' }));
});
