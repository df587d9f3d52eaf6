/** Key sizes and type names, kept apart from the crypto so that importing them loads no curve code. */
import type { KeyAlgo } from './types.js';

export const PRIVATE_KEY_LENGTH = 32;
export const PUBLIC_KEY_LENGTH = 33;
export const ADDRESS_LENGTH = 20;

export const PUBKEY_TYPE_URLS: Readonly<Record<KeyAlgo, string>> = {
  eth_secp256k1: '/ethermint.crypto.v1.ethsecp256k1.PubKey',
  secp256k1: '/cosmos.crypto.secp256k1.PubKey',
};

export const PRIVKEY_TYPE_URLS: Readonly<Record<KeyAlgo, string>> = {
  eth_secp256k1: '/ethermint.crypto.v1.ethsecp256k1.PrivKey',
  secp256k1: '/cosmos.crypto.secp256k1.PrivKey',
};

export const PUBKEY_AMINO_NAMES: Readonly<Record<KeyAlgo, string>> = {
  eth_secp256k1: 'ethermint/PubKeyEthSecp256k1',
  secp256k1: 'tendermint/PubKeySecp256k1',
};

export const PRIVKEY_AMINO_NAMES: Readonly<Record<KeyAlgo, string>> = {
  eth_secp256k1: 'ethermint/PrivKeyEthSecp256k1',
  secp256k1: 'tendermint/PrivKeySecp256k1',
};

