/**
 * The `personal` namespace (opt-in through `[json-rpc] api`, as Ethermint's), backed by the
 * node's keyring: the backend of `start --keyring-backend`, else client.toml's `keyring-backend`
 * (as the Go node's client context picks it), in `<home>/keyring-<backend>`.
 *
 *   personal_listAccounts        the keyring's addresses (0x), in its order (by name)
 *   personal_newAccount(pw)      a fresh 24-word mnemonic, eth_secp256k1 at m/44'/60'/0'/0/0 with
 *                                pw as its BIP-39 passphrase (Ethermint), named key_<UTC time>;
 *                                the mnemonic is not kept
 *   personal_importRawKey(hex, pw)  hex without 0x (geth's HexToECDSA); named personal_<n>,
 *                                an already present key returns its address
 *   personal_unlockAccount(a, pw, s) / personal_lockAccount(a)  true when the keyring holds the key
 *                                and (file backend) pw opens it; keys are always usable with the
 *                                keyring's own protection, so this only checks
 *   personal_sign(data, a, pw)   EIP-191: keccak256("\x19Ethereum Signed Message:\n" ‖ len ‖ data),
 *                                65 bytes r ‖ s ‖ v with v = 27 / 28 (geth; Ethermint v0.22 signs
 *                                keccak256(data) unprefixed, which its own ecRecover cannot
 *                                invert — geth's behaviour is kept here)
 *   personal_ecRecover(data, sig)  the inverse
 *   personal_sendTransaction(args, pw)  Ethermint's SetTxDefaults (nonce = pending count, gas =
 *                                estimate, EIP-1559 fees = tip + 2 × base fee), signed with the
 *                                key (EIP-155 / typed), submitted as eth_sendRawTransaction
 *   personal_listWallets → null; personal_initializeWallet / personal_unpair → "smartcard wallet
 *                                not supported yet" (Ethermint)
 *
 * Passwords: the `test`, `os` and `memory` backends have no per-key password (Ethermint ignores
 * the argument too); with the `file` backend the password argument is the keyring passphrase and a
 * wrong one is geth's "could not decrypt key with given password"; the methods without a password
 * (listAccounts, lockAccount) cannot open a file keyring (an error, and false). An address the keyring does not
 * hold gets Ethermint's text (keystore.ErrNoMatch and the SDK keyring's).
 */
import { Signature, Transaction, computeAddress, getBytes, keccak256 as ethersKeccak, recoverAddress, toUtf8Bytes, concat } from 'ethers';
import type { Keyring, KeyringBackendName, KeyRecord } from '../../keyring/types.js';
import { openKeyring } from '../../keyring/open.js';
import { toAccountAddress } from '../../keyring/address.js';
import { generateMnemonic } from '../../keyring/hd.js';
import { TokendError } from '../../util/errors.js';
import { EthRpcError, hex, type EthBackend } from './backend.js';

type Handler = (params: unknown[]) => Promise<unknown>;

export interface PersonalOptions {
  backend: KeyringBackendName;
  home: string;
}

const NO_MATCH = 'no key for given address or file';
const DECRYPT = 'could not decrypt key with given password';
const ETH_HD_PATH = "m/44'/60'/0'/0/0";

function bytesParam(value: unknown, index: number): Uint8Array {
  if (typeof value !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(value)) throw new EthRpcError(-32602, `invalid argument ${index}: hex string without 0x prefix`);
  return getBytes(value);
}

function addressParam(value: unknown, index: number): string {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(value)) {
    throw new EthRpcError(-32602, `invalid argument ${index}: hex string has length ${typeof value === 'string' ? value.length - 2 : 0}, want 40 for common.Address`);
  }
  return value.toLowerCase();
}

function passwordParam(value: unknown, index: number): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw new EthRpcError(-32602, `invalid argument ${index}: json: cannot unmarshal ${typeof value} into Go value of type string`);
  return value;
}

/** EIP-191's personal message hash input: "\x19Ethereum Signed Message:\n" ‖ len ‖ data. */
export function textMessage(data: Uint8Array): Uint8Array {
  return getBytes(concat([toUtf8Bytes(`\x19Ethereum Signed Message:\n${data.length}`), data]));
}

