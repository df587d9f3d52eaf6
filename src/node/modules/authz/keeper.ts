/**
 * The authz keeper (x/authz/keeper, SDK 0.47): grants by (granter, grantee, msg type URL) with an
 * expiration queue pruned in BeginBlock, and the execution of messages on their signer's behalf
 * (MsgExec) through the app's message router.
 */
import { create } from '@bufbuild/protobuf';
import { timestampMs, type Any, type Timestamp } from '@bufbuild/protobuf/wkt';
import { GrantQueueItemSchema, GrantSchema, type Grant } from '../../../gen/cosmos/authz/v1beta1/authz_pb.js';
import { EventGrantSchema, EventRevokeSchema } from '../../../gen/cosmos/authz/v1beta1/event_pb.js';
import type { MsgRouter } from '../../platform/router.js';
import { accString } from '../shared/address.js';
import type { Context } from '../shared/context.js';
import { SdkErrors, wrapError } from '../shared/errors.js';
import { EventManager, appendAttribute, typedEvent } from '../shared/events.js';
import { bytesEqual } from '../shared/keys.js';
import { decodeAuthorization, type Authorization } from './authorizations.js';
import { AuthzErrors } from './errors.js';
import type { AuthzAccountKeeper } from './expectedKeepers.js';
import { GrantQueue, Grants } from './keys.js';

/** One stored grant with its parties (iteration, export, queries). */
export interface StoredGrant {
  granter: Uint8Array;
  grantee: Uint8Array;
  msgTypeUrl: string;
  grant: Grant;
}

