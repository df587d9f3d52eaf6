/**
 * The interchain accounts host (ibc-go v6 27-interchain-accounts/host/keeper): it binds the
 * `icahost` port, creates an interchain account in the OpenTry step of each new controller
 * channel (the address goes back in the version), and executes the transactions controllers
 * send — every message must be in `allow_messages` and signed by the channel's interchain
 * account only — through the app's message router, all or nothing.
 */
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import type { Any } from '@bufbuild/protobuf/wkt';
import { TxMsgDataSchema } from '../../../../../../gen/cosmos/base/abci/v1beta1/abci_pb.js';
import type { ActiveChannel, RegisteredInterchainAccount } from '../../../../../../gen/ibc/applications/interchain_accounts/genesis/v1/genesis_pb.js';
import { ActiveChannelSchema, RegisteredInterchainAccountSchema } from '../../../../../../gen/ibc/applications/interchain_accounts/genesis/v1/genesis_pb.js';
import { ParamsSchema, type Params } from '../../../../../../gen/ibc/applications/interchain_accounts/host/v1/host_pb.js';
import { CosmosTxSchema, Type } from '../../../../../../gen/ibc/applications/interchain_accounts/v1/packet_pb.js';
import { Order, State, type Counterparty, type Packet } from '../../../../../../gen/ibc/core/channel/v1/channel_pb.js';
import type { DecodedMsg, MsgRouter } from '../../../../../platform/router.js';
import { newInterchainAccount } from '../../../../auth/account.js';
import { accString, parseAccAddress } from '../../../../shared/address.js';
import type { Context } from '../../../../shared/context.js';
import { SdkErrors, wrapError } from '../../../../shared/errors.js';
import { EventManager } from '../../../../shared/events.js';
import { bytesEqual } from '../../../../shared/keys.js';
import { ChannelErrors } from '../../../core/channel/errors.js';
import { ConnectionErrors } from '../../../core/connection/errors.js';
import type { Capability } from '../../../core/port/types.js';
import { IcaErrors } from '../errors.js';
import type { IcaAccountKeeper, IcaIbcCore } from '../expectedKeepers.js';
import { HostState, PORT_BOUND } from '../keys.js';
import { channelCapabilityPath, portPath } from '../../../core/port/keeper.js';
import { HOST_PORT_ID, ICA_HOST_NAME, generateAccountAddress, isPreviousMetadataEqual, metadataFromVersion, metadataToVersion, packetDataFromBytes, validateMetadata } from '../types.js';

/** `allow_messages` = ["*"]: every message type. */
export const ALLOW_ALL_HOST_MSGS = '*';

export function defaultHostParams(): Params {
  return create(ParamsSchema, { hostEnabled: true, allowMessages: [ALLOW_ALL_HOST_MSGS] });
}

/** Problems of host params (validateAllowlist). */
export function hostParamsProblems(params: Params): string[] {
  return params.allowMessages.some((typeUrl) => typeUrl.trim() === '') ? [`parameter must not contain empty strings: [${params.allowMessages.join(' ')}]`] : [];
}

/** Whether `typeUrl` is allowed (ContainsMsgType: "*" only when it is the sole entry). */
export function isMessageAllowed(allowMessages: readonly string[], typeUrl: string): boolean {
  if (allowMessages.length === 1 && allowMessages[0] === ALLOW_ALL_HOST_MSGS) return true;
  return allowMessages.includes(typeUrl);
}

export class HostKeeper {
  constructor(
    private readonly core: IcaIbcCore,
    private readonly accounts: IcaAccountKeeper,
    private readonly router: MsgRouter,
  ) {}

  // ------------------------------------------------------------------ params

  getParams(ctx: Context): Params {
    return HostState.params.get(ctx) ?? defaultHostParams();
  }

  setParams(ctx: Context, params: Params): void {
    HostState.params.set(ctx, params);
  }

  isHostEnabled(ctx: Context): boolean {
    return this.getParams(ctx).hostEnabled;
  }

  // ------------------------------------------------------------------ state

  getActiveChannelId(ctx: Context, connectionId: string, portId: string): string | undefined {
    return HostState.activeChannels.get(ctx, [portId, connectionId]);
  }

  setActiveChannelId(ctx: Context, connectionId: string, portId: string, channelId: string): void {
    HostState.activeChannels.set(ctx, [portId, connectionId], channelId);
  }

  getInterchainAccountAddress(ctx: Context, connectionId: string, portId: string): string | undefined {
    return HostState.owners.get(ctx, [portId, connectionId]);
  }

