/** 24-host errors (codespace "host", ibc-go v6 modules/core/24-host/errors.go). */
import { registerError } from '../../../shared/errors.js';

export const HOST_CODESPACE = 'host';

export const HostErrors = {
  InvalidID: registerError(HOST_CODESPACE, 2, 'invalid identifier'),
  InvalidPath: registerError(HOST_CODESPACE, 3, 'invalid path'),
  InvalidPacket: registerError(HOST_CODESPACE, 4, 'invalid packet'),
} as const;
