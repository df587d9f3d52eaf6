/** The converter's errors (Evmos x/erc20 codes and texts, codespace "aiozrc20"). */
import { registerError } from '../shared/errors.js';
import { MODULE_NAME } from './keys.js';

export const Aiozrc20Errors = {
  Disabled: registerError(MODULE_NAME, 2, 'erc20 module is disabled'),
  InternalTokenPair: registerError(MODULE_NAME, 3, 'internal ethereum token mapping error'),
  TokenPairNotFound: registerError(MODULE_NAME, 4, 'token pair not found'),
  TokenPairAlreadyExists: registerError(MODULE_NAME, 5, 'token pair already exists'),
  UndefinedOwner: registerError(MODULE_NAME, 6, 'undefined owner of contract pair'),
  BalanceInvariance: registerError(MODULE_NAME, 7, 'post transfer balance invariant failed'),
  UnexpectedEvent: registerError(MODULE_NAME, 8, 'unexpected event'),
  AbiPack: registerError(MODULE_NAME, 9, 'contract ABI pack failed'),
  AbiUnpack: registerError(MODULE_NAME, 10, 'contract ABI unpack failed'),
  EvmDenom: registerError(MODULE_NAME, 11, 'EVM denomination registration'),
  EvmCall: registerError(MODULE_NAME, 12, 'EVM call unexpected error'),
  TokenPairDisabled: registerError(MODULE_NAME, 13, 'erc20 token pair is disabled'),
};
