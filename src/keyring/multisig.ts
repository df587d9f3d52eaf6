/**
 * Offline threshold multisig keys (/cosmos.crypto.multisig.LegacyAminoPubKey): their address and
 * the checks `keys add --multisig` makes. The address is sha256 of the key's amino encoding
 * (src/keyring/amino.ts), with each member under its registered amino name
 * (tendermint/PubKeySecp256k1, ethermint/PubKeyEthSecp256k1), truncated to 20 bytes.
 */
import { TokendError } from '../util/errors.js';
import { aminoKeyAddress, aminoMultisigBytes, aminoSingleKeyBytes } from './amino.js';
import { PUBKEY_AMINO_NAMES } from './constants.js';
import { addressFromPublicKey } from './keys.js';
import type { MultisigMember } from './types.js';

/** The amino encoding of a multisig key. */
export function multisigKeyBytes(threshold: number, members: readonly MultisigMember[]): Uint8Array {
  return aminoMultisigBytes(threshold, members.map((m) => aminoSingleKeyBytes(PUBKEY_AMINO_NAMES[m.algo], m.pubKey)));
}

/** The 20-byte account address of a multisig key. */
export function multisigKeyAddress(threshold: number, members: readonly MultisigMember[]): Uint8Array {
  return aminoKeyAddress(multisigKeyBytes(threshold, members));
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/**
 * Checks a k-of-n multisig (1 ≤ k ≤ n, no repeated member) and returns its members in key order:
 * sorted by member address, as the SDK's `keys add --multisig` sorts them unless `--nosort`.
 */
export function checkMultisig(threshold: number, members: readonly MultisigMember[], sort = true): MultisigMember[] {
  if (members.length === 0) throw new TokendError('INVALID_ARGUMENT', 'a multisig key needs at least one member key');
  if (!Number.isInteger(threshold) || threshold < 1) throw new TokendError('INVALID_ARGUMENT', `the multisig threshold must be a positive integer, got ${threshold}`);
  if (threshold > members.length) {
    throw new TokendError('INVALID_ARGUMENT', `multisig threshold ${threshold} is above the number of keys (${members.length})`, {
      hint: `a k-of-n multisig needs k ≤ n: use --multisig-threshold ${members.length} or less`,
    });
  }
  const withAddress = members.map((member) => ({ member, address: addressFromPublicKey(member.algo, member.pubKey) }));
  for (let i = 0; i < withAddress.length; i++) {
    for (let j = 0; j < i; j++) {
      if (withAddress[i]!.member.algo === withAddress[j]!.member.algo && compareBytes(withAddress[i]!.member.pubKey, withAddress[j]!.member.pubKey) === 0) {
        throw new TokendError('INVALID_ARGUMENT', `duplicate multisig member: keys ${j + 1} and ${i + 1} are the same key`);
      }
    }
  }
  if (sort) withAddress.sort((a, b) => compareBytes(a.address, b.address));
  return withAddress.map(({ member }) => ({ algo: member.algo, pubKey: Uint8Array.from(member.pubKey) }));
}
