/** x/feegrant errors (codespace "feegrant", x/feegrant/errors.go, SDK 0.47). */
import { registerError } from '../shared/errors.js';

export const FEEGRANT_CODESPACE = 'feegrant';

export const FeegrantErrors = {
  FeeLimitExceeded: registerError(FEEGRANT_CODESPACE, 2, 'fee limit exceeded'),
  FeeLimitExpired: registerError(FEEGRANT_CODESPACE, 3, 'fee allowance expired'),
  InvalidDuration: registerError(FEEGRANT_CODESPACE, 4, 'invalid duration'),
  NoAllowance: registerError(FEEGRANT_CODESPACE, 5, 'no allowance'),
  NoMessages: registerError(FEEGRANT_CODESPACE, 6, 'allowed messages are empty'),
  MessageNotAllowed: registerError(FEEGRANT_CODESPACE, 7, 'message not allowed'),
} as const;
