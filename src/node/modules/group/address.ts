/**
 * Group policy account addresses (ADR-028): address.Module("group", {GroupPolicyTablePrefix})
 * derived with the policy sequence as 8 big-endian bytes — 32-byte addresses:
 *
 *   Hash(typ, key) = sha256(sha256(typ) ‖ key)
 *   Module(name, k) = Hash("module", name ‖ 0x00 ‖ k)
 *   Derive(addr, k) = Hash(addr, k)
 */
import { sha256 } from '../../../util/hash.js';
import { GROUP_POLICY_TABLE_PREFIX, MODULE_NAME } from './keys.js';

function addressHash(typ: Uint8Array, key: Uint8Array): Uint8Array {
  const typeHash = sha256(typ);
  const buffer = new Uint8Array(typeHash.length + key.length);
  buffer.set(typeHash, 0);
  buffer.set(key, typeHash.length);
  return sha256(buffer);
}

const encoder = new TextEncoder();

/** address.Module(name, key): a module's derived account. */
export function moduleDerivedAddress(name: string, key: Uint8Array): Uint8Array {
  const nameBytes = encoder.encode(name);
  const payload = new Uint8Array(nameBytes.length + 1 + key.length);
  payload.set(nameBytes, 0);
  payload.set(key, nameBytes.length + 1);
  return addressHash(encoder.encode('module'), payload);
}

/** address.Derive(address, key). */
export function deriveAddress(address: Uint8Array, key: Uint8Array): Uint8Array {
  return addressHash(address, key);
}

const policyParent = moduleDerivedAddress(MODULE_NAME, Uint8Array.of(GROUP_POLICY_TABLE_PREFIX));

/** The account address of the group policy created with sequence value `sequence`. */
export function groupPolicyAddress(sequence: bigint): Uint8Array {
  const key = new Uint8Array(8);
  new DataView(key.buffer).setBigUint64(0, sequence);
  return deriveAddress(policyParent, key);
}
