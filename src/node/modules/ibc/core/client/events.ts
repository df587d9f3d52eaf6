/** 02-client events (ibc-go v6 modules/core/02-client/keeper/events.go and types/events.go). */
import { ATTRIBUTE_KEY_MODULE, EVENT_TYPE_MESSAGE, newEvent, type AbciEvent } from '../../../shared/events.js';

export const EVENT_TYPE_CREATE_CLIENT = 'create_client';
export const EVENT_TYPE_UPDATE_CLIENT = 'update_client';
export const EVENT_TYPE_UPGRADE_CLIENT = 'upgrade_client';
export const EVENT_TYPE_SUBMIT_MISBEHAVIOUR = 'client_misbehaviour';
export const ATTRIBUTE_KEY_CLIENT_ID = 'client_id';
export const ATTRIBUTE_KEY_CLIENT_TYPE = 'client_type';
export const ATTRIBUTE_KEY_CONSENSUS_HEIGHT = 'consensus_height';
export const ATTRIBUTE_KEY_HEADER = 'header';
/** The `message` event's module of the client submodule ("ibc_client"). */
export const ATTRIBUTE_VALUE_CATEGORY = 'ibc_client';

function messageEvent(): AbciEvent {
  return newEvent(EVENT_TYPE_MESSAGE, [ATTRIBUTE_KEY_MODULE, ATTRIBUTE_VALUE_CATEGORY]);
}

export function createClientEvents(clientId: string, clientType: string, consensusHeight: string): AbciEvent[] {
  return [
    newEvent(EVENT_TYPE_CREATE_CLIENT, [ATTRIBUTE_KEY_CLIENT_ID, clientId], [ATTRIBUTE_KEY_CLIENT_TYPE, clientType], [ATTRIBUTE_KEY_CONSENSUS_HEIGHT, consensusHeight]),
    messageEvent(),
  ];
}

/** `header` is the hex of the header's Any encoding (valid UTF-8 in any JSON). */
export function updateClientEvents(clientId: string, clientType: string, consensusHeight: string, headerHex: string): AbciEvent[] {
  return [
    newEvent(
      EVENT_TYPE_UPDATE_CLIENT,
      [ATTRIBUTE_KEY_CLIENT_ID, clientId],
      [ATTRIBUTE_KEY_CLIENT_TYPE, clientType],
      [ATTRIBUTE_KEY_CONSENSUS_HEIGHT, consensusHeight],
      [ATTRIBUTE_KEY_HEADER, headerHex],
    ),
    messageEvent(),
  ];
}

export function upgradeClientEvents(clientId: string, clientType: string, consensusHeight: string): AbciEvent[] {
  return [
    newEvent(EVENT_TYPE_UPGRADE_CLIENT, [ATTRIBUTE_KEY_CLIENT_ID, clientId], [ATTRIBUTE_KEY_CLIENT_TYPE, clientType], [ATTRIBUTE_KEY_CONSENSUS_HEIGHT, consensusHeight]),
    messageEvent(),
  ];
}

export function misbehaviourEvent(clientId: string, clientType: string): AbciEvent {
  return newEvent(EVENT_TYPE_SUBMIT_MISBEHAVIOUR, [ATTRIBUTE_KEY_CLIENT_ID, clientId], [ATTRIBUTE_KEY_CLIENT_TYPE, clientType]);
}

/** A misbehaviour found by an update carries the update's height and header. */
export function misbehaviourOnUpdateEvent(clientId: string, clientType: string, consensusHeight: string, headerHex: string): AbciEvent {
  return newEvent(
    EVENT_TYPE_SUBMIT_MISBEHAVIOUR,
    [ATTRIBUTE_KEY_CLIENT_ID, clientId],
    [ATTRIBUTE_KEY_CLIENT_TYPE, clientType],
    [ATTRIBUTE_KEY_CONSENSUS_HEIGHT, consensusHeight],
    [ATTRIBUTE_KEY_HEADER, headerHex],
  );
}

export const EVENT_TYPE_UPGRADE_CLIENT_PROPOSAL = 'upgrade_client_proposal';
export const ATTRIBUTE_KEY_UPGRADE_PLAN_TITLE = 'title';
export const ATTRIBUTE_KEY_UPGRADE_PLAN_HEIGHT = 'height';

export function upgradeClientProposalEvent(title: string, height: bigint): AbciEvent {
  return newEvent(EVENT_TYPE_UPGRADE_CLIENT_PROPOSAL, [ATTRIBUTE_KEY_UPGRADE_PLAN_TITLE, title], [ATTRIBUTE_KEY_UPGRADE_PLAN_HEIGHT, height.toString()]);
}

export const EVENT_TYPE_UPDATE_CLIENT_PROPOSAL = 'update_client_proposal';
export const ATTRIBUTE_KEY_SUBJECT_CLIENT_ID = 'subject_client_id';

export function updateClientProposalEvent(subjectClientId: string, clientType: string, consensusHeight: string): AbciEvent {
  return newEvent(EVENT_TYPE_UPDATE_CLIENT_PROPOSAL, [ATTRIBUTE_KEY_SUBJECT_CLIENT_ID, subjectClientId], [ATTRIBUTE_KEY_CLIENT_TYPE, clientType], [ATTRIBUTE_KEY_CONSENSUS_HEIGHT, consensusHeight]);
}