export function personalMethods(b: EthBackend, options: PersonalOptions, eth: ReadonlyMap<string, Handler>): Record<string, Handler> {
  let shared: Keyring | undefined;

  /** The keyring: one instance for the password-less backends; for `file`, opened with `password`. */
  const keyring = async (password: string | undefined): Promise<Keyring> => {
    if (options.backend !== 'file') return (shared ??= await openKeyring({ backend: options.backend, home: options.home }));
    if (password === undefined) throw new EthRpcError(-32000, 'the file keyring needs its passphrase: this method takes none');
    return openKeyring({ backend: 'file', home: options.home, passphrase: { read: async () => password } });
  };

  const keyringError = (err: unknown): EthRpcError => {
    if (err instanceof EthRpcError) return err;
    if (err instanceof TokendError && err.code === 'WRONG_PASSWORD') return new EthRpcError(-32000, DECRYPT);
    return new EthRpcError(-32000, err instanceof TokendError ? err.line : (err as Error).message);
  };

  /** The local eth_secp256k1 key of `address`; Ethermint's error text when there is none. */
  const keyOf = async (ring: Keyring, address: string, prefix = ''): Promise<KeyRecord> => {
    let key: KeyRecord | undefined;
    try {
      key = await ring.find(address);
    } catch (err) {
      if (!(err instanceof TokendError) || err.code === 'WRONG_PASSWORD') throw keyringError(err);
    }
    if (key === undefined || key.algo !== 'eth_secp256k1') {
      const bech32 = toAccountAddress(getBytes(address));
      throw new EthRpcError(-32000, `${prefix}${NO_MATCH}; key with address ${bech32} not found: key not found`);
    }
    return key;
  };

  const sign = async (ring: Keyring, key: KeyRecord, bytes: Uint8Array): Promise<Uint8Array> => {
    try {
      return (await ring.sign(key.name, bytes)).signature;
    } catch (err) {
      throw keyringError(err);
    }
  };

  return {
    personal_listAccounts: async () => {
      try {
        const ring = await keyring(options.backend === 'file' ? undefined : '');
        return (await ring.list()).map((record) => `0x${Buffer.from(record.address).toString('hex')}`);
      } catch (err) {
        throw keyringError(err);
      }
    },
    personal_newAccount: async (p) => {
      const password = passwordParam(p[0], 0);
      const ring = await keyring(password);
      const stamp = new Date().toISOString().replace(/\.\d+Z$/, 'Z').replace(/[-:]/g, '');
      try {
        let name = `key_${stamp}`;
        for (let i = 1; await ring.has(name); i++) name = `key_${stamp}-${i}`;
        const key = await ring.create({ name, mnemonic: generateMnemonic(), algo: 'eth_secp256k1', hdPath: ETH_HD_PATH, bip39Passphrase: password });
        return `0x${Buffer.from(key.address).toString('hex')}`;
      } catch (err) {
        throw keyringError(err);
      }
    },
    personal_importRawKey: async (p) => {
      const text = p[0];
      if (typeof text !== 'string') throw new EthRpcError(-32602, 'missing value for required argument 0');
      const password = passwordParam(p[1], 1);
      // geth's crypto.HexToECDSA: plain hex (no 0x), 32 bytes.
      const bad = /[^0-9a-fA-F]/.exec(text);
      if (bad !== null) throw new EthRpcError(-32000, `invalid hex character ${JSON.stringify(bad[0])} in private key`);
      if (text.length % 2 === 1) throw new EthRpcError(-32000, 'invalid hex data for private key');
      if (text.length !== 64) throw new EthRpcError(-32000, 'invalid length, need 256 bits');
      const ring = await keyring(password);
      try {
        const address = computeAddress(`0x${text}`).toLowerCase();
        const existing = await ring.find(address).catch(() => undefined);
        if (existing !== undefined) return address;
        const count = (await ring.list()).length;
        let name = `personal_${count}`;
        for (let i = count + 1; await ring.has(name); i++) name = `personal_${i}`;
        const key = await ring.importPrivateKey(name, 'eth_secp256k1', new Uint8Array(Buffer.from(text, 'hex')));
        return `0x${Buffer.from(key.address).toString('hex')}`;
      } catch (err) {
        throw keyringError(err);
      }
    },
    personal_unlockAccount: async (p) => {
      const address = addressParam(p[0], 0);
      const password = passwordParam(p[1], 1);
      if (p[2] !== undefined && p[2] !== null && (typeof p[2] !== 'number' || !Number.isInteger(p[2]) || p[2] < 0)) {
        throw new EthRpcError(-32602, `invalid argument 2: json: cannot unmarshal ${typeof p[2]} into Go value of type uint64`);
      }
      const ring = await keyring(password);
      await keyOf(ring, address);
      return true;
    },
    personal_lockAccount: async (p) => {
      const address = addressParam(p[0], 0);
      if (options.backend === 'file') return false;
      const ring = await keyring('');
      return (await ring.find(address).catch(() => undefined)) !== undefined;
    },
    personal_sign: async (p) => {
      const data = bytesParam(p[0], 0);
      const address = addressParam(p[1], 1);
      const ring = await keyring(passwordParam(p[2], 2));
      const key = await keyOf(ring, address);
      const signature = await sign(ring, key, textMessage(data));
      const out = new Uint8Array(signature);
      out[64] = out[64]! + 27;
      return `0x${Buffer.from(out).toString('hex')}`;
    },
    personal_ecRecover: async (p) => {
      const data = bytesParam(p[0], 0);
      const signature = bytesParam(p[1], 1);
      if (signature.length !== 65) throw new EthRpcError(-32000, 'signature must be 65 bytes long');
      if (signature[64] !== 27 && signature[64] !== 28) throw new EthRpcError(-32000, 'invalid Ethereum signature (V is not 27 or 28)');
      try {
        return recoverAddress(ethersKeccak(textMessage(data)), Signature.from(`0x${Buffer.from(signature).toString('hex')}`)).toLowerCase();
      } catch {
        throw new EthRpcError(-32000, 'invalid signature recovery id');
      }
    },
    personal_sendTransaction: async (p) => {
      const args = p[0];
      if (args === null || typeof args !== 'object' || Array.isArray(args)) throw new EthRpcError(-32602, 'missing value for required argument 0');
      const a = args as Record<string, unknown>;
      const from = addressParam(a.from, 0);
      const ring = await keyring(passwordParam(p[1], 1));
      const key = await keyOf(ring, from, "failed to find key in the node's keyring; ");
      const chainId = await b.chainId();
      if (a.chainId !== undefined && a.chainId !== null && BigInt(a.chainId as string) !== chainId) {
        throw new EthRpcError(-32000, `chainId does not match node's (have=${hex(BigInt(a.chainId as string))}, want=${hex(chainId)})`);
      }
      const call = async (method: string, params: unknown[]) => eth.get(method)!(params);
      const tx = await fillTransaction(b, a, from, chainId, call);
      const bytes = getBytes(tx.unsignedSerialized);
      const signature = await sign(ring, key, bytes);
      const word = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;
      tx.signature = Signature.from({ r: word(signature.subarray(0, 32)), s: word(signature.subarray(32, 64)), v: 27 + signature[64]! });
      return b.sendRaw(getBytes(tx.serialized));
    },
    personal_listWallets: async () => null,
    personal_initializeWallet: async () => {
      throw new EthRpcError(-32000, 'smartcard wallet not supported yet');
    },
    personal_unpair: async () => {
      throw new EthRpcError(-32000, 'smartcard wallet not supported yet');
    },
  };
}

