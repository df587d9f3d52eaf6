/**
 * ibc.core.channel.v1.Msg (ibc-go v6 core/keeper/msg_server.go): the six handshake steps and the
 * four packet messages. Each message is first checked as its ValidateBasic does; the handler then
 * finds the application by the port's or channel's capability owners, runs the keeper check, the
 * application's callback and the keeper write in ibc-go's order, and wraps failures as ibc-go.
 *
 * Packet messages verify in a branch: a redundant one (already received, acknowledged or timed
 * out) leaves nothing behind and answers NOOP. The application's OnRecvPacket runs in its own
 * branch, kept only when the acknowledgement is successful or asynchronous; the receipt and a
 * failed acknowledgement are committed either way.
 */
import { create } from '@bufbuild/protobuf';
import { Order, PacketSchema, State, type Channel, type Packet } from '../../../../../gen/ibc/core/channel/v1/channel_pb.js';
import {
  Msg,
  MsgAcknowledgementResponseSchema,
  MsgChannelCloseConfirmResponseSchema,
  MsgChannelCloseInitResponseSchema,
  MsgChannelOpenAckResponseSchema,
  MsgChannelOpenConfirmResponseSchema,
  MsgChannelOpenInitResponseSchema,
  MsgChannelOpenTryResponseSchema,
  MsgRecvPacketResponseSchema,
  MsgTimeoutOnCloseResponseSchema,
  MsgTimeoutResponseSchema,
  ResponseResultType,
} from '../../../../../gen/ibc/core/channel/v1/tx_pb.js';
import { parseAccAddress } from '../../../shared/address.js';
import type { Context } from '../../../shared/context.js';
import { SdkErrors, wrapError } from '../../../shared/errors.js';
import { EventManager } from '../../../shared/events.js';
import { msgRoute, type MsgRoute } from '../../../shared/module.js';
import { ZERO_HEIGHT, isZeroHeight, type Height } from '../client/height.js';
import { CommitmentErrors } from '../commitment/errors.js';
import { channelIdentifierError, connectionIdentifierError, parseChannelSequence, portIdentifierError } from '../host/identifiers.js';
import { PortErrors } from '../port/errors.js';
import type { PortKeeper } from '../port/keeper.js';
import type { IbcRouter } from '../port/router.js';
import type { IbcModule } from '../port/types.js';
import { ChannelErrors } from './errors.js';
import { channelStateName, orderName } from './events.js';
import { packetError, type ChannelKeeper } from './keeper.js';

function checkSigner(signer: string): void {
  const parsed = parseAccAddress(signer);
  if (!parsed.ok) throw SdkErrors.InvalidAddress.wrap(`string could not be parsed as address: ${parsed.error}`);
}

function checkPortId(portId: string): void {
  const invalid = portIdentifierError(portId);
  if (invalid !== undefined) throw wrapError(invalid, 'invalid port ID');
}

/** IsValidChannelID. */
function checkChannelId(channelId: string): void {
  if (parseChannelSequence(channelId) === undefined) throw ChannelErrors.InvalidChannelIdentifier.error();
}

function checkProof(proof: Uint8Array, message: string): void {
  if (proof.length === 0) throw CommitmentErrors.InvalidProof.wrap(message);
}

function checkProofHeight(height: Height | undefined): void {
  if (isZeroHeight(height ?? ZERO_HEIGHT)) throw SdkErrors.InvalidHeight.wrap('proof height must be non-zero');
}

/** Channel.ValidateBasic with Counterparty.ValidateBasic. */
function checkChannel(channel: Channel): void {
  if (channel.state === State.UNINITIALIZED_UNSPECIFIED) throw ChannelErrors.InvalidChannelState.error();
  if (channel.ordering !== Order.ORDERED && channel.ordering !== Order.UNORDERED) throw ChannelErrors.InvalidChannelOrdering.wrap(orderName(channel.ordering));
  if (channel.connectionHops.length !== 1) throw ChannelErrors.TooManyConnectionHops.wrap('current IBC version only supports one connection hop');
  const hop = connectionIdentifierError(channel.connectionHops[0]!);
  if (hop !== undefined) throw wrapError(hop, 'invalid connection hop ID');
  const port = portIdentifierError(channel.counterparty?.portId ?? '');
  if (port !== undefined) throw wrapError(port, 'invalid counterparty port ID');
  const counterpartyChannel = channel.counterparty?.channelId ?? '';
  if (counterpartyChannel !== '') {
    const invalid = channelIdentifierError(counterpartyChannel);
    if (invalid !== undefined) throw wrapError(invalid, 'invalid counterparty channel ID');
  }
}

