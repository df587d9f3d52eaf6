/**
 * The ICS-29 fee middleware (ibc-go v6 29-fee ibc_middleware.go and keeper/relay.go): an
 * `IbcModule` over an application's and an `Ics4Wrapper` over the channel keeper's (or the next
 * middleware's). Mount it where the application's stack is built:
 *
 *   const ibc = deps.keeper<IbcKeeper>('ibc');
 *   const fee = wrapWithFeeMiddleware(appCallbacks, ibc.channelKeeper, deps.keeper<FeeKeeper>('feeibc'));
 *   ibc.router.addRoute('transfer', fee.ibcModule);  // core calls the middleware, the middleware the app
 *   // … and the app sends packets / writes async acks through fee.ics4Wrapper, not the channel keeper.
 *
 * (A route added earlier can be wrapped in place: `ibc.router.wrapRoute('transfer', (app) =>
 * wrapWithFeeMiddleware(app, ibc.channelKeeper, feeKeeper).ibcModule)`; the app must then still be
 * given the returned ics4Wrapper.) The module declaring the stack requires 'feeibc'.
 * test/node/modules/ibc/fee-two-chains.test.ts mounts it this way around a test application.
 *
 * Channels opt in by version: `{"fee_version":"ics29-1","app_version":"<the app's>"}` in
 * OnChanOpenInit/Try makes the channel fee-enabled (an empty version in OnChanOpenInit too, with
 * the app's default version inside); any version that is not that JSON goes to the app untouched.
 * On a fee-enabled channel the acknowledgement is the IncentivizedAcknowledgement JSON, the app
 * sees only its own version and acknowledgement, and escrowed fees are paid on acknowledgement and
 * timeout and refunded on channel closure.
 */
import { create, fromJson, type JsonValue } from '@bufbuild/protobuf';
import { IncentivizedAcknowledgementSchema } from '../../../../../gen/ibc/applications/fee/v1/ack_pb.js';
import { MetadataSchema, type Metadata } from '../../../../../gen/ibc/applications/fee/v1/metadata_pb.js';
import { PacketIdSchema, type Counterparty, type Order, type Packet } from '../../../../../gen/ibc/core/channel/v1/channel_pb.js';
import type { Context } from '../../../shared/context.js';
import { SdkErrors } from '../../../shared/errors.js';
import { parseAccAddress } from '../../../shared/address.js';
import type { Height } from '../../core/client/height.js';
import type { Acknowledgement, Capability, IbcModule, Ics4Wrapper } from '../../core/port/types.js';
import { FeeErrors } from './errors.js';
import { FEE_VERSION, type FeeKeeper } from './keeper.js';

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();

/**
 * The version's fee metadata, or undefined when it is not that JSON (jsonpb's strict reading:
 * an object with only fee_version / app_version strings).
 */
