/** ICS-29 errors (codespace "feeibc", ibc-go v6 modules/apps/29-fee/types/errors.go), and the 04-channel ones it answers with. */
import { registerError } from '../../../shared/errors.js';

export const FEE_CODESPACE = 'feeibc';

export const FeeErrors = {
  InvalidVersion: registerError(FEE_CODESPACE, 2, 'invalid ICS29 middleware version'),
  RefundAccNotFound: registerError(FEE_CODESPACE, 3, 'no account found for given refund address'),
  BalanceNotFound: registerError(FEE_CODESPACE, 4, 'balance not found for given account address'),
  FeeNotFound: registerError(FEE_CODESPACE, 5, 'there is no fee escrowed for the given packetID'),
  RelayersNotEmpty: registerError(FEE_CODESPACE, 6, 'relayers must not be set. This feature is not supported'),
  CounterpartyPayeeEmpty: registerError(FEE_CODESPACE, 7, 'counterparty payee must not be empty'),
  ForwardRelayerAddressNotFound: registerError(FEE_CODESPACE, 8, 'forward relayer address not found'),
  FeeNotEnabled: registerError(FEE_CODESPACE, 9, 'fee module is not enabled for this channel. If this error occurs after channel setup, fee module may not be enabled'),
  RelayerNotFoundForAsyncAck: registerError(FEE_CODESPACE, 10, 'relayer address must be stored for async WriteAcknowledgement'),
  FeeModuleLocked: registerError(FEE_CODESPACE, 11, 'the fee module is currently locked, a severe bug has been detected'),
} as const;