function checkPacket(packet: Packet | undefined): Packet {
  const checked = packet ?? create(PacketSchema);
  const invalid = packetError(checked);
  if (invalid !== undefined) throw invalid;
  return checked;
}

/** Runs `fn` in a branch of `ctx`; its writes and events are kept only when `keep` says so. */
function branched<T>(ctx: Context, fn: (branch: Context) => T, keep: (result: T) => boolean): T {
  const store = ctx.multiStore.branch();
  const branch = ctx.with({ multiStore: store, events: new EventManager() });
  let result: T;
  try {
    result = fn(branch);
  } catch (err) {
    store.discard();
    throw err;
  }
  if (keep(result)) {
    store.write();
    ctx.events.emitAll(branch.events.events);
  } else {
    store.discard();
  }
  return result;
}

/**
 * The application's onRecvPacket on a branch, awaited (an application that executes messages, as
 * the ICA host, settles asynchronously): its writes are kept when `keep` says so; its events are
 * emitted either way (ibc-go v6.1 RecvPacket: "events should still be emitted from failed acks").
 */
async function recvOnBranch<T>(ctx: Context, fn: (branch: Context) => T | Promise<T>, keep: (result: T) => boolean): Promise<T> {
  const store = ctx.multiStore.branch();
  const branch = ctx.with({ multiStore: store, events: new EventManager() });
  let result: T;
  try {
    result = await fn(branch);
  } catch (err) {
    store.discard();
    throw err;
  }
  if (keep(result)) store.write();
  else store.discard();
  ctx.events.emitAll(branch.events.events);
  return result;
}

