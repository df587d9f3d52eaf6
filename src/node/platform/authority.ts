/**
 * Module authority: MsgUpdateParams-style messages (params, send-enabled flags, …) may only be
 * sent by the module's authority, the gov module account by default, as in SDK 0.50 where each
 * keeper holds an `authority` address and its msg server compares it with `msg.authority`.
 */
import { accString, parseAccAddress } from '../modules/shared/address.js';
import { registerError, type SdkError } from '../modules/shared/errors.js';
import { bytesEqual } from '../modules/shared/keys.js';

/** x/gov ErrInvalidSigner (gov, 13); registered here so modules need not import gov. */
export const ErrInvalidSigner = registerError('gov', 13, 'expected gov account as only signer for proposal message');

/** Throws gov/13 "invalid authority; expected A, got B" unless `claimed` is `authority`. */
export function checkAuthority(authority: Uint8Array, claimed: string): void {
  const parsed = parseAccAddress(claimed);
  if (!parsed.ok || !bytesEqual(parsed.bytes, authority)) throw invalidAuthority(authority, claimed);
}

function invalidAuthority(authority: Uint8Array, claimed: string): SdkError {
  return ErrInvalidSigner.wrap(`invalid authority; expected ${accString(authority)}, got ${claimed}`);
}
