/**
 * The controller's IBC callbacks (ibc-go v6 controller/ibc_middleware.go). The controller is the
 * whole application here: it claims the channel capabilities itself and keeps the middleware flag
 * of each (connection, port) for genesis and the legacy API; the network's icamauth module needs
 * no callbacks (Gaia's did nothing in them but claim the capability, which v6 claims here).
 * Handshakes start only on this side; a timeout closes the ORDERED channel in core, after which
 * the owner may register again on a new channel (same account).
 */
import type { Order, Counterparty, Packet } from '../../../../../../gen/ibc/core/channel/v1/channel_pb.js';
import type { Context } from '../../../../shared/context.js';
import { SdkErrors } from '../../../../shared/errors.js';
import type { Acknowledgement, Capability, IbcModule } from '../../../core/port/types.js';
import { IcaErrors } from '../errors.js';
import { emitAcknowledgementEvent } from '../events.js';
import { errorAcknowledgement } from '../../../core/channel/acknowledgement.js';
import type { ControllerKeeper } from './keeper.js';

export class ControllerIbcModule implements IbcModule {
  constructor(private readonly keeper: ControllerKeeper) {}

  onChanOpenInit(ctx: Context, order: Order, connectionHops: string[], portId: string, channelId: string, chanCap: Capability, counterparty: Counterparty, version: string): string {
    return this.keeper.onChanOpenInit(ctx, order, connectionHops, portId, channelId, chanCap, counterparty, version);
  }

  onChanOpenTry(): string {
    throw IcaErrors.InvalidChannelFlow.wrap('channel handshake must be initiated by controller chain');
  }

  onChanOpenAck(ctx: Context, portId: string, channelId: string, _counterpartyChannelId: string, counterpartyVersion: string): void {
    this.keeper.onChanOpenAck(ctx, portId, channelId, counterpartyVersion);
  }

  onChanOpenConfirm(): void {
    throw IcaErrors.InvalidChannelFlow.wrap('channel handshake must be initiated by controller chain');
  }

  onChanCloseInit(): void {
    throw SdkErrors.InvalidRequest.wrap('user cannot close channel');
  }

  onChanCloseConfirm(): void {}

  onRecvPacket(ctx: Context, packet: Packet, _relayer: string): Acknowledgement {
    const err = IcaErrors.InvalidChannelFlow.wrap('cannot receive packet on controller chain');
    emitAcknowledgementEvent(ctx, packet, 'controller_channel_id', false, err);
    return errorAcknowledgement(err);
  }

  onAcknowledgementPacket(ctx: Context): void {
    if (!this.keeper.isControllerEnabled(ctx)) throw IcaErrors.ControllerSubModuleDisabled.error();
  }

  onTimeoutPacket(ctx: Context): void {
    if (!this.keeper.isControllerEnabled(ctx)) throw IcaErrors.ControllerSubModuleDisabled.error();
  }
}