const quantity = (value: unknown, what: string): bigint | undefined => {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]+$/.test(value)) throw new EthRpcError(-32602, `invalid argument 0: json: cannot unmarshal hex string without 0x prefix into Go struct field TransactionArgs.${what} of type *hexutil.Big`);
  return BigInt(value);
};

/** Ethermint's SetTxDefaults, then an unsigned ethers Transaction. */
async function fillTransaction(
  b: EthBackend,
  a: Record<string, unknown>,
  from: string,
  chainId: bigint,
  call: (method: string, params: unknown[]) => Promise<unknown>,
): Promise<Transaction> {
  const gasPrice = quantity(a.gasPrice, 'gasPrice');
  let maxFee = quantity(a.maxFeePerGas, 'maxFeePerGas');
  let tip = quantity(a.maxPriorityFeePerGas, 'maxPriorityFeePerGas');
  if (gasPrice !== undefined && (maxFee !== undefined || tip !== undefined)) throw new EthRpcError(-32000, 'both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified');
  const data = a.data as string | undefined;
  const input = a.input as string | undefined;
  if (data !== undefined && input !== undefined && data !== input) throw new EthRpcError(-32000, `both "data" and "input" are set and not equal. Please use "input" to pass transaction call data`);
  const payload = input ?? data ?? '0x';
  if (typeof payload !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(payload)) throw new EthRpcError(-32602, 'invalid argument 0: hex string expected for input');
  const to = a.to === undefined || a.to === null ? null : addressParam(a.to, 0);
  if (to === null && payload === '0x') throw new EthRpcError(-32000, 'contract creation without any data provided');
  const value = quantity(a.value, 'value') ?? 0n;
  const baseFee = await b.baseFee().catch(() => undefined);
  let type = 0;
  if (gasPrice === undefined) {
    if (baseFee !== undefined) {
      type = 2;
      tip ??= BigInt((await call('eth_maxPriorityFeePerGas', [])) as string);
      maxFee ??= tip + 2n * baseFee;
      if (maxFee < tip) throw new EthRpcError(-32000, `maxFeePerGas (${maxFee}) < maxPriorityFeePerGas (${tip})`);
    }
  }
  const price = gasPrice ?? (type === 0 ? BigInt((await call('eth_gasPrice', [])) as string) : undefined);
  const nonce = quantity(a.nonce, 'nonce') ?? BigInt((await call('eth_getTransactionCount', [from, 'pending'])) as string);
  let gas = quantity(a.gas, 'gas');
  if (gas === undefined) {
    const estimateArgs: Record<string, unknown> = { from, value: hex(value), input: payload };
    if (to !== null) estimateArgs.to = to;
    gas = BigInt((await call('eth_estimateGas', [estimateArgs])) as string);
  }
  const fields = { to, nonce: Number(nonce), gasLimit: gas, data: payload, value, chainId };
  return type === 2 ? Transaction.from({ ...fields, type: 2, maxFeePerGas: maxFee!, maxPriorityFeePerGas: tip!, accessList: [] }) : Transaction.from({ ...fields, type: 0, gasPrice: price! });
}
