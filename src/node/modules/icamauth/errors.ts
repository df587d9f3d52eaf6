/**
 * The errors icamauth returns are the interchain accounts' own (icatypes.ErrActiveChannelNotFound,
 * ErrInvalidAccountAddress); it registers none of its own codespace. These are the same registered
 * errors (registration is idempotent), so icamauth needs no link to the ica module's code.
 */
import { registerError } from '../shared/errors.js';

export const IcamauthErrors = {
  ActiveChannelNotFound: registerError('interchainaccounts', 11, 'no active channel for this owner'),
  InvalidAccountAddress: registerError('interchainaccounts', 13, 'invalid account address'),
} as const;
