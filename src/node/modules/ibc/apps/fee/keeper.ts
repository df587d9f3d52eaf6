/**
 * The fee middleware's keeper (ibc-go v6 29-fee keeper): fee-enabled channels, payees and
 * counterparty payees, the forward relayers of asynchronously acknowledged packets, and the fees
 * escrowed per packet in the module account "feeibc" — escrowed by MsgPayPacketFee(Async), paid
 * out on acknowledgement or timeout, refunded when the channel closes.
 *
 * Paying out is all-or-nothing per packet: the escrow must hold every fee of the packet, or the
 * module locks itself (nothing is paid, every later payment and channel closure is refused, and
 * packets go through to the application without fee handling), as upstream does when its
 * accounting has gone wrong. A single payment that bank refuses (a blocked receiver) goes to the
 * refund address instead.
 */
import { create } from '@bufbuild/protobuf';
import { IdentifiedPacketFeesSchema, PacketFeesSchema, type Fee, type IdentifiedPacketFees, type PacketFee } from '../../../../../gen/ibc/applications/fee/v1/fee_pb.js';
import { FeeEnabledChannelSchema, ForwardRelayerAddressSchema, RegisteredCounterpartyPayeeSchema, RegisteredPayeeSchema, type FeeEnabledChannel, type ForwardRelayerAddress, type RegisteredCounterpartyPayee, type RegisteredPayee } from '../../../../../gen/ibc/applications/fee/v1/genesis_pb.js';
import { PacketIdSchema, type PacketId } from '../../../../../gen/ibc/core/channel/v1/channel_pb.js';
import { accString, parseAccAddress } from '../../../shared/address.js';
import { addCoins, coinsFromProto, type Coin } from '../../../shared/coins.js';
import type { Context } from '../../../shared/context.js';
import { SdkErrors } from '../../../shared/errors.js';
import { EventManager } from '../../../shared/events.js';
import { distributeFeeEvents, incentivizedPacketEvents } from './events.js';
import { FeeErrors } from './errors.js';
import type { FeeAccountKeeper, FeeBankKeeper, FeeChannelKeeper } from './expectedKeepers.js';
import { CounterpartyPayees, FEE_MODULE_NAME, FeeEnabled, FeesInEscrow, ForwardRelayers, Locked, Payees } from './keys.js';

/** The fee middleware's version in a channel's version metadata. */
export const FEE_VERSION = 'ics29-1';

/** Fee.Total(): receive + acknowledgement + timeout fees. */
export function feeTotal(fee: Fee | undefined): Coin[] {
  if (fee === undefined) return [];
  return addCoins(addCoins(coinsFromProto(fee.recvFee), coinsFromProto(fee.ackFee)), coinsFromProto(fee.timeoutFee));
}

/** A branch of `ctx` with its own events (sdk.Context.CacheContext): `write()` keeps both. */
function cacheContext(ctx: Context): { ctx: Context; write(): void } {
  const store = ctx.multiStore.branch();
  const events = new EventManager();
  return {
    ctx: ctx.with({ multiStore: store, events }),
    write() {
      store.write();
      ctx.events.emitAll(events.events);
    },
  };
}

const packetId = (portId: string, channelId: string, sequence: bigint): PacketId => create(PacketIdSchema, { portId, channelId, sequence });

export class FeeKeeper {
  constructor(
    private readonly accounts: FeeAccountKeeper,
    private readonly bank: FeeBankKeeper,
    readonly channels: FeeChannelKeeper,
  ) {}

  moduleAddress(): Uint8Array {
    const address = this.accounts.getModuleAddress(FEE_MODULE_NAME);
    if (address === undefined) throw new Error('the feeibc module account is not declared');
    return address;
  }

  // ------------------------------------------------------------------ lock, fee-enabled channels

  isLocked(ctx: Context): boolean {
    return Locked.has(ctx);
  }

  lockFeeModule(ctx: Context): void {
    Locked.set(ctx, true);
  }