export function channelMsgRoutes(keeper: ChannelKeeper, ports: PortKeeper, router: IbcRouter): MsgRoute[] {
  function route(module: string): IbcModule {
    const callbacks = router.getRoute(module);
    if (callbacks === undefined) throw PortErrors.InvalidRoute.wrap(`route not found to module: ${module}`);
    return callbacks;
  }

  function byPort(ctx: Context, portId: string) {
    let found;
    try {
      found = ports.lookupModuleByPort(ctx, portId);
    } catch (err) {
      throw wrapError(err, 'could not retrieve module from port-id');
    }
    return { ...found, callbacks: route(found.module) };
  }

  function byChannel(ctx: Context, portId: string, channelId: string) {
    let found;
    try {
      found = keeper.lookupModuleByChannel(ctx, portId, channelId);
    } catch (err) {
      throw wrapError(err, 'could not retrieve module from port-id');
    }
    return { ...found, callbacks: route(found.module) };
  }

  function callback(run: () => void, message: string): void {
    try {
      run();
    } catch (err) {
      throw wrapError(err, message);
    }
  }

  /** As `callback`, for the callbacks that may settle asynchronously (channel closing). */
  async function awaitedCallback(run: () => void | Promise<void>, message: string): Promise<void> {
    try {
      await run();
    } catch (err) {
      throw wrapError(err, message);
    }
  }

  return [
    msgRoute(Msg.method.channelOpenInit, (ctx, msg) => {
      checkPortId(msg.portId);
      const channel = msg.channel;
      if ((channel?.state ?? State.UNINITIALIZED_UNSPECIFIED) !== State.INIT) {
        throw ChannelErrors.InvalidChannelState.wrap(`channel state must be INIT in MsgChannelOpenInit. expected: ${channelStateName(State.INIT)}, got: ${channelStateName(channel?.state ?? 0)}`);
      }
      if ((channel?.counterparty?.channelId ?? '') !== '') throw ChannelErrors.InvalidCounterparty.wrap('counterparty channel identifier must be empty');
      checkSigner(msg.signer);
      checkChannel(channel!);
      const { capability: portCap, callbacks } = byPort(ctx, msg.portId);
      let opened;
      try {
        opened = keeper.chanOpenInit(ctx, channel!.ordering, channel!.connectionHops, msg.portId, portCap);
      } catch (err) {
        throw wrapError(err, 'channel handshake open init failed');
      }
      let version = '';
      callback(() => {
        version = callbacks.onChanOpenInit(ctx, channel!.ordering, channel!.connectionHops, msg.portId, opened.channelId, opened.capability, channel!.counterparty!, channel!.version);
      }, `channel open init callback failed for port ID: ${msg.portId}, channel ID: ${opened.channelId}`);
      keeper.writeOpenInitChannel(ctx, msg.portId, opened.channelId, channel!.ordering, channel!.connectionHops, channel!.counterparty!, version);
      return create(MsgChannelOpenInitResponseSchema, { channelId: opened.channelId, version });
    }),
    msgRoute(Msg.method.channelOpenTry, (ctx, msg) => {
      checkPortId(msg.portId);
      if (msg.previousChannelId !== '') {
        throw ChannelErrors.InvalidChannelIdentifier.wrap('previous channel identifier must be empty, this field has been deprecated as crossing hellos are no longer supported');
      }
      checkProof(msg.proofInit, 'cannot submit an empty proof init');
      checkProofHeight(msg.proofHeight);
      const channel = msg.channel;
      if ((channel?.state ?? State.UNINITIALIZED_UNSPECIFIED) !== State.TRYOPEN) {
        throw ChannelErrors.InvalidChannelState.wrap(`channel state must be TRYOPEN in MsgChannelOpenTry. expected: ${channelStateName(State.TRYOPEN)}, got: ${channelStateName(channel?.state ?? 0)}`);
      }
      const counterpartyChannel = channelIdentifierError(channel?.counterparty?.channelId ?? '');
      if (counterpartyChannel !== undefined) throw wrapError(counterpartyChannel, 'invalid counterparty channel ID');
      checkSigner(msg.signer);
      checkChannel(channel!);
      const { capability: portCap, callbacks } = byPort(ctx, msg.portId);
      let opened;
      try {
        opened = keeper.chanOpenTry(ctx, channel!.ordering, channel!.connectionHops, msg.portId, portCap, channel!.counterparty!, msg.counterpartyVersion, msg.proofInit, msg.proofHeight!);
      } catch (err) {
        throw wrapError(err, 'channel handshake open try failed');
      }
      let version = '';
      callback(() => {
        version = callbacks.onChanOpenTry(ctx, channel!.ordering, channel!.connectionHops, msg.portId, opened.channelId, opened.capability, channel!.counterparty!, msg.counterpartyVersion);
      }, `channel open try callback failed for port ID: ${msg.portId}, channel ID: ${opened.channelId}`);
      keeper.writeOpenTryChannel(ctx, msg.portId, opened.channelId, channel!.ordering, channel!.connectionHops, channel!.counterparty!, version);
      return create(MsgChannelOpenTryResponseSchema, { version });
    }),
    msgRoute(Msg.method.channelOpenAck, (ctx, msg) => {
      checkPortId(msg.portId);
      checkChannelId(msg.channelId);
      const counterpartyChannel = channelIdentifierError(msg.counterpartyChannelId);
      if (counterpartyChannel !== undefined) throw wrapError(counterpartyChannel, 'invalid counterparty channel ID');
      checkProof(msg.proofTry, 'cannot submit an empty proof try');
      checkProofHeight(msg.proofHeight);
      checkSigner(msg.signer);
      const { capability, callbacks } = byChannel(ctx, msg.portId, msg.channelId);
      try {
        keeper.chanOpenAck(ctx, msg.portId, msg.channelId, capability, msg.counterpartyVersion, msg.counterpartyChannelId, msg.proofTry, msg.proofHeight!);
      } catch (err) {
        throw wrapError(err, 'channel handshake open ack failed');
      }
      callback(
        () => callbacks.onChanOpenAck(ctx, msg.portId, msg.channelId, msg.counterpartyChannelId, msg.counterpartyVersion),
        `channel open ack callback failed for port ID: ${msg.portId}, channel ID: ${msg.channelId}`,
      );
      keeper.writeOpenAckChannel(ctx, msg.portId, msg.channelId, msg.counterpartyVersion, msg.counterpartyChannelId);
      return create(MsgChannelOpenAckResponseSchema);
    }),
    msgRoute(Msg.method.channelOpenConfirm, (ctx, msg) => {
      checkPortId(msg.portId);
      checkChannelId(msg.channelId);
      checkProof(msg.proofAck, 'cannot submit an empty proof ack');
      checkProofHeight(msg.proofHeight);
      checkSigner(msg.signer);
      const { capability, callbacks } = byChannel(ctx, msg.portId, msg.channelId);
      try {
        keeper.chanOpenConfirm(ctx, msg.portId, msg.channelId, capability, msg.proofAck, msg.proofHeight!);
      } catch (err) {
        throw wrapError(err, 'channel handshake open confirm failed');
      }
      callback(() => callbacks.onChanOpenConfirm(ctx, msg.portId, msg.channelId), `channel open confirm callback failed for port ID: ${msg.portId}, channel ID: ${msg.channelId}`);
      keeper.writeOpenConfirmChannel(ctx, msg.portId, msg.channelId);
      return create(MsgChannelOpenConfirmResponseSchema);
    }),
    msgRoute(Msg.method.channelCloseInit, async (ctx, msg) => {
      checkPortId(msg.portId);
      checkChannelId(msg.channelId);
      checkSigner(msg.signer);
      const { capability, callbacks } = byChannel(ctx, msg.portId, msg.channelId);
      await awaitedCallback(() => callbacks.onChanCloseInit(ctx, msg.portId, msg.channelId), `channel close init callback failed for port ID: ${msg.portId}, channel ID: ${msg.channelId}`);
      try {
        keeper.chanCloseInit(ctx, msg.portId, msg.channelId, capability);
      } catch (err) {
        throw wrapError(err, 'channel handshake close init failed');
      }
      return create(MsgChannelCloseInitResponseSchema);
    }),
    msgRoute(Msg.method.channelCloseConfirm, async (ctx, msg) => {
      checkPortId(msg.portId);
      checkChannelId(msg.channelId);
      checkProof(msg.proofInit, 'cannot submit an empty proof init');
      checkProofHeight(msg.proofHeight);
      checkSigner(msg.signer);
      const { capability, callbacks } = byChannel(ctx, msg.portId, msg.channelId);
      await awaitedCallback(() => callbacks.onChanCloseConfirm(ctx, msg.portId, msg.channelId), `channel close confirm callback failed for port ID: ${msg.portId}, channel ID: ${msg.channelId}`);
      try {
        keeper.chanCloseConfirm(ctx, msg.portId, msg.channelId, capability, msg.proofInit, msg.proofHeight!);
      } catch (err) {
        throw wrapError(err, 'channel handshake close confirm failed');
      }
      return create(MsgChannelCloseConfirmResponseSchema);
    }),
    msgRoute(Msg.method.recvPacket, async (ctx, msg) => {
      checkProof(msg.proofCommitment, 'cannot submit an empty proof');
      checkProofHeight(msg.proofHeight);
      checkSigner(msg.signer);
      const packet = checkPacket(msg.packet);
      const { capability, callbacks } = byChannel(ctx, packet.destinationPort, packet.destinationChannel);
      let received: boolean;
      try {
        received = branched(ctx, (branch) => keeper.recvPacket(branch, capability, packet, msg.proofCommitment, msg.proofHeight!), (ok) => ok);
      } catch (err) {
        throw wrapError(err, 'receive packet verification failed');
      }
      if (!received) return create(MsgRecvPacketResponseSchema, { result: ResponseResultType.NOOP });
      // The application's writes stay only with a successful (or asynchronous) acknowledgement.
      const ack = await recvOnBranch(ctx, (branch) => callbacks.onRecvPacket(branch, packet, msg.signer), (result) => result === undefined || result.success);
      if (ack !== undefined) keeper.writeAcknowledgement(ctx, capability, packet, ack);
      return create(MsgRecvPacketResponseSchema, { result: ResponseResultType.SUCCESS });
    }),
    msgRoute(Msg.method.timeout, (ctx, msg) => {
      checkProof(msg.proofUnreceived, 'cannot submit an empty unreceived proof');
      checkProofHeight(msg.proofHeight);
      if (msg.nextSequenceRecv === 0n) throw SdkErrors.InvalidSequence.wrap('next sequence receive cannot be 0');
      checkSigner(msg.signer);
      const packet = checkPacket(msg.packet);
      const { capability, callbacks } = byChannel(ctx, packet.sourcePort, packet.sourceChannel);
      let timedOut: boolean;
      try {
        timedOut = branched(ctx, (branch) => keeper.timeoutPacket(branch, packet, msg.proofUnreceived, msg.proofHeight!, msg.nextSequenceRecv), (ok) => ok);
      } catch (err) {
        throw wrapError(err, 'timeout packet verification failed');
      }
      if (!timedOut) return create(MsgTimeoutResponseSchema, { result: ResponseResultType.NOOP });
      keeper.timeoutExecuted(ctx, capability, packet);
      callback(() => callbacks.onTimeoutPacket(ctx, packet, msg.signer), 'timeout packet callback failed');
      return create(MsgTimeoutResponseSchema, { result: ResponseResultType.SUCCESS });
    }),
    msgRoute(Msg.method.timeoutOnClose, (ctx, msg) => {
      if (msg.nextSequenceRecv === 0n) throw SdkErrors.InvalidSequence.wrap('next sequence receive cannot be 0');
      checkProof(msg.proofUnreceived, 'cannot submit an empty proof');
      checkProof(msg.proofClose, 'cannot submit an empty proof of closed counterparty channel end');
      checkProofHeight(msg.proofHeight);
      checkSigner(msg.signer);
      const packet = checkPacket(msg.packet);
      const { capability, callbacks } = byChannel(ctx, packet.sourcePort, packet.sourceChannel);
      let timedOut: boolean;
      try {
        timedOut = branched(ctx, (branch) => keeper.timeoutOnClose(branch, capability, packet, msg.proofUnreceived, msg.proofClose, msg.proofHeight!, msg.nextSequenceRecv), (ok) => ok);
      } catch (err) {
        throw wrapError(err, 'timeout on close packet verification failed');
      }
      if (!timedOut) return create(MsgTimeoutOnCloseResponseSchema, { result: ResponseResultType.NOOP });
      keeper.timeoutExecuted(ctx, capability, packet);
      callback(() => callbacks.onTimeoutPacket(ctx, packet, msg.signer), 'timeout packet callback failed');
      return create(MsgTimeoutOnCloseResponseSchema, { result: ResponseResultType.SUCCESS });
    }),
    msgRoute(Msg.method.acknowledgement, (ctx, msg) => {
      checkProof(msg.proofAcked, 'cannot submit an empty proof');
      checkProofHeight(msg.proofHeight);
      if (msg.acknowledgement.length === 0) throw ChannelErrors.InvalidAcknowledgement.wrap('ack bytes cannot be empty');
      checkSigner(msg.signer);
      const packet = checkPacket(msg.packet);
      const { capability, callbacks } = byChannel(ctx, packet.sourcePort, packet.sourceChannel);
      let acknowledged: boolean;
      try {
        acknowledged = branched(ctx, (branch) => keeper.acknowledgePacket(branch, capability, packet, msg.acknowledgement, msg.proofAcked, msg.proofHeight!), (ok) => ok);
      } catch (err) {
        throw wrapError(err, 'acknowledge packet verification failed');
      }
      if (!acknowledged) return create(MsgAcknowledgementResponseSchema, { result: ResponseResultType.NOOP });
      callback(() => callbacks.onAcknowledgementPacket(ctx, packet, msg.acknowledgement, msg.signer), 'acknowledge packet callback failed');
      return create(MsgAcknowledgementResponseSchema, { result: ResponseResultType.SUCCESS });
    }),
  ];
}
