/** 05-port errors (codespace "port", ibc-go v6 modules/core/05-port/types/errors.go). */
import { registerError } from '../../../shared/errors.js';

export const PORT_CODESPACE = 'port';

export const PortErrors = {
  PortExists: registerError(PORT_CODESPACE, 2, 'port is already binded'),
  PortNotFound: registerError(PORT_CODESPACE, 3, 'port not found'),
  InvalidPort: registerError(PORT_CODESPACE, 4, 'invalid port'),
  InvalidRoute: registerError(PORT_CODESPACE, 5, 'route not found'),
} as const;
