/** x/capability errors (codespace "capability", cosmos-sdk v0.46 x/capability/types/errors.go). */
import { registerError } from '../shared/errors.js';

export const CAPABILITY_CODESPACE = 'capability';

export const CapabilityErrors = {
  InvalidCapabilityName: registerError(CAPABILITY_CODESPACE, 2, 'capability name not valid'),
  NilCapability: registerError(CAPABILITY_CODESPACE, 3, 'provided capability is nil'),
  CapabilityTaken: registerError(CAPABILITY_CODESPACE, 4, 'capability name already taken'),
  OwnerClaimed: registerError(CAPABILITY_CODESPACE, 5, 'given owner already claimed capability'),
  CapabilityNotOwned: registerError(CAPABILITY_CODESPACE, 6, 'capability not owned by module'),
  CapabilityNotFound: registerError(CAPABILITY_CODESPACE, 7, 'capability not found'),
  CapabilityOwnersNotFound: registerError(CAPABILITY_CODESPACE, 8, 'owners not found for capability'),
} as const;
