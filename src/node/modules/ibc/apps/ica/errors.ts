/**
 * ICS-27 errors (ibc-go v6): codespace "interchainaccounts" (27-interchain-accounts/types/errors.go),
 * "icacontroller" and "icahost" (each submodule's types/errors.go).
 */
import { registerError } from '../../../shared/errors.js';

export const ICA_CODESPACE = 'interchainaccounts';
export const ICA_CONTROLLER_CODESPACE = 'icacontroller';
export const ICA_HOST_CODESPACE = 'icahost';

export const IcaErrors = {
  UnknownDataType: registerError(ICA_CODESPACE, 2, 'unknown data type'),
  AccountAlreadyExist: registerError(ICA_CODESPACE, 3, 'account already exist'),
  PortAlreadyBound: registerError(ICA_CODESPACE, 4, 'port is already bound'),
  InvalidChannelFlow: registerError(ICA_CODESPACE, 5, 'invalid message sent to channel end'),
  InvalidOutgoingData: registerError(ICA_CODESPACE, 6, 'invalid outgoing data'),
  InvalidRoute: registerError(ICA_CODESPACE, 7, 'invalid route'),
  InterchainAccountNotFound: registerError(ICA_CODESPACE, 8, 'interchain account not found'),
  InterchainAccountAlreadySet: registerError(ICA_CODESPACE, 9, 'interchain account is already set'),
  ActiveChannelAlreadySet: registerError(ICA_CODESPACE, 10, 'active channel already set for this owner'),
  ActiveChannelNotFound: registerError(ICA_CODESPACE, 11, 'no active channel for this owner'),
  InvalidVersion: registerError(ICA_CODESPACE, 12, 'invalid interchain accounts version'),
  InvalidAccountAddress: registerError(ICA_CODESPACE, 13, 'invalid account address'),
  Unsupported: registerError(ICA_CODESPACE, 14, 'interchain account does not support this action'),
  InvalidControllerPort: registerError(ICA_CODESPACE, 15, 'invalid controller port'),
  InvalidHostPort: registerError(ICA_CODESPACE, 16, 'invalid host port'),
  InvalidTimeoutTimestamp: registerError(ICA_CODESPACE, 17, 'timeout timestamp must be in the future'),
  InvalidCodec: registerError(ICA_CODESPACE, 18, 'codec is not supported'),
  InvalidAccountReopening: registerError(ICA_CODESPACE, 19, 'invalid account reopening'),
  ControllerSubModuleDisabled: registerError(ICA_CONTROLLER_CODESPACE, 2, 'controller submodule is disabled'),
  HostSubModuleDisabled: registerError(ICA_HOST_CODESPACE, 2, 'host submodule is disabled'),
} as const;
