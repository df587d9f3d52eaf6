/**
 * ICS-20's callbacks for IBC core (ibc-go v6 apps/transfer/ibc_module.go): channels on the bound
 * port, unordered, version "ics20-1"; users cannot close them; received packets credit the
 * receiver and are acknowledged `{"result":"AQ=="}`, or with an error acknowledgement carrying
 * only the failure's ABCI code; a failed acknowledgement or a timeout refunds the sender.
 */
import { Order, OrderSchema, type Counterparty, type Packet } from '../../../../../gen/ibc/core/channel/v1/channel_pb.js';
import { ChannelErrors } from '../../core/channel/errors.js';
import type { Acknowledgement, Capability, IbcModule } from '../../core/port/types.js';
import type { Context } from '../../../shared/context.js';
import { SdkErrors } from '../../../shared/errors.js';
import { channelCapabilityPath } from '../../core/port/keeper.js';
import { HostErrors } from '../../core/host/errors.js';
import { parseChannelSequence } from '../../core/host/identifiers.js';
import { PortInvalidPort, TransferErrors } from './errors.js';
import { ackPacketEvents, recvPacketEvent, timeoutEvent } from './events.js';
import type { TransferKeeper } from './keeper.js';
import { TRANSFER_VERSION } from './keys.js';
import { errorAcknowledgement, resultAcknowledgement } from '../../core/channel/acknowledgement.js';
import { acknowledgementText, newPacketData, parseAcknowledgement, parsePacketData, TRANSFER_ACK_RESULT, type FungibleTokenPacketData } from './packet.js';

const MAX_UINT32 = 0xffff_ffffn;

function orderName(order: Order): string {
  return OrderSchema.value[order]?.name ?? String(order);
}

export class TransferIbcModule implements IbcModule {
  constructor(private readonly keeper: TransferKeeper) {}

  /** ValidateTransferChannelParams: at most 2^32 channels, unordered, on the bound port. */
  private validateChannelParams(ctx: Context, order: Order, portId: string, channelId: string): void {
    const sequence = parseChannelSequence(channelId);
    if (sequence === undefined) throw HostErrors.InvalidID.wrap('channel identifier is not in the format: `channel-{N}`');
    if (sequence > MAX_UINT32) throw TransferErrors.MaxTransferChannels.wrap(`channel sequence ${sequence} is greater than max allowed transfer channels ${MAX_UINT32}`);
    if (order !== Order.UNORDERED) throw ChannelErrors.InvalidChannelOrdering.wrap(`expected ${orderName(Order.UNORDERED)} channel, got ${orderName(order)} `);
    const bound = this.keeper.getPort(ctx);
    if (bound !== portId) throw PortInvalidPort.wrap(`invalid port: ${portId}, expected ${bound}`);
  }

  onChanOpenInit(ctx: Context, order: Order, _connectionHops: string[], portId: string, channelId: string, chanCap: Capability, _counterparty: Counterparty, version: string): string {
    this.validateChannelParams(ctx, order, portId, channelId);
    const agreed = version.trim() === '' ? TRANSFER_VERSION : version;
    if (agreed !== TRANSFER_VERSION) throw TransferErrors.InvalidVersion.wrap(`got ${agreed}, expected ${TRANSFER_VERSION}`);
    this.keeper.claimCapability(ctx, chanCap, channelCapabilityPath(portId, channelId));
    return agreed;
  }

  onChanOpenTry(ctx: Context, order: Order, _connectionHops: string[], portId: string, channelId: string, chanCap: Capability, _counterparty: Counterparty, counterpartyVersion: string): string {
    this.validateChannelParams(ctx, order, portId, channelId);
    if (counterpartyVersion !== TRANSFER_VERSION) throw TransferErrors.InvalidVersion.wrap(`invalid counterparty version: got: ${counterpartyVersion}, expected ${TRANSFER_VERSION}`);
    this.keeper.claimCapability(ctx, chanCap, channelCapabilityPath(portId, channelId));
    return TRANSFER_VERSION;
  }

  onChanOpenAck(_ctx: Context, _portId: string, _channelId: string, _counterpartyChannelId: string, counterpartyVersion: string): void {
    if (counterpartyVersion !== TRANSFER_VERSION) throw TransferErrors.InvalidVersion.wrap(`invalid counterparty version: ${counterpartyVersion}, expected ${TRANSFER_VERSION}`);
  }

  onChanOpenConfirm(): void {}

  onChanCloseInit(): void {
    throw SdkErrors.InvalidRequest.wrap('user cannot close channel');
  }

  onChanCloseConfirm(): void {}

  onRecvPacket(ctx: Context, packet: Packet, _relayer: string): Acknowledgement {
    let data: FungibleTokenPacketData;
    let ack = resultAcknowledgement(TRANSFER_ACK_RESULT);
    let failure: Error | undefined;
    try {
      data = parsePacketData(packet.data);
    } catch {
      data = newPacketData('', '', '', '');
      failure = SdkErrors.InvalidType.wrap('cannot unmarshal ICS-20 transfer packet data');
      ack = errorAcknowledgement(failure);
    }
    if (ack.success) {
      try {
        this.keeper.onRecvPacket(ctx, packet, data);
      } catch (err) {
        failure = err instanceof Error ? err : new Error(String(err));
        ack = errorAcknowledgement(err);
      }
    }
    ctx.events.emit(recvPacketEvent(data, ack.success, failure?.message));
    return ack;
  }

  onAcknowledgementPacket(ctx: Context, packet: Packet, acknowledgement: Uint8Array, _relayer: string): void {
    let ack;
    try {
      ack = parseAcknowledgement(acknowledgement);
    } catch (err) {
      throw SdkErrors.UnknownRequest.wrap(`cannot unmarshal ICS-20 transfer packet acknowledgement: ${(err as Error).message}`);
    }
    let data: FungibleTokenPacketData;
    try {
      data = parsePacketData(packet.data);
    } catch (err) {
      throw SdkErrors.UnknownRequest.wrap(`cannot unmarshal ICS-20 transfer packet data: ${(err as Error).message}`);
    }
    if (ack.response.case === 'error') this.keeper.refundPacketToken(ctx, packet, data);
    const result =
      ack.response.case === 'result'
        ? { success: Buffer.from(ack.response.value).toString('latin1') }
        : { error: ack.response.case === 'error' ? ack.response.value : '' };
    ctx.events.emitAll(ackPacketEvents(data, acknowledgementText(ack), result));
  }

  onTimeoutPacket(ctx: Context, packet: Packet, _relayer: string): void {
    let data: FungibleTokenPacketData;
    try {
      data = parsePacketData(packet.data);
    } catch (err) {
      throw SdkErrors.UnknownRequest.wrap(`cannot unmarshal ICS-20 transfer packet data: ${(err as Error).message}`);
    }
    this.keeper.refundPacketToken(ctx, packet, data);
    ctx.events.emit(timeoutEvent(data));
  }
}