  isFeeEnabled(ctx: Context, portId: string, channelId: string): boolean {
    return FeeEnabled.has(ctx, [portId, channelId]);
  }

  setFeeEnabled(ctx: Context, portId: string, channelId: string): void {
    FeeEnabled.set(ctx, [portId, channelId], true);
  }

  deleteFeeEnabled(ctx: Context, portId: string, channelId: string): void {
    FeeEnabled.remove(ctx, [portId, channelId]);
  }

  async getAllFeeEnabledChannels(ctx: Context): Promise<FeeEnabledChannel[]> {
    const channels: FeeEnabledChannel[] = [];
    for await (const [portId, channelId] of FeeEnabled.keys(ctx)) channels.push(create(FeeEnabledChannelSchema, { portId, channelId }));
    return channels;
  }

  // ------------------------------------------------------------------ payees, forward relayers

  getPayeeAddress(ctx: Context, relayer: string, channelId: string): string | undefined {
    return Payees.get(ctx, [relayer, channelId]);
  }

  setPayeeAddress(ctx: Context, relayer: string, payee: string, channelId: string): void {
    Payees.set(ctx, [relayer, channelId], payee);
  }

  async getAllPayees(ctx: Context): Promise<RegisteredPayee[]> {
    const payees: RegisteredPayee[] = [];
    for await (const [[relayer, channelId], payee] of Payees.iterate(ctx)) payees.push(create(RegisteredPayeeSchema, { channelId, relayer, payee }));
    return payees;
  }

  getCounterpartyPayeeAddress(ctx: Context, relayer: string, channelId: string): string | undefined {
    return CounterpartyPayees.get(ctx, [relayer, channelId]);
  }

  setCounterpartyPayeeAddress(ctx: Context, relayer: string, counterpartyPayee: string, channelId: string): void {
    CounterpartyPayees.set(ctx, [relayer, channelId], counterpartyPayee);
  }

  async getAllCounterpartyPayees(ctx: Context): Promise<RegisteredCounterpartyPayee[]> {
    const payees: RegisteredCounterpartyPayee[] = [];
    for await (const [[relayer, channelId], counterpartyPayee] of CounterpartyPayees.iterate(ctx)) payees.push(create(RegisteredCounterpartyPayeeSchema, { channelId, relayer, counterpartyPayee }));
    return payees;
  }

  getRelayerAddressForAsyncAck(ctx: Context, id: PacketId): string | undefined {
    return ForwardRelayers.get(ctx, [id.portId, id.channelId, id.sequence]);
  }

  setRelayerAddressForAsyncAck(ctx: Context, id: PacketId, address: string): void {
    ForwardRelayers.set(ctx, [id.portId, id.channelId, id.sequence], address);
  }

  deleteForwardRelayerAddress(ctx: Context, id: PacketId): void {
    ForwardRelayers.remove(ctx, [id.portId, id.channelId, id.sequence]);
  }

  async getAllForwardRelayerAddresses(ctx: Context): Promise<ForwardRelayerAddress[]> {
    const relayers: ForwardRelayerAddress[] = [];
    for await (const [[portId, channelId, sequence], address] of ForwardRelayers.iterate(ctx)) relayers.push(create(ForwardRelayerAddressSchema, { address, packetId: packetId(portId, channelId, sequence) }));
    return relayers;
  }

  // ------------------------------------------------------------------ escrowed fees

  getFeesInEscrow(ctx: Context, id: PacketId): PacketFee[] | undefined {
    return FeesInEscrow.get(ctx, [id.portId, id.channelId, id.sequence])?.packetFees;
  }

  /** The packet's payments, newest first, in its own record: writing one packet's touches no other. */
  setFeesInEscrow(ctx: Context, id: PacketId, fees: readonly PacketFee[]): void {
    FeesInEscrow.set(ctx, [id.portId, id.channelId, id.sequence], create(PacketFeesSchema, { packetFees: [...fees] }));
  }

  deleteFeesInEscrow(ctx: Context, id: PacketId): void {
    FeesInEscrow.remove(ctx, [id.portId, id.channelId, id.sequence]);
  }

