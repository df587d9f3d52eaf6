/**
 * go-amino binary encoding of public keys (what `keys add --multisig` addresses are made of).
 *
 *   single key   prefix(name) ‖ uvarint(len(key)) ‖ key      secp256k1: EB5AE987 21 <33 bytes>
 *   multisig     prefix("tendermint/PubKeyMultisigThreshold") = 22C1F7E2
 *                ‖ 08 uvarint(threshold) ‖ (12 uvarint(len(sub)) sub)…
 *
 * The prefix of a registered amino name is sha256(name) with leading zero bytes skipped, 3
 * disambiguation bytes skipped, zero bytes skipped again, then 4 bytes. A multisig key's address
 * is sha256(its encoding)[0..20] (the SDK's LegacyAminoPubKey.Address()).
 */
import { sha256 } from './hash.js';

export const MULTISIG_AMINO_NAME = 'tendermint/PubKeyMultisigThreshold';

const prefixes = new Map<string, Uint8Array>();

export function aminoPrefix(name: string): Uint8Array {
  let prefix = prefixes.get(name);
  if (prefix === undefined) {
    const hash = sha256(new TextEncoder().encode(name));
    let i = 0;
    while (hash[i] === 0) i++;
    i += 3;
    while (hash[i] === 0) i++;
    prefix = hash.slice(i, i + 4);
    prefixes.set(name, prefix);
  }
  return prefix;
}

function uvarint(value: number): number[] {
  const out: number[] = [];
  let v = value;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
}

function concat(parts: readonly (Uint8Array | readonly number[])[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** A key whose amino form is its bytes (secp256k1, eth_secp256k1, ed25519). */
export function aminoSingleKeyBytes(aminoName: string, key: Uint8Array): Uint8Array {
  return concat([aminoPrefix(aminoName), uvarint(key.length), key]);
}

/** A threshold multisig key from its members' amino encodings, in order. */
export function aminoMultisigBytes(threshold: number, members: readonly Uint8Array[]): Uint8Array {
  const parts: (Uint8Array | readonly number[])[] = [aminoPrefix(MULTISIG_AMINO_NAME), [0x08, ...uvarint(threshold)]];
  for (const member of members) parts.push([0x12, ...uvarint(member.length)], member);
  return concat(parts);
}

/** sha256(amino bytes)[0..20]: the address of a multisig key. */
export function aminoKeyAddress(aminoBytes: Uint8Array): Uint8Array {
  return sha256(aminoBytes).slice(0, 20);
}
