/**
 * A one-validator development chain in a home: created once when the home is empty (init, a
 * funded `dev` key in the test keyring, gentx, collect-gentxs), reused afterwards.
 */
import { existsSync } from 'node:fs';
import type { Keyring } from '../../keyring/types.js';
import { toAccountAddress, toChecksumHex } from '../../keyring/address.js';
import { generateMnemonic, buildHdPath } from '../../keyring/hd.js';
import { openKeyring } from '../../keyring/open.js';
import { defaultGenesisPath } from './file.js';
import { addGenesisAccountToFile, collectGentxsIntoFile, createGentx, initHome } from './setup.js';

export const DEVNET_KEY = 'dev';
export const DEVNET_CHAIN_ID = 'testnet';
export const DEVNET_DENOM = 'attotoken';
/** 1,000,000,000 token. */
export const DEVNET_FUNDS = 10n ** 27n;
/** 1,000,000 token self-delegation. */
export const DEVNET_SELF_DELEGATION = 10n ** 24n;

export interface DevnetInfo {
  home: string;
  created: boolean;
  chain_id: string;
  key_name: string;
  key_address: string;
  key_address_hex: string;
  /** Only when the chain was just created. */
  mnemonic?: string;
}

async function devKeyring(home: string): Promise<Keyring> {
  return openKeyring({ backend: 'test', home });
}

export async function ensureDevnet(home: string): Promise<DevnetInfo> {
  const keyring = await devKeyring(home);
  if (existsSync(defaultGenesisPath(home))) {
    const key = (await keyring.has(DEVNET_KEY)) ? await keyring.get(DEVNET_KEY) : undefined;
    return {
      home,
      created: false,
      chain_id: DEVNET_CHAIN_ID,
      key_name: DEVNET_KEY,
      key_address: key ? toAccountAddress(key.address) : '',
      key_address_hex: key ? toChecksumHex(key.address) : '',
    };
  }
  initHome({ home, moniker: 'devnet', chainId: DEVNET_CHAIN_ID, denom: DEVNET_DENOM, overwrite: false, clientConfig: { 'keyring-backend': 'test' } });
  const mnemonic = generateMnemonic(24);
  if (await keyring.has(DEVNET_KEY)) await keyring.delete(DEVNET_KEY);
  const key = await keyring.create({ name: DEVNET_KEY, mnemonic, algo: 'eth_secp256k1', hdPath: buildHdPath({ algo: 'eth_secp256k1' }) });
  addGenesisAccountToFile(home, key.address, [{ denom: DEVNET_DENOM, amount: DEVNET_FUNDS }]);
  await createGentx({
    home,
    keyring,
    keyName: DEVNET_KEY,
    amount: { denom: DEVNET_DENOM, amount: DEVNET_SELF_DELEGATION },
    commissionRate: '0.1',
    commissionMaxRate: '0.2',
    commissionMaxChangeRate: '0.01',
    minSelfDelegation: '1',
  });
  collectGentxsIntoFile(home);
  return {
    home,
    created: true,
    chain_id: DEVNET_CHAIN_ID,
    key_name: DEVNET_KEY,
    key_address: toAccountAddress(key.address),
    key_address_hex: toChecksumHex(key.address),
    mnemonic,
  };
}