export function parseFeeMetadata(version: string): Metadata | undefined {
  let json: JsonValue;
  try {
    json = JSON.parse(version) as JsonValue;
  } catch {
    return undefined;
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return undefined;
  try {
    return fromJson(MetadataSchema, json);
  } catch {
    return undefined;
  }
}

/** The metadata's JSON as ibc-go writes it (both fields, proto names, field order). */
export function feeMetadataString(metadata: Metadata): string {
  return JSON.stringify({ fee_version: metadata.feeVersion, app_version: metadata.appVersion });
}

/** The IncentivizedAcknowledgement JSON (sorted keys, every field, bytes as base64), as ibc-go commits it. */
export function incentivizedAcknowledgementBytes(appAcknowledgement: Uint8Array, forwardRelayer: string, success: boolean): Uint8Array {
  return utf8.encode(
    JSON.stringify({
      app_acknowledgement: Buffer.from(appAcknowledgement).toString('base64'),
      forward_relayer_address: forwardRelayer,
      underlying_app_success: success,
    }),
  );
}

/** Reads an IncentivizedAcknowledgement's JSON; throws (as UnmarshalJSON) when it is not one. */
export function parseIncentivizedAcknowledgement(bytes: Uint8Array): { appAcknowledgement: Uint8Array; forwardRelayerAddress: string; underlyingAppSuccess: boolean } {
  let ack;
  try {
    ack = fromJson(IncentivizedAcknowledgementSchema, JSON.parse(utf8Decoder.decode(bytes)) as JsonValue);
  } catch (err) {
    throw SdkErrors.JSONUnmarshal.wrap(`cannot unmarshal ICS-29 incentivized packet acknowledgement: ${err instanceof Error ? err.message : String(err)}`);
  }
  return ack;
}

/**
 * Who is paid for relaying a packet back (the acknowledgement or timeout fee): the relayer's
 * registered payee on the channel, else the relayer itself; a bad address fails the message
 * (upstream's wording differs for the two).
 */
function reverseRelayerBytes(keeper: FeeKeeper, ctx: Context, relayer: string, channelId: string): Uint8Array {
  const payee = keeper.getPayeeAddress(ctx, relayer, channelId);
  const parsed = parseAccAddress(payee ?? relayer);
  if (parsed.ok) return parsed.bytes;
  throw SdkErrors.InvalidAddress.wrap(payee === undefined ? parsed.error : `failed to create sdk.Address from payee: ${payee}: ${parsed.error}`);
}

export class FeeMiddleware implements IbcModule, Ics4Wrapper {
  constructor(
    private readonly app: IbcModule,
    private readonly ics4: Ics4Wrapper,
    private readonly keeper: FeeKeeper,
  ) {}

  // ------------------------------------------------------------------ handshake

  onChanOpenInit(ctx: Context, order: Order, connectionHops: string[], portId: string, channelId: string, chanCap: Capability, counterparty: Counterparty, version: string): string {
    let metadata: Metadata;
    if (version.trim() === '') {
      metadata = create(MetadataSchema, { feeVersion: FEE_VERSION, appVersion: '' });
    } else {
      const parsed = parseFeeMetadata(version);
      if (parsed === undefined) return this.app.onChanOpenInit(ctx, order, connectionHops, portId, channelId, chanCap, counterparty, version);
      metadata = parsed;
    }
    if (metadata.feeVersion !== FEE_VERSION) throw FeeErrors.InvalidVersion.wrap(`expected ${FEE_VERSION}, got ${metadata.feeVersion}`);
    const appVersion = this.app.onChanOpenInit(ctx, order, connectionHops, portId, channelId, chanCap, counterparty, metadata.appVersion);
    this.keeper.setFeeEnabled(ctx, portId, channelId);
    return feeMetadataString(create(MetadataSchema, { feeVersion: metadata.feeVersion, appVersion }));
  }

  onChanOpenTry(ctx: Context, order: Order, connectionHops: string[], portId: string, channelId: string, chanCap: Capability, counterparty: Counterparty, counterpartyVersion: string): string {
    const metadata = parseFeeMetadata(counterpartyVersion);
    if (metadata === undefined) return this.app.onChanOpenTry(ctx, order, connectionHops, portId, channelId, chanCap, counterparty, counterpartyVersion);
    if (metadata.feeVersion !== FEE_VERSION) throw FeeErrors.InvalidVersion.wrap(`expected ${FEE_VERSION}, got ${metadata.feeVersion}`);
    this.keeper.setFeeEnabled(ctx, portId, channelId);
    const appVersion = this.app.onChanOpenTry(ctx, order, connectionHops, portId, channelId, chanCap, counterparty, metadata.appVersion);
    return feeMetadataString(create(MetadataSchema, { feeVersion: metadata.feeVersion, appVersion }));
  }

  onChanOpenAck(ctx: Context, portId: string, channelId: string, counterpartyChannelId: string, counterpartyVersion: string): void {
    if (!this.keeper.isFeeEnabled(ctx, portId, channelId)) {
      this.app.onChanOpenAck(ctx, portId, channelId, counterpartyChannelId, counterpartyVersion);
      return;
    }
    const metadata = parseFeeMetadata(counterpartyVersion);
    if (metadata === undefined) throw SdkErrors.JSONUnmarshal.wrap(`failed to unmarshal ICS29 counterparty version metadata: ${counterpartyVersion}`);
    if (metadata.feeVersion !== FEE_VERSION) throw FeeErrors.InvalidVersion.wrap(`expected counterparty fee version: ${FEE_VERSION}, got: ${metadata.feeVersion}`);
    this.app.onChanOpenAck(ctx, portId, channelId, counterpartyChannelId, metadata.appVersion);
  }

  onChanOpenConfirm(ctx: Context, portId: string, channelId: string): void {
    this.app.onChanOpenConfirm(ctx, portId, channelId);
  }

  async onChanCloseInit(ctx: Context, portId: string, channelId: string): Promise<void> {
    await this.app.onChanCloseInit(ctx, portId, channelId);
    await this.refundOnClose(ctx, portId, channelId);
  }

  async onChanCloseConfirm(ctx: Context, portId: string, channelId: string): Promise<void> {
    await this.app.onChanCloseConfirm(ctx, portId, channelId);
    await this.refundOnClose(ctx, portId, channelId);
  }

  private async refundOnClose(ctx: Context, portId: string, channelId: string): Promise<void> {
    if (!this.keeper.isFeeEnabled(ctx, portId, channelId)) return;
    if (this.keeper.isLocked(ctx)) throw FeeErrors.FeeModuleLocked.error();
    await this.keeper.refundFeesOnChannelClosure(ctx, portId, channelId);
  }

  // ------------------------------------------------------------------ packets

  /** The app's acknowledgement wrapped (async when the app's is: the ICA host executes messages). */
  onRecvPacket(ctx: Context, packet: Packet, relayer: string): Acknowledgement | undefined | Promise<Acknowledgement | undefined> {
    if (!this.keeper.isFeeEnabled(ctx, packet.destinationPort, packet.destinationChannel)) return this.app.onRecvPacket(ctx, packet, relayer);
    const ack = this.app.onRecvPacket(ctx, packet, relayer);
    return ack instanceof Promise ? ack.then((settled) => this.wrapAck(ctx, packet, relayer, settled)) : this.wrapAck(ctx, packet, relayer, ack);
  }

  private wrapAck(ctx: Context, packet: Packet, relayer: string, ack: Acknowledgement | undefined): Acknowledgement | undefined {
    if (ack === undefined) {
      this.keeper.setRelayerAddressForAsyncAck(ctx, create(PacketIdSchema, { portId: packet.destinationPort, channelId: packet.destinationChannel, sequence: packet.sequence }), relayer);
      return undefined;
    }
    const forwardRelayer = this.keeper.getCounterpartyPayeeAddress(ctx, relayer, packet.destinationChannel) ?? '';
    return { success: ack.success, bytes: incentivizedAcknowledgementBytes(ack.bytes, forwardRelayer, ack.success) };
  }

  onAcknowledgementPacket(ctx: Context, packet: Packet, acknowledgement: Uint8Array, relayer: string): void {
    if (!this.keeper.isFeeEnabled(ctx, packet.sourcePort, packet.sourceChannel)) {
      this.app.onAcknowledgementPacket(ctx, packet, acknowledgement, relayer);
      return;
    }
    const ack = parseIncentivizedAcknowledgement(acknowledgement);
    if (this.keeper.isLocked(ctx)) {
      this.app.onAcknowledgementPacket(ctx, packet, ack.appAcknowledgement, relayer);
      return;
    }
    const id = create(PacketIdSchema, { portId: packet.sourcePort, channelId: packet.sourceChannel, sequence: packet.sequence });
    const fees = this.keeper.getFeesInEscrow(ctx, id);
    if (fees !== undefined) {
      this.keeper.distributePacketFeesOnAcknowledgement(ctx, ack.forwardRelayerAddress, reverseRelayerBytes(this.keeper, ctx, relayer, packet.sourceChannel), fees, id);
    }
    this.app.onAcknowledgementPacket(ctx, packet, ack.appAcknowledgement, relayer);
  }

  onTimeoutPacket(ctx: Context, packet: Packet, relayer: string): void {
    if (!this.keeper.isFeeEnabled(ctx, packet.sourcePort, packet.sourceChannel) || this.keeper.isLocked(ctx)) {
      this.app.onTimeoutPacket(ctx, packet, relayer);
      return;
    }
    const id = create(PacketIdSchema, { portId: packet.sourcePort, channelId: packet.sourceChannel, sequence: packet.sequence });
    const fees = this.keeper.getFeesInEscrow(ctx, id);
    if (fees !== undefined) {
      this.keeper.distributePacketFeesOnTimeout(ctx, reverseRelayerBytes(this.keeper, ctx, relayer, packet.sourceChannel), fees, id);
    }
    this.app.onTimeoutPacket(ctx, packet, relayer);
  }

  // ------------------------------------------------------------------ ICS4 wrapper

  sendPacket(ctx: Context, chanCap: Capability, sourcePort: string, sourceChannel: string, timeoutHeight: Height, timeoutTimestamp: bigint, data: Uint8Array): bigint {
    return this.ics4.sendPacket(ctx, chanCap, sourcePort, sourceChannel, timeoutHeight, timeoutTimestamp, data);
  }

  writeAcknowledgement(ctx: Context, chanCap: Capability, packet: Packet, acknowledgement: Acknowledgement): void {
    if (!this.keeper.isFeeEnabled(ctx, packet.destinationPort, packet.destinationChannel)) {
      this.ics4.writeAcknowledgement(ctx, chanCap, packet, acknowledgement);
      return;
    }
    const id = create(PacketIdSchema, { portId: packet.destinationPort, channelId: packet.destinationChannel, sequence: packet.sequence });
    const relayer = this.keeper.getRelayerAddressForAsyncAck(ctx, id);
    if (relayer === undefined) {
      throw FeeErrors.RelayerNotFoundForAsyncAck.wrap(`no relayer address stored for async acknowledgement for packet with portID: ${id.portId}, channelID: ${id.channelId}, sequence: ${id.sequence}`);
    }
    const forwardRelayer = this.keeper.getCounterpartyPayeeAddress(ctx, relayer, packet.destinationChannel) ?? '';
    this.keeper.deleteForwardRelayerAddress(ctx, id);
    this.ics4.writeAcknowledgement(ctx, chanCap, packet, { success: acknowledgement.success, bytes: incentivizedAcknowledgementBytes(acknowledgement.bytes, forwardRelayer, acknowledgement.success) });
  }

  getAppVersion(ctx: Context, portId: string, channelId: string): string | undefined {
    const version = this.ics4.getAppVersion(ctx, portId, channelId);
    if (version === undefined) return undefined;
    if (!this.keeper.isFeeEnabled(ctx, portId, channelId)) return version;
    const metadata = parseFeeMetadata(version);
    if (metadata === undefined) throw new Error(`unable to unmarshal metadata for fee enabled channel: ${version}`);
    return metadata.appVersion;
  }
}

/**
 * Wraps an application's IbcModule and the Ics4Wrapper below it with the fee middleware: give
 * `ibcModule` to the port router in place of the app's, and `ics4Wrapper` to the app to send
 * packets and write acknowledgements through.
 */
export function wrapWithFeeMiddleware(app: IbcModule, ics4: Ics4Wrapper, keeper: FeeKeeper): { ibcModule: IbcModule; ics4Wrapper: Ics4Wrapper } {
  const middleware = new FeeMiddleware(app, ics4, keeper);
  return { ibcModule: middleware, ics4Wrapper: middleware };
}
