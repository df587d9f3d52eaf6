/**
 * The host's IBC callbacks (ibc-go v6 host/ibc_module.go): it only answers handshakes a controller
 * started, and acknowledges every packet synchronously — the TxMsgData of the executed messages,
 * or an error acknowledgement carrying only the error's ABCI code (its text goes into the
 * `ics27_packet` event). A host never sends packets, so acknowledgements and timeouts are refused.
 */
import type { Order, Counterparty, Packet } from '../../../../../../gen/ibc/core/channel/v1/channel_pb.js';
import { OutOfGasError, isStoreError } from '../../../../../store/index.js';
import type { Context } from '../../../../shared/context.js';
import { SdkErrors } from '../../../../shared/errors.js';
import type { Acknowledgement, Capability, IbcModule } from '../../../core/port/types.js';
import { IcaErrors } from '../errors.js';
import { emitAcknowledgementEvent } from '../events.js';
import { errorAcknowledgement, resultAcknowledgement } from '../../../core/channel/acknowledgement.js';
import type { HostKeeper } from './keeper.js';

export class HostIbcModule implements IbcModule {
  constructor(private readonly keeper: HostKeeper) {}

  onChanOpenInit(): string {
    throw IcaErrors.InvalidChannelFlow.wrap('channel handshake must be initiated by controller chain');
  }

  onChanOpenTry(ctx: Context, order: Order, connectionHops: string[], portId: string, channelId: string, chanCap: Capability, counterparty: Counterparty, counterpartyVersion: string): string {
    return this.keeper.onChanOpenTry(ctx, order, connectionHops, portId, channelId, chanCap, counterparty, counterpartyVersion);
  }

  onChanOpenAck(): void {
    throw IcaErrors.InvalidChannelFlow.wrap('channel handshake must be initiated by controller chain');
  }

  onChanOpenConfirm(ctx: Context, portId: string, channelId: string): void {
    this.keeper.onChanOpenConfirm(ctx, portId, channelId);
  }

  onChanCloseInit(): void {
    throw SdkErrors.InvalidRequest.wrap('user cannot close channel');
  }

  onChanCloseConfirm(): void {}

  async onRecvPacket(ctx: Context, packet: Packet, _relayer: string): Promise<Acknowledgement> {
    if (!this.keeper.isHostEnabled(ctx)) return errorAcknowledgement(IcaErrors.HostSubModuleDisabled.error());
    try {
      const result = await this.keeper.onRecvPacket(ctx, packet);
      emitAcknowledgementEvent(ctx, packet, 'host_channel_id', true);
      return resultAcknowledgement(result);
    } catch (err) {
      // Running out of gas and storage faults end the tx (a panic in ibc-go), not the packet.
      if (err instanceof OutOfGasError || isStoreError(err)) throw err;
      emitAcknowledgementEvent(ctx, packet, 'host_channel_id', false, err);
      return errorAcknowledgement(err);
    }
  }

  onAcknowledgementPacket(): void {
    throw IcaErrors.InvalidChannelFlow.wrap('cannot receive acknowledgement on a host channel end, a host chain does not send a packet over the channel');
  }

  onTimeoutPacket(): void {
    throw IcaErrors.InvalidChannelFlow.wrap('cannot cause a packet timeout on a host channel end, a host chain does not send a packet over the channel');
  }
}
