/** Shared pieces of the `keys` commands: the keyring flag, opening a keyring, rendering keys. */
import { Flags } from '@oclif/core';
import type { Keyring, KeyringRecord } from '../keyring/types.js';
import { KEYRING_BACKENDS, type KeyringBackendName } from '../node/config/client.js';
import { readSecret, isInteractive } from './prompt.js';

export const keyringFlags = {
  'keyring-backend': Flags.option({
    options: KEYRING_BACKENDS,
    description: 'Keyring backend: os|file|test|memory (default from client.toml, else os)',
    helpGroup: 'GLOBAL',
  })(),
};

/**
 * The JSON shape of one key, as the Cosmos SDK prints it (pubkey is a JSON string), plus
 * address_hex and (local keys) algo. A multisig key has type "multi" and its pubkey is the
 * LegacyAminoPubKey: {"@type","threshold","public_keys":[…]}.
 */
export interface KeyOutput {
  name: string;
  type: 'local' | 'offline' | 'multi';
  address: string;
  address_hex: string;
  pubkey: string;
  algo?: string;
  mnemonic?: string;
}

export async function openCliKeyring(backend: KeyringBackendName, home: string): Promise<Keyring> {
  const { openKeyring } = await import('../keyring/open.js');
  return openKeyring({
    backend,
    home,
    passphrase: { read: (prompt: string) => readSecret(`${prompt}: `, 'the keyring passphrase') },
    passphraseAttempts: isInteractive() ? 3 : 1,
  });
}

export async function keyOutput(record: KeyringRecord, accountPrefixOverride?: 'acc' | 'val' | 'cons'): Promise<KeyOutput> {
  const address = await import('../keyring/address.js');
  const { PUBKEY_TYPE_URLS } = await import('../keyring/constants.js');
  const bech =
    accountPrefixOverride === 'val'
      ? address.toValidatorOperatorAddress(record.address)
      : accountPrefixOverride === 'cons'
        ? address.toConsensusAddress(record.address)
        : address.toAccountAddress(record.address);
  if (record.type === 'multi') {
    const pubkey = {
      '@type': '/cosmos.crypto.multisig.LegacyAminoPubKey',
      threshold: record.threshold,
      public_keys: record.members.map((m) => ({ '@type': PUBKEY_TYPE_URLS[m.algo], key: Buffer.from(m.pubKey).toString('base64') })),
    };
    return { name: record.name, type: 'multi', address: bech, address_hex: address.toChecksumHex(record.address), pubkey: JSON.stringify(pubkey) };
  }
  return {
    name: record.name,
    type: record.type,
    address: bech,
    address_hex: address.toChecksumHex(record.address),
    pubkey: JSON.stringify({ '@type': PUBKEY_TYPE_URLS[record.algo], key: Buffer.from(record.pubKey).toString('base64') }),
    algo: record.algo,
  };
}

/** A text table of keys (NAME TYPE ADDRESS ADDRESS_HEX PUBKEY). */
export async function renderKeyTable(keys: KeyOutput[]): Promise<string> {
  const { default: Table } = await import('cli-table3');
  const table = new Table({
    head: ['NAME', 'TYPE', 'ADDRESS', 'ADDRESS_HEX', 'PUBKEY'],
    style: { head: [], border: [], compact: true, 'padding-left': 0, 'padding-right': 0 },
    chars: { top: '', 'top-mid': '', 'top-left': '', 'top-right': '', bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '', left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: '  ' },
  });
  for (const key of keys) table.push([key.name, key.type, key.address, key.address_hex, key.pubkey]);
  return table.toString().split('\n').map((line) => line.trimEnd()).join('\n');
}

export const MNEMONIC_WARNING =
  '**Important** write this mnemonic phrase in a safe place.\nIt is the only way to recover your account if you ever forget your password.';
