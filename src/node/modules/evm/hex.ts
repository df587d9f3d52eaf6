/** 0x-hex helpers that do not load the @ethereumjs libraries (kept off the CLI's import graph). */
import { keccak256 } from '../../../util/hash.js';
export function bytesToHex(bytes: Uint8Array): `0x${string}` {
  return `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`;
}

export function hexToBytes(hex: string): Uint8Array {
  return new Uint8Array(Buffer.from(hex.replace(/^0x/, ''), 'hex'));
}

/**
 * EIP-55 mixed-case checksum of a 20-byte address given as 0x-hex (what @ethereumjs/util's
 * toChecksumAddress gives without an EIP-1191 chain id), with the app's Keccak-256.
 */
export function checksumAddress(hex: string): `0x${string}` {
  const lower = hex.replace(/^0x/i, '').toLowerCase();
  const digest = keccak256(new TextEncoder().encode(lower));
  let out = '0x';
  for (let i = 0; i < lower.length; i++) {
    const nibble = i % 2 === 0 ? digest[i >> 1]! >> 4 : digest[i >> 1]! & 0x0f;
    out += nibble >= 8 ? lower[i]!.toUpperCase() : lower[i]!;
  }
  return out as `0x${string}`;
}
