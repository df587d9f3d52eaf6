/** x/evm errors (codespace "evm", Ethermint v0.22 x/evm/types/errors.go codes and texts). */
import { registerError } from '../shared/errors.js';

export const EVM_CODESPACE = 'evm';

export const EvmErrors = {
  InvalidState: registerError(EVM_CODESPACE, 2, 'invalid storage state'),
  ExecutionReverted: registerError(EVM_CODESPACE, 3, 'execution reverted'),
  ChainConfigNotFound: registerError(EVM_CODESPACE, 4, 'chain configuration not found'),
  InvalidChainConfig: registerError(EVM_CODESPACE, 5, 'invalid chain configuration'),
  ZeroAddress: registerError(EVM_CODESPACE, 6, 'invalid zero address'),
  EmptyHash: registerError(EVM_CODESPACE, 7, 'empty hash'),
  BloomNotFound: registerError(EVM_CODESPACE, 8, 'block bloom not found'),
  TxReceiptNotFound: registerError(EVM_CODESPACE, 9, 'transaction receipt not found'),
  CreateDisabled: registerError(EVM_CODESPACE, 10, 'EVM Create operation is disabled'),
  CallDisabled: registerError(EVM_CODESPACE, 11, 'EVM Call operation is disabled'),
  InvalidAmount: registerError(EVM_CODESPACE, 12, 'invalid transaction amount'),
  InvalidGasPrice: registerError(EVM_CODESPACE, 13, 'invalid gas price'),
  InvalidGasFee: registerError(EVM_CODESPACE, 14, 'invalid gas fee'),
  VMExecution: registerError(EVM_CODESPACE, 15, 'evm transaction execution failed'),
  InvalidRefund: registerError(EVM_CODESPACE, 16, 'invalid gas refund amount'),
  InconsistentGas: registerError(EVM_CODESPACE, 17, 'inconsistent gas'),
  InvalidGasCap: registerError(EVM_CODESPACE, 18, 'invalid gas cap'),
  InvalidBaseFee: registerError(EVM_CODESPACE, 19, 'invalid base fee'),
  GasOverflow: registerError(EVM_CODESPACE, 20, 'gas computation overflow/underflow'),
  InvalidAccount: registerError(EVM_CODESPACE, 21, 'invalid account'),
  InvalidGasLimit: registerError(EVM_CODESPACE, 22, 'invalid gas limit'),
} as const;
