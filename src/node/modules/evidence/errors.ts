/** x/evidence errors (codespace "evidence", x/evidence/types/errors.go). */
import { registerError } from '../shared/errors.js';

export const EVIDENCE_CODESPACE = 'evidence';

export const EvidenceErrors = {
  NoEvidenceHandlerExists: registerError(EVIDENCE_CODESPACE, 2, 'unregistered handler for evidence type'),
  InvalidEvidence: registerError(EVIDENCE_CODESPACE, 3, 'invalid evidence'),
  NoEvidenceExists: registerError(EVIDENCE_CODESPACE, 4, 'evidence does not exist'),
  EvidenceExists: registerError(EVIDENCE_CODESPACE, 5, 'evidence already exists'),
} as const;
