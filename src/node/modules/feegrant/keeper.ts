/**
 * The feegrant keeper (x/feegrant/keeper, SDK 0.47): allowances by (grantee, granter), an expiry
 * queue pruned in EndBlock and by MsgPruneAllowances, and `useGrantedFees`, the ante chain's
 * fee-granter hook.
 */
import { create } from '@bufbuild/protobuf';
import type { Any } from '@bufbuild/protobuf/wkt';
import { GrantSchema, type Grant } from '../../../gen/cosmos/feegrant/v1beta1/feegrant_pb.js';
import { accString } from '../shared/address.js';
import type { Coin } from '../shared/coins.js';
import type { Context } from '../shared/context.js';
import { SdkErrors } from '../shared/errors.js';
import { newEvent } from '../shared/events.js';
import { decodeAllowance, type TypedMsg } from './allowances.js';
import { FeegrantErrors } from './errors.js';
import type { FeegrantAccountKeeper, FeegrantBankKeeper } from './expectedKeepers.js';
import { AllowanceQueue, Allowances } from './keys.js';

export const EVENT_TYPE_SET_FEEGRANT = 'set_feegrant';
export const EVENT_TYPE_UPDATE_FEEGRANT = 'update_feegrant';
export const EVENT_TYPE_REVOKE_FEEGRANT = 'revoke_feegrant';
export const EVENT_TYPE_USE_FEEGRANT = 'use_feegrant';
export const EVENT_TYPE_PRUNE_FEEGRANT = 'prune_feegrant';

/** Expired allowances removed per EndBlock and per MsgPruneAllowances. */
export const END_BLOCK_PRUNE_LIMIT = 200;
export const MSG_PRUNE_LIMIT = 75;

function grantEvent(type: string, granter: Uint8Array, grantee: Uint8Array): ReturnType<typeof newEvent> {
  return newEvent(type, ['granter', accString(granter)], ['grantee', accString(grantee)]);
}

export class FeegrantKeeper {
  constructor(
    private readonly accountKeeper: FeegrantAccountKeeper,
    private readonly bankKeeper: FeegrantBankKeeper,
  ) {}

  getGrant(ctx: Context, granter: Uint8Array, grantee: Uint8Array): Grant | undefined {
    return Allowances.get(ctx, [grantee, granter]);
  }

  /** GetAllowance's error when there is none: "fee-grant not found: no allowance". */
  requireGrant(ctx: Context, granter: Uint8Array, grantee: Uint8Array): Grant {
    const grant = this.getGrant(ctx, granter, grantee);
    if (grant === undefined) throw FeegrantErrors.NoAllowance.wrap('fee-grant not found');
    return grant;
  }

  /**
   * GrantAllowance: creates the grantee's account if needed (not for a blocked address), refuses
   * an expiration before the block time, queues the expiration, starts a periodic allowance's
   * first period at the block time, stores the grant and emits set_feegrant.
   */
  grantAllowance(ctx: Context, granter: Uint8Array, grantee: Uint8Array, allowanceAny: Any): void {
    if (this.accountKeeper.getAccount(ctx, grantee) === undefined) {
      if (this.bankKeeper.blockedAddr(grantee)) throw SdkErrors.Unauthorized.wrap(`${accString(grantee)} is not allowed to receive funds`);
      this.accountKeeper.setAccount(ctx, this.accountKeeper.newAccountWithAddress(ctx, grantee));
    }
    const allowance = decodeAllowance(allowanceAny);
    const expires = allowance.expiresAt();
    const now = ctx.blockTime.getTime();
    if (expires !== undefined && expires < now) throw SdkErrors.InvalidRequest.wrap('expiration is before current block time');
    if (expires !== undefined) AllowanceQueue.set(ctx, [expires, grantee, granter]);
    allowance.updatePeriodReset(now);
    Allowances.set(ctx, [grantee, granter], create(GrantSchema, { granter: accString(granter), grantee: accString(grantee), allowance: allowance.pack() }));
    ctx.events.emit(grantEvent(EVENT_TYPE_SET_FEEGRANT, granter, grantee));
  }

  /** revokeAllowance: ErrNoAllowance when there is none; dequeues and emits revoke_feegrant. */
  revokeAllowance(ctx: Context, granter: Uint8Array, grantee: Uint8Array): void {
    const grant = this.getGrant(ctx, granter, grantee);
    if (grant === undefined) throw FeegrantErrors.NoAllowance.wrap('allowance does not exist');
    Allowances.remove(ctx, [grantee, granter]);
    const expires = decodeAllowance(grant.allowance).expiresAt();
    if (expires !== undefined) AllowanceQueue.remove(ctx, [expires, grantee, granter]);
    ctx.events.emit(grantEvent(EVENT_TYPE_REVOKE_FEEGRANT, granter, grantee));
  }

  /**
   * UseGrantedFees (the ante chain's hook): the allowance `granter` gave `grantee` pays `fee` for
   * `msgs`, or the allowance's error is thrown and nothing changes. A used-up allowance is
   * removed; otherwise its new state is stored (update_feegrant). Emits use_feegrant.
   */
  useGrantedFees(ctx: Context, granter: Uint8Array, grantee: Uint8Array, fee: readonly Coin[], msgs: readonly TypedMsg[]): void {
    const grant = this.requireGrant(ctx, granter, grantee);
    const allowance = decodeAllowance(grant.allowance);
    const remove = allowance.accept(ctx, fee, msgs);
    if (remove) {
      this.revokeAllowance(ctx, granter, grantee);
      ctx.events.emit(grantEvent(EVENT_TYPE_USE_FEEGRANT, granter, grantee));
      return;
    }
    ctx.events.emit(grantEvent(EVENT_TYPE_USE_FEEGRANT, granter, grantee));
    Allowances.set(ctx, [grantee, granter], create(GrantSchema, { granter: grant.granter, grantee: grant.grantee, allowance: allowance.pack() }));
    ctx.events.emit(grantEvent(EVENT_TYPE_UPDATE_FEEGRANT, granter, grantee));
  }

  /** RemoveExpiredAllowances: up to `limit` allowances whose expiration is at or before the block time. */
  async removeExpiredAllowances(ctx: Context, limit: number): Promise<number> {
    const now = ctx.blockTime.getTime();
    const due: (readonly [number, Uint8Array, Uint8Array])[] = [];
    for await (const key of AllowanceQueue.iterate(ctx)) {
      if (key[0] > now || due.length >= limit) break;
      due.push(key);
    }
    for (const [expires, grantee, granter] of due) {
      AllowanceQueue.remove(ctx, [expires, grantee, granter]);
      Allowances.remove(ctx, [grantee, granter]);
    }
    return due.length;
  }

  /** Every allowance, in key order (grantee, granter). */
  async allGrants(ctx: Context): Promise<Grant[]> {
    const out: Grant[] = [];
    for await (const [, grant] of Allowances.iterate(ctx)) out.push(grant);
    return out;
  }
}
