/** 02-client errors (codespace "client", ibc-go v6 modules/core/02-client/types/errors.go). */
import { registerError } from '../../../shared/errors.js';

export const CLIENT_CODESPACE = 'client';

export const ClientErrors = {
  ClientExists: registerError(CLIENT_CODESPACE, 2, 'light client already exists'),
  InvalidClient: registerError(CLIENT_CODESPACE, 3, 'light client is invalid'),
  ClientNotFound: registerError(CLIENT_CODESPACE, 4, 'light client not found'),
  ClientFrozen: registerError(CLIENT_CODESPACE, 5, 'light client is frozen due to misbehaviour'),
  InvalidClientMetadata: registerError(CLIENT_CODESPACE, 6, 'invalid client metadata'),
  ConsensusStateNotFound: registerError(CLIENT_CODESPACE, 7, 'consensus state not found'),
  InvalidConsensus: registerError(CLIENT_CODESPACE, 8, 'invalid consensus state'),
  ClientTypeNotFound: registerError(CLIENT_CODESPACE, 9, 'client type not found'),
  InvalidClientType: registerError(CLIENT_CODESPACE, 10, 'invalid client type'),
  RootNotFound: registerError(CLIENT_CODESPACE, 11, 'commitment root not found'),
  InvalidHeader: registerError(CLIENT_CODESPACE, 12, 'invalid client header'),
  InvalidMisbehaviour: registerError(CLIENT_CODESPACE, 13, 'invalid light client misbehaviour'),
  FailedClientStateVerification: registerError(CLIENT_CODESPACE, 14, 'client state verification failed'),
  FailedClientConsensusStateVerification: registerError(CLIENT_CODESPACE, 15, 'client consensus state verification failed'),
  FailedConnectionStateVerification: registerError(CLIENT_CODESPACE, 16, 'connection state verification failed'),
  FailedChannelStateVerification: registerError(CLIENT_CODESPACE, 17, 'channel state verification failed'),
  FailedPacketCommitmentVerification: registerError(CLIENT_CODESPACE, 18, 'packet commitment verification failed'),
  FailedPacketAckVerification: registerError(CLIENT_CODESPACE, 19, 'packet acknowledgement verification failed'),
  FailedPacketReceiptVerification: registerError(CLIENT_CODESPACE, 20, 'packet receipt verification failed'),
  FailedNextSeqRecvVerification: registerError(CLIENT_CODESPACE, 21, 'next sequence receive verification failed'),
  SelfConsensusStateNotFound: registerError(CLIENT_CODESPACE, 22, 'self consensus state not found'),
  UpdateClientFailed: registerError(CLIENT_CODESPACE, 23, 'unable to update light client'),
  InvalidUpdateClientProposal: registerError(CLIENT_CODESPACE, 24, 'invalid update client proposal'),
  InvalidUpgradeClient: registerError(CLIENT_CODESPACE, 25, 'invalid client upgrade'),
  InvalidHeight: registerError(CLIENT_CODESPACE, 26, 'invalid height'),
  InvalidSubstitute: registerError(CLIENT_CODESPACE, 27, 'invalid client state substitute'),
  InvalidUpgradeProposal: registerError(CLIENT_CODESPACE, 28, 'invalid upgrade proposal'),
  ClientNotActive: registerError(CLIENT_CODESPACE, 29, 'client is not active'),
} as const;
