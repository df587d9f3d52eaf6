/**
 * The ICS-20 keeper (ibc-go v6 apps/transfer/keeper): the bound port, denom traces, params, and
 * the token movements of the packet lifecycle.
 *
 * Sending a token whose trace does not start with this channel's counterparty hop means this
 * chain is its source: it is escrowed in the channel's escrow account. Otherwise the token is a
 * voucher going home: it is burned. Receiving mirrors that: a token coming back through the
 * channel it left by is unescrowed; anything else is minted as the voucher
 * `ibc/<HASH(dest port/dest channel/denom)>` and its trace recorded. A failed acknowledgement or
 * a timeout refunds the sender the way the token left (unescrow, or mint the burned voucher back).
 */
import type { Packet } from '../../../../../gen/ibc/core/channel/v1/channel_pb.js';
import type { Params as TransferParams } from '../../../../../gen/ibc/applications/transfer/v1/transfer_pb.js';
import { create } from '@bufbuild/protobuf';
import { ParamsSchema } from '../../../../../gen/ibc/applications/transfer/v1/transfer_pb.js';
import { ChannelErrors } from '../../core/channel/errors.js';
import type { Height } from '../../core/client/height.js';
import type { Capability } from '../../core/port/types.js';
import { accString, parseAccAddress } from '../../../shared/address.js';
import { parseInt256, type Coin } from '../../../shared/coins.js';
import type { Context } from '../../../shared/context.js';
import { SdkErrors, wrapError } from '../../../shared/errors.js';
import {
  denomPrefix,
  denomTraceHash,
  escrowAddress,
  fullDenomPath,
  hexHash,
  ibcDenom,
  parseDenomTrace,
  parseHexHash,
  receiverChainIsSource,
  senderChainIsSource,
  sortDenomTraces,
  type DenomTrace,
} from './denom.js';
import { channelCapabilityPath, portPath } from '../../core/port/keeper.js';
import { TransferErrors } from './errors.js';
import { denomTraceEvent } from './events.js';
import type { TransferAccountKeeper, TransferBankKeeper, TransferIbcHost } from './expectedKeepers.js';
import { DENOM_PREFIX, DenomTraces, Params, Port, TRANSFER_MODULE_NAME } from './keys.js';
import { newPacketData, packetDataBytes, packetDataError, type FungibleTokenPacketData } from './packet.js';

export function defaultTransferParams(): TransferParams {
  return create(ParamsSchema, { sendEnabled: true, receiveEnabled: true });
}

