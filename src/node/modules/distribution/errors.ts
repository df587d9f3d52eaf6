/** x/distribution errors (codespace "distribution", x/distribution/types/errors.go). */
import { registerError } from '../shared/errors.js';

export const DISTRIBUTION_CODESPACE = 'distribution';

export const DistributionErrors = {
  EmptyDelegatorAddr: registerError(DISTRIBUTION_CODESPACE, 2, 'delegator address is empty'),
  EmptyWithdrawAddr: registerError(DISTRIBUTION_CODESPACE, 3, 'withdraw address is empty'),
  EmptyValidatorAddr: registerError(DISTRIBUTION_CODESPACE, 4, 'validator address is empty'),
  EmptyDelegationDistInfo: registerError(DISTRIBUTION_CODESPACE, 5, 'no delegation distribution info'),
  NoValidatorDistInfo: registerError(DISTRIBUTION_CODESPACE, 6, 'no validator distribution info'),
  NoValidatorCommission: registerError(DISTRIBUTION_CODESPACE, 7, 'no validator commission to withdraw'),
  SetWithdrawAddrDisabled: registerError(DISTRIBUTION_CODESPACE, 8, 'set withdraw address disabled'),
  BadDistribution: registerError(DISTRIBUTION_CODESPACE, 9, 'community pool does not have sufficient coins to distribute'),
  InvalidProposalAmount: registerError(DISTRIBUTION_CODESPACE, 10, 'invalid community pool spend proposal amount'),
  EmptyProposalRecipient: registerError(DISTRIBUTION_CODESPACE, 11, 'invalid community pool spend proposal recipient'),
  NoValidatorExists: registerError(DISTRIBUTION_CODESPACE, 12, 'validator does not exist'),
  NoDelegationExists: registerError(DISTRIBUTION_CODESPACE, 13, 'delegation does not exist'),
} as const;