  setInterchainAccountAddress(ctx: Context, connectionId: string, portId: string, address: string): void {
    HostState.owners.set(ctx, [portId, connectionId], address);
  }

  isBound(ctx: Context, portId: string): boolean {
    return this.core.scoped(ICA_HOST_NAME).getCapability(ctx, portPath(portId)) !== undefined;
  }

  /** Records a port as this submodule's (`port/{port}`), without binding it. */
  recordPort(ctx: Context, portId: string): void {
    HostState.ports.set(ctx, portId, PORT_BOUND);
  }

  /** Records and binds the port and claims its capability. */
  bindPort(ctx: Context, portId: string): void {
    this.recordPort(ctx, portId);
    const capability = this.core.ports.bindPort(ctx, portId);
    this.core.scoped(ICA_HOST_NAME).claimCapability(ctx, capability, portPath(portId));
  }

  // ------------------------------------------------------------------ handshake

  /** Validates the controller's metadata, creates (or finds, on reopening) the account, returns the version with its address. */
  onChanOpenTry(ctx: Context, order: Order, connectionHops: string[], portId: string, channelId: string, capability: Capability, counterparty: Counterparty, counterpartyVersion: string): string {
    if (!this.isHostEnabled(ctx)) throw IcaErrors.HostSubModuleDisabled.error();
    if (order !== Order.ORDERED) throw ChannelErrors.InvalidChannelOrdering.wrap(`expected ${Order[Order.ORDERED]} channel, got ${Order[order]}`);
    if (portId !== HOST_PORT_ID) throw IcaErrors.InvalidHostPort.wrap(`expected ${HOST_PORT_ID}, got ${portId}`);
    const metadata = metadataFromVersion(counterpartyVersion);
    const connectionId = connectionHops[0]!;
    const connection = this.core.connections.getConnection(ctx, connectionId);
    if (connection === undefined) throw ConnectionErrors.ConnectionNotFound.wrap(`connection-id: ${connectionId}`);
    validateMetadata(metadata, connection.counterparty?.connectionId ?? '', connectionId, (message) => ConnectionErrors.InvalidConnection.wrap(message));

    const activeChannelId = this.getActiveChannelId(ctx, connectionId, counterparty.portId);
    if (activeChannelId !== undefined) {
      const channel = this.core.channels.getChannel(ctx, portId, activeChannelId);
      if (channel === undefined) throw SdkErrors.Logic.wrap(`active channel mapping set for ${activeChannelId} but channel does not exist in channel store`);
      if (channel.state === State.OPEN) throw IcaErrors.ActiveChannelAlreadySet.wrap(`existing active channel ${activeChannelId} for portID ${portId} is already OPEN`);
      const appVersion = this.core.ics4.getAppVersion(ctx, portId, activeChannelId);
      if (appVersion === undefined) throw SdkErrors.Logic.wrap(`active channel mapping set for ${activeChannelId}, but channel does not exist in channel store`);
      if (!isPreviousMetadataEqual(appVersion, metadata)) throw IcaErrors.InvalidVersion.wrap('previous active channel metadata does not match provided version');
    }
    try {
      this.core.scoped(ICA_HOST_NAME).claimCapability(ctx, capability, channelCapabilityPath(portId, channelId));
    } catch (err) {
      throw wrapError(err, `failed to claim capability for channel ${channelId} on port ${portId}`);
    }

    let address = this.getInterchainAccountAddress(ctx, metadata.hostConnectionId, counterparty.portId);
    if (address !== undefined) {
      const parsed = parseAccAddress(address);
      const existing = parsed.ok ? this.accounts.getAccount(ctx, parsed.bytes) : undefined;
      if (existing?.kind !== 'interchain') throw IcaErrors.InvalidAccountReopening.wrap(`existing account address ${address}, does not have interchain account type`);
    } else {
      address = this.createInterchainAccount(ctx, metadata.hostConnectionId, counterparty.portId);
    }
    return metadataToVersion({ ...metadata, address });
  }

  /** Makes the channel the active one of its connection and controller port. */
  onChanOpenConfirm(ctx: Context, portId: string, channelId: string): void {
    if (!this.isHostEnabled(ctx)) throw IcaErrors.HostSubModuleDisabled.error();
    const channel = this.core.channels.getChannel(ctx, portId, channelId);
    if (channel === undefined) throw ChannelErrors.ChannelNotFound.wrap(`failed to retrieve channel ${channelId} on port ${portId}`);
    this.setActiveChannelId(ctx, channel.connectionHops[0]!, channel.counterparty?.portId ?? '', channelId);
  }

