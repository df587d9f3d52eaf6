/**
 * x/bech32ibc errors (codespace "bech32ibc", osmosis-labs/bech32-ibc x/bech32ibc/types/errors.go).
 *
 * Upstream registers "Invalid HRP" as code 1, which this codebase's registry reserves for internal
 * errors (as cosmossdk.io/errors does today); it is built directly so the wire code and codespace
 * stay upstream's, and it is left out of the registry.
 */
import { RegisteredError, registerError } from '../shared/errors.js';

export const BECH32IBC_CODESPACE = 'bech32ibc';

export const ErrInvalidHrp = new RegisteredError(BECH32IBC_CODESPACE, 1, 'Invalid HRP');

export const Bech32IbcErrors = {
  InvalidIbcData: registerError(BECH32IBC_CODESPACE, 2, 'Invalid IBC Data'),
  RecordNotFound: registerError(BECH32IBC_CODESPACE, 3, 'No record found for requested HRP'),
  NoNativeHrp: registerError(BECH32IBC_CODESPACE, 4, 'No native prefix was set'),
  InvalidOffsetHeightTimeout: registerError(BECH32IBC_CODESPACE, 5, 'At least one of offset height or offset timeout should be set'),
} as const;

/** Why `hrp` is not a bech32 human-readable part, or undefined (upstream's ValidateHrp: non-empty, ASCII 33–126, lower case). */
export function hrpProblem(hrp: string): string | undefined {
  if (hrp === '') return 'empty HRP';
  for (const char of hrp) {
    const code = char.codePointAt(0)!;
    if (code < 33 || code > 126) return `invalid character in string: '${char}'`;
  }
  if (hrp !== hrp.toLowerCase()) return 'string not all lowercase';
  return undefined;
}

/** Throws upstream's error for an invalid prefix: Invalid HRP for an empty one, a plain error otherwise (as upstream). */
export function validateHrp(hrp: string): void {
  const problem = hrpProblem(hrp);
  if (problem === undefined) return;
  if (hrp === '') throw ErrInvalidHrp.wrap(problem);
  throw new Error(problem);
}
