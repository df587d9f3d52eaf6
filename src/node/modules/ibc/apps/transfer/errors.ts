/** ICS-20 errors (codespace "transfer", ibc-go v6 modules/apps/transfer/types/errors.go). */
import { registerError } from '../../../shared/errors.js';
import { TRANSFER_MODULE_NAME } from './keys.js';

export const TransferErrors = {
  InvalidPacketTimeout: registerError(TRANSFER_MODULE_NAME, 2, 'invalid packet timeout'),
  InvalidDenomForTransfer: registerError(TRANSFER_MODULE_NAME, 3, 'invalid denomination for cross-chain transfer'),
  InvalidVersion: registerError(TRANSFER_MODULE_NAME, 4, 'invalid ICS20 version'),
  InvalidAmount: registerError(TRANSFER_MODULE_NAME, 5, 'invalid token amount'),
  TraceNotFound: registerError(TRANSFER_MODULE_NAME, 6, 'denomination trace not found'),
  SendDisabled: registerError(TRANSFER_MODULE_NAME, 7, 'fungible token transfers from this chain are disabled'),
  ReceiveDisabled: registerError(TRANSFER_MODULE_NAME, 8, 'fungible token transfers to this chain are disabled'),
  MaxTransferChannels: registerError(TRANSFER_MODULE_NAME, 9, 'max transfer channels'),
} as const;

/** 05-port's "invalid port" (codespace "port", code 4), returned when a channel is not on the bound port. */
export const PortInvalidPort = registerError('port', 4, 'invalid port');
