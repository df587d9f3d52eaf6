/**
 * Fee allowances (x/feegrant's FeeAllowanceI and its SDK 0.47 implementations): BasicAllowance,
 * PeriodicAllowance and AllowedMsgAllowance. An allowance decides whether it pays a fee for a
 * tx's messages, changing its own state (limits spent, period reset), and says when it is used
 * up and should be removed.
 */
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { AnySchema, timestampFromMs, timestampMs, type Any, type Duration } from '@bufbuild/protobuf/wkt';
import {
  AllowedMsgAllowanceSchema,
  BasicAllowanceSchema,
  PeriodicAllowanceSchema,
  type AllowedMsgAllowance,
  type BasicAllowance,
  type PeriodicAllowance,
} from '../../../gen/cosmos/feegrant/v1beta1/feegrant_pb.js';
import { coinsError, coinsFromProto, coinsToProto, coinsToString, subCoins, type Coin } from '../shared/coins.js';
import type { Context } from '../shared/context.js';
import { SdkErrors } from '../shared/errors.js';
import { FeegrantErrors } from './errors.js';

/** Gas charged per allowed-message entry and per tx message checked (x/feegrant gasCostPerIteration). */
export const GAS_COST_PER_ITERATION = 10;

export const BASIC_ALLOWANCE_TYPE_URL = `/${BasicAllowanceSchema.typeName}`;
export const PERIODIC_ALLOWANCE_TYPE_URL = `/${PeriodicAllowanceSchema.typeName}`;
export const ALLOWED_MSG_ALLOWANCE_TYPE_URL = `/${AllowedMsgAllowanceSchema.typeName}`;

/** Anything with a message type URL (the ante chain's TxMsg). */
export interface TypedMsg {
  readonly typeUrl: string;
}

export interface Allowance {
  /**
   * Accept: pays `fee` for `msgs` or throws (an expired allowance too: the SDK also removes it,
   * but the failing ante handler discards that write); returns true when the allowance is used
   * up and should be removed. Updates its own state.
   */
  accept(ctx: Context, fee: readonly Coin[], msgs: readonly TypedMsg[]): boolean;
  validateBasic(): void;
  /** Expiration in ms since the epoch, if any. */
  expiresAt(): number | undefined;
  /** Starts the first period at `blockMs` (a periodic allowance being granted). */
  updatePeriodReset(blockMs: number): void;
  pack(): Any;
}

export function durationMs(duration: Duration | undefined): number {
  if (duration === undefined) return 0;
  return Number(duration.seconds) * 1000 + Math.trunc(duration.nanos / 1_000_000);
}

function limitError(coins: readonly Coin[], what: string): void {
  const bad = coinsError(coins);
  if (bad !== undefined) throw SdkErrors.InvalidCoins.wrap(`${what} is invalid: ${coinsToString(coins)}`);
}

class Basic implements Allowance {
  constructor(readonly value: BasicAllowance) {}

  accept(ctx: Context, fee: readonly Coin[]): boolean {
    const expires = this.expiresAt();
    if (expires !== undefined && expires < ctx.blockTime.getTime()) throw FeegrantErrors.FeeLimitExpired.wrap('basic allowance');
    if (this.value.spendLimit.length > 0) {
      const left = subCoins(coinsFromProto(this.value.spendLimit), fee);
      if (left === undefined) throw FeegrantErrors.FeeLimitExceeded.wrap('basic allowance');
      this.value.spendLimit = coinsToProto(left);
      return left.length === 0;
    }
    return false;
  }

  validateBasic(): void {
    if (this.value.spendLimit.length > 0) limitError(coinsFromProto(this.value.spendLimit), 'send amount');
    if (this.value.expiration !== undefined && this.value.expiration.seconds < 0n) throw FeegrantErrors.InvalidDuration.wrap('expiration time cannot be negative');
  }

  expiresAt(): number | undefined {
    return this.value.expiration === undefined ? undefined : timestampMs(this.value.expiration);
  }

  updatePeriodReset(): void {}

  pack(): Any {
    return create(AnySchema, { typeUrl: BASIC_ALLOWANCE_TYPE_URL, value: toBinary(BasicAllowanceSchema, this.value) });
  }
}

class Periodic implements Allowance {
  private readonly basic: BasicAllowance;

  constructor(readonly value: PeriodicAllowance) {
    this.basic = value.basic ?? create(BasicAllowanceSchema);
    value.basic = this.basic;
  }

  accept(ctx: Context, fee: readonly Coin[]): boolean {
    const now = ctx.blockTime.getTime();
    const expires = this.expiresAt();
    if (expires !== undefined && now > expires) throw FeegrantErrors.FeeLimitExpired.wrap('absolute limit');
    this.tryResetPeriod(now);
    const canSpend = subCoins(coinsFromProto(this.value.periodCanSpend), fee);
    if (canSpend === undefined) throw FeegrantErrors.FeeLimitExceeded.wrap('period limit');
    this.value.periodCanSpend = coinsToProto(canSpend);
    if (this.basic.spendLimit.length > 0) {
      const left = subCoins(coinsFromProto(this.basic.spendLimit), fee);
      if (left === undefined) throw FeegrantErrors.FeeLimitExceeded.wrap('absolute limit');
      this.basic.spendLimit = coinsToProto(left);
      return left.length === 0;
    }
    return false;
  }

