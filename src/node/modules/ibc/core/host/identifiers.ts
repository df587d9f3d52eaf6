/**
 * ICS-24 identifiers (ibc-go v6 modules/core/24-host/validate.go): what client, connection,
 * channel and port identifiers may look like, and the host's key paths that counterparties prove.
 */
import { HostErrors } from './errors.js';
import type { SdkError } from '../../../shared/errors.js';

/** Identifiers are at most 64 characters (DefaultMaxCharacterLength). */
export const DEFAULT_MAX_ID_LENGTH = 64;
const ID_CHARACTERS = /^[a-zA-Z0-9._+\-#[\]<>]+$/;

/** The problem with `id` as an identifier of `min`–`max` characters, or undefined when valid. */
export function identifierError(id: string, min: number, max: number): SdkError | undefined {
  if (id.trim() === '') return HostErrors.InvalidID.wrap('identifier cannot be blank');
  if (id.includes('/')) return HostErrors.InvalidID.wrap(`identifier ${id} cannot contain separator '/'`);
  if (id.length < min || id.length > max) return HostErrors.InvalidID.wrap(`identifier ${id} has invalid length: ${id.length}, must be between ${min}-${max} characters`);
  if (!ID_CHARACTERS.test(id)) {
    return HostErrors.InvalidID.wrap(`identifier ${id} must contain only alphanumeric or the following characters: '.', '_', '+', '-', '#', '[', ']', '<', '>'`);
  }
  return undefined;
}

/** Client identifiers: 9 to 64 characters ("07-tendermint-0"). */
export function clientIdentifierError(id: string): SdkError | undefined {
  return identifierError(id, 9, DEFAULT_MAX_ID_LENGTH);
}

/** `<client type>-<sequence>` (FormatClientIdentifier). */
export function formatClientIdentifier(clientType: string, sequence: bigint): string {
  return `${clientType}-${sequence}`;
}

/**
 * The client type and sequence of a client identifier (ParseClientIdentifier); undefined when it
 * is not `<type>-<sequence>` with a type of its own dashes allowed and a decimal sequence.
 */
export function parseClientIdentifier(id: string): { clientType: string; sequence: bigint } | undefined {
  const dash = id.lastIndexOf('-');
  if (dash <= 0) return undefined;
  const clientType = id.slice(0, dash);
  const digits = id.slice(dash + 1);
  if (!/^(0|[1-9][0-9]*)$/.test(digits)) return undefined;
  return { clientType, sequence: BigInt(digits) };
}

// ------------------------------------------------------------------------------------ key paths

export const KEY_CLIENT_STORE_PREFIX = 'clients';
export const KEY_CLIENT_STATE = 'clientState';
export const KEY_CONSENSUS_STATE_PREFIX = 'consensusStates';

/** `clients/{id}/clientState`: the path a counterparty proves a client state at. */
export function fullClientStatePath(clientId: string): string {
  return `${KEY_CLIENT_STORE_PREFIX}/${clientId}/${KEY_CLIENT_STATE}`;
}

/** `clients/{id}/consensusStates/{revision}-{height}`. */
export function fullConsensusStatePath(clientId: string, height: string): string {
  return `${KEY_CLIENT_STORE_PREFIX}/${clientId}/${KEY_CONSENSUS_STATE_PREFIX}/${height}`;
}

/** Connection identifiers: 10 to 64 characters ("connection-0"). */
export function connectionIdentifierError(id: string): SdkError | undefined {
  return identifierError(id, 10, DEFAULT_MAX_ID_LENGTH);
}

export const CONNECTION_PREFIX = 'connection-';

/** `connection-{sequence}` (FormatConnectionIdentifier). */
export function formatConnectionIdentifier(sequence: bigint): string {
  return `${CONNECTION_PREFIX}${sequence}`;
}

/** The sequence of `connection-{N}` (ParseConnectionSequence); undefined when not of that form. */
export function parseConnectionSequence(id: string): bigint | undefined {
  if (!id.startsWith(CONNECTION_PREFIX)) return undefined;
  const digits = id.slice(CONNECTION_PREFIX.length);
  if (!/^(0|[1-9][0-9]*)$/.test(digits) || BigInt(digits) >= 1n << 64n) return undefined;
  return BigInt(digits);
}

export const KEY_CONNECTION_PREFIX = 'connections';

/** `connections/{id}`: the path a counterparty proves a connection end at. */
export function connectionPath(connectionId: string): string {
  return `${KEY_CONNECTION_PREFIX}/${connectionId}`;
}

/** Channel identifiers: 8 to 64 characters ("channel-0"). */
export function channelIdentifierError(id: string): SdkError | undefined {
  return identifierError(id, 8, DEFAULT_MAX_ID_LENGTH);
}

/** Port identifiers: 2 to 128 characters ("transfer"). */
export function portIdentifierError(id: string): SdkError | undefined {
  return identifierError(id, 2, 128);
}

export const CHANNEL_PREFIX = 'channel-';

/** The sequence of `channel-{N}` (ParseChannelSequence); undefined when not of that form. */
export function parseChannelSequence(id: string): bigint | undefined {
  if (!id.startsWith(CHANNEL_PREFIX)) return undefined;
  const digits = id.slice(CHANNEL_PREFIX.length);
  if (!/^(0|[1-9][0-9]*)$/.test(digits) || BigInt(digits) >= 1n << 64n) return undefined;
  return BigInt(digits);
}