function formatTime(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

export class AuthzKeeper {
  constructor(
    private readonly accountKeeper: AuthzAccountKeeper,
    private readonly router: MsgRouter,
  ) {}

  /** The router knows a handler for this message type (MsgGrant refuses grants for unknown ones). */
  hasRoute(typeUrl: string): boolean {
    return this.router.route(typeUrl) !== undefined;
  }

  getGrant(ctx: Context, granter: Uint8Array, grantee: Uint8Array, msgTypeUrl: string): Grant | undefined {
    return Grants.get(ctx, [granter, grantee, msgTypeUrl]);
  }

  /** The grant's authorization unless it has expired by the block time (GetAuthorization). */
  getAuthorization(ctx: Context, granter: Uint8Array, grantee: Uint8Array, msgTypeUrl: string): Grant | undefined {
    const grant = this.getGrant(ctx, granter, grantee, msgTypeUrl);
    if (grant === undefined) return undefined;
    if (grant.expiration !== undefined && timestampMs(grant.expiration) < ctx.blockTime.getTime()) return undefined;
    return grant;
  }

  /** Creates the grantee's account when it has none (MsgGrant does, as the SDK). */
  ensureAccount(ctx: Context, address: Uint8Array): void {
    if (this.accountKeeper.getAccount(ctx, address) === undefined) this.accountKeeper.setAccount(ctx, this.accountKeeper.newAccountWithAddress(ctx, address));
  }

  /**
   * SaveGrant: stores (or replaces) the grant for the authorization's message type; the
   * expiration must be after the block time. Keeps the expiration queue in step and emits
   * EventGrant.
   */
  saveGrant(ctx: Context, granter: Uint8Array, grantee: Uint8Array, authorization: Any, expiration: Timestamp | undefined): void {
    const auth = decodeAuthorization(authorization);
    const msgTypeUrl = auth.msgTypeUrl();
    const now = ctx.blockTime.getTime();
    const expiresMs = expiration === undefined ? undefined : timestampMs(expiration);
    if (expiresMs !== undefined && expiresMs <= now) {
      throw AuthzErrors.InvalidExpirationTime.wrap(`expiration must be after the current block time (${formatTime(now)}), got ${formatTime(expiresMs)}`);
    }
    const old = this.getGrant(ctx, granter, grantee, msgTypeUrl);
    const oldMs = old?.expiration === undefined ? undefined : timestampMs(old.expiration);
    if (oldMs !== undefined && oldMs !== expiresMs) this.removeFromQueue(ctx, granter, grantee, msgTypeUrl, oldMs);
    if (expiresMs !== undefined && oldMs !== expiresMs) this.insertIntoQueue(ctx, granter, grantee, msgTypeUrl, expiresMs);
    Grants.set(ctx, [granter, grantee, msgTypeUrl], create(GrantSchema, { authorization, expiration }));
    ctx.events.emit(typedEvent(EventGrantSchema, create(EventGrantSchema, { msgTypeUrl, granter: accString(granter), grantee: accString(grantee) })));
  }

  /** DeleteGrant: ErrNoAuthorizationFound when there is no such grant; emits EventRevoke. */
  deleteGrant(ctx: Context, granter: Uint8Array, grantee: Uint8Array, msgTypeUrl: string): void {
    const grant = this.getGrant(ctx, granter, grantee, msgTypeUrl);
    if (grant === undefined) {
      throw AuthzErrors.NoAuthorizationFound.wrap(`failed to delete grant with granter ${accString(granter)}, grantee ${accString(grantee)} and msg type ${msgTypeUrl}`);
    }
    if (grant.expiration !== undefined) this.removeFromQueue(ctx, granter, grantee, msgTypeUrl, timestampMs(grant.expiration));
    Grants.remove(ctx, [granter, grantee, msgTypeUrl]);
    ctx.events.emit(typedEvent(EventRevokeSchema, create(EventRevokeSchema, { msgTypeUrl, granter: accString(granter), grantee: accString(grantee) })));
  }

  private updateGrant(ctx: Context, granter: Uint8Array, grantee: Uint8Array, msgTypeUrl: string, updated: Any): void {
    const grant = this.getGrant(ctx, granter, grantee, msgTypeUrl);
    if (grant === undefined) throw AuthzErrors.NoAuthorizationFound.error();
    Grants.set(ctx, [granter, grantee, msgTypeUrl], create(GrantSchema, { authorization: updated, expiration: grant.expiration }));
  }

  private insertIntoQueue(ctx: Context, granter: Uint8Array, grantee: Uint8Array, msgTypeUrl: string, expiresMs: number): void {
    const key = [expiresMs, granter, grantee] as const;
    const item = GrantQueue.get(ctx, key);
    GrantQueue.set(ctx, key, create(GrantQueueItemSchema, { msgTypeUrls: [...(item?.msgTypeUrls ?? []), msgTypeUrl] }));
  }

  private removeFromQueue(ctx: Context, granter: Uint8Array, grantee: Uint8Array, msgTypeUrl: string, expiresMs: number): void {
    const key = [expiresMs, granter, grantee] as const;
    const item = GrantQueue.get(ctx, key);
    if (item === undefined) throw AuthzErrors.NoGrantKeyFound.wrap('can\'t find the grant in the expiration queue');
    const rest = item.msgTypeUrls.filter((url) => url !== msgTypeUrl);
    if (rest.length === 0) GrantQueue.remove(ctx, key);
    else GrantQueue.set(ctx, key, create(GrantQueueItemSchema, { msgTypeUrls: rest }));
  }

  /**
   * DispatchActions: each message must have exactly one signer; a signer other than the grantee
   * needs a grant for the message's type that has not expired and whose authorization accepts
   * the message (updated or deleted as it says). The message then runs through the router with
   * the signer's authority; its result data is returned and its events are re-emitted with an
   * `authz_msg_index` attribute.
   */
  async dispatchActions(ctx: Context, grantee: Uint8Array, msgs: readonly Any[]): Promise<Uint8Array[]> {
    const results: Uint8Array[] = [];
    const now = ctx.blockTime.getTime();
    for (const [index, any] of msgs.entries()) {
      const decoded = this.router.decode(any);
      if (decoded.signers.length !== 1) throw AuthzErrors.AuthorizationNumOfSigners.error();
      const granter = decoded.signers[0]!;
      if (!bytesEqual(granter, grantee)) {
        const grant = this.getGrant(ctx, granter, grantee, any.typeUrl);
        if (grant === undefined) {
          throw AuthzErrors.NoAuthorizationFound.wrap(`failed to get grant with given granter: ${accString(granter)}, grantee: ${accString(grantee)} & msgType: ${any.typeUrl} `);
        }
        if (grant.expiration !== undefined && timestampMs(grant.expiration) < now) throw AuthzErrors.AuthorizationExpired.error();
        const authorization: Authorization = decodeAuthorization(grant.authorization);
        const response = authorization.accept(ctx, any.typeUrl, decoded.message);
        if (response.delete) this.deleteGrant(ctx, granter, grantee, any.typeUrl);
        else if (response.updated !== undefined) this.updateGrant(ctx, granter, grantee, any.typeUrl, response.updated);
        if (!response.accept) throw SdkErrors.Unauthorized.error();
      }
      if (!this.hasRoute(any.typeUrl)) throw SdkErrors.UnknownRequest.wrap(`unrecognized message route: ${any.typeUrl}`);
      const events = new EventManager();
      let result;
      try {
        result = await this.router.dispatch(ctx.with({ events }), decoded, [granter]);
      } catch (err) {
        throw wrapError(err, `failed to execute message; message ${any.typeUrl}`);
      }
      results.push(result.response.value);
      for (const event of result.events) ctx.events.emit(appendAttribute(event, 'authz_msg_index', String(index)));
    }
    return results;
  }

  /** DequeueAndDeleteExpiredGrants: every grant whose expiration is at or before the block time. */
  async deleteExpiredGrants(ctx: Context): Promise<void> {
    const now = ctx.blockTime.getTime();
    const due: (readonly [number, Uint8Array, Uint8Array, string[]])[] = [];
    for await (const [[expiresMs, granter, grantee], item] of GrantQueue.iterate(ctx)) {
      if (expiresMs > now) break;
      due.push([expiresMs, granter, grantee, item.msgTypeUrls]);
    }
    for (const [expiresMs, granter, grantee, urls] of due) {
      GrantQueue.remove(ctx, [expiresMs, granter, grantee]);
      for (const url of urls) Grants.remove(ctx, [granter, grantee, url]);
    }
  }

  /** Every stored grant, in key order (granter, grantee, type URL). */
  async allGrants(ctx: Context): Promise<StoredGrant[]> {
    const out: StoredGrant[] = [];
    for await (const [[granter, grantee, msgTypeUrl], grant] of Grants.iterate(ctx)) out.push({ granter, grantee, msgTypeUrl, grant });
    return out;
  }
}
