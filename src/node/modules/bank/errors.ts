/** x/bank errors (codespace "bank", x/bank/types/errors.go). */
import { registerError } from '../shared/errors.js';

export const BANK_CODESPACE = 'bank';

export const BankErrors = {
  NoInputs: registerError(BANK_CODESPACE, 2, 'no inputs to send transaction'),
  NoOutputs: registerError(BANK_CODESPACE, 3, 'no outputs to send transaction'),
  InputOutputMismatch: registerError(BANK_CODESPACE, 4, 'sum inputs != sum outputs'),
  SendDisabled: registerError(BANK_CODESPACE, 5, 'send transactions are disabled'),
  DenomMetadataNotFound: registerError(BANK_CODESPACE, 6, 'client denom metadata not found'),
  InvalidKey: registerError(BANK_CODESPACE, 7, 'invalid key'),
  DuplicateEntry: registerError(BANK_CODESPACE, 8, 'duplicate entry'),
  MultipleSenders: registerError(BANK_CODESPACE, 9, 'multiple senders not allowed'),
} as const;
