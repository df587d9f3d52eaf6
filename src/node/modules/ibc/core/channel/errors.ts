/** 04-channel errors (codespace "channel", ibc-go v6 modules/core/04-channel/types/errors.go). */
import { registerError } from '../../../shared/errors.js';

export const CHANNEL_CODESPACE = 'channel';

export const ChannelErrors = {
  ChannelExists: registerError(CHANNEL_CODESPACE, 2, 'channel already exists'),
  ChannelNotFound: registerError(CHANNEL_CODESPACE, 3, 'channel not found'),
  InvalidChannel: registerError(CHANNEL_CODESPACE, 4, 'invalid channel'),
  InvalidChannelState: registerError(CHANNEL_CODESPACE, 5, 'invalid channel state'),
  InvalidChannelOrdering: registerError(CHANNEL_CODESPACE, 6, 'invalid channel ordering'),
  InvalidCounterparty: registerError(CHANNEL_CODESPACE, 7, 'invalid counterparty channel'),
  InvalidChannelCapability: registerError(CHANNEL_CODESPACE, 8, 'invalid channel capability'),
  ChannelCapabilityNotFound: registerError(CHANNEL_CODESPACE, 9, 'channel capability not found'),
  SequenceSendNotFound: registerError(CHANNEL_CODESPACE, 10, 'sequence send not found'),
  SequenceReceiveNotFound: registerError(CHANNEL_CODESPACE, 11, 'sequence receive not found'),
  SequenceAckNotFound: registerError(CHANNEL_CODESPACE, 12, 'sequence acknowledgement not found'),
  InvalidPacket: registerError(CHANNEL_CODESPACE, 13, 'invalid packet'),
  PacketTimeout: registerError(CHANNEL_CODESPACE, 14, 'packet timeout'),
  TooManyConnectionHops: registerError(CHANNEL_CODESPACE, 15, 'too many connection hops'),
  InvalidAcknowledgement: registerError(CHANNEL_CODESPACE, 16, 'invalid acknowledgement'),
  AcknowledgementExists: registerError(CHANNEL_CODESPACE, 17, 'acknowledgement for packet already exists'),
  InvalidChannelIdentifier: registerError(CHANNEL_CODESPACE, 18, 'invalid channel identifier'),
  PacketReceived: registerError(CHANNEL_CODESPACE, 19, 'packet already received'),
  PacketCommitmentNotFound: registerError(CHANNEL_CODESPACE, 20, 'packet commitment not found'),
  PacketSequenceOutOfOrder: registerError(CHANNEL_CODESPACE, 21, 'packet sequence is out of order'),
  RedundantTx: registerError(CHANNEL_CODESPACE, 22, 'packet messages are redundant'),
  NoOpMsg: registerError(CHANNEL_CODESPACE, 23, 'message is redundant, no-op will be performed'),
  InvalidChannelVersion: registerError(CHANNEL_CODESPACE, 24, 'invalid channel version'),
  PacketNotSent: registerError(CHANNEL_CODESPACE, 25, 'packet has not been sent'),
  InvalidTimeout: registerError(CHANNEL_CODESPACE, 26, 'invalid packet timeout'),
} as const;