  /**
   * A new period once the reset time is reached: can-spend refilled to the smaller of the period
   * limit and what is left overall; the next reset one period on from the last, or one period
   * from now if more than a period has passed.
   */
  private tryResetPeriod(now: number): void {
    const reset = this.value.periodReset === undefined ? 0 : timestampMs(this.value.periodReset);
    if (now < reset) return;
    const basicLimit = coinsFromProto(this.basic.spendLimit);
    const periodLimit = coinsFromProto(this.value.periodSpendLimit);
    const fitsInBasic = subCoins(basicLimit, periodLimit) !== undefined;
    this.value.periodCanSpend = !fitsInBasic && basicLimit.length > 0 ? [...this.basic.spendLimit] : [...this.value.periodSpendLimit];
    const period = durationMs(this.value.period);
    let next = reset + period;
    if (now > next) next = now + period;
    this.value.periodReset = timestampFromMs(next);
  }

  validateBasic(): void {
    new Basic(this.basic).validateBasic();
    const periodLimit = coinsFromProto(this.value.periodSpendLimit);
    if (periodLimit.length === 0) throw SdkErrors.InvalidCoins.wrap('spend limit must be positive');
    limitError(periodLimit, 'spend amount');
    const canSpend = coinsFromProto(this.value.periodCanSpend);
    if (canSpend.some((coin) => coin.amount < 0n)) throw SdkErrors.InvalidCoins.wrap('can spend must not be negative');
    if (this.basic.spendLimit.length > 0) {
      const basicDenoms = new Set(this.basic.spendLimit.map((coin) => coin.denom));
      if (!periodLimit.every((coin) => basicDenoms.has(coin.denom))) throw SdkErrors.InvalidCoins.wrap('period spend limit has different currency than basic spend limit');
    }
    if (this.value.period === undefined || this.value.period.seconds < 0n || (this.value.period.seconds === 0n && this.value.period.nanos < 0)) {
      throw FeegrantErrors.InvalidDuration.wrap('negative clock step');
    }
  }

  expiresAt(): number | undefined {
    return this.basic.expiration === undefined ? undefined : timestampMs(this.basic.expiration);
  }

  updatePeriodReset(blockMs: number): void {
    this.value.periodReset = timestampFromMs(blockMs + durationMs(this.value.period));
  }

  pack(): Any {
    return create(AnySchema, { typeUrl: PERIODIC_ALLOWANCE_TYPE_URL, value: toBinary(PeriodicAllowanceSchema, this.value) });
  }
}

class AllowedMsg implements Allowance {
  private inner: Allowance | undefined;

  constructor(readonly value: AllowedMsgAllowance) {}

  private allowance(): Allowance {
    if (this.inner === undefined) {
      if (this.value.allowance === undefined) throw FeegrantErrors.NoAllowance.wrap('allowance should not be empty');
      this.inner = decodeAllowance(this.value.allowance);
    }
    return this.inner;
  }

  accept(ctx: Context, fee: readonly Coin[], msgs: readonly TypedMsg[]): boolean {
    const allowed = new Set<string>();
    for (const url of this.value.allowedMessages) {
      ctx.gasMeter.consumeGas(GAS_COST_PER_ITERATION, 'check msg');
      allowed.add(url);
    }
    for (const msg of msgs) {
      ctx.gasMeter.consumeGas(GAS_COST_PER_ITERATION, 'check msg');
      if (!allowed.has(msg.typeUrl)) throw FeegrantErrors.MessageNotAllowed.wrap('message does not exist in allowed messages');
    }
    const inner = this.allowance();
    const remove = inner.accept(ctx, fee, msgs);
    if (!remove) this.value.allowance = inner.pack();
    return remove;
  }

  validateBasic(): void {
    if (this.value.allowance === undefined) throw FeegrantErrors.NoAllowance.wrap('allowance should not be empty');
    if (this.value.allowedMessages.length === 0) throw FeegrantErrors.NoMessages.wrap('allowed messages shouldn\'t be empty');
    this.allowance().validateBasic();
  }

  expiresAt(): number | undefined {
    return this.allowance().expiresAt();
  }

  updatePeriodReset(blockMs: number): void {
    const inner = this.allowance();
    inner.updatePeriodReset(blockMs);
    this.value.allowance = inner.pack();
  }

  pack(): Any {
    return create(AnySchema, { typeUrl: ALLOWED_MSG_ALLOWANCE_TYPE_URL, value: toBinary(AllowedMsgAllowanceSchema, this.value) });
  }
}

/** The allowance in an Any, or the SDK's error for a type that is not one. */
export function decodeAllowance(any: Any | undefined): Allowance {
  if (any === undefined) throw FeegrantErrors.NoAllowance.wrap('allowance should not be empty');
  try {
    switch (any.typeUrl) {
      case BASIC_ALLOWANCE_TYPE_URL:
        return new Basic(fromBinary(BasicAllowanceSchema, any.value));
      case PERIODIC_ALLOWANCE_TYPE_URL:
        return new Periodic(fromBinary(PeriodicAllowanceSchema, any.value));
      case ALLOWED_MSG_ALLOWANCE_TYPE_URL:
        return new AllowedMsg(fromBinary(AllowedMsgAllowanceSchema, any.value));
    }
  } catch (err) {
    throw SdkErrors.UnpackAny.wrap(`${any.typeUrl}: ${err instanceof Error ? err.message : String(err)}`);
  }
  throw SdkErrors.InvalidType.wrap(`expected cosmos.feegrant.v1beta1.FeeAllowanceI, got ${any.typeUrl}`);
}