  async getIdentifiedPacketFeesForChannel(ctx: Context, portId: string, channelId: string): Promise<IdentifiedPacketFees[]> {
    const fees: IdentifiedPacketFees[] = [];
    for await (const [[port, channel, sequence], value] of FeesInEscrow.iterate(ctx, { prefix: [portId, channelId] })) {
      fees.push(create(IdentifiedPacketFeesSchema, { packetId: packetId(port, channel, sequence), packetFees: value.packetFees }));
    }
    return fees;
  }

  async getAllIdentifiedPacketFees(ctx: Context): Promise<IdentifiedPacketFees[]> {
    const fees: IdentifiedPacketFees[] = [];
    for await (const [[port, channel, sequence], value] of FeesInEscrow.iterate(ctx)) {
      fees.push(create(IdentifiedPacketFeesSchema, { packetId: packetId(port, channel, sequence), packetFees: value.packetFees }));
    }
    return fees;
  }

  /** Whether the module account holds at least `coins` (EscrowAccountHasBalance). */
  escrowAccountHasBalance(ctx: Context, coins: readonly Coin[]): boolean {
    const address = this.moduleAddress();
    return coins.every((coin) => this.bank.getBalance(ctx, address, coin.denom) >= coin.amount);
  }

  /**
   * Moves the fee's total from its refund account into escrow and adds it in front of the packet's
   * other payments; emits incentivized_ibc_packet with the packet's new totals.
   */
  escrowPacketFee(ctx: Context, id: PacketId, packetFee: PacketFee): void {
    const refund = parseAccAddress(packetFee.refundAddress);
    if (!refund.ok) throw SdkErrors.InvalidAddress.wrap(refund.error);
    if (this.accounts.getAccount(ctx, refund.bytes) === undefined) throw FeeErrors.RefundAccNotFound.wrap(`account with address: ${packetFee.refundAddress} not found`);
    this.bank.sendCoinsFromAccountToModule(ctx, refund.bytes, FEE_MODULE_NAME, feeTotal(packetFee.fee));
    const fees = [packetFee, ...(this.getFeesInEscrow(ctx, id) ?? [])];
    this.setFeesInEscrow(ctx, id, fees);
    const totals = { recv: [] as Coin[], ack: [] as Coin[], timeout: [] as Coin[] };
    for (const fee of fees) {
      if (fee.relayers.length !== 0) continue;
      totals.recv = addCoins(totals.recv, coinsFromProto(fee.fee?.recvFee ?? []));
      totals.ack = addCoins(totals.ack, coinsFromProto(fee.fee?.ackFee ?? []));
      totals.timeout = addCoins(totals.timeout, coinsFromProto(fee.fee?.timeoutFee ?? []));
    }
    ctx.events.emitAll(incentivizedPacketEvents(id, totals));
  }

  /**
   * On acknowledgement: each payment's receive fee to the forward relayer (refunded when there is
   * none, it does not parse, or it may not receive funds), its acknowledgement fee to the reverse
   * relayer (or its payee), its timeout fee back to the refund address. Locks the module instead
   * when the escrow is short.
   */
  distributePacketFeesOnAcknowledgement(ctx: Context, forwardRelayer: string, reverseRelayer: Uint8Array, packetFees: readonly PacketFee[], id: PacketId): void {
    const cache = cacheContext(ctx);
    const forward = forwardRelayer === '' ? undefined : parseAccAddress(forwardRelayer);
    const forwardAddress = forward?.ok === true ? forward.bytes : undefined;
    for (const packetFee of packetFees) {
      if (!this.escrowAccountHasBalance(cache.ctx, feeTotal(packetFee.fee))) {
        this.lockFeeModule(ctx);
        return;
      }
      const refund = this.refundAddressOf(packetFee);
      const recvTo = forwardAddress !== undefined && !this.bank.blockedAddr(forwardAddress) ? forwardAddress : refund;
      this.distributeFee(cache.ctx, recvTo, refund, coinsFromProto(packetFee.fee?.recvFee ?? []));
      this.distributeFee(cache.ctx, reverseRelayer, refund, coinsFromProto(packetFee.fee?.ackFee ?? []));
      this.distributeFee(cache.ctx, refund, refund, coinsFromProto(packetFee.fee?.timeoutFee ?? []));
    }
    cache.write();
    this.deleteFeesInEscrow(ctx, id);
  }

