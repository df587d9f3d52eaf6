/** 03-connection events (ibc-go v6 modules/core/03-connection/keeper/events.go and types/events.go). */
import type { Counterparty } from '../../../../../gen/ibc/core/connection/v1/connection_pb.js';
import { ATTRIBUTE_KEY_MODULE, EVENT_TYPE_MESSAGE, newEvent, type AbciEvent } from '../../../shared/events.js';

export const EVENT_TYPE_CONNECTION_OPEN_INIT = 'connection_open_init';
export const EVENT_TYPE_CONNECTION_OPEN_TRY = 'connection_open_try';
export const EVENT_TYPE_CONNECTION_OPEN_ACK = 'connection_open_ack';
export const EVENT_TYPE_CONNECTION_OPEN_CONFIRM = 'connection_open_confirm';
export const ATTRIBUTE_KEY_CONNECTION_ID = 'connection_id';
export const ATTRIBUTE_KEY_CLIENT_ID = 'client_id';
export const ATTRIBUTE_KEY_COUNTERPARTY_CLIENT_ID = 'counterparty_client_id';
export const ATTRIBUTE_KEY_COUNTERPARTY_CONNECTION_ID = 'counterparty_connection_id';
/** The `message` event's module of the connection submodule ("ibc_connection"). */
export const ATTRIBUTE_VALUE_CATEGORY = 'ibc_connection';

/** The handshake step's event (the four carry the same attributes) and the message event. */
export function connectionEvents(type: string, connectionId: string, clientId: string, counterparty: Counterparty | undefined): AbciEvent[] {
  return [
    newEvent(
      type,
      [ATTRIBUTE_KEY_CONNECTION_ID, connectionId],
      [ATTRIBUTE_KEY_CLIENT_ID, clientId],
      [ATTRIBUTE_KEY_COUNTERPARTY_CLIENT_ID, counterparty?.clientId ?? ''],
      [ATTRIBUTE_KEY_COUNTERPARTY_CONNECTION_ID, counterparty?.connectionId ?? ''],
    ),
    newEvent(EVENT_TYPE_MESSAGE, [ATTRIBUTE_KEY_MODULE, ATTRIBUTE_VALUE_CATEGORY]),
  ];
}
