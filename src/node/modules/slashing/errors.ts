/** x/slashing errors (codespace "slashing", x/slashing/types/errors.go). */
import { registerError } from '../shared/errors.js';

export const SLASHING_CODESPACE = 'slashing';

export const SlashingErrors = {
  NoValidatorForAddress: registerError(SLASHING_CODESPACE, 2, 'address is not associated with any known validator'),
  BadValidatorAddr: registerError(SLASHING_CODESPACE, 3, 'validator does not exist for that address'),
  ValidatorJailed: registerError(SLASHING_CODESPACE, 4, 'validator still jailed; cannot be unjailed'),
  ValidatorNotJailed: registerError(SLASHING_CODESPACE, 5, 'validator not jailed; cannot be unjailed'),
  MissingSelfDelegation: registerError(SLASHING_CODESPACE, 6, 'validator has no self-delegation; cannot be unjailed'),
  SelfDelegationTooLowToUnjail: registerError(SLASHING_CODESPACE, 7, "validator's self delegation less than minimum; cannot be unjailed"),
  NoSigningInfoFound: registerError(SLASHING_CODESPACE, 8, 'no validator signing info found'),
} as const;
