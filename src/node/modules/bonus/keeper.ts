/**
 * The bonus keeper: params, and the BeginBlock that pays `bonus_amount` of `bonus_denom` from the
 * bonus pool (the module account's balance) to the fee collector, every block while the pool
 * lasts; the last payment is whatever is left when that is less than the amount, so the pool
 * ends empty. Emits `bonus{amount}` when it pays.
 */
import type { Context } from '../shared/context.js';
import { ATTRIBUTE_KEY_AMOUNT, newEvent } from '../shared/events.js';
import type { BonusAccountKeeper, BonusBankKeeper } from './expectedKeepers.js';
import { BONUS_POOL_NAME, FEE_COLLECTOR_NAME, Params } from './keys.js';
import { bonusAmountOf, defaultBonusParams, type BonusParams } from './params.js';

export const EVENT_TYPE_BONUS = 'bonus';

export class BonusKeeper {
  private readonly poolAddress: Uint8Array;

  constructor(
    private readonly accountKeeper: BonusAccountKeeper,
    private readonly bankKeeper: BonusBankKeeper,
    private readonly fallbackDenom = 'attotoken',
  ) {
    const address = accountKeeper.getModuleAddress(BONUS_POOL_NAME);
    if (address === undefined) throw new Error(`module account ${BONUS_POOL_NAME} is not registered`);
    this.poolAddress = address;
  }

  getParams(ctx: Context): BonusParams {
    return Params.get(ctx) ?? defaultBonusParams(this.fallbackDenom);
  }

  setParams(ctx: Context, params: BonusParams): void {
    Params.set(ctx, params);
  }

  /** The pool's address (the bonus module account). */
  poolAddressBytes(): Uint8Array {
    return this.poolAddress;
  }

  /** What is left in the pool, in the bonus denom. */
  poolBalance(ctx: Context): bigint {
    return this.bankKeeper.getBalance(ctx, this.poolAddress, this.getParams(ctx).bonusDenom);
  }

  ensureModuleAccount(ctx: Context): void {
    if (this.accountKeeper.getModuleAccount(ctx, BONUS_POOL_NAME) === undefined) throw new Error(`module account ${BONUS_POOL_NAME} is not registered`);
  }

  /** BeginBlock: pay this block's bonus; returns the amount paid (0 when the pool is empty). */
  beginBlock(ctx: Context): bigint {
    const params = this.getParams(ctx);
    const amount = bonusAmountOf(params) ?? 0n;
    if (amount <= 0n) return 0n;
    const pool = this.bankKeeper.getBalance(ctx, this.poolAddress, params.bonusDenom);
    if (pool === 0n) return 0n;
    const paid = pool < amount ? pool : amount;
    this.bankKeeper.sendCoinsFromModuleToModule(ctx, BONUS_POOL_NAME, FEE_COLLECTOR_NAME, [{ denom: params.bonusDenom, amount: paid }]);
    ctx.events.emit(newEvent(EVENT_TYPE_BONUS, [ATTRIBUTE_KEY_AMOUNT, `${paid}${params.bonusDenom}`]));
    return paid;
  }
}
