/** 07-tendermint errors (codespace "07-tendermint", ibc-go v6 light-clients/07-tendermint/types/errors.go). */
import { registerError } from '../../../shared/errors.js';

export const TENDERMINT_CODESPACE = '07-tendermint';

export const TendermintErrors = {
  InvalidChainID: registerError(TENDERMINT_CODESPACE, 2, 'invalid chain-id'),
  InvalidTrustingPeriod: registerError(TENDERMINT_CODESPACE, 3, 'invalid trusting period'),
  InvalidUnbondingPeriod: registerError(TENDERMINT_CODESPACE, 4, 'invalid unbonding period'),
  InvalidHeaderHeight: registerError(TENDERMINT_CODESPACE, 5, 'invalid header height'),
  InvalidHeader: registerError(TENDERMINT_CODESPACE, 6, 'invalid header'),
  InvalidMaxClockDrift: registerError(TENDERMINT_CODESPACE, 7, 'invalid max clock drift'),
  ProcessedTimeNotFound: registerError(TENDERMINT_CODESPACE, 8, 'processed time not found'),
  ProcessedHeightNotFound: registerError(TENDERMINT_CODESPACE, 9, 'processed height not found'),
  DelayPeriodNotPassed: registerError(TENDERMINT_CODESPACE, 10, 'packet-specified delay period has not been reached'),
  TrustingPeriodExpired: registerError(TENDERMINT_CODESPACE, 11, 'time since latest trusted state has passed the trusting period'),
  UnbondingPeriodExpired: registerError(TENDERMINT_CODESPACE, 12, 'time since latest trusted state has passed the unbonding period'),
  InvalidProofSpecs: registerError(TENDERMINT_CODESPACE, 13, 'invalid proof specs'),
  InvalidValidatorSet: registerError(TENDERMINT_CODESPACE, 14, 'invalid validator set'),
} as const;
