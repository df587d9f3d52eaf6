/** 23-commitment errors (codespace "commitment", ibc-go v6 modules/core/23-commitment/types/errors.go). */
import { registerError } from '../../../shared/errors.js';

export const COMMITMENT_CODESPACE = 'commitment';

export const CommitmentErrors = {
  InvalidProof: registerError(COMMITMENT_CODESPACE, 2, 'invalid proof'),
  InvalidPrefix: registerError(COMMITMENT_CODESPACE, 3, 'invalid prefix'),
  InvalidMerkleProof: registerError(COMMITMENT_CODESPACE, 4, 'invalid merkle proof'),
} as const;