  /** A new InterchainAccount at the generated address; refused when any account is there already. */
  private createInterchainAccount(ctx: Context, connectionId: string, controllerPortId: string): string {
    const address = generateAccountAddress(ctx, connectionId, controllerPortId);
    const bech32 = accString(address);
    if (this.accounts.getAccount(ctx, address) !== undefined) throw IcaErrors.AccountAlreadyExist.wrap(`existing account for newly generated interchain account address ${bech32}`);
    this.accounts.setAccount(ctx, newInterchainAccount(address, this.accounts.nextAccountNumber(ctx), controllerPortId));
    this.setInterchainAccountAddress(ctx, connectionId, controllerPortId, bech32);
    return bech32;
  }

  // ------------------------------------------------------------------ packets

  /**
   * Executes the packet's transaction; returns the TxMsgData of the message responses (the
   * acknowledgement's result). Throws (nothing written) when the data, the signers or any message fail.
   */
  async onRecvPacket(ctx: Context, packet: Packet): Promise<Uint8Array> {
    const data = packetDataFromBytes(packet.data);
    if (data.type !== Type.EXECUTE_TX) throw IcaErrors.UnknownDataType.error();
    let messages: Any[];
    try {
      messages = fromBinary(CosmosTxSchema, data.data).messages;
    } catch (err) {
      throw SdkErrors.TxDecode.wrap(`cannot decode CosmosTx: ${err instanceof Error ? err.message : String(err)}`);
    }
    const decoded = messages.map((any) => this.router.decode(any));
    return this.executeTx(ctx, packet.sourcePort, packet.destinationPort, packet.destinationChannel, decoded);
  }

  private async executeTx(ctx: Context, sourcePort: string, destPort: string, destChannel: string, messages: readonly DecodedMsg[]): Promise<Uint8Array> {
    const channel = this.core.channels.getChannel(ctx, destPort, destChannel);
    if (channel === undefined) throw ChannelErrors.ChannelNotFound.error();
    const account = this.authenticateTx(ctx, messages, channel.connectionHops[0]!, sourcePort);

    const branch = ctx.multiStore.branch();
    const execCtx = ctx.with({ multiStore: branch, events: new EventManager() });
    const responses: Any[] = [];
    for (const message of messages) {
      if (this.router.route(message.typeUrl) === undefined) throw IcaErrors.InvalidRoute.error();
      responses.push((await this.router.dispatch(execCtx, message, [account])).response);
    }
    branch.write();
    ctx.events.emitAll(execCtx.events.events);
    return toBinary(TxMsgDataSchema, create(TxMsgDataSchema, { msgResponses: responses }));
  }

  /** Every message allowed and signed by the interchain account of (connection, controller port) only. */
  private authenticateTx(ctx: Context, messages: readonly DecodedMsg[], connectionId: string, portId: string): Uint8Array {
    const address = this.getInterchainAccountAddress(ctx, connectionId, portId);
    if (address === undefined) throw IcaErrors.InterchainAccountNotFound.wrap(`failed to retrieve interchain account on port ${portId}`);
    const parsed = parseAccAddress(address);
    if (!parsed.ok) throw SdkErrors.InvalidAddress.wrap(`interchain account address ${address}: ${parsed.error}`);
    const allowMessages = this.getParams(ctx).allowMessages;
    for (const message of messages) {
      if (!isMessageAllowed(allowMessages, message.typeUrl)) throw SdkErrors.Unauthorized.wrap(`message type not allowed: ${message.typeUrl}`);
      for (const signer of message.signers) {
        if (!bytesEqual(signer, parsed.bytes)) throw SdkErrors.Unauthorized.wrap(`unexpected signer address: expected ${address}, got ${accString(signer)}`);
      }
    }
    return parsed.bytes;
  }

  // ------------------------------------------------------------------ genesis

  async exportActiveChannels(ctx: Context): Promise<ActiveChannel[]> {
    const out: ActiveChannel[] = [];
    for await (const [[portId, connectionId], channelId] of HostState.activeChannels.iterate(ctx)) out.push(create(ActiveChannelSchema, { connectionId, portId, channelId }));
    return out;
  }

  async exportInterchainAccounts(ctx: Context): Promise<RegisteredInterchainAccount[]> {
    const out: RegisteredInterchainAccount[] = [];
    for await (const [[portId, connectionId], accountAddress] of HostState.owners.iterate(ctx)) out.push(create(RegisteredInterchainAccountSchema, { connectionId, portId, accountAddress }));
    return out;
  }
}
