/** The `ics27_packet` event (27-interchain-accounts/types/events.go, EmitAcknowledgementEvent). */
import type { Packet } from '../../../../../gen/ibc/core/channel/v1/channel_pb.js';
import { abciInfo } from '../../../shared/errors.js';
import type { Context } from '../../../shared/context.js';
import { ATTRIBUTE_KEY_MODULE, newEvent } from '../../../shared/events.js';
import { ICA_MODULE_NAME } from './types.js';

export const EVENT_TYPE_PACKET = 'ics27_packet';

/** `channelKey` is host_channel_id on the host, controller_channel_id on the controller; the error's log when there is one. */
export function emitAcknowledgementEvent(ctx: Context, packet: Packet, channelKey: 'host_channel_id' | 'controller_channel_id', success: boolean, err?: unknown): void {
  const attributes: [string, string][] = [
    [ATTRIBUTE_KEY_MODULE, ICA_MODULE_NAME],
    [channelKey, packet.destinationChannel],
    ['success', String(success)],
  ];
  if (err !== undefined) attributes.push(['error', abciInfo(err).log]);
  ctx.events.emit(newEvent(EVENT_TYPE_PACKET, ...attributes));
}