/** sdk.AccAddressFromBech32 with the chain's prefix; its errors carry no ABCI code (as in the SDK). */
function accAddress(text: string): Uint8Array {
  const parsed = parseAccAddress(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.bytes;
}

function transferAmount(data: FungibleTokenPacketData): bigint {
  const amount = parseInt256(data.amount);
  if (amount === undefined) throw TransferErrors.InvalidAmount.wrap(`unable to parse transfer amount (${data.amount}) into math.Int`);
  return amount;
}

const UNESCROW_FAILED = 'unable to unescrow tokens, this may be caused by a malicious counterparty module or a bug: please open an issue on counterparty module';

export class TransferKeeper {
  constructor(
    readonly accounts: TransferAccountKeeper,
    readonly bank: TransferBankKeeper,
    /** IBC core: packets out, channel ends, the port, this module's capabilities. */
    readonly ibc: TransferIbcHost,
  ) {}

  // ------------------------------------------------------------------ port, params, traces

  getPort(ctx: Context): string {
    return Port.get(ctx) ?? '';
  }

  setPort(ctx: Context, portId: string): void {
    Port.set(ctx, portId);
  }

  isBound(ctx: Context, portId: string): boolean {
    return this.ibc.scopedKeeper.getCapability(ctx, portPath(portId)) !== undefined;
  }

  /** Binds the port and claims its capability for this module. */
  bindPort(ctx: Context, portId: string): void {
    const cap = this.ibc.portKeeper.bindPort(ctx, portId);
    this.ibc.scopedKeeper.claimCapability(ctx, cap, portPath(portId));
  }

  claimCapability(ctx: Context, cap: Capability, name: string): void {
    this.ibc.scopedKeeper.claimCapability(ctx, cap, name);
  }

  getParams(ctx: Context): TransferParams {
    return Params.get(ctx) ?? defaultTransferParams();
  }

  setParams(ctx: Context, params: TransferParams): void {
    Params.set(ctx, params);
  }

  getDenomTrace(ctx: Context, hash: Uint8Array): DenomTrace | undefined {
    return DenomTraces.get(ctx, hash);
  }

  hasDenomTrace(ctx: Context, hash: Uint8Array): boolean {
    return DenomTraces.has(ctx, hash);
  }

  setDenomTrace(ctx: Context, trace: DenomTrace): void {
    DenomTraces.set(ctx, denomTraceHash(trace), trace);
  }

  /** Every trace, sorted by full denom path (GetAllDenomTraces). */
  async allDenomTraces(ctx: Context): Promise<DenomTrace[]> {
    const traces: DenomTrace[] = [];
    for await (const trace of DenomTraces.values(ctx)) traces.push(trace);
    return sortDenomTraces(traces);
  }

  /** `ibc/<HASH>` → the full path of its trace (DenomPathFromHash). */
  denomPathFromHash(ctx: Context, denom: string): string {
    const hex = denom.slice(DENOM_PREFIX.length + 1);
    const parsed = parseHexHash(hex);
    if (!parsed.ok) throw TransferErrors.InvalidDenomForTransfer.wrap(parsed.error);
    const trace = this.getDenomTrace(ctx, parsed.hash);
    if (trace === undefined) throw TransferErrors.TraceNotFound.wrap(hex);
    return fullDenomPath(trace);
  }

  // ------------------------------------------------------------------ send

  /**
   * Escrows or burns `token` and sends the packet (sendTransfer); returns its sequence. The
   * caller has checked the message, the params and the sender.
   */
  sendTransfer(
    ctx: Context,
    sourcePort: string,
    sourceChannel: string,
    token: Coin,
    sender: Uint8Array,
    receiver: string,
    timeoutHeight: Height,
    timeoutTimestamp: bigint,
    memo: string,
  ): bigint {
    const { channelKeeper, scopedKeeper, ics4Wrapper } = this.ibc;
    const channel = channelKeeper.getChannel(ctx, sourcePort, sourceChannel);
    if (channel === undefined) throw ChannelErrors.ChannelNotFound.wrap(`port ID (${sourcePort}) channel ID (${sourceChannel})`);
    const channelCap = scopedKeeper.getCapability(ctx, channelCapabilityPath(sourcePort, sourceChannel));
    if (channelCap === undefined) throw ChannelErrors.ChannelCapabilityNotFound.wrap('module does not own channel capability');

    const fullPath = token.denom.startsWith(`${DENOM_PREFIX}/`) ? this.denomPathFromHash(ctx, token.denom) : token.denom;
    if (senderChainIsSource(sourcePort, sourceChannel, fullPath)) {
      this.bank.sendCoins(ctx, sender, escrowAddress(sourcePort, sourceChannel), [token]);
    } else {
      this.bank.sendCoinsFromAccountToModule(ctx, sender, TRANSFER_MODULE_NAME, [token]);
      // Coins just sent to the module account can always be burned.
      this.bank.burnCoins(ctx, TRANSFER_MODULE_NAME, [token]);
    }
    const data = newPacketData(fullPath, token.amount.toString(), accString(sender), receiver, memo);
    return ics4Wrapper.sendPacket(ctx, channelCap, sourcePort, sourceChannel, timeoutHeight, timeoutTimestamp, packetDataBytes(data));
  }

  // ------------------------------------------------------------------ receive

  /** Credits the receiver (OnRecvPacket); a throw becomes an error acknowledgement. */
  onRecvPacket(ctx: Context, packet: Packet, data: FungibleTokenPacketData): void {
    const invalid = packetDataError(data);
    if (invalid !== undefined) throw invalid;
    if (!this.getParams(ctx).receiveEnabled) throw TransferErrors.ReceiveDisabled.error();
    const receiver = accAddress(data.receiver);
    const amount = transferAmount(data);

    if (receiverChainIsSource(packet.sourcePort, packet.sourceChannel, data.denom)) {
      // The token is coming home: drop the counterparty's hop and unescrow it.
      const unprefixed = data.denom.slice(denomPrefix(packet.sourcePort, packet.sourceChannel).length);
      const trace = parseDenomTrace(unprefixed);
      const token: Coin = { denom: trace.path === '' ? unprefixed : ibcDenom(trace), amount };
      if (this.bank.blockedAddr(receiver)) throw SdkErrors.Unauthorized.wrap(`${accString(receiver)} is not allowed to receive funds`);
      try {
        this.bank.sendCoins(ctx, escrowAddress(packet.destinationPort, packet.destinationChannel), receiver, [token]);
      } catch (err) {
        throw wrapError(err, UNESCROW_FAILED);
      }
      return;
    }

    // The token is foreign here: add this side's hop to its trace and mint the voucher.
    const trace = parseDenomTrace(`${denomPrefix(packet.destinationPort, packet.destinationChannel)}${data.denom}`);
    const hash = denomTraceHash(trace);
    if (!this.hasDenomTrace(ctx, hash)) this.setDenomTrace(ctx, trace);
    const voucher: Coin = { denom: ibcDenom(trace), amount };
    ctx.events.emit(denomTraceEvent(hexHash(hash), voucher.denom));
    this.bank.mintCoins(ctx, TRANSFER_MODULE_NAME, [voucher]);
    this.bank.sendCoinsFromModuleToAccount(ctx, TRANSFER_MODULE_NAME, receiver, [voucher]);
  }

  // ------------------------------------------------------------------ refunds

  /** Gives the sender back what the packet took (refundPacketToken). */
  refundPacketToken(ctx: Context, packet: Packet, data: FungibleTokenPacketData): void {
    const trace = parseDenomTrace(data.denom);
    const token: Coin = { denom: ibcDenom(trace), amount: transferAmount(data) };
    const sender = accAddress(data.sender);
    if (senderChainIsSource(packet.sourcePort, packet.sourceChannel, data.denom)) {
      try {
        this.bank.sendCoins(ctx, escrowAddress(packet.sourcePort, packet.sourceChannel), sender, [token]);
      } catch (err) {
        throw wrapError(err, UNESCROW_FAILED);
      }
      return;
    }
    this.bank.mintCoins(ctx, TRANSFER_MODULE_NAME, [token]);
    this.bank.sendCoinsFromModuleToAccount(ctx, TRANSFER_MODULE_NAME, sender, [token]);
  }
}
