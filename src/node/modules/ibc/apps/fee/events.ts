/**
 * ICS-29 events (ibc-go v6 modules/apps/29-fee/keeper/events.go; `distribute_fee` as ibc-go v7
 * added it, one per fee paid out). Each comes with a `message` event of module "feeibc".
 */
import type { PacketId } from '../../../../../gen/ibc/core/channel/v1/channel_pb.js';
import { coinsToString, type Coin } from '../../../shared/coins.js';
import { ATTRIBUTE_KEY_MODULE, EVENT_TYPE_MESSAGE, newEvent, type AbciEvent } from '../../../shared/events.js';
import { FEE_MODULE_NAME } from './keys.js';

export const EVENT_TYPE_INCENTIVIZED_PACKET = 'incentivized_ibc_packet';
export const EVENT_TYPE_REGISTER_PAYEE = 'register_payee';
export const EVENT_TYPE_REGISTER_COUNTERPARTY_PAYEE = 'register_counterparty_payee';
export const EVENT_TYPE_DISTRIBUTE_FEE = 'distribute_fee';

const moduleEvent = (): AbciEvent => newEvent(EVENT_TYPE_MESSAGE, [ATTRIBUTE_KEY_MODULE, FEE_MODULE_NAME]);

/** The packet's escrowed totals after a payment (fees restricted to relayers are left out, as upstream). */
export function incentivizedPacketEvents(packetId: PacketId, totals: { recv: Coin[]; ack: Coin[]; timeout: Coin[] }): AbciEvent[] {
  return [
    newEvent(
      EVENT_TYPE_INCENTIVIZED_PACKET,
      ['port_id', packetId.portId],
      ['channel_id', packetId.channelId],
      ['packet_sequence', packetId.sequence.toString()],
      ['recv_fee', coinsToString(totals.recv)],
      ['ack_fee', coinsToString(totals.ack)],
      ['timeout_fee', coinsToString(totals.timeout)],
    ),
    moduleEvent(),
  ];
}

export function registerPayeeEvents(relayer: string, payee: string, channelId: string): AbciEvent[] {
  return [newEvent(EVENT_TYPE_REGISTER_PAYEE, ['relayer', relayer], ['payee', payee], ['channel_id', channelId]), moduleEvent()];
}

export function registerCounterpartyPayeeEvents(relayer: string, counterpartyPayee: string, channelId: string): AbciEvent[] {
  return [newEvent(EVENT_TYPE_REGISTER_COUNTERPARTY_PAYEE, ['relayer', relayer], ['counterparty_payee', counterpartyPayee], ['channel_id', channelId]), moduleEvent()];
}

export function distributeFeeEvents(receiver: string, fee: readonly Coin[]): AbciEvent[] {
  return [newEvent(EVENT_TYPE_DISTRIBUTE_FEE, ['receiver', receiver], ['fee', coinsToString(fee)]), moduleEvent()];
}
