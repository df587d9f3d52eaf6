/** 03-connection errors (codespace "connection", ibc-go v6 modules/core/03-connection/types/errors.go). */
import { registerError } from '../../../shared/errors.js';

export const CONNECTION_CODESPACE = 'connection';

export const ConnectionErrors = {
  ConnectionExists: registerError(CONNECTION_CODESPACE, 2, 'connection already exists'),
  ConnectionNotFound: registerError(CONNECTION_CODESPACE, 3, 'connection not found'),
  ClientConnectionPathsNotFound: registerError(CONNECTION_CODESPACE, 4, 'light client connection paths not found'),
  ConnectionPath: registerError(CONNECTION_CODESPACE, 5, 'connection path is not associated to the given light client'),
  InvalidConnectionState: registerError(CONNECTION_CODESPACE, 6, 'invalid connection state'),
  InvalidCounterparty: registerError(CONNECTION_CODESPACE, 7, 'invalid counterparty connection'),
  InvalidConnection: registerError(CONNECTION_CODESPACE, 8, 'invalid connection'),
  InvalidVersion: registerError(CONNECTION_CODESPACE, 9, 'invalid connection version'),
  VersionNegotiationFailed: registerError(CONNECTION_CODESPACE, 10, 'connection version negotiation failed'),
  InvalidConnectionIdentifier: registerError(CONNECTION_CODESPACE, 11, 'invalid connection identifier'),
} as const;
