/**
 * The personal namespace through the real JSON-RPC server of an in-process devnet node whose
 * client.toml says `keyring-backend = "test"` (the funded `dev` key is in it): listAccounts,
 * importRawKey (idempotent), newAccount, personal_sign checked by ethers' verifyMessage (EIP-191)
 * and inverted by personal_ecRecover, personal_sendTransaction from the dev key and from an
 * imported key (nonce, gas and fees filled in, committed, balances moved); geth's / Ethermint's
 * errors for an unknown account, bad keys and signatures, the smartcard methods; a file keyring
 * refuses a wrong password with geth's text; off by default.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonRpcProvider, Wallet, hexlify, toUtf8Bytes, verifyMessage } from 'ethers';
import { ensureDevnet } from '../../../src/node/genesis/devnet.js';
import type { RunningNode } from '../../../src/node/node.js';
import { openKeyring } from '../../../src/keyring/open.js';
import { personalMethods } from '../../../src/node/ethrpc/personal.js';
import type { EthBackend } from '../../../src/node/ethrpc/backend.js';
import { removeHomes, startFast, waitFor } from '../faults/helpers.js';

jest.setTimeout(120_000);

const homes: string[] = [];
let node: RunningNode;
let provider: JsonRpcProvider;
let url: string;
let devAddress: string;

async function rpc(method: string, params: unknown[] = [], target = url): Promise<{ result?: any; error?: { code: number; message: string } }> {
  const response = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
}

beforeAll(async () => {
  const home = mkdtempSync(join(tmpdir(), 'tokend-personal-'));
  homes.push(home);
  const info = await ensureDevnet(home);
  devAddress = Wallet.fromPhrase(info.mnemonic!).address.toLowerCase();
  node = await startFast(home, { jsonRpcApi: 'eth,net,web3,personal' });
  await waitFor(() => node.consensus.status().latestBlockHeight >= 1, 'height 1');
  url = node.jsonRpcAddress!.url;
  provider = new JsonRpcProvider(url, undefined, { staticNetwork: true, cacheTimeout: -1 });
  // Until the app has committed block 1 (just after consensus reports it) a query answers "not ready".
  await waitFor(async () => (await provider.getBalance(devAddress).catch(() => 0n)) > 0n, 'the genesis funds at latest');
});

afterAll(async () => {
  provider?.destroy();
  await node?.stop();
  removeHomes(homes);
});

describe('personal namespace', () => {
  const imported = Wallet.createRandom();

  it('lists, imports and creates keyring accounts', async () => {
    expect((await rpc('personal_listAccounts')).result).toEqual([devAddress]);
    const address = (await provider.send('personal_importRawKey', [imported.privateKey.slice(2), 'pw'])) as string;
    expect(address).toBe(imported.address.toLowerCase());
    // importing it again answers the same address, no second entry
    expect((await rpc('personal_importRawKey', [imported.privateKey.slice(2), 'pw'])).result).toBe(address);
    const created = (await rpc('personal_newAccount', ['a passphrase'])).result as string;
    expect(created).toMatch(/^0x[0-9a-f]{40}$/);
    const listed = (await rpc('personal_listAccounts')).result as string[];
    expect(listed).toHaveLength(3);
    expect(listed).toEqual(expect.arrayContaining([devAddress, address, created]));
    expect((await rpc('personal_unlockAccount', [address, 'pw', 300])).result).toBe(true);
    expect((await rpc('personal_lockAccount', [address])).result).toBe(true);
    expect((await rpc('personal_listWallets')).result).toBeNull();
  });

  it('personal_sign is EIP-191 (ethers verifies it) and personal_ecRecover inverts it', async () => {
    const message = 'deposit address check';
    const data = hexlify(toUtf8Bytes(message));
    const signature = (await provider.send('personal_sign', [data, devAddress, ''])) as string;
    expect(signature).toMatch(/^0x[0-9a-f]{130}$/);
    expect(['1b', '1c']).toContain(signature.slice(-2));
    expect(verifyMessage(message, signature).toLowerCase()).toBe(devAddress);
    expect((await rpc('personal_ecRecover', [data, signature])).result).toBe(devAddress);
    // the same as a wallet holding the key signs it
    const importedSig = (await rpc('personal_sign', [data, imported.address, 'pw'])).result;
    expect(importedSig).toBe(await imported.signMessage(message));
  });

  it('personal_sendTransaction signs with the keyring key, fills nonce / gas / fees, and the tx commits', async () => {
    const before = await provider.getBalance(imported.address);
    const hash = (await provider.send('personal_sendTransaction', [{ from: devAddress, to: imported.address, value: '0xde0b6b3a7640000' }, ''])) as string;
    const receipt = await provider.waitForTransaction(hash);
    expect(receipt!.status).toBe(1);
    expect(receipt!.from.toLowerCase()).toBe(devAddress);
    expect((await provider.getTransaction(hash))!.type).toBe(2);
    expect(await provider.getBalance(imported.address)).toBe(before + 10n ** 18n);
    // the imported key sends some back, as a legacy (gasPrice) tx
    const gasPrice = BigInt(await provider.send('eth_gasPrice', []));
    const back = (await provider.send('personal_sendTransaction', [{ from: imported.address, to: devAddress, value: '0x1', gasPrice: `0x${gasPrice.toString(16)}` }, 'pw'])) as string;
    const backReceipt = await provider.waitForTransaction(back);
    expect(backReceipt!.status).toBe(1);
    expect((await provider.getTransaction(back))!.type).toBe(0);
  });

  it('bad input: geth’s and Ethermint’s errors', async () => {
    const stranger = Wallet.createRandom().address.toLowerCase();
    const signed = await rpc('personal_sign', ['0x01', stranger, '']);
    expect(signed.error?.code).toBe(-32000);
    expect(signed.error?.message).toMatch(/^no key for given address or file; key with address token1[0-9a-z]+ not found: key not found$/);
    const sent = await rpc('personal_sendTransaction', [{ from: stranger, to: devAddress, value: '0x1' }, '']);
    expect(sent.error?.message).toMatch(/^failed to find key in the node's keyring; no key for given address or file; /);
    expect((await rpc('personal_sendTransaction', [{ from: devAddress, to: devAddress, value: '0x1', chainId: '0x1' }, ''])).error?.message).toMatch(/^chainId does not match node's \(have=0x1, want=0x/);
    expect((await rpc('personal_sendTransaction', [{ from: devAddress }, ''])).error?.message).toBe('contract creation without any data provided');
    expect((await rpc('personal_sendTransaction', [{ from: devAddress, to: devAddress, gasPrice: '0x1', maxFeePerGas: '0x2' }, ''])).error?.message).toBe('both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified');
    expect((await rpc('personal_ecRecover', ['0x01', '0x1234'])).error?.message).toBe('signature must be 65 bytes long');
    expect((await rpc('personal_ecRecover', ['0x01', `0x${'11'.repeat(64)}05`])).error?.message).toBe('invalid Ethereum signature (V is not 27 or 28)');
    expect((await rpc('personal_importRawKey', ['0x1234', 'pw'])).error?.message).toBe('invalid hex character "x" in private key');
    expect((await rpc('personal_importRawKey', ['1234', 'pw'])).error?.message).toBe('invalid length, need 256 bits');
    expect((await rpc('personal_initializeWallet', ['keycard://x'])).error?.message).toBe('smartcard wallet not supported yet');
    expect((await rpc('personal_unpair', ['keycard://x', '1234'])).error?.message).toBe('smartcard wallet not supported yet');
    expect((await rpc('personal_sign', ['xyz', devAddress, ''])).error?.code).toBe(-32602);
    // nothing was written by the refused calls
    expect(((await rpc('personal_listAccounts')).result as string[]).length).toBe(3);
  });

  it('a file keyring: the password is the keyring passphrase, a wrong one is geth’s "could not decrypt key with given password"', async () => {
    const home = mkdtempSync(join(tmpdir(), 'tokend-personal-file-'));
    homes.push(home);
    const ring = await openKeyring({ backend: 'file', home, passphrase: { read: async () => 'right passphrase' } });
    const key = Wallet.createRandom();
    await ring.importPrivateKey('k', 'eth_secp256k1', Buffer.from(key.privateKey.slice(2), 'hex'));
    const methods = personalMethods(undefined as unknown as EthBackend, { backend: 'file', home }, new Map());
    await expect(methods.personal_sign!(['0x01', key.address, 'wrong passphrase'])).rejects.toMatchObject({ code: -32000, message: 'could not decrypt key with given password' });
    await expect(methods.personal_unlockAccount!([key.address, 'wrong passphrase', 60])).rejects.toMatchObject({ message: 'could not decrypt key with given password' });
    expect(verifyMessage(Buffer.from([1]), (await methods.personal_sign!(['0x01', key.address, 'right passphrase'])) as string)).toBe(key.address);
    expect(await methods.personal_unlockAccount!([key.address, 'right passphrase', 60])).toBe(true);
  });

  it('is off by default: -32601', async () => {
    const home = mkdtempSync(join(tmpdir(), 'tokend-personal-off-'));
    homes.push(home);
    await ensureDevnet(home);
    const plain = await startFast(home);
    try {
      expect((await rpc('personal_listAccounts', [], plain.jsonRpcAddress!.url)).error).toEqual({ code: -32601, message: 'the method personal_listAccounts does not exist/is not available' });
    } finally {
      await plain.stop();
    }
  });
});