  /** On timeout: receive and acknowledgement fees refunded, the timeout fee to the relayer (or its payee). */
  distributePacketFeesOnTimeout(ctx: Context, timeoutRelayer: Uint8Array, packetFees: readonly PacketFee[], id: PacketId): void {
    const cache = cacheContext(ctx);
    for (const packetFee of packetFees) {
      if (!this.escrowAccountHasBalance(cache.ctx, feeTotal(packetFee.fee))) {
        this.lockFeeModule(ctx);
        return;
      }
      const refund = this.refundAddressOf(packetFee);
      this.distributeFee(cache.ctx, refund, refund, coinsFromProto(packetFee.fee?.recvFee ?? []));
      this.distributeFee(cache.ctx, refund, refund, coinsFromProto(packetFee.fee?.ackFee ?? []));
      this.distributeFee(cache.ctx, timeoutRelayer, refund, coinsFromProto(packetFee.fee?.timeoutFee ?? []));
    }
    cache.write();
    this.deleteFeesInEscrow(ctx, id);
  }

  /**
   * Refunds every escrowed fee of a closing channel, in store order (as upstream iterates
   * feesInEscrow/{port}/{channel}/); packets whose refund fails keep their escrow
   * (RefundFeesOnChannelClosure).
   */
  async refundFeesOnChannelClosure(ctx: Context, portId: string, channelId: string): Promise<void> {
    const identified = await this.getIdentifiedPacketFeesForChannel(ctx, portId, channelId);
    const cache = cacheContext(ctx);
    for (const { packetId: id, packetFees } of identified) {
      let failed = false;
      for (const packetFee of packetFees) {
        const total = feeTotal(packetFee.fee);
        if (!this.escrowAccountHasBalance(cache.ctx, total)) {
          this.lockFeeModule(ctx);
          return;
        }
        const refund = parseAccAddress(packetFee.refundAddress);
        if (!refund.ok) {
          failed = true;
          continue;
        }
        const attempt = cacheContext(cache.ctx);
        try {
          this.bank.sendCoinsFromModuleToAccount(attempt.ctx, FEE_MODULE_NAME, refund.bytes, total);
          attempt.write();
        } catch {
          failed = true;
        }
      }
      if (!failed) this.deleteFeesInEscrow(cache.ctx, id!);
    }
    cache.write();
  }

  /** The refund address of a stored payment (validated when it was escrowed). */
  private refundAddressOf(packetFee: PacketFee): Uint8Array {
    const parsed = parseAccAddress(packetFee.refundAddress);
    if (!parsed.ok) throw new Error(`could not parse refundAcc ${packetFee.refundAddress} to sdk.AccAddress`);
    return parsed.bytes;
  }

  /** Pays `fee` to `receiver`, or to `refund` when bank refuses; nothing when both fail. Emits distribute_fee for what was paid. */
  private distributeFee(ctx: Context, receiver: Uint8Array, refund: Uint8Array, fee: readonly Coin[]): void {
    const attempt = cacheContext(ctx);
    try {
      this.bank.sendCoinsFromModuleToAccount(attempt.ctx, FEE_MODULE_NAME, receiver, fee);
      ctx.events.emitAll(distributeFeeEvents(accString(receiver), fee));
    } catch {
      if (Buffer.from(receiver).equals(Buffer.from(refund))) return;
      try {
        this.bank.sendCoinsFromModuleToAccount(attempt.ctx, FEE_MODULE_NAME, refund, fee);
        ctx.events.emitAll(distributeFeeEvents(accString(refund), fee));
      } catch {
        return;
      }
    }
    attempt.write();
  }
}
